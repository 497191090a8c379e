"""factory_boy factories for the league models (the games tests import these too)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import (
    Club,
    ClubOrganiser,
    Event,
    Membership,
    Player,
    Referee,
    Registration,
    Round,
)

PASSWORD = "pw-for-tests-only"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            obj.save()


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Beijing"


class ClubOrganiserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubOrganiser

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"玩家 {n}")
    handle = factory.Sequence(lambda n: f"player-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    player = factory.SubFactory(PlayerFactory)
    club = factory.SubFactory(ClubFactory)
    joined = dt.date(2025, 1, 1)


class RefereeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Referee

    user = factory.SubFactory(UserFactory)
    grade = 3


class EventFactory(factory.django.DjangoModelFactory):
    """An event with its round rows (``Round`` 1..rounds_count, one hour apart)."""

    class Meta:
        model = Event
        skip_postgeneration_save = True

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")
    venue = "Teahouse"
    starts_on = factory.LazyFunction(lambda: timezone.localdate() + dt.timedelta(days=7))
    ends_on = factory.LazyAttribute(lambda e: e.starts_on + dt.timedelta(days=1))
    rounds_count = 3
    min_table = 8
    max_table = 12
    status = Event.Status.REGISTRATION

    @factory.post_generation
    def rounds(obj: Event, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create:
            return
        start = timezone.make_aware(dt.datetime.combine(obj.starts_on, dt.time(10, 0)))
        Round.objects.bulk_create(
            Round(event=obj, number=n, starts_at=start + dt.timedelta(hours=n - 1))
            for n in range(1, obj.rounds_count + 1)
        )


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)


def registered_players(event: Event, n: int, *, checked_in: bool = True) -> list[Player]:
    """``n`` new players registered (and by default checked in) for ``event``."""
    players = PlayerFactory.create_batch(n)
    now = timezone.now() if checked_in else None
    Registration.objects.bulk_create(
        Registration(event=event, player=p, checked_in_at=now) for p in players
    )
    return players


def lay_out(
    rnd: Round, players: list[Player], *, per_table: int = 8, status: str = "draft"
) -> list[Any]:
    """Seat ``players`` in order at tables of ``per_table`` (test fixtures only: no engine)."""
    from league.models import Seat, Table

    tables = Table.objects.bulk_create(
        Table(round=rnd, number=j + 1) for j in range(len(players) // per_table)
    )
    Seat.objects.bulk_create(
        Seat(round=rnd, table=tables[i // per_table], player=p, number=i % per_table + 1)
        for i, p in enumerate(players[: len(tables) * per_table])
    )
    rnd.status = status
    rnd.released_at = timezone.now() if status == "released" else None
    rnd.save()
    return tables
