"""The referee's live sheet: small steps, each saved at once, replayed through the engine
(the steps and their replay: ``games.replay``).

Each write locks the game, checks the sheet's revision (stale: :class:`StaleSheet`,
carrying the current state), replays every step and only then stores the new step. A
retried step whose ``id`` is already the last one is acknowledged without being applied
twice. Only the game's officials use the sheet: it shows roles.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.record import Winner
from engine.state import Expected
from games.models import Game, GameSheet, GameVersion
from games.permissions import Access
from games.replay import STEP_KEYS, STEP_TYPES, Replay, StepError, apply_step, replay_steps
from games.services import audit, lock_game, not_allowed, require_not_voided, submit_record
from league.engine_text import message_text, phase_text, word_text
from league.errors import UserError


class StaleSheet(UserError):
    """The sheet moved on since the caller's revision (409); the answer carries the
    current ``state`` and its ``revision``."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(
            gettext_lazy(
                "The sheet changed on another device; it now shows the latest saved state."
            ),
            code="sheet.stale_revision",
            status=409,
        )
        self.state = state

    def extra(self) -> dict[str, Any]:
        return {"state": self.state, "revision": self.state["revision"]}


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


def _require_official(actor: User, game: Game) -> None:
    if not Access(actor).is_game_official(game):
        raise not_allowed(
            gettext_lazy("Only this game's referee and organisers can use its sheet.")
        )


def _require_open(game: Game) -> None:
    require_not_voided(game)
    if game.status in (Game.Status.CONFIRMED, Game.Status.RELEASED):
        raise UserError(
            gettext_lazy(
                "This game is confirmed; the sheet is closed. Submit a correction instead."
            ),
            code="sheet.closed",
            status=409,
        )


def sheet_state(actor: User, game: Game) -> dict[str, Any]:
    _require_official(actor, game)
    with transaction.atomic():
        sheet = _get_sheet(game)
    return state_json(game, sheet)


def add_step(
    actor: User, game: Game, step: dict[str, Any], expected_revision: int | None
) -> dict[str, Any]:
    """Append one step if the engine allows it; returns the new state."""
    _require_official(actor, game)
    if not isinstance(step, dict) or step.get("type") not in STEP_TYPES:
        raise StepError(gettext_lazy("unknown step type"))
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
        clean = {k: v for k, v in step.items() if k in STEP_KEYS}
        clean["id"] = step_id
        apply_step(game, replay, clean)
        sheet.steps = [*steps, clean]
        sheet.revision += 1
        sheet.updated_by = actor
        sheet.save(update_fields=["steps", "revision", "updated_at", "updated_by"])
        audit(actor, "sheet.step", game, index=len(steps), type=clean["type"])
        return state_json(game, sheet, replay)


def undo_step(actor: User, game: Game, expected_revision: int | None) -> dict[str, Any]:
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
            raise StepError(gettext_lazy("nothing to undo"))
        undone = steps.pop()
        sheet.steps = steps
        sheet.revision += 1
        sheet.updated_by = actor
        sheet.save(update_fields=["steps", "revision", "updated_at", "updated_by"])
        audit(actor, "sheet.undo", game, index=len(steps), type=undone.get("type"))
        return state_json(game, sheet)


def submit_sheet(actor: User, game: Game, expected_revision: int | None) -> GameVersion:
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
            raise StepError(gettext_lazy("deal the cards first"))
        latest = game.versions.order_by("-number").first()
        if (
            latest is not None
            and latest.source == GameVersion.Source.SHEET
            and latest.record == json.loads(json.dumps(record))
        ):
            return latest  # the same sheet submitted again (a retry): nothing new to add
        return submit_record(actor, game, record, GameVersion.Source.SHEET)
