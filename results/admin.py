"""Standings and ratings in the admin: read-only. They are derived from the released
records and written by the pipeline alone (``manage.py rebuild_results`` rebuilds them)."""

from django.contrib import admin

from league.admin import ReadOnlyAdmin
from results.models import (
    EventResults,
    EventStanding,
    PlayerRating,
    RaterCheckpoint,
    RatingPoint,
    RatingsLedger,
    ScoredGame,
    SeasonStanding,
)

admin.site.register(
    [
        EventResults,
        EventStanding,
        SeasonStanding,
        ScoredGame,
        PlayerRating,
        RatingPoint,
        RaterCheckpoint,
        RatingsLedger,
    ],
    ReadOnlyAdmin,
)
