"""The engine's final seating keys in the reader's language (see :mod:`league.engine_text`),
one entry per key of :mod:`engine.texts.final_seating`; our own English msgids."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

TEXT: dict[str, Promise] = {
    "final_seating.players/few": gettext_lazy(
        "A final table needs at least %(min)s players, not %(count)s."
    ),
    "final_seating.players/many": gettext_lazy(
        "A final table seats at most %(max)s players, not %(count)s."
    ),
    "final_seating.players/repeated": gettext_lazy("Players listed more than once: %(names)s."),
    "final_seating.games/few": gettext_lazy("A final needs at least %(min)s game, not %(count)s."),
    "final_seating.games/many": gettext_lazy(
        "A final seating covers at most %(max)s games, not %(count)s."
    ),
}

WORDS: dict[str, Promise] = {}
