"""Templates: the text notation of games (see engine.texts and :mod:`engine.notation`).

Every ``notation.*`` error of the parser names its place first, ``{line}:{column}:``, so
the CLI writes ``FILE:`` in front of it and an editor can jump there; ``found`` is the word
as it was written (cut short when long). ``notation.unprintable/*`` is the printer's: a
readable record beyond the notation's bounds, with no place in a text.
"""

TEMPLATES: dict[str, str] = {
    # --- bounds ------------------------------------------------------------------------
    "notation.too_large/size": "{line}:{column}: the text is longer than {limit} characters",
    "notation.too_large/lines": "{line}:{column}: the text has more than {limit} lines",
    "notation.too_large/seats": "{line}:{column}: a game has at most {limit} seats",
    # --- words -------------------------------------------------------------------------
    "notation.character": (
        "{line}:{column}: the character {found} can only be written in quotes, as an escape"
    ),
    "notation.unterminated": "{line}:{column}: a quoted text is not closed on its line",
    "notation.escape": "{line}:{column}: a bad escape in the quoted text {found}",
    "notation.text": (
        '{line}:{column}: expected a name without ", # or =, or a quoted text, got {found}'
    ),
    "notation.json": (
        "{line}:{column}: expected a JSON value without spaces outside quotes, got {found}"
    ),
    "notation.seat": "{line}:{column}: expected a seat number (1 to 999999), got {found}",
    "notation.round": (
        "{line}:{column}: expected a round number after N or D (1 to 999999), got {found}"
    ),
    "notation.number": "{line}:{column}: expected a number such as 1 or 0.5, got {found}",
    "notation.role": "{line}:{column}: expected a role, k, p or c, got {found}",
    "notation.winner": "{line}:{column}: expected good, killers or draw, got {found}",
    "notation.twice": "{line}:{column}: {found} is given twice",
    # --- lines -------------------------------------------------------------------------
    "notation.line": (
        "{line}:{column}: a line starts with ruleset, meta, a seat number, N1, D1, bonus, "
        "penalty, warning, result, log or awards, got {found}"
    ),
    "notation.continued": (
        "{line}:{column}: {found} goes on with a day, but the line above is no day"
    ),
    "notation.item/night": "{line}:{column}: a night takes k3 or k- and c1 or c-, got {found}",
    "notation.item/day": (
        "{line}:{column}: a day takes ej, sur, lw, v, votes such as 1>2 or 8-, out and lot, "
        "got {found}"
    ),
    "notation.item/seat": (
        "{line}:{column}: a seat line is a number, a role and a player (1 k li-wei), got {found}"
    ),
    "notation.item/ruleset": (
        "{line}:{column}: a ruleset line is an id, then overrides key=value, got {found}"
    ),
    "notation.item/meta": "{line}:{column}: meta takes key=value pairs, got {found}",
    "notation.item/award": (
        '{line}:{column}: an award is a seat, points, then a "reason", got {found}'
    ),
    "notation.item/keyword": "{line}:{column}: nothing more may follow here, got {found}",
    "notation.missing/ruleset": "{line}:{column}: the ruleset line is missing (ruleset classic)",
    "notation.missing/seats": "{line}:{column}: no seats: write one line a seat (1 k li-wei)",
    "notation.missing/value": "{line}:{column}: {found} needs a value",
    "notation.vote": "{line}:{column}: the vote {found} needs a ballot: write v before it",
    "notation.seats": "{line}:{column}: seats are numbered 1 to {n}, got {found}",
    "notation.blank_player": (
        "{line}:{column}: a player needs a character that is not white space, got {found}"
    ),
    # --- the ruleset (what the record reader checks) -------------------------------------
    "notation.ruleset/unknown": "{line}:{column}: unknown ruleset {ruleset!r} (known: {known})",
    "notation.ruleset/parameter": "{line}:{column}: unknown ruleset parameter {key!r}",
    "notation.ruleset/value": "{line}:{column}: the override {rule}={value} is not allowed",
    "notation.ruleset/inconsistent": (
        "{line}:{column}: these overrides make no ruleset: players, roles and final_tie "
        "must fit together"
    ),
    # --- printing ----------------------------------------------------------------------
    "notation.unprintable/number": "{path}: {value} is too large for the notation",
    "notation.unprintable/seats": "the notation holds at most {limit} seats",
    "notation.unprintable/size": "the notation would be longer than {limit} characters",
}

PARAMS: dict[str, str] = {
    "found": "text",  # a word of the notation as it was written
}
