"""The KGR/1 game record: typed values, a reader that reports every problem, a writer.

The reader only judges the record's form (spec §2): types, required and unknown keys,
duplicate keys, seat numbering, the ruleset's id and parameters. Whether the game it
describes was played legally is :mod:`engine.validate`'s job. ``dump_record`` writes the
exact JSON form back, so ``parse_record(dump_record(r)) == r``.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import field
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Any, Literal

from engine.errors import EngineError
from engine.messages import Param, Params, render
from engine.rulesets import RULESETS, Ruleset, RulesetError, get_ruleset
from engine.values import frozen_value

FORMAT = "kgr/1"


class Role(StrEnum):
    """A role card."""

    KILLER = "killer"
    POLICE = "police"
    CIVILIAN = "civilian"

    @property
    def side(self) -> Side:
        """The side this role plays for."""
        return Side.KILLERS if self is Role.KILLER else Side.GOOD


class Side(StrEnum):
    """The two sides at the table."""

    GOOD = "good"
    KILLERS = "killers"


class Winner(StrEnum):
    """A game's result."""

    GOOD = "good"
    KILLERS = "killers"
    DRAW = "draw"


class AwardKind(StrEnum):
    """A referee's award."""

    BONUS = "bonus"
    PENALTY = "penalty"
    WARNING = "warning"


class Undeclared(Enum):
    """Marks a day whose ``eliminated`` is not declared yet (a game in progress)."""

    UNDECLARED = "undeclared"


UNDECLARED: Literal[Undeclared.UNDECLARED] = Undeclared.UNDECLARED


@frozen_value
class Violation:
    """One broken rule: a stable dotted ``code``, a ``where`` (spec §4) and ``params``.

    ``params`` are plain JSON values (:mod:`engine.messages`); the English ``message`` is
    rendered from the code and params, never stored, and never read back as data.
    """

    code: str
    where: str
    params: Params

    @property
    def message(self) -> str:
        """The English sentence, prefixed with the place it is about: ``params["path"]``
        (a JSON path such as ``log[2].ballots[0]``) when given, else ``where``."""
        prefix = self.params.get("path") or self.where
        return f"{prefix}: {render(self.code, self.params)}"

    def __str__(self) -> str:
        return f"{self.where}: {self.message} [{self.code}]"

    def as_dict(self) -> dict[str, Any]:
        """The CLI's and the API's JSON form: code, where, params and the English message."""
        return {
            "code": self.code,
            "where": self.where,
            "params": dict(self.params),
            "message": self.message,
        }


class RecordError(EngineError):
    """A record that is malformed or breaks the rules; carries every violation found.

    Its ``code``, ``params`` and ``where`` are the first violation's; ``str()`` is every
    violation's English, joined with ``"; "``.
    """

    def __init__(self, violations: tuple[Violation, ...] | list[Violation]) -> None:
        self.violations = tuple(violations)
        first = self.violations[0]
        self.where = first.where
        super().__init__(first.code, first.params)

    def __str__(self) -> str:
        return "; ".join(str(v) for v in self.violations)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.violations,)


@frozen_value
class Seat:
    """A seat at the table, who sat there and the card they were dealt."""

    seat: int
    player: str
    role: Role


@frozen_value
class Night:
    """A night: the killers' victim and the police's check (None: nothing happened)."""

    n: int
    kill: int | None
    check: int | None


@frozen_value
class Ballot:
    """One ballot as (voter, target) pairs in record order; a None target abstains."""

    votes: tuple[tuple[int, int | None], ...]


@frozen_value
class LastWordsEntry:
    """A dead player's last words and the seats they named."""

    seat: int
    suspects: tuple[int, ...]


@frozen_value
class Day:
    """A day. Optional keys absent from the record are None (``eliminated``: UNDECLARED)."""

    n: int
    eject: tuple[int, ...] | None = None
    surrender: int | None = None
    ballots: tuple[Ballot, ...] | None = None
    eliminated: int | Undeclared | None = UNDECLARED
    lot: int | None = None
    last_words: tuple[LastWordsEntry, ...] | None = None


Phase = Night | Day


@frozen_value
class Award:
    """A referee's bonus, penalty or warning; ``points`` None when absent."""

    seat: int
    kind: AwardKind
    points: float | None = None
    reason: str | None = None


@frozen_value
class RulesetOverride:
    """The record's ``{"base": id, "overrides": {...}}`` form, kept as written."""

    base: str
    overrides: Mapping[str, Any] = field(hash=False)


@frozen_value
class GameRecord:
    """A whole KGR/1 record. ``log`` None: result-only; ``result`` None: in progress."""

    ruleset_spec: str | RulesetOverride
    rules: Ruleset
    seats: tuple[Seat, ...]
    log: tuple[Phase, ...] | None = None
    result: Winner | None = None
    meta: Mapping[str, str] | None = field(default=None, hash=False)
    awards: tuple[Award, ...] | None = None

    @property
    def n_players(self) -> int:
        """The number of seats."""
        return len(self.seats)


def phase_label(phase: Phase) -> str:
    """``"night 2"`` / ``"day 3"``, the ``where`` of anything about that phase."""
    return f"night {phase.n}" if isinstance(phase, Night) else f"day {phase.n}"


# --- reading -----------------------------------------------------------------------------


class _Obj(dict[str, Any]):
    """A JSON object that remembers which keys it saw twice."""

    __slots__ = ("duplicates",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.duplicates = [k for k in self if sum(1 for p, _ in pairs if p == k) > 1]


def _hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    return d if len(d) == len(pairs) else _Obj(pairs)


# A string, or a constant JavaScript has and JSON has not: the first such constant outside
# every string is the one the decoder stopped at (before it, the text was JSON). Patterns
# for the error paths are compiled when first used (``re`` caches them), not at start-up.
_STRING_OR_CONSTANT = r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)'


def _constant_at(doc: str) -> int:
    for m in re.finditer(_STRING_OR_CONSTANT, doc, re.DOTALL):
        if m.group(1):
            return m.start()
    return 0


def loads(text: str | bytes) -> Any:
    """``json.loads`` keeping track of duplicate keys. Raises ``json.JSONDecodeError``,
    also for ``NaN``/``Infinity``/``-Infinity``, which are not JSON (RFC 8259), at the
    place they are written."""

    def not_json(name: str) -> Any:
        doc = text if isinstance(text, str) else text.decode(json.detect_encoding(text), "replace")
        raise json.JSONDecodeError(f"{name} is not a JSON number", doc, _constant_at(doc))

    return json.loads(text, object_pairs_hook=_hook, parse_constant=not_json)


#: Python's JSON complaints (``JSONDecodeError.msg``) by their ``problem`` token.
_JSON_PROBLEMS = (
    ("Expecting value", "expecting_value"),
    ("Expecting ',' delimiter", "expecting_comma"),
    ("Expecting ':' delimiter", "expecting_colon"),
    ("Expecting property name enclosed in double quotes", "expecting_key"),
    ("Unterminated string starting at", "unterminated_string"),
    ("Invalid control character", "control_character"),
    ("Invalid \\escape", "invalid_escape"),
    ("Invalid \\uXXXX escape", "invalid_unicode_escape"),
    ("Extra data", "extra_data"),
)
_NOT_A_NUMBER = r"(-?Infinity|NaN) is not a JSON number"


def json_problem(e: json.JSONDecodeError) -> dict[str, Param]:
    """What the decoder complained of, as params: ``variant`` and ``problem`` (the same
    token), ``line`` and ``column``; ``value`` for a NaN or an infinity, ``detail`` (the
    decoder's own words) for a complaint without a token (``other``)."""
    params: dict[str, Param] = {"line": e.lineno, "column": e.colno}
    problem = next((token for start, token in _JSON_PROBLEMS if e.msg.startswith(start)), "")
    if not problem:
        found = re.fullmatch(_NOT_A_NUMBER, e.msg)
        if found:
            problem = "nan"
            params["value"] = found.group(1)
        else:
            problem = "other"
            params["detail"] = e.msg
    return {"variant": problem, "problem": problem, **params}


class UnreadableFile(EngineError):
    """A file that cannot be read or is not JSON; the message names file, line and column.

    Codes: ``file.unreadable`` (the system's ``problem``: ``not_found``,
    ``permission_denied``, ``is_a_directory`` or ``other``), ``file.not_utf8`` and
    ``file.json`` (the decoder's ``problem``, as :func:`json_problem`); ``path`` is the
    file as given.
    """


_OS_PROBLEMS = {
    errno.ENOENT: "not_found",
    errno.EACCES: "permission_denied",
    errno.EPERM: "permission_denied",
    errno.EISDIR: "is_a_directory",
}


def load_file(path: str | os.PathLike[str]) -> Any:
    """A record file's JSON value (duplicate keys kept for the validator to report).

    Every command reads files through here, so their messages are the same:
    ``FILE:LINE:COLUMN: what``. ``NaN`` and the infinities are not JSON (spec §6 ruling 1).
    """
    name = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        problem = _OS_PROBLEMS.get(e.errno or 0, "other")
        params: dict[str, Param] = {"variant": problem, "problem": problem, "path": str(name)}
        if problem == "other":
            params["detail"] = str(e.strerror or e)
        raise UnreadableFile("file.unreadable", params) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise UnreadableFile(
            "file.not_utf8", {"path": str(name), "line": line, "column": column}
        ) from None
    try:
        return loads(text)
    except json.JSONDecodeError as e:
        raise UnreadableFile("file.json", {**json_problem(e), "path": str(name)}) from None
    except RecursionError:
        params = {"variant": "too_deep", "problem": "too_deep", "path": str(name)}
        raise UnreadableFile("file.json", {**params, "line": 1, "column": 1}) from None


_NIGHT_KEYS = frozenset({"phase", "n", "kill", "check"})
_DAY_KEYS = frozenset(
    {"phase", "n", "eject", "surrender", "ballots", "eliminated", "lot", "last_words"}
)
_TOP_KEYS = frozenset({"format", "ruleset", "meta", "seats", "log", "awards", "result"})


def _is_int(v: object) -> bool:
    return type(v) is int


class _Reader:
    """Walks the JSON value, collecting problems; ``fatal`` when no record can be built."""

    def __init__(self) -> None:
        self.problems: list[Violation] = []
        self.fatal = False

    def bad(
        self, code: str, where: str, path: str, params: Mapping[str, Param], fatal: bool = True
    ) -> None:
        self.problems.append(Violation(code, where, {**params, "path": path}))
        self.fatal = self.fatal or fatal

    def wrong_type(self, where: str, path: str, expected: str, v: Any) -> None:
        """``v`` is not of the ``expected`` shape (a ``record.type`` variant)."""
        self.bad("record.type", where, path, {"variant": expected, "got": _kind(v)})

    def obj(
        self, v: Any, where: str, path: str, required: frozenset[str], allowed: frozenset[str]
    ) -> bool:
        """Check ``v`` is an object with every required key and no unknown one."""
        if not isinstance(v, dict):
            self.wrong_type(where, path, "object", v)
            return False
        if isinstance(v, _Obj):
            for k in v.duplicates:
                self.bad("record.duplicate_key", where, path, {"key": k}, False)
        if v.keys() - allowed:
            for k in v:
                if k not in allowed:
                    self.bad("record.unknown_key", where, path, {"key": str(k)}, False)
        if required - v.keys():
            for k in sorted(required - v.keys()):
                self.bad("record.missing_key", where, path, {"key": k})
        return True

    def seat(self, v: Any, where: str, path: str, nullable: bool) -> int | None:
        if _is_int(v) and v >= 1:
            return int(v)
        if v is None and nullable:
            return None
        variant = "seat_or_null" if nullable else "seat"
        self.bad("record.type", where, path, {"variant": variant, "value": _shown(v)})
        return None

    def seat_list(self, v: Any, where: str, path: str) -> tuple[int, ...]:
        if not isinstance(v, list):
            self.wrong_type(where, path, "seat_list", v)
            return ()
        return tuple(
            s for i, x in enumerate(v) if (s := self.seat(x, where, f"{path}[{i}]", False))
        )

    def string(self, v: Any, where: str, path: str) -> str:
        if isinstance(v, str) and v:
            return v
        self.wrong_type(where, path, "non_empty_string", v)
        return ""

    def enum(self, cls: type[Any], v: Any, where: str, path: str) -> Any:
        try:
            return cls(v)
        except (ValueError, TypeError):
            variant = _ENUM_VARIANTS[cls]
            self.bad("record.bad_value", where, path, {"variant": variant, "value": _shown(v)})
            return None


def _kind(v: object) -> str:
    """The JSON kind of ``v``, a ``got`` token (:data:`engine.texts.records.KINDS`)."""
    if v is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
    }.get(type(v), "an object")


def _shown(v: object) -> str:
    """A value shown back in a message: its JSON, cut at 40 characters."""
    return json.dumps(v)[:40]


def _read_ruleset(r: _Reader, v: Any) -> tuple[str | RulesetOverride, Ruleset | None]:
    spec: str | RulesetOverride
    if isinstance(v, str):
        spec = v
    elif isinstance(v, dict):
        keys = frozenset({"base", "overrides"})
        if not r.obj(v, "setup", "ruleset", keys, keys):
            return "", None
        if "base" not in v or "overrides" not in v:
            return "", None
        if not isinstance(v["base"], str) or not isinstance(v["overrides"], dict):
            r.bad("record.type", "setup", "ruleset", {"variant": "ruleset_object"})
            return "", None
        for where in _duplicates_within(v["overrides"], "ruleset.overrides"):
            r.bad("record.duplicate_key", "setup", where, {"variant": "nested"}, False)
        spec = RulesetOverride(v["base"], MappingProxyType(json.loads(json.dumps(v["overrides"]))))
    else:
        r.wrong_type("setup", "ruleset", "ruleset_id", v)
        return "", None
    try:
        rules = get_ruleset(
            spec if isinstance(spec, str) else {"base": spec.base, "overrides": spec.overrides}
        )
    except RulesetError as e:
        r.bad(e.code, "setup", "ruleset", e.params)
        return spec, None
    return spec, rules


def _duplicates_within(v: Any, path: str) -> list[str]:
    found = []
    if isinstance(v, _Obj) and v.duplicates:
        found.append(path)
    if isinstance(v, dict):
        for k, x in v.items():
            found += _duplicates_within(x, f"{path}.{k}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            found += _duplicates_within(x, f"{path}[{i}]")
    return found


def _read_seats(r: _Reader, v: Any) -> tuple[Seat, ...]:
    if not isinstance(v, list) or not v:
        r.wrong_type("setup", "seats", "non_empty_list", v)
        return ()
    seats = []
    required = frozenset({"seat", "player", "role"})
    for i, s in enumerate(v):
        path = f"seats[{i}]"
        if not r.obj(s, "setup", path, required, required) or required - s.keys():
            continue
        number = r.seat(s["seat"], "setup", f"{path}.seat", False)
        player = r.string(s["player"], "setup", f"{path}.player")
        if player.isspace():  # spec §6 ruling 10; the seat can still be replayed
            variant = {"variant": "blank_player", "value": _shown(player)}
            r.bad("record.bad_value", "setup", f"{path}.player", variant, False)
        role = r.enum(Role, s["role"], "setup", f"{path}.role")
        if number and player and role:
            seats.append(Seat(number, player, role))
    if len(seats) != len(v):
        return ()
    numbers = sorted(s.seat for s in seats)
    if numbers != list(range(1, len(seats) + 1)):
        r.bad("setup.seats", "setup", "seats", {"n": len(seats)})
    players: set[str] = set()
    for s in seats:
        if s.player in players:
            # spec §6 ruling 2: the seats can still be replayed, so the replay goes on
            r.bad("setup.duplicate_player", "setup", "seats", {"player": s.player}, False)
        players.add(s.player)
    return tuple(sorted(seats, key=lambda s: s.seat))


def _read_night(r: _Reader, v: dict[str, Any], where: str, path: str) -> Night:
    kill = r.seat(v.get("kill"), where, f"{path}.kill", True)
    check = r.seat(v.get("check"), where, f"{path}.check", True)
    return Night(v["n"], kill, check)


def _read_ballot(r: _Reader, v: Any, where: str, path: str) -> Ballot:
    if not isinstance(v, dict):
        r.wrong_type(where, path, "ballot", v)
        return Ballot(())
    if isinstance(v, _Obj):
        for k in v.duplicates:
            r.bad("record.duplicate_key", where, path, {"variant": "voter", "key": k}, False)
    votes = []
    for key, target in v.items():
        # spec §6 ruling 6: a canonical decimal, "8" but never "08", "+8", " 8" or "٨"
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and key[0] != "0"):
            r.bad("record.bad_value", where, path, {"variant": "voter", "key": str(key)})
            continue
        if target is None or (_is_int(target) and target >= 1):
            votes.append((int(key), target))
        else:
            r.seat(target, where, f"{path}.{key}", True)
    return Ballot(tuple(votes))


def _read_last_words(r: _Reader, v: Any, where: str, path: str) -> tuple[LastWordsEntry, ...]:
    if not isinstance(v, list):
        r.wrong_type(where, path, "list", v)
        return ()
    entries = []
    keys = frozenset({"seat", "suspects"})
    for i, x in enumerate(v):
        p = f"{path}[{i}]"
        if r.obj(x, where, p, keys, keys) and not keys - x.keys():
            seat = r.seat(x["seat"], where, f"{p}.seat", False)
            suspects = r.seat_list(x["suspects"], where, f"{p}.suspects")
            if seat:
                entries.append(LastWordsEntry(seat, suspects))
    return tuple(entries)


def _given(v: dict[str, Any], key: str) -> bool:
    """``key`` is in the day and not an empty list: spec §6 ruling 5 reads an empty
    ``eject``, ``last_words`` or ``ballots`` as the key left out."""
    return key in v and v[key] != []


def _read_day(r: _Reader, v: dict[str, Any], where: str, path: str) -> Day:
    n = v["n"]
    eject = r.seat_list(v["eject"], where, f"{path}.eject") if _given(v, "eject") else None
    surrender = (
        r.seat(v["surrender"], where, f"{path}.surrender", False) if "surrender" in v else None
    )
    ballots: tuple[Ballot, ...] | None = None
    if _given(v, "ballots"):
        raw = v["ballots"]
        if isinstance(raw, list):
            ballots = tuple(
                _read_ballot(r, b, f"day {n} ballot {k + 1}", f"{path}.ballots[{k}]")
                for k, b in enumerate(raw)
            )
        else:
            r.wrong_type(where, f"{path}.ballots", "list", raw)
    eliminated: int | Undeclared | None = UNDECLARED
    if "eliminated" in v:
        eliminated = r.seat(v["eliminated"], where, f"{path}.eliminated", True)
    lot = r.seat(v["lot"], where, f"{path}.lot", False) if "lot" in v else None
    last_words = (
        _read_last_words(r, v["last_words"], where, f"{path}.last_words")
        if _given(v, "last_words")
        else None
    )
    return Day(n, eject, surrender, ballots, eliminated, lot, last_words)


def _read_log(r: _Reader, v: Any) -> tuple[Phase, ...]:
    if not isinstance(v, list):
        r.wrong_type("setup", "log", "phases", v)
        return ()
    phases: list[Phase] = []
    for i, entry in enumerate(v):
        path = f"log[{i}]"
        where = f"{'night' if i % 2 == 0 else 'day'} {i // 2 + 1}"
        if not isinstance(entry, dict):
            r.wrong_type(where, path, "phase", entry)
            continue
        kind, n = entry.get("phase"), entry.get("n")
        if kind not in ("night", "day") or not (type(n) is int and n >= 1):
            r.bad("record.bad_value", where, path, {"variant": "phase"})
            continue
        where = f"{kind} {n}"
        if kind == "night":
            if r.obj(entry, where, path, _NIGHT_KEYS, _NIGHT_KEYS):
                phases.append(_read_night(r, entry, where, path))
        elif r.obj(entry, where, path, frozenset({"phase", "n"}), _DAY_KEYS):
            phases.append(_read_day(r, entry, where, path))
    return tuple(phases)


def _read_awards(r: _Reader, v: Any) -> tuple[Award, ...]:
    if not isinstance(v, list):
        r.wrong_type("awards", "awards", "list", v)
        return ()
    awards = []
    required = frozenset({"seat", "kind"})
    allowed = frozenset({"seat", "kind", "points", "reason"})
    for i, a in enumerate(v):
        path = f"awards[{i}]"
        if not r.obj(a, "awards", path, required, allowed) or required - a.keys():
            continue
        seat = r.seat(a["seat"], "awards", f"{path}.seat", False)
        kind = r.enum(AwardKind, a["kind"], "awards", f"{path}.kind")
        points = a.get("points")
        if points is not None and (type(points) not in (int, float)):
            r.wrong_type("awards", f"{path}.points", "number", points)
        elif type(points) is float and not math.isfinite(points):  # spec §6 ruling 1
            params: dict[str, Param] = {"variant": "finite_number", "value": _shown(points)}
            r.bad("record.type", "awards", f"{path}.points", params)
        reason = a.get("reason")
        if reason is not None and not isinstance(reason, str):
            r.wrong_type("awards", f"{path}.reason", "string", reason)
        if "points" in a and points is None:
            r.wrong_type("awards", f"{path}.points", "number", None)
        if "reason" in a and reason is None:
            r.wrong_type("awards", f"{path}.reason", "string", None)
        if seat and kind:
            awards.append(Award(seat, kind, points, reason))
    return tuple(awards)


def _read_meta(r: _Reader, v: Any) -> Mapping[str, str]:
    if not isinstance(v, dict):
        r.wrong_type("setup", "meta", "strings_object", v)
        return {}
    r.obj(v, "setup", "meta", frozenset(), frozenset(v))
    for k, x in v.items():
        if not isinstance(x, str):
            r.wrong_type("setup", f"meta.{k}", "string", x)
    return MappingProxyType(dict(v))


_ENUM_VARIANTS: dict[type[Any], str] = {Role: "role", Winner: "winner", AwardKind: "award_kind"}
_ROLES = {r.value: r for r in Role}
_WINNERS = {w.value: w for w in Winner}
_KINDS = {k.value: k for k in AwardKind}
_SEAT_OF = {str(i): i for i in range(1, 100)}  # a ballot's canonical voter keys
_AWARD_KEYS = frozenset({"seat", "kind", "points", "reason"})


_ABSENT: Any = object()  # ``dict.get`` default: one lookup tells "absent" from any value
_RULESET_OF = dict(RULESETS)  # a plain dict reads faster than the read-only view


def _fast_day(p: dict[str, Any]) -> Day | None:
    eject = p.get("eject", _ABSENT)
    if eject is _ABSENT:
        eject = None
    elif type(eject) is not list or not all(type(s) is int and s >= 1 for s in eject):
        return None
    else:
        eject = tuple(eject) or None  # spec §6 ruling 5: [] is the key left out
    surrender = p.get("surrender", _ABSENT)
    if surrender is _ABSENT:
        surrender = None
    elif not (type(surrender) is int and surrender >= 1):
        return None
    ballots = p.get("ballots", _ABSENT)
    if ballots is _ABSENT:
        ballots = None
    else:
        if type(ballots) is not list:
            return None
        read = []
        seat_of = _SEAT_OF
        for b in ballots:
            if type(b) is not dict:
                return None
            votes = []
            try:
                for k, t in b.items():
                    if t is not None and (type(t) is not int or t < 1):
                        return None
                    votes.append((seat_of[k], t))  # KeyError: not a canonical voter key
            except KeyError:
                return None
            read.append(Ballot(tuple(votes)))
        ballots = tuple(read) or None
    eliminated = p.get("eliminated", UNDECLARED)
    if not (
        eliminated is None
        or eliminated is UNDECLARED
        or (type(eliminated) is int and eliminated >= 1)
    ):
        return None
    lot = p.get("lot", _ABSENT)
    if lot is _ABSENT:
        lot = None
    elif not (type(lot) is int and lot >= 1):
        return None
    words = p.get("last_words", _ABSENT)
    if words is _ABSENT:
        words = None
    else:
        if type(words) is not list:
            return None
        entries = []
        for w in words:
            if type(w) is not dict or len(w) != 2:
                return None
            seat, suspects = w.get("seat"), w.get("suspects")
            if not (type(seat) is int and seat >= 1 and type(suspects) is list):
                return None
            for x in suspects:
                if type(x) is not int or x < 1:
                    return None
            entries.append(LastWordsEntry(seat, tuple(suspects)))
        words = tuple(entries) or None
    return Day(p["n"], eject, surrender, ballots, eliminated, lot, words)


def _read_fast(obj: dict[str, Any]) -> GameRecord | None:
    """The common case, a well-formed record from plain dicts, read without bookkeeping.

    Returns None at the first thing out of the ordinary; the full reader then explains it.
    """
    if not obj.keys() <= _TOP_KEYS or obj.get("format") != FORMAT:
        return None
    spec = obj.get("ruleset")
    if type(spec) is not str:
        return None
    rules = _RULESET_OF.get(spec)
    raw_seats = obj.get("seats")
    if rules is None or type(raw_seats) is not list or not raw_seats:
        return None
    seats = []
    players = []
    roles = _ROLES
    # Exactly the keys seat, player and role: three keys, none of them missing.
    for i, s in enumerate(raw_seats, 1):
        if type(s) is not dict or len(s) != 3:
            return None
        try:
            # KeyError: a key missing or an unknown role; TypeError: an unhashable role
            number, player, role = s["seat"], s["player"], roles[s["role"]]
        except (KeyError, TypeError):
            return None
        if number != i or type(number) is not int or type(player) is not str or not player:
            return None
        if player.isspace():
            return None
        seats.append(Seat(i, player, role))
        players.append(player)
    if len(set(players)) != len(players):
        return None
    meta = None
    if "meta" in obj:
        raw_meta = obj["meta"]
        if type(raw_meta) is not dict or not all(type(v) is str for v in raw_meta.values()):
            return None
        meta = MappingProxyType(dict(raw_meta))
    log = obj.get("log", _ABSENT)
    if log is _ABSENT:
        log = None
    else:
        if type(log) is not list:
            return None
        phases: list[Phase] = []
        for p in log:
            if type(p) is not dict:
                return None
            kind, n = p.get("phase"), p.get("n")
            if type(n) is not int or n < 1:
                return None
            if kind == "night":
                # exactly phase, n, kill and check: four keys, kill and check among them
                kill, check = p.get("kill", _ABSENT), p.get("check", _ABSENT)
                if len(p) != 4:
                    return None
                if not (kill is None or (type(kill) is int and kill >= 1)):
                    return None
                if not (check is None or (type(check) is int and check >= 1)):
                    return None
                phases.append(Night(n, kill, check))
            elif kind == "day" and p.keys() <= _DAY_KEYS:
                day = _fast_day(p)
                if day is None:
                    return None
                phases.append(day)
            else:
                return None
        log = tuple(phases)
    awards = obj.get("awards")
    if "awards" in obj:
        if type(awards) is not list:
            return None
        read = []
        for a in awards:
            if type(a) is not dict or not {"seat", "kind"} <= a.keys() <= _AWARD_KEYS:
                return None
            seat, kind, points, reason = (
                a["seat"],
                _KINDS.get(a["kind"]) if type(a["kind"]) is str else None,
                a.get("points"),
                a.get("reason"),
            )
            if not (type(seat) is int and seat >= 1 and kind is not None):
                return None
            if ("points" in a and type(points) not in (int, float)) or (
                "reason" in a and type(reason) is not str
            ):
                return None
            if type(points) is float and not math.isfinite(points):
                return None
            read.append(Award(seat, kind, points, reason))
        awards = tuple(read)
    result = obj.get("result")
    if result is not None:
        if type(result) is not dict or result.keys() != {"winner"}:
            return None
        result = _WINNERS.get(result["winner"]) if type(result["winner"]) is str else None
        if result is None:
            return None
    elif "result" in obj:
        return None
    return GameRecord(spec, rules, tuple(seats), log, result, meta, awards)


def read_record(obj: Any) -> tuple[GameRecord | None, list[Violation]]:
    """Read a record leniently: the record (None if its form is too broken) and every problem.

    ``obj`` is the parsed JSON value, or JSON text (duplicate keys are then detected too).
    """
    if isinstance(obj, str | bytes):
        fast = _read_text_fast(obj)
        if fast is not None:
            return fast, []
        try:
            obj = loads(obj)
        except json.JSONDecodeError as e:
            return None, [Violation("record.json", "setup", {**json_problem(e), "path": "$"})]
        except (UnicodeDecodeError, RecursionError) as e:
            # bytes in no Unicode encoding, or JSON nested deeper than Python recurses
            problem = "not_utf8" if isinstance(e, UnicodeDecodeError) else "too_deep"
            params = {"variant": problem, "problem": problem, "detail": str(e), "path": "$"}
            return None, [Violation("record.json", "setup", params)]
        except ValueError as e:  # anything else the decoder refuses, said in its words
            params = {"variant": "other", "problem": "other", "detail": str(e), "path": "$"}
            return None, [Violation("record.json", "setup", {**params, "line": 1, "column": 1})]
    if type(obj) is dict:
        fast = _read_fast(obj)
        if fast is not None:
            return fast, []
    return _read_slow(obj)


def _refuse_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity are not JSON: the full reader says so


# One decoder for every fast read (``json.loads`` with an option builds one per call).
_STRICT_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def _read_text_fast(text: str | bytes) -> GameRecord | None:
    """JSON text of a well-formed record without duplicate keys, read by the fast reader.

    Parses with the plain decoder, which silently keeps the last of two equal keys, then
    proves there were none. Each key of the text is followed by a colon, and the other
    colons are inside strings; so if the objects read hold as many keys as the text has
    colons, no key was dropped. If the text has more colons, the proof still holds when
    the strings kept hold the difference, as long as none of their colons was written as
    an escape (it would be in a string but not in the text). None sends the text to the
    full reader.

    The text must start with its value (``raw_decode`` skips no leading whitespace: such
    text goes to the full reader) and may end with JSON's whitespace.
    """
    try:
        if not isinstance(text, str):
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        obj, end = _STRICT_DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return None  # the full reader says why
    if type(obj) is not dict or (end != len(text) and text[end:].strip(" \t\n\r")):
        return None
    record = _read_fast(obj)
    if record is None:
        return None
    colons = text.count(":") if isinstance(text, str) else text.count(b":")
    keys = _key_count(obj)
    if colons == keys:
        return record
    if (
        isinstance(text, str)
        and "\\u003a" not in text
        and "\\u003A" not in text
        and colons == keys + _colons_in_strings(record)
    ):
        return record
    return None


def _key_count(obj: dict[str, Any]) -> int:
    """The keys in every object of a record the fast reader accepted.

    Its ruleset is then an id and meta and each award are flat objects, so the objects
    are the record, meta, result, awards, seats, phases, ballots and last words. Every
    object is counted as read (never by the shape the reader expects): a count too high
    could hide a dropped key. Seats and last words are counted by their number: the fast
    reader took each seat only with three keys and each last words entry with two.
    """
    count = len(obj) + 3 * len(obj["seats"])
    for part in ("meta", "result"):
        if part in obj:
            count += len(obj[part])
    for award in obj.get("awards", ()):
        count += len(award)
    for phase in obj.get("log", ()):
        count += len(phase)
        if "ballots" in phase:
            for ballot in phase["ballots"]:
                count += len(ballot)
        if "last_words" in phase:
            count += 2 * len(phase["last_words"])
    return count


def _colons_in_strings(record: GameRecord) -> int:
    """Colons in the strings of a record the fast reader accepted.

    The only free text there is player names, meta and award reasons: every other string
    is a key or value from a fixed list without colons.
    """
    count = 0
    for seat in record.seats:
        count += seat.player.count(":")
    for key, value in (record.meta or {}).items():
        count += key.count(":") + value.count(":")
    for award in record.awards or ():
        if award.reason is not None:
            count += award.reason.count(":")
    return count


def _read_slow(obj: Any) -> tuple[GameRecord | None, list[Violation]]:
    """The full reader: walks everything and explains each problem."""
    r = _Reader()
    if not r.obj(obj, "setup", "$", frozenset({"format", "ruleset", "seats"}), _TOP_KEYS):
        return None, r.problems
    if "format" in obj and obj["format"] != FORMAT:
        r.bad("record.format", "setup", "format", {"value": repr(obj["format"])})
    spec, rules = _read_ruleset(r, obj["ruleset"]) if "ruleset" in obj else ("", None)
    seats = _read_seats(r, obj["seats"]) if "seats" in obj else ()
    meta = _read_meta(r, obj["meta"]) if "meta" in obj else None
    log = _read_log(r, obj["log"]) if "log" in obj else None
    awards = _read_awards(r, obj["awards"]) if "awards" in obj else None
    result = None
    if "result" in obj:
        res = obj["result"]
        keys = frozenset({"winner"})
        if r.obj(res, "result", "result", keys, keys) and "winner" in res:
            result = r.enum(Winner, res["winner"], "result", "result.winner")
    if r.fatal or rules is None:
        return None, r.problems
    return GameRecord(spec, rules, seats, log, result, meta, awards), r.problems


def parse_record(obj: Any) -> GameRecord:
    """Read a record strictly: raise :class:`RecordError` with every problem in its form."""
    record, problems = read_record(obj)
    if problems:
        raise RecordError(problems)
    assert record is not None  # the reader gives no record only with a problem
    return record


# --- writing -----------------------------------------------------------------------------


def _dump_phase(p: Phase) -> dict[str, Any]:
    if isinstance(p, Night):
        return {"phase": "night", "n": p.n, "kill": p.kill, "check": p.check}
    d: dict[str, Any] = {"phase": "day", "n": p.n}
    if p.eject is not None:
        d["eject"] = list(p.eject)
    if p.surrender is not None:
        d["surrender"] = p.surrender
    if p.last_words is not None:
        d["last_words"] = [{"seat": w.seat, "suspects": list(w.suspects)} for w in p.last_words]
    if p.ballots is not None:
        d["ballots"] = [{str(v): t for v, t in b.votes} for b in p.ballots]
    if p.eliminated is not UNDECLARED:
        d["eliminated"] = p.eliminated
    if p.lot is not None:
        d["lot"] = p.lot
    return d


def dump_record(record: GameRecord) -> dict[str, Any]:
    """The record's JSON value, keys in the spec's order."""
    spec = record.ruleset_spec
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": spec
        if isinstance(spec, str)
        else {"base": spec.base, "overrides": json.loads(json.dumps(dict(spec.overrides)))},
    }
    if record.meta is not None:
        out["meta"] = dict(record.meta)
    out["seats"] = [
        {"seat": s.seat, "player": s.player, "role": s.role.value} for s in record.seats
    ]
    if record.log is not None:
        out["log"] = [_dump_phase(p) for p in record.log]
    if record.awards is not None:
        awards = []
        for a in record.awards:
            d: dict[str, Any] = {"seat": a.seat, "kind": a.kind.value}
            if a.points is not None:
                d["points"] = a.points
            if a.reason is not None:
                d["reason"] = a.reason
            awards.append(d)
        out["awards"] = awards
    if record.result is not None:
        out["result"] = {"winner": record.result.value}
    return out
