"""The tail every ranking command shares (``standings``, ``event``, ``circuit``): the
warnings on stderr, then the result as one JSON document (``--json``) or as a table."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")

EXIT_OK = 0


def emit(
    result: T,
    as_json: bool,
    document: Callable[[T], Any],
    table: Callable[[T], str],
    warnings: Iterable[object] = (),
) -> int:
    """Print ``result`` the way the command was asked to; returns the exit status (0)."""
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if as_json:
        json.dump(document(result), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(table(result))
    return EXIT_OK
