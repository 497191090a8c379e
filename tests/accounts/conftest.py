"""Each test starts with an empty cache (the e-mail rate limit counts there) and a fast
password hasher."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
