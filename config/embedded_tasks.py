"""Tasks off the request thread without a broker: the ``thread`` mode of the embedded set-up.

With no ``CELERY_BROKER_URL`` Celery runs a task eagerly, inside ``delay()``: a request
that starts a draw then waits for the whole draw (seconds) and the progress the draw page
polls for is never seen. ``TASKS_RUN_IN=thread`` (what ``make run`` sets) hands each task
to a small pool of threads in the web process instead: ``delay()`` returns at once and
the task runs through Celery's own ``apply()`` (same retries, same signals) in a worker
thread, which closes its database connections when the task ends and logs any failure.

The test suite keeps ``eager`` (tasks finish before ``delay()`` returns), and with a broker
tasks go to a real worker: this module then changes nothing.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from celery import Task
from celery.result import AsyncResult, EagerResult
from django.conf import settings
from django.db import close_old_connections, connections

log = logging.getLogger(__name__)

#: Values of ``settings.TASKS_RUN_IN``.
EAGER = "eager"
THREAD = "thread"
WORKER = "worker"

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def thread_mode() -> bool:
    """True when tasks run in this process's task threads (read on every enqueue, so a test
    can switch it with a settings override)."""
    return getattr(settings, "TASKS_RUN_IN", EAGER) == THREAD


def executor() -> ThreadPoolExecutor:
    """The process's task pool, created on first use (``TASKS_THREADS`` workers)."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=int(getattr(settings, "TASKS_THREADS", 2)),
                thread_name_prefix="tianhei-task",
            )
        return _executor


def shutdown(wait: bool = True) -> None:
    """Stop the pool (the next enqueue starts a new one); ``wait`` lets queued tasks finish."""
    global _executor
    with _lock:
        pool, _executor = _executor, None
    if pool is not None:
        pool.shutdown(wait=wait)


def _run(task: Task, args: tuple[Any, ...], kwargs: dict[str, Any], task_id: str) -> EagerResult:
    """One task in a pool thread: Celery's ``apply()``, a failure logged, then this thread's
    connections closed (the thread outlives the task; a connection kept open would hold
    SQLite's file and escape CONN_MAX_AGE)."""
    close_old_connections()
    try:
        # throw=False: Celery's apply() then retries the task itself (autoretry_for) and
        # keeps a final failure in the result instead of raising it.
        result: EagerResult = task.apply(args, kwargs, task_id=task_id, throw=False)
    except Exception:  # a failure outside the task body (arguments, signals)
        log.exception("task %s[%s] failed in its thread", task.name, task_id)
        raise
    finally:
        connections.close_all()
    if result.failed():
        log.error(
            "task %s[%s] failed in its thread: %r\n%s",
            task.name,
            task_id,
            result.result,
            result.traceback or "",
        )
    return result


class ThreadResult(AsyncResult):  # type: ignore[misc]
    """What ``delay()`` returns in thread mode: ``ready()``, ``state`` and ``get()`` follow the
    pool's future (there is no result backend to ask)."""

    def __init__(self, task_id: str, future: Future[EagerResult], **kwargs: Any) -> None:
        super().__init__(task_id, **kwargs)
        self.future = future

    def ready(self) -> bool:
        return self.future.done()

    @property
    def state(self) -> str:
        if not self.future.done():
            return "PENDING"
        if self.future.exception() is not None:
            return "FAILURE"
        return str(self.future.result().state)

    status = state

    def get(self, timeout: float | None = None, propagate: bool = True, **kwargs: Any) -> Any:
        try:
            eager = self.future.result(timeout)
        except Exception as exc:
            if propagate:
                raise
            return exc
        return eager.get(propagate=propagate)


class EmbeddedTask(Task):  # type: ignore[misc]
    """The app's task base: in thread mode ``apply_async`` (and so ``delay``) submits the task
    to the pool; otherwise Celery's own behaviour (eager, or a message to the broker)."""

    def apply_async(
        self,
        args: tuple[Any, ...] | list[Any] | None = None,
        kwargs: dict[str, Any] | None = None,
        task_id: str | None = None,
        **options: Any,
    ) -> Any:
        if not thread_mode():
            return super().apply_async(args, kwargs, task_id=task_id, **options)
        from celery.utils import uuid

        task_id = task_id or uuid()
        future = executor().submit(_run, self, tuple(args or ()), dict(kwargs or {}), task_id)
        return ThreadResult(task_id, future, app=self.app)
