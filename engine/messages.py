"""Codes and parameters, and the one catalogue of English sentences rendered from them.

Everything the engine says to a person — a violation, the end of a game, a tie, a point
line, a draw's warning, a user-fixable error — is data first: a stable dotted ``code``
and ``params``, a mapping of plain JSON values (seats as integers, phases as strings
like ``"night 2"``, lists of integers or strings, enumerated words such as a role).
The English sentence is rendered from :data:`CATALOGUE` when a person reads it; the web
side translates by code with its own table and never reads these sentences back.

A code whose sentence has several shapes names the shape in ``params["variant"]``; its
catalogue key is then ``"code/variant"`` (see :func:`message_key`). Every placeholder of
every template is a name in :data:`PARAMS`, which says what kind of value it holds, so a
test can render the whole catalogue from the catalogue alone.

The templates live beside this module by concern (:mod:`engine.texts`); this module
assembles them into one catalogue and renders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Final, TypeAlias

from engine.values import frozen_value

__all__ = [
    "CATALOGUE",
    "PARAMS",
    "Message",
    "Param",
    "ParamKind",
    "Params",
    "UnknownCode",
    "message_key",
    "placeholders",
    "render",
]

Param: TypeAlias = int | str | bool | Sequence[int] | Sequence[str] | None
Params: TypeAlias = Mapping[str, Param]


class ParamKind(StrEnum):
    """What a parameter holds, so the edge knows how to show it in the reader's language.

    The web side has one formatter per kind (a phase becomes 第2夜 / noche 2, a list of
    seats 1号、7号, an enumerated word its translation); the engine's English uses
    :func:`_english`.
    """

    INT = "int"  # a count, a number, a round or a seat number
    SEAT = "seat"  # one seat number
    SEATS = "seats"  # a list of seat numbers: "1, 7"
    INTS = "ints"  # a list of numbers (table sizes, …): "8, 9"
    PHASE = "phase"  # "night 2", "day 3", "day 3 ballot 2"
    TEXT = "text"  # free text shown as is: a path, a player's name, a key, a value
    TEXTS = "texts"  # a list of free texts: names
    WORD = "word"  # an enumerated word the edge translates: a role, a winner, a JSON kind
    WORDS = "words"  # a list of enumerated words
    DECIMAL = "decimal"  # a number kept as text ("1.5"), shown with the reader's decimal mark


class UnknownCode(KeyError):
    """A code (or code/variant) the catalogue does not hold: a bug in the engine."""


def message_key(code: str, params: Params) -> str:
    """The catalogue key of ``code`` with ``params``: ``code`` or ``code/variant``."""
    variant = params.get("variant")
    return f"{code}/{variant}" if variant else code


def _english(value: Param) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def render(code: str, params: Params) -> str:
    """The English sentence for ``code`` with ``params`` (lists joined with ``", "``)."""
    key = message_key(code, params)
    try:
        template = CATALOGUE[key]
    except KeyError:
        raise UnknownCode(key) from None
    return template.format_map({k: _english(v) for k, v in params.items()})


@frozen_value
class Message:
    """A sentence as data: a catalogue ``code`` and its ``params`` (a draw's warning, a
    tie, a point line's reason); ``str()`` is the English."""

    code: str
    params: Params

    def __str__(self) -> str:
        return render(self.code, self.params)

    def as_dict(self) -> dict[str, object]:
        """The JSON form: code, params and the English message."""
        return {"code": self.code, "params": dict(self.params), "message": str(self)}


def placeholders(template: str) -> tuple[str, ...]:
    """The parameter names a template uses, in order of first use."""
    from string import Formatter  # only tests and tools ask; `string` costs every CLI start

    names: list[str] = []
    for _, name, _, _ in Formatter().parse(template):
        if name and name not in names:
            names.append(name)
    return tuple(names)


def _assemble() -> tuple[dict[str, str], dict[str, ParamKind]]:
    from engine.texts import PARTS  # plain data by concern: {key: template}, {param: kind}

    catalogue: dict[str, str] = {}
    kinds: dict[str, ParamKind] = {}
    for templates, params in PARTS:
        for key, template in templates.items():
            if key in catalogue:
                raise RuntimeError(f"catalogue key {key!r} is defined twice")
            catalogue[key] = template
        for name, kind_name in params.items():
            kind = ParamKind(kind_name)
            if kinds.setdefault(name, kind) is not kind:
                raise RuntimeError(f"parameter {name!r} has two kinds")
    return catalogue, kinds


_CATALOGUE, _PARAMS = _assemble()
CATALOGUE: Final[Mapping[str, str]] = _CATALOGUE
PARAMS: Final[Mapping[str, ParamKind]] = _PARAMS
