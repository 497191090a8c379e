"""ASVS level 1 defences (docs/security.md): log-in lockout, Content-Security-Policy, API
docs from 'self', idle sessions, expiring and revocable API tokens, two-factor log-in."""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib.sessions.models import Session
from django.contrib.staticfiles import finders
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.accounts.middleware import TOUCHED_KEY
from config.csp import HEADER
from tests.league.factories import (
    PASSWORD,
    ClubOrganiserFactory,
    EventFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
#: The directives docs/security.md promises.
REQUIRED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
}


def directives(response: Any) -> dict[str, str]:
    header = response[HEADER]
    parts = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return {p[0]: p[1] if len(p) > 1 else "" for p in parts}


def code_for(device: TOTPDevice, offset: int = 0) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + offset * device.step
    return str(totp.token()).zfill(device.digits)


def log_in(client: Client, username: str, password: str, **extra: str) -> Any:
    return client.post(
        reverse("login"), {"username": username, "password": password, **extra}, **{}
    )


# --- Log-in throttling and lockout -----------------------------------------------------


def test_after_the_failure_limit_the_right_password_is_refused(
    client: Client, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    user = UserFactory(username="target")
    with caplog.at_level(logging.WARNING, logger="axes"):
        for _ in range(3):
            response = log_in(client, "target", "wrong-guess")
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()

    response = log_in(client, "target", PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    # Every failure is recorded with its address, and logged.
    attempt = AccessAttempt.objects.get(username="target")
    assert attempt.failures_since_start >= 3 and attempt.ip_address == "127.0.0.1"
    assert AccessFailureLog.objects.filter(username="target").count() >= 3
    assert any("target" in r.getMessage() for r in caplog.records)
    assert user.last_login is None


def test_below_the_limit_the_right_password_logs_in_and_resets(
    client: Client, settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="forgetful")
    for _ in range(2):
        assert log_in(client, "forgetful", "wrong").status_code == 200
    response = log_in(client, "forgetful", PASSWORD)
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="forgetful").exists()


def test_the_lockout_is_per_username_and_address(client: Client, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    UserFactory(username="victim")
    UserFactory(username="bystander")
    for _ in range(2):
        log_in(client, "victim", "wrong")
    assert log_in(client, "victim", PASSWORD).status_code == 429
    assert log_in(client, "bystander", PASSWORD).status_code == 302
    other_address = Client(REMOTE_ADDR="203.0.113.9")
    assert log_in(other_address, "victim", PASSWORD).status_code == 302


def test_the_admin_logs_in_through_the_site_login(client: Client) -> None:
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/admin/"


def test_the_api_token_endpoint_shares_the_lockout(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    UserFactory(username="scripted")
    api = APIClient()
    for _ in range(2):
        response = api.post("/api/v1/auth/token/", {"username": "scripted", "password": "x"})
        assert response.status_code in {400, 429}
    response = api.post("/api/v1/auth/token/", {"username": "scripted", "password": PASSWORD})
    assert response.status_code == 429
    assert not Token.objects.filter(user__username="scripted").exists()


# --- Content-Security-Policy -------------------------------------------------------------


def main_pages() -> list[tuple[str, str | None]]:
    """(url, who) for the site's main pages; who logs in first when not None."""
    return [
        ("/", None),
        ("/rankings/", None),
        ("/accounts/login/", None),
        ("/api/docs/", None),
        ("/api/redoc/", None),
        ("/api/schema/", None),
        ("/api/v1/events/", None),
        ("/healthz", None),
        ("/no-such-page/", None),
        ("/manage/", "organiser"),
        ("/games/mine/", "organiser"),
        ("/accounts/two-factor/", "organiser"),
    ]


@pytest.mark.parametrize(("url", "who"), main_pages())
def test_every_main_page_carries_the_policy(client: Client, url: str, who: str | None) -> None:
    if who:
        client.force_login(ClubOrganiserFactory().user)
    response = client.get(url)
    assert response.status_code < 500
    found = directives(response)
    for name, value in REQUIRED.items():
        if name == "style-src" and url == "/api/redoc/":
            continue  # ReDoc styles itself with <style> elements (config/api_docs.py)
        assert found.get(name) == value, (url, name, response[HEADER])
    assert "unsafe" not in found["script-src"] and "unsafe-eval" not in response[HEADER]
    assert "unsafe-inline" not in found.get("default-src", "")
    if response["Content-Type"].startswith("text/html") and not url.startswith("/api/"):
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html) and not INLINE_STYLE.search(html), url


def test_event_pages_carry_the_policy(client: Client) -> None:
    org = ClubOrganiserFactory()
    event = EventFactory(club=org.club)
    client.force_login(org.user)
    for url in (
        f"/manage/events/{event.pk}/",
        f"/manage/clubs/{org.club.slug}/audit/",
        f"/clubs/{org.club.slug}/{event.slug}/",
    ):
        response = client.get(url)
        assert response.status_code < 500, url
        assert directives(response)["default-src"] == "'self'", url


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


def test_the_base_page_and_login_have_no_inline_script(client: Client) -> None:
    for url in ("/", "/accounts/login/", "/rankings/"):
        html = client.get(url).content.decode()
        assert not INLINE_SCRIPT.search(html), url
        assert not INLINE_HANDLER.search(html), url
        assert 'src="/static/js/behaviours.js"' in html


INLINE_STYLE = re.compile(r"<style\b|\sstyle\s*=", re.IGNORECASE)


def test_no_template_has_inline_script_style_or_handlers() -> None:
    """The policy blocks inline code and styles: behaviours and styles live in static/."""
    offenders = set()
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if INLINE_SCRIPT.search(text) or INLINE_HANDLER.search(text) or INLINE_STYLE.search(text):
            offenders.add(path.relative_to(ROOT / "templates").as_posix())
    assert not offenders, sorted(offenders)


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_api_docs_load_their_assets_from_self(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "http://" not in html and "https://" not in html and 'src="//' not in html
    assert not INLINE_SCRIPT.search(html) and "<style" not in html
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources
    for source in sources:
        assert source.startswith("/"), source
        if source.startswith("/static/"):
            assert finders.find(source.removeprefix("/static/")), source


def test_swagger_start_up_script_is_a_separate_request(client: Client) -> None:
    html = client.get("/api/docs/").content.decode()
    script = re.search(r'<script src="(/api/docs/\?[^"]*script[^"]*)"', html)
    assert script, html
    response = client.get(script.group(1).replace("&amp;", "&"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in response.content.decode()


# --- Sessions ----------------------------------------------------------------------------


def test_an_anonymous_visit_stores_no_session(client: Client) -> None:
    client.get("/")
    client.get("/rankings/")
    assert Session.objects.count() == 0


def test_a_signed_in_request_pushes_the_idle_expiry_forward(client: Client, settings: Any) -> None:
    settings.SESSION_COOKIE_AGE = 600
    client.force_login(UserFactory())
    session = client.session
    session[TOUCHED_KEY] = 0  # last pushed long ago
    session.save()
    Session.objects.filter(pk=session.session_key).update(
        expire_date=timezone.now() + dt.timedelta(seconds=5)
    )
    client.get("/")
    stored = Session.objects.get(pk=session.session_key)
    remaining = (stored.expire_date - timezone.now()).total_seconds()
    assert 590 < remaining <= 600
    # An idle session past its age is gone: the next request is anonymous.
    Session.objects.filter(pk=session.session_key).update(
        expire_date=timezone.now() - dt.timedelta(seconds=1)
    )
    response = client.get("/manage/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_session_cookie_lasts_the_idle_time(client: Client, settings: Any) -> None:
    settings.SESSION_COOKIE_AGE = 900
    UserFactory(username="cookie")
    response = log_in(client, "cookie", PASSWORD)
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["max-age"] == 900 and cookie["httponly"] and cookie["samesite"] == "Lax"


# --- API tokens ------------------------------------------------------------------------


def test_an_expired_token_is_refused(settings: Any) -> None:
    settings.API_TOKEN_MAX_AGE = 3600
    user = UserFactory()
    token = Token.objects.create(user=user)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.delete("/api/v1/auth/token/").status_code == 204  # fresh: accepted
    token = Token.objects.create(user=user)
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - dt.timedelta(hours=2))
    api = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api.get("/api/v1/events/")
    # 403, not 401: the first authentication class (the session) sends no challenge.
    assert response.status_code in {401, 403}
    assert "expired" in response.json()["detail"]


def test_a_token_is_issued_and_revoked_by_its_owner(settings: Any) -> None:
    settings.API_TOKEN_MAX_AGE = 3600
    UserFactory(username="scripter")
    api = APIClient()
    response = api.post(
        "/api/v1/auth/token/", {"username": "scripter", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 201
    key = response.json()["token"]
    expires = dt.datetime.fromisoformat(response.json()["expires"])
    assert 3500 < (expires - timezone.now()).total_seconds() <= 3600

    authed = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert authed.get("/api/v1/events/").status_code == 200
    assert authed.delete("/api/v1/auth/token/").status_code == 204
    assert authed.get("/api/v1/events/").status_code in {401, 403}
    assert APIClient().delete("/api/v1/auth/token/").status_code in {401, 403}


def test_a_new_token_replaces_the_old_one() -> None:
    UserFactory(username="twice")
    api = APIClient()
    first = api.post("/api/v1/auth/token/", {"username": "twice", "password": PASSWORD})
    second = api.post("/api/v1/auth/token/", {"username": "twice", "password": PASSWORD})
    old = APIClient(HTTP_AUTHORIZATION=f"Token {first.json()['token']}")
    assert old.get("/api/v1/events/").status_code in {401, 403}
    assert second.json()["token"] != first.json()["token"]


def test_revoke_token_command() -> None:
    user = UserFactory(username="leaver")
    Token.objects.create(user=user)
    out = StringIO()
    call_command("revoke_token", "leaver", stdout=out)
    assert "leaver: 1 token(s) revoked" in out.getvalue()
    assert not Token.objects.filter(user=user).exists()
    with pytest.raises(CommandError, match="No user 'nobody'"):
        call_command("revoke_token", "nobody")


# --- Two-factor log-in -----------------------------------------------------------------


@pytest.fixture
def enrolled() -> tuple[Any, TOTPDevice]:
    user = UserFactory(username="careful", is_staff=True)
    device = TOTPDevice.objects.create(user=user, name="totp", confirmed=True)
    return user, device


def test_with_a_device_the_password_alone_does_not_log_in(
    client: Client, enrolled: tuple[Any, TOTPDevice]
) -> None:
    response = client.post(
        reverse("login") + "?next=/manage/", {"username": "careful", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login-code"))
    assert "_auth_user_id" not in client.session
    assert client.get("/manage/").status_code == 302  # still anonymous


def test_the_code_completes_the_log_in(client: Client, enrolled: tuple[Any, TOTPDevice]) -> None:
    user, device = enrolled
    log_in(client, "careful", PASSWORD)
    response = client.post(
        reverse("login-code"), {"otp_token": code_for(device), "next": "/manage/"}
    )
    assert response.status_code == 302 and response["Location"] == "/manage/"
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.session["otp_device_id"] == device.persistent_id


def test_a_wrong_code_is_refused_and_counted(
    client: Client, enrolled: tuple[Any, TOTPDevice], settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    _, device = enrolled
    log_in(client, "careful", PASSWORD)
    wrong = str((int(code_for(device)) + 1) % 10**6).zfill(6)
    response = client.post(reverse("login-code"), {"otp_token": wrong})
    assert response.status_code == 200 and "not right" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert AccessFailureLog.objects.filter(username="careful").count() == 1
    for _ in range(2):
        client.post(reverse("login-code"), {"otp_token": "000000x"})
    response = log_in(client, "careful", PASSWORD)
    assert response.status_code == 429


def test_the_code_step_needs_the_password_step_first(client: Client) -> None:
    response = client.post(reverse("login-code"), {"otp_token": "123456"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = client.get(reverse("login-code") + "?next=https://evil.example/")
    assert "evil.example" not in response["Location"]


def test_enrolling_a_device_then_logging_in_with_a_code(client: Client) -> None:
    user = UserFactory(username="organiser-2fa")
    client.force_login(user)
    page = client.get(reverse("two-factor"))
    assert page.status_code == 200 and "<svg" in page.content.decode()
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    assert device.bin_key and page.context["secret"]
    response = client.post(reverse("two-factor"), {"otp_token": code_for(device)})
    assert response.status_code == 302
    device.refresh_from_db()
    assert device.confirmed

    client.post(reverse("logout"))
    log_in(client, "organiser-2fa", PASSWORD)
    assert "_auth_user_id" not in client.session
    response = client.post(reverse("login-code"), {"otp_token": code_for(device, offset=1)})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_a_wrong_code_does_not_enrol(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    client.get(reverse("two-factor"))
    response = client.post(reverse("two-factor"), {"otp_token": "000000"})
    assert response.status_code == 200
    assert not TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def test_staff_must_enrol_when_the_site_requires_it(client: Client, settings: Any) -> None:
    settings.OTP_REQUIRED_FOR_STAFF = True
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    response = client.get("/manage/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("two-factor"))
    assert client.get("/admin/").status_code == 302
    assert client.get("/api/v1/events/").status_code == 403
    assert client.get(reverse("two-factor")).status_code == 200
    # A player is not staff: nothing changes for them.
    player = Client()
    player.force_login(UserFactory())
    assert player.get("/manage/").status_code == 200


def test_staff_token_needs_the_code(enrolled: tuple[Any, TOTPDevice]) -> None:
    _, device = enrolled
    api = APIClient()
    response = api.post("/api/v1/auth/token/", {"username": "careful", "password": PASSWORD})
    assert response.status_code == 400 and not Token.objects.exists()
    response = api.post(
        "/api/v1/auth/token/",
        {"username": "careful", "password": PASSWORD, "otp_token": code_for(device)},
    )
    assert response.status_code == 201
