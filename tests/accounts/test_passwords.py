"""Django's password reset and change, at Django's paths: the e-mail, the link, its
refusals (400, never 500), nothing said about who has an account, tokens revoked."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from config.accounts import signup_views
from config.accounts.tokens import issue_token
from tests.league.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
NEW_PASSWORD = "Copper-Kettle-7731"
RESET = re.compile(r"https?://[^/\s]+(/accounts/reset/[^/\s]+/[^/\s]+/)")


def test_the_paths_are_djangos() -> None:
    assert reverse("password_reset") == "/accounts/password_reset/"
    assert reverse("password_reset_done") == "/accounts/password_reset/done/"
    assert reverse("password_reset_complete") == "/accounts/reset/done/"
    assert reverse("password_change") == "/accounts/password_change/"
    assert reverse("password_change_done") == "/accounts/password_change/done/"
    assert reverse("signup") == "/accounts/signup/"
    assert reverse("login") == "/accounts/login/"


def test_reset_by_email_then_log_in_with_the_new_password(client: Client) -> None:
    user = UserFactory(username="mei", email="mei@example.org")
    issue_token(user)
    page = client.get(reverse("password_reset"))
    assert page.status_code == 200
    response = client.post(reverse("password_reset"), {"email": "MEI@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["mei@example.org"]
    assert "Tianhei" in mail.outbox[0].subject
    path = RESET.search(mail.outbox[0].body).group(1)  # type: ignore[union-attr]

    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200 and form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert client.get(done["Location"]).status_code == 200
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not Token.objects.filter(user=user).exists()  # API tokens end with the password

    # the link is spent
    again = client.get(path, follow=True)
    assert again.status_code == 400 and not again.context["validlink"]
    login = Client().post(reverse("login"), {"username": "mei", "password": NEW_PASSWORD})
    assert login.status_code == 302


def test_reset_says_nothing_about_who_has_an_account(client: Client) -> None:
    UserFactory(username="mei", email="mei@example.org")
    known = client.post(reverse("password_reset"), {"email": "mei@example.org"})
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(mail.outbox) == 1


def test_an_unconfirmed_account_gets_no_reset_email(client: Client) -> None:
    UserFactory(username="mei", email="mei@example.org", is_active=False)
    client.post(reverse("password_reset"), {"email": "mei@example.org"})
    assert mail.outbox == []


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/reset/MQ/bad-token/",
        "/accounts/reset/!!!/set-password/",
        "/accounts/reset/OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5/abc-def/",
        "/accounts/reset/MQ/" + "x" * 300 + "/",
        "/accounts/reset/" + "A" * 300 + "/abc-def/",
        "/accounts/reset/%00/abc/",
        "/accounts/reset/zz/set-password/",
    ],
)
def test_malformed_reset_links_are_a_400(client: Client, path: str) -> None:
    UserFactory(username="mei")
    for method in (client.get, client.post):
        response = method(path, {"new_password1": "x", "new_password2": "x"})
        assert 400 <= response.status_code < 500, (path, response.status_code)


def test_password_change_needs_the_old_password(client: Client) -> None:
    user = UserFactory(username="mei")
    issue_token(user)
    assert client.get(reverse("password_change")).status_code == 302  # log in first
    client.force_login(user)
    page = client.get(reverse("password_change"))
    assert page.status_code == 200
    assert f'href="{reverse("password_change")}"'.encode() in page.content  # the user menu
    wrong = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert wrong.status_code == 200 and "old_password" in wrong.context["form"].errors
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    assert client.get(response["Location"]).status_code == 200  # still logged in
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not Token.objects.filter(user=user).exists()


def test_an_overlong_password_is_a_form_error(client: Client) -> None:
    user = UserFactory(username="mei")
    client.force_login(user)
    long = "p" * 5000
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": long, "new_password2": long},
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_password_forms_need_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.post(reverse("password_reset"), {"email": "a@example.org"}).status_code == 403
    client.force_login(UserFactory())
    assert client.post(reverse("password_change"), {}).status_code == 403


def test_password_views_hide_the_passwords_from_error_reports(rf: Any) -> None:
    request = rf.post("/accounts/signup/", {"password1": "secret"})
    request.user = type("Anon", (), {"is_authenticated": False})()
    request.session = {}
    request._dont_enforce_csrf_checks = True
    signup_views.signup_view(request)
    assert request.sensitive_post_parameters == ("password1", "password2")
