"""engine/gf."""
