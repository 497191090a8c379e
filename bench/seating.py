"""Seating benchmark: engine.seating against a random draw and a plain annealing.

For every instance: repeat meetings R and max λ against their lower bounds, the worst
seat-number repeat against its ideal ceil(rounds / table size), referee repeats against
their bound (as many referees as tables), and seconds. The random draw and the annealing
use the same table sizes as the engine's draw; the annealing (swap two players of one
round, Metropolis acceptance, geometric cooling, minimising R) gets the same CPU time
as the engine's draw took, or ``--anneal-seconds`` if given. The last column compares
the two on both measures: "ahead" when the engine is at least as good on R and on
max λ and better on one, "level" when equal on both, otherwise what is worse and by
how much.

    .venv/bin/python bench/seating.py                     # same time as each draw
    .venv/bin/python bench/seating.py --anneal-seconds 10 # a fixed, longer annealing
    .venv/bin/python bench/seating.py --redraw            # and a redraw after a withdrawal
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from dataclasses import dataclass

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.referees import assign_referees
from engine.seating import SeatingProblem, draw_seating
from engine.seating.metrics import meeting_matrix


@dataclass(frozen=True)
class Instance:
    label: str
    players: int
    rounds: int
    tables: int | None = None
    constrained: bool = False

    def problem(self, seed: int) -> SeatingProblem:
        """The instance; constrained ones add absences, avoid pairs and clubs."""
        ids = [f"p{i:03d}" for i in range(self.players)]
        extra: dict[str, object] = {}
        if self.constrained:
            extra = {
                "absent": {p: {3, 4} for p in ids[:6]},
                "avoid": [(ids[i], ids[i + 1]) for i in range(10, 50, 2)],
                "clubs": {p: f"club{i % 12}" for i, p in enumerate(ids)},
                "club_apart_rounds": 2,
            }
        return SeatingProblem(
            players=ids, rounds=self.rounds, tables=self.tables, seed=seed, **extra
        )


INSTANCES = (
    Instance("120 / 10 rounds / 10 tables of 12", 120, 10, 10),
    Instance("50 / 10 rounds / 5 tables of 10", 50, 10, 5),
    Instance("64 / 6 rounds / 8 tables of 8", 64, 6, 8),
    Instance("120 / 12 rounds / sizes free 8–16", 120, 12),
    Instance("200 / 10 rounds / sizes free", 200, 10),
    Instance("300 / 15 rounds / sizes free", 300, 15),
    Instance("47 / 7 rounds / sizes free", 47, 7),
    Instance("90 / 8 rounds / sizes free", 90, 8),
    Instance("100 / 7 rounds / 8 tables", 100, 7, 8),
    Instance("130 / 10 rounds / 10 tables of 13", 130, 10, 10),
    Instance("37 / 9 rounds / sizes free", 37, 9),
    Instance("99 / 9 rounds / 9 tables of 11", 99, 9, 9),
    Instance("84 / 7 rounds / 7 tables of 12", 84, 7, 7),
    Instance("60 / 8 rounds / sizes free", 60, 8),
    Instance("120 / 10 / 10 tables + absences, avoid, clubs", 120, 10, 10, constrained=True),
)


def measures(n: int, rounds: list[list[list[int]]]) -> tuple[int, int]:
    lam = meeting_matrix(n, rounds)
    u = lam[np.triu_indices(n, 1)]
    return int((u * (u - 1) // 2).sum()), int(u.max())


def random_draw(n: int, shapes: list[list[int]], rng: random.Random) -> list[list[list[int]]]:
    out = []
    for sizes in shapes:
        order = list(range(n))
        rng.shuffle(order)
        tables, at = [], 0
        for s in sizes:
            tables.append(order[at : at + s])
            at += s
        out.append(tables)
    return out


def anneal(n: int, shapes: list[list[int]], seconds: float, seed: int) -> list[list[list[int]]]:
    """Plain simulated annealing on R: random swaps, Metropolis, geometric cooling."""
    rng = random.Random(seed)
    draw = random_draw(n, shapes, rng)
    lam = meeting_matrix(n, draw).tolist()
    where = [[-1] * n for _ in draw]
    for t, rnd in enumerate(draw):
        for j, table in enumerate(rnd):
            for p in table:
                where[t][p] = j
    start = time.process_time()  # CPU seconds: fair on a machine shared with others
    temp, end_temp = 2.0, 0.05
    steps = 0
    while True:
        if steps % 2000 == 0:
            done = (time.process_time() - start) / seconds
            if done >= 1:
                break
            temp = 2.0 * (end_temp / 2.0) ** done
        steps += 1
        t = rng.randrange(len(draw))
        a, b = rng.randrange(n), rng.randrange(n)
        ja, jb = where[t][a], where[t][b]
        if ja == jb or ja < 0 or jb < 0:
            continue
        ta, tb = draw[t][ja], draw[t][jb]
        la, lb = lam[a], lam[b]
        delta = 0
        for x in ta:
            if x != a:
                delta += lb[x] - (la[x] - 1)
        for x in tb:
            if x != b:
                delta += la[x] - (lb[x] - 1)
        if delta <= 0 or rng.random() < math.exp(-delta / temp):
            for x in ta:
                if x != a:
                    la[x] -= 1
                    lam[x][a] -= 1
                    lb[x] += 1
                    lam[x][b] += 1
            for x in tb:
                if x != b:
                    lb[x] -= 1
                    lam[x][b] -= 1
                    la[x] += 1
                    lam[x][a] += 1
            ta[ta.index(a)] = b
            tb[tb.index(b)] = a
            where[t][a], where[t][b] = jb, ja
    return draw


def compare(repeats: int, top: int, other_repeats: int, other_top: int) -> str:
    """The engine against the annealing on R and on max λ, naming what is worse."""
    worse = []
    if repeats > other_repeats:
        worse.append(
            f"R {repeats / other_repeats - 1:+.1%}" if other_repeats else f"R {repeats:,} vs 0"
        )
    if top > other_top:
        worse.append(f"max λ +{top - other_top}")
    if worse:
        return "behind: " + ", ".join(worse)
    return "level" if (repeats, top) == (other_repeats, other_top) else "ahead"


def redraw_table(seed: int, time_limit: float) -> None:
    """A redraw from round 5 after one withdrawal, started from the replaced draw or not:
    R against its bound, max λ, tables unchanged and CPU seconds."""
    ids = [f"p{i:03d}" for i in range(120)]
    absent = {p: frozenset({3, 4}) for p in ids[:4]}
    shape = {"players": ids, "rounds": 10, "tables": 10, "absent": absent, "seed": seed}
    full = draw_seating(SeatingProblem(**shape), time_limit)  # type: ignore[arg-type]
    kept = tuple(r.tables for r in full.rounds[:4])
    later = tuple(r.tables for r in full.rounds[4:])
    gone = ids[50]
    after = {**shape, "absent": {**absent, gone: frozenset(range(5, 11))}, "fixed_rounds": kept}
    print()
    print(
        "| redraw of 120 / 10 / 10 tables from round 5 after a withdrawal | method | R (bound) "
        "| max λ (bound) | tables unchanged | CPU seconds |"
    )
    print("|---|---|---|---|---|---|")
    m = full.metrics
    print(
        f"| the first draw | {full.method} | {m.repeats:,} ({m.repeats_bound:,}) "
        f"| {m.max_meetings} ({m.max_meetings_bound}) | | |"
    )
    for label, extra in (("from the replaced draw", {"previous_draw": later}), ("afresh", {})):
        cpu = time.process_time()
        draw = draw_seating(SeatingProblem(**after, **extra), time_limit)  # type: ignore[arg-type]
        cpu = time.process_time() - cpu
        same = sum(
            len({frozenset(t) for t in new.tables} & {frozenset(t) - {gone} for t in old})
            for new, old in zip(draw.rounds[4:], later, strict=True)
        )
        m = draw.metrics
        print(
            f"| {label} | {draw.method} | {m.repeats:,} ({m.repeats_bound:,}) "
            f"| {m.max_meetings} ({m.max_meetings_bound}) | {same} of 60 | {cpu:.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--anneal-seconds", type=float, default=None, help="default: the draw's CPU time"
    )
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--redraw", action="store_true", help="also a redraw after a withdrawal, two ways"
    )
    args = parser.parse_args()
    print(
        "| instance | method | R (bound) | max λ (bound) | seat max (ideal) "
        "| referee repeats (bound) | seconds: draw (CPU) + referees "
        "| engine vs random / annealing: R (max λ) | vs annealing |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for inst in INSTANCES:
        problem = inst.problem(args.seed)
        ids = list(problem.players)
        started, cpu = time.perf_counter(), time.process_time()
        draw = draw_seating(problem, args.time_limit)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        tables = max(len(r.tables) for r in draw.rounds)
        referees = [f"ref{j + 1}" for j in range(tables)]
        ref_started = time.perf_counter()
        plan = assign_referees(draw, referees, seed=args.seed)
        seconds_refs = time.perf_counter() - ref_started
        m = draw.metrics
        index = {p: i for i, p in enumerate(ids)}
        shapes = [[len(t) for t in r.tables] for r in draw.rounds]
        rnd_r, rnd_l = measures(inst.players, random_draw(inst.players, shapes, random.Random(1)))
        # the baselines keep the table sizes but ignore who is absent and the constraints
        seconds_ann = cpu if args.anneal_seconds is None else args.anneal_seconds
        ann = anneal(inst.players, shapes, seconds_ann, args.seed)
        ann_r, ann_l = measures(inst.players, ann)
        own = [[[index[p] for p in t] for t in r.tables] for r in draw.rounds]
        assert measures(inst.players, own) == (m.repeats, m.max_meetings)
        verdict = compare(m.repeats, m.max_meetings, ann_r, ann_l)
        refs_m = plan.metrics
        ratio = refs_m.repeats / refs_m.repeats_bound if refs_m.repeats_bound else 1.0
        over = m.repeats / m.repeats_bound - 1 if m.repeats_bound else 0.0
        print(
            f"| {inst.label} | {draw.method} | {m.repeats:,} ({m.repeats_bound:,}, "
            f"{over:+.1%}) | {m.max_meetings} ({m.max_meetings_bound}) "
            f"| {m.seat_max} ({m.seat_ideal}) "
            f"| {refs_m.repeats:,} ({refs_m.repeats_bound:,}, {ratio:.2f}×) "
            f"| {seconds:.2f} ({cpu:.2f}) + {seconds_refs:.2f} "
            f"| {m.repeats:,} ({m.max_meetings}) vs {rnd_r:,} ({rnd_l}) / {ann_r:,} ({ann_l}) "
            f"| {verdict} |",
            flush=True,
        )
    if args.redraw:
        redraw_table(args.seed, args.time_limit)


if __name__ == "__main__":
    main()
