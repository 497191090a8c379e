"""The sheet's own converter from a record to steps (used to play simulated games)."""

from games.sheet import record_to_steps

__all__ = ["record_to_steps"]
