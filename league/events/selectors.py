"""Event reads: what pages, the API, the draw and the games side ask for.

Public surfaces declare their release gate by calling :func:`public_rounds` (only
released rounds, always) or :func:`visible_rounds` (what one user may read, from
:func:`league.permissions.visible_round_statuses`). Each function runs a fixed number
of queries, whatever the size of the event.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from league import permissions as perms
from league.clubs.models import Club, Membership, Player, Referee
from league.events.models import (
    Event,
    PlayerConflict,
    RefereeConflict,
    Registration,
    Round,
    Seat,
    Table,
)
from league.names import filter_by_name, initials_key, search_key, sort_key
from league.permissions import LeagueAccess, Viewer


def managed_events(access: LeagueAccess) -> QuerySet[Event]:
    """Events the user organises or staffs, newest first."""
    if access.user_id is None:
        return Event.objects.none()
    qs = Event.objects.select_related("club")
    if access.is_site_admin():
        return qs.all()
    user_id = access.user_id
    return qs.filter(Q(club__organisers__user_id=user_id) | Q(staff__id=user_id)).distinct()


def refereed_events(access: LeagueAccess) -> QuerySet[Event]:
    """Published events the user is listed to referee."""
    if access.user_id is None:
        return Event.objects.none()
    return public_events().filter(referees__user_id=access.user_id).order_by("-starts_on")


def public_events() -> QuerySet[Event]:
    return Event.objects.filter(status__in=perms.PUBLIC_EVENT_STATUSES).select_related("club")


def visible_events(access: LeagueAccess) -> QuerySet[Event]:
    """Published events plus the drafts the user staffs."""
    mine = managed_events(access).values("pk")
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
    return event_rounds(event, perms.PUBLIC_ROUND_STATUSES)


def visible_rounds(access: LeagueAccess, event: Event) -> list[Round]:
    """Rounds the user may read in ``event`` (staff: drafts too; referees: confirmed)."""
    return event_rounds(event, access.visible_round_statuses(event))


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

    return sorted(
        by_player.values(), key=lambda s: (sort_key(s.player.display_name), s.player.handle)
    )


def registrations(event: Event, query: str = "") -> list[Registration]:
    """An event's registrations (registered first, then by name in reading order).

    ``query`` finds a player by display name or handle in any script: accents and case
    do not matter, and pinyin finds Chinese names (``wangfang`` or ``wf`` finds 王芳) —
    see :mod:`league.names`. Each registration carries ``search_text`` for the page's
    filter-as-you-type.
    """
    regs = list(Registration.objects.filter(event=event).select_related("player"))
    query = query.strip().lstrip("@")
    if query:
        regs = filter_by_name(regs, query, lambda r: (r.player.display_name, r.player.handle))
    for reg in regs:
        name = reg.player.display_name
        reg.search_text = " ".join(  # type: ignore[attr-defined]
            [name.casefold(), reg.player.handle, search_key(name), initials_key(name)]
        )
    regs.sort(
        key=lambda r: (r.status != Registration.Status.REGISTERED, sort_key(r.player.display_name))
    )
    return regs


def own_registration(user: Viewer, event: Event) -> Registration | None:
    """The signed-in player's own registration for ``event``, if any."""
    if user is None or not user.is_authenticated:
        return None
    return Registration.objects.filter(event=event, player__user=user).first()


def registration_counts(event: Event) -> dict[str, int]:
    data = Registration.objects.filter(event=event).aggregate(
        registered=Count("pk", filter=Q(status=Registration.Status.REGISTERED)),
        checked_in=Count(
            "pk", filter=Q(status=Registration.Status.REGISTERED, checked_in_at__isnull=False)
        ),
        withdrawn=Count("pk", filter=Q(status=Registration.Status.WITHDRAWN)),
    )
    return {k: int(v or 0) for k, v in data.items()}


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
