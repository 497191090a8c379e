"""The analytics (issue 21): per-game facts, and the figures of every filter scope.

Two steps, both run by the pipeline, never by a page:

1. **Facts** — :func:`update_games` reads the confirmed record of each changed game
   (released games only: :func:`~results.pipeline.rated.released_versions`), turns it into
   ``engine.analytics.GameFacts`` and stores one :class:`AnalyticsGame` row (and one
   :class:`AnalyticsSeat` row per known player); a game no longer released loses its rows.
2. **Figures** — for each scope the game belongs to (``all``, its club, its season, its
   ruleset and every combination of them: at most 8), :func:`recompute_scope` reads the
   scope's fact rows (plain columns, no record is parsed), calls ``engine.analytics`` and
   writes the scope's :class:`AnalyticsFigure` rows (proportions and means with their
   95 % intervals), under a lock of the scope's row.

A page then reads one scope's stored figures with one query, whatever the number of
games. The per-player figures (a player's role win rates, two players' head-to-head) are
counted from the player's :class:`AnalyticsSeat` rows instead (one indexed query each,
:mod:`results.analytics`): storing them per scope would mean a row per player, role and
scope and one per pair of players (66 pairs a game of 12), most never read.

At the end of a round a hundred games are processed at once; a scope whose figures were
computed after this game's facts were written (``computed_at``) is not computed again.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

from engine.analytics import (
    WINNERS,
    Figures,
    GameFacts,
    Proportion,
    SeatFact,
    Winner,
    facts_from_record,
    figures,
)
from engine.errors import EngineError
from engine.record import parse_record
from games.models import Protest
from league.models import Player
from results.models import AnalyticsFigure, AnalyticsGame, AnalyticsScope, AnalyticsSeat
from results.pipeline.rated import released_versions

ROLE_LETTERS = {"killer": "k", "police": "p", "civilian": "c"}
WINNER: dict[str, Winner] = {w: w for w in WINNERS}
#: Games whose records are read at once in a rebuild.
CHUNK = 2000


@dataclass(frozen=True)
class Scope:
    """A filter combination: nothing (``all``), a club, a season, a ruleset, or several."""

    club_id: int | None = None
    season_id: int | None = None
    ruleset: str = ""

    @property
    def key(self) -> str:
        parts = []
        if self.club_id is not None:
            parts.append(f"club={self.club_id}")
        if self.season_id is not None:
            parts.append(f"season={self.season_id}")
        if self.ruleset:
            parts.append(f"ruleset={self.ruleset}")
        return "&".join(parts) or "all"

    def games(self) -> QuerySet[AnalyticsGame]:
        qs = AnalyticsGame.objects.all()
        if self.club_id is not None:
            qs = qs.filter(club_id=self.club_id)
        if self.season_id is not None:
            qs = qs.filter(season_id=self.season_id)
        if self.ruleset:
            qs = qs.filter(ruleset=self.ruleset)
        return qs


def scopes_of(club_id: int, season_id: int | None, ruleset: str) -> set[Scope]:
    """Every scope a game of this club, season and ruleset counts in."""
    given: list[tuple[str, Any]] = [("club_id", club_id), ("ruleset", ruleset)]
    if season_id is not None:
        given.append(("season_id", season_id))
    return {
        Scope(**dict(chosen))
        for size in range(len(given) + 1)
        for chosen in combinations(given, size)
    }


# --- facts ------------------------------------------------------------------------------------


RULED = [Protest.Status.UPHELD, Protest.Status.REJECTED]


def _protests(game_ids: list[int] | None) -> dict[int, tuple[int, int]]:
    """Each game's ruled protests and how many were upheld (``games.Protest``; open ones
    are not counted: they are not ruled yet, and not public)."""
    qs = Protest.objects.filter(status__in=RULED)
    if game_ids is not None:
        qs = qs.filter(game_id__in=game_ids)
    rows = (
        qs.values("game_id")
        .annotate(n=Count("pk"), upheld=Count("pk", filter=Q(status=Protest.Status.UPHELD)))
        .values_list("game_id", "n", "upheld")
        .order_by()
    )
    return {gid: (n, upheld) for gid, n, upheld in rows}


def _protests_changed() -> set[int]:
    """Games whose stored protest counts differ from the protests as ruled now (a ruling
    that rejected a protest changes no record, so no task follows it: the heal does)."""
    now = _protests(None)
    stored = {
        gid: (n, upheld)
        for gid, n, upheld in AnalyticsGame.objects.filter(
            Q(game_id__in=list(now)) | Q(protests__gt=0)
        ).values_list("game_id", "protests", "protests_upheld")
    }
    return {gid for gid in set(now) | set(stored) if now.get(gid, (0, 0)) != stored.get(gid)}


@dataclass
class FactRows:
    game: AnalyticsGame
    seats: list[AnalyticsSeat]


def _fact_rows(game_ids: list[int] | None) -> list[FactRows]:
    """The fact rows of released games (all, or of ``game_ids``), from their records."""
    qs = released_versions(game_ids).order_by("game_id")
    rows = list(
        qs.values_list(
            "game_id",
            "pk",
            "record",
            "game__club_id",
            "game__referee_id",
            "game__table__referee_id",
            "game__table__round__event_id",
            "game__table__round__event__club_id",
            "game__table__round__event__season_id",
        )
    )
    protests = _protests([r[0] for r in rows])
    handles = {
        s.get("player")
        for r in rows
        for s in (r[2].get("seats") or [] if isinstance(r[2], dict) else [])
        if isinstance(s, dict)
    }
    players = dict(
        Player.objects.filter(handle__in=[h for h in handles if isinstance(h, str)]).values_list(
            "handle", "pk"
        )
    )
    out = []
    for gid, vid, record, club, ref, table_ref, event, event_club, season in rows:
        try:
            parsed = parse_record(record)
        except (EngineError, ValueError):  # a confirmed record always reads; never stop here
            continue
        n, upheld = protests.get(gid, (0, 0))
        facts = facts_from_record(parsed, protests=n, protests_upheld=upheld)
        if facts is None:
            continue
        club_id = event_club or club
        game = AnalyticsGame(
            game_id=gid,
            version_id=vid,
            club_id=club_id,
            season_id=season,
            event_id=event,
            ruleset=facts.ruleset,
            players=facts.size,
            winner=facts.winner,
            roles="".join(ROLE_LETTERS[s.role] for s in facts.seats),
            night1_victim=facts.night1_victim,
            rounds=facts.rounds,
            bonuses=facts.bonuses,
            penalties=facts.penalties,
            referee_id=table_ref or ref,
            protests=n,
            protests_upheld=upheld,
        )
        seats = [
            AnalyticsSeat(
                game_id=gid,
                player_id=players[s.player],
                seat=s.seat,
                role=s.role,
                winner=facts.winner,
                club_id=club_id,
                season_id=season,
                ruleset=facts.ruleset,
            )
            for s in facts.seats
            if s.player in players
        ]
        out.append(FactRows(game, seats))
    return out


def _scope_of_row(game: AnalyticsGame) -> set[Scope]:
    return scopes_of(game.club_id, game.season_id, game.ruleset)


def update_games(game_ids: Iterable[int]) -> list[str]:
    """Store the facts of these games as their records now stand (released or not), then
    recompute every scope they were or are in. Returns the scopes recomputed."""
    ids = sorted(set(game_ids))
    if not ids:
        return []
    touched: set[Scope] = set()
    for club, season, ruleset in AnalyticsGame.objects.filter(game_id__in=ids).values_list(
        "club_id", "season_id", "ruleset"
    ):
        touched |= scopes_of(club, season, ruleset)
    fresh = _fact_rows(ids)
    with transaction.atomic():
        AnalyticsSeat.objects.filter(game_id__in=ids).delete()
        AnalyticsGame.objects.filter(game_id__in=ids).delete()
        AnalyticsGame.objects.bulk_create([f.game for f in fresh])
        AnalyticsSeat.objects.bulk_create([s for f in fresh for s in f.seats])
    written = timezone.now()  # after the commit: a computation that starts later sees them
    for f in fresh:
        touched |= _scope_of_row(f.game)
    done = []
    for scope in sorted(touched, key=lambda s: s.key):
        if recompute_scope(scope, unless_since=written):
            done.append(scope.key)
    return done


def stale_games() -> set[int]:
    """Released games whose facts are missing or from another version, games with facts
    that no longer count, games whose event moved to another season, and games whose
    protests were ruled since."""
    current = released_versions()
    missing = set(
        current.exclude(
            Exists(
                AnalyticsGame.objects.filter(game_id=OuterRef("game_id"), version_id=OuterRef("pk"))
            )
        ).values_list("game_id", flat=True)
    )
    extra = set(
        AnalyticsGame.objects.exclude(
            Exists(current.filter(game_id=OuterRef("game_id")))
        ).values_list("game_id", flat=True)
    )
    moved = set(
        AnalyticsGame.objects.filter(event__isnull=False)
        .filter(
            Q(season__isnull=True, event__season__isnull=False)
            | Q(season__isnull=False, event__season__isnull=True)
            | (Q(season__isnull=False) & ~Q(season_id=F("event__season_id")))
        )
        .values_list("game_id", flat=True)
    )
    ruled = sorted(_protests_changed())  # of those, the ones that count or counted
    ruled_now = set(released_versions(ruled).values_list("game_id", flat=True)) | set(
        AnalyticsGame.objects.filter(game_id__in=ruled).values_list("game_id", flat=True)
    )
    return missing | extra | moved | ruled_now


def heal() -> list[int]:
    """Bring the facts of every stale game up to date (the beat task's turn)."""
    ids = sorted(stale_games())
    update_games(ids)
    return ids


# --- figures ----------------------------------------------------------------------------------


@lru_cache(maxsize=50000)
def _seats(roles: str) -> tuple[SeatFact, ...]:
    """Seats from the stored role letters (the scope figures need no names)."""
    return tuple(
        SeatFact(i, "", "killer" if r == "k" else "police" if r == "p" else "civilian")
        for i, r in enumerate(roles, 1)
    )


def scope_facts(scope: Scope) -> list[GameFacts]:
    """The facts of a scope's games, as the engine takes them."""
    rows = scope.games().values_list(
        "ruleset",
        "winner",
        "roles",
        "night1_victim",
        "rounds",
        "bonuses",
        "penalties",
        "referee_id",
        "protests",
        "protests_upheld",
    )
    return [
        GameFacts(
            ruleset,
            _seats(roles),
            WINNER[winner],
            night1_victim=victim,
            rounds=rounds,
            bonuses=bonuses,
            penalties=penalties,
            referee=None if ref is None else str(ref),
            protests=protests,
            protests_upheld=upheld,
        )
        for ruleset, winner, roles, victim, rounds, bonuses, penalties, ref, protests, upheld in (
            rows.iterator(chunk_size=5000)
        )
    ]


def _proportion(scope: AnalyticsScope, kind: str, key: str, p: Proportion, **params: Any) -> Any:
    return AnalyticsFigure(
        scope=scope,
        kind=kind,
        key=key,
        params=params,
        n=p.n,
        successes=p.successes,
        value=p.estimate,
        low=p.low,
        high=p.high,
    )


def figure_rows(scope: AnalyticsScope, f: Figures) -> list[AnalyticsFigure]:
    """The rows that store ``f`` for ``scope``."""
    rows = [
        _proportion(
            scope,
            "side",
            f"{s.ruleset}/{s.size}/{s.side}",
            s.rate,
            ruleset=s.ruleset,
            size=s.size,
            side=s.side,
        )
        for s in f.sides
    ]
    rows += [_proportion(scope, "seat", str(s.seat), s.rate, seat=s.seat) for s in f.seats]
    rows += [
        _proportion(scope, "victim", f"{v.size}/{v.seat}", v.share, size=v.size, seat=v.seat)
        for v in f.victims
    ]
    for r in f.referees:
        ref = int(r.referee)
        for measure, mean in (
            ("rounds", r.rounds),
            ("bonuses", r.bonuses),
            ("penalties", r.penalties),
        ):
            rows.append(
                AnalyticsFigure(
                    scope=scope,
                    kind="referee",
                    key=f"{ref}/{measure}",
                    params={"measure": measure, "games": r.games},
                    referee_id=ref,
                    n=mean.n,
                    value=mean.mean,
                    low=mean.low,
                    high=mean.high,
                )
            )
        row = _proportion(
            scope,
            "referee",
            f"{ref}/protests",
            r.protests_upheld,
            measure="protests",
            games=r.games,
        )
        row.referee_id = ref
        rows.append(row)
    return rows


def recompute_scope(scope: Scope, unless_since: dt.datetime | None = None) -> bool:
    """Compute and store the figures of ``scope`` (under a lock of its row); skipped when
    they were computed after ``unless_since``. Returns whether it was computed."""
    key = scope.key
    with transaction.atomic():
        row, _ = AnalyticsScope.objects.get_or_create(
            scope=key,
            defaults={
                "club_id": scope.club_id,
                "season_id": scope.season_id,
                "ruleset": scope.ruleset,
                "computed_at": dt.datetime(2000, 1, 1, tzinfo=dt.UTC),
            },
        )
        row = AnalyticsScope.objects.select_for_update().get(pk=row.pk)
        if unless_since is not None and row.computed_at > unless_since:
            return False
        started = timezone.now()
        facts = scope_facts(scope)
        if not facts:
            row.delete()
            return True
        AnalyticsFigure.objects.filter(scope=row).delete()
        AnalyticsFigure.objects.bulk_create(figure_rows(row, figures(facts)), batch_size=2000)
        row.games = len(facts)
        row.computed_at = started
        row.save(update_fields=["games", "computed_at"])
    return True


def rebuild() -> int:
    """Every fact and every scope's figures again from the records; returns the number
    of games counted."""
    with transaction.atomic():
        AnalyticsSeat.objects.all().delete()
        AnalyticsGame.objects.all().delete()
        AnalyticsScope.objects.all().delete()
        ids = list(released_versions().order_by("game_id").values_list("game_id", flat=True))
        for i in range(0, len(ids), CHUNK):
            fresh = _fact_rows(ids[i : i + CHUNK])
            AnalyticsGame.objects.bulk_create([f.game for f in fresh], batch_size=CHUNK)
            AnalyticsSeat.objects.bulk_create([s for f in fresh for s in f.seats], batch_size=5000)
    scopes: set[Scope] = set()
    for club, season, ruleset in AnalyticsGame.objects.values_list(
        "club_id", "season_id", "ruleset"
    ).distinct():
        scopes |= scopes_of(club, season, ruleset)
    for scope in sorted(scopes, key=lambda s: s.key):
        recompute_scope(scope)
    return AnalyticsGame.objects.count()
