"""Referees again for the draft rounds of a drawn event ("assign referees"): the
engine's assignment over the seating as it stands, keeping the referees placed by hand
and those of tables with recorded play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from engine.errors import EngineError
from engine.referees import assign_referees
from league.draws.bridge import time_limit
from league.errors import EngineRefusal, UserError
from league.events import lifecycle, selectors
from league.events.models import DRAWN_ROUND_STATUSES, Event, Round, Table


@dataclass
class _Round:
    tables: list[tuple[str, ...]]


@dataclass
class _Layout:
    """Existing seating in the shape of the engine's draw, for re-assigning referees."""

    rounds: list[_Round]


@dataclass(frozen=True)
class RefereeAssignment:
    """What "assign referees" did: draft rounds done, tables kept as they were (placed by
    hand or played), and tables left without a referee (round, table)."""

    rounds: int
    kept: int
    without: tuple[tuple[int, int], ...] = ()


def _keep_pinned(
    tables: Sequence[Table],
    planned: Sequence[str | None],
    kept: set[int],
    listed: Sequence[str],
    blocked: set[tuple[str, str]],
) -> list[str | None]:
    """The engine's referees for one round with the kept tables' referees left in place.

    A kept referee the engine put elsewhere leaves that table; it gets a referee the
    kept tables freed (or any listed one free that round) who may judge its players."""
    final: list[str | None] = [
        str(t.referee_id) if t.pk in kept and t.referee_id else None for t in tables
    ]
    used = {r for r in final if r is not None}
    spare = [r for t, r in zip(tables, planned, strict=True) if t.pk in kept and r not in used]
    spare += [r for r in listed if r not in used and r not in planned]
    for j, (table, ref) in enumerate(zip(tables, planned, strict=True)):
        if table.pk in kept:
            continue
        if ref is not None and ref not in used:
            final[j] = ref
            used.add(ref)
            continue
        seated = {str(s.player_id) for s in table.seats.all()}
        choice = next(
            (
                r
                for r in spare
                if r and r not in used and not any((r, p) in blocked for p in seated)
            ),
            None,
        )
        final[j] = choice
        if choice is not None:
            used.add(choice)
    return final


def reassign_referees(event: Event, seed: int) -> RefereeAssignment:
    """Assign referees to every draft round again (earlier rounds count as history).

    Referees placed by hand, and tables with recorded play, keep their referee."""
    rounds = selectors.event_rounds(event, DRAWN_ROUND_STATUSES)
    drafts = [r for r in rounds if r.status == Round.Status.DRAFT]
    if not drafts:
        raise UserError(
            _("There is no draft round to assign referees to."), code="no_draft", status=409
        )
    referees = list(event.referees.all())
    if not referees:
        raise UserError(_("Add referees to the event first."), code="no_referees", status=409)
    first_draft = rounds.index(drafts[0])
    listed = {r.pk for r in referees}
    kept_rounds = rounds[:first_draft]
    fixed_refs = [[t.referee_id for t in r.tables.all()] for r in kept_rounds]
    usable = all(ref in listed for refs in fixed_refs for ref in refs)
    start = 0 if usable else first_draft
    layout = _Layout(
        [
            _Round([tuple(str(s.player_id) for s in t.seats.all()) for t in r.tables.all()])
            for r in rounds[start:]
        ]
    )
    conflicts = {(str(r), str(p)) for r, p in selectors.referee_conflicts(event, referees)}
    try:
        plan = assign_referees(
            layout,
            referees=[str(r.pk) for r in referees],
            conflicts=conflicts,
            seed=seed,
            fixed=[[str(x) for x in refs] for refs in fixed_refs] if usable else [],
            grades={str(r.pk): float(r.grade) for r in referees},
            time_limit=max(0.2, time_limit() / 2),
        )
    except EngineError as exc:
        raise EngineRefusal("%(error)s", code="referees", error=exc, status=409) from exc
    kept = {
        k.pk
        for k in lifecycle.kept_tables(Table.objects.filter(round__in=drafts))
        if k.why == lifecycle.PLAYED
    }
    kept |= {t.pk for r in drafts for t in r.tables.all() if t.referee_pinned}
    updates: list[Table] = []
    without: list[tuple[int, int]] = []
    for i, rnd in enumerate(rounds[start:]):
        if rnd.status != Round.Status.DRAFT:
            continue
        tables = list(rnd.tables.all())
        final = _keep_pinned(
            tables, list(plan.rounds[i]), kept, [str(r.pk) for r in referees], conflicts
        )
        for table, ref in zip(tables, final, strict=True):
            if table.pk in kept:
                continue
            table.referee_id = int(ref) if ref is not None else None
            updates.append(table)
            if ref is None:
                without.append((rnd.number, table.number))
    Table.objects.filter(pk__in=[t.pk for t in updates]).update(referee=None)
    Table.objects.bulk_update(updates, ["referee"])
    return RefereeAssignment(len(drafts), len(kept), tuple(without))
