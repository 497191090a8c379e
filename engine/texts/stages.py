"""Templates: stages (see engine.texts and :mod:`engine.formats.stages`).

The user-fixable errors of an event's stages and of its ``EVENT.json`` (``formats.*``,
:class:`engine.formats.stages.FormatError`), and the warnings of a computed event
(``stages.*``).
"""

TEMPLATES: dict[str, str] = {
    # --- an entry rule and a stage's fields ----------------------------------------------------
    "formats.entry": 'an entry must be "all", {{"top": N}} with N >= 1 or {{"players": [...]}} '
    "with distinct names, got {value}",
    "formats.entry/stage": 'stage {stage}: the entry must be "all", {{"top": N}} with N >= 1 or '
    '{{"players": [...]}} with distinct names, got {value}',
    "formats.stage_type": "a stage must be a JSON object, got {value}",
    "formats.stage_name": "a stage needs a name (a non-empty string), got {value}",
    "formats.stage_keys": "stage {stage}: unknown field(s) {keys}; allowed: {allowed}",
    "formats.decimal": 'stage {stage}: {key} must be a decimal written as a string ("1.5"), '
    "got {value}",
    "formats.multiplier": "stage {stage}: the multiplier must be greater than 0, got {value}",
    "formats.carry": "stage {stage}: carry must not be negative, got {value}",
    "formats.hidden": "stage {stage}: hidden must be true or false, got {value}",
    "formats.profile": "stage {stage}: {value} is not a usable scoring profile (built-in: "
    "{profiles})",
    # --- an event's stages together ------------------------------------------------------------
    "formats.no_stages": "an event needs at least one stage",
    "formats.duplicate_stage": "stage name {stage} is used twice",
    "formats.first_top": "stage {stage}: the first stage cannot take the top {count}: "
    "there is no standing before it",
    "formats.not_entitled": "{player} played game {game} ({label}) of stage {stage} "
    "without having entered stage {stage}",
    # --- EVENT.json (python -m engine event) ---------------------------------------------------
    "formats.event_type": "an event must be a JSON object, got {value}",
    "formats.event_format": 'an event\'s format must be "kge/1", got {value}',
    "formats.event_keys": "unknown event field(s) {keys}; allowed: {allowed}",
    "formats.seed": "the event's seed must be an integer, got {value}",
    "formats.event_profile": "{value} is not a built-in scoring profile (built-in: {profiles})",
    "formats.precedence_type": "the event's precedence must be a list of metric keys, got {value}",
    "formats.stages_type": "the event's stages must be a non-empty list, got {value}",
    "formats.games": "stage {stage}: games must be a list of file paths, got {value}",
    # --- warnings of a computed event ----------------------------------------------------------
    "stages.no_games": "stage {stage} has no scored game: its standing is the one carried in",
}

PARAMS: dict[str, str] = {
    "stage": "text",  # a stage's name as the organiser wrote it
}
