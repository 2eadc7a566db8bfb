"""engine/agents."""
