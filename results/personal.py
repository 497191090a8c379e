"""A player's released results in one event, for their personal page
(:func:`league.events.personal.register_results_reader`, registered in
``results.apps``). Everything here is computed from released games only."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from games.models import Game
from league.models import Event, Player
from results.models import EventStanding, RatingPoint


def player_event_games(event: Event, player: Player) -> list[dict[str, Any]]:
    """One row per released, rated game of ``player`` in ``event``: round, table, seat,
    outcome (win, loss, draw) and the event points it brought. Three queries."""
    points: dict[int, Decimal] = defaultdict(Decimal)
    items = (
        EventStanding.objects.filter(event=event, player=player)
        .values_list("items", flat=True)
        .first()
    )
    for item in items or []:
        points[int(item["game"])] += Decimal(str(item["points"]))
    played = list(
        RatingPoint.objects.filter(player=player, event=event)
        .order_by("played_on", "game_id")
        .values_list("game_id", "seat", "outcome")
    )
    where = {
        pk: (rnd, table)
        for pk, rnd, table in Game.objects.filter(pk__in=[g for g, _, _ in played]).values_list(
            "pk", "table__round__number", "table__number"
        )
    }
    return [
        {
            "game": game_id,
            "round": where.get(game_id, (None, None))[0],
            "table": where.get(game_id, (None, None))[1],
            "seat": seat,
            "outcome": outcome,
            "points": points.get(game_id),
        }
        for game_id, seat, outcome in played
    ]
