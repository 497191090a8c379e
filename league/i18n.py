"""The engine's words on the league side, in the reader's language: ruleset labels for
selects, and the draw's warnings and refusals (translated at the edge, like
``games.violation_text`` does for game records — league may not import games).

The ids stay the stored values (``classic``, ``mainstream`` …); a select shows
``classic — 经典：屠边，有投降`` so nobody has to know the English id.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext

from engine.rulesets import RULESETS

RULESET_LABELS: dict[str, Promise] = {
    "classic": gettext_lazy(
        "classic — 003 rules: killers win by killing a side, the last of a side may surrender"
    ),
    "mainstream": gettext_lazy(
        "mainstream — killers win by killing every good player; a third tie draws"
    ),
    "civilian-draw": gettext_lazy("civilian-draw — killing every civilian only draws the game"),
    "majority": gettext_lazy("majority — a majority of votes puts a player out; 10 players"),
}


def ruleset_label(key: str) -> str:
    """A ruleset's id with its description in the active language."""
    label = RULESET_LABELS.get(key)
    return str(label) if label is not None else key


def ruleset_choices() -> list[tuple[str, str]]:
    """``(id, label)`` for every built-in ruleset, for a form's select (call per form)."""
    return [(key, ruleset_label(key)) for key in RULESETS]


# --- the draw's messages: the engine's warnings and refusals, translated at the edge ---------

_SIZES = r"[\d–, ]+"

#: (regular expression over the engine's English, translatable template)
DRAW_MESSAGES: tuple[tuple[re.Pattern[str], Promise], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (
            r"(?P<n>\d+) club-mate meetings in rounds 1–(?P<k>\d+) could not be avoided",
            gettext_lazy("%(n)s club-mate meetings in rounds 1–%(k)s could not be avoided"),
        ),
        (
            r"a player holds one seat number (?P<max>\d+) times, above the ideal (?P<ideal>\d+)",
            gettext_lazy("a player holds one seat number %(max)s times, above the ideal %(ideal)s"),
        ),
        (
            r"the time limit cut the search short; a longer limit may be fairer",
            gettext_lazy("the time limit cut the search short; a longer limit may be fairer"),
        ),
        (
            r"some pairs meet (?P<top>\d+) times, above the bound of (?P<bound>\d+) on the most "
            r"meetings of one pair, because that cuts repeat meetings from (?P<strict>\d+) to "
            r"(?P<loose>\d+)",
            gettext_lazy(
                "some pairs meet %(top)s times, above the bound of %(bound)s on the most "
                "meetings of one pair, because that cuts repeat meetings from %(strict)s to "
                "%(loose)s"
            ),
        ),
        (
            r"players meet the same referee (?P<n>\d+) extra times; the lower bound is "
            r"(?P<bound>\d+)",
            gettext_lazy(
                "players meet the same referee %(n)s extra times; the lower bound is %(bound)s"
            ),
        ),
        (
            r"referee loads range from (?P<lo>\d+) to (?P<hi>\d+) tables",
            gettext_lazy("referee loads range from %(lo)s to %(hi)s tables"),
        ),
        (
            r"round (?P<t>\d+): (?P<count>\d+) players present, fewer than the minimum table "
            r"size (?P<min>\d+)",
            gettext_lazy(
                "round %(t)s: %(count)s players present, fewer than the minimum table size %(min)s"
            ),
        ),
        (
            rf"round (?P<t>\d+): (?P<count>\d+) players present cannot sit at exactly "
            rf"1 table with sizes (?P<sizes>{_SIZES})",
            gettext_lazy(
                "round %(t)s: %(count)s players present cannot sit at exactly 1 table with "
                "sizes %(sizes)s"
            ),
        ),
        (
            rf"round (?P<t>\d+): (?P<count>\d+) players present cannot sit at exactly "
            rf"(?P<tables>\d+) tables with sizes (?P<sizes>{_SIZES})",
            gettext_lazy(
                "round %(t)s: %(count)s players present cannot sit at exactly %(tables)s "
                "tables with sizes %(sizes)s"
            ),
        ),
        (
            rf"round (?P<t>\d+): (?P<count>\d+) players present cannot be split into tables of "
            rf"sizes (?P<sizes>{_SIZES})",
            gettext_lazy(
                "round %(t)s: %(count)s players present cannot be split into tables of sizes "
                "%(sizes)s"
            ),
        ),
        (
            r"player (?P<a>.+) must not meet (?P<k>\d+) of the (?P<n>\d+) players present in "
            r"round (?P<t>\d+), leaving (?P<mates>\d+) possible table-mates where a table of "
            r"(?P<size>\d+) needs (?P<need>\d+)",
            gettext_lazy(
                "player %(a)s must not meet %(k)s of the %(n)s players present in round %(t)s, "
                "leaving %(mates)s possible table-mates where a table of %(size)s needs "
                "%(need)s"
            ),
        ),
        (
            r"players (?P<a>.+) and (?P<b>.+) must not meet but round (?P<t>\d+) seats everyone "
            r"present at a single table",
            gettext_lazy(
                "players %(a)s and %(b)s must not meet but round %(t)s seats everyone present "
                "at a single table"
            ),
        ),
        (
            r"players (?P<a>.+) and (?P<b>.+) must not meet but no draw found keeps them apart "
            r"in round (?P<t>\d+); too many avoid pairs for the tables available",
            gettext_lazy(
                "players %(a)s and %(b)s must not meet but no draw found keeps them apart in "
                "round %(t)s; too many avoid pairs for the tables available"
            ),
        ),
        (
            r"round (?P<t>\d+): (?P<m>\d+) tables but only (?P<k>\d+) referees",
            gettext_lazy("round %(t)s: %(m)s tables but only %(k)s referees"),
        ),
        (
            r"round (?P<t>\d+), table (?P<j>\d+): every referee has a conflict there "
            r"\((?P<who>.+)\)",
            gettext_lazy("round %(t)s, table %(j)s: every referee has a conflict there (%(who)s)"),
        ),
        (
            r"round (?P<t>\d+): conflicts leave tables (?P<stuck>\[.*\]) without a referee; the "
            r"(?P<m>\d+) tables can only share referees (?P<refs>\[.*\])",
            gettext_lazy(
                "round %(t)s: conflicts leave tables %(stuck)s without a referee; the %(m)s "
                "tables can only share referees %(refs)s"
            ),
        ),
        (
            r"Referees were not assigned: (?P<error>.+)",
            gettext_lazy("Referees were not assigned: %(error)s"),
        ),
    )
)


def _draw_param(name: str, value: str) -> str:
    if name == "error":
        return draw_message_text(value)
    if name == "who":  # "ref1 with p3; ref2 with p7"
        return value.replace(" with ", pgettext(" with (a conflict)", " with "))
    return value


def draw_message_text(text: str) -> str:
    """A draw's warning or error (the engine's or the league's English) in the reader's
    language; text stored in another language, or unknown, is shown as stored."""
    text = text or ""
    for pattern, template in DRAW_MESSAGES:
        m = pattern.fullmatch(text)
        if m is not None:
            params = {k: _draw_param(k, v) for k, v in m.groupdict().items()}
            return str(template) % params
    return gettext(text) if text else text  # a plain league message stored in English
