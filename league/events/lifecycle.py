"""What an organiser may still change at a table: the seats of a table with recorded
play are frozen, and entries placed by hand are pinned (docs/organisers.md, "Lifecycle").

The league does not know what a game is: the games app registers, at start-up, how to
tell which tables have recorded play (:func:`register_recorded_tables`). The league asks
:func:`kept_tables` before every swap, referee change and redraw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.errors import UserError
from league.events.models import Event, Table

#: Given some tables, the pks of those whose game has a version or a sheet step.
RecordedTables = Callable[[QuerySet[Table]], set[int]]
_recorded_tables: list[RecordedTables] = []


def register_recorded_tables(query: RecordedTables) -> None:
    """Called once by each app that records play at tables (``games``)."""
    if query not in _recorded_tables:
        _recorded_tables.append(query)


def recorded_tables(tables: QuerySet[Table]) -> set[int]:
    found: set[int] = set()
    for query in _recorded_tables:
        found |= query(tables)
    return found


PLAYED = "played"
PINNED = "pinned"


@dataclass(frozen=True)
class KeptTable:
    """A table a redraw leaves as it is, and why (``played`` wins over ``pinned``)."""

    pk: int
    round: int
    number: int
    why: str


def kept_tables(tables: QuerySet[Table]) -> list[KeptTable]:
    """The tables among ``tables`` with recorded play or anything placed by hand."""
    played = recorded_tables(tables)
    pinned = set(
        tables.filter(Q(referee_pinned=True) | Q(seats__pinned=True))
        .values_list("pk", flat=True)
        .distinct()
    )
    rows = tables.filter(pk__in=played | pinned).values_list("pk", "round__number", "number")
    return sorted(
        (KeptTable(pk, rnd, num, PLAYED if pk in played else PINNED) for pk, rnd, num in rows),
        key=lambda k: (k.round, k.number),
    )


def kept_in_rounds(event: Event, first: int, last: int) -> list[KeptTable]:
    """The tables a redraw of rounds ``first``..``last`` of ``event`` leaves as they are."""
    return kept_tables(
        Table.objects.filter(round__event=event, round__number__gte=first, round__number__lte=last)
    )


def describe(kept: Iterable[KeptTable]) -> str:
    """“round 2 table 1 (a game is recorded), round 2 table 3 (placed by hand)”."""
    parts = []
    for k in kept:
        why = _("a game is recorded") if k.why == PLAYED else _("placed by hand")
        parts.append(
            _("round %(r)s table %(t)s (%(why)s)") % {"r": k.round, "t": k.number, "why": why}
        )
    return ", ".join(parts)


def refuse_if_played(tables: QuerySet[Table], doing: str) -> None:
    """Refuse ``doing`` (a translated verb phrase) at tables with recorded play.

    Locks the tables' rows first: a referee's sheet step or submission locks its table's
    row too (``games.services.lock_game``), so a step and a swap never cross."""
    list(tables.select_for_update(of=("self",)).order_by().values_list("pk", flat=True))
    played = [k for k in kept_tables(tables) if k.why == PLAYED]
    if played:
        names = ", ".join(
            _("round %(r)s table %(t)s") % {"r": k.round, "t": k.number} for k in played
        )
        raise UserError(
            gettext_lazy(
                "Cannot %(doing)s: a game is recorded at %(tables)s. Its seats and referee "
                "stay as they are unless an organiser voids that game (with a reason) first."
            ),
            code="played",
            params={
                "doing": str(doing),
                "tables": names,
                "played": [{"round": k.round, "table": k.number} for k in played],
            },
            status=409,
        )
