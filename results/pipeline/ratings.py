"""The ratings: a replay of the released games in their global order through the rater
(``engine.ratings``), written as one rating point per player per game and each player's
current rating.

:func:`update_ratings` takes some changed games in, under the lock of the single
:class:`~results.models.RatingsLedger` row; it replays from the earliest changed game
(from the nearest checkpoint of the rater's state), so a corrected old game gives exactly
what a fresh rebuild would. :func:`rebuild_ratings` replays everything (on PostgreSQL
into tables built aside and swapped in: :mod:`results.pipeline.swap`).
"""

from __future__ import annotations

import datetime as dt
import json
import zlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from engine.ratings import Rater, RaterState
from results.bulk import NULL, copy_in, empty_tables, insert_rows
from results.models import PlayerRating, RaterCheckpoint, RatingPoint, RatingsLedger, ScoredGame
from results.pipeline.rated import Key, RatedGame, RatedSeat, load_rated_games, outcome_of
from results.pipeline.swap import built_aside, indexes_rebuilt_after

#: A :class:`PlayerRating` row as the pipeline writes it (and the tests read it back).
RATING_COLUMNS = (
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
)

#: The rater's state is saved every this many games (a correction replays from there).
CHECKPOINT_EVERY = 10000


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
        seats.append(RatedSeat(pid, seat, role, outcome_of(winner, role)))
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
    are :func:`built_aside`'s empty ones, without indexes (a full rebuild on PostgreSQL).

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
            empty_tables(RatingPoint, ScoredGame)
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
    insert_rows(
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
        with indexes_rebuilt_after(RatingPoint):
            copy_in(RatingPoint, point_fields, lines=lines)
    elif pg:
        copy_in(RatingPoint, point_fields, lines=lines)
    else:
        insert_rows(RatingPoint, point_fields, points)
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
            empty_tables(PlayerRating)
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
    insert_rows(PlayerRating, RATING_COLUMNS, rows)


def rebuild_ratings() -> RatingsReport:
    """Every rating from the records: a replay of all released games in order.

    On PostgreSQL the new rows are built aside (:func:`built_aside`) and swapped in at
    the end, so the rating pages keep reading the complete old ratings meanwhile and
    never wait on the rebuild for more than the swap's moment. Call it outside a
    transaction: an enclosing one would hold the swap's locks until it commits."""
    with transaction.atomic():
        _lock_ledger()
        games = load_rated_games()
        RaterCheckpoint.objects.all().delete()  # a few rows that only the pipeline reads
        if connection.vendor != "postgresql":
            return _replay(None, dict(games.items()))
        with built_aside(RatingPoint, ScoredGame, PlayerRating):
            return _replay(None, dict(games.items()), aside=True)
