"""Templates: draws (see engine.texts).

Seating draws (:mod:`engine.seating`) and referee draws (:mod:`engine.referees`): the
problems of a malformed request (``draw.*``/``referees.*`` in a ``SeatingProblemError``'s
``problems``), the hard constraints a draw cannot meet (``DrawConstraintError``) and the
warnings of a draw that succeeded with caveats (``SeatingDraw.warnings``,
``RefereePlan.warnings``).

Table sizes are shown as a range (``8–16``) when they run without a gap and as a list
otherwise: the ``range`` and ``list`` variants. A count of one table has its own
variant (``one_range``, ``one_list``) so every language can say it in the singular.
"""

TEMPLATES: dict[str, str] = {
    # --- a malformed seating request (SeatingProblemError.problems) ---------------------------
    "draw.option": "option {key} must be a non-negative integer",
    "draw.option_unknown": "unknown option '{key}'",
    "draw.players_not_unique": "player ids are not unique",
    "draw.no_players": "no players",
    "draw.no_rounds": "rounds must be at least 1",
    "draw.table_range": "table sizes [{min}, {max}] are not a valid range",
    "draw.no_tables": "tables must be at least 1 when given",
    "draw.club_apart_rounds": "club_apart_rounds must not be negative",
    "draw.no_allowed_size": "no allowed table size lies in [{min}, {max}]",
    "draw.avoid_self": "player {player} cannot avoid themselves",
    "draw.unknown_player/avoid": "avoid names unknown player {player}",
    "draw.unknown_player/absent": "absent names unknown player {player}",
    "draw.unknown_player/clubs": "clubs names unknown player {player}",
    "draw.absent_rounds": "player {player} absent from rounds [{outside}] outside 1..{rounds}",
    "draw.fixed_rounds": "more fixed rounds than rounds",
    "draw.fixed_unknown": "fixed round {round} names unknown players {names}",
    "draw.fixed_twice": "fixed round {round} seats a player twice",
    "draw.previous_rounds": "the previous draw has more rounds than are left to draw",
    "draw.previous_twice": "the previous draw's round {round} seats a player twice",
    "draw.previous_none": "the previous draw's round {round} names none of the players",
    # --- hard constraints no draw can meet (DrawConstraintError) ------------------------------
    "draw.too_few_players": (
        "round {round}: {count} players present, fewer than the minimum table size {min}"
    ),
    "draw.table_count/range": (
        "round {round}: {count} players present cannot sit at exactly {tables} tables "
        "with sizes {min}–{max}"
    ),
    "draw.table_count/list": (
        "round {round}: {count} players present cannot sit at exactly {tables} tables "
        "with sizes {sizes}"
    ),
    "draw.table_count/one_range": (
        "round {round}: {count} players present cannot sit at exactly {tables} table "
        "with sizes {min}–{max}"
    ),
    "draw.table_count/one_list": (
        "round {round}: {count} players present cannot sit at exactly {tables} table "
        "with sizes {sizes}"
    ),
    "draw.table_sizes/range": (
        "round {round}: {count} players present cannot be split into tables of sizes {min}–{max}"
    ),
    "draw.table_sizes/list": (
        "round {round}: {count} players present cannot be split into tables of sizes {sizes}"
    ),
    "draw.avoid_too_many": (
        "player {player} must not meet {count} of the {n} players present in round {round}, "
        "leaving {mates} possible table-mates where a table of {min} needs {need}"
    ),
    "draw.avoid_one_table": (
        "players {player} and {other} must not meet but round {round} seats everyone "
        "present at a single table"
    ),
    "draw.avoid_unmet": (
        "players {player} and {other} must not meet but no draw found keeps them apart "
        "in round {round}; too many avoid pairs for the tables available"
    ),
    # --- a draw's warnings (SeatingDraw.warnings) ---------------------------------------------
    "draw.fixed_avoid": "fixed round {round} already seats {player} with {other}",
    "draw.cap_relief": (
        "some pairs meet {max} times, above the bound of {bound} on the most meetings of "
        "one pair, because that cuts repeat meetings from {hi} to {lo}"
    ),
    "draw.club_meetings": "{count} club-mate meetings in rounds 1–{rounds} could not be avoided",
    "draw.seat_excess": ("a player holds one seat number {max} times, above the ideal {ideal}"),
    "draw.cut_short": "the time limit cut the search short; a longer limit may be fairer",
    # --- a malformed referee request (SeatingProblemError.problems) ---------------------------
    "referees.none": "no referees",
    "referees.not_unique": "referee ids are not unique",
    "referees.conflict_unknown": "conflict names unknown referee {referee}",
    "referees.fixed_rounds": "more fixed referee rounds than rounds",
    "referees.fixed_tables": "fixed referees of round {round} do not match its tables",
    "referees.fixed_unknown": "fixed round {round} names unknown referees {referees}",
    # --- referee constraints no plan can meet (DrawConstraintError) ---------------------------
    "referees.too_few": "round {round}: {tables} tables but only {count} referees",
    "referees.all_conflict": (
        "round {round}, table {table}: every referee has a conflict there ({referees} with {names})"
    ),
    "referees.all_conflict/several": (
        "round {round}, table {table}: every referee has a conflict there "
        "({referees} with {names} respectively)"
    ),
    "referees.stuck": (
        "round {round}: conflicts leave tables [{table_numbers}] without a referee; the "
        "{tables} tables can only share referees {referees}"
    ),
    # --- a referee plan's warnings (RefereePlan.warnings) -------------------------------------
    "referees.repeats": (
        "players meet the same referee {count} extra times; the lower bound is {bound}"
    ),
    "referees.loads": "referee loads range from {lo} to {hi} tables",
}

PARAMS: dict[str, str] = {
    "bound": "int",  # a lower bound (of the most meetings of one pair, of referee repeats)
    "count": "int",  # players present, avoided players, club-mate meetings, referees …
    "hi": "int",
    "ideal": "int",
    "key": "text",  # an option's name
    "lo": "int",
    "mates": "int",  # possible table-mates left
    "max": "int",
    "min": "int",
    "n": "int",  # players present in a round
    "names": "texts",  # player ids
    "need": "int",
    "other": "text",  # the second player of an avoid pair
    "outside": "ints",  # rounds outside the event
    "player": "text",
    "referee": "text",
    "referees": "texts",
    "round": "int",
    "rounds": "int",  # how many rounds (the event's, or club_apart_rounds)
    "sizes": "ints",  # table sizes
    "table": "int",  # a table's number
    "table_numbers": "ints",
    "tables": "int",  # how many tables
    "variant": "text",
}
