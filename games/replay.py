"""Replaying the referee's sheet through the engine: the steps, what each may hold, and
the record they add up to.

A step is a JSON object with a client-made ``id`` and a ``type``:

- ``deal``: ``{"roles": {"1": "killer", ...}}`` (and ``"players": {"1": handle}`` for a
  stand-alone game; a table's players come from its seating);
- ``night``: ``{"kill": seat|null, "check": seat|null}``;
- ``eject`` / ``surrender`` / ``lot``: ``{"seat": n}``;
- ``ballot``: ``{"votes": {"1": 3, "2": null, ...}}``;
- ``eliminate``: ``{"seat": n|null}`` (the engine computes who is out; the referee confirms);
- ``last_words``: ``{"seat": n, "suspects": [..]}``;
- ``award``: ``{"seat": n, "kind": "bonus"|"penalty"|"warning", "points": x, "reason": ".."}``
  and ``"phase"``, the phase it was given in (``"day 2"``), set by the server when the
  step is added (``games.sheet.add_step``). KGR/1 awards have no phase: it stays here,
  in the sheet's steps, and the record's ``awards`` keep seat, kind, points and reason.

:func:`replay_steps` replays every step through :class:`engine.state.GameState`; a step
the rules refuse raises :class:`StepError`. :func:`record_to_steps` goes the other way,
from a KGR/1 record to the steps that play it. The sheet's writes are ``games.sheet``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.record import (
    Award,
    AwardKind,
    Ballot,
    Day,
    GameRecord,
    LastWordsEntry,
    Night,
    Role,
    Seat,
    Violation,
    dump_record,
    parse_record,
)
from engine.rulesets import Ruleset, get_ruleset
from engine.state import (
    Eject,
    Eliminate,
    Event,
    GameState,
    IllegalEventError,
    Lot,
    NightAction,
    Surrender,
    day_events,
)
from engine.validate import validate
from games.errors import EngineWords
from games.models import Game
from league.models import Player
from league.models import Seat as LeagueSeat

STEP_TYPES = (
    "deal",
    "night",
    "eject",
    "surrender",
    "ballot",
    "lot",
    "eliminate",
    "last_words",
    "award",
)

#: The keys a stored step keeps (anything else a client sends is dropped).
STEP_KEYS = {
    "id",
    "type",
    "roles",
    "players",
    "kill",
    "check",
    "seat",
    "votes",
    "suspects",
    "kind",
    "points",
    "reason",
    "phase",
}

#: The longest reason a new award may give (checked when a step is added, so a sheet
#: stored before the bound still replays).
MAX_REASON = 200


class StepError(EngineWords):
    """A step the rules (or the sheet) do not allow (400). The sheet's own refusals have
    the code ``sheet.invalid`` and a sentence of their own; the engine's (:meth:`refused`)
    its violation's ``code``, ``where`` and ``params``, in the reader's language when read.
    The answer carries ``where``."""

    def __init__(
        self,
        message: str | Promise | None,
        *,
        code: str = "sheet.invalid",
        where: str = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params, where=where)

    @classmethod
    def refused(cls, v: Violation) -> StepError:
        """The engine's violation ``v`` as a refusal of the step."""
        return cls(None, code=v.code, where=v.where, params=v.params)

    def extra(self) -> dict[str, Any]:
        return {"where": self.where}


@dataclasses.dataclass
class Replay:
    rules: Ruleset
    spec: Any
    players: dict[int, dict[str, str]]  # seat → {"handle", "name"}
    state: GameState | None = None
    meta: dict[str, str] = dataclasses.field(default_factory=dict)
    awards: list[Award] = dataclasses.field(default_factory=list)
    #: the phase each of ``awards`` was given in (``""``: not known, e.g. an upload's)
    award_phases: list[str] = dataclasses.field(default_factory=list)

    def record(self) -> GameRecord | None:
        if self.state is None:
            return None
        rec = self.state.to_record()
        return dataclasses.replace(
            rec,
            ruleset_spec=self.spec if isinstance(self.spec, str) else rec.ruleset_spec,
            awards=tuple(self.awards) if self.awards else None,
        )

    def record_json(self) -> dict[str, Any] | None:
        rec = self.record()
        if rec is None:
            return None
        out = dump_record(rec)
        out["ruleset"] = self.spec
        if self.meta:
            out = {
                "format": out.pop("format"),
                "ruleset": out.pop("ruleset"),
                "meta": self.meta,
                **out,
            }
        return out


def record_meta(game: Game) -> dict[str, str]:
    """The record's ``meta`` strings for a game (event, round, table, referee, date)."""
    meta: dict[str, str] = {}
    table = game.table
    if table is not None:
        meta["event"] = table.round.event.name
        meta["round"] = str(table.round.number)
        meta["table"] = str(table.number)
    elif game.title:
        meta["event"] = game.title
    referee = game.game_referee
    if referee is not None:
        meta["referee"] = referee.user.get_username()
    if game.played_on:
        meta["date"] = game.played_on.isoformat()
    return meta


def _seat_players(game: Game) -> dict[int, dict[str, str]]:
    if game.table_id is None:
        names = dict(
            Player.objects.filter(handle__in=game.players).values_list("handle", "display_name")
        )
        return {
            i: {"handle": str(h), "name": names.get(h, str(h))}
            for i, h in enumerate(game.players, start=1)
        }
    rows = LeagueSeat.objects.filter(table_id=game.table_id).select_related("player")
    return {s.number: {"handle": s.player.handle, "name": s.player.display_name} for s in rows}


def _int(v: Any, what: str) -> int:
    if type(v) is not int:
        raise StepError(_("%(what)s must be a seat number"), params={"what": what})
    return int(v)


def _opt_int(v: Any, what: str) -> int | None:
    return None if v is None else _int(v, what)


def _engine_event(step: dict[str, Any]) -> Event:
    kind = step.get("type")
    if kind == "night":
        return NightAction(_opt_int(step.get("kill"), "kill"), _opt_int(step.get("check"), "check"))
    if kind == "eject":
        return Eject(_int(step.get("seat"), "seat"))
    if kind == "surrender":
        return Surrender(_int(step.get("seat"), "seat"))
    if kind == "lot":
        return Lot(_int(step.get("seat"), "seat"))
    if kind == "eliminate":
        return Eliminate(_opt_int(step.get("seat"), "seat"))
    if kind == "last_words":
        suspects = step.get("suspects") or []
        if not isinstance(suspects, list):
            raise StepError(_("suspects must be a list of seats"))
        return LastWordsEntry(
            _int(step.get("seat"), "seat"), tuple(_int(s, "suspect") for s in suspects)
        )
    if kind == "ballot":
        votes = step.get("votes")
        if not isinstance(votes, dict):
            raise StepError(_("a ballot needs votes"))
        pairs = []
        for voter, target in votes.items():
            if not str(voter).isdigit():
                raise StepError(_("a voter must be a seat number"))
            pairs.append((int(voter), _opt_int(target, "vote")))
        return Ballot(tuple(sorted(pairs)))
    raise StepError(_("unknown step type %(t)s"), params={"t": str(kind)[:20]})


def _deal(game: Game, replay: Replay, step: dict[str, Any]) -> None:
    roles = step.get("roles")
    if not isinstance(roles, dict):
        raise StepError(_("the deal needs a card for every seat"))
    players = replay.players
    if not players:  # a club game created without its players: the deal names them
        given = step.get("players")
        if not isinstance(given, dict):
            raise StepError(_("the deal needs a player for every seat"))
        players = {
            int(k): {"handle": str(v), "name": str(v)}
            for k, v in given.items()
            if str(k).isdigit() and isinstance(v, str) and v
        }
        replay.players = players
    seats = []
    for key, role in roles.items():
        if not str(key).isdigit() or role not in {r.value for r in Role}:
            raise StepError(_("every seat needs a card: killer, police or civilian"))
        number = int(key)
        if number not in players:
            raise StepError(_("seat %(n)s has no player"), params={"n": number})
        seats.append(Seat(number, players[number]["handle"], Role(role)))
    if sorted(s.seat for s in seats) != sorted(players):
        raise StepError(_("every seat needs a card: killer, police or civilian"))
    counts = replay.rules.role_counts(len(seats))
    record = GameRecord(replay.rules.id, replay.rules, tuple(sorted(seats, key=lambda s: s.seat)))
    verdict = validate(record)
    if counts is None or not verdict.valid:
        if verdict.violations:
            raise StepError.refused(verdict.violations[0])
        raise StepError(_("this table size is not allowed"), code="sheet.table_size", where="setup")
    replay.state = GameState(replay.rules, record.seats)


def _award(replay: Replay, step: dict[str, Any]) -> None:
    seat = _int(step.get("seat"), "seat")
    kind = step.get("kind")
    if kind not in {k.value for k in AwardKind}:
        raise StepError(_("an award is a bonus, a penalty or a warning"))
    points = step.get("points")
    if points is not None and type(points) not in (int, float):
        raise StepError(_("points must be a number"))
    reason = step.get("reason") or None
    if reason is not None and not isinstance(reason, str):
        raise StepError(_("the reason must be text"))
    award = Award(seat, AwardKind(kind), points, reason)
    rec = replay.record()
    assert rec is not None
    verdict = validate(dataclasses.replace(rec, awards=(*replay.awards, award), result=None))
    bad = [v for v in verdict.violations if v.where == "awards"]
    if bad:
        raise StepError.refused(bad[-1])
    replay.awards.append(award)
    phase = step.get("phase")
    replay.award_phases.append(phase if isinstance(phase, str) else "")


def apply_step(game: Game, replay: Replay, step: dict[str, Any]) -> None:
    """Apply one step to ``replay``, or raise :class:`StepError` if it may not be taken."""
    kind = step.get("type")
    if kind == "deal":
        if replay.state is not None:
            raise StepError(_("the cards are already dealt"))
        _deal(game, replay, step)
        return
    if replay.state is None:
        raise StepError(_("deal the cards first"))
    if kind == "award":
        _award(replay, step)
        return
    try:
        replay.state.apply(_engine_event(step))
    except IllegalEventError as e:
        raise StepError.refused(e.violations[0]) from None


def replay_steps(game: Game, steps: list[dict[str, Any]]) -> Replay:
    spec = game.ruleset_spec()
    replay = Replay(get_ruleset(spec), spec, _seat_players(game), meta=record_meta(game))
    for step in steps:
        apply_step(game, replay, step)
    return replay


def record_to_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A KGR/1 record (with a log) as the sheet's steps, in the order the rules take them."""
    rec = parse_record(record)
    steps: list[dict[str, Any]] = [
        {"type": "deal", "roles": {str(s.seat): s.role.value for s in rec.seats}}
    ]
    for phase in rec.log or ():
        if isinstance(phase, Night):
            steps.append({"type": "night", "kill": phase.kill, "check": phase.check})
            continue
        assert isinstance(phase, Day)
        for e in day_events(phase):
            if isinstance(e, Eject):
                steps.append({"type": "eject", "seat": e.seat})
            elif isinstance(e, Surrender):
                steps.append({"type": "surrender", "seat": e.seat})
            elif isinstance(e, Ballot):
                steps.append({"type": "ballot", "votes": {str(v): t for v, t in e.votes}})
            elif isinstance(e, Lot):
                steps.append({"type": "lot", "seat": e.seat})
            elif isinstance(e, Eliminate):
                steps.append({"type": "eliminate", "seat": e.seat})
            elif isinstance(e, LastWordsEntry):
                steps.append({"type": "last_words", "seat": e.seat, "suspects": list(e.suspects)})
    for a in rec.awards or ():
        step: dict[str, Any] = {"type": "award", "seat": a.seat, "kind": a.kind.value}
        if a.points is not None:
            step["points"] = a.points
        if a.reason is not None:
            step["reason"] = a.reason
        steps.append(step)
    return steps
