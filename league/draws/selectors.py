"""Draw reads: the event's draw jobs, and the fairness measures of its drawn rounds."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine.seating.metrics import seating_bounds, seating_metrics
from engine.seating.problem import SeatingProblem
from league.draws.models import DrawJob
from league.events.models import Event, Round


def latest_draw_job(event: Event) -> DrawJob | None:
    return DrawJob.objects.filter(event=event).order_by("-created_at", "-pk").first()


@dataclass(frozen=True)
class Measure:
    key: str
    label: str
    value: int
    bound: int | None

    @property
    def at_bound(self) -> bool:
        return self.bound is not None and self.value <= self.bound


def draw_measures(rounds: Sequence[Round]) -> list[Measure]:
    """The fairness measures of the drawn ``rounds`` (prefetched) against their lower bounds.

    Recomputed from the seating as it stands, so hand swaps show at once. Bounds are taken
    for the same attendance (who sat in which round) from :mod:`engine.seating.metrics`.
    """
    rounds = [r for r in rounds if r.status != Round.Status.NONE]
    if not rounds:
        return []
    layout = [[[str(s.player_id) for s in t.seats.all()] for t in r.tables.all()] for r in rounds]
    players = sorted({p for rnd in layout for table in rnd for p in table}, key=int)
    if not players:
        return []
    sizes = [len(t) for rnd in layout for t in rnd if t]
    present = [{p for t in rnd for p in t} for rnd in layout]
    absent = {p: {i + 1 for i, here in enumerate(present) if p not in here} for p in players}
    problem = SeatingProblem(
        players=tuple(players),
        rounds=len(layout),
        min_table=min(sizes),
        max_table=max(sizes),
        absent={p: frozenset(rs) for p, rs in absent.items() if rs},
    )
    metrics = seating_metrics(problem, layout, seating_bounds(problem))
    ref_counts: Counter[tuple[int, int]] = Counter()
    load: Counter[int] = Counter()
    for rnd in rounds:
        for table in rnd.tables.all():
            if table.referee_id is None:
                continue
            load[table.referee_id] += 1
            for seat in table.seats.all():
                ref_counts[(seat.player_id, table.referee_id)] += 1
    ref_repeats = sum(c * (c - 1) // 2 for c in ref_counts.values())
    out = [
        Measure("repeats", _("repeat meetings (R)"), metrics.repeats, metrics.repeats_bound),
        Measure(
            "max_meetings",
            _("most meetings of one pair"),
            metrics.max_meetings,
            metrics.max_meetings_bound,
        ),
        Measure(
            "seat_max", _("most times in one seat number"), metrics.seat_max, metrics.seat_ideal
        ),
        Measure("referee_repeats", _("referee repeats"), ref_repeats, None),
    ]
    if load:
        out.append(
            Measure(
                "referee_load_spread",
                _("referee load spread (most − fewest tables)"),
                max(load.values()) - min(load.values()),
                None,
            )
        )
    return out


def measures_as_dict(measures: Iterable[Measure]) -> list[dict[str, Any]]:
    return [dataclasses.asdict(m) | {"at_bound": m.at_bound} for m in measures]
