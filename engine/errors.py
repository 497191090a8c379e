"""The engine's one exception tree.

Everything a user can fix (a malformed record, an illegal move, an impossible draw)
raises a subclass of :class:`EngineError`, itself a ``ValueError``; the messages name
the seat, round and phase involved. Anything else escaping the engine is a bug.
"""


class EngineError(ValueError):
    """Root of every user-fixable error raised by the engine."""
