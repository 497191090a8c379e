"""Reads about games, for pages, the API, exports and the results pipeline (issue 8).

What the pipeline reads: :func:`confirmed_version` (the one confirmed version, or None)
and its ``record`` (a KGR/1 JSON value), ``game.status`` (``released`` once public),
``game.event`` / ``game.round`` / ``game.table`` (None for a stand-alone club game), and
:func:`confirmed_games` for all of an event's confirmed games in table order.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from games.models import Game, GameSheet, GameVersion
from games.permissions import Access
from league.models import Event, Player, Round, Seat, Table
from league.permissions import Viewer

GAME_RELATED = (
    "table__round__event__club",
    "table__referee__user",
    "club",
    "referee__user",
)


def games() -> QuerySet[Game]:
    return Game.objects.select_related(*GAME_RELATED)


def game_by_id(game_id: int) -> Game:
    return games().get(pk=game_id)


def round_games(round_: Round) -> QuerySet[Game]:
    return games().filter(table__round=round_).order_by("table__number")


def event_games(event: Event) -> QuerySet[Game]:
    return (
        games().filter(table__round__event=event).order_by("table__round__number", "table__number")
    )


def confirmed_version(game: Game) -> GameVersion | None:
    return game.versions.filter(status=GameVersion.Status.CONFIRMED).first()


def confirmed_record(game: Game) -> dict[str, Any] | None:
    version = confirmed_version(game)
    return version.record if version is not None else None


def confirmed_games(event: Event, released_only: bool = False) -> QuerySet[GameVersion]:
    """The confirmed versions of an event's games (``.game`` preloaded), in round/table order."""
    qs = GameVersion.objects.filter(
        status=GameVersion.Status.CONFIRMED, game__table__round__event=event
    )
    if released_only:
        qs = qs.filter(game__status=Game.Status.RELEASED)
    return qs.select_related("game__table__round").order_by(
        "game__table__round__number", "game__table__number"
    )


def versions_for(access: Access, game: Game) -> list[GameVersion]:
    """The versions the user may read: all for officials; the confirmed one once released;
    none before release for anybody else (fails closed)."""
    if not access.can_see_secrets(game):
        return []
    qs = game.versions.select_related("submitted_by", "confirmed_by").order_by("number")
    if access.is_game_official(game):
        return list(qs)
    return list(qs.filter(status=GameVersion.Status.CONFIRMED))


def referee_games(user: Viewer) -> QuerySet[Game]:
    """Games ``user`` referees (table or stand-alone), newest first."""
    if user is None or not user.is_authenticated:
        return Game.objects.none()
    uid = user.pk
    return (
        games()
        .filter(Q(table__referee__user_id=uid) | Q(referee__user_id=uid))
        .order_by("-created_at")
    )


def seating(game: Game, access: Access | None = None) -> list[dict[str, Any]]:
    """Who sits where (never roles). A table's seating comes from the draw; a stand-alone
    game's only from its record, so only to those who may read the record."""
    if game.table_id is not None:
        rows = Seat.objects.filter(table_id=game.table_id).select_related("player")
        return [
            {"seat": s.number, "player": s.player.handle, "name": s.player.display_name}
            for s in rows.order_by("number")
        ]
    if game.players:
        names = dict(
            Player.objects.filter(handle__in=game.players).values_list("handle", "display_name")
        )
        return [
            {"seat": i, "player": h, "name": names.get(h, h)}
            for i, h in enumerate(game.players, start=1)
        ]
    if access is None or not access.can_see_secrets(game):
        return []
    record = confirmed_record(game)
    if record is None:
        latest = game.versions.order_by("-number").first()
        record = latest.record if latest is not None else None
    seats = record.get("seats") if isinstance(record, dict) else None
    if not isinstance(seats, list):
        return []
    return [
        {"seat": s.get("seat"), "player": s.get("player"), "name": s.get("player")}
        for s in seats
        if isinstance(s, dict)
    ]


def recorded_tables(tables: QuerySet[Table]) -> set[int]:
    """Tables (among ``tables``) whose game has a version or a sheet step: their seats and
    referee are frozen (registered with :mod:`league.events.lifecycle` at start-up)."""
    has_version = Exists(GameVersion.objects.filter(game__table=OuterRef("pk")))
    has_step = Exists(GameSheet.objects.filter(game__table=OuterRef("pk"), revision__gt=0))
    return set(tables.filter(has_version | has_step).values_list("pk", flat=True))


def awaiting_confirmation(event: Event) -> list[GameVersion]:
    """The newest submitted version of each of the event's games that has one, oldest
    submission first (a newer submission of a game replaces its older ones)."""
    rows = (
        GameVersion.objects.filter(
            status=GameVersion.Status.SUBMITTED, game__table__round__event=event
        )
        .select_related("game__table__round", "game__table__referee__user", "submitted_by")
        .order_by("game_id", "-number")
    )
    newest: dict[int, GameVersion] = {}
    for v in rows:
        newest.setdefault(v.game_id, v)
    return sorted(newest.values(), key=lambda v: (v.submitted_at, v.pk))
