"""The engine's notation keys in the reader's language (see :mod:`league.engine_text`),
one entry per key of :mod:`engine.texts.notation`; our own English msgids. A parse error
names its place first (``line:column:``), as the engine's English does."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

TEXT: dict[str, Promise] = {
    "notation.too_large/size": gettext_lazy(
        "%(line)s:%(column)s: the text is longer than %(limit)s characters"
    ),
    "notation.too_large/lines": gettext_lazy(
        "%(line)s:%(column)s: the text has more than %(limit)s lines"
    ),
    "notation.too_large/seats": gettext_lazy(
        "%(line)s:%(column)s: a game has at most %(limit)s seats"
    ),
    "notation.character": gettext_lazy(
        "%(line)s:%(column)s: the character %(found)s can only be written in quotes, as an escape"
    ),
    "notation.unterminated": gettext_lazy(
        "%(line)s:%(column)s: a quoted text is not closed on its line"
    ),
    "notation.escape": gettext_lazy(
        "%(line)s:%(column)s: a bad escape in the quoted text %(found)s"
    ),
    "notation.text": gettext_lazy(
        '%(line)s:%(column)s: expected a name without ", # or =, or a quoted text, got %(found)s'
    ),
    "notation.json": gettext_lazy(
        "%(line)s:%(column)s: expected a JSON value without spaces outside quotes, got %(found)s"
    ),
    "notation.seat": gettext_lazy(
        "%(line)s:%(column)s: expected a seat number (1 to 999999), got %(found)s"
    ),
    "notation.round": gettext_lazy(
        "%(line)s:%(column)s: expected a round number after N or D (1 to 999999), got %(found)s"
    ),
    "notation.number": gettext_lazy(
        "%(line)s:%(column)s: expected a number such as 1 or 0.5, got %(found)s"
    ),
    "notation.role": gettext_lazy("%(line)s:%(column)s: expected a role, k, p or c, got %(found)s"),
    "notation.winner": gettext_lazy(
        "%(line)s:%(column)s: expected good, killers or draw, got %(found)s"
    ),
    "notation.twice": gettext_lazy("%(line)s:%(column)s: %(found)s is given twice"),
    "notation.line": gettext_lazy(
        "%(line)s:%(column)s: a line starts with ruleset, meta, a seat number, N1, D1, bonus, "
        "penalty, warning, result, log or awards, got %(found)s"
    ),
    "notation.continued": gettext_lazy(
        "%(line)s:%(column)s: %(found)s goes on with a day, but the line above is no day"
    ),
    "notation.item/night": gettext_lazy(
        "%(line)s:%(column)s: a night takes k3 or k- and c1 or c-, got %(found)s"
    ),
    "notation.item/day": gettext_lazy(
        "%(line)s:%(column)s: a day takes ej, sur, lw, v, votes such as 1>2 or 8-, out and lot, "
        "got %(found)s"
    ),
    "notation.item/seat": gettext_lazy(
        "%(line)s:%(column)s: a seat line is a number, a role and a player (1 k li-wei), "
        "got %(found)s"
    ),
    "notation.item/ruleset": gettext_lazy(
        "%(line)s:%(column)s: a ruleset line is an id, then overrides key=value, got %(found)s"
    ),
    "notation.item/meta": gettext_lazy(
        "%(line)s:%(column)s: meta takes key=value pairs, got %(found)s"
    ),
    "notation.item/award": gettext_lazy(
        '%(line)s:%(column)s: an award is a seat, points, then a "reason", got %(found)s'
    ),
    "notation.item/keyword": gettext_lazy(
        "%(line)s:%(column)s: nothing more may follow here, got %(found)s"
    ),
    "notation.missing/ruleset": gettext_lazy(
        "%(line)s:%(column)s: the ruleset line is missing (ruleset classic)"
    ),
    "notation.missing/seats": gettext_lazy(
        "%(line)s:%(column)s: no seats: write one line a seat (1 k li-wei)"
    ),
    "notation.missing/value": gettext_lazy("%(line)s:%(column)s: %(found)s needs a value"),
    "notation.vote": gettext_lazy(
        "%(line)s:%(column)s: the vote %(found)s needs a ballot: write v before it"
    ),
    "notation.seats": gettext_lazy(
        "%(line)s:%(column)s: seats are numbered 1 to %(n)s, got %(found)s"
    ),
    "notation.blank_player": gettext_lazy(
        "%(line)s:%(column)s: a player needs a character that is not white space, got %(found)s"
    ),
    "notation.ruleset/unknown": gettext_lazy(
        "%(line)s:%(column)s: unknown ruleset '%(ruleset)s' (known: %(known)s)"
    ),
    "notation.ruleset/parameter": gettext_lazy(
        "%(line)s:%(column)s: unknown ruleset parameter '%(key)s'"
    ),
    "notation.ruleset/value": gettext_lazy(
        "%(line)s:%(column)s: the override %(rule)s=%(value)s is not allowed"
    ),
    "notation.ruleset/inconsistent": gettext_lazy(
        "%(line)s:%(column)s: these overrides make no ruleset: players, roles and final_tie "
        "must fit together"
    ),
    "notation.unprintable/number": gettext_lazy(
        "%(path)s: %(value)s is too large for the notation"
    ),
    "notation.unprintable/seats": gettext_lazy("the notation holds at most %(limit)s seats"),
    "notation.unprintable/size": gettext_lazy(
        "the notation would be longer than %(limit)s characters"
    ),
}

WORDS: dict[str, Promise] = {}
