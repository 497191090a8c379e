"""The settings mypy's Django plugin loads: development defaults, no SECRET_KEY needed."""

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: F403
