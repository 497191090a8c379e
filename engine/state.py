"""The rules of play as one state machine, shared by live games and record validation.

:class:`GameState` is a game at the table: ``expected()`` says what may come next,
``apply(event)`` takes one event or rejects it. Whole-record validation
(:mod:`engine.validate`) replays a record through the very same step methods in a
lenient mode (report, then carry on with what the record declares), so a live game
and a record of it can never be judged differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from engine.errors import EngineError
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
    fast_init,
)
from engine.rulesets import BallotRule, FinalTie, KillersWin, LastWordsRule, Ruleset

# --- events ------------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True, slots=True)
class NightAction:
    """The night's two choices: the killers' victim and the police's check (None: none).

    A recorded :class:`~engine.record.Night` is accepted too, its number checked.
    """

    kill: int | None
    check: int | None


@fast_init
@dataclass(frozen=True, slots=True)
class Eject:
    """The referee removes a rule-breaker (before the day's voting)."""

    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class Surrender:
    """The last police officer or killer alive concedes (``classic`` only)."""

    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class Lot:
    """The seat drawn after a third tied ballot under ``final_tie: lot``."""

    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class Eliminate:
    """The referee declares who the day's ballots put out (None: nobody)."""

    seat: int | None


Event = NightAction | Night | Eject | Surrender | Ballot | Lot | Eliminate | LastWordsEntry


class IllegalEventError(EngineError):
    """An event the rules do not allow here; ``violations`` as whole-record validation says."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        first = self.violations[0]
        self.code, self.where, self.message = first.code, first.where, first.message
        super().__init__("; ".join(str(v) for v in self.violations))


# --- outcome -----------------------------------------------------------------------------


class Cause(StrEnum):
    """How a player left the game."""

    KILL = "kill"
    VOTE = "vote"
    LOT = "lot"
    EJECT = "eject"


_CAUSE_TEXT = {
    Cause.KILL: "killed on",
    Cause.VOTE: "voted out on",
    Cause.LOT: "drawn out by lot on",
    Cause.EJECT: "ejected on",
}


@fast_init
@dataclass(frozen=True, slots=True)
class Death:
    """A player out of the game: seat, cause, and the phase (``"night 2"``, ``"day 3"``)."""

    seat: int
    cause: Cause
    phase: str


class Step(StrEnum):
    """What kind of event comes next."""

    NIGHT = "night"  # kill and check
    DAY = "day"  # ejections, a surrender, or ballot 1
    BALLOT = "ballot"  # a tie-break ballot
    LOT = "lot"  # the referee draws lots among the tied
    DECLARE = "declare"  # the referee declares who is out
    OVER = "over"


@fast_init
@dataclass(frozen=True, slots=True)
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
    tie: str | None = None
    lot_candidates: frozenset[int] = frozenset()
    eliminated: int | None = None
    last_words: frozenset[int] = frozenset()
    winner: Winner | None = None
    reason: str | None = None


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


def _seats(seats: Iterable[int]) -> str:
    s = sorted(seats)
    return "seat " + str(s[0]) if len(s) == 1 else "seats " + ", ".join(map(str, s))


_seat_number = attrgetter("seat")


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


class _Deal:
    """The seats read in one pass: each seat's card, the cards dealt, the players."""

    __slots__ = ("dealt", "n", "players", "role")

    def __init__(self, seats: Sequence[Seat]) -> None:
        self.n = len(seats)
        role: dict[int, Role] = {}
        players: set[str] = set()
        dealt = dict.fromkeys(_ROLES, 0)
        for s in seats:
            role[s.seat] = card = s.role
            players.add(s.player)
            dealt[card] += 1
        self.role, self.dealt, self.players = role, dealt, len(players)

    def problems(self, rules: Ruleset) -> list[Violation]:
        """The deal against ``rules``: seats 1..N once each, one seat a player, the cards.

        Only the first problem is reported; the later checks assume the earlier ones hold.
        """
        n = self.n
        if len(self.role) != n or self.role.keys() != set(range(1, n + 1)):
            return [Violation("setup.seats", "setup", f"setup: seats must be 1..{n}, each once")]
        if self.players != n:
            return [Violation("setup.duplicate_player", "setup", "setup: a player holds two seats")]
        counts = rules.role_counts(n)
        if counts is None:
            lo, hi = rules.players
            return [
                Violation(
                    "setup.players", "setup", f"setup: {n} seat(s), but {rules.id} seats {lo}–{hi}"
                )
            ]
        dealt = self.dealt
        held = (dealt[_KILLER], dealt[_POLICE], dealt[_CIVILIAN])
        if held != counts:
            return [
                Violation(
                    "setup.role_counts",
                    "setup",
                    f"setup: {n} players under {rules.id} deal {counts[0]} killers, {counts[1]} "
                    f"police, {counts[2]} civilians; the seats hold {held[0]}, {held[1]}, "
                    f"{held[2]}",
                )
            ]
        return []


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
        "entitled",
        "log",
        "lot",
        "n",
        "night1_victim",
        "outcome",
        "reason",
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
        self.reason: str | None = None
        self.log: list[Phase] | None = [] if keep_log else None
        self._abstain_through = ruleset.abstain_through
        self._new_day_vars()

    def _new_day_vars(self) -> None:
        self.stage = _OPEN
        self.ballots: list[Ballot] = []
        self.candidates: frozenset[int] | None = None
        self._tie: tuple[str, frozenset[int]] | None = None  # see ``tie``
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
    def tie(self) -> str | None:
        """Why the day's voting goes on (a tie, no majority), or None.

        Kept as a template and the tied seats: the text is only needed for a report.
        """
        if self._tie is None:
            return None
        template, seats = self._tie
        return template.format(_seats(seats))

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
                reason=self.reason,
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

    def _gone(self, seat: int) -> str:
        d = self.death_of[seat]
        return f"{_CAUSE_TEXT[d.cause]} {d.phase}"

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
            self._end(_GOOD, "every killer is out")
            return
        rule = rules.killers_win
        dealt = self.dealt
        if rule is _ALL_GOOD_OUT:
            if alive_count[_POLICE] + alive_count[_CIVILIAN] == 0:
                self._end(_KILLERS, "every good player is out")
        elif dealt[_POLICE] > 0 and alive_count[_POLICE] == 0:
            self._end(_KILLERS, "every police officer is out")
        elif dealt[_CIVILIAN] > 0 and alive_count[_CIVILIAN] == 0:
            self._end(_DRAW if rule is _POLICE_OUT else _KILLERS, "every civilian is out")

    def _end(self, winner: Winner, reason: str) -> None:
        self.winner, self.reason, self.ended = winner, reason, self.label

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
        return Violation(
            "phase.after_end", where, f"{where}: the game already ended on {self.ended}"
        )

    def _unexpected(self, what: str) -> list[Violation]:
        e = self.expected()
        return [
            Violation("event.unexpected", self.label, f"{self.label}: {what} now; next: {e.step}")
        ]

    def _unknown(self, code: str, where: str, seat: int, what: str) -> Violation | None:
        if 1 <= seat <= self.n:
            return None
        return Violation(code, where, f"{where}: {what} seat {seat}, but seats are 1..{self.n}")

    # night

    def close_day(self) -> list[Violation]:
        """What the current day still lacks before the game may move on (none at night)."""
        if self.at_night or self.stage == _DONE or self.winner is not None:
            return []
        w = self.label
        if self.stage == _OPEN:
            return [Violation("day.missing_ballots", w, f"{w}: no ballot was held")]
        if self.stage == _VOTING:
            k = len(self.ballots) + 1
            where = f"{w} ballot {k}"
            return [Violation("ballot.missing", where, f"{where}: {self.tie}, but no ballot {k}")]
        if self.stage == _LOT:
            return [Violation("lot.missing", w, f"{w}: {self.tie}, but no lot was drawn")]
        if self.stage == _DECLARE:
            return [Violation("day.missing_eliminated", w, f"{w}: nobody was declared out")]
        return []

    def _check_night(self, e: NightAction | Night) -> list[Violation]:
        number = self.round if self.at_night else self.round + 1
        where = self._night_label()
        if self.winner is not None:
            return [self._after_end(where)]
        if isinstance(e, Night) and e.n != number:
            return [
                Violation(
                    "phase.order", f"night {e.n}", f"night {e.n} out of order: {where} is next"
                )
            ]
        # close_day() has nothing to say at night or once the day is declared
        found = [] if self.at_night or self.stage == _DONE else self.close_day()
        kill, check, alive = e.kill, e.check, self.alive
        if kill is not None and not (1 <= kill <= self.n and kill in alive):
            v = self._unknown("kill.unknown_seat", where, kill, "the killers chose")
            if v:
                found.append(v)
            elif kill not in alive:
                found.append(
                    Violation(
                        "kill.dead_target",
                        where,
                        f"{where}: the killers chose seat {kill}, who was {self._gone(kill)}",
                    )
                )
        if check is not None and not (
            1 <= check <= self.n and self.alive_count[_POLICE] != 0 and check in alive
        ):
            v = self._unknown("check.unknown_seat", where, check, "the police checked")
            if v:
                found.append(v)
            elif self.alive_count[_POLICE] == 0:
                found.append(
                    Violation(
                        "check.no_police",
                        where,
                        f"{where}: seat {check} was checked, but no police officer is alive",
                    )
                )
            elif check not in alive:
                found.append(
                    Violation(
                        "check.dead_target",
                        where,
                        f"{where}: the police checked seat {check}, who was {self._gone(check)}",
                    )
                )
        return found

    def _day_entry(self) -> Day:
        return Day(
            self.round,
            tuple(self.ejected_today) if self.ejected_today else None,
            self.surrendered,
            tuple(self.ballots) if self.ballots else None,
            self.eliminated,
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
            return self._unexpected("an ejection is recorded by day")
        w = self.label
        if self.winner is not None:
            return [self._after_end(w)]
        if self.stage != _OPEN:
            return self._unexpected("ejections come before the day's first ballot")
        v = self._unknown("eject.unknown_seat", w, e.seat, "the referee ejected")
        if v:
            return [v]
        if e.seat not in self.alive:
            return [
                Violation(
                    "eject.dead_seat",
                    w,
                    f"{w}: seat {e.seat} was ejected, but was {self._gone(e.seat)}",
                )
            ]
        return []

    def _commit_eject(self, e: Eject) -> None:
        self.day_touched = True
        self.ejected_today.append(e.seat)
        if e.seat in self.alive:
            self.ejected.append(e.seat)
            self._remove(e.seat, _EJECT)

    def _check_surrender(self, e: Surrender) -> list[Violation]:
        if self.at_night:
            return self._unexpected("a surrender is recorded by day")
        w = self.label
        if self.winner is not None:
            return [self._after_end(w)]
        if self.stage != _OPEN or self.surrendered is not None:
            return self._unexpected("a surrender comes before the day's first ballot")
        if not self.rules.surrender:
            return [
                Violation(
                    "surrender.not_allowed",
                    w,
                    f"{w}: seat {e.seat} surrendered, but {self.rules.id} has no surrender",
                )
            ]
        v = self._unknown("surrender.unknown_seat", w, e.seat, "surrender by")
        if v:
            return [v]
        if e.seat not in self.alive:
            return [
                Violation(
                    "surrender.dead_seat",
                    w,
                    f"{w}: seat {e.seat} surrendered, but was {self._gone(e.seat)}",
                )
            ]
        role = self.role[e.seat]
        if role is _CIVILIAN:
            return [
                Violation(
                    "surrender.civilian",
                    w,
                    f"{w}: seat {e.seat} is a civilian and may not surrender",
                )
            ]
        if self.alive_count[role] > 1:
            mates = [s for s in self.alive if self.role[s] is role and s != e.seat]
            return [
                Violation(
                    "surrender.teammate_alive",
                    w,
                    f"{w}: seat {e.seat} surrendered while {_seats(mates)} ({role}) still alive",
                )
            ]
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
            self._end(winner, f"seat {e.seat} ({role}) surrendered")

    # day: ballots

    def _check_ballot(self, b: Ballot) -> list[Violation]:
        k = len(self.ballots) + 1
        if self.at_night:
            return self._unexpected("ballots are held by day")
        stage = self.stage
        if stage in (_OPEN, _VOTING):
            if self.winner is not None:
                return [self._after_end(self.label)]
        else:
            where = f"day {self.round} ballot {k}"
            why = f"ballot {k - 1} already decided the day" if stage != _DONE else "the day is over"
            return [Violation("ballot.extra", where, f"{where}: one ballot too many: {why}")]
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
                found.append(
                    Violation(
                        "vote.unknown_seat",
                        where,
                        f"{where}: seat {voter} voted, but seats are 1..{n}",
                    )
                )
                continue
            if voter in seen:
                found.append(
                    Violation("vote.duplicate_voter", where, f"{where}: seat {voter} voted twice")
                )
                continue
            seen.add(voter)
            if voter not in alive:
                found.append(
                    Violation(
                        "vote.dead_voter",
                        where,
                        f"{where}: seat {voter} voted but was {self._gone(voter)}",
                    )
                )
                continue
            if target is None:
                if not abstain_ok:
                    found.append(
                        Violation(
                            "vote.abstain_forbidden",
                            where,
                            f"{where}: seat {voter} abstained, but every voter must vote here",
                        )
                    )
            elif not 1 <= target <= n:
                found.append(
                    Violation(
                        "vote.unknown_seat",
                        where,
                        f"{where}: seat {voter} voted for seat {target}, but seats are 1..{n}",
                    )
                )
            elif target == voter:
                found.append(
                    Violation("vote.self_vote", where, f"{where}: seat {voter} voted for themself")
                )
            elif target not in alive:
                found.append(
                    Violation(
                        "vote.dead_target",
                        where,
                        f"{where}: seat {voter} voted for seat {target}, who was "
                        f"{self._gone(target)}",
                    )
                )
            elif candidates is not None and target not in candidates:
                found.append(
                    Violation(
                        "vote.not_candidate",
                        where,
                        f"{where}: seat {voter} voted for seat {target}, but this ballot is "
                        f"between {_seats(candidates)}",
                    )
                )
        missing = alive - seen
        if missing:
            for s in sorted(missing):
                found.append(
                    Violation("vote.missing_voter", where, f"{where}: seat {s} did not vote")
                )
        return found

    @staticmethod
    def _count_legal(
        b: Ballot, alive: set[int], candidates: frozenset[int] | None, abstain_ok: bool
    ) -> dict[int, int] | None:
        """Votes per target if the whole ballot is legal, else None (the hot path)."""
        votes = b.votes
        if len(votes) != len(alive) or {v for v, _ in votes} != alive:
            return None
        counts: dict[int, int] = {}
        for voter, target in votes:
            if target is None:
                if abstain_ok:
                    continue
                return None
            if target == voter or target not in alive:
                return None
            if candidates is not None and target not in candidates:
                return None
            counts[target] = counts.get(target, 0) + 1
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
        if not counts:
            self.outcome, self._tie = None, None
            return
        top = max(counts.values())
        leading = []
        for seat, votes in counts.items():
            if votes == top:
                leading.append(seat)
        leaders = frozenset(leading)
        if self.rules.ballot is _MAJORITY:
            if top * 2 > sum(counts.values()):
                self.outcome, self._tie = leading[0], None
            elif k >= self.rules.max_ballots:
                self.outcome, self._tie = None, None
            else:
                if len(leaders) == 1:
                    second = max((c for c in counts.values() if c < top), default=0)
                    leaders |= {s for s, c in counts.items() if c == second}
                self._runoff(leaders, f"no majority in ballot {k}: runoff between {{}}")
            return
        if len(leading) == 1:
            self.outcome, self._tie = leading[0], None
        elif k == 1:
            self._runoff(leaders, "ballot 1 tied between {}: tie-break")
        elif k == 2:
            self._runoff(leaders, "ballot 2 tied between {}: off-site PK")
        else:
            self._final_tie(leaders)

    def _runoff(self, candidates: frozenset[int], why: str) -> None:
        """Vote again between ``candidates``; ``why`` has ``{}`` where they are named."""
        self.stage, self.candidates, self._tie = _VOTING, candidates, (why, candidates)

    def _final_tie(self, tied: frozenset[int]) -> None:
        rule = self.rules.final_tie
        self._tie = (f"ballot 3 tied between {{}}: final tie ({rule})", tied)
        self.outcome = None
        if rule is _FINAL_LOT:
            self.stage, self.candidates = _LOT, tied
        elif rule is _FINAL_KILLERS:
            self._end(_KILLERS, "a third tied ballot goes to the killers")
        else:
            self._end(_DRAW, "a third tied ballot draws the game")

    def _check_lot(self, e: Lot) -> list[Violation]:
        if self.at_night:
            return self._unexpected("lots are drawn by day")
        w = self.label
        if self.winner is not None:
            return [self._after_end(w)]
        if self.stage != _LOT:
            why = (
                f"{self.rules.id} has no lots"
                if self.rules.final_tie is not _FINAL_LOT
                else "no third tied ballot"
            )
            return [Violation("lot.unexpected", w, f"{w}: seat {e.seat} was drawn, but {why}")]
        tied = self.candidates or frozenset()
        if e.seat not in tied:
            return [
                Violation(
                    "lot.not_tied",
                    w,
                    f"{w}: seat {e.seat} was drawn, but the tie was between {_seats(tied)}",
                )
            ]
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
            return self._unexpected("eliminations are declared by day")
        stage = self.stage
        if self.winner is not None:
            if stage == _DECLARE and self.outcome is None and e.seat is None:
                return []  # the final tie ended the game; nobody is out
            if stage != _DECLARE:
                return [self._after_end(self.label)]
        if stage == _DONE:
            return self._unexpected("the day's elimination is already declared")
        if stage != _DECLARE:
            return self.close_day()
        if self.outcome == _UNKNOWN or e.seat == self.outcome:
            return []
        w = self.label
        said = "nobody" if e.seat is None else f"seat {e.seat}"
        due = "nobody" if self.outcome is None else f"seat {self.outcome}"
        return [
            Violation(
                "day.wrong_elimination",
                w,
                f"{w}: {said} declared out, but the ballots put {due} out",
            )
        ]

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
            return self._unexpected("last words are recorded by day")
        w = _DAY[self.round]  # the label, by day
        n = self.n
        if not 1 <= e.seat <= n:
            v = self._unknown("last_words.unknown_seat", w, e.seat, "last words by")
            if v:
                return [v]
        spoken = self.spoken
        if spoken and any(x.seat == e.seat for x in spoken):
            return [
                Violation("last_words.duplicate", w, f"{w}: seat {e.seat} gave last words twice")
            ]
        found = []
        if e.seat not in self.speakers:
            if e.seat in self.alive:
                why = "is alive"
            elif e.seat not in self.entitled:
                why = f"was {self._gone(e.seat)} and has none under {self.rules.last_words}"
            else:
                why = f"was {self._gone(e.seat)}; last words belong to that round's day"
            found.append(
                Violation(
                    "last_words.not_entitled", w, f"{w}: seat {e.seat} gave last words but {why}"
                )
            )
        limit = self.dealt[_KILLER]
        if len(e.suspects) > limit:
            found.append(
                Violation(
                    "last_words.too_many_suspects",
                    w,
                    f"{w}: seat {e.seat} named {len(e.suspects)} suspects; at most {limit}",
                )
            )
        suspects = e.suspects
        if not suspects:
            return found
        if (
            e.seat in suspects
            or min(suspects) < 1
            or max(suspects) > n
            or len(set(suspects)) != len(suspects)
        ):
            found.append(
                Violation(
                    "last_words.bad_suspect",
                    w,
                    f"{w}: seat {e.seat} named {list(e.suspects)}: suspects must be distinct "
                    f"seats 1..{self.n} other than the speaker",
                )
            )
        return found

    def _commit_last_words(self, e: LastWordsEntry) -> None:
        if self.at_night:
            return
        self.day_touched = True
        self.spoken.append(e)

    def judge_result(self, declared: Winner | None) -> list[Violation]:
        """Check the record's result (None: in progress) against the game so far."""
        if declared is None:
            if self.winner is None:
                return []
            return [
                Violation(
                    "result.missing",
                    "result",
                    f"result: the game ended on {self.ended} ({self.reason}), "
                    "but no result is recorded",
                )
            ]
        if self.winner is None:
            return [
                Violation(
                    "result.unfinished",
                    "result",
                    f"result: {declared} declared, but the game has not ended "
                    f"(next: {self.expected().step} on {self.expected().phase})",
                )
            ]
        if declared is not self.winner:
            return [
                Violation(
                    "result.wrong_winner",
                    "result",
                    f"result: {declared} declared, but {self.winner} won on {self.ended} "
                    f"({self.reason})",
                )
            ]
        return []

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
