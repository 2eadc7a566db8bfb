"""Loading and validation, rules text, layout, renderers, playtest gates and the CLI."""
