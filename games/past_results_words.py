"""The words of a spreadsheet of past results (:mod:`games.past_results`): its cells —
dates, roles, winners, awards, lists of names — and its problems' sentences.

A cell may say a role, a winner or an award's kind in English, 简体中文 or Español, in
full or by its first letter (``k``, ``p``, ``c``; ``g``, ``k``, ``d``). The problems are
codes with params, found with their row and column; their sentences join the league's
import problems (:data:`league.i18n.IMPORT_PROBLEMS`, which
:class:`league.errors.ImportProblem` renders in the reader's language when read).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league.errors import ImportProblem
from league.i18n import IMPORT_PROBLEMS

_ROLES: dict[str, tuple[str, ...]] = {
    "killer": ("killer", "k", "杀手", "杀", "asesino", "a"),
    "police": ("police", "p", "警察", "警", "policía", "policia"),
    "civilian": ("civilian", "c", "平民", "民", "civil", "ciudadano"),
}
_WINNERS: dict[str, tuple[str, ...]] = {
    "good": ("good", "g", "good side", "好人", "好人胜", "buenos", "bueno"),
    "killers": ("killers", "killer", "k", "杀手", "杀手胜", "asesinos"),
    "draw": ("draw", "d", "平局", "empate"),
}
_AWARDS: dict[str, tuple[str, ...]] = {
    "bonus": ("bonus", "b", "加分", "bonificación", "bonificacion"),
    "penalty": ("penalty", "p", "扣分", "penalización", "penalizacion"),
    "warning": ("warning", "w", "警告", "aviso"),
}


def _table(words: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {w.casefold(): value for value, ws in words.items() for w in ws}


WORDS = {"role": _table(_ROLES), "winner": _table(_WINNERS), "award": _table(_AWARDS)}

_SPLIT = re.compile(r"[,;，、；\n]")


def word_cell(kind: str, text: str) -> str | None:
    """A role, a winner or an award's kind as the record writes it, or None."""
    return WORDS[kind].get(text.strip().casefold())


def list_cell(text: str) -> list[str]:
    """A cell listing names or roles: ``a, b, c`` (also ``;``, ``，``, ``、``)."""
    return [p.strip() for p in _SPLIT.split(text)]


def date_cell(text: str) -> dt.date | None:
    """``2026-11-29`` (also with ``/`` or ``.``; a workbook's date cell reads so)."""
    text = text.strip()
    if len(text) > 19:
        return None
    for fmt in ("%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d"):
        try:
            return dt.datetime.strptime(text[:10], fmt).date()
        except ValueError:
            continue
    return None


def _points(text: str) -> int | float | bool | None:
    """An award's points; None when left out, False when not a number under 1000."""
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return False
    if not value.is_finite() or abs(value) >= 1000:
        return False
    return int(value) if value == value.to_integral() else float(value)


def awards_cell(line: int, text: str, seats: int, problems: list[ImportProblem]) -> list[Any]:
    """``seat:kind:points[:reason]`` separated by ``;`` (a warning may leave out points);
    the engine judges the rest (a bonus needs positive points)."""
    out: list[dict[str, Any]] = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        bits = [b.strip() for b in part.split(":", 3)]
        kind = word_cell("award", bits[1]) if len(bits) > 1 else None
        points = _points(bits[2] if len(bits) > 2 else "")
        if (
            not bits[0].isdigit()
            or kind is None
            or points is False
            or not 1 <= int(bits[0]) <= seats
        ):
            problems.append(
                ImportProblem.of(line, "awards", "results.award_invalid", value=part[:60])
            )
            continue
        award: dict[str, Any] = {"seat": int(bits[0]), "kind": kind}
        if points is not None:
            award["points"] = points
        if len(bits) > 3 and bits[3]:
            award["reason"] = bits[3][:200]
        out.append(award)
    return out


#: The header of the downloadable template (the page offers it as a CSV file).
TEMPLATE_HEADER = ("date", "event", "table", "ruleset", "players", "roles", "winner", "awards")
REQUIRED = ("date", "table", "winner")
_SEAT = re.compile(r"^(?:seat|player)(\d{1,2})$")
_ROLE = re.compile(r"^role(\d{1,2})$")


def columns_of(header: list[str], problems: list[ImportProblem]) -> dict[str, Any]:
    known = set(TEMPLATE_HEADER)
    cols: dict[str, Any] = {"seat": {}, "role": {}}
    seen: set[str] = set()
    for i, name in enumerate(header):
        if not name:
            continue
        seat, role = _SEAT.match(name), _ROLE.match(name)
        key = f"seat{int(seat.group(1))}" if seat else f"role{int(role.group(1))}" if role else name
        if key in seen:
            problems.append(
                ImportProblem.of(1, name[:40], "results.column_repeated", name=name[:40])
            )
        elif seat:
            cols["seat"][int(seat.group(1))] = i
        elif role:
            cols["role"][int(role.group(1))] = i
        elif name in known:
            cols[name] = i
        else:
            problems.append(
                ImportProblem.of(1, name[:40], "results.unknown_column", name=name[:40])
            )
        seen.add(key)
    missing = [c for c in REQUIRED if c not in cols]
    if "players" not in cols and not cols["seat"]:
        missing.append("players")
    if "roles" not in cols and not cols["role"]:
        missing.append("roles")
    if missing:
        problems.append(
            ImportProblem.of(
                1, ", ".join(missing), "results.missing_columns", cols=list(TEMPLATE_HEADER)
            )
        )
    return cols


def seat_cells(cols: dict[str, Any], cells: list[str], kind: str, single: str) -> list[str]:
    """The seat-ordered cells of ``seat1``… (or ``role1``…), else the one list cell."""
    numbered: dict[int, int] = cols[kind]
    if numbered:
        last = max(numbered)
        values = [
            cells[numbered[n]] if n in numbered and numbered[n] < len(cells) else ""
            for n in range(1, last + 1)
        ]
        while values and not values[-1].strip():
            values.pop()
        return values
    index = cols.get(single)
    text = cells[index] if index is not None and index < len(cells) else ""
    return [] if not text.strip() else list_cell(text)


#: ``{code: sentence}`` of the problems and warnings of a results import.
PROBLEMS: dict[str, Promise] = {
    "results.no_games": _("no games in the file"),
    "results.not_text": _("not a CSV text file"),
    "results.not_xlsx": _("not a readable .xlsx workbook"),
    "results.xlsx_unpacked": _("the workbook unpacks to more than %(limit)s MiB"),
    "results.too_many_rows": _("more than %(limit)s games in one file"),
    "results.too_many_columns": _("more than %(limit)s columns"),
    "results.unknown_column": _("unknown column “%(name)s”"),
    "results.column_repeated": _("the column “%(name)s” appears twice"),
    "results.missing_columns": _(
        "missing column; the header names %(cols)s (players and roles may also be "
        "seat1, seat2… and role1, role2…)"
    ),
    "results.too_long": _("longer than %(limit)s characters"),
    "results.control_character": _("holds a control character"),
    "results.date_invalid": _("“%(value)s” is not a date; write it as 2026-11-29"),
    "results.date_future": _("%(value)s is in the future"),
    "results.table_required": _(
        "the table is required (a number or a name): it tells one day's games apart"
    ),
    "results.ruleset_unknown": _("unknown ruleset “%(value)s”; one of %(choices)s"),
    "results.no_players": _("no players"),
    "results.seat_empty": _("seat %(seat)s is empty but a later seat is not"),
    "results.roles_count": _("%(roles)s roles for %(players)s players"),
    "results.role_unknown": _("“%(value)s” is not a role: killer, police or civilian"),
    "results.winner_unknown": _("“%(value)s” is not a winner: good, killers or draw"),
    "results.award_invalid": _(
        "“%(value)s” is not an award: seat:kind:points[:reason], e.g. 2:bonus:0.5:found "
        "both killers"
    ),
    "results.handle_unknown": _("no player has the handle @%(handle)s"),
    "results.name_ambiguous": _(
        "“%(name)s” is the name of several players (%(existing)s): write the handle instead"
    ),
    "results.player_twice": _("@%(handle)s also sits in seat %(seat)s"),
    "results.key_repeated": _("the same game (date, event and table) as row %(row)s"),
    "results.already_different": _(
        "game %(game)s was imported from this date, event and table with another result: "
        "correct it on its page (with a reason), or remove this row"
    ),
    "results.record": _("the record is refused: %(violation)s"),
    # warnings: shown in the preview, not blocking
    "results.already_imported": _("already imported as game %(game)s: skipped"),
    "results.close_name": _(
        "“%(name)s” will be a new player (@%(handle)s) but is close to %(existing)s: write "
        "that handle if it is the same person"
    ),
}

# The league's import problems are rendered from one table; these join it (the codes are
# ours: ``results.*``), so ImportProblem, the API's problem_dict and the pages say them.
IMPORT_PROBLEMS.update(PROBLEMS)
