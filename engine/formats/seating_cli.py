"""``python -m engine final-seating``: the final table's seating design (formats.md §4).

Players are numbered 1..N. Exit 0: the seating printed; 1: players or games outside what
one table can seat (the reason on stderr); 2: arguments argparse cannot read.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.formats.final_seating import FinalSeating, FinalSeatingError, final_seating

EXIT_OK, EXIT_INVALID = 0, 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``final-seating`` subcommand's arguments."""
    parser.add_argument("--players", type=int, required=True, help="players at the table")
    parser.add_argument("--games", type=int, required=True, help="games of the final")
    parser.add_argument("--seed", type=int, default=0, help="seed of the row draw (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    """Seat players 1..N for G games and print the seating. Returns the exit status."""
    try:
        names = [str(i) for i in range(1, args.players + 1)] if args.players > 0 else []
        seating = final_seating(names, args.games, args.seed)
    except FinalSeatingError as e:
        print(f"error: {e} [{e.code}]", file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        json.dump(as_document(seating), sys.stdout)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(as_text(seating))
    return EXIT_OK


def as_document(seating: FinalSeating) -> dict[str, list[list[int]]]:
    """The ``--json`` document: each game's players by seat, as integers."""
    return {"games": [[int(p) for p in game] for game in seating.games]}


def as_text(seating: FinalSeating) -> str:
    """One line a game, then the seat repeats and the neighbour count against its bound."""
    lines = [f"game {k}: " + " ".join(game) for k, game in enumerate(seating.games, start=1)]
    lines.append(
        f"seat repeats: {seating.seat_repeats}; most games as neighbours: "
        f"{seating.max_neighbours} (bound {seating.bound}); {seating.method}, seed {seating.seed}"
    )
    return "\n".join(lines) + "\n"
