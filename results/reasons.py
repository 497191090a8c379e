"""Why a standing line is above the next one, in the reader's language (the standings
page, its CSV and the API say it alike)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.formats import get_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from league.i18n import METRIC_LABELS, metric_label
from results.selectors import Line


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
