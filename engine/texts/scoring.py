"""Templates: scoring (see engine.texts).

Point lines (``points.*``, a :class:`engine.scoring.PointItem`'s ``code``: one code per
line kind, with a ``note`` variant when the referee wrote one), the scorer's warnings,
and the user-fixable errors of scoring profiles (``profile.*``), game summaries
(``summary.*``), standings (``standings.*``) and ratings (``ratings.*``).

An invalid tie-break precedence names each of its problems in one sentence: its variant
lists them in a fixed order joined by ``+`` (``unknown+lots``), so every combination is
one whole sentence a translator sees.
"""

from itertools import combinations

_PRECEDENCE_PROBLEMS = {
    "unknown": "unknown metric(s) '{metrics}'",
    "repeated": "repeated metric(s) '{repeated}'",
    "lots": "'lots' must be the last metric",
}


def _precedence_templates() -> dict[str, str]:
    """``standings.precedence/<problems>``: every combination of the problems above."""
    frame = "invalid tie-break precedence: {} (known metrics: {{known}})"
    out = {"standings.precedence/empty": frame.format("precedence is empty")}
    names = tuple(_PRECEDENCE_PROBLEMS)
    for size in range(1, len(names) + 1):
        for chosen in combinations(names, size):
            text = "; ".join(_PRECEDENCE_PROBLEMS[name] for name in chosen)
            out[f"standings.precedence/{'+'.join(chosen)}"] = frame.format(text)
    return out


TEMPLATES: dict[str, str] = {
    # --- point lines (PointItem.code) ----------------------------------------------------------
    "points.result/draw": "drawn game",
    "points.result/win": "won: {winner} side won",
    "points.result/loss": "lost: {winner} side won",
    "points.bonus": "referee bonus",
    "points.bonus/note": "referee bonus: {note}",
    "points.bonus_cap": "referee bonuses capped at +{points} per game",
    "points.penalty": "referee penalty",
    "points.penalty/note": "referee penalty: {note}",
    "points.warning": "warning {count}",
    "points.warning/note": "warning {count}: {note}",
    "points.warnings": "{count} warnings in one game: automatic penalty (once)",
    "points.ejection": "ejected by the referee",
    "points.best_guess": "best guess: named seat {seat} ({player}), a killer",
    "points.ci": (
        "compensation (Ci) for a lost game after a night-1 death: "
        "min({count} × {factor} / {divisor}, {factor}) with {games} games"
    ),
    # --- the scorer's warnings (GameScore.warnings, Standings.warnings) ------------------------
    "scoring.in_progress": "{label}: in-progress record skipped (no result to score)",
    # --- scoring profiles (ProfileError) -------------------------------------------------------
    "profile.id": "profile id must be a non-empty word, got {value}",
    "profile.at_least_one": "profile {profile}: {key} must be an integer >= 1",
    "profile.not_decimal": "profile {profile}: {key} must be a finite Decimal",
    "profile.negative": "profile {profile}: {key} must not be negative",
    "profile.unknown": "unknown scoring profile '{profile}'; known: {profiles}",
    "profile.unknown_keys": "unknown scoring profile key(s): {keys}; allowed: {allowed}",
    "profile.missing_key": "scoring profile needs '{key}'",
    "profile.base_type": "scoring profile 'base' must be a profile key string",
    "profile.id_type": "scoring profile 'id' must be a string",
    "profile.not_integer": "scoring profile '{key}' must be an integer, got {value}",
    "profile.not_number": "scoring profile '{key}' must be a number, got {value}",
    "profile.not_finite": "scoring profile '{key}' must be finite, got {value}",
    # --- game summaries (SummaryError) ---------------------------------------------------------
    "summary.status": "game {label}: unknown status {value}",
    "summary.winner/absent": "game {label}: a {status} game must have no winner",
    "summary.winner/present": "game {label}: a {status} game must have a winner",
    "summary.winner_unknown": "game {label}: unknown winner {value}",
    "summary.seats": "game {label}: seats must be present and distinct",
    "summary.players": "game {label}: players must be non-empty and unique: {names}",
    "summary.role": "game {label} seat {seat}: unknown role {value}",
    "summary.result_only": "game {label}: a result-only game has no victim, suspects or ejections",
    "summary.suspects_no_victim": "game {label}: day-1 suspects without a night-1 victim",
    "summary.seat_absent": "game {label}: seat {seat} is not at the table",
    "summary.suspects_distinct": (
        "game {label}: suspects must be distinct seats other than the speaker"
    ),
    "summary.suspects_count": "game {label}: more suspects named than the {count} killers dealt",
    "summary.ejected_twice": "game {label}: a seat is ejected twice",
    "summary.award_kind": "game {label} seat {seat}: unknown award kind {value}",
    "summary.award_points": "game {label} seat {seat}: award points must be a finite Decimal",
    "summary.warning_points": "game {label} seat {seat}: a warning carries no points",
    "summary.award_positive": "game {label} seat {seat}: a {kind} needs positive points",
    "summary.unknown/role": "unknown role {value}",
    "summary.unknown/award_kind": "unknown award kind {value}",
    "summary.unknown/winner": "unknown winner {value}",
    # --- standings (StandingsError, PrecedenceError) -------------------------------------------
    "standings.ci_range": "Ci needs 0 <= K <= N, got K={count}, N={games}",
    "standings.no_player": "player '{player}' has no scored game in this standing",
    **_precedence_templates(),
    # --- ratings (RatingInputError) ------------------------------------------------------------
    "ratings.option_number": "rater option '{key}' must be a finite number",
    "ratings.option_positive": "rater option '{key}' must be positive",
    "ratings.option_negative": "rater option '{key}' must not be negative",
    "ratings.option_share": "rater option '{key}' must be between 0 and 1",
    "ratings.options_unknown": "unknown rater option(s) {keys}; known: {allowed}",
    "ratings.role": "unknown role {value}; expected one of {roles}",
    "ratings.player_role": "player '{player}': unknown role {value}; expected one of {roles}",
    "ratings.sides": (
        "a game needs killers and good players; got {killer_count} killer(s) "
        "and {good_count} good player(s)"
    ),
    "ratings.winner": "unknown winner {value}; expected one of {winners}",
    "ratings.twice": "player '{player}' sits at the table twice",
    "ratings.checkpoint": "checkpoint_every must be at least 1",
    "ratings.insert_at": "cannot insert at {index}: the history has {count}",
    "ratings.no_game": "no game {index}: the history has {count}",
}

PARAMS: dict[str, str] = {
    "allowed": "texts",  # the keys a mapping may hold
    "count": "int",
    "divisor": "int",  # Ci's max(1, round(f × N))
    "factor": "decimal",  # Ci's factor f
    "label": "text",  # a game's label: a file name or an id
    "games": "int",  # how many games
    "good_count": "int",
    "index": "int",  # a game's 0-based place in a rating history
    "key": "text",  # a profile's or an option's key
    "keys": "texts",
    "killer_count": "int",
    "kind": "word",  # an award kind: bonus, penalty
    "known": "texts",  # tie-break metric keys
    "metrics": "texts",  # tie-break metric keys
    "names": "texts",  # player ids
    "note": "text",  # the referee's own words
    "player": "text",
    "points": "decimal",
    "profile": "text",  # a profile's id or key
    "profiles": "texts",
    "repeated": "texts",  # tie-break metric keys
    "roles": "words",
    "seat": "seat",
    "status": "word",  # finished, result-only, in-progress
    "value": "text",  # a bad value shown back as written
    "variant": "text",
    "winner": "word",
    "winners": "words",
}
