"""``frozen_value`` behaves as ``@dataclass(frozen=True, slots=True)`` in everything."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest

from engine.messages import Message
from engine.record import Day, GameRecord, Seat, Violation
from engine.rulesets import Ruleset
from engine.state import Death, Tie
from engine.validate import Outcome, Verdict
from engine.values import frozen_value


@frozen_value
class Made:
    """Made by frozen_value."""

    a: int
    b: str | None = None
    c: float = 1.5
    d: dict[str, int] | None = field(default=None, hash=False, compare=True)
    e: int = field(default=0, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Reference:
    """Made by the dataclass machinery."""

    a: int
    b: str | None = None
    c: float = 1.5
    d: dict[str, int] | None = field(default=None, hash=False, compare=True)
    e: int = field(default=0, repr=False, compare=False)


@frozen_value
class One:
    """One field."""

    a: float


@dataclass(frozen=True, slots=True)
class OneReference:
    """One field."""

    a: float


def _both(make: Callable[[type], Any]) -> tuple[Any, Any]:
    made, reference = make(Made), make(Reference)
    return made, reference


CASES = [
    lambda cls: cls(1),
    lambda cls: cls(2, "x", 2.5, e=7),
    lambda cls: cls(a=3, b=None, c=float("nan")),
    lambda cls: cls(4, d={"k": 1}),
]


@pytest.mark.parametrize("make", CASES)
def test_repr_eq_and_hash_are_the_dataclass_ones(make: Callable[[type], Any]) -> None:
    made, reference = _both(make)
    assert repr(made).replace("Made", "Reference") == repr(reference)
    assert (made == make(Made)) == (reference == make(Reference))
    assert made != reference and made.__eq__(reference) is NotImplemented
    if made.d is None and made.c == made.c:  # hashable, and no NaN (hashed by identity)
        assert hash(made) == hash(reference) == hash(make(Made))
    other = dataclasses.replace(made, e=made.e + 1)  # not compared, not hashed
    assert other == made and hash(other) == hash(made)
    assert dataclasses.replace(made, a=made.a + 1) != made


def test_a_single_field_compares_and_hashes_as_a_tuple() -> None:
    nan = float("nan")
    assert One(nan) == One(nan) and OneReference(nan) == OneReference(nan)  # same object
    assert One(float("nan")) != One(float("nan"))
    assert hash(One(2.0)) == hash(OneReference(2.0)) == hash((2.0,))
    assert repr(One(2.0)) == "One(a=2.0)"


def test_frozen_as_the_dataclass() -> None:
    made, reference = Made(1), Reference(1)
    for value in (made, reference):
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
            value.a = 2
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'b'"):
            del value.b
    # Another name: refused too (CPython 3.11's generated guard, bound to the class
    # before slots were added, fails there with a TypeError from super()).
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'z'"):
        made.z = 2  # type: ignore[attr-defined]


@pytest.mark.parametrize("make", CASES)
def test_copies_and_pickles(make: Callable[[type], Any]) -> None:
    made = make(Made)
    for twin in (copy.copy(made), copy.deepcopy(made), pickle.loads(pickle.dumps(made))):
        assert twin.a == made.a and repr(twin) == repr(made) and twin.e == made.e


def test_a_dataclass_to_its_tools() -> None:
    assert dataclasses.is_dataclass(Made)
    assert [f.name for f in dataclasses.fields(Made)] == ["a", "b", "c", "d", "e"]
    params = Made.__dataclass_params__  # type: ignore[attr-defined]
    assert repr(params) == repr(Reference.__dataclass_params__)  # type: ignore[attr-defined]
    assert Made.__match_args__ == Reference.__match_args__  # type: ignore[attr-defined]
    assert Made.__slots__ == Reference.__slots__  # type: ignore[attr-defined]
    assert str(inspect.signature(Made)) == str(inspect.signature(Reference))
    assert Made.__init__.__qualname__ == "Made.__init__"
    assert dataclasses.asdict(Made(1, "x")) == dataclasses.asdict(Reference(1, "x"))
    with pytest.raises(TypeError):
        Made()  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "cls", [Day, GameRecord, Seat, Violation, Death, Tie, Outcome, Verdict, Ruleset, Message]
)
def test_the_engines_values_are_frozen_values(cls: type) -> None:
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen and params.eq and "__slots__" in cls.__dict__
    assert cls.__eq__.__qualname__ == f"{cls.__qualname__}.__eq__"


@frozen_value
class Checked:
    """With a ``__post_init__``, called after the fields are stored."""

    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError(self.a)


def test_post_init_runs_after_the_fields_are_stored() -> None:
    assert Checked(1).a == 1
    with pytest.raises(ValueError):
        Checked(-1)
    with pytest.raises(ValueError):
        dataclasses.replace(Checked(1), a=-2)
