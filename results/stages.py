"""Stages in the results room (formats.md §1): the cut before a stage computed afresh for
the organiser who confirms it, the confirmation (the league's
:func:`league.stages.services.confirm_cut` freezes the engine's entrants), the stage
standings a reader may see (a hidden stage is the organisers' until it is finished), and
the receivers that compute the standings again when the stages change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from engine.errors import EngineError
from engine.formats.stages import Entry, EntryKind, StageGames, compute_event
from engine.standings import LOTS
from league.engine_text import message_text
from league.errors import UserError, require
from league.events.models import Event
from league.i18n import metric_label
from league.models import Player
from league.outages import enqueue
from league.permissions import LeagueAccess, Viewer, can_manage_event
from league.stages.models import EntryKind as PlanEntry
from league.stages.models import Stage, StageSeating
from league.stages.selectors import StagePlan, event_stages
from league.stages.services import confirm_cut
from league.stages.signals import stages_changed
from results.models import EventResults, StageStanding
from results.pipeline.rated import released_versions
from results.pipeline.stages import load, stage_inputs
from results.pipeline.standings import mark_event_stale
from results.tasks import heal_results

# --- who sees which stage ---------------------------------------------------------------


def visible(access: LeagueAccess, event: Event, plan: StagePlan) -> bool:
    """A stage's standing: public unless hidden and not finished; the organisers always."""
    return plan.public or access.can_manage_event(event)


def stage_links(access: LeagueAccess, event: Event, plans: list[StagePlan]) -> list[dict[str, Any]]:
    """The stage switcher of the standings pages: the final order, then each stage
    (marked hidden when the reader may not see it); empty for a one-stage event."""
    if len(plans) < 2:
        return []
    args = [event.club.slug, event.slug]
    links = [
        {"label": _("Final order"), "url": reverse("results:standings", args=args), "key": "final"}
    ]
    for plan in plans:
        links.append(
            {
                "label": plan.name,
                "url": reverse("results:stage-standings", args=[*args, plan.position]),
                "key": str(plan.position),
                "hidden": not visible(access, event, plan),
            }
        )
    return links


def final_plan(plans: list[StagePlan]) -> StagePlan | None:
    """The event's final: its last stage seated as a final table, else the last of
    several stages; None for an event of one plain stage."""
    for plan in reversed(plans):
        if plan.seating == StageSeating.FINAL:
            return plan
    return plans[-1] if len(plans) > 1 else None


def stage_standing(event: Event, position: int) -> list[StageStanding]:
    """The stored cumulative standing after stage ``position`` (ask :func:`visible`
    first: this read has no gate of its own)."""
    return list(
        StageStanding.objects.filter(event=event, stage=position)
        .select_related("player")
        .order_by("position")
    )


def computed_stages(event: Event) -> set[int]:
    """The positions of the stages the pipeline has computed (one query)."""
    return set(StageStanding.objects.filter(event=event).values_list("stage", flat=True).distinct())


def released_winners(game_ids: Sequence[int]) -> dict[int, str]:
    """The winning side of each released game (its confirmed record's result)."""
    return {
        game_id: str((record or {}).get("result", {}).get("winner") or "")
        for game_id, record in released_versions(game_ids).values_list("game_id", "record")
    }


#: The pipeline's own warnings (the engine's are said by league.engine_text).
OWN_WARNINGS = {
    "results.record_skipped": _(
        "The confirmed record of game %(game)s could not be read: it is left out."
    ),
    "results.stage_not_confirmed": _(
        "Games of “%(stage)s” are released but its cut is not confirmed: they count once it is."
    ),
}


def warning_texts(access: LeagueAccess, event: Event, state: EventResults | None) -> list[str]:
    """The pipeline's warnings about the event (a player seated outside a cut, …) in the
    reader's language, for its organisers only (they may name a hidden stage's players)."""
    if state is None or not state.warnings or not access.can_manage_event(event):
        return []
    out = []
    for w in state.warnings:
        own = OWN_WARNINGS.get(str(w.get("code")))
        if own is not None:
            try:
                out.append(str(own) % dict(w.get("params") or {}))
                continue
            except (KeyError, TypeError, ValueError):
                pass
        out.append(message_text(w))
    return out


def running_totals(event: Event, plan: StagePlan) -> dict[int, dict[str, Decimal]]:
    """After each released game of stage ``plan`` (by game id): every entrant's
    cumulative total, the engine's own computation over the games up to it (the final
    table's running totals; ask :func:`visible` first). Empty if the engine refuses."""
    loaded = load(event)
    seed = event_seed(event)
    out: dict[int, dict[str, Decimal]] = {}
    try:
        inputs = stage_inputs(loaded)
        if len(inputs) <= plan.position:
            return out
        stage = inputs[plan.position]
        for i, summary in enumerate(stage.games, start=1):
            prefix = [*inputs[: plan.position], StageGames(stage.spec, stage.games[:i])]
            outcome = compute_event(
                prefix, profile=loaded.profile, precedence=loaded.precedence, seed=seed
            )
            out[int(summary.game)] = {
                r.player: r.points for r in outcome.stages[-1].cumulative.rows
            }
    except EngineError:
        return out
    return out


# --- the cut ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CutLine:
    """A line of the standing a cut is taken from."""

    position: int
    handle: str
    name: str
    player_id: int | None
    rank: int
    tied: bool
    points: Decimal
    stage_points: Decimal
    enters: bool


@dataclass
class CutPreview:
    """The cut before stage ``plan``: the standing after ``before``, freshly computed."""

    event: Event
    plan: StagePlan
    before: StagePlan
    seed: int
    lines: list[CutLine] = field(default_factory=list)
    #: Player ids entering, in the standing's order (what the league freezes).
    entrants: tuple[int, ...] = ()
    #: The cut line: after this many lines (None: not a top-N entry).
    top: int | None = None
    #: How the two lines at the cut were separated, when they are level on points.
    tie: dict[str, Any] | None = None
    #: Why nothing can be confirmed (a sentence), if so.
    error: str = ""


def event_seed(event: Event) -> int:
    """The event's lots seed (the pipeline's, fixed on its first computation)."""
    seed = EventResults.objects.filter(pk=event.pk).values_list("seed", flat=True).first()
    return event.pk if seed is None else int(seed)


def _entry(plan: StagePlan) -> Entry:
    if plan.entry_kind == PlanEntry.TOP:
        return Entry(EntryKind.TOP, top=plan.entry_top or 1)
    if plan.entry_kind == PlanEntry.PLAYERS and plan.entry_players:
        ids = list(plan.entry_players)
        handles = dict(Player.objects.filter(pk__in=ids).values_list("pk", "handle"))
        return Entry(EntryKind.PLAYERS, players=tuple(handles[i] for i in ids if i in handles))
    return Entry(EntryKind.ALL)


def cut_preview(event: Event, position: int) -> CutPreview:
    """The standing after the stage before ``position``, computed now from the released
    games (not the stored rows, which a task may not have refreshed yet), the line of
    the entry and who enters. Refused (404) for the first stage or a stage that does not
    exist."""
    plans = event_stages(event)
    if position <= 0 or position >= len(plans):
        raise UserError(
            _("This event has no stage %(n)s after another."),
            code="no_stage",
            params={"n": position + 1},
            status=404,
        )
    plan, before = plans[position], plans[position - 1]
    seed = event_seed(event)
    preview = CutPreview(event=event, plan=plan, before=before, seed=seed)
    loaded = load(event)
    try:
        inputs = stage_inputs(loaded)
        if len(inputs) < position:
            missing = plans[len(inputs)]
            preview.error = str(
                _("Confirm the cut before “%(stage)s” first.") % {"stage": missing.name}
            )
            return preview
        entry = _entry(plan)
        outcome = compute_event(
            inputs[:position], profile=loaded.profile, precedence=loaded.precedence, seed=seed
        )
        handles = outcome.entrants_for(entry)
    except EngineError as e:
        preview.error = message_text(e)
        return preview
    last = outcome.stages[-1]
    rows = last.cumulative.rows
    players = {
        p.handle: p
        for p in Player.objects.filter(handle__in=[r.player for r in rows]).only(
            "pk", "handle", "display_name"
        )
    }
    entering = set(handles)
    preview.lines = [
        CutLine(
            position=i,
            handle=r.player,
            name=players[r.player].display_name if r.player in players else r.player,
            player_id=players[r.player].pk if r.player in players else None,
            rank=r.rank,
            tied=r.tied,
            points=r.points,
            stage_points=last.stage_points.get(r.player, Decimal(0)),
            enters=r.player in entering,
        )
        for i, r in enumerate(rows, start=1)
    ]
    unknown = [h for h in handles if h not in players]
    if unknown:
        preview.error = str(
            _("No player goes by %(players)s: merge or add them first.")
            % {"players": ", ".join(unknown)}
        )
    preview.entrants = tuple(players[h].pk for h in handles if h in players)
    if entry.kind is EntryKind.TOP:
        preview.top = entry.top
        assert entry.top is not None
        if entry.top < len(rows):
            preview.tie = _tie_at_line(last.cumulative, rows, entry.top, seed + last.index)
    return preview


def _tie_at_line(standings: Any, rows: Sequence[Any], top: int, seed: int) -> dict[str, Any] | None:
    """The last one in and the first one out, when the first metric of the ladder did not
    separate them: which metric did (or the lots, with their seed)."""
    a, b = rows[top - 1], rows[top]
    ex = standings.explain(a.player, b.player)
    first = standings.precedence[0] if standings.precedence else "points"
    if ex.metric == first:
        return None
    level = [r.player for r in rows if r.metrics.get(first) == a.metrics.get(first)]
    return {
        "in": a.player,
        "out": b.player,
        "level": level,
        "metric": ex.metric,
        "label": metric_label(ex.metric) if ex.metric else "",
        "lots": ex.metric == LOTS,
        "higher": ex.higher_value,
        "lower": ex.lower_value,
        "seed": seed,
    }


def confirm(actor: Viewer, event: Event, position: int, expected: Sequence[int]) -> Stage:
    """Freeze the cut before stage ``position`` as computed now, through the league's
    :func:`~league.stages.services.confirm_cut`; ``expected`` is the list the organiser
    saw: if a result changed it since, nothing is frozen (409) and the page shows the
    new one."""
    require(can_manage_event(actor, event))
    preview = cut_preview(event, position)
    if preview.error:
        raise UserError(
            _("The cut cannot be confirmed: %(reason)s"),
            code="cut_not_computed",
            params={"reason": preview.error},
            status=409,
        )
    if list(preview.entrants) != list(expected):
        raise UserError(
            _("The standing changed since the page was shown: check the new cut."),
            code="cut_changed",
            status=409,
        )
    return confirm_cut(actor, event, position, list(preview.entrants))


# --- receivers ----------------------------------------------------------------------------


def stages_saved(sender: Any, event_id: int, **kwargs: Any) -> None:
    """After the commit of a stage change (list, cut, finish): the event's standings
    are stale; a task computes them (a receiver never computes: it must not fail the
    caller)."""
    mark_event_stale(event_id)
    enqueue(heal_results)


def event_saved(sender: Any, instance: Event, update_fields: Any = None, **kwargs: Any) -> None:
    """An event's status decides whether its stages are finished (a finished event has
    every stage finished: a hidden one becomes public), so the standings follow it."""
    if update_fields is not None and "status" not in update_fields:
        return
    if not Stage.objects.filter(event_id=instance.pk).exists():
        return
    event_id = instance.pk

    def later() -> None:
        mark_event_stale(event_id)
        enqueue(heal_results)

    transaction.on_commit(later)


def connect() -> None:
    """Called by :mod:`results.apps`."""
    stages_changed.connect(stages_saved, dispatch_uid="results.stages_saved")
    post_save.connect(event_saved, sender=Event, dispatch_uid="results.stage_event_saved")
