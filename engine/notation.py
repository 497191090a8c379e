"""A text notation for KGR/1 games: a referee types it on a phone or keeps it on paper.

One line per thing: the ruleset, the meta, one line a seat, one line a phase, one line an
award, the result (``docs/notation.md`` has the grammar)::

    ruleset classic
    meta event="Spring Cup" round=3
    1 k li-wei
    2 p chen-jie
    ...
    N1 k3 c1
    D1 lw3:1,5 v 1>2 2>1 4>1 5>2 6>1 7>1 8- out1
    bonus 2 0.3 "found both killers"
    result good

:func:`parse_notation` gives the record's JSON value, :func:`print_notation` writes one, and
the two are exact inverses: ``parse_notation(print_notation(R)) == R`` for every JSON
value ``R`` that :func:`engine.record.parse_record` reads without a problem (within the
bounds below). Everything a JSON record can say has a spelling, down to the difference
between an absent key and an empty list, so nothing is lost either way. The parser checks
the notation and the record's form (what the reader checks), never the rules of play:
that is :mod:`engine.validate`'s job.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from engine.errors import EngineError
from engine.messages import Param
from engine.record import FORMAT, GameRecord, RecordError, dump_record, read_record
from engine.rulesets import RulesetError, get_ruleset

__all__ = [
    "MAX_CHARS",
    "MAX_LINES",
    "MAX_NUMBER",
    "MAX_SEATS",
    "NotationError",
    "UnprintableRecord",
    "parse_notation",
    "print_notation",
]

#: The longest text read (characters): a long game is a few kilobytes.
MAX_CHARS = 256 * 1024
#: The most lines read.
MAX_LINES = 10_000
#: The most seats a game may have.
MAX_SEATS = 99
#: The largest seat number or round number written (a bounded integer, parsed strictly).
MAX_NUMBER = 999_999
#: The longest number an award's points may be written with.
MAX_NUMBER_CHARS = 32


class NotationError(EngineError):
    """Text that is not the notation; ``params`` always hold ``line`` and ``column`` (from 1,
    columns counted in characters), and ``found`` where something was found."""

    @property
    def line(self) -> int:
        """The line of the problem, from 1."""
        line = self.params["line"]
        assert isinstance(line, int)
        return line

    @property
    def column(self) -> int:
        """The column of the problem, from 1."""
        column = self.params["column"]
        assert isinstance(column, int)
        return column


class UnprintableRecord(EngineError):
    """A readable record beyond the notation's bounds (``notation.unprintable/*``): too
    many seats, a number too large, a text longer than :data:`MAX_CHARS`."""


# --- reading -------------------------------------------------------------------------------

_SPECIAL = frozenset('"#=')
_SEAT_RE = re.compile(r"[1-9][0-9]{0,5}")
_NUMBER_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_PHASE_RE = re.compile(r"([nNdD])(.*)", re.DOTALL)
_VOTE_RE = re.compile(r"([0-9]+)(?:>(.*)|(-))", re.DOTALL)
_ROLES = {"k": "killer", "p": "police", "c": "civilian"}
_ROLE_WORDS = {**_ROLES, **{v: v for v in _ROLES.values()}}
_ROLE_LETTER = {v: k for k, v in _ROLES.items()}
_WINNERS = ("good", "killers", "draw")
_AWARD_KINDS = ("bonus", "penalty", "warning")
_KEYWORDS = frozenset({"ruleset", "meta", "log", "awards", "result", *_AWARD_KINDS})
_DAY_PREFIXES = ("ej", "sur", "lw", "out", "lot", "v")
_FOUND_CHARS = 40


def _shown(text: str) -> str:
    """A token as an error shows it: as written, cut short when long."""
    return text if len(text) <= _FOUND_CHARS else text[: _FOUND_CHARS - 1] + "…"


class _Tok:
    """A word of a line: its text as written and the column of its first character."""

    __slots__ = ("col", "line", "text")

    def __init__(self, text: str, line: int, col: int) -> None:
        self.text = text
        self.line = line
        self.col = col

    def sub(self, start: int, end: int | None = None) -> _Tok:
        """The part of this word from ``start`` (to ``end``), keeping its place."""
        return _Tok(self.text[start:end], self.line, self.col + start)

    def error(self, code: str, offset: int = 0, **params: Param) -> NotationError:
        """An error at this word (``offset`` characters into it)."""
        found = params.pop("found", self.text)
        all_params: dict[str, Param] = {"line": self.line, "column": self.col + offset}
        if found is not None:
            all_params["found"] = _shown(str(found))
        return _error(code, {**params, **all_params})


def _error(key: str, params: dict[str, Param]) -> NotationError:
    """The error of a catalogue key: ``code/variant`` is the code with its variant."""
    code, _, variant = key.partition("/")
    return NotationError(code, {"variant": variant, **params} if variant else params)


def _at(code: str, line: int, column: int, **params: Param) -> NotationError:
    return _error(code, {**params, "line": line, "column": column})


def _split(line: str, number: int) -> list[_Tok]:
    """A line's words: runs of characters between white space, up to a ``#`` comment.

    A quoted text (``"..."`` with backslash escapes) is part of its word and may hold
    spaces and ``#``. A character that is not printable must be in quotes, as an escape.
    """
    words: list[_Tok] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "#":
            break
        start = i
        while i < n:
            ch = line[i]
            if ch.isspace() or ch == "#":
                break
            if ch == '"':
                j = i + 1
                while j < n and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                if j >= n:
                    raise _at("notation.unterminated", number, i + 1)
                i = j + 1
                continue
            if not ch.isprintable():
                raise _at("notation.character", number, i + 1, found=f"U+{ord(ch):04X}")
            i += 1
        words.append(_Tok(line[start:i], number, start + 1))
    return words


def _quoted(tok: _Tok) -> str:
    """The text of a word that is one quoted text, escapes as in JSON."""
    try:
        value = json.loads(tok.text, strict=False)
    except json.JSONDecodeError as e:
        raise tok.error("notation.escape", min(e.pos, len(tok.text))) from None
    except (ValueError, RecursionError):
        raise tok.error("notation.escape") from None
    if not isinstance(value, str):
        raise tok.error("notation.text")
    return value


def _text(tok: _Tok) -> str:
    """A free text: one quoted text, or a bare word without ``"``, ``#`` or ``=``."""
    t = tok.text
    if t.startswith('"'):
        end = _closing_quote(t)
        if end != len(t) - 1:
            raise tok.error("notation.text", end + 1)
        return _quoted(tok)
    for k, ch in enumerate(t):
        if ch in _SPECIAL:
            raise tok.error("notation.text", k)
    return t


def _closing_quote(t: str) -> int:
    """The index of the quote closing the quoted text that starts ``t``."""
    j = 1
    while t[j] != '"':
        j += 2 if t[j] == "\\" else 1
    return j


def _split_eq(tok: _Tok, code: str) -> tuple[_Tok, _Tok]:
    """``key=value`` at the first ``=`` outside quotes."""
    t, k = tok.text, 0
    while k < len(t):
        if t[k] == '"':
            k = k + _closing_quote(t[k:]) + 1
            continue
        if t[k] == "=":
            return tok.sub(0, k), tok.sub(k + 1)
        k += 1
    raise tok.error(code)


def _number(tok: _Tok, code: str = "notation.seat") -> int:
    """A seat or round number: 1 to :data:`MAX_NUMBER`, ASCII digits, no leading zero."""
    if not _SEAT_RE.fullmatch(tok.text):
        raise tok.error(code)
    return int(tok.text)


def _seat_or_none(tok: _Tok) -> int | None:
    return None if tok.text == "-" else _number(tok)


def _seat_list(tok: _Tok) -> list[int]:
    """``1,5,7`` (``-`` or nothing: no seat)."""
    if tok.text in ("", "-"):
        return []
    seats, start = [], 0
    for part in tok.text.split(","):
        seats.append(_number(tok.sub(start, start + len(part))))
        start += len(part) + 1
    return seats


def _points(tok: _Tok) -> int | float:
    t = tok.text
    if len(t) > MAX_NUMBER_CHARS or not _NUMBER_RE.fullmatch(t):
        raise tok.error("notation.number")
    if "." in t or "e" in t or "E" in t:
        value = float(t)
        if not math.isfinite(value):
            raise tok.error("notation.number")
        return value
    return int(t)


def _refuse_constant(name: str) -> Any:
    raise ValueError(name)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("duplicate key")
    return d


_JSON = json.JSONDecoder(parse_constant=_refuse_constant, object_pairs_hook=_no_duplicates)
_JSON_START = re.compile(r'["\[{]|-?[0-9]')
_LITERALS = {"true": True, "false": False, "null": None}


def _json(tok: _Tok) -> Any:
    """A JSON value written without spaces (outside its quoted texts)."""
    try:
        value, end = _JSON.raw_decode(tok.text)
    except json.JSONDecodeError as e:
        raise tok.error("notation.json", min(e.pos, len(tok.text))) from None
    except (ValueError, RecursionError):
        raise tok.error("notation.json") from None
    if end != len(tok.text):
        raise tok.error("notation.json", end)
    return value


def _override_value(tok: _Tok) -> Any:
    """An override's value: JSON (``[8,12]``, ``true``, ``"x"``), or a bare word as a string."""
    if tok.text in _LITERALS:
        return _LITERALS[tok.text]
    if _JSON_START.match(tok.text):
        return _json(tok)
    if not tok.text:
        raise tok.error("notation.json")
    return _text(tok)


class _Day:
    """A day being read: its JSON object and what was seen, for errors."""

    __slots__ = ("ballot", "lw_closed", "obj", "seen")

    def __init__(self, n: int) -> None:
        self.obj: dict[str, Any] = {"phase": "day", "n": n}
        self.seen: set[str] = set()
        self.ballot: dict[str, int | None] | None = None  # the ballot votes go to
        self.lw_closed = False


class _Reader:
    """Reads the notation line by line into the parts of a record."""

    def __init__(self) -> None:
        self.ruleset: Any = None
        self.ruleset_tok: _Tok | None = None
        self.override_toks: dict[str, _Tok] = {}
        self.meta: dict[str, str] | None = None
        self.seats: list[dict[str, Any]] = []
        self.seat_toks: list[_Tok] = []
        self.players: set[str] = set()
        self.log: list[dict[str, Any]] | None = None
        self.log_line = False
        self.awards: list[dict[str, Any]] | None = None
        self.awards_line = False
        self.result: str | None = None
        self.day: _Day | None = None  # the day that continuation lines add to

    def line(self, words: list[_Tok]) -> None:
        head = words[0]
        low = head.text.lower()
        if low in _KEYWORDS:
            self.day = None
            getattr(self, f"_{low}")(head, words[1:])
        elif head.text[:1].isdigit() and "-" not in head.text and ">" not in head.text:
            self.day = None
            self._seat(words)
        elif _VOTE_RE.fullmatch(head.text) or low.startswith(_DAY_PREFIXES):
            # a line that goes on with the day above it (a long day's later ballots)
            if self.day is None:
                raise head.error("notation.continued")
            self._day_items(self.day, words)
        elif _PHASE_RE.fullmatch(head.text) and head.text[1:2].isdigit():
            self._phase(words)
        else:
            raise head.error("notation.line")

    # --- the header ----------------------------------------------------------------------

    def _ruleset(self, head: _Tok, rest: list[_Tok]) -> None:
        if self.ruleset_tok is not None:
            raise head.error("notation.twice")
        if not rest:
            raise head.error("notation.missing/value")
        self.ruleset_tok = rest[0]
        base = _text(rest[0])
        if len(rest) == 1:
            self.ruleset = base
            return
        overrides: dict[str, Any] = {}
        if len(rest) == 2 and rest[1].text.startswith("{"):
            value = _json(rest[1])
            if not isinstance(value, dict):
                raise rest[1].error("notation.item/ruleset")
            overrides = value
            for key in value:
                self.override_toks[key] = rest[1]
        else:
            for tok in rest[1:]:
                key_tok, value_tok = _split_eq(tok, "notation.item/ruleset")
                key = _text(key_tok)
                if key in overrides:
                    raise key_tok.error("notation.twice")
                overrides[key] = _override_value(value_tok)
                self.override_toks[key] = tok
        self.ruleset = {"base": base, "overrides": overrides}

    def _meta(self, head: _Tok, rest: list[_Tok]) -> None:
        if self.meta is None:
            self.meta = {}
        for tok in rest:
            key_tok, value_tok = _split_eq(tok, "notation.item/meta")
            key = _text(key_tok)
            if key in self.meta:
                raise key_tok.error("notation.twice")
            self.meta[key] = _text(value_tok)

    def _seat(self, words: list[_Tok]) -> None:
        number_tok = words[0]
        number = _number(number_tok)
        if len(words) != 3:
            raise (words[3] if len(words) > 3 else number_tok).error("notation.item/seat")
        if len(self.seats) >= MAX_SEATS:
            raise number_tok.error("notation.too_large/seats", limit=MAX_SEATS, found=None)
        if any(s["seat"] == number for s in self.seats):
            raise number_tok.error("notation.twice")
        role = _ROLE_WORDS.get(words[1].text.lower())
        if role is None:
            raise words[1].error("notation.role")
        player = _text(words[2])
        if not player or player.isspace():
            raise words[2].error("notation.blank_player")
        if player in self.players:
            raise words[2].error("notation.twice")
        self.players.add(player)
        self.seats.append({"seat": number, "player": player, "role": role})
        self.seat_toks.append(number_tok)

    # --- the log -------------------------------------------------------------------------

    def _log(self, head: _Tok, rest: list[_Tok]) -> None:
        if self.log_line:
            raise head.error("notation.twice")
        if rest:
            raise rest[0].error("notation.item/keyword")
        self.log_line = True
        if self.log is None:
            self.log = []

    def _phase(self, words: list[_Tok]) -> None:
        head = words[0]
        n = _number(head.sub(1), "notation.round")
        if self.log is None:
            self.log = []
        if head.text[0] in "nN":
            self.day = None
            self.log.append(self._night(n, words[1:]))
        else:
            day = _Day(n)
            self.log.append(day.obj)
            self.day = day
            self._day_items(day, words[1:])

    def _night(self, n: int, items: list[_Tok]) -> dict[str, Any]:
        got: dict[str, int | None] = {}
        for tok in items:
            key = {"k": "kill", "c": "check"}.get(tok.text[:1].lower())
            if key is None:
                raise tok.error("notation.item/night")
            if key in got:
                raise tok.error("notation.twice")
            if len(tok.text) == 1:
                raise tok.error("notation.missing/value")
            got[key] = _seat_or_none(tok.sub(1))
        return {"phase": "night", "n": n, "kill": got.get("kill"), "check": got.get("check")}

    def _day_items(self, day: _Day, items: list[_Tok]) -> None:
        obj = day.obj
        for tok in items:
            t, low = tok.text, tok.text.lower()
            vote = _VOTE_RE.fullmatch(t)
            if vote:
                if day.ballot is None:
                    raise tok.error("notation.vote")
                voter = str(_number(tok.sub(0, len(vote.group(1)))))
                if voter in day.ballot:
                    raise tok.error("notation.twice")
                target = None
                if vote.group(2) is not None:
                    target = _number(tok.sub(len(voter) + 1))
                day.ballot[voter] = target
                continue
            day.ballot = None
            if low == "v":
                if "v-" in day.seen:
                    raise tok.error("notation.twice")
                day.seen.add("v")
                day.ballot = {}
                obj.setdefault("ballots", []).append(day.ballot)
            elif low == "v-":
                if day.seen & {"v", "v-"}:
                    raise tok.error("notation.twice")
                day.seen.add("v-")
                obj["ballots"] = []
            elif low.startswith("lw"):
                if day.lw_closed or (low == "lw-" and "lw" in day.seen):
                    raise tok.error("notation.twice")
                day.seen.add("lw")
                if low == "lw-":
                    day.lw_closed = True
                    obj["last_words"] = []
                    continue
                seat_part, colon, _ = t[2:].partition(":")
                if not seat_part:
                    raise tok.error("notation.missing/value")
                seat = _number(tok.sub(2, 2 + len(seat_part)))
                listed = _seat_list(tok.sub(3 + len(seat_part))) if colon else []
                obj.setdefault("last_words", []).append({"seat": seat, "suspects": listed})
            else:
                prefix = next((p for p in ("ej", "sur", "out", "lot") if low.startswith(p)), None)
                if prefix is None:
                    raise tok.error("notation.item/day")
                if prefix in day.seen:
                    raise tok.error("notation.twice")
                day.seen.add(prefix)
                value = tok.sub(len(prefix))
                if not value.text:
                    raise tok.error("notation.missing/value")
                if prefix == "ej":
                    obj["eject"] = _seat_list(value)
                elif prefix == "sur":
                    obj["surrender"] = _number(value)
                elif prefix == "out":
                    obj["eliminated"] = _seat_or_none(value)
                else:
                    obj["lot"] = _number(value)

    # --- awards and the result -----------------------------------------------------------

    def _awards(self, head: _Tok, rest: list[_Tok]) -> None:
        if self.awards_line:
            raise head.error("notation.twice")
        if rest:
            raise rest[0].error("notation.item/keyword")
        self.awards_line = True
        if self.awards is None:
            self.awards = []

    def _award(self, head: _Tok, rest: list[_Tok]) -> None:
        if not rest:
            raise head.error("notation.missing/value")
        if len(rest) > 3:
            raise rest[3].error("notation.item/award")
        award: dict[str, Any] = {"seat": _number(rest[0]), "kind": head.text.lower()}
        more = rest[1:]
        if more and _JSON_START.match(more[0].text) and not more[0].text.startswith('"'):
            award["points"] = _points(more[0])
            more = more[1:]
        if more:
            if len(more) > 1:
                raise more[1].error("notation.item/award")
            award["reason"] = _text(more[0])
        if self.awards is None:
            self.awards = []
        self.awards.append(award)

    _bonus = _award
    _penalty = _award
    _warning = _award

    def _result(self, head: _Tok, rest: list[_Tok]) -> None:
        if self.result is not None:
            raise head.error("notation.twice")
        if not rest:
            raise head.error("notation.missing/value")
        if len(rest) > 1:
            raise rest[1].error("notation.item/keyword")
        winner = rest[0].text.lower()
        if winner not in _WINNERS:
            raise rest[0].error("notation.winner")
        self.result = winner

    # --- the whole record ----------------------------------------------------------------

    def record(self, end: tuple[int, int]) -> dict[str, Any]:
        if self.ruleset_tok is None:
            raise _at("notation.missing/ruleset", *end)
        if not self.seats:
            raise _at("notation.missing/seats", *end)
        self._check_ruleset()
        count = len(self.seats)
        for seat, tok in zip(self.seats, self.seat_toks, strict=True):
            if seat["seat"] > count:
                raise tok.error("notation.seats", n=count)
        out: dict[str, Any] = {"format": FORMAT, "ruleset": self.ruleset}
        if self.meta is not None:
            out["meta"] = self.meta
        out["seats"] = self.seats
        if self.log is not None:
            out["log"] = self.log
        if self.awards is not None:
            out["awards"] = self.awards
        if self.result is not None:
            out["result"] = {"winner": self.result}
        return out

    def _check_ruleset(self) -> None:
        """The ruleset's id and overrides as the record reader checks them."""
        assert self.ruleset_tok is not None
        try:
            get_ruleset(self.ruleset)
        except RulesetError as e:
            params = e.params
            tok = self.ruleset_tok
            if e.code == "ruleset.unknown":
                raise tok.error(
                    "notation.ruleset/unknown",
                    found=None,
                    ruleset=params["ruleset"],
                    known=params["known"],
                ) from None
            key = params["key"] if "key" in params else params.get("rule")
            tok = self.override_toks.get(str(key), tok)
            if e.code == "ruleset.unknown_parameter":
                raise tok.error("notation.ruleset/parameter", found=None, key=key) from None
            if "rule" in params:
                raise tok.error(
                    "notation.ruleset/value", found=None, rule=params["rule"], value=params["value"]
                ) from None
            raise self.ruleset_tok.error("notation.ruleset/inconsistent", found=None) from None
        except (ValueError, TypeError, OverflowError, RecursionError):
            # what the reader cannot read either (an integer of thousands of digits)
            raise self.ruleset_tok.error("notation.ruleset/inconsistent", found=None) from None


def _position(text: str, index: int) -> tuple[int, int]:
    """(line, column) of the character at ``index`` (both from 1)."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def parse_notation(text: str) -> dict[str, Any]:
    """The KGR/1 JSON value the notation ``text`` writes (``json.loads`` of the record).

    Raises :class:`NotationError` at the first problem, naming its line and column; the
    value it returns is a record :func:`engine.record.parse_record` reads (its form holds),
    whether or not the game it tells was played by the rules.
    """
    if len(text) > MAX_CHARS:
        at_line, at_column = _position(text, MAX_CHARS)
        raise _at("notation.too_large/size", at_line, at_column, limit=MAX_CHARS)
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        raise _at("notation.too_large/lines", MAX_LINES + 1, 1, limit=MAX_LINES)
    reader = _Reader()
    for number, text_line in enumerate(lines, 1):
        words = _split(text_line, number)
        if words:
            reader.line(words)
    return reader.record((len(lines), len(lines[-1]) + 1))


# --- writing -------------------------------------------------------------------------------

_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    found = _ESCAPES.get(ch)
    if found is not None:
        return found
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code > 0xFFFF:  # as JSON writes it: a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _quote(s: str) -> str:
    """``s`` as a quoted text: escapes for quotes, backslashes and anything unprintable."""
    return '"' + "".join(_escape(ch) for ch in s) + '"'


def _bare_ok(s: str) -> bool:
    return bool(s) and all(ch.isprintable() and not ch.isspace() and ch not in _SPECIAL for ch in s)


def _free(s: str) -> str:
    """A free text as a bare word where it can be one, else quoted."""
    return s if _bare_ok(s) else _quote(s)


def _key(s: str) -> str:
    return s if _KEY_RE.fullmatch(s) else _quote(s)


def _override(value: Any) -> str:
    if isinstance(value, str) and _KEY_RE.fullmatch(value) and value not in _LITERALS:
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def _unprintable(variant: str, **params: Param) -> UnprintableRecord:
    return UnprintableRecord("notation.unprintable", {"variant": variant, **params})


class _Writer:
    """Checks the bounds while writing."""

    def num(self, value: int, path: str) -> str:
        if value > MAX_NUMBER:
            raise _unprintable("number", path=path, value=str(value))
        return str(value)

    def seat_or_dash(self, value: int | None, path: str) -> str:
        return "-" if value is None else self.num(value, path)

    def points(self, value: int | float, path: str) -> str:
        text = repr(value) if isinstance(value, float) else str(value)
        if len(text) > MAX_NUMBER_CHARS:
            raise _unprintable("number", path=path, value=text)
        return text

    def night(self, p: Mapping[str, Any], path: str) -> str:
        kill = self.seat_or_dash(p["kill"], f"{path}.kill")
        check = self.seat_or_dash(p["check"], f"{path}.check")
        return f"N{self.num(p['n'], f'{path}.n')} k{kill} c{check}"

    def day(self, p: Mapping[str, Any], path: str) -> list[str]:
        parts = [f"D{self.num(p['n'], f'{path}.n')}"]
        if "eject" in p:
            seats = [self.num(s, f"{path}.eject") for s in p["eject"]]
            parts.append("ej" + (",".join(seats) or "-"))
        if "surrender" in p:
            parts.append("sur" + self.num(p["surrender"], f"{path}.surrender"))
        if "last_words" in p:
            if not p["last_words"]:
                parts.append("lw-")
            for w in p["last_words"]:
                seat = self.num(w["seat"], f"{path}.last_words")
                suspects = ",".join(self.num(s, f"{path}.last_words") for s in w["suspects"])
                parts.append(f"lw{seat}:{suspects}" if suspects else f"lw{seat}")
        lines: list[str] = []
        if "ballots" in p:
            if not p["ballots"]:
                parts.append("v-")
            for k, ballot in enumerate(p["ballots"]):
                if k:
                    lines.append(" ".join(parts))
                    parts = ["  v"]
                else:
                    parts.append("v")
                where = f"{path}.ballots[{k}]"
                for voter, target in ballot.items():
                    shown = self.num(int(voter), where)
                    parts.append(
                        f"{shown}-" if target is None else f"{shown}>{self.num(target, where)}"
                    )
        if "eliminated" in p:
            parts.append("out" + self.seat_or_dash(p["eliminated"], f"{path}.eliminated"))
        if "lot" in p:
            parts.append("lot" + self.num(p["lot"], f"{path}.lot"))
        lines.append(" ".join(parts))
        return lines

    def award(self, a: Mapping[str, Any], path: str) -> str:
        parts = [a["kind"], self.num(a["seat"], f"{path}.seat")]
        if "points" in a:
            parts.append(self.points(a["points"], f"{path}.points"))
        if "reason" in a:
            parts.append(_quote(a["reason"]))
        return " ".join(parts)


def print_notation(record: Mapping[str, Any] | GameRecord) -> str:
    """The notation of a record: a :class:`GameRecord`, or a JSON value the record reader
    reads without a problem (else :class:`engine.record.RecordError` with every problem).

    Raises :class:`UnprintableRecord` for a record beyond the notation's bounds.
    """
    if isinstance(record, GameRecord):
        value: Mapping[str, Any] = dump_record(record)
    else:
        value = record
        # a dict as it is: the reader's JSON keeps the keys written twice in it
        _, problems = read_record(value if isinstance(value, dict) else dict(value))
        if problems:
            raise RecordError(problems)
    w = _Writer()
    out: list[str] = []
    spec = value["ruleset"]
    if isinstance(spec, str):
        out.append(f"ruleset {_free(spec)}")
    else:
        overrides = spec["overrides"]
        written = " ".join(f"{_key(k)}={_override(v)}" for k, v in overrides.items())
        out.append(f"ruleset {_free(spec['base'])} {written or '{}'}")
    if "meta" in value:
        pairs = " ".join(f"{_free(k)}={_free(v)}" for k, v in value["meta"].items())
        out.append(f"meta {pairs}".rstrip())
    seats = value["seats"]
    if len(seats) > MAX_SEATS:
        raise _unprintable("seats", limit=MAX_SEATS)
    for i, s in enumerate(seats):
        number = w.num(s["seat"], f"seats[{i}].seat")
        out.append(f"{number} {_ROLE_LETTER[s['role']]} {_free(s['player'])}")
    if "log" in value:
        if not value["log"]:
            out.append("log")
        for i, p in enumerate(value["log"]):
            path = f"log[{i}]"
            if p["phase"] == "night":
                out.append(w.night(p, path))
            else:
                out.extend(w.day(p, path))
    if "awards" in value:
        if not value["awards"]:
            out.append("awards")
        for i, a in enumerate(value["awards"]):
            out.append(w.award(a, f"awards[{i}]"))
    if "result" in value:
        out.append(f"result {value['result']['winner']}")
    text = "\n".join(out) + "\n"
    if len(text) > MAX_CHARS or len(out) >= MAX_LINES:
        raise _unprintable("size", limit=MAX_CHARS)
    return text
