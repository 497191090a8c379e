"""Whole-record validation (spec §4) and the across-games checks (spec §3.8).

``validate`` reads a record leniently, checks the setup, then replays the log through
:class:`engine.state.GameState` in lenient mode, so it reports every violation once and
judges exactly as a live game would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.record import (
    AwardKind,
    Day,
    GameRecord,
    LastWordsEntry,
    Night,
    Phase,
    RecordError,
    Violation,
    Winner,
    fast_init,
    phase_label,
    read_record,
)
from engine.state import Death, GameState, day_events

__all__ = [
    "Outcome",
    "Status",
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


@fast_init
@dataclass(frozen=True, slots=True)
class Outcome:
    """What the replay computed; ``replayed`` False when there was no log to replay.

    ``last_words`` lists the seats entitled to last words, in death order.
    """

    winner: Winner | None = None
    ended: str | None = None
    reason: str | None = None
    deaths: tuple[Death, ...] = ()
    last_words: tuple[int, ...] = ()
    night1_victim: int | None = None
    ejected: tuple[int, ...] = ()
    replayed: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
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
    for i, a in enumerate(record.awards or ()):
        if not 1 <= a.seat <= record.n_players:
            found.append(
                Violation(
                    "awards.unknown_seat",
                    "awards",
                    f"awards[{i}]: seat {a.seat} is not at the table (1..{record.n_players})",
                )
            )
        if a.kind is AwardKind.WARNING:
            if a.points not in (None, 0):
                found.append(
                    Violation(
                        "awards.points",
                        "awards",
                        f"awards[{i}]: a warning to seat {a.seat} carries no points",
                    )
                )
        elif a.points is None or a.points <= 0:
            found.append(
                Violation(
                    "awards.points",
                    "awards",
                    f"awards[{i}]: a {a.kind} for seat {a.seat} needs a positive number of points",
                )
            )
    return found


def _replay(state: GameState, log: tuple[Phase, ...], found: list[Violation]) -> bool:
    """Replay the log; False when the replay had to stop (phase out of order, play after end)."""
    step = state.step
    for i, phase in enumerate(log):
        is_night = i % 2 == 0
        if state.winner is not None and not (
            isinstance(phase, Day) and phase.n == state.round and not state.day_touched
        ):
            label = phase_label(phase)
            found.append(
                Violation(
                    "phase.after_end", label, f"{label}: the game already ended on {state.ended}"
                )
            )
            return False
        if isinstance(phase, Night) is not is_night or phase.n != i // 2 + 1:
            label = phase_label(phase)
            want = f"{'night' if is_night else 'day'} {i // 2 + 1}"
            found.append(
                Violation("phase.order", label, f"log[{i}]: {label} out of order; expected {want}")
            )
            return False
        if isinstance(phase, Night):
            got = step(phase, False)
            if got:
                found += got
            continue
        ended = False
        for event in day_events(phase):
            if ended and not isinstance(event, LastWordsEntry):
                continue
            got = step(event, False)
            if got:
                if got[0].code == "phase.after_end":
                    ended = True
                    found.append(got[0])
                else:
                    found += got
        if ended:
            return False
    return True


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
        if setup:
            found += setup
        if rec.log is None:
            outcome = Outcome(winner=rec.result)
        elif not setup or setup[0].code != "setup.seats":
            complete = _replay(state, rec.log, found)
            if complete:
                found += state.judge_result(rec.result)
            outcome = Outcome(
                winner=state.winner,
                ended=state.ended,
                reason=state.reason,
                deaths=tuple(state.deaths),
                last_words=tuple(state.entitled),
                night1_victim=state.night1_victim,
                ejected=tuple(state.ejected),
                replayed=True,
            )
        else:
            outcome = _NO_OUTCOME
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


def validate_series(
    records: Iterable[GameRecord | Mapping[str, Any] | str | bytes],
) -> list[Verdict]:
    """Validate games in order, adding the across-games checks of spec §3.8."""
    verdicts = [validate(r) for r in records]
    # per event: player -> (was the night-1 victim of their last game, that game's number)
    last: dict[str | None, dict[str, tuple[bool | None, int]]] = {}
    for g, v in enumerate(verdicts):
        rec = v.record
        if rec is None:
            continue
        event = rec.meta.get("event") if rec.meta else None
        seen = last.setdefault(event, {})
        known, victim = _night1_victim(v)
        extra = []
        for s in rec.seats:
            was = victim == s.seat if known else None
            before = seen.get(s.player)
            if was and before and before[0] and rec.rules.first_night_repeat_ban:
                extra.append(
                    Violation(
                        "series.repeat_night1_victim",
                        "series",
                        f"series: {s.player} (seat {s.seat}) is the night-1 victim again; they "
                        f"were the night-1 victim of their previous game (game {before[1] + 1})",
                    )
                )
            seen[s.player] = (was, g)
        if extra:
            verdicts[g] = replace(v, valid=False, violations=v.violations + tuple(extra))
    return verdicts
