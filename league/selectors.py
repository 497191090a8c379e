"""League reads: what pages, the API and the games side ask for.

Public surfaces declare their release gate by calling :func:`public_rounds` (only
released rounds, always) or :func:`visible_rounds` (what one user may read, from
:func:`league.permissions.visible_round_statuses`). Each function runs a fixed number
of queries, whatever the size of the event.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from league import permissions as perms
from league.models import (
    AuditEntry,
    Club,
    DrawJob,
    Event,
    Membership,
    Player,
    PlayerConflict,
    Referee,
    RefereeConflict,
    Registration,
    Round,
    Seat,
    Table,
)

# --- events ---------------------------------------------------------------------------------


def managed_events(user: Any) -> QuerySet[Event]:
    """Events ``user`` organises or staffs, newest first."""
    if not user.is_authenticated:
        return Event.objects.none()
    qs = Event.objects.select_related("club")
    if perms.is_site_admin(user):
        return qs.all()
    return qs.filter(Q(club__organisers__user=user) | Q(staff=user)).distinct()


def refereed_events(user: Any) -> QuerySet[Event]:
    """Published events ``user`` is listed to referee."""
    if not user.is_authenticated:
        return Event.objects.none()
    return public_events().filter(referees__user=user).order_by("-starts_on")


def organised_clubs(user: Any) -> QuerySet[Club]:
    if perms.is_site_admin(user):
        return Club.objects.all()
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(organisers__user=user)


def public_events() -> QuerySet[Event]:
    return Event.objects.filter(status__in=perms.PUBLIC_EVENT_STATUSES).select_related("club")


def visible_events(user: Any) -> QuerySet[Event]:
    """Published events plus the drafts ``user`` staffs."""
    mine = managed_events(user).values("pk")
    return (
        Event.objects.filter(Q(status__in=perms.PUBLIC_EVENT_STATUSES) | Q(pk__in=mine))
        .select_related("club")
        .distinct()
    )


def upcoming_events(club: Club) -> QuerySet[Event]:
    """A club's published events that have not ended, soonest first, with their rounds."""
    today = timezone.localdate()
    return (
        public_events()
        .filter(club=club, ends_on__gte=today)
        .order_by("starts_on", "name")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.order_by("number")))
    )


# --- rounds, tables and seats ---------------------------------------------------------------


def event_rounds(event: Event, statuses: Sequence[str]) -> list[Round]:
    """Rounds of ``event`` in ``statuses`` with tables, referees and seated players: 3 queries."""
    seats = Seat.objects.select_related("player").order_by("number")
    tables = (
        Table.objects.select_related("referee__user")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    return list(
        Round.objects.filter(event=event, status__in=list(statuses))
        .order_by("number")
        .prefetch_related(Prefetch("tables", queryset=tables))
    )


def public_rounds(event: Event) -> list[Round]:
    """The public release gate: released rounds only, for everybody, always."""
    return event_rounds(event, ("released",))


def visible_rounds(user: Any, event: Event) -> list[Round]:
    """Rounds ``user`` may read in ``event`` (staff: drafts too; referees: confirmed)."""
    return event_rounds(event, perms.visible_round_statuses(user, event))


def round_tables(rnd: Round) -> list[Table]:
    """One round's tables in order, each with ``referee`` and ``seats`` (seat order) loaded."""
    seats = Seat.objects.select_related("player").order_by("number")
    return list(
        Table.objects.filter(round=rnd)
        .select_related("referee__user")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )


@dataclass
class PlayerPlacement:
    round: Round
    table: Table
    seat: int


@dataclass
class PlayerSchedule:
    """``placements[i]`` is the player's place in the i-th round asked for, or None."""

    player: Player
    placements: list[PlayerPlacement | None]


def player_schedules(rounds: Iterable[Round]) -> list[PlayerSchedule]:
    """Per player: their table and seat in each of ``rounds`` (prefetched), sorted by name."""
    rounds = list(rounds)
    by_player: dict[int, PlayerSchedule] = {}
    for i, rnd in enumerate(rounds):
        for table in rnd.tables.all():
            for seat in table.seats.all():
                entry = by_player.setdefault(
                    seat.player_id, PlayerSchedule(seat.player, [None] * len(rounds))
                )
                entry.placements[i] = PlayerPlacement(rnd, table, seat.number)
    from league.names import sort_key

    return sorted(
        by_player.values(), key=lambda s: (sort_key(s.player.display_name), s.player.handle)
    )


# --- registrations --------------------------------------------------------------------------


def registrations(event: Event, query: str = "") -> list[Registration]:
    """An event's registrations (registered first, then by name in reading order).

    ``query`` finds a player by display name or handle in any script: accents and case
    do not matter, and pinyin finds Chinese names (``wangfang`` or ``wf`` finds 王芳) —
    see :mod:`league.names`. Each registration carries ``search_text`` for the page's
    filter-as-you-type.
    """
    from league.names import filter_by_name, initials_key, search_key, sort_key

    regs = list(Registration.objects.filter(event=event).select_related("player"))
    query = query.strip().lstrip("@")
    if query:
        regs = filter_by_name(regs, query, lambda r: (r.player.display_name, r.player.handle))
    for reg in regs:
        name = reg.player.display_name
        reg.search_text = " ".join(  # type: ignore[attr-defined]
            [name.casefold(), reg.player.handle, search_key(name), initials_key(name)]
        )
    regs.sort(key=lambda r: (r.status != "registered", sort_key(r.player.display_name)))
    return regs


def own_registration(user: Any, event: Event) -> Registration | None:
    """The signed-in player's own registration for ``event``, if any."""
    if not user.is_authenticated:
        return None
    return Registration.objects.filter(event=event, player__user=user).first()


def registration_counts(event: Event) -> dict[str, int]:
    data = Registration.objects.filter(event=event).aggregate(
        registered=Count("pk", filter=Q(status="registered")),
        checked_in=Count("pk", filter=Q(status="registered", checked_in_at__isnull=False)),
        withdrawn=Count("pk", filter=Q(status="withdrawn")),
    )
    return {k: int(v or 0) for k, v in data.items()}


# --- conflicts ------------------------------------------------------------------------------


def avoid_pairs(event: Event) -> set[tuple[int, int]]:
    """Player pk pairs (smaller first) who must never share a table in ``event``."""
    return {
        (min(a, b), max(a, b))
        for a, b in PlayerConflict.objects.filter(event=event).values_list(
            "player_a_id", "player_b_id"
        )
    }


def event_conflicts(event: Event) -> tuple[list[PlayerConflict], list[RefereeConflict]]:
    """Declared player pairs of ``event``, and referee conflicts touching its players."""
    players = PlayerConflict.objects.filter(event=event).select_related("player_a", "player_b")
    registered = Registration.objects.filter(event=event).values("player_id")
    refs = RefereeConflict.objects.filter(
        club_id=event.club_id, referee__in=event.referees.all(), player_id__in=registered
    ).select_related("referee__user", "player")
    return list(players), list(refs)


def current_clubs(player_ids: Iterable[int]) -> dict[int, int]:
    """Each player's current club (the most recent open membership)."""
    out: dict[int, int] = {}
    rows = (
        Membership.objects.filter(player_id__in=list(player_ids), left__isnull=True)
        .order_by("joined")
        .values_list("player_id", "club_id")
    )
    for player_id, club_id in rows:
        out[player_id] = club_id
    return out


def referee_conflicts(
    event: Event, referees: Iterable[Referee] | None = None
) -> set[tuple[int, int]]:
    """(referee pk, player pk) pairs that must not meet: declared, or the referee's own club."""
    refs = list(event.referees.all() if referees is None else referees)
    ref_ids = [r.pk for r in refs]
    player_ids = list(Registration.objects.filter(event=event).values_list("player_id", flat=True))
    pairs = set(
        RefereeConflict.objects.filter(
            Q(club_id=event.club_id) | Q(club__isnull=True),
            referee_id__in=ref_ids,
            player_id__in=player_ids,
        ).values_list("referee_id", "player_id")
    )
    members: dict[int, list[int]] = defaultdict(list)
    rows = Membership.objects.filter(player_id__in=player_ids, left__isnull=True).values_list(
        "club_id", "player_id"
    )
    for club_id, player_id in rows:
        members[club_id].append(player_id)
    for ref in refs:
        if ref.club_id is not None:
            pairs.update((ref.pk, p) for p in members.get(ref.club_id, ()))
    return pairs


# --- draw jobs and measures -----------------------------------------------------------------


def active_draw_job(event: Event) -> DrawJob | None:
    return DrawJob.objects.filter(event=event, status__in=["queued", "running"]).first()


def latest_draw_job(event: Event) -> DrawJob | None:
    return DrawJob.objects.filter(event=event).order_by("-created_at", "-pk").first()


@dataclass(frozen=True)
class Measure:
    key: str
    label: str
    value: int
    bound: int | None

    @property
    def at_bound(self) -> bool:
        return self.bound is not None and self.value <= self.bound


def draw_measures(rounds: Sequence[Round]) -> list[Measure]:
    """The fairness measures of the drawn ``rounds`` (prefetched) against their lower bounds.

    Recomputed from the seating as it stands, so hand swaps show at once. Bounds are taken
    for the same attendance (who sat in which round) from :mod:`engine.seating.metrics`.
    """
    from django.utils.translation import gettext as _

    from engine.seating.metrics import seating_bounds, seating_metrics
    from engine.seating.problem import SeatingProblem

    rounds = [r for r in rounds if r.status != Round.Status.NONE]
    if not rounds:
        return []
    layout = [[[str(s.player_id) for s in t.seats.all()] for t in r.tables.all()] for r in rounds]
    players = sorted({p for rnd in layout for table in rnd for p in table}, key=int)
    if not players:
        return []
    sizes = [len(t) for rnd in layout for t in rnd if t]
    present = [{p for t in rnd for p in t} for rnd in layout]
    absent = {p: {i + 1 for i, here in enumerate(present) if p not in here} for p in players}
    problem = SeatingProblem(
        players=tuple(players),
        rounds=len(layout),
        min_table=min(sizes),
        max_table=max(sizes),
        absent={p: frozenset(rs) for p, rs in absent.items() if rs},
    )
    metrics = seating_metrics(problem, layout, seating_bounds(problem))
    ref_counts: Counter[tuple[int, int]] = Counter()
    load: Counter[int] = Counter()
    for rnd in rounds:
        for table in rnd.tables.all():
            if table.referee_id is None:
                continue
            load[table.referee_id] += 1
            for seat in table.seats.all():
                ref_counts[(seat.player_id, table.referee_id)] += 1
    ref_repeats = sum(c * (c - 1) // 2 for c in ref_counts.values())
    out = [
        Measure("repeats", _("repeat meetings (R)"), metrics.repeats, metrics.repeats_bound),
        Measure(
            "max_meetings",
            _("most meetings of one pair"),
            metrics.max_meetings,
            metrics.max_meetings_bound,
        ),
        Measure(
            "seat_max", _("most times in one seat number"), metrics.seat_max, metrics.seat_ideal
        ),
        Measure("referee_repeats", _("referee repeats"), ref_repeats, None),
    ]
    if load:
        out.append(
            Measure(
                "referee_load_spread",
                _("referee load spread (most − fewest tables)"),
                max(load.values()) - min(load.values()),
                None,
            )
        )
    return out


def measures_as_dict(measures: Iterable[Measure]) -> list[dict[str, Any]]:
    return [dataclasses.asdict(m) | {"at_bound": m.at_bound} for m in measures]


def round_start(event: Event, number: int) -> datetime | None:
    return (
        Round.objects.filter(event=event, number=number).values_list("starts_at", flat=True).first()
    )


# --- audit log ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditFilter:
    """What an organiser narrowed the audit log to (every field optional)."""

    event: int | None = None
    action: str = ""
    actor: str = ""
    since: datetime | None = None


def club_audit(club: Club, wanted: AuditFilter) -> QuerySet[AuditEntry]:
    """Who did what to ``club``'s events, newest first (read-only, for its organisers)."""
    qs = AuditEntry.objects.filter(event__club=club).select_related("actor", "event")
    if wanted.event is not None:
        qs = qs.filter(event_id=wanted.event)
    if wanted.action:
        qs = qs.filter(action__startswith=wanted.action)
    if wanted.actor:
        qs = qs.filter(actor__username__iexact=wanted.actor)
    if wanted.since is not None:
        qs = qs.filter(at__gte=wanted.since)
    return qs.order_by("-at", "-pk")


def club_audit_actions(club: Club) -> list[str]:
    """The kinds of action the club's log holds (for the filter's choices)."""
    return sorted(
        AuditEntry.objects.filter(event__club=club).values_list("action", flat=True).distinct()
    )
