"""The rules of play as one state machine, shared by live games and record validation.

:class:`GameState` is a game at the table: ``expected()`` says what may come next,
``apply(event)`` takes one event or rejects it. Whole-record validation
(:mod:`engine.validate`) replays a record through the very same step methods in a
lenient mode (report, then carry on with what the record declares), so a live game
and a record of it can never be judged differently.

Everything the state says is data: a :class:`Violation` is a code, a ``where`` and plain
``params``; why the game ended is an :class:`EndReason` (an :class:`Ending` adds the
surrendering seat); why a day goes on is a :class:`Tie`. Each renders its English from
:mod:`engine.messages` (templates in :mod:`engine.texts.games`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from operator import attrgetter, itemgetter
from types import MappingProxyType
from typing import Any

from engine.errors import EngineError
from engine.messages import Param, render
from engine.record import (
    UNDECLARED,
    Ballot,
    Day,
    GameRecord,
    LastWordsEntry,
    Night,
    Phase,
    Role,
    RulesetOverride,
    Seat,
    Undeclared,
    Violation,
    Winner,
    phase_label,
)
from engine.rulesets import BallotRule, FinalTie, KillersWin, LastWordsRule, Ruleset
from engine.values import frozen_value

__all__ = [
    "Cause",
    "Death",
    "Eject",
    "Eliminate",
    "EndReason",
    "Ending",
    "Event",
    "Expected",
    "GameState",
    "IllegalEventError",
    "Lot",
    "NightAction",
    "Step",
    "Surrender",
    "Tie",
    "TieKind",
    "can_end_drawn",
    "day_events",
]

# --- events ------------------------------------------------------------------------------


@frozen_value
class NightAction:
    """The night's two choices: the killers' victim and the police's check (None: none).

    A recorded :class:`~engine.record.Night` is accepted too, its number checked.
    """

    kill: int | None
    check: int | None


@frozen_value
class Eject:
    """The referee removes a rule-breaker (before the day's voting)."""

    seat: int


@frozen_value
class Surrender:
    """The last police officer or killer alive concedes (``classic`` only)."""

    seat: int


@frozen_value
class Lot:
    """The seat drawn after a third tied ballot under ``final_tie: lot``."""

    seat: int


@frozen_value
class Eliminate:
    """The referee declares who the day's ballots put out (None: nobody)."""

    seat: int | None


Event = NightAction | Night | Eject | Surrender | Ballot | Lot | Eliminate | LastWordsEntry


class IllegalEventError(EngineError):
    """An event the rules do not allow here; ``violations`` as whole-record validation says.

    ``code``, ``params`` and ``where`` are the first violation's; ``str()`` lists them all.
    """

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        first = self.violations[0]
        super().__init__(first.code, first.params)
        self.where = first.where

    @property
    def message(self) -> str:
        """The first violation's English, prefixed with its place."""
        return self.violations[0].message

    def __str__(self) -> str:
        return "; ".join(str(v) for v in self.violations)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.violations,)


# --- outcome -----------------------------------------------------------------------------


class Cause(StrEnum):
    """How a player left the game."""

    KILL = "kill"
    VOTE = "vote"
    LOT = "lot"
    EJECT = "eject"


@frozen_value
class Death:
    """A player out of the game: seat, cause, and the phase (``"night 2"``, ``"day 3"``)."""

    seat: int
    cause: Cause
    phase: str


class EndReason(StrEnum):
    """Why the game ended (python-chess's ``Termination``); values are stable tokens.

    The English is the catalogue's ``end.<value>`` (see :class:`Ending`).
    """

    KILLERS_OUT = "killers_out"  # every killer is out: the good side wins
    GOOD_OUT = "good_out"  # every good player is out (``all-good-out``)
    POLICE_OUT = "police_out"  # every police officer is out
    CIVILIANS_OUT = "civilians_out"  # every civilian is out (a draw under ``police-out``)
    FINAL_TIE_KILLERS = "final_tie_killers"  # a third tied ballot under ``final_tie: killers``
    FINAL_TIE_DRAW = "final_tie_draw"  # a third tied ballot under ``final_tie: draw``
    SURRENDER = "surrender"  # the last police officer or killer alive surrendered

    @property
    def code(self) -> str:
        """The catalogue key of this reason's sentence."""
        return f"end.{self.value}"


@frozen_value
class Ending:
    """Why the game ended, as data: the reason, and for a surrender who and of what role.

    ``str()`` is the English (``"every killer is out"``, ``"seat 5 (killer) surrendered"``).
    """

    reason: EndReason
    seat: int | None = None
    role: Role | None = None

    @property
    def code(self) -> str:
        """The catalogue key: ``end.<reason>``."""
        return self.reason.code

    @property
    def params(self) -> dict[str, Param]:
        """``{}``, or for a surrender ``{"seat", "role"}``."""
        if self.seat is None or self.role is None:
            return {}
        return {"seat": self.seat, "role": self.role.value}

    def __str__(self) -> str:
        return render(self.code, self.params)

    def as_dict(self) -> dict[str, object]:
        """The JSON form: code, params and the English message."""
        return {"code": self.code, "params": self.params, "message": str(self)}


class TieKind(StrEnum):
    """Why a day's voting goes on (spec §3.3, §3.4); values are stable tokens."""

    TIE_BREAK = "tie_break"  # plurality ballot 1 tied: the tied speak again, ballot 2
    OFF_SITE_PK = "off_site_pk"  # plurality ballot 2 tied: the others speak, ballot 3
    FINAL = "final"  # plurality ballot 3 tied: the ruleset's final_tie
    RUNOFF = "runoff"  # majority: no majority, a runoff ballot


@frozen_value
class Tie:
    """A tie (or a ballot without a majority): its kind, the ballot, the seats still in.

    ``rule`` is the ruleset's ``final_tie`` for a :attr:`TieKind.FINAL` tie, else None.
    ``seats`` are sorted and always two or more. ``str()`` is the English, e.g.
    ``"ballot 1 tied between seats 1, 7: tie-break"``.
    """

    kind: TieKind
    ballot: int
    seats: tuple[int, ...]
    rule: FinalTie | None = None

    @property
    def code(self) -> str:
        """The catalogue key: ``tie.<kind>``."""
        return f"tie.{self.kind.value}"

    @property
    def params(self) -> dict[str, Param]:
        """``{"k": ballot, "seats": [...]}``, plus ``"rule"`` for a final tie."""
        params: dict[str, Param] = {"k": self.ballot, "seats": list(self.seats)}
        if self.rule is not None:
            params["rule"] = self.rule.value
        return params

    def __str__(self) -> str:
        return render(self.code, self.params)

    def as_dict(self) -> dict[str, object]:
        """The JSON form: code, params and the English message."""
        return {"code": self.code, "params": self.params, "message": str(self)}


class Step(StrEnum):
    """What kind of event comes next."""

    NIGHT = "night"  # kill and check
    DAY = "day"  # ejections, a surrender, or ballot 1
    BALLOT = "ballot"  # a tie-break ballot
    LOT = "lot"  # the referee draws lots among the tied
    DECLARE = "declare"  # the referee declares who is out
    OVER = "over"


@frozen_value
class Expected:
    """What may come next; fields not about ``step`` are empty."""

    step: Step
    phase: str
    alive: frozenset[int]
    kill_targets: frozenset[int] = frozenset()
    check_targets: frozenset[int] = frozenset()  # empty: the check must be None
    ejectable: frozenset[int] = frozenset()
    may_surrender: frozenset[int] = frozenset()
    ballot: int = 0
    voters: frozenset[int] = frozenset()
    candidates: frozenset[int] = frozenset()
    abstain: bool = False
    tie: Tie | None = None
    lot_candidates: frozenset[int] = frozenset()
    eliminated: int | None = None
    last_words: frozenset[int] = frozenset()
    winner: Winner | None = None
    ending: Ending | None = None

    @property
    def reason(self) -> EndReason | None:
        """Why the game ended (``step`` is :attr:`Step.OVER`), or None."""
        return None if self.ending is None else self.ending.reason


def can_end_drawn(rules: Ruleset) -> bool:
    """Whether any game under ``rules`` can end in a draw (spec §6.9), from its parameters:
    a plurality ballot whose final tie is a draw, or ``killers_win: police-out`` (all
    civilians out is a draw)."""
    final_draw = rules.ballot is BallotRule.PLURALITY and rules.final_tie is FinalTie.DRAW
    return final_draw or rules.killers_win is KillersWin.POLICE_OUT


# --- the state machine -------------------------------------------------------------------

_OPEN, _VOTING, _LOT, _DECLARE, _DONE = range(5)  # stages of a day
_UNKNOWN = -1  # a day whose computed outcome the record's errors left undecidable

# Enum members as module constants: reading ``Role.KILLER`` goes through the enum's
# metaclass each time, a constant is a plain global.
_ROLES = tuple(Role)
_KILLER, _POLICE, _CIVILIAN = Role.KILLER, Role.POLICE, Role.CIVILIAN
_KILL, _VOTE, _LOT_CAUSE, _EJECT = Cause.KILL, Cause.VOTE, Cause.LOT, Cause.EJECT
_FIRST_ROUND, _FIRST_DEATHS = LastWordsRule.FIRST_ROUND, LastWordsRule.FIRST_DEATHS
_ALL_GOOD_OUT, _POLICE_OUT = KillersWin.ALL_GOOD_OUT, KillersWin.POLICE_OUT
_MAJORITY = BallotRule.MAJORITY
_GOOD, _KILLERS, _DRAW = Winner.GOOD, Winner.KILLERS, Winner.DRAW
_FINAL_LOT, _FINAL_KILLERS = FinalTie.LOT, FinalTie.KILLERS
_TIE_BREAK, _OFF_SITE_PK = TieKind.TIE_BREAK, TieKind.OFF_SITE_PK
_FINAL, _RUNOFF = TieKind.FINAL, TieKind.RUNOFF
# Every ending but a surrender names no seat: one shared value each.
_KILLERS_OUT = Ending(EndReason.KILLERS_OUT)
_GOOD_OUT = Ending(EndReason.GOOD_OUT)
_POLICE_GONE = Ending(EndReason.POLICE_OUT)
_CIVILIANS_OUT = Ending(EndReason.CIVILIANS_OUT)
_FINAL_TIE_KILLERS = Ending(EndReason.FINAL_TIE_KILLERS)
_FINAL_TIE_DRAW = Ending(EndReason.FINAL_TIE_DRAW)


_seat_number = attrgetter("seat")
_voter = itemgetter(0)  # of a (voter, target) pair


class _Labels(dict[int, str]):
    """Phase names by number, ``_NIGHT[2] == "night 2"``, each made once (up to 99)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, n: int) -> str:
        label = f"{self.kind} {n}"
        if n < 100:
            self[n] = label
        return label


_NIGHT, _DAY = _Labels("night"), _Labels("day")

# Deaths are frozen values, so games share them: one object per seat, cause and phase.
_DEATHS: dict[tuple[int, Cause, str], Death] = {}
_MAX_SHARED_DEATHS = 20_000  # every seat, cause and phase of games to 32 seats and 40 rounds


#: Setup problems after which the seats cannot be replayed (spec §6.2): a seat without a
#: place, or cards that do not fit the ruleset's table.
UNPLAYABLE_SETUP = frozenset({"setup.seats", "setup.players", "setup.role_counts"})


class _Deal:
    """The seats read in one pass: each seat's card, the cards dealt, the players."""

    __slots__ = ("dealt", "n", "players", "role", "seats")

    def __init__(self, seats: Sequence[Seat]) -> None:
        self.n = len(seats)
        self.seats = seats
        role: dict[int, Role] = {}
        players: set[str] = set()
        dealt = dict.fromkeys(_ROLES, 0)
        for s in seats:
            role[s.seat] = card = s.role
            players.add(s.player)
            dealt[card] += 1
        self.role, self.dealt, self.players = role, dealt, len(players)

    def problems(self, rules: Ruleset) -> list[Violation]:
        """The deal against ``rules``: seats 1..N once each, one seat a player, the table
        size, the cards. Every problem is reported (spec §6.2), one per duplicated player;
        the cards are compared only where the ruleset deals for this table size."""
        n = self.n
        found = []
        if len(self.role) != n or self.role.keys() != set(range(1, n + 1)):
            found.append(Violation("setup.seats", "setup", {"variant": "deal", "n": n}))
        if self.players != n:
            held: dict[str, list[int]] = {}
            for s in self.seats:
                held.setdefault(s.player, []).append(s.seat)
            for player, seats in held.items():
                if len(seats) > 1:
                    params: dict[str, Param] = {
                        "variant": "deal",
                        "player": player,
                        "seats": sorted(seats),
                    }
                    found.append(Violation("setup.duplicate_player", "setup", params))
        counts = rules.role_counts(n)
        if counts is None:
            lo, hi = rules.players
            params = {"n": n, "ruleset": rules.id, "lo": lo, "hi": hi}
            found.append(Violation("setup.players", "setup", params))
            return found
        dealt = self.dealt
        cards = (dealt[_KILLER], dealt[_POLICE], dealt[_CIVILIAN])
        if cards != counts:
            params = {
                "n": n,
                "ruleset": rules.id,
                "killers": counts[0],
                "police": counts[1],
                "civilians": counts[2],
                "held": list(cards),
            }
            found.append(Violation("setup.role_counts", "setup", params))
        return found


class GameState:
    """A game in play under one ruleset; see the module docstring."""

    # Every event reads and writes several of these: slots are cheaper than a dict.
    __slots__ = (
        "_abstain_through",
        "_counted",
        "_tie",
        "alive",
        "alive_count",
        "at_night",
        "ballots",
        "by_lot",
        "candidates",
        "counted_deaths",
        "day_touched",
        "dealt",
        "death_of",
        "deaths",
        "ejected",
        "ejected_today",
        "eliminated",
        "ended",
        "ending",
        "entitled",
        "log",
        "lot",
        "n",
        "night1_victim",
        "outcome",
        "role",
        "round",
        "rules",
        "seats",
        "setup_problems",
        "speakers",
        "spoken",
        "stage",
        "surrendered",
        "winner",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        seats: Sequence[Seat],
        *,
        lenient: bool = False,
        keep_log: bool = True,
    ) -> None:
        """Deal ``seats`` under ``ruleset``; a bad deal raises unless ``lenient`` (a replay,
        which reports ``setup_problems`` itself). Without ``keep_log`` (a replay that only
        judges) no log is kept, so ``to_record`` is not available."""
        deal = _Deal(seats)
        self.setup_problems = deal.problems(ruleset)
        if self.setup_problems and not lenient:
            raise IllegalEventError(self.setup_problems)
        self.rules = ruleset
        self.seats = tuple(sorted(seats, key=_seat_number))
        self.n = len(self.seats)
        self.role = deal.role
        self.dealt = deal.dealt
        self.alive_count = dict(deal.dealt)
        self.alive: set[int] = set(deal.role)
        self.round = 1
        self.at_night = True
        self.deaths: list[Death] = []
        self.ejected: list[int] = []  # the seats among ``deaths`` the referee removed
        self.death_of: dict[int, Death] = {}
        self.entitled: list[int] = []  # seats entitled to last words, in death order
        self.counted_deaths = 0  # kills and eliminations, for ``first-deaths``
        self.night1_victim: int | None = None
        self.winner: Winner | None = None
        self.ended: str | None = None
        self.ending: Ending | None = None
        self.log: list[Phase] | None = [] if keep_log else None
        self._abstain_through = ruleset.abstain_through
        self._new_day_vars()

    def _new_day_vars(self) -> None:
        self.stage = _OPEN
        self.ballots: list[Ballot] = []
        self.candidates: frozenset[int] | None = None
        # why the day goes on: (kind, ballot, seats), made a Tie only when asked (``tie``)
        self._tie: tuple[TieKind, int, frozenset[int]] | None = None
        self.outcome: int | None = None  # the seat the ballots put out, None, or _UNKNOWN
        self.by_lot = False
        self.ejected_today: list[int] = []
        self.surrendered: int | None = None
        self.lot: int | None = None
        self.eliminated: int | Undeclared | None = UNDECLARED
        self.speakers: set[int] = set()  # may give last words today
        self.spoken: list[LastWordsEntry] = []
        self.day_touched = False
        self._counted: tuple[Ballot, dict[int, int]] | None = None

    # --- queries ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.winner is not None

    @property
    def tie(self) -> Tie | None:
        """Why the day's voting goes on (a tie, no majority), or None."""
        if self._tie is None:
            return None
        kind, k, seats = self._tie
        rule = self.rules.final_tie if kind is _FINAL else None
        return Tie(kind, k, tuple(sorted(seats)), rule)

    @property
    def reason(self) -> EndReason | None:
        """Why the game ended (see ``ending``), or None while it goes on."""
        ending = self.ending
        return None if ending is None else ending.reason

    @property
    def label(self) -> str:
        """The current phase: ``"night N"`` or ``"day N"``."""
        return _NIGHT[self.round] if self.at_night else _DAY[self.round]

    def _night_label(self) -> str:
        return _NIGHT[self.round if self.at_night else self.round + 1]

    def expected(self) -> Expected:
        """What may come next, with the allowed seats."""
        alive = frozenset(self.alive)
        speakers = frozenset(self.speakers - {w.seat for w in self.spoken})
        if self.winner is not None:
            return Expected(
                Step.OVER,
                self.label,
                alive,
                last_words=speakers,
                winner=self.winner,
                ending=self.ending,
            )
        if self.at_night or self.stage == _DONE:
            police = self.alive_count[_POLICE] > 0
            return Expected(
                Step.NIGHT,
                self._night_label(),
                alive,
                kill_targets=alive,
                check_targets=alive if police else frozenset(),
                last_words=speakers,
            )
        if self.stage in (_OPEN, _VOTING):
            k = len(self.ballots) + 1
            open_ = self.stage == _OPEN
            surrender = frozenset(
                s
                for s in alive
                if self.rules.surrender
                and self.role[s] is not _CIVILIAN
                and self.alive_count[self.role[s]] == 1
            )
            return Expected(
                Step.DAY if open_ else Step.BALLOT,
                self.label,
                alive,
                ejectable=alive if open_ else frozenset(),
                may_surrender=surrender if open_ else frozenset(),
                ballot=k,
                voters=alive,
                candidates=alive if self.candidates is None else self.candidates,
                abstain=self.rules.abstain_allowed(k),
                tie=self.tie,
                last_words=speakers,
            )
        if self.stage == _LOT:
            return Expected(
                Step.LOT,
                self.label,
                alive,
                lot_candidates=self.candidates or frozenset(),
                tie=self.tie,
                last_words=speakers,
            )
        return Expected(
            Step.DECLARE,
            self.label,
            alive,
            eliminated=None if self.outcome == _UNKNOWN else self.outcome,
            tie=self.tie,
            last_words=speakers,
        )

    def _gone(
        self, code: str, where: str, seat: int, params: dict[str, Param], prefix: str = ""
    ) -> Violation:
        """``code`` about ``seat``, who is out: the params say how and when (``cause`` and
        ``on``: killed on night 2), the variant is ``prefix`` and the cause."""
        d = self.death_of[seat]
        cause = d.cause.value
        params["variant"] = prefix + cause
        params["cause"] = cause
        params["on"] = d.phase
        return Violation(code, where, params)

    # --- removing players and ending the game ----------------------------------------------

    def _remove(self, seat: int, cause: Cause) -> None:
        label = _NIGHT[self.round] if self.at_night else _DAY[self.round]  # self.label
        key = (seat, cause, label)
        death = _DEATHS.get(key)
        if death is None:
            death = Death(seat, cause, label)
            if len(_DEATHS) < _MAX_SHARED_DEATHS:
                _DEATHS[key] = death
        self.alive.discard(seat)
        role = self.role[seat]
        alive_count = self.alive_count
        alive_count[role] -= 1
        self.deaths.append(death)
        self.death_of[seat] = death
        rules = self.rules
        if cause is not _EJECT:
            self.counted_deaths += 1
            # who is entitled to last words
            policy = rules.last_words
            if policy is _FIRST_ROUND:
                entitled = self.round == 1
            elif policy is _FIRST_DEATHS:
                entitled = self.counted_deaths <= self.dealt[_KILLER]
            else:
                entitled = cause is _KILL or role is not _KILLER
            if entitled:
                self.entitled.append(seat)
                self.speakers.add(seat)
        if cause is _KILL and self.round == 1:
            self.night1_victim = seat
        # the end test
        if alive_count[_KILLER] == 0:
            self._end(_GOOD, _KILLERS_OUT)
            return
        rule = rules.killers_win
        dealt = self.dealt
        if rule is _ALL_GOOD_OUT:
            if alive_count[_POLICE] + alive_count[_CIVILIAN] == 0:
                self._end(_KILLERS, _GOOD_OUT)
        elif dealt[_POLICE] > 0 and alive_count[_POLICE] == 0:
            self._end(_KILLERS, _POLICE_GONE)
        elif dealt[_CIVILIAN] > 0 and alive_count[_CIVILIAN] == 0:
            self._end(_DRAW if rule is _POLICE_OUT else _KILLERS, _CIVILIANS_OUT)

    def _end(self, winner: Winner, ending: Ending) -> None:
        self.winner, self.ending, self.ended = winner, ending, self.label

    # --- stepping --------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Play one event, or raise :class:`IllegalEventError` and leave the state unchanged."""
        self.step(event, strict=True)

    def step(self, event: Event, strict: bool) -> list[Violation]:
        """Judge ``event``; strict: raise on a violation, else report it and play on.

        Nothing is played after the game's end or for an event out of place; otherwise the
        lenient mode plays what the record declares, as the table did.
        """
        handlers = _HANDLERS.get(type(event))
        if handlers is None:
            raise TypeError(f"not a game event: {event!r}")
        check, commit = handlers
        found = check(self, event)
        if found:
            if strict:
                raise IllegalEventError(found)
            if found[0].code in _NOT_PLAYED:
                return found
        commit(self, event)
        return found

    def _after_end(self, where: str) -> Violation:
        return Violation("phase.after_end", where, {"ended": self.ended})

    def _unexpected(self, what: str) -> list[Violation]:
        """``event.unexpected``: ``what`` (a variant of its template) has no place now."""
        step = self.expected().step.value
        params: dict[str, Param] = {"variant": what, "what": what, "step": step}
        return [Violation("event.unexpected", self.label, params)]

    def _unknown(self, code: str, where: str, seat: int) -> Violation | None:
        if 1 <= seat <= self.n:
            return None
        return Violation(code, where, {"seat": seat, "n": self.n})

    # night

    def close_day(self) -> list[Violation]:
        """What the current day still lacks before the game may move on (none at night)."""
        if self.at_night or self.stage == _DONE or self.winner is not None:
            return []
        return self._day_lacks()

    def _day_lacks(self) -> list[Violation]:
        w = self.label
        stage = self.stage
        if stage == _OPEN:
            return [Violation("day.missing_ballots", w, {})]
        if stage == _VOTING:
            k = len(self.ballots) + 1
            tie = self.tie
            assert tie is not None  # every runoff has its tie
            params = {"variant": tie.kind.value, **tie.params, "next_ballot": k}
            return [Violation("ballot.missing", f"{w} ballot {k}", params)]
        if stage == _LOT:
            tie = self.tie
            assert tie is not None  # lots follow a final tie
            return [Violation("lot.missing", w, tie.params)]
        if stage == _DECLARE:
            return [Violation("day.missing_eliminated", w, {})]
        return []

    def _check_night(self, e: NightAction | Night) -> list[Violation]:
        number = self.round if self.at_night else self.round + 1
        where = self._night_label()
        if self.winner is not None:
            return [self._after_end(where)]
        if isinstance(e, Night) and e.n != number:
            params: dict[str, Param] = {"variant": "live", "next_phase": where}
            return [Violation("phase.order", f"night {e.n}", params)]
        # close_day() has nothing to say at night or once the day is declared
        found = [] if self.at_night or self.stage == _DONE else self.close_day()
        kill, check, alive = e.kill, e.check, self.alive
        if kill is not None and not (1 <= kill <= self.n and kill in alive):
            v = self._unknown("kill.unknown_seat", where, kill)
            if v:
                found.append(v)
            elif kill not in alive:
                found.append(self._gone("kill.dead_target", where, kill, {"target": kill}))
        if check is not None and not (
            1 <= check <= self.n and self.alive_count[_POLICE] != 0 and check in alive
        ):
            v = self._unknown("check.unknown_seat", where, check)
            if v:
                found.append(v)
            elif self.alive_count[_POLICE] == 0:
                found.append(Violation("check.no_police", where, {"target": check}))
            elif check not in alive:
                found.append(self._gone("check.dead_target", where, check, {"target": check}))
        return found

    def _day_entry(self) -> Day:
        eliminated = self.eliminated
        if eliminated is UNDECLARED and self.stage == _DECLARE and self.winner is not None:
            eliminated = None  # a final tie ended the game: nobody is out (spec §6.4)
        return Day(
            self.round,
            tuple(self.ejected_today) if self.ejected_today else None,
            self.surrendered,
            tuple(self.ballots) if self.ballots else None,
            eliminated,
            self.lot,
            tuple(self.spoken) if self.spoken else None,
        )

    def _commit_night(self, e: NightAction | Night) -> None:
        log = self.log
        if not self.at_night:
            if self.day_touched and log is not None:
                log.append(self._day_entry())
            self.round += 1
            self.at_night = True
        self._new_day_vars()
        if log is not None:
            log.append(e if isinstance(e, Night) else Night(self.round, e.kill, e.check))
        if e.kill is not None and e.kill in self.alive:
            self._remove(e.kill, _KILL)
        self.at_night = False

    # day: ejections and surrender

    def _check_eject(self, e: Eject) -> list[Violation]:
        if self.at_night:
            return self._unexpected("eject_at_night")
        w = self.label
        if self.winner is not None:
            return [self._after_end(w)]
        if self.stage != _OPEN:
            return self._unexpected("eject_after_ballot")
        v = self._unknown("eject.unknown_seat", w, e.seat)
        if v:
            return [v]
        if e.seat not in self.alive:
            return [self._gone("eject.dead_seat", w, e.seat, {"seat": e.seat})]
        return []

    def _commit_eject(self, e: Eject) -> None:
        self.day_touched = True
        self.ejected_today.append(e.seat)
        if e.seat in self.alive:
            self.ejected.append(e.seat)
            self._remove(e.seat, _EJECT)

    def _check_surrender(self, e: Surrender) -> list[Violation]:
        if self.at_night:
            return self._unexpected("surrender_at_night")
        w = self.label
        if self.winner is not None:
            return [self._after_end(w)]
        if self.stage != _OPEN or self.surrendered is not None:
            return self._unexpected("surrender_after_ballot")
        if not self.rules.surrender:
            params: dict[str, Param] = {"seat": e.seat, "ruleset": self.rules.id}
            return [Violation("surrender.not_allowed", w, params)]
        v = self._unknown("surrender.unknown_seat", w, e.seat)
        if v:
            return [v]
        if e.seat not in self.alive:
            return [self._gone("surrender.dead_seat", w, e.seat, {"seat": e.seat})]
        role = self.role[e.seat]
        if role is _CIVILIAN:
            return [Violation("surrender.civilian", w, {"seat": e.seat})]
        if self.alive_count[role] > 1:
            mates = sorted(s for s in self.alive if self.role[s] is role and s != e.seat)
            params = {
                "variant": "one" if len(mates) == 1 else "many",
                "seat": e.seat,
                "seats": mates,
                "role": role.value,
            }
            return [Violation("surrender.teammate_alive", w, params)]
        return []

    def _commit_surrender(self, e: Surrender) -> None:
        self.day_touched = True
        self.surrendered = e.seat
        role = self.role.get(e.seat)
        if (
            self.rules.surrender
            and e.seat in self.alive
            and role is not None
            and role is not _CIVILIAN
            and self.alive_count[role] == 1
        ):
            winner = _GOOD if role is _KILLER else _KILLERS
            self._end(winner, Ending(EndReason.SURRENDER, e.seat, role))

    # day: ballots

    def _check_ballot(self, b: Ballot) -> list[Violation]:
        k = len(self.ballots) + 1
        if self.at_night:
            return self._unexpected("ballot_at_night")
        stage = self.stage
        if stage in (_OPEN, _VOTING):
            if self.winner is not None:
                return [self._after_end(self.label)]
        else:
            where = f"day {self.round} ballot {k}"
            params: dict[str, Param] = (
                {"variant": "decided", "k": k - 1} if stage != _DONE else {"variant": "over"}
            )
            return [Violation("ballot.extra", where, params)]
        alive, candidates = self.alive, self.candidates
        abstain_ok = k <= self._abstain_through
        counts = self._count_legal(b, alive, candidates, abstain_ok)
        if counts is not None:
            self._counted = (b, counts)
            return []
        where = f"day {self.round} ballot {k}"
        found: list[Violation] = []
        seen: set[int] = set()
        n = self.n
        for voter, target in b.votes:
            if not 1 <= voter <= n:
                params = {"variant": "voter", "voter": voter, "n": n}
                found.append(Violation("vote.unknown_seat", where, params))
                continue
            if voter in seen:
                found.append(Violation("vote.duplicate_voter", where, {"voter": voter}))
                continue
            seen.add(voter)
            if voter not in alive:
                found.append(self._gone("vote.dead_voter", where, voter, {"voter": voter}))
                continue
            if target is None:
                if not abstain_ok:
                    found.append(Violation("vote.abstain_forbidden", where, {"voter": voter}))
            elif not 1 <= target <= n:
                params = {"variant": "target", "voter": voter, "target": target, "n": n}
                found.append(Violation("vote.unknown_seat", where, params))
            elif target == voter:
                found.append(Violation("vote.self_vote", where, {"voter": voter}))
            elif target not in alive:
                params = {"voter": voter, "target": target}
                found.append(self._gone("vote.dead_target", where, target, params))
            elif candidates is not None and target not in candidates:
                params = {"voter": voter, "target": target, "seats": sorted(candidates)}
                found.append(Violation("vote.not_candidate", where, params))
        missing = alive - seen
        if missing:
            for s in sorted(missing):
                found.append(Violation("vote.missing_voter", where, {"voter": s}))
        return found

    @staticmethod
    def _count_legal(
        b: Ballot, alive: set[int], candidates: frozenset[int] | None, abstain_ok: bool
    ) -> dict[int, int] | None:
        """Votes per target if the whole ballot is legal, else None (the hot path): every
        seat alive votes once, for another seat alive (and a candidate), or abstains
        where that is allowed."""
        votes = b.votes
        if len(votes) != len(alive) or set(map(_voter, votes)) != alive:
            return None
        allowed = alive if candidates is None else alive & candidates
        counts: dict[int, int] = {}
        for voter, target in votes:
            if target in allowed and target != voter:
                counts[target] = counts.get(target, 0) + 1
            elif target is not None or not abstain_ok:
                return None
        return counts

    def _count(self, b: Ballot) -> dict[int, int]:
        """Votes per target, counting only legal votes (spec §4)."""
        if self._counted is not None and self._counted[0] is b:
            return self._counted[1]
        counts: dict[int, int] = {}
        alive, candidates = self.alive, self.candidates
        seen: set[int] = set()
        for voter, target in b.votes:
            if voter in seen or voter not in alive:
                continue
            seen.add(voter)
            if target is None or target == voter or target not in alive:
                continue
            if candidates is not None and target not in candidates:
                continue
            counts[target] = counts.get(target, 0) + 1
        return counts

    def _commit_ballot(self, b: Ballot) -> None:
        if self.stage not in (_OPEN, _VOTING):
            return  # an extra ballot: reported, not counted
        counted = self._counted
        counts = counted[1] if counted is not None and counted[0] is b else self._count(b)
        self._counted = None
        self.ballots.append(b)
        self.day_touched = True
        k = len(self.ballots)
        self.stage = _DECLARE
        if not counts:  # all abstained (or no vote counted): nobody is out, not a tie
            self.outcome, self._tie = None, None
            return
        top = max(counts.values())
        leading = []
        for seat, votes in counts.items():
            if votes == top:
                leading.append(seat)
        if self.rules.ballot is _MAJORITY:
            if top * 2 > sum(counts.values()):
                self.outcome, self._tie = leading[0], None
            elif k >= self.rules.max_ballots:
                self.outcome, self._tie = None, None
            else:
                if len(leading) == 1:
                    second = max((c for c in counts.values() if c < top), default=0)
                    leading += [s for s, c in counts.items() if c == second]
                self._runoff(leading, _RUNOFF, k)
            return
        if len(leading) == 1:
            self.outcome, self._tie = leading[0], None
        elif k == 1:
            self._runoff(leading, _TIE_BREAK, k)
        elif k == 2:
            self._runoff(leading, _OFF_SITE_PK, k)
        else:
            self._final_tie(leading, k)

    def _runoff(self, candidates: list[int], kind: TieKind, k: int) -> None:
        """Vote again between ``candidates``: ballot ``k`` left them tied (``kind``)."""
        self.stage, self.candidates = _VOTING, frozenset(candidates)
        self._tie = (kind, k, self.candidates)

    def _final_tie(self, tied: list[int], k: int) -> None:
        rule = self.rules.final_tie
        seats = frozenset(tied)
        self._tie = (_FINAL, k, seats)
        self.outcome = None
        if rule is _FINAL_LOT:
            self.stage, self.candidates = _LOT, seats
        elif rule is _FINAL_KILLERS:
            self._end(_KILLERS, _FINAL_TIE_KILLERS)
        else:
            self._end(_DRAW, _FINAL_TIE_DRAW)

    def _check_lot(self, e: Lot) -> list[Violation]:
        if self.at_night:
            return self._unexpected("lot_at_night")
        w = self.label
        if self.winner is not None:
            return [self._after_end(w)]
        if self.stage != _LOT:
            params: dict[str, Param] = (
                {"variant": "no_lots", "seat": e.seat, "ruleset": self.rules.id}
                if self.rules.final_tie is not _FINAL_LOT
                else {"variant": "no_tie", "seat": e.seat}
            )
            return [Violation("lot.unexpected", w, params)]
        tied = self.candidates or frozenset()
        if e.seat not in tied:
            params = {"seat": e.seat, "seats": sorted(tied)}
            return [Violation("lot.not_tied", w, params)]
        return []

    def _commit_lot(self, e: Lot) -> None:
        self.day_touched = True
        self.lot = e.seat
        if self.stage == _LOT:
            tied = self.candidates or frozenset()
            self.stage, self.by_lot = _DECLARE, True
            self.outcome = e.seat if e.seat in tied else _UNKNOWN

    def _check_eliminate(self, e: Eliminate) -> list[Violation]:
        if self.at_night:
            return self._unexpected("eliminate_at_night")
        stage = self.stage
        if self.winner is not None:
            if stage == _DECLARE and self.outcome is None and e.seat is None:
                return []  # the final tie ended the game; nobody is out
            if stage != _DECLARE:
                return [self._after_end(self.label)]
        if stage == _DONE:
            return self._unexpected("eliminate_twice")
        if stage != _DECLARE:
            return self.close_day()
        outcome = self.outcome
        if outcome == _UNKNOWN or e.seat == outcome:
            return []
        if e.seat is None:
            params: dict[str, Param] = {"variant": "nobody_seat", "target": outcome}
        elif outcome is None:
            params = {"variant": "seat_nobody", "seat": e.seat}
        else:
            params = {"variant": "seat_seat", "seat": e.seat, "target": outcome}
        return [Violation("day.wrong_elimination", self.label, params)]

    def _commit_eliminate(self, e: Eliminate) -> None:
        if self.stage == _DONE:
            return
        self.day_touched = True
        self.eliminated = e.seat
        by_lot = self.by_lot
        self.stage = _DONE
        if e.seat is not None and e.seat in self.alive and self.winner is None:
            self._remove(e.seat, _LOT_CAUSE if by_lot else _VOTE)

    # last words

    def _check_last_words(self, e: LastWordsEntry) -> list[Violation]:
        if self.at_night:
            return self._unexpected("last_words_at_night")
        w = _DAY[self.round]  # the label, by day
        n = self.n
        if not 1 <= e.seat <= n:
            v = self._unknown("last_words.unknown_seat", w, e.seat)
            if v:
                return [v]
        spoken = self.spoken
        if spoken and any(x.seat == e.seat for x in spoken):
            return [Violation("last_words.duplicate", w, {"seat": e.seat})]
        found = []
        if e.seat not in self.speakers:
            code = "last_words.not_entitled"
            if e.seat in self.alive:
                found.append(Violation(code, w, {"variant": "alive", "seat": e.seat}))
            elif e.seat not in self.entitled:
                params: dict[str, Param] = {"seat": e.seat, "rule": self.rules.last_words.value}
                found.append(self._gone(code, w, e.seat, params, "none_"))
            else:
                found.append(self._gone(code, w, e.seat, {"seat": e.seat}, "late_"))
        limit = self.dealt[_KILLER]
        if len(e.suspects) > limit:
            params = {"seat": e.seat, "count": len(e.suspects), "max": limit}
            found.append(Violation("last_words.too_many_suspects", w, params))
        suspects = e.suspects
        if not suspects:
            return found
        if (
            e.seat in suspects
            or min(suspects) < 1
            or max(suspects) > n
            or len(set(suspects)) != len(suspects)
        ):
            params = {"seat": e.seat, "seats": list(suspects), "n": n}
            found.append(Violation("last_words.bad_suspect", w, params))
        return found

    def _commit_last_words(self, e: LastWordsEntry) -> None:
        if self.at_night:
            return
        self.day_touched = True
        self.spoken.append(e)

    # --- replaying a record ----------------------------------------------------------------

    def replay(self, log: Sequence[Phase], found: list[Violation]) -> bool:
        """Replay a record's log leniently (as :meth:`step` does), adding what it breaks to
        ``found``; False when the replay had to stop: a phase out of order, or play after
        the end (the last words of the day that ended the game still count).

        Each event goes straight to its check and commit methods: this loop is most of a
        record's validation, and :meth:`step` would add a call an event.
        """
        handlers, not_played = _HANDLERS, _NOT_PLAYED
        check_night, commit_night = GameState._check_night, GameState._commit_night
        for i, phase in enumerate(log):
            is_night = i % 2 == 0
            if self.winner is not None and not (
                isinstance(phase, Day) and phase.n == self.round and not self.day_touched
            ):
                params: dict[str, Param] = {"ended": self.ended}
                found.append(Violation("phase.after_end", phase_label(phase), params))
                return False
            if isinstance(phase, Night) is not is_night or phase.n != i // 2 + 1:
                label = phase_label(phase)
                params = {
                    "variant": "log",
                    "path": f"log[{i}]",
                    "phase": label,
                    "next_phase": f"{'night' if is_night else 'day'} {i // 2 + 1}",
                }
                found.append(Violation("phase.order", label, params))
                return False
            if isinstance(phase, Night):
                got = check_night(self, phase)
                if got:
                    found += got
                    if got[0].code in not_played:
                        continue
                commit_night(self, phase)
                continue
            ended = False
            for event in day_events(phase):
                if ended and not isinstance(event, LastWordsEntry):
                    continue
                check, commit = handlers[type(event)]
                got = check(self, event)
                if got:
                    code = got[0].code
                    if code == "phase.after_end":
                        ended = True
                        found.append(got[0])
                        continue
                    found += got
                    if code in not_played:
                        continue
                commit(self, event)
            if ended:
                return False
        return True

    # --- the end of a record ---------------------------------------------------------------

    def judge_result(self, declared: Winner | None) -> list[Violation]:
        """Check the record's result (None: in progress) against the game so far."""
        ending = self.ending
        if declared is None:
            if self.winner is None or ending is None:
                return []
            params: dict[str, Param] = {
                "variant": ending.reason.value,
                "end": ending.reason.value,
                "ended": self.ended,
                **ending.params,
            }
            return [Violation("result.missing", "result", params)]
        if self.winner is None or ending is None:
            e = self.expected()
            params = {"declared": declared.value, "step": e.step.value, "phase": e.phase}
            return [Violation("result.unfinished", "result", params)]
        if declared is not self.winner:
            params = {
                "variant": ending.reason.value,
                "end": ending.reason.value,
                "declared": declared.value,
                "winner": self.winner.value,
                "ended": self.ended,
                **ending.params,
            }
            return [Violation("result.wrong_winner", "result", params)]
        return []

    def close_record(self, declared: Winner | None, ends_by_day: bool) -> list[Violation]:
        """The end of a record's log (``ends_by_day``: its last phase is a day), then its
        result (:meth:`judge_result`).

        A finished record (``declared`` not None) declares ``eliminated`` on every day that
        voted, ``null`` when nobody is out, a final tie's day included, and holds every
        ballot its last day needs (spec §6.4, §6.5): what the last day lacks is reported at
        that day. A missing declaration is then taken as the ballots' outcome, so the result
        is still judged; after a day that lacks a ballot or a lot the result is not judged
        (the day's outcome is unknown). An in-progress record may stop anywhere.
        """
        if declared is None or not ends_by_day or self.at_night:
            return self.judge_result(declared)
        stage = self.stage
        if stage == _DONE:
            return self.judge_result(declared)
        if self.winner is not None:
            if stage == _DECLARE:  # a final tie ended the game, nobody declared out
                return [self._day_lacks()[0], *self.judge_result(declared)]
            return self.judge_result(declared)  # the game ended before the day voted
        found = self._day_lacks()
        if stage != _DECLARE:
            return found
        outcome = self.outcome
        if outcome is not None and outcome != _UNKNOWN:
            self._commit_eliminate(Eliminate(outcome))
        return found + self.judge_result(declared)

    # --- the record ------------------------------------------------------------------------

    def to_record(self, result: bool = True, meta: dict[str, str] | None = None) -> GameRecord:
        """The game so far as a record; the result is filled in once the game is over."""
        if self.log is None:
            raise RuntimeError("this replay kept no log (keep_log=False)")
        log = list(self.log)
        if not self.at_night and self.day_touched:
            log.append(self._day_entry())
        spec = self.rules.to_spec()
        return GameRecord(
            ruleset_spec=spec
            if isinstance(spec, str)
            else RulesetOverride(self.rules.id, MappingProxyType(spec["overrides"])),
            rules=self.rules,
            seats=self.seats,
            log=tuple(log),
            result=self.winner if result else None,
            meta=meta,
        )


_Check = Callable[[GameState, Any], list[Violation]]
_Commit = Callable[[GameState, Any], None]
_HANDLERS: dict[type, tuple[_Check, _Commit]] = {
    Ballot: (GameState._check_ballot, GameState._commit_ballot),
    NightAction: (GameState._check_night, GameState._commit_night),
    Night: (GameState._check_night, GameState._commit_night),
    Eliminate: (GameState._check_eliminate, GameState._commit_eliminate),
    LastWordsEntry: (GameState._check_last_words, GameState._commit_last_words),
    Eject: (GameState._check_eject, GameState._commit_eject),
    Surrender: (GameState._check_surrender, GameState._commit_surrender),
    Lot: (GameState._check_lot, GameState._commit_lot),
}
_NOT_PLAYED = frozenset({"phase.after_end", "phase.order", "event.unexpected"})


# The common declarations, made once: events are frozen values, so sharing them is safe.
_ELIMINATE: dict[int | None, Eliminate] = {s: Eliminate(s) for s in (None, *range(1, 32))}


def day_events(day: Day) -> list[Event]:
    """A recorded day as events, in the order the rules take them."""
    eject = day.eject
    events: list[Event] = [Eject(s) for s in eject] if eject else []
    if day.surrender is not None:
        events.append(Surrender(day.surrender))
    if day.ballots:
        events.extend(day.ballots)
    if day.lot is not None:
        events.append(Lot(day.lot))
    eliminated = day.eliminated
    if eliminated is not UNDECLARED:
        shared = (
            _ELIMINATE.get(eliminated) if eliminated is None or type(eliminated) is int else None
        )
        events.append(Eliminate(eliminated) if shared is None else shared)
    if day.last_words:
        events.extend(day.last_words)
    return events
