"""Record validation throughput: finished 12-player games validated per second on one core.

    .venv/bin/python bench/validate.py [--games 3000] [--repeat 7] [--seed 1]

Records are simulated first (classic, mainstream and civilian-draw all seat 12), then
validated from their parsed JSON value, then from JSON text; the best of ``--repeat``
runs is reported, since slower runs only measure interference from other processes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.simulate import simulate_game
from engine.validate import validate

RULESETS = ("classic", "mainstream", "civilian-draw")


def cpu() -> str:
    """The CPU model, from /proc/cpuinfo where there is one."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def best_rates(items: list[Any], check: Callable[[Any], Any], repeat: int) -> tuple[float, float]:
    """Items per wall-clock second and per CPU second of this process, best of ``repeat``.

    On a shared machine the CPU-time rate is the one-core figure; the wall-clock rate also
    counts the time other processes held the core.
    """
    wall = cpu_time = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        for item in items:
            check(item)
        wall = min(wall, time.perf_counter() - start)
        cpu_time = min(cpu_time, time.process_time() - start_cpu)
    return len(items) / wall, len(items) / cpu_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    records = [
        simulate_game(RULESETS[i % len(RULESETS)], 12, args.seed + i) for i in range(args.games)
    ]
    verdicts = [validate(r) for r in records]
    assert all(v.valid and v.status == "finished" for v in verdicts)
    texts = [json.dumps(r) for r in records]
    phases = sum(len(r["log"]) for r in records) / len(records)
    ballots = sum(len(p.get("ballots", ())) for r in records for p in r["log"]) / len(records)
    print(f"machine: {platform.platform()}, {cpu()}")
    print(f"python:  {platform.python_implementation()} {platform.python_version()}")
    print(
        f"records: {len(records)} finished 12-player games, {phases:.1f} phases and "
        f"{ballots:.1f} ballots each on average"
    )
    for label, items in (("validate(dict)", records), ("validate(JSON text)", texts)):
        wall, cpu_rate = best_rates(items, validate, args.repeat)
        print(f"{label:20} {cpu_rate:8,.0f} records per CPU second ({wall:,.0f} per wall second)")
    print(
        f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
