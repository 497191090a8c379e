"""``{% game_protests game as p %}``: a game's protests as the request's reader may see
them (``games.protests.visible_protests``), whether they may rule on them and whether
they may file one — for the game page's protests section."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from games.permissions import access_for
from games.protests import Filer, may_file, may_rule, visible_protests

register = template.Library()


@register.simple_tag(takes_context=True)
def game_protests(context: Any, game: Game) -> dict[str, Any]:
    request = context.get("request")
    access = access_for(request)
    filer = Filer.from_user(getattr(request, "user", None))
    return {
        "protests": visible_protests(access, game, filer),
        "may_rule": may_rule(access, game),
        "may_file": game.status == Game.Status.RELEASED and may_file(filer, game, access),
    }
