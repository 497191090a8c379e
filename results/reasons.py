"""Why a standing line is above the next one, in the reader's language (the standings
page, its CSV and the API say it alike); the standings' column headers and the legend
that explains them; amounts written the reader's way."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.formats import get_format, number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from league.i18n import METRIC_LABELS, metric_label
from results.selectors import Line

#: The standings' column headers: short words, each explained in full by the legend.
COLUMN_LABELS: dict[str, Promise] = {
    "points": gettext_lazy("Points"),
    "wins": gettext_lazy("Wins"),
    "awards": gettext_lazy("Awards"),
    "police-killer-wins": gettext_lazy("Police or killer wins"),
    "night1-deaths": gettext_lazy("Night-1 deaths"),
    "lots": gettext_lazy("Lot"),
    "stage": gettext_lazy("Stage"),
}

#: What each tie-break column counts (the legend under a standings table).
COLUMN_HELP: dict[str, Promise] = {
    "points": gettext_lazy("Total points: game points plus Ci."),
    "wins": gettext_lazy("Games won (a draw is not a win)."),
    "awards": gettext_lazy(
        "Award points: the referee's bonuses and penalties, best guesses and ejections "
        "(the total minus the result's points and Ci)."
    ),
    "police-killer-wins": gettext_lazy("Games won as the police or as a killer."),
    "night1-deaths": gettext_lazy("Times killed on night 1 as a good player (more ranks higher)."),
    "lots": gettext_lazy(
        "Drawing of lots: each player's lot comes from the event's lots seed and the "
        "player's name alone, so the same seed always gives the same draw; the lower lot "
        "ranks higher."
    ),
    "stage": gettext_lazy("The last stage the player took part in: a later stage ranks higher."),
}


def column_label(key: str) -> str:
    """A tie-break column's header (an unknown key: its long name, else the key)."""
    label = COLUMN_LABELS.get(key)
    return str(label) if label is not None else metric_label(key)


def legend(precedence: list[str]) -> list[dict[str, str]]:
    """The standings' legend: each tie-break column of the event's ladder, in order, with
    its header, its full name and what it counts."""
    return [
        {
            "key": key,
            "label": column_label(key),
            "name": metric_label(key),
            "help": str(COLUMN_HELP.get(key, "")),
        }
        for key in precedence
        if key != "points"
    ]


def amount(value: Any, decimal: str | None = None, places: int = 2) -> str:
    """Points as the reader writes them, with ``places`` decimals: "1.20" / "1,20" (a sum
    of a database may come as a float, "1.2000000000000002", or a long Decimal)."""
    if value is None:
        return "—"
    mark = str(get_format("DECIMAL_SEPARATOR")) if decimal is None else decimal
    text = f"{Decimal(str(value)):.{places}f}"
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:]  # "-0.00" is 0
    return text.replace(".", mark)


class Words:
    """The translated words of the standings' reasons, looked up once per page."""

    def __init__(self) -> None:
        self.list_sep = pgettext("list separator", ", ")
        self.clause_sep = pgettext("clause separator", "; ")
        self.labels = {k: metric_label(k) for k in METRIC_LABELS}
        self.tied = _("tied with %(next)s on every tie-break")
        self.above = _("above %(next)s on %(metric)s (%(a)s vs %(b)s)")
        self.level = _("level on %(metrics)s")
        self.decimal = str(get_format("DECIMAL_SEPARATOR"))
        self._numbers: dict[str | None, str] = {}

    def number(self, value: str | None) -> str:
        """``value`` as the reader writes it; remembered, since a table repeats few values."""
        text = self._numbers.get(value)
        if text is None:
            text = self._numbers[value] = _short(value, self.decimal)
        return text

    def label(self, key: str) -> str:
        return self.labels.get(key) or metric_label(key)


def explain(row: Any, below: Any | None, words: Words | None = None) -> str:
    """Why ``row`` stands above the next line, in the reader's language."""
    above = row.above_next or {}
    if below is None or not above:
        return ""
    w = words or Words()
    level = w.list_sep.join(w.label(k) for k in above.get("level_on", []))
    metric = above.get("metric")
    if metric is None:
        return w.tied % {"next": _name(below)}
    text = w.above % {
        "next": _name(below),
        "metric": w.label(metric),
        "a": w.number(above.get("higher")),
        "b": w.number(above.get("lower")),
    }
    if level:
        text += w.clause_sep + w.level % {"metrics": level}
    return text


def _short(value: str | None, decimal: str | None = None) -> str:
    """A metric value as the reader writes numbers: "3", "1.5" / "1,5" (never "3E+1")."""
    if value is None:
        return "—"
    d = Decimal(value)
    shown = d.quantize(Decimal(1)) if d == d.to_integral() else d
    if decimal is None:
        return number_format(shown)  # the reader's decimal mark
    return str(shown).replace(".", decimal)


def _name(row: Any) -> str:
    """A standing row's player name (a model row or a :class:`Line`)."""
    if isinstance(row, Line):
        return row.display_name or row.handle
    return str(row.player.display_name if row.player is not None else row.handle)
