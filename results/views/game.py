"""A game's public page: its record told night by night — who voted for whom ballot by
ballot, last words and suspects, ejections — the awards with their reasons, each
player's points and reasons, and the protests ruled on (``games.protests``) — only when
the request's ``games.permissions.Access`` allows it (released, or an official of the
game), never otherwise: not even who held which card. Rulings appear once the game is
released, never before."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from engine.errors import EngineError
from engine.record import parse_record
from engine.scoring import get_profile, score_game, summarize
from games import selectors
from games.models import Game
from games.permissions import access_for
from games.protests import public_protests
from league.middleware import use_club_timezone
from league.models import Player
from results.account import WINNER_TEXT, account, awards
from results.selectors import ROLE_LABELS


@require_GET
def game_account(request: HttpRequest, pk: int) -> HttpResponse:
    """A released game's record as a story, with each player's points and reasons."""
    try:
        game = selectors.game_by_id(pk)
    except Game.DoesNotExist:
        raise Http404 from None
    access = access_for(request)
    if not access.can_view_game(game):
        raise Http404
    use_club_timezone(game.the_club)  # rulings' times as on the game's other pages
    secrets = access.can_see_secrets(game)
    record = selectors.confirmed_record(game) if secrets else None
    context: dict[str, Any] = {"game": game, "record": record, "released": game.released}
    if record is not None:
        handles = [s.get("player") for s in record.get("seats", [])]
        names = dict(
            Player.objects.filter(handle__in=handles).values_list("handle", "display_name")
        )
        event = game.event
        profile = get_profile(event.scoring_profile if event else "club-v1")
        try:
            score = score_game(summarize(parse_record(record), str(game.pk)), profile)
        except (EngineError, ValueError):
            score = None
        seats = []
        points = {p.seat: p for p in score.players} if score else {}
        for s in record.get("seats", []):
            ps = points.get(s["seat"])
            seats.append(
                {
                    "seat": s["seat"],
                    "handle": s["player"],
                    "name": names.get(s["player"], s["player"]),
                    "role": s["role"],
                    "role_label": ROLE_LABELS.get(s["role"], s["role"]),
                    "points": ps.total if ps else None,
                    "items": ps.items if ps else (),
                }
            )
        winner = (record.get("result") or {}).get("winner")
        context.update(
            {
                "phases": account(record, names),
                "awards": awards(record, names),
                "protests": public_protests(game),
                "seats": seats,
                "winner_text": _(WINNER_TEXT[winner]) if winner in WINNER_TEXT else "",
                "profile": profile.key,
            }
        )
    return render(request, "results/game.html", context)
