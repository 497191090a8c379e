"""Templates: games (see engine.texts)."""

TEMPLATES: dict[str, str] = {}
PARAMS: dict[str, str] = {}
