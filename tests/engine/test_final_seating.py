"""The final table's seating (formats.md §2, §4): the seat rule, the neighbour counts
against ceil(2g/(n-1)), the seeded row draw, bad input and the command line."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from collections import Counter
from contextlib import redirect_stdout

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats import seating_cli
from engine.formats.final_seating import (
    FinalSeating,
    FinalSeatingError,
    final_seating,
    neighbour_bound,
)

GRID = [(n, g) for n in range(8, 17) for g in range(3, 17)]


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def seat_rule_holds(s: FinalSeating, players: list[str]) -> bool:
    n, g = len(players), len(s.games)
    q, r = divmod(g, n)
    for p in players:
        counts = [sum(1 for game in s.games if game[seat] == p) for seat in range(n)]
        if max(counts) - min(counts) > 1 or sum(c > q for c in counts) > r:
            return False
    return True


def largest_neighbours(s: FinalSeating) -> int:
    pairs: Counter[frozenset[str]] = Counter()
    for game in s.games:
        for i, p in enumerate(game):
            pairs[frozenset((p, game[(i + 1) % len(game)]))] += 1
    return max(pairs.values())


@pytest.mark.parametrize(("n", "g"), GRID)
def test_every_final_keeps_the_seat_rule_and_reports_truly(n: int, g: int) -> None:
    players = names(n)
    s = final_seating(players, g, seed=5)
    assert len(s.games) == g
    assert all(sorted(game) == sorted(players) for game in s.games)
    assert seat_rule_holds(s, players) and s.seat_repeats == 0
    assert s.bound == neighbour_bound(n, g)
    assert s.max_neighbours == largest_neighbours(s)
    assert s.method in ("design", "search")
    if s.method == "design":  # a design always meets the bound
        assert s.max_neighbours <= s.bound
    assert s.max_neighbours <= s.bound + 2


@pytest.mark.parametrize(("n", "g"), [(8, 3), (8, 5), (9, 4), (12, 7), (16, 11), (14, 9)])
def test_designs_meet_the_neighbour_bound(n: int, g: int) -> None:
    s = final_seating(names(n), g)
    assert s.method == "design" and s.max_neighbours <= s.bound


def test_neighbour_bound() -> None:
    assert neighbour_bound(10, 9) == 2
    assert neighbour_bound(10, 10) == 3
    assert neighbour_bound(8, 3) == 1


@pytest.mark.parametrize(("n", "g"), [(8, 6), (10, 10), (13, 16)])
def test_same_seed_same_seating_other_seed_other_rows(n: int, g: int) -> None:
    players = names(n)
    assert final_seating(players, g, seed=3) == final_seating(players, g, seed=3)
    firsts = {final_seating(players, g, seed=s).games[0] for s in range(5)}
    assert len(firsts) == 5


def test_unshuffled_rows_are_the_organisers_order() -> None:
    players = names(10)
    plain = final_seating(players, 6, seed=1, shuffle=False)
    assert plain == final_seating(players, 6, seed=99, shuffle=False).__class__(
        **{**plain.__dict__, "seed": 1}
    )
    renamed = final_seating(list(reversed(players)), 6, shuffle=False)
    back = {a: b for a, b in zip(players, reversed(players), strict=True)}
    assert renamed.games == tuple(tuple(back[p] for p in game) for game in plain.games)


@given(st.integers(3, 30), st.integers(1, 12), st.integers(0, 10**6))
@settings(max_examples=25, deadline=None)
def test_any_size_seats_everyone_every_game(n: int, g: int, seed: int) -> None:
    players = names(n)
    s = final_seating(players, g, seed)
    assert all(sorted(game) == players for game in s.games)
    assert s.seat_repeats == 0 and seat_rule_holds(s, players)


@pytest.mark.parametrize(
    ("players", "games", "code", "variant"),
    [
        (["a", "b"], 3, "final_seating.players", "few"),
        ([f"p{i}" for i in range(31)], 3, "final_seating.players", "many"),
        (["a", "b", "a", "c"], 3, "final_seating.players", "repeated"),
        (["a", "b", "c"], 0, "final_seating.games", "few"),
        (["a", "b", "c"], 61, "final_seating.games", "many"),
    ],
)
def test_bad_input(players: list[str], games: int, code: str, variant: str) -> None:
    with pytest.raises(FinalSeatingError) as e:
        final_seating(players, games)
    assert e.value.code == code and e.value.params["variant"] == variant
    assert isinstance(e.value, ValueError) and str(e.value)


def run_cli(*argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    seating_cli.add_arguments(parser)
    out = io.StringIO()
    with redirect_stdout(out):
        code = seating_cli.run(parser.parse_args(list(argv)))
    return code, out.getvalue()


def test_cli_json() -> None:
    code, out = run_cli("--players", "9", "--games", "5", "--seed", "2", "--json")
    assert code == 0
    games = json.loads(out)["games"]
    assert len(games) == 5 and all(sorted(g) == list(range(1, 10)) for g in games)


def test_cli_text_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli("--players", "8", "--games", "3")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4 and "bound 1" in lines[-1]
    code, _ = run_cli("--players", "2", "--games", "3")
    assert code == 1 and "final_seating.players" in capsys.readouterr().err


def test_cli_subprocess() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "final-seating",
            "--players",
            "10",
            "--games",
            "4",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["games"]) == 4
