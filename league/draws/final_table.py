"""The final table: one table of the stage's entrants, seated game by game by the
final design (formats.md §2, :func:`engine.formats.final_seating.final_seating`) instead
of a draw — nobody in the same seat twice, no pair neighbours more often than the bound.

Written at once (no job: the design is instant) through the bridge's
:func:`league.draws.bridge.write_rounds`, so the rounds become drafts the organiser
confirms and releases like any other.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from engine.errors import EngineError
from engine.formats.final_seating import FinalSeating, final_seating
from league import permissions as perms
from league.audit import audit
from league.draws.bridge import stage_registrations, write_rounds
from league.draws.models import UNFINISHED, DrawJob
from league.errors import EngineRefusal, UserError, require
from league.events import lifecycle
from league.events.models import Event, Round
from league.events.services import OPEN_STATUSES, allowed_table_sizes, lock_event
from league.permissions import Viewer
from league.stages.models import StageSeating
from league.stages.selectors import StagePlan, event_stages

#: The largest seed an organiser may give.
MAX_SEED = 2**31 - 1


def final_players(event: Event, stage: StagePlan) -> list[int]:
    """Who sits at the final table, in the order of the cut (the first stage: its
    registered players, checked in or not, by number)."""
    if stage.position > 0:
        registered = {r.player_id for r in stage_registrations(event, stage.first_round)}
        return [p for p in stage.entrants or () if p in registered]
    return sorted(
        r.player_id for r in stage_registrations(event, stage.first_round, checked_in_only=False)
    )


def _stage(event: Event, position: int) -> StagePlan:
    for plan in event_stages(event):
        if plan.position == position:
            return plan
    raise UserError(
        _("This event has no stage %(n)s."), code="no_stage", params={"n": position + 1}, status=404
    )


def check_final_table(event: Event, stage: StagePlan) -> list[int]:
    """The players of the final table, or the refusal that says why it cannot be seated."""
    if stage.seating != StageSeating.FINAL:
        raise UserError(
            _("“%(stage)s” is drawn at several tables, not seated as one final table."),
            code="not_final",
            params={"stage": stage.name},
            status=409,
        )
    if event.status not in OPEN_STATUSES:
        raise UserError(
            _("Open registration before drawing (the event is %(status)s)."),
            code="status",
            params={"status": Event.Status(event.status)},
            status=409,
        )
    if stage.needs_cut:
        raise UserError(
            _("Confirm the cut before “%(stage)s” first: its players are not known yet."),
            code="cut_needed",
            params={"stage": stage.name},
            status=409,
        )
    statuses = dict(Round.objects.filter(event=event).values_list("number", "status"))
    undrawn = [n for n in range(1, stage.first_round) if statuses.get(n) == Round.Status.NONE]
    if undrawn:
        raise UserError(
            _("Draw round %(n)s first: earlier rounds must be drawn."),
            code="order",
            params={"n": undrawn[0]},
            status=409,
        )
    if any(statuses.get(n) == Round.Status.RELEASED for n in stage.round_numbers):
        raise UserError(
            _("“%(stage)s” is released and cannot be seated again."),
            code="released",
            params={"stage": stage.name},
            status=409,
        )
    later = [n for n in statuses if n > stage.last_round and statuses[n] != Round.Status.NONE]
    if later:
        raise UserError(
            _("Round %(n)s is already drawn; redraw through the last round instead."),
            code="later_drawn",
            params={"n": min(later)},
            status=409,
        )
    if lifecycle.kept_in_rounds(event, stage.first_round, stage.last_round):
        raise UserError(
            _("A game of “%(stage)s” is recorded or a seat was placed by hand; it is kept."),
            code="kept",
            params={"stage": stage.name},
            status=409,
        )
    players = final_players(event, stage)
    sizes = allowed_table_sizes(event)
    if len(players) not in sizes:
        raise UserError(
            _("“%(stage)s” has %(n)s players; one table of this event seats %(sizes)s players."),
            code="final_size",
            params={"stage": stage.name, "n": len(players), "sizes": list(sizes)},
            status=409,
        )
    return players


@transaction.atomic
def draw_final_table(
    actor: Viewer, event: Event, position: int, seed: int | None = None
) -> FinalSeating:
    """Seat the final table of stage ``position``: one table per round of the stage,
    the entrants placed by the final design from ``seed`` (drawn when not given); the
    rounds become drafts. Refused while a draw runs, before the cut, after a release,
    or when the entrants do not make one table of the event's sizes."""
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise UserError(
            _("The seed is a whole number from 0 to %(n)s."), code="seed", params={"n": MAX_SEED}
        )
    stage = _stage(event, position)
    players = check_final_table(event, stage)
    if DrawJob.objects.filter(event=event, status__in=UNFINISHED).exists():
        raise UserError(_("A draw is already running for this event."), code="busy", status=409)
    seed = secrets.randbelow(MAX_SEED) if seed is None else seed
    games = len(stage.round_numbers)
    try:
        design = final_seating([str(p) for p in players], games, seed)
    except EngineError as exc:
        raise EngineRefusal(_("Final table: %(error)s"), code="final_design", error=exc) from exc
    seating = [[list(game)] for game in design.games]
    write_rounds(event, stage.first_round, seating, None)
    audit(
        actor,
        "draw.final_table",
        event,
        event=event,
        stage=stage.name,
        position=position,
        rounds=[stage.first_round, stage.last_round],
        seed=seed,
        players=players,
        method=design.method,
        max_neighbours=design.max_neighbours,
        bound=design.bound,
    )
    return design
