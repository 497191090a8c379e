"""Record validation throughput: finished 12-player games validated per second on one core.

    .venv/bin/python bench/validate.py [--games 3000] [--repeat 7] [--seed 1]
        [--cli-files 2000] [--cli-repeat 7] [--skip-records] [--cli-against DIR]

Records are simulated first (classic, mainstream and civilian-draw all seat 12), then
validated from their parsed JSON value, then from JSON text; the best of ``--repeat``
runs is reported, since slower runs only measure interference from other processes.

The CLI rows write ``--cli-files`` of those records into a temporary directory as the
site's download writes them (``indent=2``, non-ASCII as is) and run
``python -m engine validate --json`` over them in a subprocess, end to end: start-up,
reading, validation and the JSON document written to a file. Beside it, in the same
process and alternating with it, the baseline: the previous CLI (every file through
``load_file``, then ``json.dump(indent=2)``), kept here verbatim as :data:`PREVIOUS_CLI`.
Rates are per CPU second of the child (user + system: the one-core figure on a shared
machine) and per wall second. A second set of files has one record in four broken
(a wrong declared winner, a vote for a seat not at the table, a duplicate key, an
unknown key). The children run with their bytecode cached in a temporary
``PYTHONPYCACHEPREFIX``, as installed code runs. ``--cli-against DIR`` adds the CLI of
another checkout (``python -m engine`` run in ``DIR``, e.g. a ``git worktree`` of an older
commit) to the same alternation, for a before/after measured in one run.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.simulate import simulate_game
from engine.validate import validate

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("classic", "mainstream", "civilian-draw")

# The baseline: engine/cli.py's validate before issue #16 (one file at a time through
# load_file, the duplicate-aware decoder, every value kept, then json.dump with indent=2,
# which streams tens of thousands of small writes), run as ``python -c``.
PREVIOUS_CLI = """
import argparse
import json
import sys

from engine.record import UnreadableFile, load_file


def _validate(args):
    from engine.validate import validate, validate_series

    values, problems = [], []
    for path in args.files:
        try:
            values.append(load_file(path))
        except UnreadableFile as e:
            problems.append(str(e))
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        return 2
    verdicts = validate_series(values) if args.series else [validate(v) for v in values]
    games = [
        {
            "file": path,
            "valid": v.valid,
            "status": v.status.value,
            "winner": v.winner.value if v.winner else None,
            "ended": v.ended,
            "violations": [x.as_dict() for x in v.violations],
        }
        for path, v in zip(args.files, verdicts, strict=True)
    ]
    json.dump({"games": games}, sys.stdout, ensure_ascii=False, indent=2)
    print()
    return 0 if all(v.valid for v in verdicts) else 1


parser = argparse.ArgumentParser(prog="python -m engine")
commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
v = commands.add_parser("validate")
v.add_argument("files", nargs="+", metavar="GAME.json")
v.add_argument("--json", action="store_true")
v.add_argument("--series", action="store_true")
raise SystemExit(_validate(parser.parse_args()))
"""


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


def broken(record: dict[str, Any], i: int) -> str:
    """Record ``i`` as a file's text, broken in one of four ways when ``i % 4 == 3``."""
    if i % 4 != 3:
        return json.dumps(record, ensure_ascii=False, indent=2)
    record = copy.deepcopy(record)
    kind = i // 4 % 4
    if kind == 0:  # result.wrong_winner
        record["result"]["winner"] = "draw" if record["result"]["winner"] != "draw" else "good"
    elif kind == 1:  # vote.unknown_seat
        day = next(p for p in record["log"] if p.get("ballots"))
        ballot = day["ballots"][0]
        ballot[next(iter(ballot))] = 99
    elif kind == 3:  # record.unknown_key
        record["note"] = "broken on purpose"
    text = json.dumps(record, ensure_ascii=False, indent=2)
    if kind == 2:  # record.duplicate_key: the duplicate-aware reader runs
        text = text.replace('"ruleset": ', '"ruleset": "classic",\n  "ruleset": ', 1)
    return text


def child_env(pycache: str) -> dict[str, str]:
    """The children's environment: bytecode cached under ``pycache``, as installed code."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=pycache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_child(
    command: list[str], out: Path, env: dict[str, str], cwd: Path = ROOT
) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the child, exit code) of one run in ``cwd``, stdout
    into ``out``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with out.open("wb") as f:
        code = subprocess.run(command, stdout=f, cwd=cwd, env=env, check=False).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_time = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu_time, code


def cli_rows(
    records: list[dict[str, Any]], repeat: int, label: str, mixed: bool, against: Path | None
) -> None:
    """The CLI and the previous CLI (and the CLI in ``against``) over ``records`` written
    as files, best of ``repeat`` runs each, alternating; their outputs must hold the same
    games."""
    with tempfile.TemporaryDirectory(prefix="bench-validate-") as tmp:
        root = Path(tmp)
        files = []
        for i, record in enumerate(records):
            path = root / f"game-{i:05}.json"
            text = broken(record, i) if mixed else json.dumps(record, ensure_ascii=False, indent=2)
            path.write_text(text, encoding="utf-8")
            files.append(str(path))
        env = child_env(str(root / "pycache"))
        python = sys.executable
        cli = [python, "-m", "engine", "validate", "--json", *files]
        commands = {
            "CLI": (cli, ROOT),
            "previous CLI": ([python, "-c", PREVIOUS_CLI, "validate", "--json", *files], ROOT),
        }
        if against is not None:
            commands["CLI against"] = (cli, against)
        best = {name: (float("inf"), float("inf")) for name in commands}
        outputs = {}
        for name, (command, cwd) in commands.items():  # warm-up: compiles the bytecode cache
            out = root / f"{name}.json"
            run_child(command, out, env, cwd)
            outputs[name] = json.loads(out.read_text(encoding="utf-8"))
            assert outputs[name] == outputs["CLI"], f"{name} and the CLI disagree"
        games = outputs["CLI"]["games"]
        for _ in range(repeat):
            for name, (command, cwd) in commands.items():
                wall, cpu_time, code = run_child(command, root / f"{name}.json", env, cwd)
                assert code == (1 if mixed else 0), (name, code)
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu_time))
        one = [python, "-m", "engine", "validate", "--json", files[0]]
        bare = [python, "-c", "pass"]
        cold = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # this sandbox's setting
        cold.pop("PYTHONPYCACHEPREFIX", None)
        runs = (("one", one, env), ("bare", bare, env), ("cold", one, cold))
        start = {name: float("inf") for name, _, _ in runs}
        for _ in range(repeat):
            for name, command, environ in runs:
                cpu_time = run_child(command, root / "one.json", environ)[1]
                start[name] = min(start[name], cpu_time)
        texts = [Path(f).read_text(encoding="utf-8") for f in files]
        floor = best_rates(texts, validate, repeat)
    n = len(files)
    invalid = sum(not g["valid"] for g in games)
    violations = sum(len(g["violations"]) for g in games)
    print(f"{label}: {n} files, {invalid} invalid, {violations} violations")
    cli = n / best["CLI"][1], n / best["CLI"][0]
    old = n / best["previous CLI"][1], n / best["previous CLI"][0]
    print(
        f"  {'python -m engine validate --json':34} {cli[0]:8,.0f} files per CPU second "
        f"({cli[1]:,.0f} per wall second)"
    )
    print(
        f"  {'previous CLI (baseline)':34} {old[0]:8,.0f} files per CPU second "
        f"({old[1]:,.0f} per wall second); CLI/previous {cli[0] / old[0]:.2f}x CPU, "
        f"{cli[1] / old[1]:.2f}x wall"
    )
    if against is not None:
        then = n / best["CLI against"][1], n / best["CLI against"][0]
        print(
            f"  {'CLI in ' + str(against):34} {then[0]:8,.0f} files per CPU second "
            f"({then[1]:,.0f} per wall second); CLI/that {cli[0] / then[0]:.2f}x CPU, "
            f"{cli[1] / then[1]:.2f}x wall"
        )
    print(
        f"  {'in-process validate(JSON text)':34} {floor[1]:8,.0f} files per CPU second "
        f"(no start-up, reading or output; CLI/in-process {cli[0] / floor[1]:.2f}x)"
    )
    print(
        f"  start-up, CPU: one file {start['one'] * 1000:.0f} ms (no bytecode cache, "
        f"PYTHONDONTWRITEBYTECODE=1: {start['cold'] * 1000:.0f} ms), "
        f"python -c pass {start['bare'] * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cli-files", type=int, default=2000, help="0: no CLI rows")
    parser.add_argument("--cli-repeat", type=int, default=7)
    parser.add_argument("--skip-records", action="store_true", help="only the CLI rows")
    parser.add_argument(
        "--cli-against", type=Path, help="also time the CLI of the checkout in this directory"
    )
    args = parser.parse_args()
    records = [
        simulate_game(RULESETS[i % len(RULESETS)], 12, args.seed + i)
        for i in range(max(args.games, args.cli_files))
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
        if args.skip_records:
            break
        wall, cpu_rate = best_rates(items[: args.games], validate, args.repeat)
        print(f"{label:20} {cpu_rate:8,.0f} records per CPU second ({wall:,.0f} per wall second)")
    if args.cli_files:
        cli = records[: args.cli_files]
        against = args.cli_against
        cli_rows(cli, args.cli_repeat, "CLI, valid records", mixed=False, against=against)
        cli_rows(
            cli, args.cli_repeat, "CLI, one record in four broken", mixed=True, against=against
        )
    print(
        f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
