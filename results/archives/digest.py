"""Standings and ratings named without database ids, to compare two sites (a restored
backup, an imported archive) with the one they came from: ``manage.py compare_results``
and the restore drill (``docs/backup.md``).

Events are named ``club/event``, seasons ``league/name/starts_on``, players by handle,
games by where they were played (``club/event/r2/t1``; a stand-alone game by its club
and its order there). Decimals and floats are written exactly (``repr``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.models import Game
from league.models import Event, Player, Season
from results.models import EventStanding, PlayerRating, RatingPoint, SeasonStanding, StageStanding
from results.pipeline.ratings import RATING_COLUMNS


def _game_keys() -> dict[int, str]:
    keys: dict[int, str] = {}
    at_tables = Game.objects.filter(table__isnull=False).values_list(
        "pk", "table__round__event__club__slug", "table__round__event__slug",
        "table__round__number", "table__number",
    )  # fmt: skip
    for pk, club, event, rnd, table in at_tables:
        keys[pk] = f"{club}/{event}/r{rnd}/t{table}"
    ordinal: dict[str, int] = {}
    alone = Game.objects.filter(club__isnull=False).order_by("pk").values_list("pk", "club__slug")
    for pk, club in alone:
        ordinal[club] = ordinal.get(club, 0) + 1
        keys[pk] = f"{club}/games/{ordinal[club]}"
    return keys


def _exact(value: Any) -> Any:
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): _exact(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_exact(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def results_digest() -> dict[str, Any]:
    """Every derived row of the results tables, keyed as above."""
    games = _game_keys()
    events = {e.pk: f"{e.club.slug}/{e.slug}" for e in Event.objects.select_related("club")}
    handles = dict(Player.objects.values_list("pk", "handle"))
    seasons = {
        s.pk: f"{s.league.slug}/{s.name}/{s.starts_on.isoformat()}"
        for s in Season.objects.select_related("league")
    }
    standings: dict[str, list[Any]] = {}
    for row in EventStanding.objects.order_by("event_id", "position"):
        items = [{**i, "game": games.get(i.get("game"), i.get("game"))} for i in row.items]
        standings.setdefault(events[row.event_id], []).append(
            [row.position, row.handle, row.rank, row.tied, row.points, row.wins, row.games,
             row.awards, row.ci, row.metrics, row.above_next, items]
        )  # fmt: skip
    stages: dict[str, list[Any]] = {}
    for s in StageStanding.objects.order_by("event_id", "stage", "position"):
        stages.setdefault(f"{events[s.event_id]}#{s.stage}", []).append(
            [s.position, s.handle, s.rank, s.tied, s.points, s.stage_points, s.games,
             s.metrics, s.above_next]
        )  # fmt: skip
    season_rows: dict[str, list[Any]] = {}
    for r in SeasonStanding.objects.all():
        results = [{**c, "event": events.get(c.get("event"))} for c in r.circuit_results]
        season_rows.setdefault(seasons[r.season_id], []).append(
            [handles[r.player_id], r.events, r.games, r.wins, r.points, r.circuit_points,
             r.circuit_rank, r.circuit_tied, r.circuit_ranked, results]
        )  # fmt: skip
    ratings = {}
    last_game = RATING_COLUMNS.index("last_game_id") - 1  # its place after player_id
    for values in PlayerRating.objects.values_list(*RATING_COLUMNS):
        player, *rest = values
        rest[last_game] = games.get(rest[last_game], rest[last_game])
        ratings[handles[player]] = rest
    points = [
        [games.get(p.game_id, p.game_id), handles.get(p.player_id), p.played_on, p.seat, p.role,
         p.outcome, p.rating, p.uncertainty]
        for p in RatingPoint.objects.order_by("played_on", "game_id", "seat")
    ]  # fmt: skip
    exact: dict[str, Any] = _exact(
        {
            "standings": standings,
            "stages": stages,
            "seasons": {k: sorted(v, key=lambda r: r[0]) for k, v in season_rows.items()},
            "ratings": dict(sorted(ratings.items())),
            "rating_points": points,
        }
    )
    return exact


def digest_hash(digest: dict[str, Any]) -> str:
    text = json.dumps(digest, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The parts (``standings/club/event``, ``ratings/handle``, …) where two digests differ."""
    found = []
    for part in sorted(set(a) | set(b)):
        left, right = a.get(part), b.get(part)
        if isinstance(left, dict) and isinstance(right, dict):
            found += [
                f"{part}/{k}" for k in sorted(set(left) | set(right)) if left.get(k) != right.get(k)
            ]
        elif left != right:
            found.append(part)
    return found
