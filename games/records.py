"""The bridge to the engine for whole records: read, validate, and add the platform's
own checks (the record must be this game's: its ruleset and its seating).

Every judgement comes from ``engine.validate``; nothing here re-implements a rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from engine.record import FORMAT, json_problem, loads
from engine.rulesets import RulesetError, get_ruleset
from engine.validate import Status as Completeness
from engine.validate import validate
from games.errors import EngineWords
from games.models import Game
from league.engine_text import violation_text
from league.inputs import holds_nul, max_json_depth, nesting_depth, value_depth
from league.models import Player, Seat


class NotARecordError(EngineWords, ValueError):
    """Input that is not a KGR/1 record at all (not JSON, not an object, another format):
    400, a ``record.*`` code (``record.json``: the engine's words for the parser's
    complaint).

    Nothing is stored; the message says what was wrong and is safe to show anyone.
    """


@dataclass(frozen=True)
class Check:
    """A record's judgement as stored on a version."""

    record: dict[str, Any]
    valid: bool
    completeness: str
    violations: list[dict[str, Any]] = field(default_factory=list)
    winner: str = ""
    ended: str = ""

    @property
    def complete(self) -> bool:
        return self.completeness in (Completeness.FINISHED, Completeness.RESULT_ONLY)


def record_max_bytes() -> int:
    return int(settings.RECORD_MAX_BYTES)


def _require_size(size: int) -> None:
    limit = record_max_bytes()
    if size > limit:
        raise NotARecordError(
            _("the record is too large: %(size)s KiB, the limit is %(limit)s KiB"),
            code="record.too_large",
            params={"size": size // 1024, "limit": limit // 1024},
        )


def load_json(data: str | bytes) -> Any:
    """Parse JSON text (keeping duplicate keys visible to the engine) or explain why not.

    Bounded: at most ``RECORD_MAX_BYTES`` and ``JSON_MAX_DEPTH`` levels, checked before
    parsing; ``NaN`` and ``Infinity`` are refused (RFC 8259)."""
    _require_size(len(data.encode()) if isinstance(data, str) else len(data))
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise NotARecordError(
                _("not JSON: the file is not UTF-8 text"), code="record.not_utf8"
            ) from None
    depth = max_json_depth()
    if nesting_depth(data, depth) > depth:
        raise NotARecordError(
            _("not a game record: nested deeper than %(n)s levels"),
            code="record.too_deep",
            params={"n": depth},
        )
    try:
        return loads(data)
    except json.JSONDecodeError as e:  # the decoder's complaint as a code and params
        raise NotARecordError(code="record.json", params=json_problem(e)) from None


def require_record_shape(value: Any) -> dict[str, Any]:
    """A JSON object in the KGR/1 format, or :class:`NotARecordError`."""
    if not isinstance(value, dict):
        raise NotARecordError(
            _("not a game record: expected a JSON object"), code="record.not_object"
        )
    fmt = value.get("format")
    if fmt != FORMAT:
        raise NotARecordError(
            _("wrong format: expected %(want)s, got %(got)s"),
            code="record.format",
            params={"want": json.dumps(FORMAT), "got": json.dumps(fmt)[:40]},
        )
    return value


def _same_rules(a: Any, b: Any) -> bool:
    try:
        ra, rb = get_ruleset(a), get_ruleset(b)
    except RulesetError:
        return False
    return ra.id == rb.id and ra.to_params() == rb.to_params()


def expected_players(game: Game) -> dict[int, str] | None:
    """Seat number → player handle: a table's from the draw, a club game's as entered
    (None when a club game was created without its players)."""
    if game.table_id is None:
        if not game.players:
            return None
        return {i: str(h) for i, h in enumerate(game.players, start=1)}
    rows = Seat.objects.filter(table_id=game.table_id).values_list("number", "player__handle")
    return dict(rows)


def platform_violation(code: str, where: str, params: dict[str, Any]) -> dict[str, Any]:
    """One of the platform's own violations, stored as the engine's are: code, where,
    params, and the English ``message`` (pages and the API render code and params in the
    reader's language; the message is for logs and people reading the database)."""
    with translation.override("en"):
        message = violation_text(code, where, params)
    return {"code": code, "where": where, "params": params, "message": message}


def _seat_key(value: Any) -> int | str:
    return value if type(value) is int else str(value)


def platform_violations(game: Game, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record belongs to this game: same ruleset, same players in the same seats."""
    found: list[dict[str, Any]] = []
    spec = record.get("ruleset")
    if spec is not None and not _same_rules(spec, game.ruleset_spec()):
        found.append(
            platform_violation(
                "platform.ruleset", "setup", {"ruleset": json.dumps(game.ruleset_spec())}
            )
        )
    seats = record.get("seats")
    if not isinstance(seats, list):
        return found
    declared: dict[Any, Any] = {
        s.get("seat"): s.get("player") for s in seats if isinstance(s, dict) and "seat" in s
    }
    want = expected_players(game)
    if want is not None:
        if want and declared != want:
            wrong = sorted(
                (n for n in set(want) | set(declared) if want.get(n) != declared.get(n)), key=str
            )
            found.append(
                platform_violation(
                    "platform.seating", "setup", {"seats": [_seat_key(n) for n in wrong]}
                )
            )
    else:
        handles = {p for p in declared.values() if isinstance(p, str)}
        known = set(Player.objects.filter(handle__in=handles).values_list("handle", flat=True))
        unknown = sorted(handles - known)
        if unknown:
            found.append(platform_violation("platform.unknown_player", "setup", {"names": unknown}))
    return found


def capped(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """At most ``RECORD_MAX_VIOLATIONS`` violations, the last saying how many more there
    were (a record with a million problems is not worth storing a million times)."""
    limit = int(settings.RECORD_MAX_VIOLATIONS)
    if len(violations) <= limit:
        return violations
    more = len(violations) - limit + 1
    return [
        *violations[: limit - 1],
        platform_violation("platform.too_many", "record", {"count": more}),
    ]


def check_record(game: Game, data: Any) -> Check:
    """Judge ``data`` (a JSON value, or JSON text) for ``game``; raise NotARecordError if it
    is not a KGR/1 record at all."""
    if isinstance(data, str | bytes):
        value = load_json(data)
    else:
        value = data
        depth = max_json_depth()
        if value_depth(value, depth) > depth:
            raise NotARecordError(
                _("not a game record: nested deeper than %(n)s levels"),
                code="record.too_deep",
                params={"n": depth},
            )
        try:
            size = len(json.dumps(value, allow_nan=False).encode())
        except ValueError:
            raise NotARecordError(
                _("not JSON: NaN and Infinity are not JSON numbers"), code="record.nan"
            ) from None
        _require_size(size)
    if holds_nul(value):
        raise NotARecordError(
            _("not a game record: a text holds a NUL character (\\u0000)"), code="record.nul"
        )
    record = require_record_shape(value)
    verdict = validate(data if isinstance(data, str | bytes) else record)
    violations = [v.as_dict() for v in verdict.violations]
    violations += platform_violations(game, record)
    violations = capped(violations)
    winner = verdict.winner
    return Check(
        record=json.loads(json.dumps(record)),
        valid=not violations,
        completeness=str(verdict.status),
        violations=violations,
        winner=winner.value if winner is not None else "",
        ended=verdict.ended or "",
    )
