"""The engine's draws keys in the reader's language (see league.engine_text)."""

from __future__ import annotations

from django.utils.functional import Promise

TEXT: dict[str, Promise] = {}
WORDS: dict[str, Promise] = {}
