"""Outages degrade, never break (issue 15): the cache and the broker are optional services.

* :data:`cache` stands in for ``django.core.cache.cache`` on page paths. While Redis is
  down (refused, reset, timed out) a read is a miss and a write is dropped, with one
  warning; the page computes from the database. After a failure the cache is skipped for
  :data:`CACHE_RETRY_AFTER` seconds, so an outage costs one socket timeout per process,
  not one per call.
* :func:`enqueue` publishes a task and never fails its caller: a broker or result-backend
  outage (kombu's ``OperationalError``, redis' ``ConnectionError``, celery's "Retry limit
  exceeded" ``RuntimeError``, ``OSError``) is logged and the work stays stale, for the
  beat's ``games.heal_results`` or an organiser's retry. With eager tasks (no broker: the
  tests and ``make run``) the task itself runs inside ``delay()``, so its errors still
  propagate.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.core.cache import cache as django_cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: What a cache backend raises when its server is unreachable.
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)

#: Seconds the cache is bypassed after a failure (then tried again).
CACHE_RETRY_AFTER = 5.0

_NO_TIMEOUT_GIVEN: Any = object()


class FallbackCache:
    """The default cache, or no cache while it is down (a miss, a dropped write)."""

    def __init__(self) -> None:
        self._down_until = 0.0
        self._lock = threading.Lock()

    def is_down(self) -> bool:
        return time.monotonic() < self._down_until

    def _failed(self, operation: str, exc: BaseException) -> None:
        with self._lock:
            first = not self.is_down()
            self._down_until = time.monotonic() + CACHE_RETRY_AFTER
        if first:
            logger.warning(
                "cache unavailable (%s: %s: %s); reading from the database for %.0f s",
                operation,
                type(exc).__name__,
                exc,
                CACHE_RETRY_AFTER,
            )

    def _call(self, operation: str, fallback: T, call: Callable[[], T]) -> T:
        if self.is_down():
            return fallback
        try:
            return call()
        except CACHE_ERRORS as exc:
            self._failed(operation, exc)
            return fallback

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", default, lambda: django_cache.get(key, default))

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        keys = list(keys)
        return self._call("get_many", {}, lambda: django_cache.get_many(keys))

    def set(self, key: str, value: Any, timeout: Any = _NO_TIMEOUT_GIVEN) -> None:
        if timeout is _NO_TIMEOUT_GIVEN:
            self._call("set", None, lambda: django_cache.set(key, value))
        else:
            self._call("set", None, lambda: django_cache.set(key, value, timeout))

    def set_many(self, data: Mapping[str, Any], timeout: Any = _NO_TIMEOUT_GIVEN) -> list[str]:
        if timeout is _NO_TIMEOUT_GIVEN:
            return self._call("set_many", list(data), lambda: django_cache.set_many(dict(data)))
        return self._call(
            "set_many", list(data), lambda: django_cache.set_many(dict(data), timeout)
        )

    def add(self, key: str, value: Any, timeout: Any = _NO_TIMEOUT_GIVEN) -> bool:
        if timeout is _NO_TIMEOUT_GIVEN:
            return self._call("add", False, lambda: django_cache.add(key, value))
        return self._call("add", False, lambda: django_cache.add(key, value, timeout))

    def delete(self, key: str) -> bool:
        return self._call("delete", False, lambda: django_cache.delete(key))

    def delete_many(self, keys: Iterable[str]) -> None:
        keys = list(keys)
        self._call("delete_many", None, lambda: django_cache.delete_many(keys))

    def reset(self) -> None:
        """Try the cache again at the next call (tests; a recovered server)."""
        with self._lock:
            self._down_until = 0.0


#: Use instead of ``django.core.cache.cache`` wherever a page can do without the cache.
cache = FallbackCache()


def enqueue(task: Any, *args: Any) -> bool:
    """Publish ``task(*args)`` fire-and-forget; False (logged) when the broker is down.

    Call it from ``transaction.on_commit`` after marking the work stale in the
    transaction: a lost message is then healed later, and the caller — whose change has
    committed — answers as if the enqueue had worked. Nothing reads these tasks' results
    (their effects are in the database), so the publish does not subscribe to the result
    backend (``ignore_result``): a Redis outage there used to cost 20 reconnection tries,
    ~19 s, before its ``RuntimeError``.
    """
    if task.app.conf.task_always_eager:
        task.apply_async(args, ignore_result=True)  # runs here: its errors are real errors
        return True
    try:
        task.apply_async(args, ignore_result=True)
    except Exception:  # only a publish happens here: any failure is an outage
        logger.exception("could not enqueue %s%r; the work stays stale", task.name, args)
        return False
    return True
