"""The championship browser test's service-side steps: a new event in the demo club, the
games of a stage recorded through the games services, and the engine's own computation
of the event from the released records (formats.md §1)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from engine.formats.stages import (
    Entry,
    EntryKind,
    EventOutcome,
    StageGames,
    StageSpec,
    compute_event,
)
from engine.record import parse_record
from engine.scoring import get_profile, summarize
from engine.simulate import simulate_game
from engine.standings import DEFAULT_PRECEDENCE
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game, GameVersion
from games.replay import record_meta
from league.clubs.models import Club, Player, Referee
from league.demo import DEMO_CLUB
from league.events.models import Event, Registration, Round
from league.events.services import create_event, transition_event
from results.models import EventResults

#: The stages the test sets on the page, as the engine takes them (name, rounds,
#: multiplier, carry, top N or None for everyone, seated as a final table).
STAGES: list[dict[str, Any]] = [
    {"name": "qualifying", "rounds": 3, "multiplier": "1", "carry": "1", "top": None},
    {"name": "semi-final", "rounds": 2, "multiplier": "1.25", "carry": "0.5", "top": 20},
    {"name": "final", "rounds": 3, "multiplier": "1.5", "carry": "1", "top": 10, "final": True},
]


def organiser() -> User:
    return get_user_model().objects.get(username="organiser")


def championship(players: int = 40) -> Event:
    """The “Demo Championship” in the demo club: the demo's referees, ``players`` of the
    demo's players registered and checked in, registration open."""
    org = organiser()
    club = Club.objects.get(slug=DEMO_CLUB)
    day = timezone.localdate() + dt.timedelta(days=10)
    event = create_event(
        org,
        club,
        name="Demo Championship",
        slug="demo-championship",
        venue="茶馆 Teahouse, Beijing",
        starts_on=day,
        ends_on=day,
        registration_opens=timezone.now() - dt.timedelta(days=1),
        registration_closes=timezone.now() + dt.timedelta(days=9),
        rounds_count=3,
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
        referees=list(Referee.objects.order_by("pk")),
    )
    transition_event(org, event, Event.Status.REGISTRATION)
    chosen = list(Player.objects.order_by("pk")[:players])
    now = timezone.now()
    Registration.objects.bulk_create(
        Registration(event=event, player=p, checked_in_at=now) for p in chosen
    )
    return event


def record_round(event: Event, number: int, seed: int) -> list[Game]:
    """Every table of released round ``number``: a game simulated by the engine, submitted
    by its referee (the organiser where the table has none), confirmed by another
    official and released by the organiser — as ``games.demo`` does."""
    org = organiser()
    admin = get_user_model().objects.filter(is_superuser=True).first()
    assert admin is not None
    rnd = Round.objects.get(event=event, number=number)
    assert rnd.status == Round.Status.RELEASED, f"round {number} is {rnd.status}"
    games = []
    for table in rnd.tables.select_related("referee__user").order_by("number"):
        game = game_selectors.game_by_id(game_services.game_for_table(table).pk)
        handles = list(table.seats.order_by("number").values_list("player__handle", flat=True))
        rules = game.ruleset_spec()
        record = simulate_game(rules, len(handles), seed + table.number, players=handles)
        record = {
            "format": record.pop("format"),
            "ruleset": rules,
            "meta": record_meta(game),
            **{k: v for k, v in record.items() if k != "ruleset"},
        }
        referee = table.referee.user if table.referee is not None else org
        confirmer = org if referee != org else admin
        version = game_services.submit_record(referee, game, record, GameVersion.Source.UPLOAD)
        game_services.confirm_version(confirmer, game, version.number)
        games.append(game_services.release_game(org, game))
    return games


def released_summaries(event: Event) -> dict[int, list[Any]]:
    """The event's released games, summarised from their confirmed records, by round
    number (in order of round, table and game)."""
    out: dict[int, list[Any]] = {}
    games = (
        Game.objects.filter(table__round__event=event, status=Game.Status.RELEASED)
        .select_related("table__round")
        .order_by("table__round__number", "table__number", "pk")
    )
    for game in games:
        record = game_selectors.confirmed_record(game)
        summary = summarize(parse_record(record), str(game.pk))
        assert game.table is not None
        out.setdefault(game.table.round.number, []).append(summary)
    return out


def engine_outcome(event: Event, stages: int = len(STAGES)) -> EventOutcome:
    """The engine's computation of the first ``stages`` stages from the released records,
    with the stages' own rules (entries by the top N, so the frozen cuts are checked
    against the engine, not taken from the site) and the event's lots seed."""
    profile = get_profile(event.scoring_profile or "club-v1")
    by_round = released_summaries(event)
    inputs = []
    first = 1
    for stage in STAGES[:stages]:
        numbers = range(first, first + stage["rounds"])
        first += stage["rounds"]
        entry = (
            Entry(EntryKind.ALL) if stage["top"] is None else Entry(EntryKind.TOP, top=stage["top"])
        )
        spec = StageSpec(
            stage["name"],
            profile=profile,
            multiplier=Decimal(stage["multiplier"]),
            carry=Decimal(stage["carry"]),
            entry=entry,
        )
        inputs.append(StageGames(spec, tuple(s for n in numbers for s in by_round.get(n, []))))
    seed = EventResults.objects.get(event=event).seed
    return compute_event(
        inputs,
        profile=profile,
        precedence=tuple(event.tiebreak_precedence or DEFAULT_PRECEDENCE),
        seed=seed,
    )


def names(handles: Any) -> list[str]:
    """Display names of handles, in the given order."""
    by_handle = dict(Player.objects.values_list("handle", "display_name"))
    return [by_handle[h] for h in handles]
