"""Demo data for the games side: played games on top of the demo league."""


def seed_games() -> list[str]:
    """Record demo games; returns lines describing what was made."""
    return []
