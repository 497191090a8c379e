"""Suite-wide fixtures: eager Celery by default, a real worker for tests marked `worker`."""

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connections

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent

#: Debian's chromium (``apt-get install chromium``; .ci/run installs it).
CHROMIUM = "/usr/bin/chromium"
#: Flags for a root sandbox with no network beyond loopback.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def broker_configured() -> bool:
    return bool(settings.CELERY_BROKER_URL)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if broker_configured():
        return
    skip = pytest.mark.skip(reason="needs CELERY_BROKER_URL and a real worker (the PostgreSQL run)")
    for item in items:
        if "worker" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _celery_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in-process unless the test is marked as needing a real worker."""
    eager = request.node.get_closest_marker("worker") is None
    previous = celery_app.conf.task_always_eager, settings.TASKS_RUN_IN
    celery_app.conf.task_always_eager = eager
    if settings.TASKS_RUN_IN == "thread":  # TASKS_RUN_IN=thread in the shell, as `make run`
        settings.TASKS_RUN_IN = "eager"
    yield
    celery_app.conf.task_always_eager, settings.TASKS_RUN_IN = previous


def _database_url_for_worker() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        raise RuntimeError("the real-worker tests need PostgreSQL (set DATABASE_URL)")
    auth = quote(db["USER"]) + (":" + quote(db["PASSWORD"]) if db["PASSWORD"] else "")
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or "5432"
    return f"postgres://{auth}@{host}:{port}/{quote(db['NAME'])}"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: None) -> Iterator[subprocess.Popen[bytes]]:
    """Start `bin/worker` against the test database and wait until it answers."""
    env = dict(os.environ)
    env["DATABASE_URL"] = _database_url_for_worker()
    env["PY"] = sys.executable
    node = f"tianhei-test-{uuid.uuid4().hex[:8]}@localhost"
    log_dir = ROOT / ".pytest_cache"  # exists unless pytest runs with -p no:cacheprovider
    log_dir.mkdir(exist_ok=True)
    log = open(log_dir / "worker.log", "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [str(ROOT / "bin" / "worker"), "--pool", "solo", "--hostname", node],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"worker exited early ({process.returncode}); see worker.log")
            if celery_app.control.ping(destination=[node], timeout=1.0):
                break
        else:
            raise RuntimeError("worker did not answer within 60 s; see worker.log")
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Headless Debian chromium through Playwright, for the `browser`-marked tests."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs Debian chromium at {CHROMIUM}")
    # The live server runs in a thread beside Playwright's event loop.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()
            # Connections opened while Playwright's event loop runs are kept apart from the
            # ones pytest-django closes; close them here, or PostgreSQL refuses to drop
            # the test database at the end of the run ("accessed by other users").
            connections.close_all()
