"""Templates: circuits (see engine.texts and :mod:`engine.formats.circuit`).

The errors of a circuit profile (``circuit.profile/<problem>``: one sentence per kind of
problem, naming every field wrong in that way), of its events and of a CIRCUIT.json
document (``circuit.document/*``, naming the JSON path); why one event of a player
counted or was dropped (``circuit.result/<reason>``); and why one player stands above
another (``circuit.explain/<criterion>``).
"""

TEMPLATES: dict[str, str] = {
    # --- profiles (CircuitProfile.parse) ------------------------------------------------------
    "circuit.profile/type": "circuit profile: {fields} must be a JSON object",
    "circuit.profile/unknown": "circuit profile: unknown field(s) {fields}",
    "circuit.profile/missing": "circuit profile: {fields} missing",
    "circuit.profile/empty": "circuit profile: {fields} must not be empty",
    "circuit.profile/too_many": (
        "circuit profile: too many entries in {fields} (at most 500 places and 50 categories)"
    ),
    "circuit.profile/name": (
        "circuit profile: category names must be non-empty text of at most 100 characters: {fields}"
    ),
    "circuit.profile/not_decimal": (
        "circuit profile: {fields} must be decimal numbers written as text or integers"
    ),
    "circuit.profile/negative": "circuit profile: {fields} must not be negative",
    "circuit.profile/too_large": (
        "circuit profile: {fields} too large or too precise (places at most 10000, weights "
        "and field bounds at most 10, the field's reference at most 100000, "
        "at most 6 decimal places)"
    ),
    "circuit.profile/order": "circuit profile: the field's min must not exceed its max ({fields})",
    "circuit.profile/not_integer": "circuit profile: {fields} must be whole numbers",
    "circuit.profile/too_small": (
        "circuit profile: {fields} too small (best and field.reference at least 1, "
        "min_events at least 0)"
    ),
    # --- events (compute_circuit, event_points) -----------------------------------------------
    "circuit.event_name": "an event's name must be 1 to 200 characters, got '{event}'",
    "circuit.event_twice": "two events are named '{event}'",
    "circuit.too_many_events": "a circuit holds at most {limit} events, got {count}",
    "circuit.category": "event '{event}': unknown category '{category}'; known: {categories}",
    "circuit.field_size": (
        "event '{event}': the number of players must be between 1 and {limit}, got {field_size}"
    ),
    "circuit.ranks_over": "event '{event}': {count} players ranked but only {field_size} played",
    "circuit.player_name": "event '{event}': a player's name must be 1 to 200 characters",
    "circuit.player_twice": "event '{event}': player '{player}' is ranked twice",
    "circuit.rank/low": "event '{event}': player '{player}' has rank {rank}; ranks start at 1",
    "circuit.rank/high": "event '{event}': rank {rank} is beyond the {field_size} players",
    "circuit.rank/shared_high": (
        "event '{event}': the {count} players tied at rank {rank} would share places beyond "
        "the {field_size} players"
    ),
    "circuit.rank/inside": (
        "event '{event}': rank {rank} is one of the places shared by the {count} players tied "
        "at rank {tie_rank} (after a tie the next rank skips them)"
    ),
    "circuit.no_player": "player '{player}' has no event in this circuit",
    # --- CIRCUIT.json (parse_circuit) ---------------------------------------------------------
    "circuit.document/format": 'a circuit document needs "format": "kgc/1", got {value}',
    "circuit.document/object": "{path} must be a JSON object, got {value}",
    "circuit.document/list": "{path} must be a JSON list, got {value}",
    "circuit.document/text": "{path} must be text, got {value}",
    "circuit.document/integer": "{path} must be a whole number, got {value}",
    "circuit.document/missing": "{path} is missing",
    "circuit.document/unknown": "{path}: unknown key(s) {keys}; allowed: {allowed}",
    # --- a player's events (CircuitStanding.result_message) -----------------------------------
    "circuit.result/all": "{event}: place {rank}, {points} points, counted (every event counts)",
    "circuit.result/best": (
        "{event}: place {rank}, {points} points, counted (among the best {best} events)"
    ),
    "circuit.result/beyond_best": (
        "{event}: place {rank}, {points} points, dropped (not among the best {best} events)"
    ),
    # --- why one player is above another (CircuitStanding.explain) ----------------------------
    "circuit.explain/ranked": (
        "{higher} ranks above {lower}: {lower} played {lower_events} event(s), fewer than the "
        "{min_events} needed to be ranked"
    ),
    "circuit.explain/points": (
        "{higher} ranks above {lower} on points ({higher_points} vs {lower_points})"
    ),
    "circuit.explain/best_place": (
        "{higher} ranks above {lower} on the best place in a counted event "
        "({higher_place} vs {lower_place}), level on points"
    ),
    "circuit.explain/events": (
        "{higher} ranks above {lower} on counted events ({higher_events} vs {lower_events}), "
        "level on points and best place"
    ),
    "circuit.explain/lots": (
        "{higher} ranks above {lower} by the drawing of lots (lot {higher_lot} vs "
        "{lower_lot}, seed {seed}), level on points, best place and counted events"
    ),
    "circuit.explain/tied": "{higher} and {lower} are tied",
}

PARAMS: dict[str, str] = {
    "best": "int",  # a circuit's B: how many events count
    "categories": "texts",  # a circuit's category names
    "category": "text",  # a circuit event's category, as written
    "event": "text",  # a circuit event's name
    "field_size": "int",  # how many played in an event
    "fields": "texts",  # a circuit profile's fields: places[2], field.min
    "higher": "text",  # the player above
    "higher_events": "int",
    "higher_lot": "int",  # a player's place in the drawing of lots
    "higher_place": "int",
    "higher_points": "decimal",
    "limit": "int",  # an upper bound of an input
    "lower": "text",  # the player below
    "lower_events": "int",
    "lower_lot": "int",
    "lower_place": "int",
    "lower_points": "decimal",
    "min_events": "int",
    "rank": "int",  # a place in an event's final order
    "seed": "int",  # the seed of the lots
    "tie_rank": "int",
}
