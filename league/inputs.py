"""Reading untrusted input strictly: integers and JSON (docs/security.md, "Limits").

``str.isdigit()`` accepts "²" and "٣", which ``int()`` then rejects or reads as another
number; Python's JSON reader accepts ``NaN`` and ``Infinity`` (not JSON, RFC 8259) and
recurses once per nesting level. Every id, revision, round number and seed read from a
request goes through :func:`strict_int`, and every JSON text through :func:`strict_json`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

#: The largest value a database id (bigint) holds.
MAX_ID = 2**63 - 1
#: No event has more rounds, or a round more tables, than this (a small integer column).
ROUND_MAX = 10_000
_ASCII_INT = re.compile(r"[0-9]{1,19}")


def strict_int(value: Any, *, lo: int = 0, hi: int = MAX_ID) -> int | None:
    """``value`` as an int if it is one written in ASCII digits within ``lo``..``hi``
    (or already an int in range); otherwise None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _ASCII_INT.fullmatch(value.strip()):
        number = int(value.strip())
    else:
        return None
    return number if lo <= number <= hi else None


def max_json_depth() -> int:
    return int(getattr(settings, "JSON_MAX_DEPTH", 32))


class JSONInputError(ValueError):
    """Text that is not strict JSON or nests too deeply; the message says which."""


def nesting_depth(text: str, stop_at: int) -> int:
    """How deeply ``text``'s arrays and objects nest (strings skipped), counting no
    further than ``stop_at`` — checked before parsing, so a deep document never reaches
    the recursive parser."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_at:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def _no_constants(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number (RFC 8259)")


def strict_json(text: str, *, object_pairs_hook: Callable[..., Any] | None = None) -> Any:
    """Parse RFC 8259 JSON: no NaN/Infinity, nesting at most ``JSON_MAX_DEPTH``.

    Raises :class:`JSONInputError` for those, ``json.JSONDecodeError`` for the rest."""
    limit = max_json_depth()
    if nesting_depth(text, limit) > limit:
        raise JSONInputError(f"nested deeper than {limit} levels")
    value = json.loads(text, parse_constant=_no_constants, object_pairs_hook=object_pairs_hook)
    if "\\u0000" in text and holds_nul(value):
        raise JSONInputError("a string holds a NUL character (\\u0000)")
    return value


def holds_nul(value: Any) -> bool:
    """Whether any string (key or value) of a parsed JSON value holds a NUL character,
    which no PostgreSQL text or jsonb value can store (iterative: no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def value_depth(value: Any, stop_at: int) -> int:
    """Nesting depth of an already parsed value (iterative: no recursion to overflow)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > stop_at:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth) for child in children)
    return deepest


def safe_back(request: HttpRequest, *candidates: str | None, default: str) -> str:
    """The first of ``candidates`` (a form's ``next``, the Referer) that points into this
    site, as a path; else ``default``. Browsers send the Referer as a full address; a
    ``next`` of ``//evil.example`` or another host is never followed."""
    for candidate in candidates:
        if candidate and url_has_allowed_host_and_scheme(
            candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            parts = urlsplit(candidate)
            return urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))
    return default
