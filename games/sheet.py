"""The referee's live sheet: small steps, each saved at once, replayed through the engine.

A step is a JSON object with a client-made ``id`` and a ``type``:

- ``deal``: ``{"roles": {"1": "killer", ...}}`` (and ``"players": {"1": handle}`` for a
  stand-alone game; a table's players come from its seating);
- ``night``: ``{"kill": seat|null, "check": seat|null}``;
- ``eject`` / ``surrender`` / ``lot``: ``{"seat": n}``;
- ``ballot``: ``{"votes": {"1": 3, "2": null, ...}}``;
- ``eliminate``: ``{"seat": n|null}`` (the engine computes who is out; the referee confirms);
- ``last_words``: ``{"seat": n, "suspects": [..]}``;
- ``award``: ``{"seat": n, "kind": "bonus"|"penalty"|"warning", "points": x, "reason": ".."}``.

Each write locks the game, checks the sheet's revision (stale: :class:`StaleSheet`,
carrying the current state), replays every step through :class:`engine.state.GameState`
and only then stores the new step. A retried step whose ``id`` is already the last one
is acknowledged without being applied twice.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

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
    Winner,
    dump_record,
    parse_record,
)
from engine.rulesets import Ruleset, get_ruleset
from engine.state import (
    Eject,
    Eliminate,
    Event,
    Expected,
    GameState,
    IllegalEventError,
    Lot,
    NightAction,
    Surrender,
    day_events,
)
from engine.validate import validate
from games import permissions
from games.models import Game, GameSheet, GameVersion
from games.services import (
    Conflict,
    GameError,
    NotAllowed,
    audit,
    lock_game,
    submit_record,
)
from league.engine_text import message_text, phase_text, violation_text, word_text
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


class StepError(GameError):
    """A step the rules (or the sheet) do not allow: the sentence in the reader's language,
    and for the engine's refusals its ``code``, ``where`` and ``params``."""

    def __init__(
        self,
        message: str,
        code: str = "sheet.invalid",
        where: str = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.where = where
        self.params: dict[str, Any] = dict(params or {})

    @classmethod
    def refused(cls, v: Violation) -> StepError:
        """The engine's violation ``v`` as a refusal of the step."""
        return cls(violation_text(v.code, v.where, v.params), v.code, v.where, v.params)


class StaleSheet(Conflict):
    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(
            _("The sheet changed on another device; it now shows the latest saved state.")
        )
        self.state = state


@dataclasses.dataclass
class Replay:
    rules: Ruleset
    spec: Any
    players: dict[int, dict[str, str]]  # seat → {"handle", "name"}
    state: GameState | None = None
    meta: dict[str, str] = dataclasses.field(default_factory=dict)
    awards: list[Award] = dataclasses.field(default_factory=list)

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
        raise StepError(_("%(what)s must be a seat number") % {"what": what})
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
    raise StepError(_("unknown step type %(t)s") % {"t": str(kind)[:20]})


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
            raise StepError(_("seat %(n)s has no player") % {"n": number})
        seats.append(Seat(number, players[number]["handle"], Role(role)))
    if sorted(s.seat for s in seats) != sorted(players):
        raise StepError(_("every seat needs a card: killer, police or civilian"))
    counts = replay.rules.role_counts(len(seats))
    record = GameRecord(replay.rules.id, replay.rules, tuple(sorted(seats, key=lambda s: s.seat)))
    verdict = validate(record)
    if counts is None or not verdict.valid:
        if verdict.violations:
            v = verdict.violations[0]
            raise StepError(violation_text(v.code, v.where, v.params), "setup", "setup", v.params)
        raise StepError(_("this table size is not allowed"), "setup", "setup")
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


def _apply(game: Game, replay: Replay, step: dict[str, Any]) -> None:
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
        _apply(game, replay, step)
    return replay


def _seats(s: frozenset[int]) -> list[int]:
    return sorted(s)


def _expected_json(e: Expected) -> dict[str, Any]:
    return {
        "step": str(e.step),
        "phase": phase_text(e.phase),
        "alive": _seats(e.alive),
        "kill_targets": _seats(e.kill_targets),
        "check_targets": _seats(e.check_targets),
        "ejectable": _seats(e.ejectable),
        "may_surrender": _seats(e.may_surrender),
        "ballot": e.ballot,
        "voters": _seats(e.voters),
        "candidates": _seats(e.candidates),
        "abstain": e.abstain,
        "tie": message_text(e.tie) if e.tie else None,
        "lot_candidates": _seats(e.lot_candidates),
        "eliminated": e.eliminated,
        "last_words": _seats(e.last_words),
        "winner": e.winner.value if isinstance(e.winner, Winner) else None,
        "reason": message_text(e.ending) if e.ending else None,
    }


def _summary(step: dict[str, Any]) -> str:
    kind = step.get("type")
    if kind == "deal":
        return _("Cards dealt")
    if kind == "night":
        kill = step.get("kill")
        check = step.get("check")
        return _("Night: kill %(k)s, check %(c)s") % {
            "k": kill if kill is not None else _("nobody"),
            "c": check if check is not None else _("nobody"),
        }
    if kind == "ballot":
        votes = step.get("votes") or {}
        counts: dict[Any, int] = {}
        for t in votes.values():
            if t is not None:
                counts[t] = counts.get(t, 0) + 1
        tally = ", ".join(f"{t}×{c}" for t, c in sorted(counts.items(), key=lambda x: -x[1]))
        return _("Ballot: %(tally)s") % {"tally": tally or _("all abstained")}
    if kind == "eliminate":
        seat = step.get("seat")
        return _("Seat %(n)s is out") % {"n": seat} if seat is not None else _("Nobody is out")
    if kind == "eject":
        return _("Seat %(n)s ejected") % {"n": step.get("seat")}
    if kind == "surrender":
        return _("Seat %(n)s surrendered") % {"n": step.get("seat")}
    if kind == "lot":
        return _("Lot drawn: seat %(n)s") % {"n": step.get("seat")}
    if kind == "last_words":
        return _("Last words of seat %(n)s") % {"n": step.get("seat")}
    if kind == "award":
        kind = word_text(str(step.get("kind")), "kind")
        return _("%(kind)s for seat %(n)s") % {"kind": kind, "n": step.get("seat")}
    return str(kind)


def state_json(game: Game, sheet: GameSheet, replay: Replay | None = None) -> dict[str, Any]:
    """Everything the sheet page shows. Contains roles: officials only."""
    if replay is None:
        replay = replay_steps(game, list(sheet.steps))
    rules = replay.rules
    n = len(replay.players)
    counts = rules.role_counts(n) if n else None
    st = replay.state
    roles = {s.seat: s.role.value for s in st.seats} if st is not None else {}
    deaths = (
        [{"seat": d.seat, "cause": str(d.cause), "phase": d.phase} for d in st.deaths]
        if st is not None
        else []
    )
    if st is None:
        expected: dict[str, Any] = {"step": "deal", "phase": "", "alive": sorted(replay.players)}
    else:
        expected = _expected_json(st.expected())
    latest = game.versions.order_by("-number").values("number", "status").first()
    return {
        "game": game.pk,
        "revision": sheet.revision,
        "game_revision": game.revision,
        "game_status": game.status,
        "ruleset": {"id": rules.id, **rules.to_params()},
        "counts": (
            {"killer": counts[0], "police": counts[1], "civilian": counts[2]} if counts else None
        ),
        "seats": [
            {
                "seat": k,
                "player": v["handle"],
                "name": v["name"],
                "role": roles.get(k),
                "alive": st is None or k in st.alive,
            }
            for k, v in sorted(replay.players.items())
        ],
        "expected": expected,
        "deaths": deaths,
        "awards": [
            {"seat": a.seat, "kind": a.kind.value, "points": a.points, "reason": a.reason}
            for a in replay.awards
        ],
        "steps": [
            {"id": s.get("id"), "type": s.get("type"), "summary": _summary(s)} for s in sheet.steps
        ],
        "over": st is not None and st.over,
        "record": replay.record_json(),
        "latest_version": latest,
    }


def _get_sheet(game: Game, lock: bool = False) -> GameSheet:
    qs = GameSheet.objects.select_for_update() if lock else GameSheet.objects
    sheet = qs.filter(game=game).first()
    if sheet is None:
        sheet = GameSheet.objects.create(game=game)
    return sheet


def _require_official(actor: Any, game: Game) -> None:
    if not permissions.is_game_official(actor, game):
        raise NotAllowed(_("Only this game's referee and organisers can use its sheet."))


def _require_open(game: Game) -> None:
    if game.status == Game.Status.VOIDED:
        raise Conflict(_("This game was voided; it can no longer change."))
    if game.status in (Game.Status.CONFIRMED, Game.Status.RELEASED):
        raise Conflict(
            _("This game is confirmed; the sheet is closed. Submit a correction instead.")
        )


def sheet_state(actor: Any, game: Game) -> dict[str, Any]:
    _require_official(actor, game)
    with transaction.atomic():
        sheet = _get_sheet(game)
    return state_json(game, sheet)


def add_step(
    actor: Any, game: Game, step: dict[str, Any], expected_revision: int | None
) -> dict[str, Any]:
    """Append one step if the engine allows it; returns the new state."""
    _require_official(actor, game)
    if not isinstance(step, dict) or step.get("type") not in STEP_TYPES:
        raise StepError(_("unknown step type"))
    step_id = str(step.get("id") or "")[:64]
    with transaction.atomic():
        game = lock_game(game.pk)
        sheet = _get_sheet(game, lock=True)
        steps = list(sheet.steps)
        if step_id and steps and steps[-1].get("id") == step_id:
            return state_json(game, sheet)  # a retry of the step we already saved
        if expected_revision is None or int(expected_revision) != sheet.revision:
            raise StaleSheet(state_json(game, sheet))
        _require_open(game)
        replay = replay_steps(game, steps)
        clean = {k: v for k, v in step.items() if k in _STEP_KEYS}
        clean["id"] = step_id
        _apply(game, replay, clean)
        sheet.steps = [*steps, clean]
        sheet.revision += 1
        sheet.updated_by = actor
        sheet.save(update_fields=["steps", "revision", "updated_at", "updated_by"])
        audit(actor, "sheet.step", game, index=len(steps), type=clean["type"])
        return state_json(game, sheet, replay)


_STEP_KEYS = {
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
}


def undo_step(actor: Any, game: Game, expected_revision: int | None) -> dict[str, Any]:
    """Take back the last step (kept in the audit log)."""
    _require_official(actor, game)
    with transaction.atomic():
        game = lock_game(game.pk)
        sheet = _get_sheet(game, lock=True)
        if expected_revision is None or int(expected_revision) != sheet.revision:
            raise StaleSheet(state_json(game, sheet))
        _require_open(game)
        steps = list(sheet.steps)
        if not steps:
            raise StepError(_("nothing to undo"))
        undone = steps.pop()
        sheet.steps = steps
        sheet.revision += 1
        sheet.updated_by = actor
        sheet.save(update_fields=["steps", "revision", "updated_at", "updated_by"])
        audit(actor, "sheet.undo", game, index=len(steps), type=undone.get("type"))
        return state_json(game, sheet)


def submit_sheet(actor: Any, game: Game, expected_revision: int | None) -> GameVersion:
    """Submit what the sheet holds as a new version (source: sheet)."""
    _require_official(actor, game)
    with transaction.atomic():
        game = lock_game(game.pk)
        sheet = _get_sheet(game, lock=True)
        if expected_revision is None or int(expected_revision) != sheet.revision:
            raise StaleSheet(state_json(game, sheet))
        replay = replay_steps(game, list(sheet.steps))
        record = replay.record_json()
        if record is None:
            raise StepError(_("deal the cards first"))
        latest = game.versions.order_by("-number").first()
        if (
            latest is not None
            and latest.source == GameVersion.Source.SHEET
            and latest.record == json.loads(json.dumps(record))
        ):
            return latest  # the same sheet submitted again (a retry): nothing new to add
        return submit_record(actor, game, record, GameVersion.Source.SHEET)


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
