"""A light per-address limit on what sends e-mail: sign-up, a new confirmation link, a
password reset. Counted in the cache, per client address and clock hour; a cache outage
lets requests through (the limit is a brake on abuse, never a reason to fail a page)."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from config.accounts.backends import client_ip
from league.outages import CACHE_ERRORS

logger = logging.getLogger(__name__)

WINDOW_SECONDS = 3600


def over_limit(request: HttpRequest, action: str = "mail") -> bool:
    """Count one more ``action`` from the request's address; True past the hourly limit
    ``ACCOUNT_EMAILS_PER_HOUR``."""
    limit = int(getattr(settings, "ACCOUNT_EMAILS_PER_HOUR", 10))
    address = client_ip(request) or "unknown"
    key = f"accounts:rate:{action}:{address}:{int(time.time()) // WINDOW_SECONDS}"
    try:
        cache.add(key, 0, WINDOW_SECONDS + 60)
        count = int(cache.incr(key))
    except ValueError:  # the key expired between add and incr
        return False
    except CACHE_ERRORS as exc:
        logger.warning("sign-up rate limit skipped: cache unavailable (%s)", exc)
        return False
    return count > limit
