"""The engine's scoring keys in the reader's language (see :mod:`league.engine_text`):
point lines (``points.*``), the scorer's warnings, and the errors of scoring profiles,
game summaries, standings and ratings, one entry per key of :mod:`engine.texts.scoring`;
and the results pipeline's own warning (``results.*``, :mod:`results.pipeline.standings`).

Our own English msgids, not the engine's templates: rewording the engine changes no
translation key.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

TEXT: dict[str, Promise] = {
    "points.result/draw": gettext_lazy("drawn game"),
    "points.result/win": gettext_lazy("won: %(winner)s side won"),
    "points.result/loss": gettext_lazy("lost: %(winner)s side won"),
    "points.bonus": gettext_lazy("referee bonus"),
    "points.bonus/note": gettext_lazy("referee bonus: %(note)s"),
    "points.bonus_cap": gettext_lazy("referee bonuses capped at +%(points)s per game"),
    "points.penalty": gettext_lazy("referee penalty"),
    "points.penalty/note": gettext_lazy("referee penalty: %(note)s"),
    "points.warning": gettext_lazy("warning %(count)s"),
    "points.warning/note": gettext_lazy("warning %(count)s: %(note)s"),
    "points.warnings": gettext_lazy("%(count)s warnings in one game: automatic penalty (once)"),
    "points.ejection": gettext_lazy("ejected by the referee"),
    "points.best_guess": gettext_lazy("best guess: named seat %(seat)s (%(player)s), a killer"),
    "points.ci": gettext_lazy(
        "compensation (Ci) for a lost game after a night-1 death: min(%(count)s × %(factor)s / "
        "%(divisor)s, %(factor)s) with %(games)s games"
    ),
    "scoring.in_progress": gettext_lazy(
        "%(label)s: in-progress record skipped (no result to score)"
    ),
    "profile.id": gettext_lazy("profile id must be a non-empty word, got %(value)s"),
    "profile.at_least_one": gettext_lazy("profile %(profile)s: %(key)s must be an integer >= 1"),
    "profile.not_decimal": gettext_lazy("profile %(profile)s: %(key)s must be a finite Decimal"),
    "profile.negative": gettext_lazy("profile %(profile)s: %(key)s must not be negative"),
    "profile.unknown": gettext_lazy("unknown scoring profile '%(profile)s'; known: %(profiles)s"),
    "profile.unknown_keys": gettext_lazy(
        "unknown scoring profile key(s): %(keys)s; allowed: %(allowed)s"
    ),
    "profile.missing_key": gettext_lazy("scoring profile needs '%(key)s'"),
    "profile.base_type": gettext_lazy("scoring profile 'base' must be a profile key string"),
    "profile.id_type": gettext_lazy("scoring profile 'id' must be a string"),
    "profile.not_integer": gettext_lazy(
        "scoring profile '%(key)s' must be an integer, got %(value)s"
    ),
    "profile.not_number": gettext_lazy("scoring profile '%(key)s' must be a number, got %(value)s"),
    "profile.not_finite": gettext_lazy("scoring profile '%(key)s' must be finite, got %(value)s"),
    "summary.status": gettext_lazy("game %(label)s: unknown status %(value)s"),
    "summary.winner/absent": gettext_lazy("game %(label)s: a %(status)s game must have no winner"),
    "summary.winner/present": gettext_lazy("game %(label)s: a %(status)s game must have a winner"),
    "summary.winner_unknown": gettext_lazy("game %(label)s: unknown winner %(value)s"),
    "summary.seats": gettext_lazy("game %(label)s: seats must be present and distinct"),
    "summary.players": gettext_lazy(
        "game %(label)s: players must be non-empty and unique: %(names)s"
    ),
    "summary.role": gettext_lazy("game %(label)s seat %(seat)s: unknown role %(value)s"),
    "summary.result_only": gettext_lazy(
        "game %(label)s: a result-only game has no victim, suspects or ejections"
    ),
    "summary.suspects_no_victim": gettext_lazy(
        "game %(label)s: day-1 suspects without a night-1 victim"
    ),
    "summary.seat_absent": gettext_lazy("game %(label)s: seat %(seat)s is not at the table"),
    "summary.suspects_distinct": gettext_lazy(
        "game %(label)s: suspects must be distinct seats other than the speaker"
    ),
    "summary.suspects_count": gettext_lazy(
        "game %(label)s: more suspects named than the %(count)s killers dealt"
    ),
    "summary.ejected_twice": gettext_lazy("game %(label)s: a seat is ejected twice"),
    "summary.award_kind": gettext_lazy(
        "game %(label)s seat %(seat)s: unknown award kind %(value)s"
    ),
    "summary.award_points": gettext_lazy(
        "game %(label)s seat %(seat)s: award points must be a finite Decimal"
    ),
    "summary.warning_points": gettext_lazy(
        "game %(label)s seat %(seat)s: a warning carries no points"
    ),
    "summary.award_positive": gettext_lazy(
        "game %(label)s seat %(seat)s: a %(kind)s needs positive points"
    ),
    "summary.unknown/role": gettext_lazy("unknown role %(value)s"),
    "summary.unknown/award_kind": gettext_lazy("unknown award kind %(value)s"),
    "summary.unknown/winner": gettext_lazy("unknown winner %(value)s"),
    "standings.ci_range": gettext_lazy("Ci needs 0 <= K <= N, got K=%(count)s, N=%(games)s"),
    "standings.no_player": gettext_lazy("player '%(player)s' has no scored game in this standing"),
    "standings.precedence/empty": gettext_lazy(
        "invalid tie-break precedence: precedence is empty (known metrics: %(known)s)"
    ),
    "standings.precedence/unknown": gettext_lazy(
        "invalid tie-break precedence: unknown metric(s) '%(metrics)s' (known metrics: %(known)s)"
    ),
    "standings.precedence/repeated": gettext_lazy(
        "invalid tie-break precedence: repeated metric(s) '%(repeated)s' (known metrics: %(known)s)"
    ),
    "standings.precedence/lots": gettext_lazy(
        "invalid tie-break precedence: 'lots' must be the last metric (known metrics: %(known)s)"
    ),
    "standings.precedence/unknown+repeated": gettext_lazy(
        "invalid tie-break precedence: unknown metric(s) '%(metrics)s'; repeated metric(s) "
        "'%(repeated)s' (known metrics: %(known)s)"
    ),
    "standings.precedence/unknown+lots": gettext_lazy(
        "invalid tie-break precedence: unknown metric(s) '%(metrics)s'; 'lots' must be the last "
        "metric (known metrics: %(known)s)"
    ),
    "standings.precedence/repeated+lots": gettext_lazy(
        "invalid tie-break precedence: repeated metric(s) '%(repeated)s'; 'lots' must be the last "
        "metric (known metrics: %(known)s)"
    ),
    "standings.precedence/unknown+repeated+lots": gettext_lazy(
        "invalid tie-break precedence: unknown metric(s) '%(metrics)s'; repeated metric(s) "
        "'%(repeated)s'; 'lots' must be the last metric (known metrics: %(known)s)"
    ),
    "ratings.option_number": gettext_lazy("rater option '%(key)s' must be a finite number"),
    "ratings.option_positive": gettext_lazy("rater option '%(key)s' must be positive"),
    "ratings.option_negative": gettext_lazy("rater option '%(key)s' must not be negative"),
    "ratings.option_share": gettext_lazy("rater option '%(key)s' must be between 0 and 1"),
    "ratings.options_unknown": gettext_lazy("unknown rater option(s) %(keys)s; known: %(allowed)s"),
    "ratings.role": gettext_lazy("unknown role %(value)s; expected one of %(roles)s"),
    "ratings.player_role": gettext_lazy(
        "player '%(player)s': unknown role %(value)s; expected one of %(roles)s"
    ),
    "ratings.sides": gettext_lazy(
        "a game needs killers and good players; got %(killer_count)s killer(s) and %(good_count)s "
        "good player(s)"
    ),
    "ratings.winner": gettext_lazy("unknown winner %(value)s; expected one of %(winners)s"),
    "ratings.twice": gettext_lazy("player '%(player)s' sits at the table twice"),
    "ratings.checkpoint": gettext_lazy("checkpoint_every must be at least 1"),
    "ratings.insert_at": gettext_lazy("cannot insert at %(index)s: the history has %(count)s"),
    "ratings.no_game": gettext_lazy("no game %(index)s: the history has %(count)s"),
}

#: The results pipeline's own warning (results.pipeline.standings): a confirmed record
#: that no longer reads is left out of the standings.
RESULTS: dict[str, Promise] = {
    "results.record_skipped": gettext_lazy("game %(game)s: record skipped"),
}
TEXT.update(RESULTS)

WORDS: dict[str, Promise] = {}
