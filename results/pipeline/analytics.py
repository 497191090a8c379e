"""The analytics (issue 21): per-game facts, and the figures of every filter scope.

Both run in the pipeline, never for a page:

1. **Facts** — :func:`update_games` reads the confirmed record of each changed game
   (released games only: :func:`~results.pipeline.rated.released_versions`), turns it into
   ``engine.analytics.GameFacts`` and stores one :class:`AnalyticsGame` row (and one
   :class:`AnalyticsSeat` row per known player); a game no longer released loses its rows.
2. **Figures** — in the same transaction, the game's old facts are taken out of and its
   new ones put into every scope they count in (``all``, the club, the season, the
   ruleset and each combination: at most 8), touching only the figures the game feeds
   (:mod:`results.pipeline.analytics_figures`): a processed game costs the same whatever
   the number of games. :func:`rebuild` computes every scope from all its games at once.

A page then reads one scope's stored figures with one query. The per-player figures (a
player's role win rates, two players' head-to-head) are counted from the player's
:class:`AnalyticsSeat` rows instead (one indexed query each, :mod:`results.analytics`):
storing them per scope would mean a row per player, role and scope and one per pair of
players (66 pairs a game of 12), most never read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q

from engine.analytics import facts_from_record
from engine.errors import EngineError
from engine.record import parse_record
from games.models import Protest
from league.models import Player
from results.models import AnalyticsGame, AnalyticsScope, AnalyticsSeat
from results.pipeline.analytics_figures import (
    Scope,
    apply_games,
    lock_scope,
    recompute_scope,
    scopes_of,
)
from results.pipeline.rated import released_versions

ROLE_LETTERS = {"killer": "k", "police": "p", "civilian": "c"}
#: Games whose records are read at once in a rebuild.
CHUNK = 2000


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


def update_games(game_ids: Iterable[int]) -> list[str]:
    """Store the facts of these games as their records now stand (released or not) and
    move their contributions in every scope they were or are in, in one transaction
    under the ``all`` scope's lock. Returns the scopes changed."""
    ids = sorted(set(game_ids))
    if not ids:
        return []
    with transaction.atomic():
        lock_scope(Scope())
        old = list(AnalyticsGame.objects.filter(game_id__in=ids))
        fresh = _fact_rows(ids)
        AnalyticsSeat.objects.filter(game_id__in=ids).delete()
        AnalyticsGame.objects.filter(game_id__in=ids).delete()
        AnalyticsGame.objects.bulk_create([f.game for f in fresh])
        AnalyticsSeat.objects.bulk_create([s for f in fresh for s in f.seats])
        return apply_games(old, [f.game for f in fresh])


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


#: Games one heal brings up to date (a hundred per transaction); more wait for the next
#: run, so a heal never runs long (a database that never had analytics: the rebuild).
HEAL_LIMIT = 1000
HEAL_CHUNK = 100


def heal(limit: int = HEAL_LIMIT) -> list[int]:
    """Bring the facts of stale games up to date (the beat task's turn), at most
    ``limit`` of them, oldest first."""
    ids = sorted(stale_games())[:limit]
    for i in range(0, len(ids), HEAL_CHUNK):
        update_games(ids[i : i + HEAL_CHUNK])
    return ids


def rebuild() -> int:
    """Every fact and every scope's figures again from the records; returns the number
    of games counted."""
    with transaction.atomic():
        lock_scope(Scope())
        AnalyticsSeat.objects.all().delete()
        AnalyticsGame.objects.all().delete()
        AnalyticsScope.objects.exclude(scope="all").delete()
        ids = list(released_versions().order_by("game_id").values_list("game_id", flat=True))
        for i in range(0, len(ids), CHUNK):
            fresh = _fact_rows(ids[i : i + CHUNK])
            AnalyticsGame.objects.bulk_create([f.game for f in fresh], batch_size=CHUNK)
            AnalyticsSeat.objects.bulk_create([s for f in fresh for s in f.seats], batch_size=5000)
        scopes: set[Scope] = {Scope()}
        for club, season, ruleset in AnalyticsGame.objects.values_list(
            "club_id", "season_id", "ruleset"
        ).distinct():
            scopes |= scopes_of(club, season, ruleset)
        for scope in sorted(scopes, key=lambda s: s.key):
            recompute_scope(scope)
        return AnalyticsGame.objects.count()
