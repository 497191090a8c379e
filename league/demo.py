"""Demo data for the league side: what a fresh `make run` shows.

A club with an organiser, event staff and eight referees; 48 players with Chinese, Latin
and Spanish names (some in a second club); one event with four rounds drawn by the real
engine, round 1 confirmed and released. Everything goes through the services, so the
demo also exercises the audit log. Idempotent: a second call changes nothing.
"""

from __future__ import annotations

import datetime as dt
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

    event_day = today + dt.timedelta(days=3)
    round1 = timezone.make_aware(dt.datetime.combine(event_day, dt.time(10, 0)))
    event = create_event(
        organiser,
        club,
        name="Demo Open 天黑公开赛",
        slug=DEMO_EVENT,
        venue="茶馆 Teahouse, Beijing",
        starts_on=event_day,
        ends_on=event_day,
        season=season,
        registration_opens=timezone.now() - dt.timedelta(days=7),
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
        round_starts=[round1 + dt.timedelta(minutes=100 * i) for i in range(4)],
        staff=[staff],
        referees=referees,
    )
    transition_event(organiser, event, Event.Status.REGISTRATION)
    now = timezone.now()
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
