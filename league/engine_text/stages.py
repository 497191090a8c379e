"""The engine's stages keys in the reader's language (see :mod:`league.engine_text`),
one entry per key of :mod:`engine.texts.stages`; our own English msgids."""

from __future__ import annotations

from django.utils.functional import Promise

TEXT: dict[str, Promise] = {}

WORDS: dict[str, Promise] = {}
