"""A season's circuit standing (formats.md §3), from its events' final orders."""

from __future__ import annotations


def recompute_circuit(season_id: int) -> None:
    """Circuit points and places of a season with a circuit profile (being built)."""
    raise NotImplementedError(season_id)
