"""The engine's words in the user's language, translated at the edge.

The engine (``engine/``) is pure and speaks English: each :class:`engine.record.Violation`
has a stable ``code``, a ``where`` and an English ``message``; a live game's phase
(``"night 2"``), tie (``"ballot 1 tied between seats 1, 7: tie-break"``) and end
(``"every killer is out"``) are English too. This module turns them into the active
language without touching the engine:

- every message shape the engine emits has a rule here: the ``code`` it belongs to, a
  regular expression that takes the message's parameters back out (seat numbers, phases,
  seats lists, roles, …) and a translatable template with the same parameters;
- the parameters are themselves translated (a phase, a list of seats, how a player left
  the game, …) before they are put into the template;
- in English every template reproduces the engine's message exactly (a test checks this
  for every code the engine emits), so English users see what the engine wrote;
- a message no rule matches (a future engine message) falls back to a translated
  description of its ``code``, so users never meet an untranslated sentence; the
  original stays in the record and the logs.

``tests/i18n/test_violation_text.py`` drives the engine into every code and checks both
directions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, pgettext, pgettext_lazy

_PHASE = r"(?:night|day) \d+(?: ballot \d+)?"
_SEATS = r"seats? \d+(?:, \d+)*"
_GONE = r"(?:killed|voted out|drawn out by lot|ejected) on (?:night|day) \d+"
_ROLE = r"killer|police|civilian"
_WINNER = r"good|killers|draw"
_STEP = r"night|day|ballot|lot|declare|over"
_KIND = r"a boolean|a number|a string|a list|an object|null"

# --- the small words -----------------------------------------------------------------------


def phase_text(label: str | None, on: bool = False) -> str:
    """``"night 2"`` → 第2夜 / noche 2; ``on``: as in "killed on night 2" (la noche 2)."""
    if not label:
        return label or ""
    m = re.fullmatch(r"(night|day) (\d+)(?: ballot (\d+))?", label)
    if m is None:
        return label
    kind, n, k = m.group(1), m.group(2), m.group(3)
    if k is not None:
        return pgettext("phase", "day %(n)s ballot %(k)s") % {"n": n, "k": k}
    if kind == "night":
        text = pgettext("on a phase", "night %(n)s") if on else pgettext("phase", "night %(n)s")
    else:
        text = pgettext("on a phase", "day %(n)s") if on else pgettext("phase", "day %(n)s")
    return text % {"n": n}


def seats_text(text: str) -> str:
    """``"seat 3"`` → 3号; ``"seats 1, 7"`` → 1号、7号 / asientos 1, 7."""
    numbers = re.findall(r"\d+", text)
    if len(numbers) == 1 and not text.startswith("seats"):
        return pgettext("one seat", "seat %(n)s") % {"n": numbers[0]}
    sep = pgettext("list separator", ", ")
    return pgettext("several seats", "seats %(list)s") % {"list": sep.join(numbers)}


def seat_list_text(text: str) -> str:
    """A JSON-ish list of seats, ``"[1, 2]"``, with the language's separator."""
    numbers = re.findall(r"-?\d+", text)
    return "[" + pgettext("list separator", ", ").join(numbers) + "]"


_ROLES: Mapping[str, Promise] = {
    "killer": pgettext_lazy("role", "killer"),
    "police": pgettext_lazy("role", "police"),
    "civilian": pgettext_lazy("role", "civilian"),
}
_WINNERS: Mapping[str, Promise] = {
    "good": pgettext_lazy("winner", "good"),
    "killers": pgettext_lazy("winner", "killers"),
    "draw": pgettext_lazy("winner", "draw"),
}
_STEPS: Mapping[str, Promise] = {
    "night": pgettext_lazy("next step", "night"),
    "day": pgettext_lazy("next step", "day"),
    "ballot": pgettext_lazy("next step", "ballot"),
    "lot": pgettext_lazy("next step", "lot"),
    "declare": pgettext_lazy("next step", "declare"),
    "over": pgettext_lazy("next step", "over"),
}
_AWARD_KINDS: Mapping[str, Promise] = {
    "bonus": pgettext_lazy("award", "bonus"),
    "penalty": pgettext_lazy("award", "penalty"),
    "warning": pgettext_lazy("award", "warning"),
}
_JSON_KINDS: Mapping[str, Promise] = {
    "a boolean": pgettext_lazy("JSON value", "a boolean"),
    "a number": pgettext_lazy("JSON value", "a number"),
    "a string": pgettext_lazy("JSON value", "a string"),
    "a list": pgettext_lazy("JSON value", "a list"),
    "an object": pgettext_lazy("JSON value", "an object"),
    "null": pgettext_lazy("JSON value", "null"),
}
_LAST_WORDS_RULES: Mapping[str, Promise] = {
    "first-round": pgettext_lazy("last words rule", "first-round"),
    "first-deaths": pgettext_lazy("last words rule", "first-deaths"),
    "all-but-killers-voted-out": pgettext_lazy("last words rule", "all-but-killers-voted-out"),
}


_COMPLETENESS: Mapping[str, Promise] = {
    "finished": pgettext_lazy("record", "finished"),
    "result-only": pgettext_lazy("record", "result only"),
    "in-progress": pgettext_lazy("record", "in progress"),
}


def _lookup(table: Mapping[str, Promise], value: str) -> str:
    found = table.get(value)
    return str(found) if found is not None else value


def role_text(role: str) -> str:
    return _lookup(_ROLES, role)


def winner_text(winner: str) -> str:
    return _lookup(_WINNERS, winner)


def award_kind_text(kind: str) -> str:
    return _lookup(_AWARD_KINDS, kind)


def completeness_text(status: str) -> str:
    """A record's completeness (``finished``, ``result-only``, ``in-progress``)."""
    return _lookup(_COMPLETENESS, status)


_GONE_TEXT: Mapping[str, Promise] = {
    "killed": gettext_lazy("killed on %(phase)s"),
    "voted out": gettext_lazy("voted out on %(phase)s"),
    "drawn out by lot": gettext_lazy("drawn out by lot on %(phase)s"),
    "ejected": gettext_lazy("ejected on %(phase)s"),
}


def gone_text(text: str) -> str:
    """``"killed on night 2"`` → 已于第2夜被杀 / asesinado la noche 2."""
    m = re.fullmatch(r"(.+) on ((?:night|day) \d+)", text)
    if m is None or m.group(1) not in _GONE_TEXT:
        return text
    return str(_GONE_TEXT[m.group(1)]) % {"phase": phase_text(m.group(2), on=True)}


_EXPECTED: Mapping[str, Promise] = {
    "[min, max]": pgettext_lazy("ruleset value", "[min, max]"),
    '{"N": [killers, police], ...}': pgettext_lazy(
        "ruleset value", '{"N": [killers, police], ...}'
    ),
}


def expected_text(text: str) -> str:
    """What a ruleset override should have been: ``'a' or 'b'``, ``[min, max]``, …"""
    found = _EXPECTED.get(text)
    if found is not None:
        return str(found)
    return text.replace(" or ", pgettext("alternatives", " or "))


def _nobody_or_seat(text: str) -> str:
    return pgettext("out", "nobody") if text == "nobody" else seats_text(text)


# --- sentences: ties, the end of a game ------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One message shape: the codes it serves, its pattern and its translated template."""

    codes: tuple[str, ...]
    pattern: re.Pattern[str]
    template: Promise


def _rule(codes: str, pattern: str, template: Promise) -> Rule:
    return Rule(tuple(codes.split()), re.compile(pattern), template)


TIES: tuple[Rule, ...] = (
    _rule(
        "tie",
        rf"ballot 1 tied between (?P<seats>{_SEATS}): tie-break",
        gettext_lazy("ballot 1 tied between %(seats)s: tie-break"),
    ),
    _rule(
        "tie",
        rf"ballot 2 tied between (?P<seats>{_SEATS}): off-site PK",
        gettext_lazy("ballot 2 tied between %(seats)s: off-site PK"),
    ),
    _rule(
        "tie",
        rf"ballot 3 tied between (?P<seats>{_SEATS}): final tie \(lot\)",
        gettext_lazy("ballot 3 tied between %(seats)s: final tie (lot)"),
    ),
    _rule(
        "tie",
        rf"ballot 3 tied between (?P<seats>{_SEATS}): final tie \(killers\)",
        gettext_lazy("ballot 3 tied between %(seats)s: final tie (killers)"),
    ),
    _rule(
        "tie",
        rf"ballot 3 tied between (?P<seats>{_SEATS}): final tie \(draw\)",
        gettext_lazy("ballot 3 tied between %(seats)s: final tie (draw)"),
    ),
    _rule(
        "tie",
        rf"no majority in ballot (?P<k>\d+): runoff between (?P<seats>{_SEATS})",
        gettext_lazy("no majority in ballot %(k)s: runoff between %(seats)s"),
    ),
)

REASONS: tuple[Rule, ...] = (
    _rule("reason", r"every killer is out", gettext_lazy("every killer is out")),
    _rule("reason", r"every good player is out", gettext_lazy("every good player is out")),
    _rule("reason", r"every police officer is out", gettext_lazy("every police officer is out")),
    _rule("reason", r"every civilian is out", gettext_lazy("every civilian is out")),
    _rule(
        "reason",
        rf"seat (?P<seat>\d+) \((?P<role>{_ROLE})\) surrendered",
        gettext_lazy("seat %(seat)s (%(role)s) surrendered"),
    ),
    _rule(
        "reason",
        r"a third tied ballot goes to the killers",
        gettext_lazy("a third tied ballot goes to the killers"),
    ),
    _rule(
        "reason",
        r"a third tied ballot draws the game",
        gettext_lazy("a third tied ballot draws the game"),
    ),
)


def tie_text(tie: str | None) -> str:
    """Why the day goes on to another ballot (or to lots), in the active language."""
    if not tie:
        return tie or ""
    found = _render(TIES, tie)
    return found if found is not None else tie


def reason_text(reason: str | None) -> str:
    """Why the game ended, in the active language."""
    if not reason:
        return reason or ""
    found = _render(REASONS, reason)
    return found if found is not None else reason


# --- violations ---------------------------------------------------------------------------

_WHAT: Mapping[str, Promise] = {
    "an ejection is recorded by day": gettext_lazy("an ejection is recorded by day"),
    "ejections come before the day's first ballot": gettext_lazy(
        "ejections come before the day's first ballot"
    ),
    "a surrender is recorded by day": gettext_lazy("a surrender is recorded by day"),
    "a surrender comes before the day's first ballot": gettext_lazy(
        "a surrender comes before the day's first ballot"
    ),
    "ballots are held by day": gettext_lazy("ballots are held by day"),
    "lots are drawn by day": gettext_lazy("lots are drawn by day"),
    "eliminations are declared by day": gettext_lazy("eliminations are declared by day"),
    "the day's elimination is already declared": gettext_lazy(
        "the day's elimination is already declared"
    ),
    "last words are recorded by day": gettext_lazy("last words are recorded by day"),
}

#: The message shapes, after the "where: " prefix (see :func:`_split`).
VIOLATIONS: tuple[Rule, ...] = (
    # the game's flow
    _rule(
        "phase.after_end",
        rf"the game already ended on (?P<phase_on>{_PHASE})",
        gettext_lazy("the game already ended on %(phase_on)s"),
    ),
    _rule(
        "event.unexpected",
        rf"(?P<what>.+) now; next: (?P<step>{_STEP})",
        gettext_lazy("%(what)s now; next: %(step)s"),
    ),
    _rule("day.missing_ballots", r"no ballot was held", gettext_lazy("no ballot was held")),
    _rule(
        "ballot.missing",
        r"(?P<tie>.+), but no ballot (?P<k>\d+)",
        gettext_lazy("%(tie)s, but no ballot %(k)s"),
    ),
    _rule(
        "lot.missing",
        r"(?P<tie>.+), but no lot was drawn",
        gettext_lazy("%(tie)s, but no lot was drawn"),
    ),
    _rule(
        "day.missing_eliminated",
        r"nobody was declared out",
        gettext_lazy("nobody was declared out"),
    ),
    # unknown seats
    _rule(
        "kill.unknown_seat",
        r"the killers chose seat (?P<seat>-?\d+), but seats are 1\.\.(?P<n>\d+)",
        gettext_lazy("the killers chose seat %(seat)s, but seats are 1..%(n)s"),
    ),
    _rule(
        "check.unknown_seat",
        r"the police checked seat (?P<seat>-?\d+), but seats are 1\.\.(?P<n>\d+)",
        gettext_lazy("the police checked seat %(seat)s, but seats are 1..%(n)s"),
    ),
    _rule(
        "eject.unknown_seat",
        r"the referee ejected seat (?P<seat>-?\d+), but seats are 1\.\.(?P<n>\d+)",
        gettext_lazy("the referee ejected seat %(seat)s, but seats are 1..%(n)s"),
    ),
    _rule(
        "surrender.unknown_seat",
        r"surrender by seat (?P<seat>-?\d+), but seats are 1\.\.(?P<n>\d+)",
        gettext_lazy("surrender by seat %(seat)s, but seats are 1..%(n)s"),
    ),
    _rule(
        "last_words.unknown_seat",
        r"last words by seat (?P<seat>-?\d+), but seats are 1\.\.(?P<n>\d+)",
        gettext_lazy("last words by seat %(seat)s, but seats are 1..%(n)s"),
    ),
    # night
    _rule(
        "kill.dead_target",
        rf"the killers chose seat (?P<seat>\d+), who was (?P<gone>{_GONE})",
        gettext_lazy("the killers chose seat %(seat)s, who was %(gone)s"),
    ),
    _rule(
        "check.no_police",
        r"seat (?P<seat>\d+) was checked, but no police officer is alive",
        gettext_lazy("seat %(seat)s was checked, but no police officer is alive"),
    ),
    _rule(
        "check.dead_target",
        rf"the police checked seat (?P<seat>\d+), who was (?P<gone>{_GONE})",
        gettext_lazy("the police checked seat %(seat)s, who was %(gone)s"),
    ),
    # ejections and surrender
    _rule(
        "eject.dead_seat",
        rf"seat (?P<seat>\d+) was ejected, but was (?P<gone>{_GONE})",
        gettext_lazy("seat %(seat)s was ejected, but was %(gone)s"),
    ),
    _rule(
        "surrender.not_allowed",
        r"seat (?P<seat>\d+) surrendered, but (?P<ruleset>\S+) has no surrender",
        gettext_lazy("seat %(seat)s surrendered, but %(ruleset)s has no surrender"),
    ),
    _rule(
        "surrender.dead_seat",
        rf"seat (?P<seat>\d+) surrendered, but was (?P<gone>{_GONE})",
        gettext_lazy("seat %(seat)s surrendered, but was %(gone)s"),
    ),
    _rule(
        "surrender.civilian",
        r"seat (?P<seat>\d+) is a civilian and may not surrender",
        gettext_lazy("seat %(seat)s is a civilian and may not surrender"),
    ),
    _rule(
        "surrender.teammate_alive",
        rf"seat (?P<seat>\d+) surrendered while (?P<seats>{_SEATS}) \((?P<role>{_ROLE})\) "
        r"still alive",
        gettext_lazy("seat %(seat)s surrendered while %(seats)s (%(role)s) still alive"),
    ),
    # ballots and votes
    _rule(
        "ballot.extra",
        r"one ballot too many: ballot (?P<k>\d+) already decided the day",
        gettext_lazy("one ballot too many: ballot %(k)s already decided the day"),
    ),
    _rule(
        "ballot.extra",
        r"one ballot too many: the day is over",
        gettext_lazy("one ballot too many: the day is over"),
    ),
    _rule(
        "vote.unknown_seat",
        r"seat (?P<voter>-?\d+) voted, but seats are 1\.\.(?P<n>\d+)",
        gettext_lazy("seat %(voter)s voted, but seats are 1..%(n)s"),
    ),
    _rule(
        "vote.unknown_seat",
        r"seat (?P<voter>\d+) voted for seat (?P<target>-?\d+), but seats are 1\.\.(?P<n>\d+)",
        gettext_lazy("seat %(voter)s voted for seat %(target)s, but seats are 1..%(n)s"),
    ),
    _rule(
        "vote.duplicate_voter record.duplicate_key",
        r"seat (?P<voter>-?\d+) voted twice",
        gettext_lazy("seat %(voter)s voted twice"),
    ),
    _rule(
        "vote.dead_voter",
        rf"seat (?P<voter>\d+) voted but was (?P<gone>{_GONE})",
        gettext_lazy("seat %(voter)s voted but was %(gone)s"),
    ),
    _rule(
        "vote.abstain_forbidden",
        r"seat (?P<voter>\d+) abstained, but every voter must vote here",
        gettext_lazy("seat %(voter)s abstained, but every voter must vote here"),
    ),
    _rule(
        "vote.self_vote",
        r"seat (?P<voter>\d+) voted for themself",
        gettext_lazy("seat %(voter)s voted for themself"),
    ),
    _rule(
        "vote.dead_target",
        rf"seat (?P<voter>\d+) voted for seat (?P<target>\d+), who was (?P<gone>{_GONE})",
        gettext_lazy("seat %(voter)s voted for seat %(target)s, who was %(gone)s"),
    ),
    _rule(
        "vote.not_candidate",
        rf"seat (?P<voter>\d+) voted for seat (?P<target>\d+), but this ballot is between "
        rf"(?P<seats>{_SEATS})",
        gettext_lazy(
            "seat %(voter)s voted for seat %(target)s, but this ballot is between %(seats)s"
        ),
    ),
    _rule(
        "vote.missing_voter",
        r"seat (?P<seat>\d+) did not vote",
        gettext_lazy("seat %(seat)s did not vote"),
    ),
    # lots and the day's elimination
    _rule(
        "lot.unexpected",
        r"seat (?P<seat>-?\d+) was drawn, but (?P<ruleset>\S+) has no lots",
        gettext_lazy("seat %(seat)s was drawn, but %(ruleset)s has no lots"),
    ),
    _rule(
        "lot.unexpected",
        r"seat (?P<seat>-?\d+) was drawn, but no third tied ballot",
        gettext_lazy("seat %(seat)s was drawn, but no third tied ballot"),
    ),
    _rule(
        "lot.not_tied",
        rf"seat (?P<seat>-?\d+) was drawn, but the tie was between (?P<seats>{_SEATS})",
        gettext_lazy("seat %(seat)s was drawn, but the tie was between %(seats)s"),
    ),
    _rule(
        "day.wrong_elimination",
        r"(?P<said>nobody|seat -?\d+) declared out, but the ballots put "
        r"(?P<due>nobody|seat \d+) out",
        gettext_lazy("%(said)s declared out, but the ballots put %(due)s out"),
    ),
    # last words
    _rule(
        "last_words.duplicate",
        r"seat (?P<seat>\d+) gave last words twice",
        gettext_lazy("seat %(seat)s gave last words twice"),
    ),
    _rule(
        "last_words.not_entitled",
        r"seat (?P<seat>\d+) gave last words but is alive",
        gettext_lazy("seat %(seat)s gave last words but is alive"),
    ),
    _rule(
        "last_words.not_entitled",
        rf"seat (?P<seat>\d+) gave last words but was (?P<gone>{_GONE}) and has none under "
        r"(?P<policy>\S+)",
        gettext_lazy(
            "seat %(seat)s gave last words but was %(gone)s and has none under %(policy)s"
        ),
    ),
    _rule(
        "last_words.not_entitled",
        rf"seat (?P<seat>\d+) gave last words but was (?P<gone>{_GONE}); last words belong to "
        r"that round's day",
        gettext_lazy(
            "seat %(seat)s gave last words but was %(gone)s; last words belong to that round's day"
        ),
    ),
    _rule(
        "last_words.too_many_suspects",
        r"seat (?P<seat>\d+) named (?P<count>\d+) suspects; at most (?P<limit>\d+)",
        gettext_lazy("seat %(seat)s named %(count)s suspects; at most %(limit)s"),
    ),
    _rule(
        "last_words.bad_suspect",
        r"seat (?P<seat>\d+) named (?P<list>\[[-\d, ]*\]): suspects must be distinct seats "
        r"1\.\.(?P<n>\d+) other than the speaker",
        gettext_lazy(
            "seat %(seat)s named %(list)s: suspects must be distinct seats 1..%(n)s "
            "other than the speaker"
        ),
    ),
    # the result
    _rule(
        "result.missing",
        rf"the game ended on (?P<phase_on>{_PHASE}) \((?P<reason>.+)\), but no result is recorded",
        gettext_lazy("the game ended on %(phase_on)s (%(reason)s), but no result is recorded"),
    ),
    _rule(
        "result.unfinished",
        rf"(?P<winner>{_WINNER}) declared, but the game has not ended \(next: (?P<step>{_STEP}) "
        rf"on (?P<phase_on>{_PHASE})\)",
        gettext_lazy(
            "%(winner)s declared, but the game has not ended (next: %(step)s on %(phase_on)s)"
        ),
    ),
    _rule(
        "result.wrong_winner",
        rf"(?P<winner>{_WINNER}) declared, but (?P<winner2>{_WINNER}) won on "
        rf"(?P<phase_on>{_PHASE}) \((?P<reason>.+)\)",
        gettext_lazy("%(winner)s declared, but %(winner2)s won on %(phase_on)s (%(reason)s)"),
    ),
    # set-up, awards, series
    _rule(
        "setup.players",
        r"(?P<n>\d+) seat\(s\), but (?P<ruleset>\S+) seats (?P<lo>\d+)–(?P<hi>\d+)",
        gettext_lazy("%(n)s seat(s), but %(ruleset)s seats %(lo)s–%(hi)s"),
    ),
    _rule(
        "setup.players",
        r"(?P<n>\d+) seat\(s\), but (?P<ruleset>\S+) seats (?P<lo>\d+)–(?P<hi>\d+) players",
        gettext_lazy("%(n)s seat(s), but %(ruleset)s seats %(lo)s–%(hi)s players"),
    ),
    _rule(
        "setup.role_counts",
        r"(?P<n>\d+) players under (?P<ruleset>\S+) deal (?P<k>\d+) killers, (?P<p>\d+) police, "
        r"(?P<c>\d+) civilians; the seats hold (?P<hk>\d+), (?P<hp>\d+), (?P<hc>\d+)",
        gettext_lazy(
            "%(n)s players under %(ruleset)s deal %(k)s killers, %(p)s police, %(c)s civilians; "
            "the seats hold %(hk)s, %(hp)s, %(hc)s"
        ),
    ),
    _rule(
        "awards.unknown_seat",
        r"seat (?P<seat>-?\d+) is not at the table \(1\.\.(?P<n>\d+)\)",
        gettext_lazy("seat %(seat)s is not at the table (1..%(n)s)"),
    ),
    _rule(
        "awards.points",
        r"a warning to seat (?P<seat>-?\d+) carries no points",
        gettext_lazy("a warning to seat %(seat)s carries no points"),
    ),
    _rule(
        "awards.points",
        r"a bonus for seat (?P<seat>-?\d+) needs a positive number of points",
        gettext_lazy("a bonus for seat %(seat)s needs a positive number of points"),
    ),
    _rule(
        "awards.points",
        r"a penalty for seat (?P<seat>-?\d+) needs a positive number of points",
        gettext_lazy("a penalty for seat %(seat)s needs a positive number of points"),
    ),
    _rule(
        "series.repeat_night1_victim",
        r"(?P<player>.+) \(seat (?P<seat>\d+)\) is the night-1 victim again; they were the "
        r"night-1 victim of their previous game \(game (?P<game>\d+)\)",
        gettext_lazy(
            "%(player)s (seat %(seat)s) is the night-1 victim again; they were the night-1 "
            "victim of their previous game (game %(game)s)"
        ),
    ),
    # the platform's own checks of an uploaded record (games.records)
    _rule(
        "platform.ruleset",
        r"the record's ruleset is not this game's \((?P<want>.+)\)",
        gettext_lazy("the record's ruleset is not this game's (%(want)s)"),
    ),
    _rule(
        "platform.seating",
        r"seats (?P<seats>.+) do not match the table's seating",
        gettext_lazy("seats %(seats)s do not match the table's seating"),
    ),
    _rule(
        "platform.too_many",
        r"and (?P<n>\d+) more problems not listed",
        gettext_lazy("and %(n)s more problems not listed"),
    ),
    _rule(
        "platform.unknown_player",
        r"unknown players (?P<players>.+)",
        gettext_lazy("unknown players %(players)s"),
    ),
    # the record's form (uploaded files)
    _rule(
        "record.type",
        rf"expected an object, got (?P<got>{_KIND})",
        gettext_lazy("expected an object, got %(got)s"),
    ),
    _rule(
        "record.type",
        r"expected a seat number or null, got (?P<value>.+)",
        gettext_lazy("expected a seat number or null, got %(value)s"),
    ),
    _rule(
        "record.type",
        r"expected a seat number, got (?P<value>.+)",
        gettext_lazy("expected a seat number, got %(value)s"),
    ),
    _rule(
        "record.type",
        rf"expected a list of seats, got (?P<got>{_KIND})",
        gettext_lazy("expected a list of seats, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected a non-empty string, got (?P<got>{_KIND})",
        gettext_lazy("expected a non-empty string, got %(got)s"),
    ),
    _rule(
        "record.type",
        r"expected \{base: id, overrides: \{\.\.\.\}\}",
        gettext_lazy("expected {base: id, overrides: {...}}"),
    ),
    _rule(
        "record.type",
        rf"expected a ruleset id, got (?P<got>{_KIND})",
        gettext_lazy("expected a ruleset id, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected a non-empty list, got (?P<got>{_KIND})",
        gettext_lazy("expected a non-empty list, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected an object voter → target, got (?P<got>{_KIND})",
        gettext_lazy("expected an object voter → target, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected a list, got (?P<got>{_KIND})",
        gettext_lazy("expected a list, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected a list of phases, got (?P<got>{_KIND})",
        gettext_lazy("expected a list of phases, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected a phase object, got (?P<got>{_KIND})",
        gettext_lazy("expected a phase object, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected a number, got (?P<got>{_KIND})",
        gettext_lazy("expected a number, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected a string, got (?P<got>{_KIND})",
        gettext_lazy("expected a string, got %(got)s"),
    ),
    _rule(
        "record.type",
        rf"expected an object of strings, got (?P<got>{_KIND})",
        gettext_lazy("expected an object of strings, got %(got)s"),
    ),
    _rule(
        "record.duplicate_key",
        r"key (?P<key>'.*') appears twice",
        gettext_lazy("key %(key)s appears twice"),
    ),
    _rule("record.duplicate_key", r"a key appears twice", gettext_lazy("a key appears twice")),
    _rule("record.unknown_key", r"unknown key (?P<key>'.*')", gettext_lazy("unknown key %(key)s")),
    _rule(
        "record.missing_key",
        r"missing required key (?P<key>'.*')",
        gettext_lazy("missing required key %(key)s"),
    ),
    _rule(
        "record.bad_value",
        r"(?P<value>.+) is not one of (?P<allowed>'.*')",
        gettext_lazy("%(value)s is not one of %(allowed)s"),
    ),
    _rule(
        "record.bad_value",
        r"voter (?P<key>'.*') is not a seat number",
        gettext_lazy("voter %(key)s is not a seat number"),
    ),
    _rule(
        "record.bad_value",
        r'needs "phase": "night" or "day" and "n" ≥ 1',
        gettext_lazy('needs "phase": "night" or "day" and "n" ≥ 1'),
    ),
    _rule(
        "record.json",
        r"not JSON: (?P<detail>.+) at line (?P<line>\d+) column (?P<column>\d+)",
        gettext_lazy("not JSON: %(detail)s at line %(line)s column %(column)s"),
    ),
    _rule("record.json", r"not JSON: (?P<detail>.+)", gettext_lazy("not JSON: %(detail)s")),
    _rule(
        "record.format",
        r"expected (?P<want>'.*'), got (?P<got>.+)",
        gettext_lazy("expected %(want)s, got %(got)s"),
    ),
    _rule(
        "setup.seats",
        r"seats must be 1\.\.(?P<n>\d+), each exactly once",
        gettext_lazy("seats must be 1..%(n)s, each exactly once"),
    ),
    _rule(
        "setup.duplicate_player",
        r"player (?P<player>.+) holds two seats",
        gettext_lazy("player %(player)s holds two seats"),
    ),
    # rulesets (a record's "ruleset")
    _rule(
        "ruleset.unknown",
        r"unknown ruleset (?P<ruleset>'.*') \(known: (?P<known>.+)\)",
        gettext_lazy("unknown ruleset %(ruleset)s (known: %(known)s)"),
    ),
    _rule(
        "ruleset.unknown_parameter",
        r"unknown ruleset key (?P<key>'.*')",
        gettext_lazy("unknown ruleset key %(key)s"),
    ),
    _rule(
        "ruleset.unknown_parameter",
        r"unknown ruleset parameter (?P<key>'.*') in overrides",
        gettext_lazy("unknown ruleset parameter %(key)s in overrides"),
    ),
    _rule(
        "ruleset.bad_value",
        r"override (?P<name>\w+)=(?P<value>.+): expected (?P<expected>.+)",
        gettext_lazy("override %(name)s=%(value)s: expected %(expected)s"),
    ),
    _rule(
        "ruleset.bad_value",
        r"players \[(?P<lo>-?\d+), (?P<hi>-?\d+)\] is not a valid range",
        gettext_lazy("players [%(lo)s, %(hi)s] is not a valid range"),
    ),
    _rule(
        "ruleset.bad_value",
        r"roles give no cards for (?P<n>\d+) players",
        gettext_lazy("roles give no cards for %(n)s players"),
    ),
    _rule(
        "ruleset.bad_value",
        r"a plurality ballot needs a final_tie",
        gettext_lazy("a plurality ballot needs a final_tie"),
    ),
    _rule(
        "ruleset.bad_value",
        r"a majority ballot has no final_tie",
        gettext_lazy("a majority ballot has no final_tie"),
    ),
    _rule(
        "ruleset.bad_value",
        r"ruleset must be an id or \{base, overrides\}",
        gettext_lazy("ruleset must be an id or {base, overrides}"),
    ),
    _rule(
        "ruleset.bad_value",
        r"a ruleset object needs both base and overrides",
        gettext_lazy("a ruleset object needs both base and overrides"),
    ),
    _rule(
        "ruleset.bad_value",
        r"ruleset base must be a ruleset id",
        gettext_lazy("ruleset base must be a ruleset id"),
    ),
    _rule(
        "ruleset.bad_value",
        r"ruleset overrides must be an object",
        gettext_lazy("ruleset overrides must be an object"),
    ),
)

#: Whole messages that have no "where: " prefix of their own.
WHOLE: tuple[Rule, ...] = (
    _rule(
        "phase.order",
        r"night (?P<n>\d+) out of order: night (?P<m>\d+) is next",
        gettext_lazy("night %(n)s out of order: night %(m)s is next"),
    ),
    _rule(
        "phase.order",
        rf"(?P<path>log\[\d+\]): (?P<phase>{_PHASE}) out of order; expected (?P<want>{_PHASE})",
        gettext_lazy("%(path)s: %(phase)s out of order; expected %(want)s"),
    ),
)

#: One line per code, for a message no rule matches.
CODES: Mapping[str, Promise] = {
    "phase.after_end": gettext_lazy("something was recorded after the game had ended"),
    "phase.order": gettext_lazy("a night or a day is out of order"),
    "event.unexpected": gettext_lazy("this step does not come now"),
    "day.missing_ballots": gettext_lazy("no ballot was held"),
    "ballot.missing": gettext_lazy("a tie needs another ballot"),
    "lot.missing": gettext_lazy("a tie needs lots to be drawn"),
    "day.missing_eliminated": gettext_lazy("nobody was declared out"),
    "day.wrong_elimination": gettext_lazy("the wrong seat was declared out"),
    "kill.unknown_seat": gettext_lazy("the killers chose a seat that is not at the table"),
    "kill.dead_target": gettext_lazy("the killers chose a player who is already out"),
    "check.unknown_seat": gettext_lazy("the police checked a seat that is not at the table"),
    "check.no_police": gettext_lazy("a check, but no police officer is alive"),
    "check.dead_target": gettext_lazy("the police checked a player who is already out"),
    "eject.unknown_seat": gettext_lazy("an ejected seat is not at the table"),
    "eject.dead_seat": gettext_lazy("an ejected player was already out"),
    "surrender.not_allowed": gettext_lazy("these rules have no surrender"),
    "surrender.unknown_seat": gettext_lazy("a surrendering seat is not at the table"),
    "surrender.dead_seat": gettext_lazy("a surrendering player was already out"),
    "surrender.civilian": gettext_lazy("a civilian may not surrender"),
    "surrender.teammate_alive": gettext_lazy("only the last of a side may surrender"),
    "ballot.extra": gettext_lazy("one ballot too many"),
    "vote.unknown_seat": gettext_lazy("a vote names a seat that is not at the table"),
    "vote.duplicate_voter": gettext_lazy("a player voted twice"),
    "vote.dead_voter": gettext_lazy("a player who is out voted"),
    "vote.abstain_forbidden": gettext_lazy("every voter must vote in this ballot"),
    "vote.self_vote": gettext_lazy("a player voted for themself"),
    "vote.dead_target": gettext_lazy("a vote for a player who is out"),
    "vote.not_candidate": gettext_lazy("a vote for a player this ballot is not between"),
    "vote.missing_voter": gettext_lazy("a player did not vote"),
    "lot.unexpected": gettext_lazy("lots were drawn, but there was no final tie"),
    "lot.not_tied": gettext_lazy("the lot fell on a player who was not tied"),
    "last_words.unknown_seat": gettext_lazy("last words by a seat that is not at the table"),
    "last_words.duplicate": gettext_lazy("a player gave last words twice"),
    "last_words.not_entitled": gettext_lazy("last words by a player who has none"),
    "last_words.too_many_suspects": gettext_lazy("last words name too many suspects"),
    "last_words.bad_suspect": gettext_lazy("last words name a suspect that is not allowed"),
    "result.missing": gettext_lazy("the game ended, but no result is recorded"),
    "result.unfinished": gettext_lazy("a result is recorded, but the game has not ended"),
    "result.wrong_winner": gettext_lazy("the recorded winner is not the one the game gives"),
    "setup.players": gettext_lazy("these rules do not seat this many players"),
    "setup.role_counts": gettext_lazy("the cards dealt do not match the rules"),
    "setup.seats": gettext_lazy("the seats must be numbered 1 to N, each once"),
    "setup.duplicate_player": gettext_lazy("a player holds two seats"),
    "awards.unknown_seat": gettext_lazy("an award to a seat that is not at the table"),
    "awards.points": gettext_lazy("an award's points are wrong"),
    "series.repeat_night1_victim": gettext_lazy(
        "the same player was the first night's victim twice"
    ),
    "record.json": gettext_lazy("the file is not JSON"),
    "record.format": gettext_lazy("the file is not a KGR/1 game record"),
    "record.type": gettext_lazy("a value in the record has the wrong type"),
    "record.bad_value": gettext_lazy("a value in the record is not allowed"),
    "record.duplicate_key": gettext_lazy("a key appears twice in the record"),
    "record.unknown_key": gettext_lazy("the record has an unknown key"),
    "record.missing_key": gettext_lazy("the record lacks a required key"),
    "ruleset.unknown": gettext_lazy("unknown ruleset"),
    "ruleset.unknown_parameter": gettext_lazy("unknown ruleset parameter"),
    "ruleset.bad_value": gettext_lazy("a ruleset parameter has a bad value"),
    "platform.ruleset": gettext_lazy("the record's ruleset is not this game's"),
    "platform.seating": gettext_lazy("the record's seats do not match the table's seating"),
    "platform.unknown_player": gettext_lazy("the record names unknown players"),
    "platform.too_many": gettext_lazy("more problems than are listed"),
}

_PREFIXES: Mapping[str, Promise] = {
    "setup": pgettext_lazy("record part", "setup"),
    "result": pgettext_lazy("record part", "result"),
    "series": pgettext_lazy("record part", "series"),
    "awards": pgettext_lazy("record part", "awards"),
    "ruleset": pgettext_lazy("record part", "ruleset"),
    "seats": pgettext_lazy("record part", "seats"),
    "log": pgettext_lazy("record part", "log"),
    "meta": pgettext_lazy("record part", "meta"),
    "format": pgettext_lazy("record part", "format"),
    "record": pgettext_lazy("record part", "record"),
}


_JSON_ERRORS: Mapping[str, Promise] = {
    "Expecting value": gettext_lazy("a value was expected"),
    "Expecting ',' delimiter": gettext_lazy("a comma (,) was expected"),
    "Expecting ':' delimiter": gettext_lazy("a colon (:) was expected"),
    "Expecting property name enclosed in double quotes": gettext_lazy(
        "a key in double quotes was expected"
    ),
    "Unterminated string starting at": gettext_lazy("a text is not closed"),
    "Extra data": gettext_lazy("there is more after the end of the JSON value"),
    "Invalid control character at": gettext_lazy("a control character is not allowed here"),
    "Invalid \\escape": gettext_lazy("a backslash escape is not valid"),
}


def json_error_text(msg: str) -> str:
    """Python's JSON parser's complaint (English) in the active language."""
    if (get_language() or "en").startswith("en"):
        return msg
    return _lookup(_JSON_ERRORS, msg)


def number_text(value: str) -> str:
    """A decimal written by the engine ("1.5"), with the active language's decimal mark."""
    try:
        return number_format(Decimal(value))
    except (InvalidOperation, ValueError):
        return value


# How each kind of parameter is said in the active language, by the name it has in a
# message pattern (``seats2`` is a ``seats``); a name not here is kept as written.
_CONVERTERS: Mapping[str, Callable[[str], str]] = {
    "phase": phase_text,
    "phase_on": lambda v: phase_text(v, on=True),
    "want": phase_text,
    "seats": seats_text,
    "gone": gone_text,
    "tie": tie_text,
    "reason": reason_text,
    "role": role_text,
    "winner": winner_text,
    "step": lambda v: _lookup(_STEPS, v),
    "got": lambda v: _lookup(_JSON_KINDS, v),
    "what": lambda v: _lookup(_WHAT, v),
    "said": _nobody_or_seat,
    "due": _nobody_or_seat,
    "policy": lambda v: _lookup(_LAST_WORDS_RULES, v),
    "list": seat_list_text,
    "cap": number_text,
    "factor": number_text,
    "detail": json_error_text,
    "expected": expected_text,
}


def _param(name: str, value: str) -> str:
    """A parameter taken out of an English message, in the active language."""
    convert = _CONVERTERS.get(name.rstrip("0123456789"))
    return convert(value) if convert is not None else value


def _render(rules: tuple[Rule, ...], text: str, code: str | None = None) -> str | None:
    for rule in rules:
        if code is not None and code not in rule.codes:
            continue
        m = rule.pattern.fullmatch(text)
        if m is not None:
            params = {k: _param(k, v) for k, v in m.groupdict().items()}
            return str(rule.template) % params
    return None


def _where_text(where: str) -> str:
    if re.fullmatch(_PHASE, where):
        return phase_text(where)
    found = _PREFIXES.get(where)
    return str(found) if found is not None else where  # a JSON path: kept as written


def _split(message: str) -> tuple[str, str] | None:
    """``"day 1 ballot 2: seat 3 voted twice"`` → (``"day 1 ballot 2"``, the rest)."""
    m = re.fullmatch(r"([^:]*?): (.*)", message, flags=re.DOTALL)
    if m is None:
        return None
    return m.group(1), m.group(2)


def render_violation(code: str, message: str) -> str | None:
    """The message in the active language, or None if no rule knows its shape."""
    whole = _render(WHOLE, message, code)
    if whole is not None:
        return whole
    parts = _split(message)
    if parts is None:
        return None
    where, rest = parts
    body = _render(VIOLATIONS, rest, code)
    if body is None:
        return None
    return pgettext("where: what", "%(where)s: %(message)s") % {
        "where": _where_text(where),
        "message": body,
    }


def violation_text(code: str, message: str, where: str = "") -> str:
    """What a user reads for a violation: its message in their language, always."""
    found = render_violation(code, message)
    if found is not None:
        return found
    if (get_language() or "en").startswith("en") or code not in CODES:
        return message  # English, or a message this module does not know (stored as written)
    text = str(CODES[code])
    if where:
        return pgettext("where: what", "%(where)s: %(message)s") % {
            "where": _where_text(where),
            "message": text,
        }
    return text


def translate_violation(v: Mapping[str, Any] | Any) -> dict[str, str]:
    """A violation (the engine's, or its stored ``as_dict()``) with a translated message."""
    if isinstance(v, Mapping):
        code, where, message = str(v.get("code", "")), str(v.get("where", "")), v.get("message")
    else:
        code, where, message = v.code, v.where, v.message
    text = str(message or "")
    return {"code": code, "where": where, "message": violation_text(code, text, where)}


# --- points: the reason on each line of a player's points ------------------------------------

_NUM = r"-?\d+(?:\.\d+)?"

POINT_REASONS: tuple[Rule, ...] = (
    _rule("result", r"drawn game", gettext_lazy("drawn game")),
    _rule("result", r"won: good side won", gettext_lazy("won: good side won")),
    _rule("result", r"won: killers side won", gettext_lazy("won: killers side won")),
    _rule("result", r"lost: good side won", gettext_lazy("lost: good side won")),
    _rule("result", r"lost: killers side won", gettext_lazy("lost: killers side won")),
    _rule("bonus", r"referee bonus", gettext_lazy("referee bonus")),
    _rule("bonus", r"referee bonus: (?P<note>.*)", gettext_lazy("referee bonus: %(note)s")),
    _rule(
        "bonus-cap",
        rf"referee bonuses capped at \+(?P<cap>{_NUM}) per game",
        gettext_lazy("referee bonuses capped at +%(cap)s per game"),
    ),
    _rule("penalty", r"referee penalty", gettext_lazy("referee penalty")),
    _rule("penalty", r"referee penalty: (?P<note>.*)", gettext_lazy("referee penalty: %(note)s")),
    _rule("warning", r"warning (?P<count>\d+)", gettext_lazy("warning %(count)s")),
    _rule(
        "warning",
        r"warning (?P<count>\d+): (?P<note>.*)",
        gettext_lazy("warning %(count)s: %(note)s"),
    ),
    _rule(
        "warnings",
        r"(?P<count>\d+) warnings in one game: automatic penalty \(once\)",
        gettext_lazy("%(count)s warnings in one game: automatic penalty (once)"),
    ),
    _rule("ejection", r"ejected by the referee", gettext_lazy("ejected by the referee")),
    _rule(
        "best-guess",
        r"best guess: named seat (?P<seat>\d+) \((?P<player>.+)\), a killer",
        gettext_lazy("best guess: named seat %(seat)s (%(player)s), a killer"),
    ),
    _rule(
        "ci",
        rf"compensation \(Ci\) for a lost game after a night-1 death: min\((?P<k>\d+) × "
        rf"(?P<factor>{_NUM}) / (?P<divisor>\d+), (?P<factor2>{_NUM})\) with (?P<n>\d+) games",
        gettext_lazy(
            "compensation (Ci) for a lost game after a night-1 death: "
            "min(%(k)s × %(factor)s / %(divisor)s, %(factor2)s) with %(n)s games"
        ),
    ),
)

POINT_KINDS: Mapping[str, Promise] = {
    "result": gettext_lazy("result of the game"),
    "bonus": gettext_lazy("referee bonus"),
    "bonus-cap": gettext_lazy("bonus cap"),
    "penalty": gettext_lazy("referee penalty"),
    "warning": pgettext_lazy("award", "warning"),
    "warnings": gettext_lazy("automatic penalty for warnings"),
    "ejection": gettext_lazy("ejected by the referee"),
    "best-guess": gettext_lazy("best guess"),
    "ci": gettext_lazy("compensation (Ci)"),
}


def point_reason_text(kind: str, reason: str) -> str:
    """A point line's reason (the engine's English) in the active language."""
    found = _render(POINT_REASONS, reason or "", kind)
    if found is not None:
        return found
    if (get_language() or "en").startswith("en"):
        return reason
    described = POINT_KINDS.get(kind)
    return str(described) if described is not None else reason
