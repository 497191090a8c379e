"""The catalogue's templates by concern, as plain data (no imports back into the engine).

Each part is ``(TEMPLATES, PARAMS)``: ``{key: English template with {named} params}`` and
``{param name: kind}`` with the kinds of :class:`engine.messages.ParamKind` spelled as
strings. :mod:`engine.messages` assembles them into the one catalogue.
"""

from engine.texts import (
    circuits,
    draws,
    final_seating,
    games,
    notation,
    records,
    scoring,
    stages,
)

PARTS = (
    (records.TEMPLATES, records.PARAMS),
    (games.TEMPLATES, games.PARAMS),
    (scoring.TEMPLATES, scoring.PARAMS),
    (draws.TEMPLATES, draws.PARAMS),
    (stages.TEMPLATES, stages.PARAMS),
    (final_seating.TEMPLATES, final_seating.PARAMS),
    (circuits.TEMPLATES, circuits.PARAMS),
    (notation.TEMPLATES, notation.PARAMS),
)
