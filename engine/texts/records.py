"""Templates: reading a record, a record file and a ruleset (see engine.texts).

Codes of :mod:`engine.record` (``record.*``, ``setup.seats``, ``setup.duplicate_player``,
``file.*``) and :mod:`engine.rulesets` (``ruleset.*``). A violation's template has no
place prefix: :class:`engine.record.Violation` puts ``params["path"]`` (a JSON path such
as ``log[2].ballots[0]``) or its ``where`` in front. A ``file.*`` error is no violation:
its template names the file itself.

Shapes of one code are variants (``code/variant``): ``record.type`` by what was expected,
``record.json`` and ``file.json`` by the decoder's complaint (``problem``, the same token
as the variant), ``ruleset.bad_value`` by what is wrong. The word ``got`` is the JSON kind
of the value found, one of :data:`KINDS`.
"""

#: The JSON kinds a ``got`` names, as the English shows them (their tokens).
KINDS = ("null", "a boolean", "a number", "a string", "a list", "an object")

#: What Python's JSON decoder complained of, by ``problem`` token, in its own English.
JSON_PROBLEMS: dict[str, str] = {
    "expecting_value": "Expecting value",
    "expecting_comma": "Expecting ',' delimiter",
    "expecting_colon": "Expecting ':' delimiter",
    "expecting_key": "Expecting property name enclosed in double quotes",
    "unterminated_string": "Unterminated string starting",
    "control_character": "Invalid control character",
    "invalid_escape": "Invalid \\escape",
    "invalid_unicode_escape": "Invalid \\uXXXX escape",
    "extra_data": "Extra data",
    "nan": "{value} is not a JSON number",
    "other": "{detail}",
}

#: Why a file could not be read at all, by ``problem`` token (the system's words).
FILE_PROBLEMS: dict[str, str] = {
    "not_found": "No such file or directory",
    "permission_denied": "Permission denied",
    "is_a_directory": "Is a directory",
    "other": "{detail}",
}

_EXPECTED: dict[str, str] = {
    "object": "an object",
    "seat_list": "a list of seats",
    "non_empty_string": "a non-empty string",
    "ruleset_id": "a ruleset id",
    "non_empty_list": "a non-empty list",
    "ballot": "an object voter → target",
    "list": "a list",
    "phases": "a list of phases",
    "phase": "a phase object",
    "number": "a number",
    "string": "a string",
    "strings_object": "an object of strings",
}

_OVERRIDES: dict[str, str] = {
    "players": "[min, max]",
    "roles": '{{"N": [killers, police], ...}}',
    "abstain": 'true, false or "not-final"',
    "ballot": "'plurality' or 'majority'",
    "final_tie": "'killers' or 'draw' or 'lot'",
    "last_words": "'first-round' or 'first-deaths' or 'all-but-killers-voted-out'",
    "killers_win": "'any-side-out' or 'all-good-out' or 'police-out'",
}

TEMPLATES: dict[str, str] = {
    # --- the record's form (engine.record) -------------------------------------------
    **{f"record.type/{v}": f"expected {e}, got {{got}}" for v, e in _EXPECTED.items()},
    "record.type/seat": "expected a seat number, got {value}",
    "record.type/seat_or_null": "expected a seat number or null, got {value}",
    "record.type/finite_number": "expected a finite number, got {value}",
    "record.type/ruleset_object": "expected {{base: id, overrides: {{...}}}}",
    "record.duplicate_key": "key {key!r} appears twice",
    "record.duplicate_key/nested": "a key appears twice",
    "record.duplicate_key/voter": "seat {key} voted twice",
    "record.unknown_key": "unknown key {key!r}",
    "record.missing_key": "missing required key {key!r}",
    "record.bad_value/role": "{value} is not one of 'killer', 'police', 'civilian'",
    "record.bad_value/winner": "{value} is not one of 'good', 'killers', 'draw'",
    "record.bad_value/award_kind": "{value} is not one of 'bonus', 'penalty', 'warning'",
    "record.bad_value/voter": "voter {key!r} is not a seat number",
    "record.bad_value/phase": 'needs "phase": "night" or "day" and "n" ≥ 1',
    "record.bad_value/blank_player": (
        "a player id needs a character that is not white space, got {value}"
    ),
    "record.format": "expected 'kgr/1', got {value}",
    **{
        f"record.json/{p}": f"not JSON: {e} at line {{line}} column {{column}}"
        for p, e in JSON_PROBLEMS.items()
    },
    "record.json/not_utf8": "not JSON: {detail}",
    "record.json/too_deep": "not JSON: {detail}",
    "setup.seats": "seats must be 1..{n}, each exactly once",
    "setup.duplicate_player": "player {player!r} holds two seats",
    # --- a record file (engine.record.load_file) -------------------------------------
    **{f"file.unreadable/{p}": f"{{path}}: cannot read: {e}" for p, e in FILE_PROBLEMS.items()},
    "file.not_utf8": "{path}:{line}:{column}: not UTF-8 text",
    **{
        f"file.json/{p}": f"{{path}}:{{line}}:{{column}}: not JSON: {e}"
        for p, e in JSON_PROBLEMS.items()
        if p not in ("unterminated_string", "control_character")
    },
    "file.json/unterminated_string": (
        "{path}:{line}:{column}: not JSON: Unterminated string starting at"
    ),
    "file.json/control_character": "{path}:{line}:{column}: not JSON: Invalid control character at",
    "file.json/too_deep": "{path}:{line}:{column}: not JSON: nested too deeply",
    # --- rulesets (engine.rulesets) ----------------------------------------------------
    "ruleset.unknown": "unknown ruleset {ruleset!r} (known: {known})",
    "ruleset.unknown_parameter/key": "unknown ruleset key {key!r}",
    "ruleset.unknown_parameter/parameter": "unknown ruleset parameter {key!r} in overrides",
    "ruleset.bad_value/spec": "ruleset must be an id or {{base, overrides}}",
    "ruleset.bad_value/incomplete": "a ruleset object needs both base and overrides",
    "ruleset.bad_value/base": "ruleset base must be a ruleset id",
    "ruleset.bad_value/overrides": "ruleset overrides must be an object",
    "ruleset.bad_value/players_range": "players [{lo}, {hi}] is not a valid range",
    "ruleset.bad_value/roles_missing": "roles give no cards for {n} players",
    "ruleset.bad_value/roles_fit": (
        "roles for {n} players: {killer_count} killers and {police_count} police do not fit"
    ),
    "ruleset.bad_value/plurality_final_tie": "a plurality ballot needs a final_tie",
    "ruleset.bad_value/majority_final_tie": "a majority ballot has no final_tie",
    **{
        f"ruleset.bad_value/{rule}": f"override {rule}={{value}}: expected {e}"
        for rule, e in _OVERRIDES.items()
    },
    "ruleset.bad_value/flag": "override {rule}={value}: expected true or false",
}

PARAMS: dict[str, str] = {
    "path": "text",  # a JSON path (log[2].ballots[0]) or a file's path
    "got": "word",  # the JSON kind found: one of KINDS
    "value": "text",  # a value shown back as written (JSON or Python's repr)
    "key": "text",  # an object key as written
    "n": "int",
    "player": "text",
    "line": "int",
    "column": "int",
    "problem": "word",  # why a text is not JSON or a file unreadable: a variant's token
    "detail": "text",  # the decoder's or the system's own words, for the "other" problem
    "ruleset": "text",
    "known": "texts",  # the ids of the built-in rulesets
    "rule": "word",  # a ruleset parameter's name
    "lo": "int",
    "hi": "int",
    "killer_count": "int",
    "police_count": "int",
}
