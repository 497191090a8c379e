"""The referee's live sheet: small steps, each saved at once, replayed through the engine
(the steps and their replay: ``games.replay``).

:func:`state_json` is everything the page shows, the referee's console included: what
the engine allows next, each seat's name, the speech timers' speakers in order (the
event's durations) and each seat's fouls with the points the scoring profile adds by
itself (``engine.scoring.automatic_points``). The page computes no rule.

Each write locks the game, checks the sheet's revision (stale: :class:`StaleSheet`,
carrying the current state), replays every step and only then stores the new step. A
retried step whose ``id`` is already the last one is acknowledged without being applied
twice. Only the game's officials use the sheet: it shows roles.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.record import Winner
from engine.scoring import (
    DEFAULT_PROFILE,
    ScoringProfile,
    automatic_points,
    format_points,
    get_profile,
    summarize,
)
from engine.state import Cause, Expected, GameState, Step, TieKind
from games.models import Game, GameSheet, GameVersion
from games.permissions import Access
from games.replay import (
    MAX_REASON,
    STEP_KEYS,
    STEP_TYPES,
    Replay,
    StepError,
    apply_step,
    replay_steps,
)
from games.services import audit, lock_game, not_allowed, require_not_voided, submit_record
from league.engine_text import message_text, phase_text, word_text
from league.errors import UserError
from league.models import Event
from league.stages.selectors import event_stages, stage_of_round


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
        said = {"kind": kind, "n": step.get("seat"), "phase": phase_text(step.get("phase"))}
        if said["phase"]:
            return _("%(kind)s for seat %(n)s (%(phase)s)") % said
        return _("%(kind)s for seat %(n)s") % said
    return str(kind)


# --- the console: timers and fouls ---------------------------------------------------------

#: The timers' kinds and the event fields that hold their seconds.
TIMER_FIELDS = {
    "speech": "speech_seconds",
    "tie_speech": "tie_speech_seconds",
    "last_words": "last_words_seconds",
}


def timer_seconds(event: Event | None) -> dict[str, int]:
    """The speech timers of ``event``; a stand-alone club game has the defaults (the
    model's: 60, 30 and 20 seconds)."""
    source = event if event is not None else Event()  # an unsaved event: the defaults
    return {kind: int(getattr(source, name)) for kind, name in TIMER_FIELDS.items()}


def _table_order(first: int, seats: list[int]) -> list[int]:
    """``seats`` (sorted) clockwise, starting with ``first`` or the next seat after it."""
    after = [s for s in seats if s >= first]
    return after + [s for s in seats if s < first]


def _speakers(st: GameState, e: Expected) -> list[tuple[int, str]]:
    """Who speaks now, in order, and for which timer: last words first (the seats the
    engine still expects them from), then a day's speeches before ballot 1 (every living
    player, clockwise from the seat after the night's victim; from seat 1 when nobody
    died that night), or before a tie-break ballot (the tied seats; before an off-site PK,
    the others: game-record.md §3.4)."""
    out = [(seat, "last_words") for seat in sorted(e.last_words)]
    if e.step not in (Step.DAY, Step.BALLOT):
        return out
    alive = sorted(e.alive)
    if e.ballot == 1:
        night = e.phase.replace("day", "night", 1)
        victims = [d.seat for d in st.deaths if d.cause == Cause.KILL and d.phase == night]
        start = victims[0] + 1 if victims else 1
        return out + [(s, "speech") for s in _table_order(start, alive)]
    tied = sorted(e.candidates)
    if e.tie is not None and e.tie.kind == TieKind.OFF_SITE_PK:
        tied = [s for s in alive if s not in e.candidates]
    return out + [(s, "tie_speech") for s in tied]


def _timer_json(game: Game, st: GameState | None, e: Expected | None) -> dict[str, Any]:
    seconds = timer_seconds(game.event)
    if st is None or e is None:
        return {"seconds": seconds, "round": "", "phase": "", "speakers": []}
    key = f"{e.phase}:{e.ballot}" if e.step in (Step.DAY, Step.BALLOT) else f"{e.phase}:{e.step}"
    return {
        "seconds": seconds,
        "round": key,
        "phase": phase_text(e.phase),
        "speakers": [
            {"seat": seat, "kind": kind, "seconds": seconds[kind]}
            for seat, kind in _speakers(st, e)
        ],
    }


def game_profile(game: Game) -> ScoringProfile:
    """The scoring profile the game will be scored with: its stage's, else its event's;
    a stand-alone club game's is the default."""
    event, round_ = game.event, game.round
    if event is None or round_ is None:
        return DEFAULT_PROFILE
    return get_profile(stage_of_round(event_stages(event), round_.number).scoring_profile)


def _fouls_json(
    game: Game, replay: Replay, names: dict[int, str], e: Expected | None
) -> dict[str, Any]:
    """Each seat's warnings, penalties and ejection, with the points the profile adds by
    itself (``engine.scoring.automatic_points``: the threshold's warning penalty once, an
    ejection's) as they will be scored; seats without a foul are left out.

    The profile (one query: its stage's) is read only when something shown depends on it:
    a foul, or a day's ejection control (its confirmation says what an ejection costs)."""
    record = replay.record()
    summary = summarize(record, str(game.pk)) if record is not None else None
    fouled: set[int] = set()
    if summary is not None:
        fouled = {a.seat for a in summary.awards if a.kind != "bonus"} | set(summary.ejected)
    ejecting = e is not None and e.step == Step.DAY and bool(e.ejectable)
    if summary is None or not (fouled or ejecting):
        return {
            "profile": None,
            "threshold": None,
            "warning_penalty": None,
            "ejection_penalty": None,
            "seats": [],
        }
    profile = game_profile(game)
    base: dict[str, Any] = {
        "profile": profile.key,
        "threshold": profile.warning_threshold,
        "warning_penalty": format_points(-profile.warning_penalty),
        "ejection_penalty": format_points(-profile.ejection_penalty),
        "seats": [],
    }
    automatic = automatic_points(summary.awards, summary.ejected, profile)
    rows = []
    for seat in sorted(fouled):
        warnings = sum(1 for a in summary.awards if a.seat == seat and a.kind == "warning")
        penalties = [a.points for a in summary.awards if a.seat == seat and a.kind == "penalty"]
        lines = [a for a in automatic if a.seat == seat]
        total = -sum(penalties, Decimal(0)) + sum((a.points for a in lines), Decimal(0))
        left = profile.warning_threshold - warnings
        rows.append(
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "warnings": warnings,
                "penalties": format_points(sum(penalties, Decimal(0))),
                "ejected": seat in summary.ejected,
                "automatic": [
                    {
                        "kind": a.kind,
                        "points": format_points(a.points),
                        "text": message_text(a),
                    }
                    for a in lines
                ],
                "total": format_points(total),
                # the next warning costs the threshold's penalty
                "next_warning_costs": (
                    format_points(-profile.warning_penalty) if left == 1 else None
                ),
            }
        )
    base["seats"] = rows
    return base


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
    e = st.expected() if st is not None else None
    if e is None:
        expected: dict[str, Any] = {"step": "deal", "phase": "", "alive": sorted(replay.players)}
    else:
        expected = _expected_json(e)
    names = {k: v["name"] for k, v in replay.players.items()}
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
        "names": {str(k): v for k, v in sorted(names.items())},
        "expected": expected,
        "deaths": deaths,
        "awards": [
            {
                "seat": a.seat,
                "kind": a.kind.value,
                "points": a.points,
                "reason": a.reason,
                "phase": phase_text(phase),
            }
            for a, phase in zip(replay.awards, replay.award_phases, strict=True)
        ],
        "fouls": _fouls_json(game, replay, names, e),
        "timer": _timer_json(game, st, e),
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


#: The most points one award may give or take (checked when a step is added, as the
#: reason's length): a referee's bonus or penalty is a fraction of a game's points, and an
#: unbounded number (1e308) would show as hundreds of digits.
MAX_POINTS = 10


def _points_in_bounds(points: Any) -> bool:
    """No points, or a number 0..MAX_POINTS with at most two decimals (the engine still
    judges the sign: a bonus or penalty needs more than 0, a warning none)."""
    if points is None or type(points) not in (int, float):
        return True  # the engine refuses what is not a number
    exact = Decimal(repr(points)) if isinstance(points, float) else Decimal(points)
    if not exact.is_finite():
        return True  # the engine's own refusal (record.type)
    return 0 <= exact <= MAX_POINTS and exact == exact.quantize(Decimal("0.01"))


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
        clean = {k: v for k, v in step.items() if k in STEP_KEYS and k != "phase"}
        clean["id"] = step_id
        if clean["type"] == "award":
            reason = clean.get("reason")
            if isinstance(reason, str) and len(reason) > MAX_REASON:
                raise StepError(
                    gettext_lazy("the reason may be at most %(n)s characters long"),
                    params={"n": MAX_REASON},
                )
            if not _points_in_bounds(clean.get("points")):
                raise StepError(
                    gettext_lazy("points are a number from 0 to %(max)s with at most two decimals"),
                    params={"max": MAX_POINTS},
                )
            if replay.state is not None:  # the phase it was given in, said by the engine
                clean["phase"] = replay.state.expected().phase
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
