"""Frozen values made without compiling: the engine's records, events and verdicts.

``@dataclass(frozen=True, slots=True)`` writes ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` as source and compiles each one when its
module is imported: for the engine's twenty values that was most of the command line's
start-up. :func:`frozen_value` asks the dataclass machinery only for what it does without
compiling (fields, slots, ``__match_args__``) and gives every class the same methods as
closures over its fields, with the same behaviour; only ``__init__`` is compiled, since it
is called for every value read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class _Reference:
    """A class made by ``@dataclass(frozen=True, slots=True)`` itself: its parameters are
    the ones every frozen value declares."""


_PARAMS = _Reference.__dataclass_params__  # type: ignore[attr-defined]


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen_value(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, slots=True)``, made without compiling all but ``__init__``.

    That ``__init__`` has the dataclass's signature and stores straight into the slot
    descriptors, which is what the generated one's ``object.__setattr__`` does in the end,
    at a lower cost; then it calls ``__post_init__`` if the class has one, as the
    generated one does. Only for classes without ``default_factory``, ``InitVar`` or
    ``ClassVar`` fields, so construction means exactly the same.
    """
    cls = dataclass(slots=True, init=False, repr=False, eq=False)(cls)
    every = fields(cls)  # type: ignore[arg-type]
    assert len(every) == len(cls.__dataclass_fields__), cls  # type: ignore[attr-defined]
    names = tuple(f.name for f in every)
    _set(cls, "__init__", _init(cls, every))
    _set(cls, "__repr__", _repr(cls, tuple(f.name for f in every if f.repr)))
    compared = _getter(tuple(f.name for f in every if f.compare))
    _set(cls, "__eq__", _eq(compared))
    hashed = tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))
    _set(cls, "__hash__", _hash(_getter(hashed)))
    _set(cls, "__setattr__", _setattr(cls, names))
    _set(cls, "__delattr__", _delattr(cls, names))
    cls.__getstate__ = _getstate  # type: ignore[method-assign]
    cls.__setstate__ = _setstate  # type: ignore[attr-defined]
    cls.__dataclass_params__ = _PARAMS  # type: ignore[attr-defined]
    return cls


def _set(cls: type, name: str, method: Callable[..., Any]) -> None:
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    method.__module__ = cls.__module__
    setattr(cls, name, method)


def _init(cls: type, every: tuple[Any, ...]) -> Callable[..., None]:
    names: list[str] = []
    params: list[str] = []
    env: dict[str, Any] = {}
    annotations: dict[str, Any] = {}
    for f in every:
        assert f.init and f.default_factory is MISSING, (cls, f.name)
        names.append(f.name)
        annotations[f.name] = f.type
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
    if hasattr(cls, "__post_init__"):
        body += "    self.__post_init__()\n"
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, {', '.join(params)}):\n{body or '    pass'}\n", env, namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__annotations__ = {**annotations, "return": None}
    return init


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of the named fields, as the generated methods build it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda self: (get(self),)
    return lambda self: ()


def _repr(cls: type, names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, object], Any]:
    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _setattr(cls: type[Any], names: tuple[str, ...]) -> Callable[[Any, str, Any], None]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _delattr(cls: type[Any], names: tuple[str, ...]) -> Callable[[Any, str], None]:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(fields(self), state, strict=False):
        object.__setattr__(self, f.name, value)  # the value is frozen
