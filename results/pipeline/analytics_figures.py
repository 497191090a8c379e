"""The stored figures of each analytics scope (issue 21), kept by the pipeline.

A game counts in up to 8 *scopes*: all games, its club, its season, its ruleset and each
combination of them. Each scope's figures are :class:`AnalyticsFigure` rows holding the
running totals (``n``, ``successes``; for a mean also ``total`` and ``squares``) with the
estimate and 95 % interval computed from them by ``engine.analytics``.

- :func:`apply_games` — a game added, changed or taken out: its old facts' contributions
  (``engine.analytics.contributions``) are subtracted and its new ones added, in each
  scope it was or is in, touching only the figures the game feeds (about thirty rows a
  scope). Cheap whatever the number of games, so it runs for every processed game.
- :func:`recompute_scope` — a scope's figures from all its games at once (the rebuild):
  the same totals, computed by ``engine.analytics.figures``.

Every write holds the lock of the ``all`` scope's row first (every game counts there),
so the changes of two games never interleave and a game's old facts are read once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from engine.analytics import (
    WINNERS,
    Contribution,
    Figures,
    GameFacts,
    Proportion,
    SeatFact,
    Winner,
    contributions,
    figures,
    mean_from_sums,
)
from results.models import AnalyticsFigure, AnalyticsGame, AnalyticsScope

WINNER: dict[str, Winner] = {w: w for w in WINNERS}
_EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)


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


@lru_cache(maxsize=65536)
def _seats(roles: str) -> tuple[SeatFact, ...]:
    """Seats from the stored role letters (the scope figures need no names); one tuple
    per pattern, which the engine counts once."""
    return tuple(
        SeatFact(i, "", "killer" if r == "k" else "police" if r == "p" else "civilian")
        for i, r in enumerate(roles, 1)
    )


FACT_COLUMNS = (
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


def facts_of(values: tuple[Any, ...]) -> GameFacts:
    """The engine's facts from an :class:`AnalyticsGame` row's :data:`FACT_COLUMNS`."""
    ruleset, winner, roles, victim, rounds, bonuses, penalties, ref, protests, upheld = values
    return GameFacts(
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


def row_facts(game: AnalyticsGame) -> GameFacts:
    return facts_of(tuple(getattr(game, c) for c in FACT_COLUMNS))


def lock_scope(scope: Scope) -> AnalyticsScope:
    """The scope's row, created if need be, locked until the transaction ends."""
    row, _ = AnalyticsScope.objects.get_or_create(
        scope=scope.key,
        defaults={
            "club_id": scope.club_id,
            "season_id": scope.season_id,
            "ruleset": scope.ruleset,
            "computed_at": _EPOCH,
        },
    )
    return AnalyticsScope.objects.select_for_update().get(pk=row.pk)


# --- game by game ---------------------------------------------------------------------------


@dataclass
class Delta:
    """What a scope gains (or loses) from some games: each figure's change, and games."""

    games: int = 0
    figures: dict[tuple[str, str], list[Any]] = field(default_factory=dict)

    def add(self, items: Iterable[Contribution], sign: int) -> None:
        self.games += sign
        for c in items:
            d = self.figures.setdefault((c.kind, c.key), [dict(c.params), 0, 0, 0.0, 0.0, c])
            d[1] += sign * c.n
            d[2] += sign * (c.successes or 0)
            d[3] += sign * c.total
            d[4] += sign * c.squares


def finish(f: AnalyticsFigure) -> None:
    """The estimate and interval of a figure from its totals."""
    if f.successes is not None:
        p = Proportion(f.successes, f.n)
        f.value, f.low, f.high = p.estimate, p.low, p.high
    else:
        m = mean_from_sums(f.n, f.total, f.squares, floor=0.0)
        f.value, f.low, f.high = m.mean, m.low, m.high


def _referee(kind: str, key: str) -> int | None:
    return int(key.split("/", 1)[0]) if kind == "referee" else None


def apply_delta(scope: Scope, delta: Delta, now: dt.datetime) -> bool:
    """Add ``delta`` to the scope's stored figures (the caller holds the ``all`` lock);
    figures left with n = 0 and a scope left without games are removed."""
    changed = {k: d for k, d in delta.figures.items() if any(d[1:5])}
    if not changed and not delta.games:
        return False
    row = lock_scope(scope)
    keys = {key for _, key in changed}
    existing = {
        (f.kind, f.key): f
        for f in AnalyticsFigure.objects.filter(scope=row, key__in=sorted(keys))
        if (f.kind, f.key) in changed
    }
    create: list[AnalyticsFigure] = []
    update: list[AnalyticsFigure] = []
    drop: list[int] = []
    for (kind, key), (params, n, successes, total, squares, c) in changed.items():
        f = existing.get((kind, key))
        if f is None:
            f = AnalyticsFigure(
                scope=row,
                kind=kind,
                key=key,
                params=params,
                referee_id=_referee(kind, key),
                n=0,
                successes=None if c.successes is None else 0,
                total=0.0,
                squares=0.0,
            )
            fresh = True
        else:
            fresh = False
        f.n += n
        if f.successes is not None:
            f.successes += successes
        f.total += total
        f.squares += squares
        if f.n <= 0:
            if not fresh:
                drop.append(f.pk)
            continue
        finish(f)
        (create if fresh else update).append(f)
    # Changed rows are written again (one delete, one insert): Django's bulk_update
    # builds a CASE per row and field, ten times slower for these thirty rows.
    drop += [f.pk for f in update]
    for f in update:
        f.pk = None
    if drop:
        AnalyticsFigure.objects.filter(pk__in=drop).delete()
    AnalyticsFigure.objects.bulk_create(create + update)
    row.games += delta.games
    if row.games <= 0:
        row.delete()
    else:
        row.computed_at = now
        row.save(update_fields=["games", "computed_at"])
    return True


def apply_games(old: Iterable[AnalyticsGame], new: Iterable[AnalyticsGame]) -> list[str]:
    """Take the ``old`` fact rows out of every scope they count in and put the ``new``
    ones in (inside the caller's transaction, which holds the ``all`` lock). Returns the
    scopes changed."""
    deltas: dict[str, tuple[Scope, Delta]] = {}
    for rows, sign in ((old, -1), (new, 1)):
        for game in rows:
            items = contributions(row_facts(game))
            for scope in scopes_of(game.club_id, game.season_id, game.ruleset):
                deltas.setdefault(scope.key, (scope, Delta()))[1].add(items, sign)
    now = timezone.now()
    return [key for key, (scope, d) in sorted(deltas.items()) if apply_delta(scope, d, now)]


# --- a whole scope --------------------------------------------------------------------------


def _row(scope: AnalyticsScope, kind: str, key: str, params: dict[str, Any], **values: Any) -> Any:
    f = AnalyticsFigure(
        scope=scope, kind=kind, key=key, params=params, referee_id=_referee(kind, key), **values
    )
    finish(f)
    return f


def figure_rows(scope: AnalyticsScope, f: Figures) -> list[AnalyticsFigure]:
    """The rows that store ``f`` for ``scope`` (figures with n = 0 are not stored)."""
    rows = [
        _row(
            scope,
            "side",
            f"{s.ruleset}/{s.size}/{s.side}",
            {"ruleset": s.ruleset, "size": s.size, "side": s.side},
            n=s.rate.n,
            successes=s.rate.successes,
        )
        for s in f.sides
    ]
    rows += [
        _row(scope, "seat", str(s.seat), {"seat": s.seat}, n=s.rate.n, successes=s.rate.successes)
        for s in f.seats
    ]
    rows += [
        _row(
            scope,
            "victim",
            f"{v.size}/{v.seat}",
            {"size": v.size, "seat": v.seat},
            n=v.share.n,
            successes=v.share.successes,
        )
        for v in f.victims
    ]
    for r in f.referees:
        for measure, mean in (
            ("rounds", r.rounds),
            ("bonuses", r.bonuses),
            ("penalties", r.penalties),
        ):
            rows.append(
                _row(
                    scope,
                    "referee",
                    f"{r.referee}/{measure}",
                    {"measure": measure},
                    n=mean.n,
                    total=mean.total,
                    squares=mean.squares,
                )
            )
        p = r.protests_upheld
        rows.append(
            _row(
                scope,
                "referee",
                f"{r.referee}/protests",
                {"measure": "protests"},
                n=p.n,
                successes=p.successes,
            )
        )
    return [row for row in rows if row.n > 0]


def recompute_scope(scope: Scope) -> None:
    """Compute and store the figures of ``scope`` from all its games (the ``all`` lock
    first, then the scope's)."""
    lock_scope(Scope())
    row = lock_scope(scope)
    facts = [facts_of(v) for v in scope.games().values_list(*FACT_COLUMNS).iterator(5000)]
    if not facts:
        row.delete()
        return
    AnalyticsFigure.objects.filter(scope=row).delete()
    AnalyticsFigure.objects.bulk_create(
        figure_rows(row, figures(facts, every_side=True)), batch_size=2000
    )
    row.games = len(facts)
    row.computed_at = timezone.now()
    row.save(update_fields=["games", "computed_at"])
