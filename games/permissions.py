"""Who may see and do what with a game. Pages, the API and exports all ask here; every
check fails closed.

- The **officials** of a game are its referee and the organisers of its event (for a
  stand-alone game: of its club); site admins organise everything (``league.permissions``).
- Until a game is **released**, its roles — the record, its versions, their violations
  and outcomes, the live sheet — are visible to its officials only.
- Officials submit and correct; a *different* official confirms; organisers release.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from league.permissions import (
    can_manage_event,
    can_view_event,
    is_club_organiser,
    visible_round_statuses,
)


def _active(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def is_game_referee(user: Any, game: Game) -> bool:
    if not _active(user):
        return False
    referee = game.game_referee
    return referee is not None and referee.user_id == user.pk


def is_game_organiser(user: Any, game: Game) -> bool:
    if not _active(user):
        return False
    cache: dict[int, bool] = game.__dict__.setdefault("_organiser_cache", {})
    if user.pk not in cache:
        event = game.event
        if event is not None:
            cache[user.pk] = can_manage_event(user, event)
        else:
            cache[user.pk] = is_club_organiser(user, game.the_club)
    return cache[user.pk]


def is_game_official(user: Any, game: Game) -> bool:
    return is_game_referee(user, game) or is_game_organiser(user, game)


def can_see_secrets(user: Any, game: Game) -> bool:
    """Roles, the record, versions, violations, the sheet: released, or an official."""
    if game.status == Game.Status.RELEASED:
        return True
    return is_game_official(user, game)


def can_view_game(user: Any, game: Game) -> bool:
    """That the game exists, its seating and status (never its roles before release)."""
    if is_game_official(user, game):
        return True
    event = game.event
    if event is None:
        return True
    if not can_view_event(user, event):
        return False
    round_ = game.round
    return round_ is not None and round_.status in visible_round_statuses(user, event)


def can_submit(user: Any, game: Game) -> bool:
    return is_game_official(user, game)


def can_confirm(user: Any, game: Game) -> bool:
    """May confirm some version; whether it is their own submission is checked per version."""
    return is_game_official(user, game)


def can_release(user: Any, game: Game) -> bool:
    return is_game_organiser(user, game)
