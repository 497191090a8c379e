"""``python -m engine``: a dispatcher of subcommands (spec §5 for ``validate``).

Each subcommand's module is imported only when it runs, so one missing or broken
subcommand never stops the others, and ``validate`` starts without loading what it does
not use: its usual command lines are read without :mod:`argparse` (:func:`quick_args`),
which stays the reference for every other one (help, errors, abbreviations).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

    from engine.validate import Verdict


class ValidateArgs:
    """The arguments of ``validate``: the files in order and the two switches (a plain
    class: a named tuple or a dataclass would cost start-up time)."""

    __slots__ = ("files", "json", "series")

    def __init__(self, files: list[str], json: bool, series: bool) -> None:
        self.files = files
        self.json = json
        self.series = series


_SWITCHES = ("--json", "--series")


def quick_args(argv: Sequence[str]) -> ValidateArgs | None:
    """``validate`` arguments read as :mod:`argparse` reads them, or None to let it read them.

    Takes ``validate``, then the switches, one run of file names (none starting with
    ``-``), then switches again: what argparse accepts with the same meaning. Anything
    else (help, an abbreviated or unknown option, ``--``, files in two runs, which
    argparse refuses) is left to argparse, which says why.
    """
    if len(argv) < 2 or argv[0] != "validate":
        return None
    seen: set[str] = set()
    files: list[str] = []
    run = 0  # 0 before the file names, 1 in them, 2 after them
    for arg in argv[1:]:
        if arg in _SWITCHES:
            seen.add(arg)
            if run == 1:
                run = 2
        elif arg.startswith("-") or run == 2:
            return None
        else:
            files.append(arg)
            run = 1
    if not files:
        return None
    return ValidateArgs(files, "--json" in seen, "--series" in seen)


def read_bytes(path: str) -> bytes:
    """A file's bytes, read without a buffered file object (one ``read`` for a small file,
    then the empty one that proves the end). Raises ``OSError`` like :func:`open`."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        data = os.read(fd, 1 << 16)
        if data:
            chunks = [data]
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
            if len(chunks) > 1:
                data = b"".join(chunks)
        return data
    finally:
        os.close(fd)


_BOM = b"\xef\xbb\xbf"


def _text(path: str) -> str | None:
    """The file's text as ``load_file`` decodes it (UTF-8, one leading byte-order mark
    dropped), or None when it cannot be read or is not UTF-8."""
    try:
        data = read_bytes(path)
        return (data[3:] if data.startswith(_BOM) else data).decode()
    except (OSError, UnicodeDecodeError):
        return None


def json_game_writer() -> Callable[[str, Verdict], str]:
    """A writer of one game of the ``--json`` document, written by hand for its fixed
    shape: ``file``, ``valid``, ``status``, ``winner``, ``ended``, ``violations`` (each
    ``code``, ``where``, ``params``, ``message``); strings go through the C string
    encoder and violations through one C encoder, non-ASCII text as is."""
    from json import JSONEncoder
    from json.encoder import encode_basestring as string

    encode = JSONEncoder(ensure_ascii=False).encode

    def game(path: str, v: Verdict) -> str:
        winner, ended = v.winner, v.ended
        violations = encode([x.as_dict() for x in v.violations]) if v.violations else "[]"
        return (
            f'{{"file": {string(path)}, "valid": {"true" if v.valid else "false"}, '
            f'"status": {string(v.status.value)}, '
            f'"winner": {"null" if winner is None else string(winner.value)}, '
            f'"ended": {"null" if ended is None else string(ended)}, '
            f'"violations": {violations}}}'
        )

    return game


def json_document(games: Sequence[str]) -> str:
    """The ``--json`` document of spec §5, ``{"games": [...]}``, one game a line."""
    return '{"games": [\n' + ",\n".join(games) + "\n]}\n"


def text_game(path: str, v: Verdict) -> str:
    """One game of the plain report: its summary line, then a line a violation."""
    summary = v.status.value
    if v.winner:
        summary += f", {v.winner.value}" + (f" on {v.ended}" if v.ended else "")
    if v.valid:
        return f"{path}: valid ({summary})\n"
    out = [f"{path}: INVALID ({summary}), {len(v.violations)} violation(s)\n"]
    for x in v.violations:
        message = x.message
        place = "" if message.startswith(x.where) else f"{x.where}: "
        out.append(f"  {place}{message} [{x.code}]\n")
    return "".join(out)


def _verdicts(files: list[str], series: bool) -> Iterator[Verdict]:
    """Each file's verdict, in order; raises ``UnreadableFile`` at a file that cannot be
    read or is not JSON.

    Verdicts are exactly those of judging the value :func:`engine.record.load_file`
    reads. Each file goes to the validator as text: its fast reader proves that no key
    is there twice without the duplicate-aware decoder. A record whose form is too broken
    to read is judged again from the value ``load_file`` reads (from text the validator
    cannot tell such a record's status), and ``load_file`` raises, naming the line and
    column, when the text is not JSON. ``--series`` loses nothing by it: a record that
    cannot be read has no part in the across-games checks.
    """
    from engine.record import load_file
    from engine.validate import validate, validate_series

    if not series:
        for path in files:  # one at a time: the records do not pile up in memory
            text = _text(path)
            if text is not None:
                v = validate(text)
                if v.record is not None:
                    yield v
                    continue
            yield validate(load_file(path))
        return
    inputs: list[Any] = []
    for path in files:
        text = _text(path)
        inputs.append(load_file(path) if text is None else text)
    for path, value, v in zip(files, inputs, validate_series(inputs), strict=True):
        yield validate(load_file(path)) if v.record is None and isinstance(value, str) else v


def run_validate(args: ValidateArgs | argparse.Namespace) -> int:
    """``validate``: 0 when every record is valid, 1 when one is not, 2 when a file cannot
    be read or is not JSON (then nothing on stdout, and on stderr each such file named
    with line and column)."""
    from engine.record import UnreadableFile, load_file

    files: list[str] = list(args.files)
    game = json_game_writer() if args.json else text_game
    out, valid = [], True
    try:
        for path, v in zip(files, _verdicts(files, args.series), strict=True):
            out.append(game(path, v))
            valid = valid and v.valid
    except UnreadableFile as first:
        problems = []
        for path in files:  # name every such file, as reading them all first would
            try:
                load_file(path)
            except UnreadableFile as e:
                problems.append(str(e))
        sys.stderr.write("".join(f"error: {p}\n" for p in problems or [str(first)]))
        return 2
    sys.stdout.write(json_document(out) if args.json else "".join(out))
    return 0 if valid else 1


#: Subcommands with their own module (``add_arguments(parser)`` and ``run(args)``), each
#: imported only when it runs: ``name: (module, help)``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "standings": ("engine.standings_cli", "event standings"),
    "event": ("engine.formats.event_cli", "an event of stages: cuts, multipliers, final order"),
    "final-seating": ("engine.formats.seating_cli", "the final table's seating design"),
    "circuit": ("engine.formats.circuit_cli", "a circuit's standing from events' places"),
    "convert": ("engine.notation_cli", "KGR/1 JSON to the text notation and back"),
}


def _subcommand(args: argparse.Namespace) -> int:
    """Parse the rest of the line with the subcommand module's own parser and run it."""
    import argparse
    import importlib

    module_name, _help = SUBCOMMANDS[args.command]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name:
            raise
        print(f"error: the {args.command} command is not available yet", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"python -m engine {args.command}")
    module.add_arguments(parser)
    code: int = module.run(parser.parse_args(args.rest))
    return code


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m engine`` parser with every subcommand."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    v = commands.add_parser("validate", help="check KGR/1 game records against their rules")
    v.add_argument("files", nargs="+", metavar="GAME.json")
    v.add_argument("--json", action="store_true", help="print one JSON document")
    v.add_argument("--series", action="store_true", help="also check across the games, in order")
    v.set_defaults(handler=run_validate)
    for name, (_module, text) in SUBCOMMANDS.items():
        s = commands.add_parser(name, help=text, add_help=False)
        s.add_argument("rest", nargs=argparse.REMAINDER)
        s.set_defaults(handler=_subcommand)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the process exit code."""
    if argv is None:
        argv = sys.argv[1:]
    quick = quick_args(argv)
    if quick is not None:
        return run_validate(quick)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command in SUBCOMMANDS:
        args.rest = extra + args.rest
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    code: int = args.handler(args)
    return code
