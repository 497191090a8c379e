"""Matching the players of a spreadsheet of past results (:mod:`games.past_results`).

A cell is a handle (``@li-wei`` must be one), else a handle if one matches, else a name
matched on its search key (:func:`league.names.search_key`: accents, case, spacing and
pinyin ignored). A name of two players is a problem (write the handle); an unknown name
becomes one new player however often the file names it, with a handle made from it,
and a warning when its key is one letter away from an existing player's name — the
duplicate warning of the players' import, never a silent merge.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils.text import slugify

from league.errors import ImportProblem
from league.models import Club, Player
from league.names import search_key


@dataclass
class NewPlayer:
    name: str
    handle: str
    line: int
    first_played: dt.date


class Players:
    """Every player's handle and name key, read once; new names of the file, once each."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.by_handle: dict[str, tuple[str, str]] = {}
        self.by_key: dict[str, list[tuple[str, str]]] = {}
        for handle, name in Player.objects.order_by("handle").values_list("handle", "display_name"):
            self.by_handle[handle.casefold()] = (handle, name)
            key = search_key(name)
            if key:
                self.by_key.setdefault(key, []).append((handle, name))
        self.new: dict[str, NewPlayer] = {}  # search key → the new player
        self.taken = set(self.by_handle)

    def resolve(
        self, line: int, column: str, cell: str, played_on: dt.date, problems: list[Any]
    ) -> tuple[str, str, str] | None:
        """``(handle, name, how)`` for a cell, or None after adding its problem."""
        text = cell.strip()
        if text.startswith("@"):
            found = self.by_handle.get(text[1:].casefold())
            if found is None:
                problems.append(
                    ImportProblem.of(line, column, "results.handle_unknown", handle=text[1:][:60])
                )
                return None
            return found[0], found[1], "handle"
        found = self.by_handle.get(text.casefold())
        if found is not None:
            return found[0], found[1], "handle"
        if len(text) > 120:
            problems.append(ImportProblem.of(line, column, "player.name_too_long"))
            return None
        key = search_key(text)
        named = self.by_key.get(key, []) if key else []
        if len(named) > 1:
            problems.append(
                ImportProblem.of(
                    line,
                    column,
                    "results.name_ambiguous",
                    name=text,
                    existing=[f"@{h}" for h, _n in named],
                )
            )
            return None
        if named:
            return named[0][0], named[0][1], "name"
        new = self.new.get(key or text.casefold())
        if new is None:
            new = NewPlayer(text, self._handle_for(text), line, played_on)
            self.new[key or text.casefold()] = new
        new.first_played = min(new.first_played, played_on)
        return new.handle, new.name, "new"

    def _handle_for(self, name: str) -> str:
        base = (slugify(name, allow_unicode=True) or slugify(search_key(name)) or "player")[:50]
        handle, n = base, 1
        while handle.casefold() in self.taken:
            n += 1
            handle = f"{base}-{n}"
        self.taken.add(handle.casefold())
        return handle

    def close_names(self) -> list[ImportProblem]:
        """A warning for each new player one letter away from an existing one's name."""
        warnings = []
        keys = list(self.by_key)
        for key, new in self.new.items():
            if len(key) < 4:
                continue
            near = [
                f"{n} (@{h})"
                for other in keys
                if abs(len(other) - len(key)) <= 1 and _one_edit(key, other)
                for h, n in self.by_key[other]
            ]
            if near:
                warnings.append(
                    ImportProblem.of(
                        new.line,
                        "players",
                        "results.close_name",
                        name=new.name,
                        handle=new.handle,
                        existing=near[:5],
                    )
                )
        return warnings


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one insertion, deletion or change."""
    if a == b:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]
