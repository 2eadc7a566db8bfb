"""pipeline/render."""
