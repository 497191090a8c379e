"""What the rater learns from a released game: the seats of known players, each with a
role and an outcome, read from the confirmed records in one pass.

Only **released** games are read (:func:`released_versions`): nothing in the pipeline ever
sees an unreleased record, so roles of unreleased games never reach a public table.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection
from django.db.models.expressions import RawSQL
from django.utils import timezone

from games.models import Game, GameVersion
from league.models import Player

#: A game's place in the global order of rated games: (day it counts for, game id).
Key = tuple[dt.date, int]


class RatedSeat(NamedTuple):
    player_id: int
    seat: int
    role: str
    outcome: str


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What the rater learns from one released game (seats of known players only)."""

    game_id: int
    version_id: int
    played_on: dt.date
    event_id: int | None
    club_id: int
    winner: str
    seats: tuple[RatedSeat, ...]

    @property
    def key(self) -> Key:
        return (self.played_on, self.game_id)

    def rater_seats(self) -> list[tuple[str, str]]:
        return [(str(s.player_id), s.role) for s in self.seats]


def outcome_of(winner: str, role: str) -> str:
    if winner == "draw":
        return "draw"
    side = "killers" if role == "killer" else "good"
    return "win" if winner == side else "loss"


Seat = tuple[int, str, str]  # seat number, player handle, role


def _seat_tuples(seats: Any) -> list[Seat]:
    """A record's ``seats`` as a JSON list (PostgreSQL reads them as text instead: see
    :func:`_rated_from_text`)."""
    if isinstance(seats, str):
        seats = json.loads(seats)  # a backend that hands key transforms back as JSON text
    if not isinstance(seats, list):
        return []
    return [
        (int(s["seat"]), s["player"], s["role"])
        for s in seats
        if isinstance(s, dict) and isinstance(s.get("player"), str)
    ]


def _rated_game(
    game_id: int,
    version_id: int,
    day: dt.date,
    event_id: int | None,
    club_id: int,
    winner: str,
    seats: list[Seat],
    ids: dict[str, int],
) -> RatedGame | None:
    """A rated game from a record's seats and winner, or None if it cannot be rated."""
    if winner not in ("good", "killers", "draw"):
        return None
    good, bad = outcome_of(winner, "civilian"), outcome_of(winner, "killer")
    rated = [
        RatedSeat(ids[handle], seat, role, bad if role == "killer" else good)
        for seat, handle, role in sorted(seats)
        if handle in ids
    ]
    sides = {s.role == "killer" for s in rated}
    if len(sides) < 2:  # the rater needs somebody on each side
        return None
    return RatedGame(game_id, version_id, day, event_id, club_id, winner, tuple(rated))


def _handles(seat_lists: Iterable[list[Seat]]) -> dict[str, int]:
    """Player ids of every handle seated in ``seat_lists``."""
    names = sorted({handle for seats in seat_lists for _, handle, _ in seats})
    if len(names) > 20000:
        return dict(Player.objects.values_list("handle", "pk"))
    ids: dict[str, int] = {}
    for i in range(0, len(names), 5000):
        chunk = names[i : i + 5000]
        ids.update(Player.objects.filter(handle__in=chunk).values_list("handle", "pk"))
    return ids


def released_versions(game_ids: Iterable[int] | None = None) -> Any:
    """Confirmed versions of released games (all, or of ``game_ids``)."""
    qs = GameVersion.objects.filter(
        status=GameVersion.Status.CONFIRMED, game__status=Game.Status.RELEASED
    )
    if game_ids is not None:
        qs = qs.filter(game_id__in=list(game_ids))
    return qs


#: On PostgreSQL the seats leave the database in seat order as text,
#: "handle:seat:role …" (handles are slugs: no spaces or colons), so a rebuild parses
#: no JSON in Python.
_SEAT_IDS_SQL = (
    "(SELECT string_agg((s->>'player') || ':' || (s->>'seat') || ':' || (s->>'role'), ' '"
    " ORDER BY (s->>'seat')::int)"
    " FROM jsonb_array_elements(games_gameversion.record->'seats') s)"
)


def load_rated_games(game_ids: Iterable[int] | None = None) -> dict[int, RatedGame]:
    """The rated form of released games, read from their confirmed records in one pass.

    Only the seats and the winner are read (on PostgreSQL only those leave the
    database, as text), so a full rebuild does not parse whole records."""
    qs = released_versions(game_ids)
    postgres = connection.vendor == "postgresql"
    if postgres:
        qs = qs.annotate(seat_list=RawSQL(_SEAT_IDS_SQL, []))
    rows = list(
        qs.order_by().values_list(
            "game_id",
            "pk",
            "winner",
            "seat_list" if postgres else "record__seats",
            "game__played_on",
            "game__created_at",
            "game__club_id",
            "game__table__round__starts_at",
            "game__table__round__event_id",
            "game__table__round__event__starts_on",
            "game__table__round__event__club_id",
        )
    )
    ids = (
        dict(Player.objects.values_list("handle", "pk"))
        if postgres and (game_ids is None or len(rows) > 1000)
        else _handles(
            [(0, t.split(":")[0], "") for t in (r[3] or "").split()]
            if postgres
            else _seat_tuples(r[3])
            for r in rows
        )
    )
    out: dict[int, RatedGame] = {}
    for gid, vid, winner, seats, own_day, created, club, starts, event, ev_start, ev_club in rows:
        if own_day is not None:
            day = own_day
        elif starts is not None:
            day = timezone.localdate(starts)
        elif ev_start is not None:
            day = ev_start
        else:
            day = timezone.localdate(created)
        if postgres:
            rated = _rated_from_text(gid, vid, day, event, club or ev_club, winner, seats, ids)
        else:
            rated = _rated_game(
                gid, vid, day, event, club or ev_club, winner, _seat_tuples(seats), ids
            )
        if rated is not None:
            out[gid] = rated
    return out


def _rated_from_text(
    game_id: int,
    version_id: int,
    day: dt.date,
    event_id: int | None,
    club_id: int,
    winner: str,
    text: str | None,
    ids: dict[str, int],
) -> RatedGame | None:
    """A rated game from PostgreSQL's "handle:seat:role …" (already in seat order); a
    handle that is no player is left out, as in :func:`_rated_game`."""
    if winner not in ("good", "killers", "draw"):
        return None
    good, bad = outcome_of(winner, "civilian"), outcome_of(winner, "killer")
    rated = []
    killers = 0
    for token in (text or "").split():
        handle, seat, role = token.split(":")
        pid = ids.get(handle)
        if pid is None:
            continue
        if role == "killer":
            killers += 1
            rated.append(RatedSeat(pid, int(seat), role, bad))
        else:
            rated.append(RatedSeat(pid, int(seat), role, good))
    if not killers or killers == len(rated):  # the rater needs somebody on each side
        return None
    return RatedGame(game_id, version_id, day, event_id, club_id, winner, tuple(rated))
