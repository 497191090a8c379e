"""The four built-in rulesets of the Killer game and their overrides (spec §3).

A ruleset is a frozen value: everything the replay needs to judge a game, and nothing
about the people or the event. Records name one by id, or as a base id plus overrides,
so a club's house rules stay a few keys in the record instead of a new code path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from engine.errors import EngineError
from engine.messages import Param
from engine.values import frozen_value


class RulesetError(EngineError):
    """An unknown ruleset id or parameter, or parameters that contradict each other.

    ``code`` is ``ruleset.unknown``, ``ruleset.unknown_parameter`` or
    ``ruleset.bad_value``; ``params["variant"]`` says which shape (see
    :mod:`engine.texts.records`).
    """

    def __init__(self, code: str, params: Mapping[str, Param]) -> None:
        super().__init__(code, params)

    @property
    def message(self) -> str:
        """The English sentence (``str(self)``)."""
        return str(self)


def _bad_value(variant: str, **params: Param) -> RulesetError:
    return RulesetError("ruleset.bad_value", {"variant": variant, **params})


class BallotRule(StrEnum):
    """How a ballot is decided."""

    PLURALITY = "plurality"
    MAJORITY = "majority"


class AbstainRule(StrEnum):
    """Where a voter may abstain; JSON ``true``/``false``/``"not-final"``."""

    ALWAYS = "always"
    NEVER = "never"
    NOT_FINAL = "not-final"


class FinalTie(StrEnum):
    """What a third tied plurality ballot means."""

    KILLERS = "killers"
    DRAW = "draw"
    LOT = "lot"


class LastWordsRule(StrEnum):
    """Who is entitled to last words."""

    FIRST_ROUND = "first-round"
    FIRST_DEATHS = "first-deaths"
    ALL_BUT_KILLERS_VOTED_OUT = "all-but-killers-voted-out"


class KillersWin(StrEnum):
    """The killers' wipe-out condition."""

    ANY_SIDE_OUT = "any-side-out"
    ALL_GOOD_OUT = "all-good-out"
    POLICE_OUT = "police-out"


_NOT_FINAL, _ALWAYS = AbstainRule.NOT_FINAL, AbstainRule.ALWAYS

#: Ballots a majority day may hold before nobody is out (spec §3.3).
MAJORITY_MAX_BALLOTS = 5
#: Ballots a plurality day may hold: first vote, tie-break, off-site PK (spec §3.4).
PLURALITY_MAX_BALLOTS = 3


@frozen_value
class Ruleset:
    """One complete set of rules; ``roles`` maps a table size to (killers, police)."""

    id: str
    source: str
    players: tuple[int, int]
    roles: Mapping[int, tuple[int, int]] = field(hash=False)
    ballot: BallotRule
    abstain: AbstainRule
    final_tie: FinalTie | None
    last_words: LastWordsRule
    killers_win: KillersWin
    surrender: bool
    first_night_repeat_ban: bool

    def __post_init__(self) -> None:
        lo, hi = self.players
        if not 3 <= lo <= hi:
            raise _bad_value("players_range", lo=lo, hi=hi)
        for n in range(lo, hi + 1):
            if n not in self.roles:
                raise _bad_value("roles_missing", n=n)
        # Spec §6 ruling 3: rows of the table outside ``players`` are ignored.
        roles = {n: counts for n, counts in sorted(self.roles.items()) if lo <= n <= hi}
        for n, (killers, police) in roles.items():
            if killers < 1 or police < 0 or killers + police >= n:
                raise _bad_value("roles_fit", n=n, killer_count=killers, police_count=police)
        if self.ballot is BallotRule.PLURALITY and self.final_tie is None:
            raise _bad_value("plurality_final_tie")
        if self.ballot is BallotRule.MAJORITY and self.final_tie is not None:
            raise _bad_value("majority_final_tie")
        object.__setattr__(self, "roles", MappingProxyType(roles))

    @property
    def table_sizes(self) -> frozenset[int]:
        """Every number of players this ruleset deals cards for."""
        return frozenset(self.roles)

    @property
    def max_ballots(self) -> int:
        """The most ballots one day may hold."""
        return (
            PLURALITY_MAX_BALLOTS if self.ballot is BallotRule.PLURALITY else MAJORITY_MAX_BALLOTS
        )

    def role_counts(self, n: int) -> tuple[int, int, int] | None:
        """(killers, police, civilians) dealt at ``n`` players, or None if ``n`` is not allowed."""
        counts = self.roles.get(n)
        if counts is None:
            return None
        killers, police = counts
        return killers, police, n - killers - police

    def abstain_allowed(self, ballot: int) -> bool:
        """Whether ballot number ``ballot`` (from 1) of a day allows abstaining."""
        abstain = self.abstain
        if abstain is _NOT_FINAL:
            return ballot < self.max_ballots
        return abstain is _ALWAYS

    @property
    def abstain_through(self) -> int:
        """Ballots 1 to this of a day allow abstaining, the later ones do not (0: none do)."""
        abstain = self.abstain
        if abstain is _NOT_FINAL:
            return self.max_ballots - 1
        return self.max_ballots if abstain is _ALWAYS else 0

    def to_params(self) -> dict[str, object]:
        """The overridable parameters in their JSON form (spec §2, last bullet)."""
        abstain: bool | str = (
            self.abstain.value
            if self.abstain is AbstainRule.NOT_FINAL
            else self.abstain is AbstainRule.ALWAYS
        )
        return {
            "players": [self.players[0], self.players[1]],
            "roles": {str(n): [k, p] for n, (k, p) in self.roles.items()},
            "ballot": self.ballot.value,
            "abstain": abstain,
            "final_tie": None if self.final_tie is None else self.final_tie.value,
            "last_words": self.last_words.value,
            "killers_win": self.killers_win.value,
            "surrender": self.surrender,
            "first_night_repeat_ban": self.first_night_repeat_ban,
        }

    def to_spec(self) -> str | dict[str, Any]:
        """How a record names this ruleset: its id, or its base id and what differs."""
        base = RULESETS.get(self.id)
        if base is None or base == self:
            return self.id
        ours, theirs = self.to_params(), base.to_params()
        overrides = {k: v for k, v in ours.items() if v != theirs[k]}
        lo, hi = self.players
        if self.roles == {n: c for n, c in base.roles.items() if lo <= n <= hi}:
            overrides.pop("roles", None)  # the base's table, narrowed by ``players``
        if self.final_tie is None and self.ballot is BallotRule.MAJORITY:
            overrides.pop("final_tie", None)  # the base's final tie, unused by a majority
        return {"base": self.id, "overrides": overrides}


def _sizes(lo: int, hi: int, killers: int, police: int) -> dict[int, tuple[int, int]]:
    return {n: (killers, police) for n in range(lo, hi + 1)}


RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        "classic": Ruleset(
            id="classic",
            source="003",
            players=(8, 16),
            roles={**_sizes(8, 10, 2, 2), **_sizes(11, 14, 3, 3), **_sizes(15, 16, 4, 4)},
            ballot=BallotRule.PLURALITY,
            abstain=AbstainRule.ALWAYS,
            final_tie=FinalTie.KILLERS,
            last_words=LastWordsRule.FIRST_ROUND,
            killers_win=KillersWin.ANY_SIDE_OUT,
            surrender=True,
            first_night_repeat_ban=True,
        ),
        "mainstream": Ruleset(
            id="mainstream",
            source="002",
            players=(6, 17),
            roles={
                **_sizes(6, 7, 2, 0),
                **_sizes(8, 10, 2, 2),
                **_sizes(11, 14, 3, 3),
                **_sizes(15, 17, 4, 4),
            },
            ballot=BallotRule.PLURALITY,
            abstain=AbstainRule.NOT_FINAL,
            final_tie=FinalTie.DRAW,
            last_words=LastWordsRule.FIRST_DEATHS,
            killers_win=KillersWin.ALL_GOOD_OUT,
            surrender=False,
            first_night_repeat_ban=False,
        ),
        "civilian-draw": Ruleset(
            id="civilian-draw",
            source="000",
            players=(11, 16),
            roles={**_sizes(11, 14, 3, 3), **_sizes(15, 16, 4, 4)},
            ballot=BallotRule.PLURALITY,
            abstain=AbstainRule.ALWAYS,
            final_tie=FinalTie.DRAW,
            last_words=LastWordsRule.FIRST_DEATHS,
            killers_win=KillersWin.POLICE_OUT,
            surrender=False,
            first_night_repeat_ban=False,
        ),
        "majority": Ruleset(
            id="majority",
            source="001",
            players=(10, 10),
            roles={10: (2, 2)},
            ballot=BallotRule.MAJORITY,
            abstain=AbstainRule.NEVER,
            final_tie=None,
            last_words=LastWordsRule.ALL_BUT_KILLERS_VOTED_OUT,
            killers_win=KillersWin.ALL_GOOD_OUT,
            surrender=False,
            first_night_repeat_ban=False,
        ),
    }
)

_PARAMS = frozenset(RULESETS["classic"].to_params())


def _bad(name: str, value: object) -> RulesetError:
    """A bad override value: one shape per parameter (``flag`` for the true/false ones)."""
    variant = "flag" if name in ("surrender", "first_night_repeat_ban") else name
    return _bad_value(variant, rule=name, value=repr(value))


_E = TypeVar("_E", bound=StrEnum)


def _enum_value(enum: type[_E], name: str, value: object) -> _E:
    if isinstance(value, str):
        try:
            return enum(value)
        except ValueError:
            pass
    raise _bad(name, value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_decimal(key: object) -> bool:
    """A canonical decimal: ASCII digits, no sign, space or leading zero (spec §6, 6)."""
    return (
        isinstance(key, str) and key.isascii() and key.isdigit() and (key[0] != "0" or key == "0")
    )


def _override(name: str, value: object) -> dict[str, object]:
    """One JSON override turned into dataclass field values."""
    if name == "players":
        if isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value):
            return {"players": (value[0], value[1])}
        raise _bad(name, value)
    if name == "roles":
        if not isinstance(value, dict) or not value:
            raise _bad(name, value)
        roles: dict[int, tuple[int, int]] = {}
        for key, pair in value.items():
            if not (_is_decimal(key) and isinstance(pair, list)):
                raise _bad(name, value)
            if len(pair) != 2 or not all(_is_int(v) for v in pair):
                raise _bad(name, value)
            roles[int(key)] = (pair[0], pair[1])
        return {"roles": roles}
    if name == "abstain":
        if value is True:
            return {"abstain": AbstainRule.ALWAYS}
        if value is False:
            return {"abstain": AbstainRule.NEVER}
        if value == "not-final":
            return {"abstain": AbstainRule.NOT_FINAL}
        raise _bad(name, value)
    if name == "final_tie":
        return {"final_tie": None if value is None else _enum_value(FinalTie, name, value)}
    if name in ("surrender", "first_night_repeat_ban"):
        if isinstance(value, bool):
            return {name: value}
        raise _bad(name, value)
    enums: dict[str, type[StrEnum]] = {
        "ballot": BallotRule,
        "last_words": LastWordsRule,
        "killers_win": KillersWin,
    }
    return {name: _enum_value(enums[name], name, value)}


def get_ruleset(spec: str | Mapping[str, object] | Ruleset) -> Ruleset:
    """Resolve a built-in id, or ``{"base": id, "overrides": {...}}``, to a :class:`Ruleset`.

    Each override replaces its own parameter and nothing else (spec §6 ruling 3): rows of
    ``roles`` outside ``players`` are ignored, and ``ballot: "majority"`` leaves the
    base's ``final_tie`` unused (a ``final_tie`` the overrides name is still refused).

    Raises :class:`RulesetError` naming the unknown id or parameter, or the bad value.
    """
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        try:
            return RULESETS[spec]
        except KeyError:
            raise RulesetError(
                "ruleset.unknown", {"ruleset": spec, "known": list(RULESETS)}
            ) from None
    if not isinstance(spec, Mapping):
        raise _bad_value("spec")
    extra = sorted(str(k) for k in set(spec) - {"base", "overrides"})
    if extra:
        raise RulesetError("ruleset.unknown_parameter", {"variant": "key", "key": extra[0]})
    if "base" not in spec or "overrides" not in spec:
        raise _bad_value("incomplete")
    base, overrides = spec["base"], spec["overrides"]
    if not isinstance(base, str):
        raise _bad_value("base")
    ruleset = get_ruleset(base)
    if not isinstance(overrides, Mapping):
        raise _bad_value("overrides")
    fields: dict[str, object] = {}
    for name, value in overrides.items():
        if name not in _PARAMS:
            raise RulesetError(
                "ruleset.unknown_parameter", {"variant": "parameter", "key": str(name)}
            )
        fields.update(_override(name, value))
    if fields.get("ballot") is BallotRule.MAJORITY and "final_tie" not in fields:
        fields["final_tie"] = None
    return replace(ruleset, **fields)  # type: ignore[arg-type]
