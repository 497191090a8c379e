"""The final table's seating: one table of n players over g games (formats.md §2).

A final is seated by design, not drawn, so that nobody keeps a seat and no two players
sit side by side much more often than the rest. Two rules, both checked on the result:

* the seat rule: while g ≤ n nobody sits in the same seat twice; beyond, each player's
  count in each seat differs by at most one from every other seat's;
* the neighbour bound: seat n sits next to seat 1, and no pair should be neighbours more
  than ``ceil(2g/(n-1))`` times (the average is 2g/(n−1)).

Every final of 8..16 players and 3..16 games is a stored design: the table
``final_designs.json`` beside this module, made offline by ``bench/final_designs.py``
(simulated annealing and a large-neighbourhood search over Latin-preserving moves,
checked by :func:`check_design`) and read here once. The spec asks for a design, not a
search, and no quick search meets the bound everywhere; a table is instant, the same on
every machine, and checked by the tests entry by entry (``"design"``).

Elsewhere the construction is Walecki's: players ∞ and Z_{n−1}, game k the Hamiltonian
cycle ∞, 0+k, 1+k, −1+k, 2+k, −2+k, … For odd n the first (n−1)/2 of them decompose
K_n, for even n the n−1 of them cover every pair exactly twice and any (n−2)/2
consecutive ones are edge-disjoint, so the neighbour bound holds for every g. Each game
may then be rotated and reflected without touching its neighbours; an exact backtracking
over those choices makes the seats a Latin rectangle where one exists among them
(``"design"``). Where none exists, the seat rule comes first (it is absolute, the bound
is a goal): the games are the translates of one base row per block of n games (a cyclic
Latin square, so the seat rule holds by construction) and a deterministic local search
chooses the base rows that keep neighbour counts lowest (``"search"``). Both report what
they reached, so a caller can show it.

Which player is which row of the design is drawn from the seed like the lots
(:func:`engine.standings.draw_lots`), so the design does not favour the top qualifier.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.errors import EngineError
from engine.standings import draw_lots

__all__ = [
    "MAX_GAMES",
    "MAX_PLAYERS",
    "FinalSeating",
    "FinalSeatingError",
    "check_design",
    "design_rows",
    "final_seating",
    "neighbour_bound",
    "neighbour_counts",
    "seat_repeats",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 30
MAX_GAMES = 60

#: Backtracking nodes tried before the design gives way to the search (the design is
#: found in a few hundred nodes when it exists among the rotations and reflections).
_DESIGN_NODES = 1500
#: Local-search steps of the fallback: deterministic (steps, not seconds) so the same
#: input gives the same seating on every machine.
_SEARCH_STEPS = 1200

#: The sizes whose designs are stored (``final_designs.json``, made offline by
#: ``bench/final_designs.py``): every final of 8..16 players and 3..16 games.
TABLE_PLAYERS = range(8, 17)
TABLE_GAMES = range(3, 17)
_TABLE_FILE = "final_designs.json"

Row = tuple[int, ...]


class FinalSeatingError(EngineError):
    """A final seating asked for with players or games outside what it can seat."""


@dataclass(frozen=True)
class FinalSeating:
    """The seats of every game: ``games[g][seat - 1]`` is the player in that seat."""

    games: tuple[tuple[str, ...], ...]
    seat_repeats: int
    max_neighbours: int
    bound: int
    method: str
    seed: int


def neighbour_bound(players: int, games: int) -> int:
    """``ceil(2g/(n-1))``: the most times any pair should sit side by side."""
    if players < 2:
        raise FinalSeatingError(
            "final_seating.players", {"variant": "few", "count": players, "min": MIN_PLAYERS}
        )
    return -(-2 * games // (players - 1))


def seat_repeats(games: Sequence[Sequence[int]], n: int) -> int:
    """How far the seats are from the seat rule: each player's seats over ``g`` games
    should be counted ``floor(g/n)`` or ``ceil(g/n)`` times, with at most ``g mod n``
    seats at the higher count; this is the total count beyond that."""
    g = len(games)
    q, r = divmod(g, n)
    counts = [[0] * n for _ in range(n)]
    for row in games:
        for seat, player in enumerate(row):
            counts[player][seat] += 1
    total = 0
    for per_seat in counts:
        over = sum(max(0, c - q) for c in per_seat)  # the seats beyond floor(g/n)
        total += max(0, over - r) + sum(max(0, c - q - 1) for c in per_seat)
    return total


def neighbour_counts(games: Sequence[Sequence[int]], n: int) -> list[list[int]]:
    """``counts[a][b]``: games where a and b sit side by side (seat n next to seat 1)."""
    counts = [[0] * n for _ in range(n)]
    for row in games:
        for seat in range(n):
            a, b = row[seat], row[(seat + 1) % n]
            counts[a][b] += 1
            counts[b][a] += 1
    return counts


def _max_neighbours(games: Sequence[Sequence[int]], n: int) -> int:
    return max((max(row) for row in neighbour_counts(games, n)), default=0)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def encode_rows(rows: Sequence[Sequence[int]]) -> list[str]:
    """The stored form of a design: one string a game, one base-36 digit a seat."""
    return ["".join(_DIGITS[p] for p in row) for row in rows]


def decode_rows(rows: Sequence[str]) -> list[Row]:
    """The inverse of :func:`encode_rows`."""
    return [tuple(int(c, 36) for c in row) for row in rows]


def check_design(rows: Sequence[Sequence[int]], n: int, g: int) -> tuple[list[str], int]:
    """What is wrong with a stored design (empty when nothing) and its max neighbours.

    The stored designs keep the seat rule by blocks of n games (within each block nobody
    repeats a seat, which implies :func:`seat_repeats` is 0) and meet the bound.
    """
    problems: list[str] = []
    if len(rows) != g:
        problems.append(f"{len(rows)} games, not {g}")
    if any(sorted(row) != list(range(n)) for row in rows):
        return [*problems, "a game does not seat every player once"], 0
    for start in range(0, len(rows), n):
        block = rows[start : start + n]
        for seat in range(n):
            if len({row[seat] for row in block}) != len(block):
                problems.append(f"a player repeats seat {seat + 1} in games {start + 1}..")
    if seat_repeats(rows, n):
        problems.append("seat rule")
    most = _max_neighbours(rows, n)
    if most > neighbour_bound(n, g):
        problems.append(f"{most} times neighbours, bound {neighbour_bound(n, g)}")
    return problems, most


def _walecki(n: int, g: int) -> list[Row]:
    """Game k's cycle: ∞ (row n−1), then the zigzag 0, 1, −1, 2, −2, … of Z_{n−1}, plus k."""
    m = n - 1
    zigzag = [0] + [(j + 1) // 2 if j % 2 else (-(j // 2)) % m for j in range(1, m)]
    return [(m, *((v + k) % m for v in zigzag)) for k in range(g)]


def _orient(cycles: Sequence[Row], n: int) -> list[Row] | None:
    """Rotations and reflections of the cycles that meet the seat rule, or None.

    Exact backtracking over the 2n choices per game, the seat counts capped at
    ``ceil(g/n)`` and each player's remaining shortfall below ``floor(g/n)`` kept within
    the games left; gives up after ``_DESIGN_NODES`` nodes.
    """
    g = len(cycles)
    q, r = divmod(g, n)
    cap = q + (r > 0)
    options: list[list[Row]] = []
    for cycle in cycles:
        seated: list[Row] = []
        for direction in (1, -1):
            for shift in range(n):
                seated.append(tuple(cycle[(shift + direction * s) % n] for s in range(n)))
        options.append(seated)
    counts = [[0] * n for _ in range(n)]
    chosen: list[Row] = []
    nodes = 0

    def short(left: int) -> bool:
        return q > 0 and any(sum(max(0, q - c) for c in per) > left for per in counts)

    def place(k: int) -> bool:
        nonlocal nodes
        nodes += 1
        if k == g:
            return True
        if nodes > _DESIGN_NODES:
            return False
        for row in options[k]:
            if any(counts[p][s] >= cap for s, p in enumerate(row)):
                continue
            for s, p in enumerate(row):
                counts[p][s] += 1
            if not short(g - k - 1):
                chosen.append(row)
                if place(k + 1):
                    return True
                chosen.pop()
            for s, p in enumerate(row):
                counts[p][s] -= 1
            if nodes > _DESIGN_NODES:
                return False
        return False

    return chosen if place(0) else None


_MASK = (1 << 64) - 1


class _Steps:
    """SplitMix64: a generator whose numbers are the same on every Python and machine."""

    def __init__(self, seed: int) -> None:
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK

    def below(self, k: int) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % k


def _translates(bases: Sequence[list[int]], n: int, g: int) -> list[Row]:
    """Block b's games are its base row plus 0, 1, …, n−1 (mod n): a cyclic Latin square."""
    return [tuple((v + k % n) % n for v in bases[k // n]) for k in range(g)]


def _excess(games: Sequence[Row], n: int, bound: int) -> tuple[int, int]:
    """What the search lowers: neighbour counts beyond the bound, then the largest one."""
    counts = neighbour_counts(games, n)
    over = sum(max(0, c - bound) for a in range(n) for c in counts[a][a + 1 :])
    return over, max(max(row) for row in counts)


def _search(n: int, g: int, bound: int) -> list[Row]:
    """Cyclic Latin squares whose base rows a local search chooses (swaps of two seats,
    kept when not worse): the seat rule by construction, neighbours as low as found."""
    steps = _Steps(n * 1000 + g)
    blocks = -(-g // n)
    start = list(_walecki(n, 1)[0])
    bases = [list(start) for _ in range(blocks)]
    best = _excess(_translates(bases, n, g), n, bound)
    for _ in range(_SEARCH_STEPS):
        if best[0] == 0 and best[1] <= bound:
            break
        base = bases[steps.below(blocks)]
        i, j = steps.below(n), steps.below(n)
        if i == j:
            continue
        base[i], base[j] = base[j], base[i]
        found = _excess(_translates(bases, n, g), n, bound)
        if found <= best:
            best = found
        else:
            base[i], base[j] = base[j], base[i]
    return _translates(bases, n, g)


def _check(players: Sequence[str], games: int) -> None:
    n = len(players)
    if n < MIN_PLAYERS:
        raise FinalSeatingError(
            "final_seating.players", {"variant": "few", "count": n, "min": MIN_PLAYERS}
        )
    if n > MAX_PLAYERS:
        raise FinalSeatingError(
            "final_seating.players", {"variant": "many", "count": n, "max": MAX_PLAYERS}
        )
    repeated = sorted(p for p, count in Counter(players).items() if count > 1)
    if repeated:
        raise FinalSeatingError("final_seating.players", {"variant": "repeated", "names": repeated})
    if games < 1:
        raise FinalSeatingError("final_seating.games", {"variant": "few", "count": games, "min": 1})
    if games > MAX_GAMES:
        raise FinalSeatingError(
            "final_seating.games", {"variant": "many", "count": games, "max": MAX_GAMES}
        )


@cache
def stored_designs() -> dict[tuple[int, int], tuple[Row, ...]]:
    """The stored designs by ``(n, g)``, read once from the package's JSON table."""
    text = resources.files(__package__).joinpath(_TABLE_FILE).read_text(encoding="utf-8")
    table: dict[tuple[int, int], tuple[Row, ...]] = {}
    for entry in json.loads(text)["designs"]:
        n, g = int(entry["n"]), int(entry["g"])
        table[(n, g)] = tuple(decode_rows(entry["rows"]))
    return table


@cache
def _stored(n: int, g: int) -> tuple[tuple[Row, ...], int] | None:
    """The stored design of ``(n, g)`` and its max neighbours, checked once; a design
    that breaks the seat rule or seats someone twice is a corrupt table (ValueError)."""
    rows = stored_designs().get((n, g))
    if rows is None:
        return None
    problems, most = check_design(rows, n, g)
    if any("neighbours" not in problem for problem in problems):
        raise ValueError(f"{_TABLE_FILE}: the design for n={n}, g={g}: {'; '.join(problems)}")
    return rows, most


def design_rows(n: int, g: int) -> tuple[list[Row], str]:
    """The design on rows ``0..n-1``: the games by seat and how they were found.

    ``"design"``: a stored design of the table (8..16 players, 3..16 games) or Walecki's
    cycles oriented into a Latin rectangle, both within the neighbour bound;
    ``"search"``: the fallback search elsewhere, which may exceed it.
    """
    stored = _stored(n, g) if n in TABLE_PLAYERS and g in TABLE_GAMES else None
    if stored is not None:
        rows, most = stored
        return list(rows), "design" if most <= neighbour_bound(n, g) else "search"
    cycles = _walecki(n, g)
    oriented = _orient(cycles, n)
    if oriented is not None:
        return oriented, "design"
    return _search(n, g, neighbour_bound(n, g)), "search"


def final_seating(
    players: Sequence[str], games: int, seed: int = 0, *, shuffle: bool = True
) -> FinalSeating:
    """Seat ``players`` at one table for ``games`` games.

    ``shuffle``: the design's rows are the players in the order of the lots drawn from
    ``seed``; otherwise row i is ``players[i]`` (the organiser's order).
    """
    if isinstance(players, str):
        raise FinalSeatingError("final_seating.players", {"variant": "few", "count": 1, "min": 3})
    players = list(players)
    if isinstance(games, bool) or not isinstance(games, int):
        raise FinalSeatingError("final_seating.games", {"variant": "few", "count": 0, "min": 1})
    _check(players, games)
    n = len(players)
    rows, method = design_rows(n, games)
    order = draw_lots(players, seed) if shuffle else tuple(players)
    return FinalSeating(
        games=tuple(tuple(order[p] for p in row) for row in rows),
        seat_repeats=seat_repeats(rows, n),
        max_neighbours=_max_neighbours(rows, n),
        bound=neighbour_bound(n, games),
        method=method,
        seed=seed,
    )
