"""The fields an archive keeps of each kind of row (``docs/archives.md``): what the
exporter writes and the loader reads back."""

CLUB_FIELDS = ("name", "slug", "city", "timezone", "description")
EVENT_FIELDS = (
    "name", "slug", "venue", "starts_on", "ends_on", "registration_opens",
    "registration_closes", "ruleset", "ruleset_overrides", "scoring_profile",
    "tiebreak_precedence", "rounds_count", "min_table", "max_table", "allow_extra_meeting",
    "capacity", "check_in_opens_minutes", "check_in_closes_minutes", "circuit_category",
    "speech_seconds", "tie_speech_seconds", "last_words_seconds", "status", "created_at",
)  # fmt: skip
STAGE_FIELDS = (
    "position", "name", "rounds", "scoring_profile", "multiplier", "carry", "entry_kind",
    "entry_top", "hidden", "seating", "cut_confirmed_at", "finished_at",
)  # fmt: skip
GAME_FIELDS = (
    "ruleset", "players", "title", "played_on", "status", "import_key", "revision",
    "voided_round", "voided_table", "void_reason", "voided_at", "created_at", "updated_at",
)  # fmt: skip
VERSION_FIELDS = (
    "number", "source", "submitted_at", "reason", "status", "valid", "completeness",
    "violations", "winner", "ended", "confirmed_at",
)  # fmt: skip
PROTEST_FIELDS = (
    "phase", "text", "evidence", "status", "ruling", "ruled_at", "created_at", "updated_at",
)  # fmt: skip
STANDING_FIELDS = (
    "position", "handle", "rank", "tied", "points", "wins", "games", "awards", "ci",
    "metrics", "above_next", "items",
)  # fmt: skip
STAGE_STANDING_FIELDS = (
    "stage", "position", "handle", "rank", "tied", "points", "stage_points", "games",
    "metrics", "above_next",
)  # fmt: skip
