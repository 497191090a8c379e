"""The standings and ratings tables, taken over from the ``league`` app (issue 17).

State only: the tables exist already (``league.0003`` created them; ``league.0014``
forgot them from the league's state) and keep their names, rows, indexes and
constraints. Only the content types follow the models, so that admin permissions and log
entries keep pointing at them.
"""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

MOVED = (
    "eventresults",
    "eventstanding",
    "seasonstanding",
    "scoredgame",
    "playerrating",
    "ratingpoint",
    "ratercheckpoint",
    "ratingsledger",
)


def _relabel(apps: Any, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not ContentType.objects.filter(app_label=new, model=model).exists():
            ContentType.objects.filter(app_label=old, model=model).update(app_label=new)


def _content_types_to_results(apps: Any, schema_editor: Any) -> None:
    _relabel(apps, "league", "results")


def _content_types_to_league(apps: Any, schema_editor: Any) -> None:
    _relabel(apps, "results", "league")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("league", "0014_results_tables_move_out"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RaterCheckpoint",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("games", models.PositiveIntegerField(unique=True)),
                        ("played_on", models.DateField(blank=True, null=True)),
                        ("game_id", models.BigIntegerField(blank=True, null=True)),
                        ("state", models.BinaryField()),
                    ],
                    options={
                        "db_table": "league_ratercheckpoint",
                    },
                ),
                migrations.CreateModel(
                    name="EventResults",
                    fields=[
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="results_state",
                                serialize=False,
                                to="league.event",
                            ),
                        ),
                        ("stale", models.BooleanField(default=True, verbose_name="stale")),
                        ("stale_since", models.DateTimeField(blank=True, null=True)),
                        ("version", models.PositiveIntegerField(default=0)),
                        ("seed", models.BigIntegerField(default=0)),
                        ("profile", models.CharField(blank=True, max_length=60)),
                        ("precedence", models.JSONField(blank=True, default=list)),
                        ("games", models.PositiveIntegerField(default=0)),
                        ("players", models.PositiveIntegerField(default=0)),
                        ("warnings", models.JSONField(blank=True, default=list)),
                        ("digest", models.CharField(blank=True, max_length=64)),
                        ("computed_at", models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        "verbose_name": "event results",
                        "db_table": "league_eventresults",
                        "indexes": [
                            models.Index(
                                condition=models.Q(("stale", True)),
                                fields=["stale"],
                                name="event_results_stale",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="PlayerRating",
                    fields=[
                        (
                            "player",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="rating",
                                serialize=False,
                                to="league.player",
                            ),
                        ),
                        ("rating", models.FloatField(verbose_name="rating")),
                        ("uncertainty", models.FloatField(verbose_name="uncertainty")),
                        ("games", models.PositiveIntegerField(default=0, verbose_name="games")),
                        ("wins", models.PositiveIntegerField(default=0, verbose_name="wins")),
                        ("draws", models.PositiveIntegerField(default=0, verbose_name="draws")),
                        ("killer_rating", models.FloatField()),
                        ("killer_games", models.PositiveIntegerField(default=0)),
                        ("killer_wins", models.PositiveIntegerField(default=0)),
                        ("police_rating", models.FloatField()),
                        ("police_games", models.PositiveIntegerField(default=0)),
                        ("police_wins", models.PositiveIntegerField(default=0)),
                        ("civilian_rating", models.FloatField()),
                        ("civilian_games", models.PositiveIntegerField(default=0)),
                        ("civilian_wins", models.PositiveIntegerField(default=0)),
                        ("last_game_id", models.BigIntegerField(blank=True, null=True)),
                        ("last_played", models.DateField(blank=True, null=True)),
                    ],
                    options={
                        "db_table": "league_playerrating",
                        "indexes": [
                            models.Index(fields=["-rating", "player"], name="player_rating_rank"),
                            models.Index(
                                fields=["-killer_rating", "player"], name="player_rating_killer"
                            ),
                            models.Index(
                                fields=["-police_rating", "player"], name="player_rating_police"
                            ),
                            models.Index(
                                fields=["-civilian_rating", "player"], name="player_rating_civilian"
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingsLedger",
                    fields=[
                        (
                            "id",
                            models.PositiveSmallIntegerField(
                                default=1, primary_key=True, serialize=False
                            ),
                        ),
                        ("games", models.PositiveIntegerField(default=0)),
                        ("computed_at", models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        "db_table": "league_ratingsledger",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("id", 1)), name="single_ratings_ledger"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="EventStanding",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("position", models.PositiveIntegerField()),
                        ("handle", models.CharField(max_length=60)),
                        ("rank", models.PositiveIntegerField(verbose_name="rank")),
                        ("tied", models.BooleanField(default=False, verbose_name="tied")),
                        (
                            "points",
                            models.DecimalField(
                                decimal_places=2, max_digits=10, verbose_name="points"
                            ),
                        ),
                        ("wins", models.PositiveIntegerField(verbose_name="wins")),
                        ("games", models.PositiveIntegerField(verbose_name="games")),
                        (
                            "awards",
                            models.DecimalField(
                                decimal_places=2, max_digits=10, verbose_name="awards"
                            ),
                        ),
                        (
                            "ci",
                            models.DecimalField(
                                decimal_places=2, max_digits=10, verbose_name="compensation"
                            ),
                        ),
                        ("metrics", models.JSONField(default=dict)),
                        ("above_next", models.JSONField(blank=True, default=dict)),
                        ("items", models.JSONField(default=list)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="standing_rows",
                                to="league.event",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="standing_rows",
                                to="league.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "league_eventstanding",
                        "ordering": ["event", "position"],
                        "indexes": [
                            models.Index(fields=["player", "event"], name="standing_player_event")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("event", "position"), name="unique_standing_position"
                            ),
                            models.UniqueConstraint(
                                fields=("event", "handle"), name="unique_standing_handle"
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingPoint",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("game_id", models.BigIntegerField()),
                        ("played_on", models.DateField()),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("role", models.CharField(max_length=10)),
                        ("outcome", models.CharField(max_length=5)),
                        ("rating", models.FloatField()),
                        ("uncertainty", models.FloatField()),
                        (
                            "club",
                            models.ForeignKey(
                                db_constraint=False,
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="league.club",
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                blank=True,
                                db_constraint=False,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="league.event",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                db_constraint=False,
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_points",
                                to="league.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "league_ratingpoint",
                        "indexes": [
                            models.Index(
                                fields=["player", "played_on", "game_id"],
                                name="rating_point_player",
                            ),
                            models.Index(
                                fields=["played_on", "game_id", "seat"], name="rating_point_order"
                            ),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("game_id", "player"), name="unique_rating_point"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="ScoredGame",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("game_id", models.BigIntegerField(unique=True)),
                        ("version_id", models.BigIntegerField()),
                        ("played_on", models.DateField()),
                        ("winner", models.CharField(max_length=10)),
                        ("players", models.PositiveSmallIntegerField()),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="league.club",
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="league.event",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "league_scoredgame",
                        "indexes": [
                            models.Index(fields=["played_on", "game_id"], name="scored_game_order")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="SeasonStanding",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("events", models.PositiveIntegerField(default=0)),
                        ("games", models.PositiveIntegerField(default=0)),
                        ("wins", models.PositiveIntegerField(default=0)),
                        ("points", models.DecimalField(decimal_places=2, default=0, max_digits=10)),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="season_rows",
                                to="league.player",
                            ),
                        ),
                        (
                            "season",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="standing_rows",
                                to="league.season",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "league_seasonstanding",
                        "indexes": [
                            models.Index(
                                fields=["season", "-points"], name="season_standing_points"
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("season", "player"), name="unique_season_standing"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_types_to_results, _content_types_to_league),
    ]
