"""Seating draws: who sits at which table, in which seat, every round.

Affine planes and orthogonal arrays give exactly-fair draws where the event's shape
allows; tabu search handles the rest. See docs/draws.md.
"""

from engine.seating.draw import SeatingDraw, SeatingRound, draw_seating
from engine.seating.metrics import SeatingMetrics
from engine.seating.problem import (
    DrawConstraintError,
    SearchOptions,
    SeatingProblem,
    SeatingProblemError,
    options_from_mapping,
)

__all__ = [
    "DrawConstraintError",
    "SearchOptions",
    "SeatingDraw",
    "SeatingMetrics",
    "SeatingProblem",
    "SeatingProblemError",
    "SeatingRound",
    "draw_seating",
    "options_from_mapping",
]
