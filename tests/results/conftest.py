"""Results fixtures: fast password hashing and a snapshot of every results table."""

from __future__ import annotations

from typing import Any

import pytest

from results.models import (
    EventStanding,
    PlayerRating,
    RatingPoint,
    ScoredGame,
    SeasonStanding,
)
from results.pipeline.ratings import RATING_COLUMNS
from tests.league.conftest import _language_restored  # noqa: F401 (each test, its language)


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    from django.core.cache import cache

    cache.clear()


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every derived row, in a stable order (what a fresh rebuild must reproduce)."""
    return {
        "standings": list(
            EventStanding.objects.order_by("event_id", "position").values_list(
                "event_id",
                "position",
                "handle",
                "player_id",
                "rank",
                "tied",
                "points",
                "wins",
                "games",
                "awards",
                "ci",
                "metrics",
                "above_next",
                "items",
            )
        ),
        "seasons": list(
            SeasonStanding.objects.order_by("season_id", "player_id").values_list(
                "season_id", "player_id", "events", "games", "wins", "points"
            )
        ),
        "points": list(
            RatingPoint.objects.order_by("played_on", "game_id", "seat").values_list(
                "player_id",
                "game_id",
                "played_on",
                "seat",
                "role",
                "outcome",
                "rating",
                "uncertainty",
                "event_id",
                "club_id",
            )
        ),
        "ratings": list(PlayerRating.objects.order_by("player_id").values_list(*RATING_COLUMNS)),
        "scored": list(
            ScoredGame.objects.order_by("game_id").values_list(
                "game_id", "version_id", "event_id", "club_id", "played_on", "winner", "players"
            )
        ),
    }
