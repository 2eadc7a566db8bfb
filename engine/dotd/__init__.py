"""engine/dotd."""
