"""Demo data for the games side: played games on top of the demo league.

Round 1 of the demo event: every table but the last gets a game simulated by the engine,
submitted by its referee, confirmed by the organiser and released; the last table is
in progress on the live sheet (the cards dealt and half the game played). Everything goes
through the services, so the demo also fills the audit log. Idempotent.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext

from engine.simulate import simulate_game
from games import selectors, services, sheet
from games.models import Game, GameVersion
from games.replay import record_meta, record_to_steps
from league.demo import DEMO_CLUB, DEMO_EVENT
from league.models import Event, Round


def seed_games() -> list[str]:
    """Record demo games; returns lines describing what was made."""
    event = Event.objects.filter(club__slug=DEMO_CLUB, slug=DEMO_EVENT).first()
    if event is None:
        return []
    if Game.objects.filter(table__round__event=event).exists():
        return []
    round_ = event.rounds.filter(number=1, status=Round.Status.RELEASED).first()
    if round_ is None:
        return []
    organiser = event.club.organisers.select_related("user").first()
    admin = get_user_model().objects.filter(is_superuser=True).first()
    if organiser is None or admin is None:
        return []
    tables = list(round_.tables.select_related("referee__user").order_by("number"))
    released = 0
    lines: list[str] = []
    for i, table in enumerate(tables):
        game = services.game_for_table(table)
        game = selectors.game_by_id(game.pk)
        handles = list(table.seats.order_by("number").values_list("player__handle", flat=True))
        rules = game.ruleset_spec()
        referee = table.referee.user if table.referee is not None else organiser.user
        confirmer = organiser.user if referee != organiser.user else admin
        if i < len(tables) - 1:
            record = simulate_game(rules, len(handles), 2026 + i, players=handles)
            record["ruleset"] = rules
            record = {
                "format": record.pop("format"),
                "ruleset": record.pop("ruleset"),
                "meta": record_meta(game),
                **record,
            }
            version = services.submit_record(referee, game, record, GameVersion.Source.UPLOAD)
            services.confirm_version(confirmer, game, version.number)
            services.release_game(organiser.user, game)
            released += 1
        else:
            record = simulate_game(rules, len(handles), 4242, players=handles)
            steps = record_to_steps(record)
            state = sheet.sheet_state(referee, game)
            for k, step in enumerate(steps[: max(2, len(steps) // 2)]):
                state = sheet.add_step(
                    referee, game, {**step, "id": f"demo-{k}"}, state["revision"]
                )
            lines.append(
                gettext("live sheet in progress: %(url)s (as %(referee)s)")
                % {"url": f"/games/{game.pk}/sheet/", "referee": referee}
            )
    done = gettext("games: %(n)s released in round 1 of %(event)s")
    return [done % {"n": released, "event": event.name}, *lines]
