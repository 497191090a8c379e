"""Whole-record validation (spec §4) and the across-games checks (spec §3.8).

``validate`` reads a record leniently, checks the setup, then replays the log through
:class:`engine.state.GameState` in lenient mode, so it reports every violation once and
judges exactly as a live game would. Violations, the end reason and ties are data
(codes and params, see :mod:`engine.messages`); the English is rendered from them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from enum import StrEnum
from typing import Any

from engine.messages import Param
from engine.record import (
    AwardKind,
    Day,
    GameRecord,
    RecordError,
    Violation,
    Winner,
    read_record,
)
from engine.state import (
    UNPLAYABLE_SETUP,
    Cause,
    Death,
    Ending,
    EndReason,
    GameState,
    Tie,
    TieKind,
    can_end_drawn,
)
from engine.values import frozen_value

__all__ = [
    "Cause",
    "Death",
    "EndReason",
    "Ending",
    "Outcome",
    "Status",
    "Tie",
    "TieKind",
    "Verdict",
    "Violation",
    "validate",
    "validate_series",
]


class Status(StrEnum):
    """How much of a game the record holds."""

    FINISHED = "finished"
    IN_PROGRESS = "in-progress"
    RESULT_ONLY = "result-only"


@frozen_value
class Outcome:
    """What the replay computed; ``replayed`` False when there was no log to replay.

    ``last_words`` lists the seats entitled to last words, in death order.
    """

    winner: Winner | None = None
    ended: str | None = None
    ending: Ending | None = None
    deaths: tuple[Death, ...] = ()
    last_words: tuple[int, ...] = ()
    night1_victim: int | None = None
    ejected: tuple[int, ...] = ()
    replayed: bool = False

    @property
    def reason(self) -> EndReason | None:
        """Why the game ended (``ending`` has the English and a surrender's seat), or None."""
        return None if self.ending is None else self.ending.reason


@frozen_value
class Verdict:
    """A record's judgement: every violation, the record's status and the computed outcome."""

    valid: bool
    status: Status
    violations: tuple[Violation, ...]
    outcome: Outcome
    record: GameRecord | None = None

    @property
    def winner(self) -> Winner | None:
        """The computed winner (the declared one for a result-only record)."""
        return self.outcome.winner

    @property
    def ended(self) -> str | None:
        """The phase whose event ended the game, e.g. ``"night 2"``."""
        return self.outcome.ended

    def raise_if_invalid(self) -> None:
        """Strict mode: raise :class:`RecordError` carrying every violation."""
        if not self.valid:
            raise RecordError(self.violations)


_NO_OUTCOME = Outcome()
_DRAW = Winner.DRAW


def _status(raw: Any, record: GameRecord | None) -> Status:
    if record is not None:
        has_log, has_result = record.log is not None, record.result is not None
    else:
        has_log = isinstance(raw, Mapping) and "log" in raw
        has_result = isinstance(raw, Mapping) and "result" in raw
    if not has_result:
        return Status.IN_PROGRESS
    return Status.FINISHED if has_log else Status.RESULT_ONLY


def _check_awards(record: GameRecord) -> list[Violation]:
    found = []
    n = record.n_players
    for i, a in enumerate(record.awards or ()):
        path = f"awards[{i}]"
        if not 1 <= a.seat <= n:
            params: dict[str, Param] = {"path": path, "seat": a.seat, "n": n}
            found.append(Violation("awards.unknown_seat", "awards", params))
        if a.kind is AwardKind.WARNING:
            if a.points not in (None, 0):
                params = {"variant": "warning", "path": path, "seat": a.seat}
                found.append(Violation("awards.points", "awards", params))
        elif a.points is None or a.points <= 0:
            params = {"variant": "positive", "path": path, "kind": a.kind.value, "seat": a.seat}
            found.append(Violation("awards.points", "awards", params))
    return found


def validate(record: GameRecord | Mapping[str, Any] | str | bytes, strict: bool = False) -> Verdict:
    """Judge a record (parsed, its JSON value, or JSON text) and report every violation.

    With ``strict``, raise :class:`RecordError` instead of returning an invalid verdict.
    """
    raw: Any = record
    if isinstance(record, GameRecord):
        rec: GameRecord | None = record
        found: list[Violation] = []
    else:
        rec, found = read_record(record)
    status = _status(raw, rec)
    if rec is None:
        outcome = _NO_OUTCOME
    else:
        state = GameState(rec.rules, rec.seats, lenient=True, keep_log=False)
        setup = state.setup_problems
        playable = True
        if setup:  # every setup problem, once: the reader may have named some already
            playable = not any(p.code in UNPLAYABLE_SETUP for p in setup)
            told = {p.code for p in found}
            found += [p for p in setup if p.code not in told]
        log = rec.log
        if log is None:
            outcome = Outcome(winner=rec.result)
        elif playable:
            if state.replay(log, found):
                ends_by_day = bool(log) and isinstance(log[-1], Day)
                found += state.close_record(rec.result, ends_by_day)
            outcome = Outcome(
                winner=state.winner,
                ended=state.ended,
                ending=state.ending,
                deaths=tuple(state.deaths),
                last_words=tuple(state.entitled),
                night1_victim=state.night1_victim,
                ejected=tuple(state.ejected),
                replayed=True,
            )
        else:
            outcome = _NO_OUTCOME
        if (
            rec.result is _DRAW
            and not can_end_drawn(rec.rules)
            and not any(v.where == "result" for v in found)  # one mistake, reported once
        ):
            params: dict[str, Param] = {"declared": _DRAW.value, "ruleset": rec.rules.id}
            found.append(Violation("result.impossible", "result", params))
        if rec.awards:
            found += _check_awards(rec)
    verdict = Verdict(not found, status, tuple(found), outcome, rec)
    if strict:
        verdict.raise_if_invalid()
    return verdict


def _night1_victim(v: Verdict) -> tuple[bool, int | None]:
    """(known, seat): whether the record tells who died on night 1, and who."""
    rec = v.record
    if rec is None or not rec.log or not v.outcome.replayed:
        return False, None
    return True, v.outcome.night1_victim


def _players(raw: Any) -> tuple[str | None, list[str]] | None:
    """(event, players) read leniently from a record the reader could not read whole (an
    unknown ruleset, a broken form), or None when it is not JSON at all."""
    if isinstance(raw, (str, bytes)):
        try:
            raw = json.loads(raw)
        except ValueError:  # JSONDecodeError, or bytes that are not text
            return None
    if not isinstance(raw, Mapping):
        return None, []
    meta, seats = raw.get("meta"), raw.get("seats")
    event = meta.get("event") if isinstance(meta, Mapping) else None
    players = [
        s["player"]
        for s in (seats if isinstance(seats, list) else ())
        if isinstance(s, Mapping) and isinstance(s.get("player"), str) and s["player"].strip()
    ]
    return (event if isinstance(event, str) else None), players


def validate_series(
    records: Iterable[GameRecord | Mapping[str, Any] | str | bytes],
) -> list[Verdict]:
    """Validate games in order, adding the across-games checks of spec §3.8 and §6.11.

    Returns one verdict per record, in order. Every record counts as a game played by its
    players (matched by ``player`` id, grouped by ``meta.event``): one that was not
    replayed — result-only, a ruleset that cannot be resolved, seats that cannot be
    replayed — breaks its players' chains, since its night-1 victim is unknown. A record
    that is not JSON at all (``record.json``, the CLI's exit 2) stops the series check:
    its own verdict says why, and the records after it are judged alone, without the
    across-games checks.
    """
    inputs = list(records)
    verdicts = [validate(r) for r in inputs]
    # per event: player -> (was the night-1 victim of their last game, that game's number)
    last: dict[str | None, dict[str, tuple[bool | None, int]]] = {}
    for g, v in enumerate(verdicts):
        rec = v.record
        if rec is None:
            if any(x.code == "record.json" for x in v.violations):
                break  # unreadable: the series check stops here
            read = _players(inputs[g])
            if read is None:
                break
            event, players = read
            seen = last.setdefault(event, {})
            for player in players:
                seen[player] = (None, g)  # played, victim unknown: the chain breaks
            continue
        event = rec.meta.get("event") if rec.meta else None
        seen = last.setdefault(event, {})
        known, victim = _night1_victim(v)
        extra = []
        for s in rec.seats:
            was = victim == s.seat if known else None
            before = seen.get(s.player)
            if was and before and before[0] and rec.rules.first_night_repeat_ban:
                params: dict[str, Param] = {
                    "player": s.player,
                    "seat": s.seat,
                    "game": before[1] + 1,
                }
                extra.append(Violation("series.repeat_night1_victim", "series", params))
            seen[s.player] = (was, g)
        if extra:
            verdicts[g] = replace(v, valid=False, violations=v.violations + tuple(extra))
    return verdicts
