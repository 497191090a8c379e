"""Sign-up with a confirmed e-mail address: the link, its refusals, duplicates, the log-in
of an unconfirmed account and a new link (docs/accounts.md)."""

from __future__ import annotations

import re
import smtplib
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from config.accounts import signup
from config.accounts.models import PendingSignup
from tests.league.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
NEW_PASSWORD = "Lantern-Harbour-59"
LINK = re.compile(r"https?://[^/\s]+(/accounts/verify/[^/\s]+/)")


def sign_up(client: Client, username: str = "lin", email: str = "lin@example.org") -> Any:
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "email": email,
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )


def link_in(message: Any) -> str:
    found = LINK.search(message.body)
    assert found, message.body
    return found.group(1)


def log_in(client: Client, username: str = "lin", password: str = NEW_PASSWORD) -> Any:
    return client.post(reverse("login"), {"username": username, "password": password})


def test_the_pages_answer() -> None:
    client = Client()
    for name in ("signup", "verify-resend", "login"):
        response = client.get(reverse(name))
        assert response.status_code == 200, name
    login = client.get(reverse("login")).content.decode()
    for name in ("signup", "password_reset", "verify-resend"):
        assert f'href="{reverse(name)}"' in login


def test_sign_up_then_confirm_then_log_in(client: Client) -> None:
    response = sign_up(client)
    assert response.status_code == 302 and response["Location"] == reverse("signup-done")
    user = User.objects.get(username="lin")
    assert not user.is_active and PendingSignup.objects.filter(user=user).exists()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["lin@example.org"]
    path = link_in(message)

    # the link shows a button; following it (GET) confirms nothing yet
    page = client.get(path)
    assert page.status_code == 200 and b'id="confirm-email"' in page.content
    user.refresh_from_db()
    assert not user.is_active

    response = client.post(path)
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_active and not PendingSignup.objects.filter(user=user).exists()
    assert client.get(reverse("password_change")).status_code == 200  # logged in

    # the link is spent: it sends to the log-in page
    client.logout()
    again = client.get(path)
    assert again.status_code == 302 and again["Location"] == reverse("login")
    assert log_in(Client()).status_code == 302  # the password works


def test_an_unconfirmed_account_cannot_log_in_and_is_told_why(client: Client) -> None:
    sign_up(client)
    response = log_in(Client())
    assert response.status_code == 200
    assert b"Confirm your e-mail address first" in response.content
    wrong = log_in(Client(), password="not-the-password")
    assert wrong.status_code == 200
    assert b"Confirm your e-mail address first" not in wrong.content


def test_an_expired_link_is_refused(client: Client, monkeypatch: Any, settings: Any) -> None:
    sign_up(client)
    path = link_in(mail.outbox[0])
    later = time.time() + settings.SIGNUP_VERIFY_SECONDS + 60
    monkeypatch.setattr(signing.time, "time", lambda: later)
    for method in (client.get, client.post):
        response = method(path)
        assert response.status_code == 400
        assert b"expired" in response.content
        assert f'href="{reverse("verify-resend")}"'.encode() in response.content
    assert not User.objects.get(username="lin").is_active


@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        "1.abc:1k2j3l:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "x" * 500,
        "%E2%80%AE",
        "1.2.3",
    ],
)
def test_tampered_or_malformed_links_are_refused(client: Client, token: str) -> None:
    sign_up(client)
    for method in (client.get, client.post):
        response = method(f"/accounts/verify/{token}/")
        assert 400 <= response.status_code < 500, token
    assert not User.objects.get(username="lin").is_active


def test_a_link_signed_for_another_user_or_address_is_refused(client: Client) -> None:
    sign_up(client)
    user = User.objects.get(username="lin")
    other = UserFactory(username="other")
    forged = signing.TimestampSigner(salt=signup.SALT).sign(f"{other.pk}.{'0' * 16}")
    assert client.get(reverse("verify", args=[forged])).status_code == 400
    token = signup.make_token(user)
    user.email = "changed@example.org"
    user.save()
    assert client.post(reverse("verify", args=[token])).status_code == 400


def test_a_deactivated_account_is_not_revived_by_a_link(client: Client) -> None:
    user = UserFactory(username="gone", is_active=False)
    response = client.post(reverse("verify", args=[signup.make_token(user)]))
    assert response.status_code == 400
    user.refresh_from_db()
    assert not user.is_active


def test_a_duplicate_email_is_refused_ignoring_case(client: Client) -> None:
    UserFactory(username="first", email="Mei@Example.org")
    response = sign_up(client, email="mei@EXAMPLE.org")
    assert response.status_code == 200
    assert b"already exists" in response.content
    assert not User.objects.filter(username="lin").exists()
    assert mail.outbox == []


def test_the_database_refuses_a_duplicate_email() -> None:
    UserFactory(username="first", email="mei@example.org")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("second", "MEI@example.org", "x")
    User.objects.create_user("third", "", "x")
    User.objects.create_user("fourth", "", "x")  # empty addresses may repeat


def test_a_race_on_the_same_email_is_a_form_error(client: Client, monkeypatch: Any) -> None:
    UserFactory(username="first", email="mei@example.org")
    monkeypatch.setattr("config.accounts.forms.email_taken", lambda email: False)
    response = sign_up(client, email="mei@example.org")
    assert response.status_code == 200
    assert b"already exists" in response.content


def test_duplicate_username_and_weak_password_are_refused(client: Client) -> None:
    UserFactory(username="lin")
    response = client.post(
        reverse("signup"),
        {"username": "LIN", "email": "x@example.org", "password1": "123", "password2": "123"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(email="x@example.org").exists()
    form = response.context["form"]
    assert "username" in form.errors and "password2" in form.errors


def test_inputs_are_bounded(client: Client) -> None:
    long = "a" * 5000
    response = client.post(
        reverse("signup"),
        {"username": long, "email": long + "@example.org", "password1": long, "password2": long},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert {"username", "email", "password2"} <= set(form.errors)
    assert not User.objects.exists() or not User.objects.filter(username=long).exists()


def test_a_new_link_is_sent_only_to_a_pending_account(client: Client) -> None:
    sign_up(client)
    UserFactory(username="active", email="active@example.org")
    mail.outbox.clear()
    for email in ("LIN@example.org", "active@example.org", "nobody@example.org"):
        response = client.post(reverse("verify-resend"), {"email": email})
        assert response.status_code == 302  # the same answer for every address
    assert [m.to for m in mail.outbox] == [["lin@example.org"]]
    client.post(link_in(mail.outbox[0]))
    assert User.objects.get(username="lin").is_active


def test_sign_up_is_rate_limited_per_address(client: Client, settings: Any) -> None:
    settings.ACCOUNT_EMAILS_PER_HOUR = 2
    for i in range(2):
        assert sign_up(client, username=f"u{i}", email=f"u{i}@example.org").status_code == 302
    response = sign_up(client, username="u9", email="u9@example.org")
    assert response.status_code == 429
    assert not User.objects.filter(username="u9").exists()
    assert client.post(reverse("verify-resend"), {"email": "u0@example.org"}).status_code == 429
    assert client.post(reverse("password_reset"), {"email": "u0@example.org"}).status_code == 429


def test_an_smtp_failure_is_not_a_500(client: Client, monkeypatch: Any) -> None:
    def fail(*args: Any, **kwargs: Any) -> None:
        raise smtplib.SMTPServerDisconnected("gone")

    monkeypatch.setattr("league.mail.send_mail", fail)
    response = sign_up(client)
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200 and b'class="error"' in page.content
    assert User.objects.filter(username="lin", is_active=False).exists()


def test_a_signed_in_user_is_sent_home_from_sign_up(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get(reverse("signup")).status_code == 302


def test_the_forms_need_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    assert sign_up(client).status_code == 403
    assert client.post(reverse("verify-resend"), {"email": "a@example.org"}).status_code == 403
    user = UserFactory()
    assert client.post(reverse("verify", args=[signup.make_token(user)])).status_code == 403
    assert PASSWORD  # the factories' password, used by the other modules


@pytest.mark.parametrize(("asked", "lands"), [("/manage/", "/manage/"), ("//evil.example/x", "/")])
def test_a_sign_up_from_a_page_returns_there_once_confirmed(
    client: Client, asked: str, lands: str
) -> None:
    page = client.get(reverse("signup"), {"next": asked}).content.decode()
    assert (f'name="next" value="{asked}"' in page) == (asked == lands)
    client.post(
        reverse("signup"),
        {
            "username": "lin",
            "email": "lin@example.org",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            "next": asked,
        },
    )
    link = re.search(r"https?://[^/\s]+(/accounts/verify/\S+)", mail.outbox[0].body)
    assert link is not None
    path = link.group(1)
    assert ("?next=" in path) == (asked == lands)
    confirm = Client().get(path)
    assert confirm.status_code == 200
    done = Client().post(path)
    assert done.status_code == 302 and done["Location"] == lands
