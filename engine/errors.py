"""The engine's one exception tree.

Everything a user can fix (a malformed record, an illegal move, an impossible draw)
raises a subclass of :class:`EngineError`, itself a ``ValueError``. Like Django's
``ValidationError(code=, params=)``, it carries a stable ``code`` and plain JSON
``params`` (:mod:`engine.messages`); its English text is rendered from them, and the web
side translates by code. Anything else escaping the engine is a bug.
"""

from __future__ import annotations

from typing import Any

from engine.messages import Param, Params, render


class EngineError(ValueError):
    """Root of every user-fixable error raised by the engine."""

    def __init__(self, code: str, params: Params | None = None) -> None:
        self.code = code
        self.params: dict[str, Param] = dict(params or {})
        super().__init__(render(code, self.params))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as code and params (a Celery result, a cache), not as the English."""
        return type(self), (self.code, self.params)
