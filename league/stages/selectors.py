"""Reads of an event's stages: the plan every other room asks (draws, results, pages).

An event without stage rows is one stage covering all its rounds, the way events were
before stages: :func:`event_stages` supplies it, so callers never special-case it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from league.clubs.models import Player
from league.events.models import Event, Round, Seat
from league.stages.models import EntryKind, Stage, StageSeating

#: The name of the one stage of an event without stage rows.
DEFAULT_STAGE_NAME = "main"


@dataclass(frozen=True)
class StagePlan:
    """One stage as the rest of the site needs it: its rounds resolved, its profile
    resolved to a key, its cut as player ids (None: not confirmed yet)."""

    position: int
    name: str
    first_round: int
    last_round: int
    scoring_profile: str
    multiplier: Decimal
    carry: Decimal
    entry_kind: EntryKind
    entry_top: int | None
    entry_players: tuple[int, ...]
    hidden: bool
    seating: StageSeating
    entrants: tuple[int, ...] | None
    finished: bool
    pk: int | None

    @property
    def round_numbers(self) -> range:
        return range(self.first_round, self.last_round + 1)

    @property
    def public(self) -> bool:
        """Whether anybody may see its standing (a hidden stage once it is finished)."""
        return not self.hidden or self.finished

    @property
    def needs_cut(self) -> bool:
        """A later stage whose entrants are not frozen yet (the first stage needs none)."""
        return self.position > 0 and self.entrants is None


def event_stages(event: Event) -> list[StagePlan]:
    """The event's stages in order, with the rounds each plays (one default stage when
    the event has no stage rows)."""
    rows = list(Stage.objects.filter(event=event).order_by("position"))
    if not rows:
        return [
            StagePlan(
                position=0,
                name=DEFAULT_STAGE_NAME,
                first_round=1,
                last_round=event.rounds_count,
                scoring_profile=event.scoring_profile,
                multiplier=Decimal(1),
                carry=Decimal(1),
                entry_kind=EntryKind.ALL,
                entry_top=None,
                entry_players=(),
                hidden=False,
                seating=StageSeating.DRAW,
                entrants=None,
                finished=event.status == Event.Status.FINISHED,
                pk=None,
            )
        ]
    plans = []
    first = 1
    for stage in rows:
        plans.append(
            StagePlan(
                position=stage.position,
                name=stage.name,
                first_round=first,
                last_round=first + stage.rounds - 1,
                scoring_profile=stage.scoring_profile or event.scoring_profile,
                multiplier=Decimal(stage.multiplier),
                carry=Decimal(stage.carry),
                entry_kind=EntryKind(stage.entry_kind),
                entry_top=stage.entry_top,
                entry_players=tuple(int(p) for p in stage.entry_players or ()),
                hidden=stage.hidden,
                seating=StageSeating(stage.seating),
                entrants=None if stage.entrants is None else tuple(int(p) for p in stage.entrants),
                finished=stage.finished_at is not None or event.status == Event.Status.FINISHED,
                pk=stage.pk,
            )
        )
        first += stage.rounds
    return plans


def stage_of_round(stages: list[StagePlan], number: int) -> StagePlan:
    """The stage that plays round ``number`` (the last stage for a number past the end)."""
    for plan in stages:
        if plan.first_round <= number <= plan.last_round:
            return plan
    return stages[-1]


@dataclass(frozen=True)
class StageRow:
    """One stage on the organiser's pages: its plan, where its rounds are, its cut with
    the players' names, and what may be done with it now."""

    plan: StagePlan
    #: rounds of the stage that have tables / that are released
    drawn: int
    released: int
    #: the frozen cut, in its order (players; None: not confirmed)
    entrants: list[Player] | None
    #: the listed players of a ``players`` entry
    listed: list[Player]
    #: the stage just before, all released: its cut may be confirmed now
    cut_ready: bool

    @property
    def rounds(self) -> int:
        return len(self.plan.round_numbers)

    @property
    def all_released(self) -> bool:
        return self.released == self.rounds

    @property
    def can_finish(self) -> bool:
        return self.plan.pk is not None and not self.plan.finished and self.all_released

    @property
    def can_reopen_cut(self) -> bool:
        return self.plan.entrants is not None and self.drawn == 0

    @property
    def final_table(self) -> bool:
        return self.plan.seating == StageSeating.FINAL


def stage_rows(event: Event) -> list[StageRow]:
    """The event's stages as the stages and draw pages show them."""
    plans = event_stages(event)
    statuses = dict(Round.objects.filter(event=event).values_list("number", "status"))
    wanted = {p for plan in plans for p in (*(plan.entrants or ()), *plan.entry_players)}
    players = Player.objects.in_bulk(wanted)
    rows = []
    for i, plan in enumerate(plans):
        numbers = list(plan.round_numbers)
        before = plans[i - 1] if i else None
        rows.append(
            StageRow(
                plan=plan,
                drawn=sum(statuses.get(n, Round.Status.NONE) != Round.Status.NONE for n in numbers),
                released=sum(statuses.get(n) == Round.Status.RELEASED for n in numbers),
                entrants=None
                if plan.entrants is None
                else [players[p] for p in plan.entrants if p in players],
                listed=[players[p] for p in plan.entry_players if p in players],
                cut_ready=before is not None
                and all(statuses.get(n) == Round.Status.RELEASED for n in before.round_numbers),
            )
        )
    return rows


def has_stages(event: Event) -> bool:
    """Whether the organiser set stages (an event without rows is one default stage)."""
    return Stage.objects.filter(event=event).exists()


def final_table_games(event: Event, plan: StagePlan) -> list[tuple[Round, list[Seat]]]:
    """The final table's games: each round of the stage with its seats in seat order."""
    rounds = Round.objects.filter(event=event, number__in=list(plan.round_numbers)).order_by(
        "number"
    )
    seats = Seat.objects.filter(round__in=rounds).select_related("player", "table")
    by_round: dict[int, list[Seat]] = {}
    for seat in seats.order_by("table__number", "number"):
        by_round.setdefault(seat.round_id, []).append(seat)
    return [(r, by_round.get(r.pk, [])) for r in rounds]
