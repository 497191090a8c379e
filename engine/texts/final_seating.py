"""Templates: final seating (see engine.texts and :mod:`engine.formats`).

``final_seating.players``/``final_seating.games``: a final seating asked for outside
what one table can seat (``FinalSeatingError``); the variant says which limit.
"""

TEMPLATES: dict[str, str] = {
    "final_seating.players/few": "a final table needs at least {min} players, not {count}",
    "final_seating.players/many": "a final table seats at most {max} players, not {count}",
    "final_seating.players/repeated": "players listed more than once: {names}",
    "final_seating.games/few": "a final needs at least {min} game, not {count}",
    "final_seating.games/many": "a final seating covers at most {max} games, not {count}",
}

PARAMS: dict[str, str] = {
    "count": "int",  # players or games asked for
    "max": "int",
    "min": "int",
    "names": "texts",  # player ids
    "variant": "text",
}
