"""The engine bridge of an event's stages (formats.md §1): the released records grouped
by stage, each stage's rules as an :class:`engine.formats.stages.StageSpec`, the event
computed by :func:`engine.formats.stages.compute_event`, and the rows the pipeline writes.

Two answers come out of one event: every computed stage's cumulative standing (the
``StageStanding`` rows, hidden stages included: readers filter them), and the **public**
final order (the ``EventStanding`` rows), computed from the stages before the first
hidden stage that is not finished, so nothing of a hidden stage reaches the event's
standings, the season's totals, the CSV or the API.

A one-stage event (no stage rows, or one plain stage) is scored exactly as before stages
existed: :func:`engine.standings.compute_standings` over its games.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from engine.errors import EngineError
from engine.formats.stages import (
    Entry,
    EntryKind,
    EventOutcome,
    StageGames,
    StageSpec,
    compute_event,
)
from engine.record import parse_record
from engine.scoring import GameSummary, ScoringProfile, format_points, get_profile, summarize
from engine.standings import DEFAULT_PRECEDENCE, Standings, compute_standings
from league.models import Event, Player
from league.stages.models import EntryKind as PlanEntry
from league.stages.selectors import StagePlan, event_stages, stage_of_round
from results.pipeline.rated import released_versions

log = logging.getLogger(__name__)

#: How a decimal is written into a row: ``str`` (one-stage events, as always) or
#: :func:`plain` (stages: multiplied and weighted values without trailing zeros).
Show = Callable[[Decimal], str]

#: ``above_next`` of two lines of the final order that left at different stages: the
#: one who reached the later stage ranks higher (values: 1-based stage numbers).
REACHED = "stage"


@dataclass
class StageResult:
    """What the pipeline writes for one event."""

    profile: str
    precedence: list[str]
    games: int
    #: ``EventStanding`` rows (the public final order).
    rows: list[dict[str, Any]] = field(default_factory=list)
    #: ``StageStanding`` rows of every computed stage.
    stage_rows: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    #: An engine refusal of the whole event ({"code", "params"}): nothing to write.
    error: dict[str, Any] | None = None
    #: The stages as the pages read them (names, entries, hidden, finished): part of the
    #: digest, so that a stage's change is a new version of the standings (page caches).
    plans: list[list[Any]] = field(default_factory=list)


@dataclass
class Loaded:
    """An event's released games, by stage, and what scores them."""

    event: Event
    plans: list[StagePlan]
    summaries: dict[int, list[GameSummary]]
    games: int
    profile: ScoringProfile
    precedence: tuple[str, ...]
    warnings: list[dict[str, Any]]


def load(event: Event) -> Loaded:
    """The event's released confirmed records, parsed and grouped by stage (in order of
    round, table and game); a record that does not parse is skipped with a warning."""
    plans = event_stages(event)
    versions = list(
        released_versions()
        .filter(game__table__round__event_id=event.pk)
        .order_by("game__table__round__number", "game__table__number", "game_id")
        .values_list("game_id", "record", "game__table__round__number")
    )
    warnings: list[dict[str, Any]] = []  # stored as codes and params, shown translated
    summaries: dict[int, list[GameSummary]] = {p.position: [] for p in plans}
    for game_id, record, number in versions:
        try:
            summary = summarize(parse_record(record), str(game_id))
        except (EngineError, ValueError) as e:  # a confirmed record always parses
            log.error("game %s: record does not parse: %s", game_id, e)
            warnings.append({"code": "results.record_skipped", "params": {"game": game_id}})
            continue
        summaries[stage_of_round(plans, number).position].append(summary)
    return Loaded(
        event=event,
        plans=plans,
        summaries=summaries,
        games=len(versions),
        profile=get_profile(event.scoring_profile or "club-v1"),
        precedence=tuple(event.tiebreak_precedence or DEFAULT_PRECEDENCE),
        warnings=warnings,
    )


def is_plain(plans: Sequence[StagePlan]) -> bool:
    """One stage that scores like an event without stages."""
    if len(plans) != 1:
        return False
    plan = plans[0]
    return plan.multiplier == 1 and plan.entry_kind == PlanEntry.ALL


def _handles(ids: Sequence[int]) -> tuple[str, ...]:
    """Player ids as their handles, in the given order (a deleted player is left out)."""
    handles = dict(Player.objects.filter(pk__in=list(ids)).values_list("pk", "handle"))
    return tuple(handles[i] for i in ids if i in handles)


def stage_inputs(loaded: Loaded) -> list[StageGames]:
    """Each stage that can be computed, with its games: the first, then every later one
    whose cut is confirmed (a stage waiting for its cut has no games yet: stop there)."""
    out: list[StageGames] = []
    for plan in loaded.plans:
        if plan.position == 0:
            if plan.entry_kind == PlanEntry.PLAYERS and plan.entry_players:
                entry = Entry(EntryKind.PLAYERS, players=_handles(plan.entry_players))
            elif plan.entry_kind == PlanEntry.TOP:
                entry = Entry(EntryKind.TOP, top=plan.entry_top or 1)  # the engine refuses it
            else:
                entry = Entry(EntryKind.ALL)
        else:
            players = _handles(plan.entrants or ())
            if not players:
                if loaded.summaries.get(plan.position):
                    loaded.warnings.append(
                        {"code": "results.stage_not_confirmed", "params": {"stage": plan.name}}
                    )
                break
            entry = Entry(EntryKind.PLAYERS, players=players)
        spec = StageSpec(
            name=plan.name,
            profile=get_profile(plan.scoring_profile or loaded.profile.key),
            multiplier=plan.multiplier,
            carry=plan.carry,
            entry=entry,
            hidden=plan.hidden,
        )
        out.append(StageGames(spec, tuple(loaded.summaries.get(plan.position, ()))))
    return out


def public_count(plans: Sequence[StagePlan], computed: int) -> int:
    """How many of the computed stages the public final order may use: those before the
    first hidden stage that is not finished."""
    for plan in plans[:computed]:
        if not plan.public:
            return plan.position
    return computed


def compute(loaded: Loaded, seed: int) -> StageResult:
    """The rows of an event: its public final order and every computed stage's standing.

    An engine refusal (a player seated outside a cut, a bad stage) is returned as
    ``error``: the caller keeps the rows it has."""
    result = StageResult(
        profile=loaded.profile.key,
        precedence=list(loaded.precedence),
        games=loaded.games,
        warnings=loaded.warnings,
        plans=[
            [
                p.name,
                p.first_round,
                p.last_round,
                p.scoring_profile,
                str(p.multiplier),
                str(p.carry),
                str(p.entry_kind),
                p.entry_top,
                list(p.entry_players),
                p.hidden,
                p.finished,
                None if p.entrants is None else list(p.entrants),
                str(p.seating),
            ]
            for p in loaded.plans
        ]
        if len(loaded.plans) > 1 or loaded.plans[0].pk is not None
        else [],
    )
    ids: dict[str, int] = {}
    try:
        if is_plain(loaded.plans):
            plan = loaded.plans[0]
            profile = get_profile(plan.scoring_profile or loaded.profile.key)
            standings = compute_standings(
                loaded.summaries[0], profile, loaded.precedence, seed=seed
            )
            result.profile = standings.profile
            result.precedence = list(standings.precedence)
            result.warnings.extend(
                {"code": w.code, "params": dict(w.params)} for w in standings.warnings
            )
            ids = _ids(r.player for r in standings.rows)
            if plan.public:
                result.rows = standing_rows(standings, ids)
            result.stage_rows = _stage_rows(0, standings, {}, ids)
            return result
        inputs = stage_inputs(loaded)
        outcome = compute_event(
            inputs, profile=loaded.profile, precedence=loaded.precedence, seed=seed
        )
        shown = public_count(loaded.plans, len(inputs))
        public: EventOutcome | None = outcome
        if shown < len(inputs):
            public = (
                compute_event(
                    inputs[:shown], profile=loaded.profile, precedence=loaded.precedence, seed=seed
                )
                if shown
                else None
            )
    except EngineError as e:
        log.warning("event %s: stages not computed: %s %s", loaded.event.pk, e.code, e.params)
        result.error = {"code": e.code, "params": dict(e.params)}
        return result
    result.precedence = list(outcome.precedence)
    result.warnings.extend({"code": w.code, "params": dict(w.params)} for w in outcome.warnings)
    ids = _ids(p for s in outcome.stages for p in s.entrants)
    for stage in outcome.stages:
        result.stage_rows.extend(
            _stage_rows(stage.index, stage.cumulative, stage.stage_points, ids, plain)
        )
    if public is not None:
        result.rows = final_rows(public, ids)
    return result


def plain(value: Decimal) -> str:
    """A decimal as written by hand: no trailing zeros, no exponent ("2.8", "10")."""
    return format(value.normalize(), "f")


def _ids(handles: Any) -> dict[str, int]:
    return dict(Player.objects.filter(handle__in=list(set(handles))).values_list("handle", "pk"))


def _above(standings: Standings, a: str, b: str, show: Show = str) -> dict[str, Any]:
    ex = standings.explain(a, b)
    return {
        "metric": ex.metric,
        "higher": None if ex.higher_value is None else show(ex.higher_value),
        "lower": None if ex.lower_value is None else show(ex.lower_value),
        "level_on": list(ex.level_on),
    }


def _line(row: Any, ids: dict[str, int], show: Show = str) -> dict[str, Any]:
    """The fields of an ``EventStanding`` row from an engine standing row."""
    return {
        "handle": row.player,
        "player_id": ids.get(row.player),
        "rank": row.rank,
        "tied": row.tied,
        "points": format_points(row.points),
        "wins": row.wins,
        "games": row.games,
        "awards": format_points(row.awards),
        "ci": format_points(row.ci),
        "metrics": {k: show(v) for k, v in row.metrics.items()},
        "items": [
            {
                "game": int(i.game),
                "kind": i.kind,
                "points": format_points(i.points),
                "code": i.code,
                "params": dict(i.params),
            }
            for i in row.items
        ],
    }


def standing_rows(standings: Standings, ids: dict[str, int]) -> list[dict[str, Any]]:
    """``EventStanding`` rows of a one-stage event, as they always were."""
    rows = []
    for position, row in enumerate(standings.rows, start=1):
        above: dict[str, Any] = {}
        if position < len(standings.rows):
            above = _above(standings, row.player, standings.rows[position].player)
        line = _line(row, ids)
        rows.append(
            {
                "position": position,
                **{k: line[k] for k in ("handle", "player_id", "rank", "tied", "points")},
                **{k: line[k] for k in ("wins", "games", "awards", "ci", "metrics")},
                "above_next": above,
                "items": line["items"],
            }
        )
    return rows


def final_rows(outcome: EventOutcome, ids: dict[str, int]) -> list[dict[str, Any]]:
    """``EventStanding`` rows of the final order: each player's figures are those of the
    cumulative standing of the last stage they reached."""
    stages = {s.spec.name: s for s in outcome.stages}
    number = {s.spec.name: s.index + 1 for s in outcome.stages}
    cumulative = {s.spec.name: {r.player: r for r in s.cumulative.rows} for s in outcome.stages}
    rows = []
    final = outcome.final
    for position, f in enumerate(final, start=1):
        line = _line(cumulative[f.last_stage][f.player], ids, plain)
        above: dict[str, Any] = {}
        if position < len(final):
            below = final[position]
            if below.last_stage == f.last_stage:
                above = _above(stages[f.last_stage].cumulative, f.player, below.player, plain)
            else:
                above = {
                    "metric": REACHED,
                    "higher": str(number[f.last_stage]),
                    "lower": str(number[below.last_stage]),
                    "level_on": [],
                }
        line.update(rank=f.rank, tied=f.tied, points=format_points(f.points))
        rows.append({"position": position, **line, "above_next": above})
    return rows


def _stage_rows(
    stage: int, standings: Standings, stage_points: Any, ids: dict[str, int], show: Show = str
) -> list[dict[str, Any]]:
    """``StageStanding`` rows of one stage's cumulative standing."""
    rows = []
    for position, row in enumerate(standings.rows, start=1):
        above: dict[str, Any] = {}
        if position < len(standings.rows):
            above = _above(standings, row.player, standings.rows[position].player, show)
        own = stage_points.get(row.player, row.points) if stage_points else row.points
        rows.append(
            {
                "stage": stage,
                "position": position,
                "handle": row.player,
                "player_id": ids.get(row.player),
                "rank": row.rank,
                "tied": row.tied,
                "points": str(row.points),
                "stage_points": str(Decimal(own)),
                "games": row.games,
                "metrics": {k: show(v) for k, v in row.metrics.items()},
                "above_next": above,
            }
        )
    return rows
