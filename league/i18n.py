"""The league's words in the reader's language: ruleset labels for selects, the notes a
draw job stores (codes and params, rendered when read) and the problems of a CSV import.

Nothing here reads a sentence: a stored note is ``{"code", "params"}`` and its sentence
comes from :mod:`league.engine_text` (the engine's codes and the league's own draw codes,
one table); an import problem is a code with its params, decided where it was found.

The ruleset ids stay the stored values (``classic``, ``mainstream`` …); a select shows
``classic — 经典：屠边，有投降`` so nobody has to know the English id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext

from engine.errors import EngineError
from engine.messages import CATALOGUE, message_key
from engine.rulesets import RULESETS
from engine.seating import SeatingProblemError
from league.engine_text import engine_text, param_text
from league.engine_text.draws import LEAGUE

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


def engine_error_text(exc: EngineError) -> str:
    """An engine refusal (a ruleset's, a scoring profile's …) in the reader's language, by
    its code; an error without a catalogue code (none should remain) as the engine said it."""
    if isinstance(exc, SeatingProblemError):  # every problem of a malformed request
        return "; ".join(engine_text(p.code, p.params) for p in exc.problems)
    if message_key(exc.code, exc.params) not in CATALOGUE:
        return str(exc)
    return engine_text(exc.code, exc.params)


# --- a draw job's notes: its warnings and its error, stored as codes ------------------------


#: The code of a note stored before notes had codes: ``{"text": the sentence as stored}``,
#: shown as it was written (migration 0012).
LEGACY = "legacy"


def note(code: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A note to store: ``{"code", "params"}`` (plain JSON values; tuples become lists)."""
    return {"code": code, "params": {k: _plain(v) for k, v in (params or {}).items()}}


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def draw_note_text(note: Any) -> str:
    """A draw job's stored warning or error (``{"code", "params"}``) in the reader's
    language: the engine's codes and the league's (``league.draw.*``) from one table;
    a legacy note as it was stored."""
    if not isinstance(note, Mapping) or not isinstance(note.get("code"), str):
        return ""
    code: str = note["code"]
    params = note.get("params")
    params = params if isinstance(params, Mapping) else {}
    if code == LEGACY:
        return str(params.get("text") or "")
    template = LEAGUE.get(code)
    if template is None:
        return engine_text(code, params)
    return str(template) % {name: _league_param(name, value) for name, value in params.items()}


def _league_param(name: str, value: Any) -> str:
    if name == "error":  # a nested note: the engine's refusal
        return draw_note_text(value)
    if name == "problems" and isinstance(value, list):  # the engine's refusals
        return "; ".join(draw_note_text(v) for v in value)
    if name == "tables" and isinstance(value, list):  # the tables a redraw kept
        return ", ".join(_kept_table(t) for t in value if isinstance(t, Mapping))
    return param_text(name, value)


def _kept_table(table: Mapping[str, Any]) -> str:
    """“round 2 table 1 (a game is recorded)”, in the words of the draw page's notice."""
    why = (
        gettext("a game is recorded") if table.get("why") == "played" else gettext("placed by hand")
    )
    return gettext("round %(r)s table %(t)s (%(why)s)") % {
        "r": table.get("round"),
        "t": table.get("table"),
        "why": why,
    }


def note_dict(note: Any) -> dict[str, Any] | None:
    """A stored note as the API gives it: ``code``, ``params`` and the ``message``."""
    if not isinstance(note, Mapping) or not note.get("code"):
        return None
    return {
        "code": note["code"],
        "params": note.get("params") or {},
        "message": draw_note_text(note),
    }


# --- the problems of a CSV import -----------------------------------------------------------

#: ``{problem code: sentence}``: what :func:`league.events.imports.import_players_csv` finds in
#: a row. The code is decided where the problem is found (and with it the column).
IMPORT_PROBLEMS: dict[str, Promise] = {
    "csv.too_large": gettext_lazy("%(size)s KiB, the limit is %(limit)s KiB"),
    "csv.not_utf8": gettext_lazy("not UTF-8"),
    "csv.missing_columns": gettext_lazy("missing column; the header must name %(cols)s"),
    "csv.too_many_rows": gettext_lazy("more than %(limit)s players in one file"),
    "csv.extra_fields": gettext_lazy("more fields than the header names"),
    "csv.no_players": gettext_lazy("no players in the file"),
    "player.name_required": gettext_lazy("A display name is required."),
    "player.name_too_long": gettext_lazy("The display name is longer than 120 characters."),
    "player.handle_required": gettext_lazy("A handle is required."),
    "player.handle_invalid": gettext_lazy(
        "A handle may hold only letters, digits, “-” and “_”, at most 60 characters."
    ),
    "csv.handle_repeated": gettext_lazy("@%(handle)s repeats row %(row)s"),
    "csv.no_club": gettext_lazy("no club “%(slug)s”"),
    "csv.not_club_organiser": gettext_lazy(
        "you do not organise “%(slug)s”: only its organisers add members"
    ),
    "csv.other_club_member": gettext_lazy(
        "@%(handle)s is a member of another club; only that club or the player can change it"
    ),
    "csv.likely_duplicate": gettext_lazy(
        "“%(name)s” (@%(handle)s) may already exist as %(existing)s: give that handle to "
        "register them, or write yes in a “new” column to create another player"
    ),
    "csv.likely_duplicate_row": gettext_lazy(
        "“%(name)s” (@%(handle)s) may be the player of row %(row)s: write yes in a “new” "
        "column if they are two people"
    ),
}


def import_problem_text(code: str, params: Mapping[str, Any] | None = None) -> str:
    """An import problem (or a player's field problem) in the reader's language."""
    values = {
        name: pgettext("list separator", ", ").join(str(v) for v in value)
        if isinstance(value, (list, tuple))
        else value
        for name, value in (params or {}).items()
    }
    return str(IMPORT_PROBLEMS[code]) % values


# --- tie-break metrics ----------------------------------------------------------------------

#: Translated names of the tie-break metrics (``engine.standings.METRICS`` keys): the event
#: form's help and the standings pages.
METRIC_LABELS: dict[str, Promise] = {
    "points": gettext_lazy("total points"),
    "wins": gettext_lazy("wins"),
    "awards": gettext_lazy("award points"),
    "police-killer-wins": gettext_lazy("wins as police or killer"),
    "night1-deaths": gettext_lazy("times killed on night 1 as good"),
    "lots": gettext_lazy("drawing of lots"),
    #: between two players who left at different stages (the later stage ranks above)
    "stage": gettext_lazy("stage reached"),
}


def metric_label(key: str) -> str:
    return str(METRIC_LABELS.get(key, key))
