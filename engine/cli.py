"""``python -m engine``: a dispatcher of subcommands (spec §5 for ``validate``).

Each subcommand's module is imported only when it runs, so one missing or broken
subcommand never stops the others.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.record import UnreadableFile, load_file


def _validate(args: argparse.Namespace) -> int:
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
    if args.json:
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
    else:
        for path, v in zip(args.files, verdicts, strict=True):
            summary = v.status.value
            if v.winner:
                summary += f", {v.winner.value}" + (f" on {v.ended}" if v.ended else "")
            if v.valid:
                print(f"{path}: valid ({summary})")
            else:
                print(f"{path}: INVALID ({summary}), {len(v.violations)} violation(s)")
                for x in v.violations:
                    place = "" if x.message.startswith(x.where) else f"{x.where}: "
                    print(f"  {place}{x.message} [{x.code}]")
    return 0 if all(v.valid for v in verdicts) else 1


def _standings(args: argparse.Namespace) -> int:
    try:
        from engine import standings_cli
    except ModuleNotFoundError as e:
        if e.name != "engine.standings_cli":
            raise
        print("error: the standings command is not available yet", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="python -m engine standings")
    standings_cli.add_arguments(parser)
    code: int = standings_cli.run(parser.parse_args(args.rest))
    return code


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m engine`` parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    v = commands.add_parser("validate", help="check KGR/1 game records against their rules")
    v.add_argument("files", nargs="+", metavar="GAME.json")
    v.add_argument("--json", action="store_true", help="print one JSON document")
    v.add_argument("--series", action="store_true", help="also check across the games, in order")
    v.set_defaults(handler=_validate)
    s = commands.add_parser("standings", help="event standings", add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(handler=_standings)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the process exit code."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command == "standings":
        args.rest = extra + args.rest
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    code: int = args.handler(args)
    return code
