"""Stage standings: what the stages cost over a plain standing of the same games.

    .venv/bin/python bench/stages.py [--players 200] [--repeat 7] [--seed 1]

A championship of ``--players`` players: 6 qualifying rounds at tables of 10, a
semi-final of the top 40 (3 rounds, ×1.25, carry 0.5), a final of the top 10 (4 games,
×1.5). Games are simulated (classic, 10 seats) and summarised once; then, alternating in
one process so both see the same machine, ``engine.formats.stages.compute_event`` over
the three stages and, as the baseline, ``engine.standings.compute_standings`` over the
same games as one stage. The best of ``--repeat`` runs is reported (slower runs measure
other processes), and the ratio stages / plain.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from decimal import Decimal

from engine.formats.stages import Entry, EntryKind, StageGames, StageSpec, compute_event
from engine.record import parse_record
from engine.scoring import GameSummary, summarize
from engine.simulate import simulate_game
from engine.standings import compute_standings


def play(players: list[str], rounds: int, table: int, seed: int) -> list[GameSummary]:
    """``rounds`` rounds of simulated games among ``players`` at tables of ``table``."""
    rnd = random.Random(seed)
    games = []
    for r in range(rounds):
        order = players[:]
        rnd.shuffle(order)
        for t in range(0, len(order) - table + 1, table):
            seated = order[t : t + table]
            record = simulate_game("classic", table, seed * 1000 + r * 100 + t, players=seated)
            games.append(summarize(parse_record(record), f"r{r}t{t}"))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    players = [f"p{i:04d}" for i in range(args.players)]
    qualifying = play(players, 6, 10, args.seed)
    first = compute_event([StageGames(StageSpec("q"), tuple(qualifying))], seed=args.seed)
    semi_players = list(first.entrants_for(Entry(EntryKind.TOP, top=40)))
    semi = play(semi_players, 3, 10, args.seed + 1)
    specs = [
        StageSpec("q"),
        StageSpec(
            "semi",
            multiplier=Decimal("1.25"),
            carry=Decimal("0.5"),
            entry=Entry(EntryKind.TOP, top=40),
        ),
    ]
    two = compute_event(
        [StageGames(specs[0], tuple(qualifying)), StageGames(specs[1], tuple(semi))],
        seed=args.seed,
    )
    finalists = list(two.entrants_for(Entry(EntryKind.TOP, top=10)))
    final = play(finalists, 4, 10, args.seed + 2)
    specs.append(StageSpec("final", multiplier=Decimal("1.5"), entry=Entry(EntryKind.TOP, top=10)))
    stages = [
        StageGames(specs[0], tuple(qualifying)),
        StageGames(specs[1], tuple(semi)),
        StageGames(specs[2], tuple(final)),
    ]
    every_game = [*qualifying, *semi, *final]
    best = {"stages": float("inf"), "plain": float("inf")}
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        outcome = compute_event(stages, seed=args.seed)
        t1 = time.perf_counter()
        compute_standings(every_game, seed=args.seed)
        t2 = time.perf_counter()
        best["stages"] = min(best["stages"], t1 - t0)
        best["plain"] = min(best["plain"], t2 - t1)
    print(f"{platform.processor() or platform.machine()}, CPython {platform.python_version()}")
    print(
        f"{len(every_game)} games, {args.players} players, 3 stages; "
        f"final order of {len(outcome.final)} lines"
    )
    print(f"stages (compute_event): {best['stages'] * 1000:8.1f} ms")
    print(f"plain (compute_standings, baseline): {best['plain'] * 1000:8.1f} ms")
    print(f"ratio stages / plain: {best['stages'] / best['plain']:.2f}")


if __name__ == "__main__":
    main()
