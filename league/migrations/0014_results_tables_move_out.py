"""The standings and ratings tables leave the ``league`` app for the ``results`` app
(issue 17): state only. The tables, their rows, indexes and constraints stay exactly as
they are (``results.0001_initial`` takes them over under the same ``league_*`` names).

Runs after ``games.0007`` because that migration reads ``league.EventStanding`` and
``league.EventResults`` through the historical models.
"""

from django.db import migrations

MOVED = (
    "EventStanding",
    "SeasonStanding",
    "EventResults",
    "ScoredGame",
    "RatingPoint",
    "PlayerRating",
    "RaterCheckpoint",
    "RatingsLedger",
)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0013_draw_job_error_is_a_note"),
        ("games", "0007_point_lines_as_codes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name) for name in MOVED],
            database_operations=[],
        )
    ]
