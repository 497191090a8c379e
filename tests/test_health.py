"""/healthz answers 200 only when the database and the broker both answer."""

import pytest
from django.test import Client
from kombu import Connection

from config.celery import app as celery_app


@pytest.mark.django_db
def test_healthy_in_embedded_mode(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["broker"].startswith("ok")


@pytest.mark.django_db
def test_broker_down_gives_503(client: Client, settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    dead_broker = Connection("redis://127.0.0.1:1/0")  # nothing listens on port 1
    monkeypatch.setattr(celery_app, "connection_for_write", lambda: dead_broker)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["database"] == "ok"
    assert body["broker"].startswith("error")


@pytest.mark.django_db
def test_home_page_renders(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Tianhei" in response.content
