"""Reads of the analytics (issue 21) for the pages and the API.

Release gate: everything read here was written by the pipeline
(:mod:`results.pipeline.analytics`) from **released** games only; nothing here reads a
record. A scope's figures are one stored row set (two queries whatever the number of
games); a player's role win rates and two players' head-to-head are counted from the
pipeline's seat facts with one indexed query each, their intervals computed by
``engine.analytics``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _

from engine.analytics import (
    WINNERS,
    GameFacts,
    HeadToHead,
    Proportion,
    Role,
    SeatFact,
    Winner,
    head_to_head,
    shown,
)
from engine.rulesets import RULESETS
from league.errors import UserError
from league.i18n import ruleset_choices
from league.models import Club, Player, Season
from results.models import AnalyticsFigure, AnalyticsScope, AnalyticsSeat
from results.pipeline.analytics_figures import Scope

ROLES: tuple[Role, ...] = ("killer", "police", "civilian")
ROLE_LABELS = {"killer": _("killer"), "police": _("police"), "civilian": _("civilian")}
SIDE_LABELS = {"good": _("good side"), "killers": _("killers"), "draw": _("draw")}
MEASURE_LABELS = {
    "rounds": _("rounds per game"),
    "bonuses": _("bonuses per game"),
    "penalties": _("penalties per game"),
    "protests": _("protests upheld"),
}
_ROLE: dict[str, Role] = {r: r for r in ROLES}
_WINNER: dict[str, Winner] = {w: w for w in WINNERS}
NO_PLAYER = _("Name a player: the parameter a is a player's handle.")
#: The longest value a filter parameter may have (a handle, a slug, an id).
MAX_PARAM = 60


# --- filters ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalyticsFilter:
    """The club, season and ruleset the figures are read for (each optional)."""

    club: Club | None = None
    season: Season | None = None
    ruleset: str = ""

    @property
    def scope(self) -> Scope:
        return Scope(
            self.club.pk if self.club else None,
            self.season.pk if self.season else None,
            self.ruleset,
        )

    def params(self) -> list[tuple[str, str]]:
        """The filters as query parameters, in one fixed order."""
        out = []
        if self.club is not None:
            out.append(("club", self.club.slug))
        if self.season is not None:
            out.append(("season", str(self.season.pk)))
        if self.ruleset:
            out.append(("ruleset", self.ruleset))
        return out

    def seats(self) -> Q:
        """The filter on :class:`AnalyticsSeat` rows."""
        q = Q()
        if self.club is not None:
            q &= Q(club_id=self.club.pk)
        if self.season is not None:
            q &= Q(season_id=self.season.pk)
        if self.ruleset:
            q &= Q(ruleset=self.ruleset)
        return q


def _clean(value: Any) -> str:
    text = str(value or "").strip()
    if len(text) > MAX_PARAM or "\x00" in text:
        return "\x00"  # never a valid value: refused below
    return text


def bad_filter(name: str, value: str) -> UserError:
    return UserError(
        _("Unknown %(filter)s: %(value)s. Choose one from the list."),
        code="analytics.filter",
        params={"filter": name, "value": value[:MAX_PARAM].replace("\x00", "")},
        status=400,
    )


def analytics_filter(params: Mapping[str, Any]) -> AnalyticsFilter:
    """The filters from query parameters; an unknown club, season or ruleset is refused
    with a 400 :class:`UserError` (never silently widened to every game)."""
    club = season = None
    slug = _clean(params.get("club"))
    if slug:
        club = Club.objects.filter(slug=slug).first() if slug != "\x00" else None
        if club is None:
            raise bad_filter("club", slug)
    raw = _clean(params.get("season"))
    if raw:
        if raw.isascii() and raw.isdigit() and len(raw) <= 12:
            season = Season.objects.filter(pk=int(raw)).select_related("league").first()
        if season is None:
            raise bad_filter("season", raw)
    ruleset = _clean(params.get("ruleset"))
    if ruleset and ruleset not in RULESETS:
        raise bad_filter("ruleset", ruleset)
    return AnalyticsFilter(club, season, ruleset)


def filter_choices() -> dict[str, list[tuple[str, str]]]:
    """The filter form's options: clubs, seasons (newest first), rulesets."""
    return {
        "clubs": list(Club.objects.order_by("name").values_list("slug", "name")),
        "seasons": [
            (str(s.pk), str(s))
            for s in Season.objects.select_related("league").order_by("-starts_on")[:200]
        ],
        "rulesets": ruleset_choices(),  # the id with its description, as every select
    }


# --- a scope's stored figures ----------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One stored figure: a label, its estimate, interval and sample size."""

    label: str
    n: int
    value: float | None
    low: float | None
    high: float | None
    successes: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_proportion(self) -> bool:
        return self.successes is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "successes": self.successes,
            "estimate": self.value,
            "ci_low": self.low,
            "ci_high": self.high,
        }


@dataclass(frozen=True)
class Group:
    """Figures shown together (one chart): a ruleset and size, a table size."""

    title: str
    figures: list[Figure]
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RefereeRow:
    referee_id: int
    name: str
    games: int
    rounds: Figure
    bonuses: Figure
    penalties: Figure
    protests: Figure


@dataclass(frozen=True)
class ScopeFigures:
    games: int
    computed_at: dt.datetime | None
    sides: list[Group]
    seats: list[Figure]
    victims: list[Group]
    referees: list[RefereeRow]


def _figure(row: AnalyticsFigure, label: str) -> Figure:
    return Figure(label, row.n, row.value, row.low, row.high, row.successes, row.params)


def scope_row(f: AnalyticsFilter) -> AnalyticsScope | None:
    """The filter's scope (its number of games, when its figures last changed: the
    version a rendering of them is cached under), or None when it holds no game."""
    return AnalyticsScope.objects.filter(scope=f.scope.key).first()


def scope_figures(f: AnalyticsFilter, scope: AnalyticsScope | None = None) -> ScopeFigures:
    """The stored figures of the filter's scope (empty when it holds no released game):
    two queries (one when its :func:`scope_row` is given)."""
    scope = scope or scope_row(f)
    if scope is None:
        return ScopeFigures(0, None, [], [], [], [])
    rows = list(
        AnalyticsFigure.objects.filter(scope=scope)
        .select_related("referee__user")
        .order_by("kind", "pk")
    )
    sides: dict[tuple[str, int], list[Figure]] = defaultdict(list)
    victims: dict[int, list[Figure]] = defaultdict(list)
    seats: list[Figure] = []
    refs: dict[int, dict[str, Any]] = {}
    for row in rows:
        p = row.params
        if row.kind == "side":
            if shown("side", p, row.successes):  # a draw rate only where draws can happen
                label = str(SIDE_LABELS[p["side"]])
                sides[(p["ruleset"], p["size"])].append(_figure(row, label))
        elif row.kind == "seat":
            seats.append(_figure(row, str(_("seat %(n)s") % {"n": p["seat"]})))
        elif row.kind == "victim":
            victims[p["size"]].append(_figure(row, str(_("seat %(n)s") % {"n": p["seat"]})))
        elif row.kind == "referee" and row.referee_id is not None:
            mine = refs.setdefault(row.referee_id, {"name": str(row.referee)})
            mine[p["measure"]] = _figure(row, str(MEASURE_LABELS[p["measure"]]))
    return ScopeFigures(
        games=scope.games,
        computed_at=scope.computed_at,
        sides=[
            Group(
                str(_("%(ruleset)s, %(size)s players") % {"ruleset": ruleset, "size": size}),
                sorted(figs, key=lambda s: WINNERS.index(s.params["side"])),
                {"ruleset": ruleset, "size": size},
            )
            for (ruleset, size), figs in sorted(sides.items())
        ],
        seats=sorted(seats, key=lambda s: s.params["seat"]),
        victims=[
            Group(
                str(_("%(size)s players") % {"size": size}),
                sorted(figs, key=lambda s: s.params["seat"]),
                {"size": size},
            )
            for size, figs in sorted(victims.items())
        ],
        referees=sorted(
            (_referee_row(ref, d) for ref, d in refs.items()),
            key=lambda r: (-r.games, r.name),
        ),
    )


def _referee_row(ref: int, d: dict[str, Any]) -> RefereeRow:
    """A referee's figures; one with n = 0 (no game with a full record, no ruled protest)
    is not stored and shows as such."""

    def get(measure: str) -> Figure:
        label = str(MEASURE_LABELS[measure])
        empty = Figure(label, 0, None, None, None, 0 if measure == "protests" else None)
        found: Figure = d.get(measure, empty)
        return found

    bonuses = get("bonuses")  # every game has its count of bonuses: n is the games
    return RefereeRow(
        ref, d["name"], bonuses.n, get("rounds"), bonuses, get("penalties"), get("protests")
    )


# --- per player ------------------------------------------------------------------------------

#: A seat whose side won.
WON = Q(role="killer", winner="killers") | (Q(role__in=["police", "civilian"]) & Q(winner="good"))


def _proportion_figure(label: str, p: Proportion, **params: Any) -> Figure:
    return Figure(label, p.n, p.estimate, p.low, p.high, p.successes, params)


def player_by_handle(value: Any, name: str) -> Player | None:
    """The player of a ``a``/``b`` parameter (None when empty); an unknown handle is a
    400 :class:`UserError`."""
    handle = _clean(value)
    if not handle:
        return None
    player = Player.objects.filter(handle=handle).first() if handle != "\x00" else None
    if player is None:
        raise UserError(
            _("No player has the handle %(handle)s."),
            code="analytics.player",
            params={"handle": handle.replace("\x00", ""), "parameter": name},
            status=400,
        )
    return player


def second_player(value: Any, a: Player | None) -> Player | None:
    """The ``b`` parameter's player; the same player as ``a`` is refused (400): a player
    has no head-to-head with themself."""
    b = player_by_handle(value, "b")
    if b is not None and a is not None and b.pk == a.pk:
        raise UserError(
            _("Choose a second player other than the first."),
            code="analytics.player",
            params={"handle": b.handle, "parameter": "b"},
            status=400,
        )
    return b


def role_rates(player: Player, f: AnalyticsFilter) -> list[Figure]:
    """The player's win rate in each role, over the filter's released games (one query);
    every role is listed, n = 0 included."""
    counts = {
        role: (n, wins)
        for role, n, wins in AnalyticsSeat.objects.filter(f.seats(), player=player)
        .values("role")
        .annotate(n=Count("pk"), wins=Count("pk", filter=WON))
        .values_list("role", "n", "wins")
        .order_by()
    }
    return [
        _proportion_figure(
            str(ROLE_LABELS[role]),
            Proportion(counts.get(role, (0, 0))[1], counts.get(role, (0, 0))[0]),
            role=role,
        )
        for role in ROLES
    ]


def pair(a: Player, b: Player, f: AnalyticsFilter) -> HeadToHead:
    """``a`` and ``b`` with and against each other over the filter's released games:
    ``a``'s seats in games where ``b`` sat too, with ``b``'s role (one query)."""
    b_role = AnalyticsSeat.objects.filter(game_id=OuterRef("game_id"), player=b).values("role")[:1]
    rows = (
        AnalyticsSeat.objects.filter(f.seats(), player=a)
        .annotate(b_role=Subquery(b_role))
        .filter(b_role__isnull=False)
        .values_list("role", "b_role", "winner")
    )
    games = [
        GameFacts("", (SeatFact(1, "a", _ROLE[role]), SeatFact(2, "b", _ROLE[other])), _WINNER[w])
        for role, other, w in rows
    ]
    return head_to_head(games, "a", "b") if a != b else head_to_head([], "a", "b")


def pair_figures(h: HeadToHead, a: str = "", b: str = "") -> list[Figure]:
    """Together (their side won) and against (``a``'s side won), labelled with names."""
    names = {"a": a, "b": b}
    return [
        _proportion_figure(
            str(_("with %(b)s: their side won") % names), h.together, kind="together"
        ),
        _proportion_figure(str(_("against %(b)s: %(a)s won") % names), h.against, kind="against"),
    ]
