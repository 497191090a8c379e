"""``python -m engine circuit``: a circuit's standing from CIRCUIT.json (formats.md §4).

Exit 0: standing printed; 1: a bad field (profile, event or document shape), with the
reason; 2: a file that cannot be read or is not JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.cli_report import emit
from engine.formats.circuit import CircuitError, CircuitStanding, compute_circuit, parse_circuit
from engine.scoring import format_points

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
MAX_BYTES = 16 * 1024 * 1024  # a season of a thousand events fits many times over


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``circuit`` subcommand's arguments."""
    parser.add_argument("circuit", type=Path, metavar="CIRCUIT.json", help="a kgc/1 document")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    """Read, check and rank the circuit; print the standing. Returns the exit status."""
    path: Path = args.circuit
    try:
        raw = path.read_bytes()
        if len(raw) > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES} bytes")
        data = json.loads(raw.decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError) as e:
        print(f"error: {path}: cannot read a JSON document ({e})", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        profile, events, seed = parse_circuit(data)
        standing = compute_circuit(profile, events, seed)
    except CircuitError as e:
        print(f"error: {path}: {e} [{e.code}]", file=sys.stderr)
        return EXIT_INVALID
    return emit(standing, args.json, as_document, as_table)


def as_document(standing: CircuitStanding) -> dict[str, Any]:
    """The ``--json`` document: lines in order, points as decimal strings."""
    return {
        "standings": [
            {
                "player": line.player,
                "rank": line.rank,
                "tied": line.tied,
                "points": format_points(line.points),
                "counted": list(line.counted),
                "dropped": list(line.dropped),
                "events": line.events,
                "ranked": line.ranked,
            }
            for line in standing.lines
        ]
    }


def as_table(standing: CircuitStanding) -> str:
    """A table for people: rank (``=`` shared, in brackets when unranked), points, events,
    then each line's counted and dropped events and what placed it below the line above."""
    best = "all events" if standing.best is None else f"best {standing.best} events"
    lines = [
        f"{len(standing.lines)} players, {best} count, ranked from {standing.min_events} "
        f"event(s), seed {standing.seed}",
        "",
    ]
    header = ("rank", "player", "points", "events", "counted", "dropped", "placed by")
    cells: list[tuple[str, ...]] = [header]
    for i, line in enumerate(standing.lines):
        placed = ""
        if i:
            why = standing.explain(standing.lines[i - 1].player, line.player)
            placed = "tied" if why.criterion is None else why.criterion.replace("_", " ")
            if why.criterion not in (None, "ranked"):
                placed += f": {why.higher_value} vs {why.lower_value}"
            elif why.criterion == "ranked":
                placed = f"unranked: {line.events} of {standing.min_events} events"
        cells.append(
            (
                _rank(line.rank, line.tied, line.ranked),
                line.player,
                format_points(line.points),
                str(line.events),
                ", ".join(line.counted) or "-",
                ", ".join(line.dropped) or "-",
                placed,
            )
        )
    widths = [max(len(c[k]) for c in cells) for k in range(len(header))]
    for c in cells:
        row = [
            c[0].rjust(widths[0]),
            c[1].ljust(widths[1]),
            c[2].rjust(widths[2]),
            c[3].rjust(widths[3]),
            c[4].ljust(widths[4]),
            c[5].ljust(widths[5]),
            c[6],
        ]
        lines.append("  ".join(row).rstrip())
    if not all(line.ranked for line in standing.lines):
        lines += ["", f"(n): unranked, fewer than {standing.min_events} events"]
    return "\n".join(lines) + "\n"


def _rank(rank: int, tied: bool, ranked: bool) -> str:
    shown = f"{rank}{'=' if tied else ''}"
    return shown if ranked else f"({shown})"
