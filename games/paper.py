"""What a referee types, read into a KGR/1 record, and the engine's answer put back next to
what it concerns: the paper form's night and day rows, the notation (``docs/notation.md``,
:mod:`engine.notation`) typed on the paper page or uploaded as a ``.txt`` file.

Nothing here judges a game (that is ``games.records.check_record``, through the services)
and nothing writes: these are the readers behind ``games.forms`` and
``games.entry_views``. Errors are said when raised, in the language of the request that
typed the text (the engine's ``notation.*`` codes through ``league.engine_text``).
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.notation import NotationError, UnprintableRecord, parse_notation, print_notation
from engine.record import FORMAT, RecordError
from games.records import NotARecordError, record_max_bytes
from league.engine_text import engine_text

#: A header that makes one line of a day (or award lines) a whole notation text: the
#: parser reads the form of a fragment; the rules are the engine's, on the whole record.
_FRAGMENT_HEAD = "ruleset classic\n1 c x\n"
_FRAGMENT_LINES = _FRAGMENT_HEAD.count("\n")
#: The place a notation sentence starts with ("3:5: " — "3:5：" in Chinese).
_PLACE = re.compile(r"^\s*\d+\s*:\s*\d+\s*[:：]\s*")
_AWARD_WORDS = ("bonus", "penalty", "warning")
_PHASE_WORD = re.compile(r"([nd])([1-9][0-9]{0,5})", re.IGNORECASE)
#: What a placeholder role is written as in the notation a page starts with.
UNKNOWN_ROLE = "?"


class TextProblem(ValueError):
    """Typed text that is not the notation: the sentence (in the request's language) and,
    where known, the line and column (from 1) in the text as the user sees it."""

    def __init__(self, message: str, line: int | None, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def notation_sentence(code: str, params: dict[str, Any]) -> str:
    """A notation error's sentence without the ``line:column:`` it starts with (the page
    says the place in words of its own)."""
    return _PLACE.sub("", engine_text(code, params), count=1)


def located(code: str, params: dict[str, Any], line: int | None, column: int) -> TextProblem:
    """A notation error at ``line``/``column`` of the text the user typed (no line: a one
    line field)."""
    column = max(column, 1)
    error = notation_sentence(code, {**params, "column": column, "line": line or 1})
    if line is None:
        text = _("column %(column)s: %(error)s") % {"column": column, "error": error}
    else:
        text = _("line %(line)s, column %(column)s: %(error)s") % {
            "line": line,
            "column": column,
            "error": error,
        }
    return TextProblem(text, line, column)


def lines_of(text: str) -> str:
    """A browser's text with its line ends as the parser counts them (``\\n``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_text(text: str) -> dict[str, Any]:
    """A whole game in the notation → its KGR/1 JSON value, or :class:`TextProblem`."""
    try:
        return parse_notation(lines_of(text))
    except NotationError as e:
        raise located(e.code, dict(e.params), e.line, e.column) from None


def parse_day(n: int, text: str) -> dict[str, Any]:
    """One day's items as written in the notation after ``D<n>`` (``lw3:1,5 v 1>2 2>1 …
    out1``; a leading ``D<n>`` is allowed) → the day's phase object."""
    words = text.split()
    if words and words[0].lower() == f"d{n}":
        words = words[1:]
    prefix = f"D{n} "
    try:
        record = parse_notation(_FRAGMENT_HEAD + prefix + " ".join(words))
    except NotationError as e:
        raise located(e.code, dict(e.params), None, e.column - len(prefix)) from None
    log = record.get("log") or [{"phase": "day", "n": n}]
    return dict(log[0])


def parse_awards(text: str) -> list[dict[str, Any]]:
    """Award lines of the notation (``bonus 2 0.3 "found both killers"``, ``warning 4``)
    → the record's ``awards``; any other statement is refused at its line."""
    text = lines_of(text)
    for number, line in enumerate(text.split("\n"), 1):
        word = line.split()[0] if line.split() else ""
        if word and not word.startswith("#") and word.lower() not in _AWARD_WORDS:
            column = line.index(word) + 1
            raise TextProblem(
                _(
                    "line %(line)s, column %(column)s: an award line starts with bonus, penalty "
                    "or warning, got %(found)s"
                )
                % {"line": number, "column": column, "found": word[:40]},
                number,
                column,
            )
    try:
        record = parse_notation(_FRAGMENT_HEAD + text)
    except NotationError as e:
        raise located(e.code, dict(e.params), e.line - _FRAGMENT_LINES, e.column) from None
    return list(record.get("awards") or [])


# --- uploads -------------------------------------------------------------------------------


def is_json(name: str, data: bytes) -> bool:
    """A file is KGR/1 JSON when its first character other than white space (after a
    byte-order mark) is ``{`` or ``[``, or when it is named ``.json``; anything else is read
    as the notation (the rule of ``python -m engine convert``, plus the name)."""
    head = data[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
    return head[:1] in (b"{", b"[") or name.lower().endswith(".json")


def read_notation_file(data: bytes) -> dict[str, Any]:
    """An uploaded notation file → its record's JSON value; a refusal is a
    :class:`NotARecordError` in the engine's words (``notation.*`` with line and column)."""
    limit = record_max_bytes()
    if len(data) > limit:
        raise NotARecordError(
            gettext_lazy("the record is too large: %(size)s KiB, the limit is %(limit)s KiB"),
            code="record.too_large",
            params={"size": len(data) // 1024, "limit": limit // 1024},
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotARecordError(
            gettext_lazy("not the notation: the file is not UTF-8 text"),
            code="notation.not_utf8",
        ) from None
    try:
        return parse_notation(lines_of(text))
    except NotationError as e:
        raise NotARecordError(code=e.code, params=dict(e.params)) from None


# --- the engine's answer, placed ---------------------------------------------------------


def violation_place(where: str) -> str:
    """Which part of the paper form a violation's ``where`` concerns: ``roles`` (setup),
    ``night_<n>``, ``day_<n>`` (also a ballot of that day), ``awards``, ``winner`` (the
    result), or ``""``: the record as a whole."""
    if where == "setup":
        return "roles"
    if where in ("result", "awards"):
        return "winner" if where == "result" else "awards"
    words = where.split()
    if len(words) >= 2 and words[0] in ("night", "day") and words[1].isdigit():
        return f"{words[0]}_{int(words[1])}"
    return ""


def statement_lines(text: str) -> dict[str, int]:
    """Where each part of the paper form is written in a notation text: the first line of
    the seats (else the ruleset's), of each night and day, of the awards, of the result.
    Keys as :func:`violation_place` gives them, values line numbers from 1."""
    found: dict[str, int] = {}
    ruleset = 0
    for number, line in enumerate(lines_of(text).split("\n"), 1):
        words = line.split()
        if not words:
            continue
        low = words[0].lower()
        phase = _PHASE_WORD.fullmatch(low)
        if low == "ruleset":
            ruleset = ruleset or number
        elif low[:1].isdigit() and ">" not in low and "-" not in low:
            found.setdefault("roles", number)
        elif phase is not None:
            kind = "night" if phase.group(1) == "n" else "day"
            found.setdefault(f"{kind}_{int(phase.group(2))}", number)
        elif low in _AWARD_WORDS or low == "awards":
            found.setdefault("awards", number)
        elif low == "result":
            found.setdefault("winner", number)
    if ruleset and "roles" not in found:
        found["roles"] = ruleset
    return found


def placed(violations: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Violations grouped by :func:`violation_place`."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for v in violations:
        groups.setdefault(violation_place(str(v.get("where") or "")), []).append(v)
    return groups


# --- what a page starts with ---------------------------------------------------------------


def _base(spec: Any, meta: dict[str, str], seats: list[dict[str, Any]]) -> dict[str, Any]:
    record: dict[str, Any] = {"format": FORMAT, "ruleset": spec}
    if meta:
        record["meta"] = meta
    record["seats"] = [
        {"seat": s["seat"], "player": s["player"], "role": "civilian"} for s in seats
    ]
    return record


def starter_notation(spec: Any, meta: dict[str, str], seats: list[dict[str, Any]]) -> str:
    """The notation a new entry starts with: the ruleset, the meta and the seats with
    ``?`` for each role card, and a comment saying what to write."""
    help_lines = [
        "# " + _("Replace each ? with the role card: k killer, p police officer, c civilian."),
        "# " + _("Then one line a phase (N1 k3 c1, D1 lw3:1,5 v 1>2 2>1 … out1) and the result."),
    ]
    try:
        written = print_notation(_base(spec, meta, seats)).splitlines()
    except (RecordError, UnprintableRecord):
        return "\n".join(help_lines) + "\n"
    lines = []
    for line in written:
        number, _space, rest = line.partition(" ")
        if number.isdigit():
            line = f"{number} {UNKNOWN_ROLE} {rest.partition(' ')[2]}"
        lines.append(line)
    return "\n".join([*help_lines, *lines, "# result good"]) + "\n"


def printed(record: Any) -> str | None:
    """A stored record as notation, or None when it cannot be printed (a draft the record
    reader cannot read)."""
    try:
        return print_notation(record)
    except (RecordError, UnprintableRecord, TypeError, ValueError):
        return None


def form_initial(record: Any) -> dict[str, Any]:
    """A stored record (a draft being finished) as the paper form's initial values: role
    cards, each night's kill and check, each day's items and the awards in the notation,
    the winner. What the form cannot hold stays in the notation mode."""
    if not isinstance(record, dict):
        return {}
    initial: dict[str, Any] = {}
    for s in record.get("seats") or []:
        if isinstance(s, dict) and isinstance(s.get("seat"), int):
            initial[f"role_{s['seat']}"] = s.get("role") or ""
    for p in record.get("log") or []:
        if isinstance(p, dict) and p.get("phase") == "night" and isinstance(p.get("n"), int):
            for key in ("kill", "check"):
                value = p.get(key)
                initial[f"night_{p['n']}_{key}"] = str(value) if isinstance(value, int) else ""
    result = record.get("result")
    if isinstance(result, dict):
        initial["winner"] = result.get("winner") or ""
    text = printed(record)
    if text is None:
        return initial
    day = None
    awards: list[str] = []
    for line in text.splitlines():
        head = line.split()[0].lower() if line.split() else ""
        phase = _PHASE_WORD.fullmatch(head)
        if phase is not None and phase.group(1) == "d":
            day = f"day_{int(phase.group(2))}"
            initial[day] = line.strip()[len(head) :].strip()
        elif line[:1].isspace() and day is not None:
            initial[day] = f"{initial[day]} {line.strip()}".strip()
        else:
            day = None
            if head in _AWARD_WORDS:
                awards.append(line.strip())
    if awards:
        initial["awards"] = "\n".join(awards)
    return initial


def phase_count(seats: int, record: Any = None) -> int:
    """How many night and day rows the paper form and the protocol offer: enough for a
    table of ``seats`` (half of them, at least 3), and for every phase of ``record``."""
    rows = max(3, (seats + 1) // 2)
    if isinstance(record, dict):
        for p in record.get("log") or []:
            n = p.get("n") if isinstance(p, dict) else None
            if isinstance(n, int) and 0 < n <= 99:
                rows = max(rows, n)
    return rows
