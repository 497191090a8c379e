"""Demo data for the league side: what a fresh `make run` shows.

:func:`seed_league`: a club with an organiser, event staff and eight referees; 48 players
with Chinese, Latin and Spanish names (some in a second club); one event, today, with four
rounds drawn by the real engine, round 1 confirmed and released (the event is running:
the home page's "live now" and the venue screen show it).

:func:`seed_other_events`: last year's season of the league — three finished events at
the club and one at the Madrid club, every round drawn by the engine and released (their
games are played by :func:`games.demo.play_past_season`) — and an event next month that
is open for registration.

Everything goes through the services, so the demo also exercises the audit log.
Idempotent: a second call changes nothing.
"""

from __future__ import annotations

import datetime as dt
import random
import zoneinfo
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from league.audit import audit
from league.clubs.models import Club, ClubOrganiser, League, Membership, Player, Referee, Season
from league.draws import bridge
from league.draws.models import DrawJob
from league.draws.services import confirm_round, release_round
from league.events.models import Event, Registration
from league.events.services import create_event, transition_event

DEMO_PASSWORD = "tianhei-demo"
DEMO_CLUB = "tianhei-club"
DEMO_EVENT = "demo-open"

PLAYER_NAMES = [
    # 简体中文
    "王伟",
    "李娜",
    "张敏",
    "刘洋",
    "陈静",
    "杨帆",
    "赵磊",
    "黄丽",
    "周杰",
    "吴霞",
    "徐明",
    "孙悦",
    "马超",
    "朱婷",
    "胡军",
    "郭晶",
    # Latin script (English, German, Polish, Vietnamese...)
    "Alice Walker",
    "Ben Carter",
    "Chloe Martin",
    "Daniel Kim",
    "Emma Schmidt",
    "Felix Novak",
    "Grace Lee",
    "Hannah Müller",
    "Ivan Petrov",
    "Julia Kowalska",
    "Kevin O'Brien",
    "Laura Rossi",
    "Marta Nowak",
    "Nguyễn Văn An",
    "Oskar Lindqvist",
    "Paula Weber",
    # Español
    "José García",
    "María Fernández",
    "Lucía Martínez",
    "Javier López",
    "Carmen Sánchez",
    "Alejandro Pérez",
    "Sofía Gómez",
    "Pablo Ruiz",
    "Elena Díaz",
    "Diego Moreno",
    "Valentina Muñoz",
    "Andrés Jiménez",
    "Camila Álvarez",
    "Mateo Romero",
    "Isabel Navarro",
    "Íñigo Torres",
]


def _user(username: str, **extra: Any) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username, defaults=extra)
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


def _handle(i: int, name: str) -> str:
    base = slugify(name) or "player"
    return f"{base}-{i + 1}"


def seed_league() -> list[str]:
    """Create the demo league; returns lines describing what was made."""
    admin = _user("admin", is_staff=True, is_superuser=True)
    lines = [gettext("site admin: admin / %(pw)s") % {"pw": DEMO_PASSWORD}]
    if Event.objects.filter(club__slug=DEMO_CLUB, slug=DEMO_EVENT).exists():
        return lines

    club, _ = Club.objects.get_or_create(
        slug=DEMO_CLUB,
        defaults={
            "name": "天黑俱乐部 Tianhei Club",
            "city": "北京 Beijing",
            "timezone": "Asia/Shanghai",
        },
    )
    guests, _ = Club.objects.get_or_create(
        slug="club-madrid",
        defaults={"name": "Club Asesino Madrid", "city": "Madrid", "timezone": "Europe/Madrid"},
    )
    organiser = _user("organiser", first_name="Olga", last_name="Organiser")
    ClubOrganiser.objects.get_or_create(club=club, user=organiser)
    staff = _user("staff", first_name="Sam", last_name="Staff")
    referees = []
    for i, (first, last) in enumerate(
        [
            ("法官", "一"),
            ("Rita", "Referee"),
            ("Árbitro", "Ruiz"),
            ("法官", "二"),
            ("Rob", "Judge"),
            ("Marta", "Árbitra"),
            ("法官", "三"),
            ("Leo", "Schiedsrichter"),
        ],
        start=1,
    ):
        user = _user(f"referee{i}", first_name=first, last_name=last)
        ref, _ = Referee.objects.get_or_create(
            user=user, defaults={"grade": 1 + i % 5, "club": guests if i == 3 else None}
        )
        referees.append(ref)

    league, _ = League.objects.get_or_create(
        slug="tianhei-league", defaults={"name": "Tianhei League 天黑联赛", "club": club}
    )
    today = timezone.localdate()
    season, _ = Season.objects.get_or_create(
        league=league,
        name=str(today.year),
        defaults={"starts_on": dt.date(today.year, 1, 1), "ends_on": dt.date(today.year, 12, 31)},
    )
    players = []
    for i, name in enumerate(PLAYER_NAMES):
        player, created = Player.objects.get_or_create(
            handle=_handle(i, name), defaults={"display_name": name}
        )
        if created:
            Membership.objects.create(
                player=player,
                club=guests if 32 <= i < 40 else club,
                joined=dt.date(today.year - 1, 1 + i % 12, 1),
            )
        players.append(player)
    demo_player_user = _user("player", first_name="王伟")
    if players[0].user_id is None:
        players[0].user = demo_player_user
        players[0].save(update_fields=["user"])

    # Today, the first round under way for about an hour (on the ten minutes).
    now = timezone.now().replace(second=0, microsecond=0)
    round1 = now - dt.timedelta(minutes=50 + now.minute % 10)
    starts = [round1 + dt.timedelta(minutes=100 * i) for i in range(4)]
    zone = zoneinfo.ZoneInfo(club.timezone)
    event = create_event(
        organiser,
        club,
        name="Demo Open 天黑公开赛",
        slug=DEMO_EVENT,
        venue="茶馆 Teahouse, Beijing",
        starts_on=starts[0].astimezone(zone).date(),
        ends_on=starts[-1].astimezone(zone).date(),
        season=season,
        registration_opens=now - dt.timedelta(days=7),
        registration_closes=round1,
        rounds_count=4,
        min_table=8,
        max_table=12,
        tiebreak_precedence=[
            "points",
            "wins",
            "awards",
            "police-killer-wins",
            "night1-deaths",
            "lots",
        ],
        round_starts=starts,
        staff=[staff],
        referees=referees,
    )
    transition_event(organiser, event, Event.Status.REGISTRATION)
    Registration.objects.bulk_create(
        Registration(event=event, player=p, checked_in_at=now) for p in players
    )
    audit(organiser, "registration.import", event, event=event, demo=len(players))
    job = DrawJob.objects.create(
        event=event, from_round=1, to_round=4, seed=2026, requested_by=organiser
    )
    job = bridge.run_draw_job(job.pk, limit=min(3.0, bridge.time_limit()))
    if job.status != DrawJob.Status.DONE:
        return [*lines, gettext("demo draw failed: %(error)s") % {"error": job.error_text()}]
    first_round = event.rounds.get(number=1)
    confirm_round(organiser, first_round)
    release_round(organiser, first_round)
    del admin
    return [
        *lines,
        gettext("club organiser: organiser / %(pw)s  (/manage/)") % {"pw": DEMO_PASSWORD},
        gettext("event staff: staff / %(pw)s; referees: referee1..8 / %(pw)s")
        % {"pw": DEMO_PASSWORD},
        gettext("player: player / %(pw)s") % {"pw": DEMO_PASSWORD},
        gettext("event: %(url)s — 48 players, 4 rounds drawn, round 1 released")
        % {"url": f"/clubs/{DEMO_CLUB}/{DEMO_EVENT}/"},
    ]


# --- last year's season and next month's event -------------------------------------------------


@dataclass(frozen=True)
class PastEvent:
    """One finished event of the demo's past season."""

    slug: str
    name: str
    club: str
    month: int
    day: int
    players: int
    rounds: int
    ruleset: str = "classic"
    in_season: bool = True


PAST_EVENTS = (
    PastEvent("spring-cup", "Spring Cup 春季杯", DEMO_CLUB, 3, 14, 48, 4),
    PastEvent("summer-open", "Summer Open 夏季公开赛", DEMO_CLUB, 6, 13, 40, 4, "mainstream"),
    PastEvent("copa-otono", "Copa de Otoño", "club-madrid", 10, 3, 36, 3, in_season=False),
    PastEvent("winter-masters", "Winter Masters 冬季大师赛", DEMO_CLUB, 11, 21, 48, 4),
)
NEXT_EVENT = "club-cup"
#: The engine's time limit for a past event's draw: quality hardly matters there.
PAST_DRAW_SECONDS = 1.0


def past_events() -> list[Event]:
    """The demo's past events that exist, in date order."""
    slugs = [p.slug for p in PAST_EVENTS]
    return list(
        Event.objects.filter(slug__in=slugs, club__slug__in={p.club for p in PAST_EVENTS})
        .select_related("club")
        .order_by("starts_on")
    )


def _past_event(
    past: PastEvent, organiser: Any, season: Season, players: list[Player], refs: list[Referee]
) -> str | None:
    """Create, register, draw and release one past event; an error line if its draw failed."""
    year = season.starts_on.year
    club = Club.objects.get(slug=past.club)
    ClubOrganiser.objects.get_or_create(club=club, user=organiser)
    day = dt.date(year, past.month, past.day)
    zone = zoneinfo.ZoneInfo(club.timezone)
    first = dt.datetime.combine(day, dt.time(10, 0), tzinfo=zone)
    event = create_event(
        organiser,
        club,
        name=past.name,
        slug=past.slug,
        venue="茶馆 Teahouse, Beijing" if club.slug == DEMO_CLUB else "Café Central, Madrid",
        starts_on=day,
        ends_on=day,
        season=season if past.in_season else None,
        registration_opens=first - dt.timedelta(days=30),
        registration_closes=first,
        ruleset=past.ruleset,
        rounds_count=past.rounds,
        min_table=8,
        max_table=12,
        round_starts=[first + dt.timedelta(minutes=100 * i) for i in range(past.rounds)],
        referees=refs,
    )
    transition_event(organiser, event, Event.Status.REGISTRATION)
    field = random.Random(f"{year}-{past.slug}").sample(players, past.players)
    Registration.objects.bulk_create(
        Registration(event=event, player=p, checked_in_at=first - dt.timedelta(minutes=30))
        for p in field
    )
    audit(organiser, "registration.import", event, event=event, demo=len(field))
    job = DrawJob.objects.create(
        event=event, from_round=1, to_round=past.rounds, seed=year, requested_by=organiser
    )
    job = bridge.run_draw_job(job.pk, limit=min(PAST_DRAW_SECONDS, bridge.time_limit()))
    if job.status != DrawJob.Status.DONE:
        return gettext("demo draw failed: %(error)s") % {"error": job.error_text()}
    for rnd in event.rounds.order_by("number"):
        confirm_round(organiser, rnd)
        release_round(organiser, rnd)
    return None


def seed_other_events() -> list[str]:
    """Last year's season (its events drawn and released, their games left to
    :func:`games.demo.play_past_season`) and an event next month open for registration.
    Needs :func:`seed_league` first; returns lines describing what was made."""
    club = Club.objects.filter(slug=DEMO_CLUB).first()
    event = Event.objects.filter(club=club, slug=DEMO_EVENT).first()
    if club is None or event is None or event.season is None:
        return []
    organiser = ClubOrganiser.objects.select_related("user").filter(club=club).first()
    if organiser is None:
        return []
    lines: list[str] = []
    players = list(
        Player.objects.filter(
            handle__in=[_handle(i, n) for i, n in enumerate(PLAYER_NAMES)]
        ).order_by("pk")
    )
    refs = list(event.referees.order_by("pk"))
    current = event.season
    year = current.starts_on.year - 1
    past_season, _ = Season.objects.get_or_create(
        league=current.league,
        name=str(year),
        defaults={"starts_on": dt.date(year, 1, 1), "ends_on": dt.date(year, 12, 31)},
    )
    existing = {(e.club.slug, e.slug) for e in past_events()}
    for past in PAST_EVENTS:
        if (past.club, past.slug) in existing:
            continue
        error = _past_event(past, organiser.user, past_season, players, refs)
        if error is not None:
            lines.append(error)
    if not Event.objects.filter(club=club, slug=NEXT_EVENT).exists():
        day = timezone.localdate() + dt.timedelta(days=30)
        opens = timezone.now() - dt.timedelta(days=1)
        start = dt.datetime.combine(day, dt.time(14, 0), tzinfo=zoneinfo.ZoneInfo(club.timezone))
        upcoming = create_event(
            organiser.user,
            club,
            name="Club Cup 俱乐部杯",
            slug=NEXT_EVENT,
            venue="茶馆 Teahouse, Beijing",
            starts_on=day,
            ends_on=day,
            season=current,
            registration_opens=opens,
            registration_closes=start - dt.timedelta(hours=2),
            rounds_count=4,
            capacity=36,
            round_starts=[start + dt.timedelta(minutes=100 * i) for i in range(4)],
        )
        transition_event(organiser.user, upcoming, Event.Status.REGISTRATION)
    lines.append(
        gettext("past season %(season)s: %(n)s events drawn and released")
        % {"season": past_season, "n": len(past_events())}
    )
    return lines
