"""Labels for the engine's identifiers that users choose from (rulesets), in their language.

The ids stay the stored values (``classic``, ``mainstream`` …); a select shows
``classic — 经典：屠边，有投降`` so nobody has to know the English id.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from engine.rulesets import RULESETS

RULESET_LABELS: dict[str, Promise] = {
    "classic": gettext_lazy(
        "classic — 003 rules: killers win by killing a side, the last of a side may surrender"
    ),
    "mainstream": gettext_lazy(
        "mainstream — killers win by killing every good player; a third tie draws"
    ),
    "civilian-draw": gettext_lazy("civilian-draw — killing every civilian only draws the game"),
    "majority": gettext_lazy("majority — a majority of votes puts a player out; 10 players"),
}


def ruleset_label(key: str) -> str:
    """A ruleset's id with its description in the active language."""
    label = RULESET_LABELS.get(key)
    return str(label) if label is not None else key


def ruleset_choices() -> list[tuple[str, str]]:
    """``(id, label)`` for every built-in ruleset, for a form's select (call per form)."""
    return [(key, ruleset_label(key)) for key in RULESETS]
