"""The engine's reading keys in the reader's language (see :mod:`league.engine_text`):
a record's form (``record.*``), its seats (``setup.seats``, ``setup.duplicate_player``), a
record file (``file.*``: the CLI's, kept for completeness) and rulesets (``ruleset.*``),
one entry per key of :mod:`engine.texts.records`; and the platform's own checks of an
uploaded record (``platform.*``, :mod:`games.records`).

Our own English msgids, not the engine's templates: rewording the engine changes no
translation key. ``got`` is the JSON kind of a value, a word translated in :data:`WORDS`.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

TEXT: dict[str, Promise] = {
    "record.type/object": gettext_lazy("expected an object, got %(got)s"),
    "record.type/seat_list": gettext_lazy("expected a list of seats, got %(got)s"),
    "record.type/non_empty_string": gettext_lazy("expected a non-empty string, got %(got)s"),
    "record.type/ruleset_id": gettext_lazy("expected a ruleset id, got %(got)s"),
    "record.type/non_empty_list": gettext_lazy("expected a non-empty list, got %(got)s"),
    "record.type/ballot": gettext_lazy("expected an object voter → target, got %(got)s"),
    "record.type/list": gettext_lazy("expected a list, got %(got)s"),
    "record.type/phases": gettext_lazy("expected a list of phases, got %(got)s"),
    "record.type/phase": gettext_lazy("expected a phase object, got %(got)s"),
    "record.type/number": gettext_lazy("expected a number, got %(got)s"),
    "record.type/string": gettext_lazy("expected a string, got %(got)s"),
    "record.type/strings_object": gettext_lazy("expected an object of strings, got %(got)s"),
    "record.type/seat": gettext_lazy("expected a seat number, got %(value)s"),
    "record.type/seat_or_null": gettext_lazy("expected a seat number or null, got %(value)s"),
    "record.type/finite_number": gettext_lazy("expected a finite number, got %(value)s"),
    "record.type/ruleset_object": gettext_lazy("expected {base: id, overrides: {...}}"),
    "record.duplicate_key": gettext_lazy("key '%(key)s' appears twice"),
    "record.duplicate_key/nested": gettext_lazy("a key appears twice"),
    "record.duplicate_key/voter": gettext_lazy("seat %(key)s voted twice"),
    "record.unknown_key": gettext_lazy("unknown key '%(key)s'"),
    "record.missing_key": gettext_lazy("missing required key '%(key)s'"),
    "record.bad_value/role": gettext_lazy("%(value)s is not one of 'killer', 'police', 'civilian'"),
    "record.bad_value/winner": gettext_lazy("%(value)s is not one of 'good', 'killers', 'draw'"),
    "record.bad_value/award_kind": gettext_lazy(
        "%(value)s is not one of 'bonus', 'penalty', 'warning'"
    ),
    "record.bad_value/voter": gettext_lazy("voter '%(key)s' is not a seat number"),
    "record.bad_value/phase": gettext_lazy('needs "phase": "night" or "day" and "n" ≥ 1'),
    "record.bad_value/blank_player": gettext_lazy(
        "a player id needs a character that is not white space, got %(value)s"
    ),
    "record.format": gettext_lazy("expected 'kgr/1', got %(value)s"),
    "record.json/expecting_value": gettext_lazy(
        "not JSON: Expecting value at line %(line)s column %(column)s"
    ),
    "record.json/expecting_comma": gettext_lazy(
        "not JSON: Expecting ',' delimiter at line %(line)s column %(column)s"
    ),
    "record.json/expecting_colon": gettext_lazy(
        "not JSON: Expecting ':' delimiter at line %(line)s column %(column)s"
    ),
    "record.json/expecting_key": gettext_lazy(
        "not JSON: Expecting property name enclosed in double quotes at line %(line)s column "
        "%(column)s"
    ),
    "record.json/unterminated_string": gettext_lazy(
        "not JSON: Unterminated string starting at line %(line)s column %(column)s"
    ),
    "record.json/control_character": gettext_lazy(
        "not JSON: Invalid control character at line %(line)s column %(column)s"
    ),
    "record.json/invalid_escape": gettext_lazy(
        "not JSON: Invalid \\escape at line %(line)s column %(column)s"
    ),
    "record.json/invalid_unicode_escape": gettext_lazy(
        "not JSON: Invalid \\uXXXX escape at line %(line)s column %(column)s"
    ),
    "record.json/extra_data": gettext_lazy(
        "not JSON: Extra data at line %(line)s column %(column)s"
    ),
    "record.json/nan": gettext_lazy(
        "not JSON: %(value)s is not a JSON number at line %(line)s column %(column)s"
    ),
    "record.json/other": gettext_lazy("not JSON: %(detail)s at line %(line)s column %(column)s"),
    "record.json/not_utf8": gettext_lazy("not JSON: %(detail)s"),
    "record.json/too_deep": gettext_lazy("not JSON: %(detail)s"),
    "setup.seats": gettext_lazy("seats must be 1..%(n)s, each exactly once"),
    "setup.duplicate_player": gettext_lazy("player '%(player)s' holds two seats"),
    "file.unreadable/not_found": gettext_lazy("%(path)s: cannot read: No such file or directory"),
    "file.unreadable/permission_denied": gettext_lazy("%(path)s: cannot read: Permission denied"),
    "file.unreadable/is_a_directory": gettext_lazy("%(path)s: cannot read: Is a directory"),
    "file.unreadable/other": gettext_lazy("%(path)s: cannot read: %(detail)s"),
    "file.not_utf8": gettext_lazy("%(path)s:%(line)s:%(column)s: not UTF-8 text"),
    "file.json/expecting_value": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Expecting value"
    ),
    "file.json/expecting_comma": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Expecting ',' delimiter"
    ),
    "file.json/expecting_colon": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Expecting ':' delimiter"
    ),
    "file.json/expecting_key": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Expecting property name enclosed in double quotes"
    ),
    "file.json/invalid_escape": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Invalid \\escape"
    ),
    "file.json/invalid_unicode_escape": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Invalid \\uXXXX escape"
    ),
    "file.json/extra_data": gettext_lazy("%(path)s:%(line)s:%(column)s: not JSON: Extra data"),
    "file.json/nan": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: %(value)s is not a JSON number"
    ),
    "file.json/other": gettext_lazy("%(path)s:%(line)s:%(column)s: not JSON: %(detail)s"),
    "file.json/unterminated_string": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Unterminated string starting at"
    ),
    "file.json/control_character": gettext_lazy(
        "%(path)s:%(line)s:%(column)s: not JSON: Invalid control character at"
    ),
    "file.json/too_deep": gettext_lazy("%(path)s:%(line)s:%(column)s: not JSON: nested too deeply"),
    "ruleset.unknown": gettext_lazy("unknown ruleset '%(ruleset)s' (known: %(known)s)"),
    "ruleset.unknown_parameter/key": gettext_lazy("unknown ruleset key '%(key)s'"),
    "ruleset.unknown_parameter/parameter": gettext_lazy(
        "unknown ruleset parameter '%(key)s' in overrides"
    ),
    "ruleset.bad_value/spec": gettext_lazy("ruleset must be an id or {base, overrides}"),
    "ruleset.bad_value/incomplete": gettext_lazy("a ruleset object needs both base and overrides"),
    "ruleset.bad_value/base": gettext_lazy("ruleset base must be a ruleset id"),
    "ruleset.bad_value/overrides": gettext_lazy("ruleset overrides must be an object"),
    "ruleset.bad_value/players_range": gettext_lazy(
        "players [%(lo)s, %(hi)s] is not a valid range"
    ),
    "ruleset.bad_value/roles_missing": gettext_lazy("roles give no cards for %(n)s players"),
    "ruleset.bad_value/roles_fit": gettext_lazy(
        "roles for %(n)s players: %(killer_count)s killers and %(police_count)s police do not fit"
    ),
    "ruleset.bad_value/plurality_final_tie": gettext_lazy("a plurality ballot needs a final_tie"),
    "ruleset.bad_value/majority_final_tie": gettext_lazy("a majority ballot has no final_tie"),
    "ruleset.bad_value/players": gettext_lazy("override players=%(value)s: expected [min, max]"),
    "ruleset.bad_value/roles": gettext_lazy(
        'override roles=%(value)s: expected {"N": [killers, police], ...}'
    ),
    "ruleset.bad_value/abstain": gettext_lazy(
        'override abstain=%(value)s: expected true, false or "not-final"'
    ),
    "ruleset.bad_value/ballot": gettext_lazy(
        "override ballot=%(value)s: expected 'plurality' or 'majority'"
    ),
    "ruleset.bad_value/final_tie": gettext_lazy(
        "override final_tie=%(value)s: expected 'killers' or 'draw' or 'lot'"
    ),
    "ruleset.bad_value/last_words": gettext_lazy(
        "override last_words=%(value)s: expected 'first-round' or 'first-deaths' or "
        "'all-but-killers-voted-out'"
    ),
    "ruleset.bad_value/killers_win": gettext_lazy(
        "override killers_win=%(value)s: expected 'any-side-out' or 'all-good-out' or 'police-out'"
    ),
    "ruleset.bad_value/flag": gettext_lazy("override %(rule)s=%(value)s: expected true or false"),
}

#: The platform's own checks of an uploaded record (games.records): stored and shown like
#: the engine's violations. Their params: ``ruleset`` the game's ruleset as JSON text,
#: ``seats`` the seat numbers that differ, ``names`` unknown player handles, ``count``.
PLATFORM: dict[str, Promise] = {
    "platform.ruleset": gettext_lazy("the record's ruleset is not this game's (%(ruleset)s)"),
    "platform.seating": gettext_lazy("seats %(seats)s do not match the table's seating"),
    "platform.unknown_player": gettext_lazy("unknown players %(names)s"),
    "platform.too_many": gettext_lazy("and %(count)s more problems not listed"),
}
TEXT.update(PLATFORM)

WORDS: dict[str, Promise] = {
    # the JSON kind of a value found (``got``)
    "got:null": pgettext_lazy("JSON value", "null"),
    "got:a boolean": pgettext_lazy("JSON value", "a boolean"),
    "got:a number": pgettext_lazy("JSON value", "a number"),
    "got:a string": pgettext_lazy("JSON value", "a string"),
    "got:a list": pgettext_lazy("JSON value", "a list"),
    "got:an object": pgettext_lazy("JSON value", "an object"),
}
