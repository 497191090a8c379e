"""League models."""
