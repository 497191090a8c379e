"""The results pipeline: from confirmed, released records to standings and ratings.

A bridge in the sense of the conventions: each service loads what it needs in one pass,
calls the engine (``engine.scoring`` / ``engine.standings`` / ``engine.ratings``), and
writes the league's read tables (``league.results_models``) with bulk inserts inside one
transaction, under a lock:

- :func:`recompute_event` — one event's standings, under a lock on its
  :class:`~league.results_models.EventResults` row; then the season's totals.
- :func:`update_ratings` — the ratings after some games changed, under the lock of the
  single :class:`~league.results_models.RatingsLedger` row; replays from the earliest
  changed game (from the nearest checkpoint of the rater's state), so a corrected old
  game gives exactly what a fresh rebuild would.
- :func:`process_game` — both, for one game (what the task runs after a confirmation).
- :func:`heal` — finds everything the pipeline missed (stale events, released games whose
  confirmed version differs from the one rated) and fixes it.
- :func:`rebuild_all` — every event and every rating from the records.

Only **released** games count: nothing here ever reads an unreleased record, so roles of
unreleased games never reach a public table. Every service is idempotent: running it
again on unchanged records writes nothing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import time
import zlib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import OperationalError, connection, transaction
from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.db.models.expressions import RawSQL
from django.utils import timezone

from engine.errors import EngineError
from engine.ratings import Rater, RaterState
from engine.record import parse_record
from engine.scoring import format_points, get_profile, summarize
from engine.standings import DEFAULT_PRECEDENCE, METRICS, compute_standings
from games.models import Game, GameVersion
from league.models import Event, Player, Season
from league.results_models import (
    EventResults,
    EventStanding,
    PlayerRating,
    RaterCheckpoint,
    RatingPoint,
    RatingsLedger,
    ScoredGame,
    SeasonStanding,
)

log = logging.getLogger(__name__)

NULL = "\\N"  # PostgreSQL COPY text for a null

#: The rater's state is saved every this many games (a correction replays from there).
CHECKPOINT_EVERY = 10000

Key = tuple[dt.date, int]


# --- what a game contributes -------------------------------------------------------------


def played_on(game: Game) -> dt.date:
    """The day a game counts for: its own date, its round's start, or its event's start."""
    if game.played_on is not None:
        return game.played_on
    if game.table_id is not None:
        rnd = game.table.round  # type: ignore[union-attr]
        if rnd.starts_at is not None:
            return timezone.localdate(rnd.starts_at)
        return rnd.event.starts_on
    return timezone.localdate(game.created_at)


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


def _outcome(winner: str, role: str) -> str:
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
    good, bad = _outcome(winner, "civilian"), _outcome(winner, "killer")
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
    good, bad = _outcome(winner, "civilian"), _outcome(winner, "killer")
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


# --- event standings ---------------------------------------------------------------------


@dataclass
class EventReport:
    event_id: int
    changed: bool
    games: int = 0
    warnings: list[dict[str, Any]] = field(default_factory=list)  # [{"code", "params"}]


def _dec(value: Decimal) -> str:
    return format_points(value)


def recompute_event(
    event_id: int, force: bool = False, season: bool = True, only_if_stale: bool = False
) -> EventReport:
    """Score the event's released games with its profile, rank them by its ladder and
    write the standings (and its season's totals) if anything changed (``force``: write
    them anyway, as a rebuild does).

    ``only_if_stale``: do nothing if the standings are not stale once their row is
    locked. Every change that counts marks them stale in its own transaction
    (:func:`mark_event_stale`, which waits for this lock), so a fresh row means a
    recomputation that started after the change committed — the burst of a round's end
    costs one recomputation per wave instead of one per game."""
    EventResults.objects.get_or_create(event_id=event_id, defaults={"seed": event_id})
    with transaction.atomic():
        _share_event(event_id)
        state = EventResults.objects.select_for_update().get(pk=event_id)
        if only_if_stale and not state.stale and not force:
            return EventReport(event_id, False)
        event = Event.objects.select_related("season").get(pk=event_id)
        versions = list(
            released_versions()
            .filter(game__table__round__event_id=event_id)
            .order_by("game__table__round__number", "game__table__number", "game_id")
            .values_list("game_id", "record")
        )
        warnings: list[dict[str, Any]] = []  # stored as codes and params, shown translated
        summaries = []
        for game_id, record in versions:
            try:
                summaries.append(summarize(parse_record(record), str(game_id)))
            except (EngineError, ValueError) as e:  # a confirmed record always parses
                log.error("game %s: record does not parse: %s", game_id, e)
                warnings.append({"code": "results.record_skipped", "params": {"game": game_id}})
        profile = get_profile(event.scoring_profile or "club-v1")
        precedence = tuple(event.tiebreak_precedence or DEFAULT_PRECEDENCE)
        standings = compute_standings(summaries, profile, precedence, seed=state.seed)
        warnings.extend({"code": w.code, "params": dict(w.params)} for w in standings.warnings)
        ids = dict(
            Player.objects.filter(handle__in=[r.player for r in standings.rows]).values_list(
                "handle", "pk"
            )
        )
        rows = []
        for position, row in enumerate(standings.rows, start=1):
            above: dict[str, Any] = {}
            if position < len(standings.rows):
                ex = standings.explain(row.player, standings.rows[position].player)
                above = {
                    "metric": ex.metric,
                    "higher": None if ex.higher_value is None else str(ex.higher_value),
                    "lower": None if ex.lower_value is None else str(ex.lower_value),
                    "level_on": list(ex.level_on),
                }
            rows.append(
                {
                    "position": position,
                    "handle": row.player,
                    "player_id": ids.get(row.player),
                    "rank": row.rank,
                    "tied": row.tied,
                    "points": _dec(row.points),
                    "wins": row.wins,
                    "games": row.games,
                    "awards": _dec(row.awards),
                    "ci": _dec(row.ci),
                    "metrics": {k: str(v) for k, v in row.metrics.items()},
                    "above_next": above,
                    "items": [
                        {
                            "game": int(i.game),
                            "kind": i.kind,
                            "points": _dec(i.points),
                            "code": i.code,
                            "params": dict(i.params),
                        }
                        for i in row.items
                    ],
                }
            )
        digest = hashlib.sha256(
            json.dumps(
                [standings.profile, list(standings.precedence), rows, warnings], sort_keys=True
            ).encode()
        ).hexdigest()
        never_had_rows = not rows and not state.digest
        report = EventReport(
            event_id,
            force or (digest != state.digest and not never_had_rows),
            len(versions),
            warnings,
        )
        if not report.changed and not state.stale:
            return report
        if report.changed:
            before = set(
                EventStanding.objects.filter(event_id=event_id, player__isnull=False).values_list(
                    "player_id", flat=True
                )
            )
            EventStanding.objects.filter(event_id=event_id).delete()
            EventStanding.objects.bulk_create(
                [EventStanding(event_id=event_id, **r) for r in rows], batch_size=1000
            )
            state.version += 1
            state.digest = digest
            state.profile = standings.profile
            state.precedence = list(standings.precedence)
            state.games = len(versions)
            state.players = len(rows)
            state.warnings = warnings
            if season and event.season_id is not None:
                players: set[int] = set(before)
                players.update(r["player_id"] for r in rows if isinstance(r["player_id"], int))
                recompute_season(event.season_id, players)
        state.stale = False
        state.stale_since = None
        state.computed_at = timezone.now()
        state.save()
    return report


def recompute_season(season_id: int, players: Iterable[int] | None = None) -> None:
    """A season's per-player totals over its events' standings, for ``players`` (None:
    everybody). Runs in the caller's transaction; the season row is locked so that two
    events of the season do not write it at once."""
    Season.objects.select_for_update().filter(pk=season_id).first()
    rows = EventStanding.objects.filter(event__season_id=season_id, player__isnull=False)
    old = SeasonStanding.objects.filter(season_id=season_id)
    if players is not None:
        ids = list(players)
        rows = rows.filter(player_id__in=ids)
        old = old.filter(player_id__in=ids)
    totals = rows.values("player_id").annotate(
        n_events=Count("event_id"),
        n_games=Sum("games"),
        n_wins=Sum("wins"),
        total=Sum("points"),
    )
    old.delete()
    SeasonStanding.objects.bulk_create(
        [
            SeasonStanding(
                season_id=season_id,
                player_id=t["player_id"],
                events=t["n_events"],
                games=t["n_games"] or 0,
                wins=t["n_wins"] or 0,
                points=t["total"] or 0,
            )
            for t in totals
        ],
        batch_size=2000,
    )


def _share_event(event_id: int) -> None:
    """Lock the event's row in key-share mode (PostgreSQL) until the end of the
    transaction: the lock order is the event, then its standings row."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {connection.ops.quote_name(Event._meta.db_table)}"
                " WHERE id = %s FOR KEY SHARE",
                [event_id],
            )


def mark_event_stale(event_id: int) -> None:
    """Flag an event's standings as out of date (cleared by :func:`recompute_event`).

    The event's row first (PostgreSQL: a key-share lock, which the commit's foreign-key
    checks of the audit rows take anyway): taken after the standings row it closed a
    deadlock cycle between two confirmations of one event (seen in ``bench/burst.py``)."""
    _share_event(event_id)
    now = timezone.now()
    updated = EventResults.objects.filter(pk=event_id).update(stale=True, stale_since=now)
    if not updated:
        EventResults.objects.get_or_create(
            event_id=event_id, defaults={"seed": event_id, "stale": True, "stale_since": now}
        )


# --- ratings ------------------------------------------------------------------------------


@dataclass
class RatingsReport:
    changed: int = 0
    replayed: int = 0
    points_written: int = 0
    players: int = 0


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def _pack(state: RaterState) -> bytes:
    """The rater's state as compressed JSON (floats round-trip exactly through repr)."""
    data = {f.name: getattr(state, f.name) for f in fields(RaterState)}
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 1)


def _unpack(blob: bytes | memoryview) -> RaterState:
    data = json.loads(zlib.decompress(bytes(blob)))
    return RaterState(**{k: _tupled(v) for k, v in data.items()})


def _after(key: Key | None, strict: bool = True) -> Q:
    """Rows whose (played_on, game_id) comes after ``key`` (or at it, if not strict)."""
    if key is None:
        return Q()
    day, gid = key
    same_day = Q(game_id__gt=gid) if strict else Q(game_id__gte=gid)
    # The range on played_on alone lets the (played_on, game_id) index bound the scan.
    return Q(played_on__gte=day) & (Q(played_on__gt=day) | same_day)


def _stored_games(after: Key | None) -> list[RatedGame]:
    """Rated games already in the tables after ``after``, rebuilt from their points."""
    rows = (
        RatingPoint.objects.filter(_after(after))
        .order_by("played_on", "game_id", "seat")
        .values_list("game_id", "played_on", "event_id", "club_id", "player_id", "seat", "role")
        .iterator(chunk_size=20000)
    )
    heads = {
        gid: (version, winner)
        for gid, version, winner in ScoredGame.objects.filter(_after(after)).values_list(
            "game_id", "version_id", "winner"
        )
    }
    games: list[RatedGame] = []
    seats: list[RatedSeat] = []
    first: tuple[int, dt.date, int | None, int] | None = None

    def close() -> None:
        if first is not None:
            gid, day, event, club = first
            version, winner = heads.get(gid, (0, "draw"))
            games.append(RatedGame(gid, version, day, event, club, winner, tuple(seats)))

    for gid, day, event, club, pid, seat, role in rows:
        if first is None or gid != first[0]:
            close()
            first = (gid, day, event, club)
            seats = []
        winner = heads.get(gid, (0, "draw"))[1]
        seats.append(RatedSeat(pid, seat, role, _outcome(winner, role)))
    close()
    return games


def _lock_ledger() -> RatingsLedger:
    """Lock the ratings (until the end of the transaction). Ratings are derived and
    rebuildable, so on PostgreSQL the commit does not wait for the WAL flush."""
    RatingsLedger.objects.get_or_create(pk=1)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
    return RatingsLedger.objects.select_for_update().get(pk=1)


def _empty(*models: Any) -> None:
    """Delete every row of ``models`` (TRUNCATE on PostgreSQL: transactional there)."""
    if connection.vendor == "postgresql":
        tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
        with connection.cursor() as cursor:
            # Deferred foreign-key checks pending in this transaction would forbid it.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {tables}")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        return
    for model in models:
        model.objects.all().delete()


def update_ratings(game_ids: Iterable[int]) -> RatingsReport:
    """Take the current released state of ``game_ids`` into the ratings.

    A game that is new, corrected, no longer released or moved in time is replayed from
    the earliest of its old and new positions; unchanged games are skipped, so running
    this twice writes nothing the second time."""
    wanted = sorted(set(game_ids))
    if not wanted:
        return RatingsReport()
    with transaction.atomic():
        _lock_ledger()
        fresh = load_rated_games(wanted)
        stored = {
            g.game_id: g
            for g in ScoredGame.objects.filter(game_id__in=wanted).only(
                "game_id", "version_id", "played_on"
            )
        }
        changed: dict[int, RatedGame | None] = {}
        start: Key | None = None
        for gid in wanted:
            new = fresh.get(gid)
            old = stored.get(gid)
            if new is None and old is None:
                continue
            if (
                new is not None
                and old is not None
                and (new.version_id, new.played_on) == (old.version_id, old.played_on)
            ):
                continue
            changed[gid] = new
            for key in (
                (old.played_on, gid) if old is not None else None,
                new.key if new is not None else None,
            ):
                if key is not None and (start is None or key < start):
                    start = key
        if not changed:
            return RatingsReport()
        return _replay(start, changed)


def _replay(
    start: Key | None, changed: dict[int, RatedGame | None], aside: bool = False
) -> RatingsReport:
    """Replay every game from ``start`` on (None: from the beginning) with ``changed``
    replacing (or removing, when None) the stored games; rewrite what follows ``start``.
    Runs inside the caller's transaction, with the ledger locked; ``aside``: the tables
    are :func:`_built_aside`'s empty ones, without indexes (a full rebuild on PostgreSQL).

    A partial replay deletes and inserts rows: PostgreSQL's readers keep seeing the
    committed rows without waiting (row locks never block a plain read), so a correction
    delays no page, however long it takes."""
    ck = None
    if start is not None:
        ck = (
            RaterCheckpoint.objects.filter(
                Q(games=0) | Q(played_on__lt=start[0]) | Q(played_on=start[0], game_id__lt=start[1])
            )
            .order_by("-games")
            .first()
        )
    if ck is not None and ck.games > 0:
        rater = Rater.from_state(_unpack(ck.state))
        ck_key: Key | None = (ck.played_on, ck.game_id)  # type: ignore[assignment]
        base = ck.games
    else:
        rater = Rater()
        ck_key = None
        base = 0
    stored = _stored_games(ck_key) if start is not None else []
    games = [g for g in stored if g.game_id not in changed]
    games.extend(g for g in changed.values() if g is not None)
    games.sort(key=lambda g: g.key)

    # Players of the changed games as rated so far (a removed seat changes them too).
    affected: set[int] = set()
    if start is not None:
        affected.update(
            RatingPoint.objects.filter(game_id__in=list(changed)).values_list(
                "player_id", flat=True
            )
        )
    # Forget everything from the start on; it is written again below.
    RaterCheckpoint.objects.filter(games__gt=base).delete()
    if start is None:
        if not aside:
            _empty(RatingPoint, ScoredGame)
    else:
        RatingPoint.objects.filter(_after(start, strict=False)).delete()
        ScoredGame.objects.filter(_after(start, strict=False)).delete()
        # A changed game may have moved later in time than ``start``… or earlier: gone.
        RatingPoint.objects.filter(game_id__in=list(changed)).delete()
        ScoredGame.objects.filter(game_id__in=list(changed)).delete()

    points: list[tuple[Any, ...]] = []
    lines: list[str] = []  # PostgreSQL: rating points as COPY text, built in one go
    pg = connection.vendor == "postgresql"
    # A full rebuild loads each player's points together, so that a player page reads a
    # few adjacent pages instead of one page per game.
    by_player: dict[int, list[str]] | None = defaultdict(list) if pg and start is None else None
    last: dict[int, tuple[int, dt.date]] = {}
    scored: list[tuple[Any, ...]] = []
    checkpoints: list[RaterCheckpoint] = []
    update = rater.update
    rating = rater.rating
    uncertainty = rater.uncertainty
    count = base
    previous: RatedGame | None = None
    for g in games:
        if count % CHECKPOINT_EVERY == 0 and count > base and previous is not None:
            checkpoints.append(
                RaterCheckpoint(
                    games=count,
                    played_on=previous.played_on,
                    game_id=previous.game_id,
                    state=_pack(rater.state()),
                )
            )
        update(g.rater_seats(), g.winner)
        count += 1
        previous = g
        if start is not None and g.key < start:
            continue
        scored.append(
            (g.game_id, g.version_id, g.event_id, g.club_id, g.played_on, g.winner, len(g.seats))
        )
        if pg:
            event = NULL if g.event_id is None else g.event_id
            tail = f"\t{event}\t{g.club_id}\n"
            head = f"\t{g.game_id}\t{g.played_on.isoformat()}\t"
        for s in g.seats:
            key = str(s.player_id)
            affected.add(s.player_id)
            if pg:
                line = (
                    f"{s.player_id}{head}{s.seat}\t{s.role}\t{s.outcome}\t"
                    f"{rating(key)!r}\t{uncertainty(key)!r}{tail}"
                )
                if by_player is not None:
                    by_player[s.player_id].append(line)
                    last[s.player_id] = (g.game_id, g.played_on)
                else:
                    lines.append(line)
                continue
            points.append(
                (
                    s.player_id,
                    g.game_id,
                    g.played_on,
                    s.seat,
                    s.role,
                    s.outcome,
                    rating(key),
                    uncertainty(key),
                    g.event_id,
                    g.club_id,
                )
            )
    if count > base and previous is not None:
        # The tail: a game added after every other (the usual case, and a round's end
        # brings a hundred) then replays from here alone, not from the last multiple.
        checkpoints.append(
            RaterCheckpoint(
                games=count,
                played_on=previous.played_on,
                game_id=previous.game_id,
                state=_pack(rater.state()),
            )
        )
    RaterCheckpoint.objects.bulk_create(checkpoints)
    tails = [
        n
        for n in RaterCheckpoint.objects.values_list("games", flat=True)
        if n % CHECKPOINT_EVERY and n != count
    ]
    if tails:  # earlier tails: every replay keeps only its own
        RaterCheckpoint.objects.filter(games__in=tails).delete()
    _insert(
        ScoredGame,
        ("game_id", "version_id", "event_id", "club_id", "played_on", "winner", "players"),
        scored,
    )
    point_fields = (
        "player_id",
        "game_id",
        "played_on",
        "seat",
        "role",
        "outcome",
        "rating",
        "uncertainty",
        "event_id",
        "club_id",
    )
    if by_player is not None:
        lines = [line for pid in sorted(by_player) for line in by_player[pid]]
        by_player = None
    if pg and start is None and not aside:
        with _indexes_rebuilt_after(RatingPoint):
            _copy_lines(RatingPoint, point_fields, lines)
    elif pg:
        _copy_lines(RatingPoint, point_fields, lines)
    else:
        _insert(RatingPoint, point_fields, points)
    _write_player_ratings(rater, None if start is None else affected, last or None, empty=not aside)
    ledger = RatingsLedger.objects.get(pk=1)
    ledger.games = count
    ledger.computed_at = timezone.now()
    ledger.save()
    return RatingsReport(
        changed=len(changed),
        replayed=count - base,
        points_written=len(points) + len(lines),
        players=len(affected),
    )


def _write_player_ratings(
    rater: Rater,
    players: set[int] | None,
    last_games: dict[int, tuple[int, dt.date]] | None = None,
    empty: bool = True,
) -> None:
    """Current ratings and per-role records of ``players`` (None: everybody);
    ``last_games`` (player → last game and day) when the caller already knows them;
    ``empty``: False when the table is known to be empty already (built aside)."""
    counts = RatingPoint.objects.all()
    if players is not None:
        counts = counts.filter(player_id__in=list(players))
    tally: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for pid, role, outcome, n in (
        counts.values("player_id", "role", "outcome")
        .annotate(n=Count("id"))
        .values_list("player_id", "role", "outcome", "n")
    ):
        t = tally[pid]
        t["games"] += n
        t[f"{role}_games"] += n
        if outcome == "win":
            t["wins"] += n
            t[f"{role}_wins"] += n
        elif outcome == "draw":
            t["draws"] += n
    last: dict[int, tuple[int, dt.date]] = dict(last_games or {})
    latest = RatingPoint.objects.all()
    if players is not None:
        latest = latest.filter(player_id__in=list(players))
    if not last_games:  # else known from the replay
        if connection.vendor == "postgresql":
            latest = latest.order_by("player_id", "-played_on", "-game_id").distinct("player_id")
        else:  # every point in order: the last one per player stays
            latest = latest.order_by("played_on", "game_id")
        for pid, gid, day in latest.values_list("player_id", "game_id", "played_on"):
            last[pid] = (gid, day)
    if players is None:
        if empty:
            _empty(PlayerRating)
    else:
        PlayerRating.objects.filter(player_id__in=list(players)).delete()
    rows = []
    for pid, t in tally.items():
        key = str(pid)
        gid, day = last[pid]
        rows.append(
            (
                pid,
                rater.rating(key),
                rater.uncertainty(key),
                t["games"],
                t["wins"],
                t["draws"],
                rater.rating(key, "killer"),
                t["killer_games"],
                t["killer_wins"],
                rater.rating(key, "police"),
                t["police_games"],
                t["police_wins"],
                rater.rating(key, "civilian"),
                t["civilian_games"],
                t["civilian_wins"],
                gid,
                day,
            )
        )
    _insert(
        PlayerRating,
        (
            "player_id",
            "rating",
            "uncertainty",
            "games",
            "wins",
            "draws",
            "killer_rating",
            "killer_games",
            "killer_wins",
            "police_rating",
            "police_games",
            "police_wins",
            "civilian_rating",
            "civilian_games",
            "civilian_wins",
            "last_game_id",
            "last_played",
        ),
        rows,
    )


def _copy_value(value: Any) -> str:
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


@contextmanager
def _indexes_rebuilt_after(model: Any) -> Iterator[None]:
    """PostgreSQL: drop the table's secondary indexes and unique constraints, run the
    block (a bulk load into an empty table), then build them again — much faster than
    maintaining them row by row. Transactional, like everything else in PostgreSQL."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype = 'u'",
            [table],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s "
            "AND indexname NOT IN (SELECT conname FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype IN ('p', 'u'))",
            [table, table],
        )
        indexes = cursor.fetchall()
        quoted = connection.ops.quote_name(table)
        for name, _definition in constraints:
            cursor.execute(
                f"ALTER TABLE {quoted} DROP CONSTRAINT {connection.ops.quote_name(name)}"
            )
        for name, _definition in indexes:
            cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for name, definition in constraints:
            cursor.execute(
                f"ALTER TABLE {quoted} ADD CONSTRAINT {connection.ops.quote_name(name)} "
                f"{definition}"
            )
        for _name, definition in indexes:
            cursor.execute(definition)


#: The schema in which a full rebuild builds its tables (PostgreSQL). Created and dropped
#: inside the rebuild's transaction, so no other connection ever sees it.
ASIDE_SCHEMA = "tianhei_rebuild"

#: The swap waits at most this long for a live table's readers before it backs off and
#: tries again (while it waits, new readers queue behind it)…
SWAP_LOCK_TIMEOUT_MS = 100
#: … and after this many seconds of trying it waits for as long as it takes.
SWAP_PATIENCE_S = 30.0


@contextmanager
def _built_aside(*models: Any) -> Iterator[None]:
    """PostgreSQL: run the block against new, empty copies of ``models``' tables, then
    swap the copies in for the live tables.

    The copies live in a schema of their own (:data:`ASIDE_SCHEMA`) put first on this
    transaction's ``search_path``, so every query of the block — ORM, raw SQL, COPY —
    reads and writes them under the live tables' names, while every other connection
    keeps reading the complete live tables without waiting (the copies are created in
    this transaction: nobody else can see them). After the block the copies get the live
    tables' keys, indexes and foreign keys under the same names (built once, after the
    load) and fresh statistics. Then :func:`_lock_for_swap` takes the live tables, which
    are dropped, and the copies move into their schema; the caller commits right away,
    so readers wait for the swap alone — milliseconds. A failure anywhere rolls back
    with the transaction and leaves the live tables as they were."""
    q = connection.ops.quote_name
    aside = q(ASIDE_SCHEMA)
    tables = [m._meta.db_table for m in models]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('search_path')")
        search_path = cursor.fetchone()[0]
        live: list[tuple[str, str]] = []  # (schema, table), quoted
        for table in tables:
            cursor.execute(
                "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE c.oid = %s::regclass",
                [table],
            )
            live.append((q(cursor.fetchone()[0]), q(table)))
        # Definitions read now, with the live search_path: a foreign key's target is
        # printed as it resolves for the live tables.
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid), contype"
            " FROM pg_constraint WHERE conrelid = ANY(%s::regclass[]) AND contype IN"
            " ('p', 'u', 'f', 'x') ORDER BY contype = 'f', conname",
            [tables],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT i.indrelid::regclass::text, c.relname, pg_get_indexdef(i.indexrelid),"
            " i.indisunique FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            " WHERE i.indrelid = ANY(%s::regclass[]) AND NOT EXISTS (SELECT 1 FROM"
            " pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)"
            " ORDER BY c.relname",
            [tables],
        )
        indexes = cursor.fetchall()
        # Sequences of serial (not identity) columns: owned by the live table, so they
        # would go with it; the copy takes them over before the swap.
        cursor.execute(
            "SELECT c.oid::regclass::text, a.attname,"
            " pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname),"
            " a.attname) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
            " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE a.attrelid ="
            " ANY(%s::regclass[]) AND a.attnum > 0 AND NOT a.attisdropped"
            " AND a.attidentity = ''",
            [tables],
        )
        serials = [(t, col, seq) for t, col, seq in cursor.fetchall() if seq]
        cursor.execute(f"CREATE SCHEMA {aside}")
        for schema, table in live:
            cursor.execute(
                f"CREATE TABLE {aside}.{table} (LIKE {schema}.{table} INCLUDING DEFAULTS"
                " INCLUDING IDENTITY INCLUDING CONSTRAINTS INCLUDING GENERATED"
                " INCLUDING STORAGE)"
            )
        cursor.execute("SELECT set_config('search_path', %s, true)", [f"{aside}, {search_path}"])
    yield
    by_name = {t: q(t) for t in tables}
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('search_path', %s, true)", [search_path])
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for table, name, definition, kind in constraints:
            if kind == "f":
                continue  # last: they lock the tables they point to until the commit
            cursor.execute(
                f"ALTER TABLE {aside}.{by_name[table]} ADD CONSTRAINT {q(name)} {definition}"
            )
        for table, name, definition, unique in indexes:
            using = definition.split(" USING ", 1)[1]
            kind = "UNIQUE INDEX" if unique else "INDEX"
            cursor.execute(f"CREATE {kind} {q(name)} ON {aside}.{by_name[table]} USING {using}")
        for _schema, table in live:
            cursor.execute(f"ANALYZE {aside}.{table}")
        for table, name, definition, kind in constraints:
            if kind == "f":
                cursor.execute(
                    f"ALTER TABLE {aside}.{by_name[table]} ADD CONSTRAINT {q(name)} {definition}"
                )
        _lock_for_swap([f"{schema}.{table}" for schema, table in live])
        for table, column, sequence in serials:
            cursor.execute(
                f"ALTER SEQUENCE {sequence} OWNED BY {aside}.{by_name[table]}.{q(column)}"
            )
        # Deferred foreign-key checks pending on a live table would forbid dropping it.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("DROP TABLE " + ", ".join(f"{s}.{t}" for s, t in live))
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for schema, table in live:
            cursor.execute(f"ALTER TABLE {aside}.{table} SET SCHEMA {schema}")
        cursor.execute(f"DROP SCHEMA {aside}")


def _lock_for_swap(tables: list[str]) -> None:
    """Take ``tables`` ACCESS EXCLUSIVE for the rest of the transaction, a little at a
    time: each try gives up after :data:`SWAP_LOCK_TIMEOUT_MS` (a savepoint undoes it),
    so a long-running reader never holds the pages queued behind the swap for long."""
    deadline = time.monotonic() + SWAP_PATIENCE_S
    pause = 0.02
    while True:
        patient = time.monotonic() < deadline
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                if patient:
                    cursor.execute("SELECT current_setting('lock_timeout')")
                    before = cursor.fetchone()[0]
                    cursor.execute(
                        "SELECT set_config('lock_timeout', %s, true)", [f"{SWAP_LOCK_TIMEOUT_MS}ms"]
                    )
                cursor.execute(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")
                if patient:
                    cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])
            return
        except OperationalError as e:
            if getattr(e.__cause__, "sqlstate", None) != "55P03":  # lock_not_available
                raise
            log.info("ratings swap: the tables are busy; trying again")
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


def _copy_lines(model: Any, fields: Sequence[str], lines: list[str]) -> None:
    """COPY rows already formatted as PostgreSQL text lines (tab-separated, \\N for
    NULL, each ending in a newline)."""
    if not lines:
        return
    meta = model._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
    table = connection.ops.quote_name(meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        for i in range(0, len(lines), 50000):
            copy.write("".join(lines[i : i + 50000]).encode())


def _insert(model: Any, fields: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert plain rows fast: COPY (text format, written in blocks) on PostgreSQL,
    batched ``bulk_create`` elsewhere."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        meta = model._meta
        columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
        table = connection.ops.quote_name(meta.db_table)
        value = _copy_value
        with connection.cursor() as cursor:
            raw = cursor.cursor
            with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for i in range(0, len(rows), 20000):
                    block = "".join(
                        "\t".join([value(v) for v in row]) + "\n" for row in rows[i : i + 20000]
                    )
                    copy.write(block.encode())
        return
    model.objects.bulk_create(
        [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=2000
    )


def rebuild_ratings() -> RatingsReport:
    """Every rating from the records: a replay of all released games in order.

    On PostgreSQL the new rows are built aside (:func:`_built_aside`) and swapped in at
    the end, so the rating pages keep reading the complete old ratings meanwhile and
    never wait on the rebuild for more than the swap's moment. Call it outside a
    transaction: an enclosing one would hold the swap's locks until it commits."""
    with transaction.atomic():
        _lock_ledger()
        games = load_rated_games()
        RaterCheckpoint.objects.all().delete()  # a few rows that only the pipeline reads
        if connection.vendor != "postgresql":
            return _replay(None, dict(games.items()))
        with _built_aside(RatingPoint, ScoredGame, PlayerRating):
            return _replay(None, dict(games.items()), aside=True)


# --- the whole pipeline --------------------------------------------------------------------


@dataclass
class GameReport:
    game_id: int
    event: EventReport | None
    ratings: RatingsReport


def process_game(game_id: int, only_if_stale: bool = False) -> GameReport:
    """What follows a change to one game: its event's standings, then the ratings.

    The ratings take in every game of the event that changed, not only this one: at the
    end of a round a hundred tasks arrive at once, and the first to get the ratings lock
    takes in all the games released so far, so the others find nothing left to replay
    (each replay runs from the last checkpoint: one per game would queue for minutes).
    ``only_if_stale`` (the task): skip the standings if they are no longer stale — then a
    recomputation that began after this change committed has already included it."""
    table_event, voided_event = Game.objects.filter(pk=game_id).values_list(
        "table__round__event_id", "voided_event_id"
    ).first() or (None, None)
    # a voided game has left its table: it names its event itself
    event_id = table_event or voided_event
    if event_id is None:
        event_id = (
            ScoredGame.objects.filter(game_id=game_id).values_list("event_id", flat=True).first()
        )
    if event_id is None:
        return GameReport(game_id, None, update_ratings([game_id]))
    event = recompute_event(event_id, only_if_stale=only_if_stale)
    ids = {game_id}
    ids.update(
        Game.objects.filter(
            table__round__event_id=event_id, status=Game.Status.RELEASED
        ).values_list("pk", flat=True)
    )
    ids.update(ScoredGame.objects.filter(event_id=event_id).values_list("game_id", flat=True))
    return GameReport(game_id, event, update_ratings(ids))


def heal_stale_events(older_than: float = 60.0, limit: int = 20) -> list[int]:
    """Recompute events left stale for more than ``older_than`` seconds (their own task
    was lost); the task of any other game runs this too, so one live worker catches up
    even without beat."""
    cutoff = timezone.now() - dt.timedelta(seconds=older_than)
    ids = list(
        EventResults.objects.filter(stale=True, stale_since__lt=cutoff)
        .order_by("stale_since")
        .values_list("event_id", flat=True)[:limit]
    )
    for event_id in ids:
        recompute_event(event_id)
    return ids


def games_out_of_date() -> set[int]:
    """Released games not rated from their confirmed version, and rated games that no
    longer count (unreleased, no confirmed version, deleted)."""
    current = released_versions()
    missing = set(
        current.exclude(
            Exists(
                ScoredGame.objects.filter(game_id=OuterRef("game_id"), version_id=OuterRef("pk"))
            )
        ).values_list("game_id", flat=True)
    )
    counted = set(current.values_list("game_id", flat=True))
    extra = set(ScoredGame.objects.values_list("game_id", flat=True)) - counted
    return missing | extra


@dataclass
class HealReport:
    events: list[int]
    ratings: RatingsReport


def heal() -> HealReport:
    """Recompute every stale event and every game the ratings missed."""
    changed = games_out_of_date()
    events = set(EventResults.objects.filter(stale=True).values_list("event_id", flat=True))
    events |= set(
        Game.objects.filter(pk__in=list(changed), table__isnull=False).values_list(
            "table__round__event_id", flat=True
        )
    )
    events |= set(
        ScoredGame.objects.filter(game_id__in=list(changed), event__isnull=False).values_list(
            "event_id", flat=True
        )
    )
    # Events with released games but never computed.
    events |= set(
        released_versions()
        .filter(game__table__isnull=False)
        .exclude(game__table__round__event__results_state__isnull=False)
        .values_list("game__table__round__event_id", flat=True)
        .distinct()
    )
    for event_id in sorted(events):
        recompute_event(event_id)
    return HealReport(sorted(events), update_ratings(changed))


@dataclass
class RebuildReport:
    events: int
    ratings: RatingsReport
    seconds_events: float
    seconds_ratings: float


def rebuild_all(events: bool = True, ratings: bool = True) -> RebuildReport:
    """Every standing and every rating from the records (the management command)."""
    t0 = time.perf_counter()
    ids: list[int] = []
    if events:
        ids = list(
            Event.objects.filter(
                Exists(released_versions().filter(game__table__round__event=OuterRef("pk")))
            )
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        EventResults.objects.exclude(event_id__in=ids).update(stale=True)
        for event_id in ids:
            recompute_event(event_id, force=True, season=False)
        # Events without released games: no rows (before the seasons add them up).
        EventStanding.objects.exclude(event_id__in=ids).delete()
        EventResults.objects.exclude(event_id__in=ids).delete()
        seasons = list(
            Season.objects.filter(events__pk__in=ids).distinct().values_list("pk", flat=True)
        )
        with transaction.atomic():
            # A list, not a subquery of events: an event without a season would put a NULL
            # in NOT IN (…), which then matches nothing.
            SeasonStanding.objects.exclude(season_id__in=seasons).delete()
            for season_id in seasons:
                recompute_season(season_id)
    t1 = time.perf_counter()
    report = rebuild_ratings() if ratings else RatingsReport()
    t2 = time.perf_counter()
    return RebuildReport(len(ids), report, t1 - t0, t2 - t1)


def metric_keys() -> list[str]:
    return list(METRICS)
