"""Record validation throughput: finished 12-player games validated per second on one core.

    .venv/bin/python bench/validate.py [--games 3000] [--repeat 7] [--seed 1]

Records are simulated first (classic, mainstream and civilian-draw all seat 12), then
validated from their parsed JSON value, then from JSON text; the best of ``--repeat``
runs is reported, since slower runs only measure interference from other processes.
"""

from __future__ import annotations

import argparse
import json
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


def best_rate(items: list[Any], check: Callable[[Any], Any], repeat: int) -> float:
    """Items per second, best of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            check(item)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


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
    print(f"validate(dict):      {best_rate(records, validate, args.repeat):,.0f} records/s")
    print(f"validate(JSON text): {best_rate(texts, validate, args.repeat):,.0f} records/s")


if __name__ == "__main__":
    main()
