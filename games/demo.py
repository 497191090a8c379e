"""Demo data for the games side: played games on top of the demo league.

:func:`seed_games`: round 1 of the demo event — every table but the last gets a game
simulated by the engine, submitted by its referee, confirmed by the organiser and
released; the last table is in progress on the live sheet (the cards dealt and half the
game played).

:func:`play_past_season`: every table of the past season's events (drawn and released by
:func:`league.demo.seed_other_events`) gets a simulated game, submitted, confirmed and
released; then each event is finished. The results pipeline (standings, ratings) runs
over them afterwards (``seed_demo``: the command lives in ``results``).

Everything goes through the services, so the demo also fills the audit log. Idempotent.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext

from engine.simulate import simulate_game
from games import selectors, services, sheet
from games.models import Game, GameVersion
from games.replay import record_meta, record_to_steps
from league.demo import DEMO_CLUB, DEMO_EVENT, past_events
from league.events.services import transition_event
from league.models import Event, Round, Table


def _officials(event: Event) -> tuple[Any, Any] | None:
    """The event's organiser and a second official (the site admin) who confirms what
    the organiser submitted."""
    organiser = event.club.organisers.select_related("user").first()
    admin = get_user_model().objects.filter(is_superuser=True).first()
    if organiser is None or admin is None:
        return None
    return organiser.user, admin


def _play(table: Table, seed: int, organiser: Any, admin: Any) -> Game:
    """A simulated game at ``table``: submitted by its referee, confirmed, released."""
    game = selectors.game_by_id(services.game_for_table(table).pk)
    handles = [s.player.handle for s in table.seats.all()]
    rules = game.ruleset_spec()
    referee = table.referee.user if table.referee is not None else organiser
    confirmer = organiser if referee != organiser else admin
    record = simulate_game(rules, len(handles), seed, players=handles)
    record["ruleset"] = rules
    record["awards"] = [*record.get("awards", []), *_demo_awards(seed, len(handles))]
    record = {
        "format": record.pop("format"),
        "ruleset": record.pop("ruleset"),
        "meta": record_meta(game),
        **record,
    }
    version = services.submit_record(referee, game, record, GameVersion.Source.UPLOAD)
    services.confirm_version(confirmer, game, version.number)
    services.release_game(organiser, game)
    return game


def _demo_awards(seed: int, seats: int) -> list[dict[str, Any]]:
    """A few referees' awards, so the demo's referee figures have something to show."""
    awards: list[dict[str, Any]] = []
    if seed % 4 == 0:
        awards.append({"seat": seed % seats + 1, "kind": "warning", "reason": "spoke at night"})
    if seed % 5 == 0:
        awards.append(
            {"seat": (seed // 5) % seats + 1, "kind": "bonus", "points": 0.3, "reason": "sharp"}
        )
    if seed % 11 == 0:
        awards.append({"seat": (seed // 11) % seats + 1, "kind": "penalty", "points": 0.5})
    return awards


def _tables(round_: Round) -> list[Table]:
    return list(
        round_.tables.select_related("referee__user")
        .prefetch_related("seats__player")
        .order_by("number")
    )


def seed_games() -> list[str]:
    """Record demo games; returns lines describing what was made."""
    event = (
        Event.objects.filter(club__slug=DEMO_CLUB, slug=DEMO_EVENT).select_related("club").first()
    )
    if event is None:
        return []
    if Game.objects.filter(table__round__event=event).exists():
        return []
    round_ = event.rounds.filter(number=1, status=Round.Status.RELEASED).first()
    officials = _officials(event)
    if round_ is None or officials is None:
        return []
    organiser, admin = officials
    tables = _tables(round_)
    lines: list[str] = []
    for i, table in enumerate(tables[:-1]):
        _play(table, 2026 + i, organiser, admin)
    if tables:
        table = tables[-1]
        game = selectors.game_by_id(services.game_for_table(table).pk)
        handles = [s.player.handle for s in table.seats.all()]
        referee = table.referee.user if table.referee is not None else organiser
        record = simulate_game(game.ruleset_spec(), len(handles), 4242, players=handles)
        steps = record_to_steps(record)
        state = sheet.sheet_state(referee, game)
        for k, step in enumerate(steps[: max(2, len(steps) // 2)]):
            state = sheet.add_step(referee, game, {**step, "id": f"demo-{k}"}, state["revision"])
        lines.append(
            gettext("live sheet in progress: %(url)s (as %(referee)s)")
            % {"url": f"/games/{game.pk}/sheet/", "referee": referee}
        )
    done = gettext("games: %(n)s released in round 1 of %(event)s")
    return [done % {"n": max(0, len(tables) - 1), "event": event.name}, *lines]


def play_past_season() -> list[str]:
    """Play and release every table of the past season's events, then finish each."""
    played = 0
    events = past_events()
    for e, event in enumerate(events):
        if event.status == Event.Status.FINISHED:
            continue
        officials = _officials(event)
        if officials is None:
            continue
        organiser, admin = officials
        rounds = event.rounds.filter(status=Round.Status.RELEASED).order_by("number")
        for round_ in rounds:
            for table in _tables(round_):
                if Game.objects.filter(table=table).exists():
                    continue
                _play(table, 1000 * e + 10 * round_.number + table.number, organiser, admin)
                played += 1
        transition_event(organiser, event, Event.Status.FINISHED)
    if not events:
        return []
    return [
        gettext("past season: %(n)s games released, %(events)s events finished")
        % {
            "n": played,
            "events": len(events),
        }
    ]
