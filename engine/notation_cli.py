"""``python -m engine convert GAME``: KGR/1 JSON to the text notation and back.

The direction is decided by the content, not the file's name: a file whose first
character other than white space (after a UTF-8 byte-order mark) is ``{`` is JSON and is
printed as notation; anything else is read as notation and printed as KGR/1 JSON. A
conversion checks the form of the record, never the rules of play; ``--check`` also
validates the record (:mod:`engine.validate`).

Exit 0: converted; 1: ``--check`` found the record invalid (it is still printed);
2: the file cannot be read, is not JSON or not the notation (``FILE:LINE:COLUMN: what``
on stderr), or is a JSON record whose form is broken or beyond the notation's bounds.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.notation import MAX_CHARS, NotationError, UnprintableRecord
from engine.record import RecordError, UnreadableFile, load_file

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
_BOM = b"\xef\xbb\xbf"
#: The most bytes of a notation file read: the text's bound at four bytes a character.
_MAX_BYTES = 4 * MAX_CHARS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``convert`` subcommand's arguments."""
    parser.description = __doc__
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("game", metavar="GAME", help="a KGR/1 JSON record or its notation")
    parser.add_argument(
        "--check", action="store_true", help="also validate the record; exit 1 when invalid"
    )


def is_json(data: bytes) -> bool:
    """Whether a file's bytes are JSON by the rule above (first non-space byte ``{``)."""
    return data.removeprefix(_BOM).lstrip().startswith(b"{")


def _read(path: str) -> bytes:
    """The file's bytes (at most :data:`_MAX_BYTES` and one more, to tell it is too long)."""
    try:
        with open(path, "rb") as f:
            return f.read(_MAX_BYTES + 1)
    except OSError:
        load_file(path)  # raises the same UnreadableFile every command names files with
        raise


def run(args: argparse.Namespace) -> int:
    """Convert one file; print the result on stdout. Returns the exit status."""
    path: str = args.game
    try:
        data = _read(path)
        if is_json(data):
            value = load_file(path)
            return _to_notation(path, value, args.check)
        text = _decode(path, data)
    except UnreadableFile as e:
        print(str(e), file=sys.stderr)
        return EXIT_UNREADABLE
    return _to_json(path, text, args.check)


def _decode(path: str, data: bytes) -> str:
    """The text of a notation file (UTF-8, one byte-order mark dropped)."""
    data = data.removeprefix(_BOM)
    if len(data) > _MAX_BYTES:  # more characters than the parser reads: it says so, where
        return data.decode("utf-8", "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[data.rfind(b"\n", 0, e.start) + 1 : e.start].decode("utf-8")) + 1
        raise UnreadableFile(
            "file.not_utf8", {"path": path, "line": line, "column": column}
        ) from None


def _to_notation(path: str, value: Any, check: bool) -> int:
    from engine.notation import print_notation

    try:
        text = print_notation(value)
    except RecordError as e:
        for v in e.violations:
            print(f"{path}: {v.message} [{v.code}]", file=sys.stderr)
        return EXIT_UNREADABLE
    except UnprintableRecord as e:
        print(f"{path}: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    sys.stdout.write(text)
    return _checked(path, value) if check else EXIT_OK


def _to_json(path: str, text: str, check: bool) -> int:
    from engine.notation import parse_notation

    try:
        value = parse_notation(text)
    except NotationError as e:
        print(f"{path}:{e}", file=sys.stderr)  # the message starts with "line:column: "
        return EXIT_UNREADABLE
    out = json.dumps(value, ensure_ascii=False, indent=2)
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate written as an escape: keep it one
        out = json.dumps(value, ensure_ascii=True, indent=2)
    sys.stdout.write(out + "\n")
    return _checked(path, value) if check else EXIT_OK


def _checked(path: str, value: Any) -> int:
    """``--check``: the validator's verdict, each violation on stderr."""
    from engine.validate import validate

    verdict = validate(value)
    for v in verdict.violations:
        print(f"{path}: {v.message} [{v.code}]", file=sys.stderr)
    return EXIT_OK if verdict.valid else EXIT_INVALID
