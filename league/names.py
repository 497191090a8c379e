"""Names in any script: a search key and a sort key.

Players are written as 王芳, Wang Fang, José Núñez or Ирина; an organiser searching
"wangfang", "wang fang", "Wang" or "王" should find 王芳, and "jose nunez" should find
José Núñez. :func:`search_key` folds a name to lower-case ASCII-ish letters and digits:

- Han characters become their toneless pinyin (``pypinyin``): 王芳 → ``wangfang``;
- accents are dropped (José → ``jose``), case is folded (ß → ``ss``), full-width forms
  are narrowed (ＡＢＣ → ``abc``);
- spaces, dots, hyphens and other punctuation are dropped, so "Wang Fang", "wang-fang"
  and "WANGFANG" all have the same key.

:func:`name_matches` says whether a query finds a name: the query's key is contained in
the name's key, or in its pinyin initials (``wf`` finds 王芳), or the query (in any
script) is contained in the name itself. :func:`sort_key` sorts a mixed list the way a
reader expects: 王芳 among the W's, Ángel among the A's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TypeVar

from django.db.models import Model, Q, QuerySet
from pypinyin import Style, lazy_pinyin

T = TypeVar("T")
M = TypeVar("M", bound=Model)


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\uf900" <= ch <= "\ufaff"


def _fold(text: str) -> str:
    """NFKC, case-folded, accents dropped; Han characters kept as they are."""
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _keep(text: str) -> str:
    """Letters and digits only (any script)."""
    return "".join(c for c in text if c.isalnum())


@lru_cache(maxsize=8192)
def search_key(name: str) -> str:
    """The name folded for searching: 王芳 → "wangfang", "José  Núñez" → "josenunez"."""
    folded = _fold(name or "")
    if not any(_is_han(c) for c in folded):
        return _keep(folded)
    parts = lazy_pinyin(folded, errors=lambda s: s)  # keeps non-Han runs as they are
    return _keep("".join(parts)).replace("ü", "v")


@lru_cache(maxsize=8192)
def initials_key(name: str) -> str:
    """Pinyin initials of the Han characters, first letters of other words: 王芳 → "wf"."""
    folded = _fold(name or "")
    out = []
    for word in folded.split():
        if any(_is_han(c) for c in word):
            for part in lazy_pinyin(word, style=Style.FIRST_LETTER, errors=lambda s: s):
                out.append(_keep(part)[:1] if not part.strip().isascii() else _keep(part))
        else:
            out.append(_keep(word)[:1])
    return "".join(out)


def name_matches(query: str, *names: str) -> bool:
    """Whether ``query`` finds any of ``names`` (display name, handle, …)."""
    query = (query or "").strip()
    if not query:
        return True
    raw = _fold(query)
    key = search_key(query)
    for name in names:
        if not name:
            continue
        if raw in _fold(name):
            return True
        if key and (key in search_key(name) or key == initials_key(name)):
            return True
    return False


def filter_by_name(items: Iterable[T], query: str, names: Callable[[T], Iterable[str]]) -> list[T]:
    """The items whose names (``names(item)``) the query finds, in their order."""
    return [item for item in items if name_matches(query, *names(item))]


def sort_key(name: str) -> tuple[str, str]:
    """Sort mixed scripts by reading: (search key, the name itself as the tie-break)."""
    return (search_key(name), _fold(name or ""))


def name_filter(qs: QuerySet[M], query: str, *fields: str) -> QuerySet[M]:
    """``qs`` narrowed to the rows whose ``fields`` the query finds.

    The database's ``icontains`` finds what it can; the rows it cannot judge (pinyin for
    Han names, accents, spacing) are matched here on their names only — one extra query
    of (pk, names), cheap for a club's or an event's players.
    """
    query = (query or "").strip()
    if not query:
        return qs
    direct = Q()
    for f in fields:
        direct |= Q(**{f"{f}__icontains": query})
    ids = [
        row[0]
        for row in qs.values_list("pk", *fields)
        if name_matches(query, *(str(n or "") for n in row[1:]))
    ]
    return qs.filter(direct | Q(pk__in=ids))
