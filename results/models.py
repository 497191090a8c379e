"""Read tables for standings, rankings and ratings (issue 8).

The results pipeline (:mod:`results.pipeline`) is the only writer. Everything here is
derived from the confirmed, released game records and can be rebuilt from them at any
time (``manage.py rebuild_results``): nothing here is a fact of its own. Games are
referred to by plain integer ids (``game_id``), never by a foreign key: the rows are
rewritten in bulk and a game's deletion is the pipeline's business (the heal task).

The tables were created by the ``league`` app and keep their names (``league_*``): the
models moved here in issue 17 by a state-only migration (``results/migrations/0001``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.models import Club, Event, Player, Referee, Season


class EventResults(models.Model):
    """Where an event's standings stand: computed (when, from how many games) or stale.

    ``stale`` is set as soon as a game of the event changes and cleared by the pipeline
    once the rows below are recomputed; a beat task heals events left stale when no
    worker was running. ``seed`` is the drawing of lots, fixed on first computation so
    the lots never move between recomputations.
    """

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="results_state"
    )
    stale = models.BooleanField(_("stale"), default=True)
    stale_since = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(default=0)
    profile = models.CharField(max_length=60, blank=True)
    precedence = models.JSONField(default=list, blank=True)
    games = models.PositiveIntegerField(default=0)
    players = models.PositiveIntegerField(default=0)
    warnings = models.JSONField(default=list, blank=True)
    #: SHA-256 of what was written: an unchanged recomputation writes nothing.
    digest = models.CharField(max_length=64, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "league_eventresults"
        verbose_name = _("event results")
        indexes = [
            models.Index(fields=["stale"], condition=Q(stale=True), name="event_results_stale")
        ]


class EventStanding(models.Model):
    """One line of an event's standings (released games only), in ladder order."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standing_rows")
    position = models.PositiveIntegerField()
    #: The record's player handle; ``player`` is None if no such player exists (any more).
    handle = models.CharField(max_length=60)
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="standing_rows"
    )
    rank = models.PositiveIntegerField(_("rank"))
    tied = models.BooleanField(_("tied"), default=False)
    points = models.DecimalField(_("points"), max_digits=10, decimal_places=2)
    wins = models.PositiveIntegerField(_("wins"))
    games = models.PositiveIntegerField(_("games"))
    awards = models.DecimalField(_("awards"), max_digits=10, decimal_places=2)
    ci = models.DecimalField(_("compensation"), max_digits=10, decimal_places=2)
    #: Every metric of the event's ladder: {key: decimal string}.
    metrics = models.JSONField(default=dict)
    #: Why this player stands above the next one: {"metric", "higher", "lower", "level_on"}
    #: (metric None: tied on the whole ladder); empty on the last line.
    above_next = models.JSONField(default=dict, blank=True)
    #: Point breakdown: [{"game": id, "kind", "points": str, "reason"}], in game order.
    items = models.JSONField(default=list)

    class Meta:
        db_table = "league_eventstanding"
        ordering = ["event", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "position"], name="unique_standing_position"),
            models.UniqueConstraint(fields=["event", "handle"], name="unique_standing_handle"),
        ]
        indexes = [models.Index(fields=["player", "event"], name="standing_player_event")]


class StageStanding(models.Model):
    """One line of a stage's cumulative standing (formats.md §1), over the stage's
    entrants, in ladder order. The rows of a hidden stage exist for the organisers; the
    selectors show them to nobody else until the stage is finished."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stage_rows")
    #: The stage's ``position`` (0: the first; an event without stage rows has only 0).
    stage = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField()
    handle = models.CharField(max_length=60)
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    rank = models.PositiveIntegerField(_("rank"))
    tied = models.BooleanField(_("tied"), default=False)
    #: The cumulative total after this stage.
    points = models.DecimalField(_("points"), max_digits=12, decimal_places=4)
    #: This stage's points alone, multiplied.
    stage_points = models.DecimalField(max_digits=12, decimal_places=4)
    games = models.PositiveIntegerField(_("games"))
    #: Every cumulative ladder metric: {key: decimal string}.
    metrics = models.JSONField(default=dict)
    #: Why above the next line, as :class:`EventStanding` says it.
    above_next = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "league_stagestanding"
        ordering = ["event", "stage", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "stage", "position"], name="unique_stage_standing_position"
            ),
            models.UniqueConstraint(
                fields=["event", "stage", "handle"], name="unique_stage_standing_handle"
            ),
        ]


class SeasonStanding(models.Model):
    """A player's totals over a season's events (released games only), and, when the
    season is a circuit, their circuit points and place (formats.md §3)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standing_rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_rows")
    events = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    circuit_points = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    circuit_rank = models.PositiveIntegerField(null=True, blank=True)
    circuit_tied = models.BooleanField(default=False)
    #: Enough events to be ranked (the profile's ``min_events``).
    circuit_ranked = models.BooleanField(default=False)
    #: Each event: [{"event": id, "rank", "points": str, "counted": bool, "reason": code}].
    circuit_results = models.JSONField(default=list, blank=True)
    #: Why above the next line of the circuit: {"criterion", "higher", "lower"}.
    circuit_above_next = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "league_seasonstanding"
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="unique_season_standing")
        ]
        indexes = [models.Index(fields=["season", "-points"], name="season_standing_points")]


class SeasonCircuit(models.Model):
    """Where a season's circuit standing stands: when it was last computed and what kept
    it from being computed (``warnings``: the engine's refusals as ``{"code", "params"}``,
    shown in the reader's language on the season page; empty when all went well)."""

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, primary_key=True, related_name="circuit_state"
    )
    warnings = models.JSONField(default=list, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)


class ScoredGame(models.Model):
    """A released game the pipeline has taken into account, and from which version.

    The heal task compares this with the games' confirmed versions to find anything the
    pipeline missed (a worker that was down, a crash between commit and enqueue).
    """

    game_id = models.BigIntegerField(unique=True)
    version_id = models.BigIntegerField()
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    played_on = models.DateField()
    winner = models.CharField(max_length=10)
    players = models.PositiveSmallIntegerField()

    class Meta:
        db_table = "league_scoredgame"
        indexes = [models.Index(fields=["played_on", "game_id"], name="scored_game_order")]


class PlayerRating(models.Model):
    """A player's current rating (after their last released game), overall and per role."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    rating = models.FloatField(_("rating"))
    uncertainty = models.FloatField(_("uncertainty"))
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    killer_rating = models.FloatField()
    killer_games = models.PositiveIntegerField(default=0)
    killer_wins = models.PositiveIntegerField(default=0)
    police_rating = models.FloatField()
    police_games = models.PositiveIntegerField(default=0)
    police_wins = models.PositiveIntegerField(default=0)
    civilian_rating = models.FloatField()
    civilian_games = models.PositiveIntegerField(default=0)
    civilian_wins = models.PositiveIntegerField(default=0)
    last_game_id = models.BigIntegerField(null=True, blank=True)
    last_played = models.DateField(null=True, blank=True)

    class Meta:
        db_table = "league_playerrating"
        indexes = [
            models.Index(fields=["-rating", "player"], name="player_rating_rank"),
            models.Index(fields=["-killer_rating", "player"], name="player_rating_killer"),
            models.Index(fields=["-police_rating", "player"], name="player_rating_police"),
            models.Index(fields=["-civilian_rating", "player"], name="player_rating_civilian"),
        ]


class RatingPoint(models.Model):
    """A player's rating after one released game, with what they played in it.

    One row per player per rated game, in the global order (``played_on``, ``game_id``):
    the player page's chart, games list and per-role record, and the rater's input when
    a correction replays history from an old game.
    """

    # Foreign keys without database constraints: millions of derived rows are rewritten by
    # COPY on a rebuild, and per-row constraint checks would dominate; the ORM still
    # cascades deletes, and a rebuild restores everything from the records.
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_points",
        db_constraint=False,
        db_index=False,  # the (player, played_on, game_id) index serves it
    )
    game_id = models.BigIntegerField()
    played_on = models.DateField()
    seat = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=10)
    #: win, loss or draw
    outcome = models.CharField(max_length=5)
    rating = models.FloatField()
    uncertainty = models.FloatField()
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )

    class Meta:
        db_table = "league_ratingpoint"
        constraints = [
            models.UniqueConstraint(fields=["game_id", "player"], name="unique_rating_point")
        ]
        indexes = [
            models.Index(fields=["player", "played_on", "game_id"], name="rating_point_player"),
            models.Index(fields=["played_on", "game_id", "seat"], name="rating_point_order"),
        ]


class RaterCheckpoint(models.Model):
    """The rater's whole state after the first ``games`` rated games (every N games), so a
    correction replays from the nearest checkpoint instead of from the beginning."""

    games = models.PositiveIntegerField(unique=True)
    #: Order key of the last game included (None for the empty start).
    played_on = models.DateField(null=True, blank=True)
    game_id = models.BigIntegerField(null=True, blank=True)
    state = models.BinaryField()

    class Meta:
        db_table = "league_ratercheckpoint"


class RatingsLedger(models.Model):
    """The single row locked while ratings are written (serialises concurrent updates)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    games = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "league_ratingsledger"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="single_ratings_ledger")]


# --- analytics (issue 21) -------------------------------------------------------------------


class AnalyticsGame(models.Model):
    """What the analytics read from one released game (``engine.analytics.GameFacts``),
    written by the pipeline when the game is processed: one row per released game with a
    result. ``roles`` is one letter per seat in seat order (``k``, ``p``, ``c``), so the
    per-scope figures are recomputed from these rows without reading a record."""

    game_id = models.BigIntegerField(unique=True)
    version_id = models.BigIntegerField()
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    ruleset = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    winner = models.CharField(max_length=10)
    roles = models.CharField(max_length=40)
    night1_victim = models.PositiveSmallIntegerField(null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    bonuses = models.PositiveSmallIntegerField(default=0)
    penalties = models.PositiveSmallIntegerField(default=0)
    referee = models.ForeignKey(
        Referee, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    protests = models.PositiveSmallIntegerField(default=0)
    protests_upheld = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["club", "season", "ruleset"], name="analytics_game_scope"),
            models.Index(fields=["season", "ruleset"], name="analytics_game_season"),
            models.Index(fields=["ruleset"], name="analytics_game_ruleset"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(winner__in=["good", "killers", "draw"]), name="analytics_game_winner"
            ),
            models.CheckConstraint(
                condition=Q(protests_upheld__lte=models.F("protests")),
                name="analytics_game_protests",
            ),
        ]


class AnalyticsSeat(models.Model):
    """A known player's seat in a released game (the per-player figures: role win rates
    and head-to-head are counted from these rows, one indexed query per page), with the
    game's scope columns copied so the filters need no join."""

    game_id = models.BigIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=10)
    winner = models.CharField(max_length=10)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="+", db_index=False
    )
    ruleset = models.CharField(max_length=40)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game_id", "player"], name="unique_analytics_seat")
        ]
        indexes = [models.Index(fields=["player", "game_id"], name="analytics_seat_player")]


class AnalyticsScope(models.Model):
    """One filter combination the figures are stored for (``scope``: ``all``, or
    ``club=ID``, ``season=ID``, ``ruleset=ID`` joined by ``&`` in that order): how many
    games it holds and when its figures were computed."""

    scope = models.CharField(max_length=120, unique=True)
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    ruleset = models.CharField(max_length=40, blank=True)
    games = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField()


class AnalyticsFigure(models.Model):
    """One figure of a scope: a proportion (``successes`` of ``n``) or a mean (of ``n``
    values summing to ``total``), its estimate (``value``) and 95 % interval (``low``,
    ``high``; None for a mean of fewer than 2 values; rows with n = 0 are not kept).
    ``params`` name what it is about
    (``ruleset``, ``size``, ``side``, ``seat``, ``measure``); ``referee`` for the
    per-referee figures."""

    class Kind(models.TextChoices):
        SIDE = "side", _("side win rate")
        SEAT = "seat", _("seat win rate")
        VICTIM = "victim", _("night-1 victim's seat")
        REFEREE = "referee", _("referee")

    scope = models.ForeignKey(AnalyticsScope, on_delete=models.CASCADE, related_name="figures")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    key = models.CharField(max_length=80)
    params = models.JSONField(default=dict)
    referee = models.ForeignKey(
        Referee, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    n = models.PositiveIntegerField()
    successes = models.PositiveIntegerField(null=True, blank=True)
    #: A mean's running sums: of the values and of their squares (kept game by game).
    total = models.FloatField(default=0.0)
    squares = models.FloatField(default=0.0)
    value = models.FloatField(null=True, blank=True)
    low = models.FloatField(null=True, blank=True)
    high = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["scope", "kind", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "kind", "key"], name="unique_analytics_figure"
            ),
            models.CheckConstraint(
                condition=Q(successes__isnull=True) | Q(successes__lte=models.F("n")),
                name="analytics_figure_successes",
            ),
            models.CheckConstraint(
                condition=Q(low__isnull=True) | Q(low__lte=models.F("high")),
                name="analytics_figure_interval",
            ),
        ]
