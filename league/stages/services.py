"""Stage writes: the organiser's list of stages, the frozen cut between two stages, and
the end of a stage (a hidden standing becomes public).

Like every league write: the acting user first, :func:`league.errors.require` on
:func:`league.permissions.can_manage_event`, the event row locked
(:func:`league.events.services.lock_event`), one transaction, a refusal as a
:class:`league.errors.UserError`, an audit line. After the commit
:data:`league.stages.signals.stages_changed` tells the results room to compute the
standings again.

Recorded play is never rewritten: a stage whose rounds are drawn keeps its rounds and
its seating, a stage whose cut is confirmed keeps its entry; only the scoring fields
(profile, multiplier, carry, hidden) and the name may change at any time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league import permissions as perms
from league.audit import audit
from league.errors import UserError, require
from league.events.models import Event, Registration, Round, Seat
from league.events.services import _sync_rounds, lock_event
from league.permissions import Viewer
from league.stages.models import EntryKind, Stage
from league.stages.selectors import StagePlan, event_stages
from league.stages.signals import stages_changed
from league.stages.validation import MAX_LISTED, check_list, entry_json, protect_recorded_play

# --- reads the services share ---------------------------------------------------------


def round_statuses(event: Event) -> dict[int, str]:
    """Each round's status by number."""
    return dict(Round.objects.filter(event=event).values_list("number", "status"))


def stage_drawn(plan: StagePlan, statuses: Mapping[int, str]) -> bool:
    """Whether any round of the stage has tables."""
    return any(statuses.get(n, Round.Status.NONE) != Round.Status.NONE for n in plan.round_numbers)


def stage_released(plan: StagePlan, statuses: Mapping[int, str]) -> bool:
    """Whether every round of the stage is released."""
    return all(statuses.get(n) == Round.Status.RELEASED for n in plan.round_numbers)


def stage_field(event: Event, plan: StagePlan) -> list[int]:
    """Who played stage ``plan``, the players a cut after it chooses from: its frozen
    entrants for a later stage; for the first stage the players seated in its rounds
    (the registered players while nobody is seated)."""
    if plan.position > 0:
        return list(plan.entrants or ())
    seated = set(
        Seat.objects.filter(
            round__event=event, round__number__in=list(plan.round_numbers)
        ).values_list("player_id", flat=True)
    )
    if seated:
        return sorted(seated)
    if plan.entry_kind == EntryKind.PLAYERS:
        return list(plan.entry_players)
    return sorted(
        Registration.objects.filter(event=event, status=Registration.Status.REGISTERED).values_list(
            "player_id", flat=True
        )
    )


def _stage_row(event: Event, position: int) -> Stage:
    try:
        return Stage.objects.select_for_update().get(event=event, position=position)
    except Stage.DoesNotExist:
        raise UserError(
            _("This event has no stage %(n)s."),
            code="no_stage",
            params={"n": position + 1},
            status=404,
        ) from None


def _plan(plans: Sequence[StagePlan], position: int) -> StagePlan:
    return next(p for p in plans if p.position == position)


def _user(actor: Viewer) -> User | None:
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def _changed(event: Event, action: str) -> None:
    """After the commit: the event's standings must be computed again."""
    event_id = event.pk
    transaction.on_commit(lambda: stages_changed.send(Stage, event_id=event_id, action=action))


# --- the cut -----------------------------------------------------------------------------


@transaction.atomic
def confirm_cut(actor: Viewer, event: Event, position: int, entrants: Sequence[int]) -> Stage:
    """Freeze the entrants of stage ``position`` (> 0): player ids in the order of the
    standing they were cut from. The previous stage must be over (every round released)
    and is marked finished; this stage must not be drawn yet; the list must be what the
    entry asks (top N: exactly min(N, field); listed: those players; everyone: the whole
    field), each one a player of the previous stage."""
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    if position <= 0:
        raise UserError(
            _("The first stage has no cut: its players are the registered ones."),
            code="first_stage",
        )
    stage = _stage_row(event, position)
    plans = event_stages(event)
    plan, before = _plan(plans, position), _plan(plans, position - 1)
    statuses = round_statuses(event)
    if stage.entrants is not None:
        raise UserError(
            _("The cut before “%(stage)s” is already confirmed; reopen it first."),
            code="cut_confirmed",
            params={"stage": stage.name},
            status=409,
        )
    if not stage_released(before, statuses):
        raise UserError(
            _("Release every round of “%(stage)s” before confirming the cut after it."),
            code="previous_not_released",
            params={"stage": before.name},
            status=409,
        )
    if stage_drawn(plan, statuses):
        raise UserError(
            _("“%(stage)s” is already drawn; its entrants can no longer change."),
            code="stage_drawn",
            params={"stage": stage.name},
            status=409,
        )
    chosen = _entrant_ids(entrants)
    pool = stage_field(event, before)
    strangers = [p for p in chosen if p not in set(pool)]
    if strangers:
        raise UserError(
            _("Not players of “%(stage)s”: %(players)s."),
            code="not_in_field",
            params={"stage": before.name, "players": strangers},
        )
    _check_entry_count(plan, chosen, pool)
    now = timezone.now()
    stage.entrants = chosen
    stage.cut_confirmed_at = now
    stage.cut_confirmed_by = _user(actor)
    stage.save(update_fields=["entrants", "cut_confirmed_at", "cut_confirmed_by"])
    if before.pk is not None and not before.finished:
        Stage.objects.filter(pk=before.pk).update(finished_at=now)
    audit(actor, "stage.cut", stage, event=event, position=position, entrants=chosen)
    _changed(event, "stage.cut")
    return stage


def _entrant_ids(entrants: Sequence[int]) -> list[int]:
    if isinstance(entrants, str | bytes) or len(entrants) > MAX_LISTED:
        raise UserError(_("Give at most %(n)s players."), code="entrants", params={"n": MAX_LISTED})
    chosen: list[int] = []
    for value in entrants:
        if isinstance(value, bool) or not isinstance(value, int):
            raise UserError(
                _("Players are given by their numbers, not %(value)s."),
                code="entrants",
                params={"value": str(value)[:40]},
            )
        chosen.append(value)
    repeated = sorted({p for p in chosen if chosen.count(p) > 1})
    if repeated:
        raise UserError(
            _("Players listed twice: %(players)s."), code="duplicates", params={"players": repeated}
        )
    if not chosen:
        raise UserError(_("A stage needs at least one player."), code="no_entrants")
    return chosen


def _check_entry_count(plan: StagePlan, chosen: list[int], pool: list[int]) -> None:
    if plan.entry_kind == EntryKind.TOP:
        wanted = min(plan.entry_top or 0, len(pool))
        if len(chosen) != wanted:
            raise UserError(
                _("“%(stage)s” takes the best %(n)s; %(given)s were given."),
                code="entry_count",
                params={"stage": plan.name, "n": wanted, "given": len(chosen)},
            )
    elif plan.entry_kind == EntryKind.PLAYERS:
        if set(chosen) != set(plan.entry_players):
            raise UserError(
                _("“%(stage)s” takes its listed players, exactly."),
                code="entry_players",
                params={"stage": plan.name},
            )
    elif set(chosen) != set(pool):
        raise UserError(
            _("“%(stage)s” takes every player still in (%(n)s)."),
            code="entry_all",
            params={"stage": plan.name, "n": len(pool)},
        )


@transaction.atomic
def reopen_cut(actor: Viewer, event: Event, position: int) -> Stage:
    """Unfreeze the entrants of stage ``position`` while none of its rounds is drawn."""
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    stage = _stage_row(event, position)
    if stage.entrants is None:
        raise UserError(
            _("The cut before “%(stage)s” is not confirmed."),
            code="cut_not_confirmed",
            params={"stage": stage.name},
            status=409,
        )
    if stage_drawn(_plan(event_stages(event), position), round_statuses(event)):
        raise UserError(
            _("“%(stage)s” is already drawn; redraw nothing and keep its cut."),
            code="stage_drawn",
            params={"stage": stage.name},
            status=409,
        )
    before = stage.entrants
    stage.entrants = None
    stage.cut_confirmed_at = None
    stage.cut_confirmed_by = None
    stage.save(update_fields=["entrants", "cut_confirmed_at", "cut_confirmed_by"])
    audit(actor, "stage.cut_reopen", stage, event=event, position=position, entrants=before)
    _changed(event, "stage.cut_reopen")
    return stage


@transaction.atomic
def finish_stage(actor: Viewer, event: Event, position: int) -> Stage:
    """Mark stage ``position`` over once every round of it is released: a hidden
    standing becomes public."""
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    stage = _stage_row(event, position)
    if stage.finished_at is not None:
        raise UserError(
            _("“%(stage)s” is already finished."),
            code="finished",
            params={"stage": stage.name},
            status=409,
        )
    if not stage_released(_plan(event_stages(event), position), round_statuses(event)):
        raise UserError(
            _("Release every round of “%(stage)s” before finishing it."),
            code="not_released",
            params={"stage": stage.name},
            status=409,
        )
    stage.finished_at = timezone.now()
    stage.save(update_fields=["finished_at"])
    audit(actor, "stage.finish", stage, event=event, position=position)
    _changed(event, "stage.finish")
    return stage


@transaction.atomic
def set_stages(actor: Viewer, event: Event, stages: list[dict[str, Any]]) -> list[Stage]:
    """Replace the event's stage list (each stage: ``name``, ``rounds``,
    ``scoring_profile``, ``multiplier``, ``carry``, ``entry``, ``hidden``, ``seating``);
    the event's round count becomes the sum of the stages' rounds, its round rows follow.

    Stages keep their place: the stage at position k keeps its cut and its finish.
    Refused (409) when it would rewrite recorded play (see the module)."""
    require(perms.can_manage_event(actor, event))
    event = lock_event(event)
    if event.status == Event.Status.FINISHED:
        raise UserError(_("A finished event can no longer be edited."), code="finished", status=409)
    cleaned = check_list(event, stages)
    old = event_stages(event)
    statuses = round_statuses(event)
    protect_recorded_play(old, cleaned, statuses)
    rows = {s.position: s for s in Stage.objects.filter(event=event)}
    Stage.objects.filter(event=event, position__gte=len(cleaned)).delete()
    # names move between positions: free them first (the name is unique per event; a
    # control character never begins a valid name, and PostgreSQL refuses NUL in text)
    for row in rows.values():
        if row.position < len(cleaned):
            Stage.objects.filter(pk=row.pk).update(name=f"\x01{row.pk}")
    saved = []
    for position, data in enumerate(cleaned):
        row = rows.get(position) or Stage(event=event, position=position)
        for key, value in data.items():
            setattr(row, key, value)
        row.save()
        saved.append(row)
    before_count = event.rounds_count
    event.rounds_count = sum(s.rounds for s in saved)
    event.save(update_fields=["rounds_count"])
    _sync_rounds(event, None)
    audit(
        actor,
        "stage.set",
        event,
        event=event,
        stages=[{"name": s.name, "rounds": s.rounds, "entry": entry_json(s)} for s in saved],
        rounds_before=before_count,
        rounds_after=event.rounds_count,
    )
    _changed(event, "stage.set")
    return saved
