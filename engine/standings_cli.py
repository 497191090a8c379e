"""``python -m engine standings``: an event's standing from KGR/1 files (scoring.md, CLI).

The files are one event in the order given. Nothing is ranked unless every record is
valid, the across-games checks included: a standing built on a bad record would be
published and then silently change. Exit 0: standing printed; 1: an invalid record;
2: a file that cannot be read or is not JSON.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.cli_report import emit
from engine.record import UnreadableFile, load_file
from engine.scoring import DEFAULT_PROFILE, PROFILES, format_points, get_profile, summarize
from engine.standings import METRICS, Standings, compute_standings
from engine.validate import validate_series

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``standings`` subcommand's arguments."""
    parser.add_argument("games", nargs="+", type=Path, metavar="GAME.json", help="KGR/1 records")
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE.key,
        choices=sorted(PROFILES),
        help=f"scoring profile (default {DEFAULT_PROFILE.key})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the lots (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    """Validate, score and rank the games; print the standing. Returns the exit status."""
    paths: list[Path] = args.games
    values: list[Any] = []
    unreadable: list[str] = []
    for path in paths:
        try:
            values.append(load_file(path))
        except UnreadableFile as e:
            unreadable.append(str(e))
    for problem in unreadable:
        print(f"error: {problem}", file=sys.stderr)
    if unreadable:
        return EXIT_UNREADABLE

    verdicts = validate_series(values)
    invalid = [(p, v) for p, v in zip(paths, verdicts, strict=True) if not v.valid]
    for path, verdict in invalid:
        for violation in verdict.violations:
            # the validator's messages already name their phase, ballot or seat
            print(f"{path}: {violation.message} [{violation.code}]", file=sys.stderr)
    if invalid:
        print(
            f"{len(invalid)} of {len(paths)} records invalid: no standing computed", file=sys.stderr
        )
        return EXIT_INVALID

    summaries = []
    for path, verdict in zip(paths, verdicts, strict=True):
        assert verdict.record is not None  # a valid verdict always carries its record
        summaries.append(summarize(verdict.record, str(path)))
    standing = compute_standings(summaries, get_profile(args.profile), seed=args.seed)
    return emit(standing, args.json, as_document, as_table, standing.warnings)


def as_document(standing: Standings) -> dict[str, Any]:
    """The ``--json`` document: standings in rank order and each game's points without Ci."""
    return {
        "standings": [
            {
                "player": row.player,
                "rank": row.rank,
                "tied": row.tied,
                "points": format_points(row.points),
                "wins": row.wins,
                "games": row.games,
                "awards": format_points(row.awards),
                "ci": format_points(row.ci),
            }
            for row in standing.rows
        ],
        "games": [
            {"file": game.game, "points": {p: format_points(v) for p, v in game.points.items()}}
            for game in standing.games
        ],
    }


def as_table(standing: Standings) -> str:
    """A table for people: rank (``=`` when shared), totals, and what placed each player."""
    scored = sum(1 for g in standing.games if g.scored)
    lines = [
        f"{len(standing.games)} games ({scored} scored), profile {standing.profile}, "
        f"seed {standing.seed}",
        f"tie-breaks: {', '.join(standing.precedence)}",
        "",
    ]
    header = ("rank", "player", "points", "wins", "games", "awards", "ci", "placed by")
    cells: list[tuple[str, ...]] = [header]
    for i, row in enumerate(standing.rows):
        placed = ""
        if i:
            why = standing.explain(standing.rows[i - 1].player, row.player)
            if why.metric is None:
                placed = "tied"
            else:
                metric = METRICS[why.metric]
                assert why.higher_value is not None and why.lower_value is not None
                shown = f"{metric.show(why.higher_value)} vs {metric.show(why.lower_value)}"
                placed = f"{metric.name}: {shown}"
        cells.append(
            (
                f"{row.rank}{'=' if row.tied else ''}",
                row.player,
                format_points(row.points),
                str(row.wins),
                str(row.games),
                format_points(row.awards),
                format_points(row.ci),
                placed,
            )
        )
    widths = [max(len(c[k]) for c in cells) for k in range(len(header))]
    for c in cells:
        left = [c[1].ljust(widths[1])]
        right = [c[k].rjust(widths[k]) for k in (2, 3, 4, 5, 6)]
        lines.append("  ".join([c[0].rjust(widths[0]), *left, *right, c[7]]).rstrip())
    return "\n".join(lines) + "\n"
