"""The engine's codes in the reader's language: one table ``{key: gettext_lazy(sentence)}``.

The engine (:mod:`engine.messages`) gives every sentence as a ``code`` and plain JSON
``params``; this package renders them at read time in the active language. Nothing here
reads an engine sentence: the table is keyed by the catalogue key (``code`` or
``code/variant``), its msgids are our own English (changing the engine's wording changes
no translation key), and each parameter is shown by its kind (:class:`ParamKind`): a
phase as 第2夜 / noche 2, a list of seats as 1、7 (the sentence says 号 or asientos), an
enumerated word translated (scoped by parameter where one token needs two words).

A row stored before codes kept its English only (``params`` null): ``stored_*`` show it
as stored rather than guess.

The table is assembled from parts by concern (``records``, ``games``, ``scoring``,
``draws``), like the engine's catalogue: each part is a plain module of tables that imports
nothing from this package, so this package imports them at its top. ``tests/i18n``
renders every catalogue key in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import pgettext, pgettext_lazy

from engine.messages import PARAMS, ParamKind, message_key, render
from league.engine_text import (
    circuits,
    draws,
    final_seating,
    games,
    notation,
    records,
    scoring,
    stages,
)

# --- the small words -----------------------------------------------------------------------

#: Enumerated words a parameter of kind ``word`` may hold, translated. A key is the token
#: (``"killer"``), or ``"param:token"`` where one token needs another word in one
#: parameter (``"rule:killers"``, a final tie's rule, beside the winner ``"killers"``).
WORDS: dict[str, Promise] = {}


def word_text(value: str, param: str | None = None) -> str:
    """An enumerated word (a role, a winner, a JSON kind …) in the active language;
    ``param``: the parameter it is the value of, for a word that depends on it."""
    found = WORDS.get(f"{param}:{value}") if param else None
    if found is None:
        found = WORDS.get(value)
    return str(found) if found is not None else value


def phase_text(label: str | None, on: bool = False) -> str:
    """``"night 2"`` → 第2夜 / noche 2; ``"day 3 ballot 2"``; ``on``: "killed on night 2".

    A phase is a token of the engine's data (``kind n [ballot k]``), split, not parsed as
    a sentence; anything else is shown as written.
    """
    if not label:
        return label or ""
    parts = label.split(" ")
    if len(parts) not in (2, 4) or parts[0] not in ("night", "day") or not parts[1].isdigit():
        return label
    n = parts[1]
    if len(parts) == 4:
        if parts[0] != "day" or parts[2] != "ballot" or not parts[3].isdigit():
            return label
        return pgettext("phase", "day %(n)s ballot %(k)s") % {"n": n, "k": parts[3]}
    if parts[0] == "night":
        text = pgettext("on a phase", "night %(n)s") if on else pgettext("phase", "night %(n)s")
    else:
        text = pgettext("on a phase", "day %(n)s") if on else pgettext("phase", "day %(n)s")
    return text % {"n": n}


def _joined(values: Any) -> str:
    if isinstance(values, (list, tuple)):
        return pgettext("list separator", ", ").join(str(v) for v in values)
    return str(values)


def number_text(value: Any) -> str:
    """A decimal kept as text (``"1.5"``) with the active language's decimal mark."""
    try:
        return number_format(Decimal(str(value)))
    except (InvalidOperation, ValueError):
        return str(value)


#: Phase parameters said as a moment ("killed on night 2": la noche 2), not as a name.
ON_PHASES = frozenset({"on", "ended"})


def _words(values: Any, param: str) -> str:
    if not isinstance(values, (list, tuple)):
        return word_text(str(values), param)
    return _joined([word_text(str(w), param) for w in values])


_FORMATTERS: Mapping[ParamKind, Callable[[Any, str], str]] = {
    ParamKind.INT: lambda v, _: str(v),
    ParamKind.SEAT: lambda v, _: str(v),
    ParamKind.SEATS: lambda v, _: _joined(v),
    ParamKind.INTS: lambda v, _: _joined(v),
    ParamKind.PHASE: lambda v, name: phase_text(str(v), on=name in ON_PHASES),
    ParamKind.TEXT: lambda v, _: str(v),
    ParamKind.TEXTS: lambda v, _: _joined(v),
    ParamKind.WORD: lambda v, name: word_text(str(v), name),
    ParamKind.WORDS: _words,
    ParamKind.DECIMAL: lambda v, _: number_text(v),
}


def param_text(name: str, value: Any) -> str:
    """One parameter in the active language, by the kind the engine declares for it."""
    if value is None:
        return ""
    kind = PARAMS.get(name, ParamKind.TEXT)
    return _FORMATTERS[kind](value, name)


# --- the table -----------------------------------------------------------------------------

#: ``{catalogue key: gettext_lazy(sentence with %(named)s params)}`` — every engine key.
TEXT: dict[str, Promise] = {}


def engine_text(code: str, params: Mapping[str, Any] | None) -> str:
    """The sentence for ``code`` with ``params`` in the active language.

    A key the table lacks (a newer engine than this table) falls back to the engine's
    English, so a reader never meets a blank.
    """
    params = params or {}
    template = TEXT.get(message_key(code, params))
    if template is not None:
        values = {name: param_text(name, value) for name, value in params.items()}
        try:
            return str(template) % values
        except (KeyError, TypeError, ValueError):  # params of another engine version
            pass
    try:
        return render(code, params)
    except (KeyError, IndexError, TypeError, ValueError):
        return code


def message_text(message: Any) -> str:
    """Anything that is a code and params — an engine :class:`~engine.messages.Message`, a
    tie, an ending, a point line, or their stored ``{"code", "params"}`` — in the active
    language."""
    code, params = _get(message, "code"), _get(message, "params")
    return engine_text(str(code or ""), params if isinstance(params, Mapping) else {})


_PLACES: Mapping[str, Promise] = {
    "setup": pgettext_lazy("record part", "setup"),
    "result": pgettext_lazy("record part", "result"),
    "series": pgettext_lazy("record part", "series"),
    "awards": pgettext_lazy("record part", "awards"),
    "ruleset": pgettext_lazy("record part", "ruleset"),
    "seats": pgettext_lazy("record part", "seats"),
    "log": pgettext_lazy("record part", "log"),
    "meta": pgettext_lazy("record part", "meta"),
    "format": pgettext_lazy("record part", "format"),
    "record": pgettext_lazy("record part", "record"),
}


def where_text(where: str) -> str:
    """A violation's ``where``: a phase, a part of the record, or a JSON path as written."""
    found = _PLACES.get(where)
    return str(found) if found is not None else phase_text(where)


def violation_text(code: str, where: str, params: Mapping[str, Any] | None) -> str:
    """A violation as a reader sees it: ``place: sentence`` (the place a path or ``where``)."""
    params = params or {}
    path = params.get("path")
    place = str(path) if path else where_text(where)
    return pgettext("where: what", "%(where)s: %(message)s") % {
        "where": place,
        "message": engine_text(code, params),
    }


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


def stored_violation_text(v: Any) -> str:
    """A violation — the engine's :class:`~engine.record.Violation` or a stored
    ``{"code", "where", "params", "message"}`` — as a reader sees it.

    A row stored before violations kept their params (``params`` null: the migration could
    not recover them) is shown as it was stored.
    """
    params = _get(v, "params")
    if not isinstance(params, Mapping):
        return str(_get(v, "message") or _get(v, "code") or "")
    return violation_text(str(_get(v, "code") or ""), str(_get(v, "where") or ""), params)


def stored_reason_text(item: Any) -> str:
    """A point line's reason — an engine ``PointItem`` or a stored ``{"kind", "points",
    "code", "params"}`` — in the active language; a line stored with only its English
    ``reason`` (no params recovered) is shown as it was stored."""
    params = _get(item, "params")
    if not isinstance(params, Mapping) or not _get(item, "code"):
        return str(_get(item, "reason") or "")
    return engine_text(str(_get(item, "code")), params)


def _assemble() -> None:
    """The parts (plain tables of lazy sentences, importing nothing of this package) into
    :data:`TEXT` and :data:`WORDS`; a key defined twice is a bug."""
    for part in (records, games, scoring, draws, stages, final_seating, circuits, notation):
        for key in part.TEXT:
            if key in TEXT:
                raise RuntimeError(f"engine text {key!r} is defined twice")
        TEXT.update(part.TEXT)
        WORDS.update(part.WORDS)


_assemble()
