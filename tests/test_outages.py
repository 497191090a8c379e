"""Outages degrade, never break (issue 15): each service really stopped.

* the cache: a private ``redis-server`` serves the cache, then is stopped; the public
  pages still answer 200, from the database;
* the broker: Celery publishes to a port nothing listens on; a release still answers at
  once with success, and the event is left stale for ``games.heal_results``;
* the database: the connection is killed from a second connection
  (``pg_terminate_backend``) between requests; the next GET still answers 200.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache as django_cache
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from config.celery import app as celery_app
from games.models import Game
from league import outages
from league.models import DrawJob
from results.models import EventResults
from tests.league.factories import ClubOrganiserFactory, EventFactory, registered_players
from tests.results.factories import Played, played_event

REDIS_SERVER = "/usr/bin/redis-server"
RETRY_MIDDLEWARE = "config.db_retry.RetryDroppedConnectionMiddleware"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def redis_args(port: int) -> list[str]:
    """A throwaway server: loopback only, nothing saved to disk."""
    args = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1"]
    args.extend(["--save", "", "--appendonly", "no"])
    return args


@dataclass
class PrivateRedis:
    port: int
    process: subprocess.Popen[bytes] | None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        # Nothing listens any more: a connection is refused.
        with socket.socket() as s, pytest.raises(OSError):
            s.connect(("127.0.0.1", self.port))


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of this test's own on a free port (never the shared one)."""
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"needs {REDIS_SERVER}")
    port = free_port()
    process = subprocess.Popen(
        [*redis_args(port), "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = PrivateRedis(port, process)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)


@pytest.fixture
def redis_cache(settings: Any, private_redis: PrivateRedis) -> Iterator[PrivateRedis]:
    """The default cache on the private Redis, with the production options."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": private_redis.url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    outages.cache.reset()
    yield private_redis
    outages.cache.reset()


@pytest.fixture
def ev(db: None) -> Played:
    ev = played_event(n_players=14)
    ev.play(1, 1, ev.players[:12], seed=11)
    ev.play(2, 1, ev.players[2:14], seed=12)
    return ev


def public_pages(ev: Played) -> list[str]:
    club, event, handle = ev.club.slug, ev.event.slug, ev.players[5].handle
    return [
        reverse("home"),
        reverse("results:standings", args=[club, event]),
        reverse("results:leaderboard"),
        reverse("results:leaderboard") + "?role=killer&min_games=1",
        reverse("results:player", args=[handle]),
        reverse("results:club", args=[club]),
    ]


def stable(html: bytes) -> bytes:
    """A page without its per-response tokens (CSP nonce, CSRF token)."""
    return re.sub(rb'(nonce|value|content)="[A-Za-z0-9+/=_-]{20,}"', b"", html)


# --- the cache ------------------------------------------------------------------------------


def test_pages_use_the_redis_cache_while_it_is_up(
    client: Client, ev: Played, redis_cache: PrivateRedis
) -> None:
    from django.core.cache import cache

    for url in public_pages(ev):
        assert client.get(url).status_code == 200, url
    keys = cache._cache.get_client().keys("*")  # type: ignore[attr-defined]
    assert any(b"results:st:" in k for k in keys) and any(b"results:lb:" in k for k in keys)


def test_pages_answer_from_the_database_with_the_cache_stopped(
    client: Client, ev: Played, redis_cache: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    pages = public_pages(ev)
    warm = {url: stable(client.get(url).content) for url in pages}  # the cache filled
    redis_cache.stop()
    outages.cache.reset()
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="league.outages"):
        for url in pages:
            response = client.get(url)
            assert response.status_code == 200, url
            if url != reverse("home"):
                assert stable(response.content) == warm[url], url  # the same, from the database
    assert time.monotonic() - started < 5
    warnings = [r for r in caplog.records if r.name == "league.outages"]
    assert len(warnings) == 1 and "cache unavailable" in warnings[0].getMessage()


def test_the_cache_is_used_again_once_it_is_back(
    ev: Played, redis_cache: PrivateRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import cache

    monkeypatch.setattr(outages, "CACHE_RETRY_AFTER", 0.0)
    redis_cache.stop()
    assert outages.cache.get("k", "miss") == "miss"
    outages.cache.set("k", "v")  # dropped, no error
    assert outages.cache.get_many(["k"]) == {}
    assert outages.cache.add("k", "v") is False
    assert outages.cache.delete("k") is False
    outages.cache.delete_many(["k"])
    assert outages.cache.set_many({"k": "v"}) == ["k"]
    restarted = subprocess.Popen(
        redis_args(redis_cache.port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while outages.cache.get("k", "miss") == "miss" and time.monotonic() < deadline:
            outages.cache.set("k", "v")
            time.sleep(0.05)
        assert outages.cache.get("k") == "v" == cache.get("k")
    finally:
        restarted.terminate()
        restarted.wait(timeout=10)


def test_a_failed_cache_is_skipped_for_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    """One timeout per outage window, not one per call."""
    calls: list[str] = []

    class Down:
        def get(self, key: str, default: Any = None) -> Any:
            calls.append(key)
            raise ConnectionError("refused")

    monkeypatch.setattr(outages, "django_cache", Down())
    fallback = outages.FallbackCache()
    assert fallback.get("a") is None and fallback.get("b", 1) == 1
    assert calls == ["a"]
    monkeypatch.setattr(outages, "CACHE_RETRY_AFTER", 0.0)
    fallback.reset()
    assert fallback.get("c") is None and calls == ["a", "c"]


# --- the broker -----------------------------------------------------------------------------


ENV_URLS = ["CELERY_BROKER_URL", "CELERY_BROKER_WRITE_URL", "CELERY_RESULT_BACKEND"]


@contextmanager
def celery_publishing_to(url: str) -> Iterator[None]:
    """Celery really publishing (not eager) to ``url``, with the settings' timeouts."""
    conf = celery_app.conf
    names = ["broker_url", "result_backend", "task_always_eager"]
    saved = {name: conf[name] for name in names}

    def forget_connections() -> None:
        celery_app._pool = None
        amqp = celery_app.__dict__.get("amqp")
        if amqp is not None:
            amqp._producer_pool = None
        celery_app._backend_cache = None
        if hasattr(celery_app._local, "backend"):
            del celery_app._local.backend

    # Celery reads these from the environment before its configuration (the CI run
    # exports CELERY_BROKER_URL).
    environ = {name: os.environ.pop(name, None) for name in ENV_URLS}
    conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    forget_connections()
    try:
        assert celery_app.connection_for_write().port == int(url.rsplit(":", 1)[1].split("/")[0])
        yield
    finally:
        os.environ.update({name: value for name, value in environ.items() if value is not None})
        conf.update(saved)
        forget_connections()


def test_enqueue_with_the_broker_down_returns_at_once(caplog: pytest.LogCaptureFixture) -> None:
    from results.tasks import process_game_results

    with celery_publishing_to(f"redis://127.0.0.1:{free_port()}/0"):
        started = time.monotonic()
        assert outages.enqueue(process_game_results, 1) is False
        took = time.monotonic() - started
    assert took < 5, took
    assert "could not enqueue games.process_game_results" in caplog.text


def test_enqueue_errors_of_an_eager_task_propagate() -> None:
    class Boom(Exception):
        pass

    class Task:
        name = "boom"
        app = celery_app

        def apply_async(self, *args: Any, **kwargs: Any) -> None:
            raise Boom

    assert celery_app.conf.task_always_eager
    with pytest.raises(Boom):
        outages.enqueue(Task())


def test_a_release_with_the_broker_down_succeeds_at_once_and_leaves_the_event_stale(
    ev: Played,
    private_redis: PrivateRedis,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    game = ev.play(3, 1, ev.players[:12], seed=13, release=False)
    EventResults.objects.filter(pk=ev.event.pk).update(stale=False)
    api = Client()
    api.force_login(ev.organiser)
    private_redis.stop()  # the broker was there, and is gone
    with celery_publishing_to(private_redis.url):
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post(
                f"/api/v1/games/{game.pk}/release/",
                {"revision": game.revision},
                content_type="application/json",
            )
        took = time.monotonic() - started
    assert response.status_code == 200, response.content
    assert took < 5, took
    assert Game.objects.get(pk=game.pk).status == "released"
    assert EventResults.objects.get(pk=ev.event.pk).stale  # for games.heal_results


def test_a_draw_request_with_the_broker_down_answers_at_once(
    db: None, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    organiser = ClubOrganiserFactory()
    event = EventFactory(club=organiser.club, rounds_count=2)
    registered_players(event, 16)
    api = Client()
    api.force_login(organiser.user)
    with celery_publishing_to(f"redis://127.0.0.1:{free_port()}/0"):
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post(
                f"/api/v1/events/{event.pk}/draws/",
                {"from_round": 1},
                content_type="application/json",
            )
        took = time.monotonic() - started
    assert response.status_code in (200, 201, 202), response.content
    assert took < 5, took
    # failed at once, so the organiser can start it again (not queued for 15 minutes)
    assert DrawJob.objects.get(event=event).status == DrawJob.Status.FAILED


# --- the database ---------------------------------------------------------------------------

postgres_only = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="kills a PostgreSQL backend (pg_terminate_backend)",
)


def kill_connection() -> None:
    """Terminate this process's database session from a second connection."""
    import psycopg

    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=int(db["PORT"] or 5432),
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # wait until the server has let it go
        with psycopg.connect(
            host=db["HOST"] or "127.0.0.1",
            port=int(db["PORT"] or 5432),
            user=db["USER"],
            password=db["PASSWORD"] or None,
            dbname=db["NAME"],
            autocommit=True,
        ) as other:
            row = other.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if row.fetchone() == (0,):
                return
        time.sleep(0.02)


@pytest.fixture
def with_retry(settings: Any) -> None:
    if RETRY_MIDDLEWARE not in settings.MIDDLEWARE:
        settings.MIDDLEWARE = [*settings.MIDDLEWARE, RETRY_MIDDLEWARE]


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("page", ["home", "standings", "rankings", "player", "api"])
def test_a_read_after_a_dropped_connection_answers(with_retry: None, page: str) -> None:
    ev = played_event(n_players=12, rounds=1)
    ev.play(1, 1, ev.players[:12], seed=3)
    url = {
        "home": reverse("home"),
        "standings": reverse("results:standings", args=[ev.club.slug, ev.event.slug]),
        "rankings": reverse("results:leaderboard"),
        "player": reverse("results:player", args=[ev.players[0].handle]),
        "api": f"/api/v1/events/{ev.event.pk}/",
    }[page]
    client = Client()
    assert client.get(url).status_code == 200
    kill_connection()
    django_cache.clear()  # a cached page (the home page's sections) would not read at all
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200


def test_only_reads_are_retried(rf: Any) -> None:
    from django.db import OperationalError

    from config.db_retry import RetryDroppedConnectionMiddleware

    calls: list[str] = []

    def view(request: Any, pk: int) -> HttpResponse:
        calls.append(request.method)
        return HttpResponse(str(pk))

    def middleware() -> RetryDroppedConnectionMiddleware:
        return RetryDroppedConnectionMiddleware(lambda request: HttpResponse())

    for method in ("get", "head", "post", "put", "patch", "delete"):
        calls.clear()
        request = getattr(rf, method)("/x/")
        retry = middleware()
        retry.process_view(request, view, (), {"pk": 7})
        response = retry.process_exception(request, OperationalError("server closed"))
        if method in ("get", "head"):
            assert response is not None and response.content == b"7" and calls == [method.upper()]
            # a second failure of the same request is not retried again
            assert retry.process_exception(request, OperationalError("again")) is None
        else:
            assert response is None and calls == []
    request = rf.get("/x/")
    retry = middleware()
    retry.process_view(request, view, (), {"pk": 7})
    assert retry.process_exception(request, ValueError("not the database")) is None


def test_the_retry_is_installed() -> None:
    assert RETRY_MIDDLEWARE in settings.MIDDLEWARE


def test_concurrent_cache_failures_warn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    class Down:
        def get(self, key: str, default: Any = None) -> Any:
            raise TimeoutError("timed out")

    monkeypatch.setattr(outages, "django_cache", Down())
    fallback = outages.FallbackCache()
    seen: list[Any] = []
    threads = [threading.Thread(target=lambda: seen.append(fallback.get("k"))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [None] * 8 and fallback.is_down()
