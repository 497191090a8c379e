"""The engine's one exception tree.

Everything a user can fix (a malformed record, an illegal move, an impossible draw)
raises a subclass of :class:`EngineError`, itself a ``ValueError``. Like Django's
``ValidationError(code=, params=)``, it carries a stable ``code`` and plain JSON
``params`` (:mod:`engine.messages`); its English text is rendered from them, and the web
side translates by code. Anything else escaping the engine is a bug.
"""

from __future__ import annotations

from engine.messages import CATALOGUE, Param, Params, render


class EngineError(ValueError):
    """Root of every user-fixable error raised by the engine."""

    def __init__(self, code: str, params: Params | None = None) -> None:
        if params is None and code not in CATALOGUE:  # TRANSITION: an old English sentence
            self.__dict__.setdefault("code", "engine.error")
            self.__dict__.setdefault("params", {})
            super().__init__(code)
            return
        self.code = code
        self.params: dict[str, Param] = dict(params or {})
        super().__init__(render(code, self.params))
