"""Game models."""
