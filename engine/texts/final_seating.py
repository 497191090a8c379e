"""Templates: final seating (see engine.texts and :mod:`engine.formats`)."""

TEMPLATES: dict[str, str] = {}

PARAMS: dict[str, str] = {}
