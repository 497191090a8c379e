"""The blank paper protocol of a table: what a referee prints before the game and fills in
by hand (seats and players, empty role boxes, a night and day grid with a ballot column
per seat, last words, warnings and awards, the result, a signature).

A blank protocol shows who sits where and nothing secret: no role, no record. Reads only;
who may print it is the views' question (``games.protocol_views``). Every table of a
round is read in a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.urls import reverse

from engine.rulesets import RulesetError, get_ruleset
from games import selectors
from games.models import Game
from games.paper import phase_count
from games.permissions import Access
from league.i18n import ruleset_label
from league.models import Round, Table

#: Warnings boxes per seat (the fourth warning is where most rulesets start to punish).
WARNING_BOXES = 4
#: Ballot rows per day: the vote and one tie ballot (a longer ladder goes on the back).
BALLOTS_PER_DAY = 2


@dataclass(frozen=True)
class ProtocolSeat:
    number: int
    handle: str
    name: str


@dataclass(frozen=True)
class Protocol:
    """One table's blank protocol. ``target`` is the path its QR code opens (made absolute
    by the view): the table's entry (its game's live sheet, or a button that opens it),
    else a stand-alone game's sheet."""

    heading: str
    round: int | None
    table: int | None
    starts_at: datetime | None
    referee: str
    ruleset: str
    seats: list[ProtocolSeat]
    target: str
    game_id: int | None = None
    seating_final: bool = True
    phases: list[int] = field(default_factory=list)
    #: The cards to deal at this table (killers, police, civilians), when the ruleset seats it.
    deal: tuple[int, int, int] | None = None

    @property
    def ballots(self) -> list[tuple[int, int]]:
        """The ballot grid's rows: (day, ballot)."""
        return [(n, k) for n in self.phases for k in range(1, BALLOTS_PER_DAY + 1)]

    @property
    def warning_boxes(self) -> range:
        return range(WARNING_BOXES)


def _deal(spec: Any, seats: int) -> tuple[int, int, int] | None:
    try:
        return get_ruleset(spec).role_counts(seats)
    except RulesetError:
        return None


def _ruleset_name(spec: object) -> str:
    base = spec.get("base") if isinstance(spec, dict) else spec
    label = ruleset_label(str(base))
    return f"{label} *" if isinstance(spec, dict) and spec.get("overrides") else label


def table_target(table_id: int) -> str:
    return reverse("games:table-entry", args=[table_id])


def _table_protocol(table: Table, round_: Round, game: Game | None) -> Protocol:
    seats = [
        ProtocolSeat(s.number, s.player.handle, s.player.display_name)
        for s in sorted(table.seats.all(), key=lambda s: s.number)
    ]
    event = round_.event
    spec = (
        game.ruleset_spec()
        if game is not None
        else (
            {"base": event.ruleset, "overrides": event.ruleset_overrides}
            if event.ruleset_overrides
            else event.ruleset
        )
    )
    return Protocol(
        heading=event.name,
        round=round_.number,
        table=table.number,
        starts_at=round_.starts_at,
        referee=str(table.referee) if table.referee is not None else "",
        ruleset=_ruleset_name(spec),
        seats=seats,
        target=table_target(table.pk),
        game_id=game.pk if game is not None else None,
        seating_final=round_.status == Round.Status.RELEASED,
        phases=list(range(1, phase_count(len(seats)) + 1)),
        deal=_deal(spec, len(seats)),
    )


def game_protocol(game: Game, access: Access) -> Protocol:
    """The protocol of one game: its table's, or a stand-alone game's own."""
    if game.table_id is not None:
        table = (
            Table.objects.select_related("referee__user", "round__event")
            .prefetch_related("seats__player")
            .get(pk=game.table_id)
        )
        return _table_protocol(table, table.round, game)
    seats = [
        ProtocolSeat(int(s["seat"]), str(s["player"]), str(s["name"]))
        for s in selectors.seating(game, access)
    ]
    referee = game.game_referee
    return Protocol(
        heading=game.title or game.the_club.name,
        round=None,
        table=None,
        starts_at=None,
        referee=str(referee) if referee is not None else "",
        ruleset=_ruleset_name(game.ruleset_spec()),
        seats=seats,
        target=reverse("games:sheet", args=[game.pk]),
        game_id=game.pk,
        phases=list(range(1, phase_count(len(seats)) + 1)),
        deal=_deal(game.ruleset_spec(), len(seats)),
    )


def round_protocols(round_: Round) -> list[Protocol]:
    """Every table of a round, in table order, one protocol each."""
    tables = (
        Table.objects.filter(round=round_)
        .select_related("referee__user")
        .prefetch_related("seats__player")
        .order_by("number")
    )
    games = {g.table_id: g for g in selectors.round_games(round_)}
    return [_table_protocol(t, round_, games.get(t.pk)) for t in tables]
