"""Reads of an event's stages: the plan every other room asks (draws, results, pages).

An event without stage rows is one stage covering all its rounds, the way events were
before stages: :func:`event_stages` supplies it, so callers never special-case it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from league.events.models import Event
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
