"""The seating problem, its options and its errors.

Inputs are normalised once here (tuples, frozensets, index maps) so the constructions
and the search can work on integer indices without re-checking anything.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from engine.errors import EngineError
from engine.messages import Message, Params

__all__ = [
    "DrawConstraintError",
    "SearchOptions",
    "SeatingProblem",
    "SeatingProblemError",
    "options_from_mapping",
]


class SeatingProblemError(EngineError):
    """The problem itself is malformed; ``problems`` lists every violation found, each a
    :class:`Message` (``draw.*`` or ``referees.*``).

    ``code`` and ``params`` are the first problem's (the whole error when there is one,
    as there usually is); ``str()`` is every problem in English, joined by ``"; "``. To
    show the error in another language, render each of ``problems``.
    """

    def __init__(self, problems: Iterable[Message]) -> None:
        self.problems = tuple(problems)
        if not self.problems:
            raise ValueError("a SeatingProblemError needs at least one problem")
        first = self.problems[0]
        super().__init__(first.code, first.params)

    def __str__(self) -> str:
        return "; ".join(str(p) for p in self.problems)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.problems,)


class DrawConstraintError(EngineError):
    """A hard constraint cannot be met; ``constraint`` names which one.

    ``constraint`` is a stable name (``"avoid"``, ``"table_size"``, ``"tables"``,
    ``"referee_conflict"``, ``"referee_count"``, ``"fixed_rounds"``) of the rule at fault;
    ``code`` and ``params`` say what exactly (``draw.*``, ``referees.*``); ``round`` is
    1-based when the failure belongs to one round.
    """

    def __init__(
        self, constraint: str, code: str, params: Params, *, round: int | None = None
    ) -> None:
        self.constraint = constraint
        self.round = round
        super().__init__(code, params)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled whole (a task's result, a worker's error): keyword ``round`` as state
        return type(self), (self.constraint, self.code, self.params), {"round": self.round}


@dataclass(frozen=True)
class SearchOptions:
    """Effort of the draw: the same options and seed always give the same draw.

    ``anneal_moves`` is the annealing budget (single swaps) spent on a draw no design
    gave; ``iterations`` the tabu budget (whole-round best swaps, for events of up to 130
    players; larger ones get proportionally fewer as each costs more) that polishes
    every draw short of its bound; ``time_limit`` passed to :func:`draw_seating` only cuts
    them short on a slow machine. ``cap_relief_percent``: when the fairest draw found
    with max λ at its bound has a repeat total R more than this many percent above R's
    bound, a second search lets pairs meet once more, and its draw is taken if the
    first draw's R is more than this many percent above its R (0 keeps max λ at its
    bound always).
    """

    anneal_moves: int = 300_000
    iterations: int = 3000
    tabu_tenure: int = 12
    relabel_iterations: int = 4000
    avoid_weight: int = 100_000
    cap_weight: int = 1_000
    club_weight: int = 50
    cap_relief_percent: int = 5

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SeatingProblemError([Message("draw.option", {"key": f.name})])


_O = TypeVar("_O")


def options_from_mapping(cls: type[_O], data: Mapping[str, Any]) -> _O:
    """Build an options dataclass from event settings, rejecting unknown keys."""
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - known)
    if unknown:
        raise SeatingProblemError([Message("draw.option_unknown", {"key": k}) for k in unknown])
    return cls(**data)


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class SeatingProblem:
    """One event's seating draw request.

    Any collections may be passed; they are stored as tuples and frozensets.

    ``avoid`` pairs never share a table; ``absent`` maps a player to the 1-based rounds
    they miss; ``allowed_sizes`` restricts table sizes to those the ruleset has role
    counts for; ``clubs`` with ``club_apart_rounds`` keeps club-mates apart (softly) in
    the first rounds; ``fixed_rounds`` are rounds already played, kept as they are, so a
    redraw continues from round ``len(fixed_rounds) + 1`` taking their meetings and seats
    into account. ``previous_draw`` is an earlier draw of the rounds after those (the
    draw being replaced): the search starts from it too, so a redraw after a withdrawal
    or a late arrival stays close to it; players it names who are no longer in the
    event are dropped, new ones seated where they cost least.
    """

    players: Sequence[str]
    rounds: int
    min_table: int = 8
    max_table: int = 16
    tables: int | None = None
    avoid: Collection[tuple[str, str]] = frozenset()
    absent: Mapping[str, Set[int]] = field(default_factory=dict)
    seed: int = 0
    allowed_sizes: Collection[int] | None = None
    clubs: Mapping[str, str] = field(default_factory=dict)
    club_apart_rounds: int = 0
    fixed_rounds: Sequence[Sequence[Sequence[str]]] = ()
    previous_draw: Sequence[Sequence[Sequence[str]]] = ()

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "players", tuple(self.players))
        set_(self, "avoid", frozenset(_pair(str(a), str(b)) for a, b in self.avoid))
        set_(self, "absent", {p: frozenset(rs) for p, rs in dict(self.absent).items()})
        if self.allowed_sizes is not None:
            set_(self, "allowed_sizes", frozenset(self.allowed_sizes))
        set_(self, "clubs", dict(self.clubs))
        set_(
            self,
            "fixed_rounds",
            tuple(tuple(tuple(table) for table in rnd) for rnd in self.fixed_rounds),
        )
        set_(
            self,
            "previous_draw",
            tuple(tuple(tuple(table) for table in rnd) for rnd in self.previous_draw),
        )
        self._validate()

    def _validate(self) -> None:
        problems: list[Message] = []

        def problem(code: str, params: Params | None = None) -> None:
            problems.append(Message(code, params or {}))

        ids = set(self.players)
        if len(ids) != len(self.players):
            problem("draw.players_not_unique")
        if not self.players:
            problem("draw.no_players")
        if self.rounds < 1:
            problem("draw.no_rounds")
        if not 1 <= self.min_table <= self.max_table:
            problem("draw.table_range", {"min": self.min_table, "max": self.max_table})
        if self.tables is not None and self.tables < 1:
            problem("draw.no_tables")
        if self.club_apart_rounds < 0:
            problem("draw.club_apart_rounds")
        if self.allowed_sizes is not None and not self.sizes():
            problem("draw.no_allowed_size", {"min": self.min_table, "max": self.max_table})
        for a, b in sorted(self.avoid):
            if a == b:
                problem("draw.avoid_self", {"player": a})
            for p in (a, b):
                if p not in ids:
                    problem("draw.unknown_player", {"variant": "avoid", "player": p})
        for p, rs in self.absent.items():
            if p not in ids:
                problem("draw.unknown_player", {"variant": "absent", "player": p})
            bad = sorted(r for r in rs if not 1 <= r <= self.rounds)
            if bad:
                problem("draw.absent_rounds", {"player": p, "outside": bad, "rounds": self.rounds})
        for p in self.clubs:
            if p not in ids:
                problem("draw.unknown_player", {"variant": "clubs", "player": p})
        if len(self.fixed_rounds) > self.rounds:
            problem("draw.fixed_rounds")
        for i, rnd in enumerate(self.fixed_rounds, start=1):
            seen = [p for table in rnd for p in table]
            unknown = sorted(set(seen) - ids)
            if unknown:
                problem("draw.fixed_unknown", {"round": i, "names": unknown})
            if len(seen) != len(set(seen)):
                problem("draw.fixed_twice", {"round": i})
        if self.previous_draw and len(self.fixed_rounds) + len(self.previous_draw) > self.rounds:
            problem("draw.previous_rounds")
        for i, rnd in enumerate(self.previous_draw, start=len(self.fixed_rounds) + 1):
            seen = [p for table in rnd for p in table]
            if len(seen) != len(set(seen)):
                problem("draw.previous_twice", {"round": i})
            if seen and not set(seen) & ids:
                problem("draw.previous_none", {"round": i})
        if problems:
            raise SeatingProblemError(problems)

    @cached_property
    def index(self) -> dict[str, int]:
        """Each player's position in ``players`` (the index every array uses)."""
        return {p: i for i, p in enumerate(self.players)}

    def sizes(self) -> tuple[int, ...]:
        """Table sizes the draw may use, ascending."""
        sizes = range(self.min_table, self.max_table + 1)
        if self.allowed_sizes is None:
            return tuple(sizes)
        return tuple(s for s in sizes if s in self.allowed_sizes)

    def present(self, round_number: int) -> tuple[str, ...]:
        """Players present in a 1-based round, in problem order."""
        return tuple(p for p in self.players if round_number not in self.absent.get(p, ()))
