"""The games app's refusals that may be said in the engine's words.

A refusal is a :class:`league.errors.UserError`. Some repeat what the engine found — an
unknown ruleset, a step the rules forbid, JSON the reader could not parse: those keep the
engine's ``code`` and ``params`` and are said by ``league.engine_text`` in the language of
whoever reads them, never as a sentence made when raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise

from league.engine_text import engine_text, violation_text
from league.errors import UserError


class EngineWords(UserError):
    """A refusal said by our ``message`` template, or — without one — in the engine's words
    for its ``code`` and ``params`` (a violation's words when it has a ``where``)."""

    def __init__(
        self,
        message: str | Promise | None = None,
        *,
        code: str,
        params: Mapping[str, Any] | None = None,
        where: str | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message or "", code=code, params=params, status=status)
        self.engine = message is None
        self.where = where

    @property
    def message(self) -> str:
        if not self.engine:
            return super().message
        if self.where is None:
            return engine_text(self.code, self.params)
        return violation_text(self.code, self.where, self.params)
