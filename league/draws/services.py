"""Draw writes: queue a draw, change a drawn round by hand (swap players, move a
referee, unpin), move a round through draft → confirmed → released, and assign referees
again. Permission-checked, under the event's lock (:func:`league.events.services.lock_event`),
and audited, like every league write."""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league import outages
from league import permissions as perms
from league.audit import audit
from league.clubs.models import Player, Referee
from league.draws import tasks
from league.draws.models import UNFINISHED, DrawJob
from league.draws.referees import RefereeAssignment, reassign_referees
from league.errors import UserError, require
from league.events import lifecycle
from league.events.models import Event, Round, RoundStatus, Seat, Table
from league.events.selectors import avoid_pairs, referee_conflicts
from league.events.services import OPEN_STATUSES, change_event_status, lock_event
from league.i18n import note
from league.permissions import Viewer
from league.stages.models import StageSeating
from league.stages.selectors import StagePlan, event_stages, stage_of_round


@transaction.atomic
def request_draw(
    actor: Viewer,
    event: Event,
    *,
    from_round: int,
    to_round: int | None = None,
    seed: int | None = None,
    checked_in_only: bool = True,
) -> DrawJob:
    """Queue a draw of rounds ``from_round``..``to_round`` (default: to the end of the
    stage of ``from_round``: a draw never spans two stages).

    Earlier rounds must be drawn (they stay as they are and the draw takes their
    meetings into account); the rounds drawn must not be released; rounds after
    ``to_round`` must not be drawn yet. Drawing over draft or confirmed rounds replaces
    them — that is "redraw from round k" after withdrawals. A later stage is drawn once
    its cut is confirmed, among its entrants; a final table is seated by its design
    (:func:`league.draws.final_table.draw_final_table`), not drawn.
    """
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    if not 1 <= from_round <= event.rounds_count:
        raise UserError(
            _("Choose rounds between 1 and %(n)s."),
            code="rounds",
            params={"n": event.rounds_count},
        )
    stage = stage_of_round(event_stages(event), from_round)
    to_round = to_round or stage.last_round
    if not 1 <= from_round <= to_round <= event.rounds_count:
        raise UserError(
            _("Choose rounds between 1 and %(n)s."),
            code="rounds",
            params={"n": event.rounds_count},
        )
    check_stage_drawable(stage, to_round)
    if event.status not in OPEN_STATUSES:
        raise UserError(
            _("Open registration before drawing (the event is %(status)s)."),
            code="status",
            params={"status": Event.Status(event.status)},
            status=409,
        )
    rounds = {r.number: r.status for r in event.rounds.all()}
    undrawn_before = [n for n in range(1, from_round) if rounds.get(n) == Round.Status.NONE]
    if undrawn_before:
        raise UserError(
            _("Draw round %(n)s first: earlier rounds must be drawn."),
            code="order",
            params={"n": undrawn_before[0]},
            status=409,
        )
    released = [
        n for n in range(from_round, to_round + 1) if rounds.get(n) == Round.Status.RELEASED
    ]
    if released:
        raise UserError(
            _("Round %(n)s is released and cannot be redrawn; draw from round %(next)s."),
            code="released",
            params={"n": released[-1], "next": released[-1] + 1},
            status=409,
        )
    later = [
        n for n in range(to_round + 1, event.rounds_count + 1) if rounds.get(n) != Round.Status.NONE
    ]
    if later:
        raise UserError(
            _("Round %(n)s is already drawn; redraw through the last round instead."),
            code="later_drawn",
            params={"n": later[0]},
            status=409,
        )
    _expire_stale_jobs(event)
    if DrawJob.objects.filter(event=event, status__in=UNFINISHED).exists():
        raise UserError(_("A draw is already running for this event."), code="busy", status=409)
    job = DrawJob.objects.create(
        event=event,
        from_round=from_round,
        to_round=to_round,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        checked_in_only=checked_in_only,
        requested_by=actor if isinstance(actor, User) and actor.is_authenticated else None,
    )
    audit(
        actor,
        "draw.request",
        job,
        event=event,
        from_round=from_round,
        to_round=to_round,
        seed=job.seed,
    )
    job_id = job.pk
    transaction.on_commit(lambda: _start_draw(job_id))
    return job


def check_stage_drawable(stage: StagePlan, to_round: int) -> None:
    """Refuse a draw of ``stage`` up to ``to_round`` that crosses its end, comes before
    its cut, or is the final table (seated by its design)."""
    if to_round > stage.last_round:
        raise UserError(
            _("A draw stays within one stage: “%(stage)s” ends with round %(last)s."),
            code="stage_boundary",
            params={"stage": stage.name, "last": stage.last_round},
        )
    if stage.seating == StageSeating.FINAL:
        raise UserError(
            _("“%(stage)s” is one final table: seat it with the final table's design."),
            code="final_table",
            params={"stage": stage.name},
            status=409,
        )
    if stage.needs_cut:
        raise UserError(
            _("Confirm the cut before “%(stage)s” first: its players are not known yet."),
            code="cut_needed",
            params={"stage": stage.name},
            status=409,
        )


def _start_draw(job_id: int) -> None:
    """After commit: queue the draw; with the broker down, fail the job at once (the
    organiser can start it again) instead of leaving it queued for STALE_DRAW_AFTER."""
    if not outages.enqueue(tasks.run_draw_job, job_id):
        DrawJob.objects.filter(pk=job_id, status=DrawJob.Status.QUEUED).update(
            status=DrawJob.Status.FAILED,
            error=note("league.draw.queue_down"),
            finished_at=timezone.now(),
        )


#: A queued or running draw older than this was lost (a worker died); it may be restarted.
STALE_DRAW_AFTER = timedelta(minutes=15)


def _expire_stale_jobs(event: Event) -> None:
    stale = DrawJob.objects.filter(
        event=event,
        status__in=UNFINISHED,
        created_at__lt=timezone.now() - STALE_DRAW_AFTER,
    )
    for job in stale:
        job.status = DrawJob.Status.FAILED
        job.error = note("league.draw.stale")
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "error", "finished_at"])
        audit(None, "draw.expired", job, event=event)


def _editable_round(actor: Viewer, rnd: Round) -> Round:
    """The round, locked, if its seats may change by hand: a draft (before it is public)
    or a released round (event-day substitutions at tables not yet played)."""
    require(perms.can_manage_event(actor, rnd.event))
    lock_event(rnd.event)
    rnd.refresh_from_db()
    if rnd.status not in (Round.Status.DRAFT, Round.Status.RELEASED):
        raise UserError(
            _("Round %(n)s is %(status)s: reopen it to change it by hand."),
            code="not_draft",
            params={"n": rnd.number, "status": Round.Status(rnd.status)},
            status=409,
        )
    return rnd


@transaction.atomic
def swap_players(actor: Viewer, rnd: Round, player_a: Player, player_b: Player) -> list[int]:
    """Exchange two players' seats (tables and seat numbers); both seats become pinned.

    Refused at a table with recorded play. Returns the table numbers affected."""
    rnd = _editable_round(actor, rnd)
    seats = {
        s.player_id: s
        for s in Seat.objects.filter(round=rnd, player__in=[player_a, player_b]).select_related(
            "table"
        )
    }
    if player_a.pk == player_b.pk:
        raise UserError(_("Give the handles of two different players."), code="same_player")
    missing = [p for p in (player_a, player_b) if p.pk not in seats]
    if missing:
        raise UserError(
            _("%(player)s has no seat in round %(n)s."),
            code="not_seated",
            params={"player": missing[0].display_name, "n": rnd.number},
        )
    a, b = seats[player_a.pk], seats[player_b.pk]
    lifecycle.refuse_if_played(
        Table.objects.filter(pk__in=[a.table_id, b.table_id]), gettext("swap these players")
    )

    avoid = avoid_pairs(rnd.event)
    for mover, table_id, other in ((a, b.table_id, b), (b, a.table_id, a)):
        if table_id == mover.table_id:
            continue
        mates = Seat.objects.filter(table_id=table_id).exclude(pk=other.pk)
        for mate in mates.values_list("player_id", flat=True):
            if (min(mover.player_id, mate), max(mover.player_id, mate)) in avoid:
                raise UserError(
                    _("This swap seats two players who must not meet at one table."),
                    code="avoid",
                    status=409,
                )
    a_table, a_number = a.table_id, a.number
    # Free one seat first so the unique (table, seat) constraint holds at every step.
    Seat.objects.filter(pk=a.pk).delete()
    Seat.objects.filter(pk=b.pk).update(table_id=a_table, number=a_number, pinned=True)
    Seat.objects.create(
        round=rnd, table_id=b.table_id, number=b.number, player_id=a.player_id, pinned=True
    )
    tables = sorted({a.table.number, b.table.number})
    audit(
        actor,
        "round.swap",
        rnd,
        event=rnd.event,
        players=[player_a.handle, player_b.handle],
        tables=tables,
    )
    return tables


@transaction.atomic
def move_referee(actor: Viewer, table: Table, referee: Referee | None) -> list[int]:
    """Give ``table`` to ``referee``; if they judge another table that round, swap them.

    The referees placed this way are pinned (automatic assignment keeps them). Refused at
    a table with recorded play. Returns the table numbers affected."""
    rnd = _editable_round(actor, table.round)
    table.refresh_from_db()
    if referee is not None:
        if not rnd.event.referees.filter(pk=referee.pk).exists():
            raise UserError(_("That referee is not on this event's list."), code="not_listed")

        players = set(table.seats.values_list("player_id", flat=True))
        blocked = {p for r, p in referee_conflicts(rnd.event, [referee]) if r == referee.pk}
        if players & blocked:
            raise UserError(
                _("%(ref)s may not judge a player at this table (own club or declared conflict)."),
                code="referee_conflict",
                params={"ref": str(referee)},
                status=409,
            )
    before = table.referee_id
    other = None
    if referee is not None:
        other = Table.objects.filter(round=rnd, referee=referee).exclude(pk=table.pk).first()
    affected = [table.pk] + ([other.pk] if other is not None else [])
    lifecycle.refuse_if_played(
        Table.objects.filter(pk__in=affected), gettext("change this referee")
    )
    if other is not None and before is not None:
        displaced = Referee.objects.get(pk=before)
        others = set(other.seats.values_list("player_id", flat=True))
        blocked = {p for r, p in referee_conflicts(rnd.event, [displaced]) if r == before}
        if others & blocked:
            raise UserError(
                _("%(ref)s would move to table %(n)s, where they may not judge a player."),
                code="referee_conflict",
                params={"ref": str(displaced), "n": other.number},
                status=409,
            )
    if other is not None:
        Table.objects.filter(pk=other.pk).update(referee=None)
        Table.objects.filter(pk=table.pk).update(referee=referee, referee_pinned=True)
        Table.objects.filter(pk=other.pk).update(referee_id=before, referee_pinned=True)
    else:
        Table.objects.filter(pk=table.pk).update(referee=referee, referee_pinned=True)
    numbers = sorted(Table.objects.filter(pk__in=affected).values_list("number", flat=True))
    audit(
        actor,
        "table.referee",
        table,
        event=rnd.event,
        before=before,
        after=referee.pk if referee else None,
        tables=numbers,
    )
    return numbers


@transaction.atomic
def unpin_round(actor: Viewer, rnd: Round) -> int:
    """Let automatic assignment and redraws change this round's hand-placed entries again.

    Returns how many tables had pins."""
    rnd = _editable_round(actor, rnd)
    tables = Table.objects.filter(round=rnd)
    pinned = set(tables.filter(referee_pinned=True).values_list("pk", flat=True))
    pinned |= set(Seat.objects.filter(round=rnd, pinned=True).values_list("table_id", flat=True))
    tables.update(referee_pinned=False)
    Seat.objects.filter(round=rnd).update(pinned=False)
    audit(actor, "round.unpin", rnd, event=rnd.event, tables=len(pinned))
    return len(pinned)


def _set_round_status(
    actor: Viewer, rnd: Round, to: RoundStatus, allowed_from: tuple[RoundStatus, ...]
) -> Round:
    if rnd.status not in allowed_from:
        raise UserError(
            _("Round %(n)s is %(status)s and cannot become %(to)s."),
            code="bad_transition",
            params={"n": rnd.number, "status": Round.Status(rnd.status), "to": to},
            status=409,
        )
    before = rnd.status
    rnd.status = to
    fields = ["status"]
    if to == Round.Status.RELEASED:
        rnd.released_at = timezone.now()
        fields.append("released_at")
    rnd.save(update_fields=fields)
    audit(actor, "round.status", rnd, event=rnd.event, before=before, after=to)
    return rnd


def _lock_round(actor: Viewer, rnd: Round) -> tuple[Event, Round]:
    require(perms.can_manage_event(actor, rnd.event))
    event = lock_event(rnd.event)
    return event, Round.objects.get(pk=rnd.pk)


@transaction.atomic
def confirm_round(actor: Viewer, rnd: Round) -> Round:
    event, rnd = _lock_round(actor, rnd)
    if DrawJob.objects.filter(event=event, status__in=UNFINISHED).exists():
        raise UserError(_("Wait for the running draw to finish."), code="busy", status=409)
    return _set_round_status(actor, rnd, Round.Status.CONFIRMED, (Round.Status.DRAFT,))


@transaction.atomic
def reopen_round(actor: Viewer, rnd: Round) -> Round:
    """Confirmed → draft, to swap players or referees again."""
    _event, rnd = _lock_round(actor, rnd)
    return _set_round_status(actor, rnd, Round.Status.DRAFT, (Round.Status.CONFIRMED,))


@transaction.atomic
def release_round(actor: Viewer, rnd: Round) -> Round:
    """Confirmed → released: the round becomes public. Releasing the first starts the event."""
    event, rnd = _lock_round(actor, rnd)
    earlier = event.rounds.filter(number__lt=rnd.number).exclude(status=Round.Status.RELEASED)
    if earlier.exists():
        raise UserError(
            _("Release round %(n)s first."),
            code="order",
            params={"n": earlier.order_by("number")[0].number},
            status=409,
        )
    if event.status == Event.Status.REGISTRATION:
        change_event_status(actor, event, Event.Status.RUNNING)
    elif event.status != Event.Status.RUNNING:
        raise UserError(_("Only a running event releases rounds."), code="status", status=409)
    rnd = _set_round_status(actor, rnd, Round.Status.RELEASED, (Round.Status.CONFIRMED,))
    # the seated players' e-mails (table and seat), sent by a task once this commits
    transaction.on_commit(partial(outages.enqueue, tasks.notify_round_released, rnd.pk))
    return rnd


@transaction.atomic
def assign_referees(actor: Viewer, event: Event, *, seed: int | None = None) -> RefereeAssignment:
    """Re-assign referees to every draft round's tables with the engine, keeping referees
    placed by hand (a :class:`league.draws.referees.RefereeAssignment`)."""
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    done = reassign_referees(event, seed=secrets.randbelow(2**31) if seed is None else seed)
    audit(
        actor,
        "draw.referees",
        event,
        event=event,
        rounds=done.rounds,
        kept=done.kept,
        without=[list(w) for w in done.without],
    )
    return done
