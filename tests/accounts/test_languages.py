"""The account pages and e-mails in 简体中文 and Español: by the browser's
Accept-Language or by the switcher's cookie."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

#: A form label each page takes from Django's own catalogue, per language.
DJANGO_WORDS = {
    "zh-hans": {"signup": "用户名", "login": "用户名", "password_reset": "电子邮件"},
    "es": {
        "signup": "Nombre de usuario",
        "login": "Nombre de usuario",
        "password_reset": "Correo electrónico",
    },
}
#: A sentence of our own per page, looked up in the active catalogue.
OWN_WORDS = {
    "signup": "Create an account",
    "login": "Create an account",
    "password_reset": "Reset my password",
    "verify-resend": "Ask for a new link",
}


def client_for(lang: str, how: str) -> Client:
    if how == "header":
        return Client(HTTP_ACCEPT_LANGUAGE=lang)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


@pytest.mark.parametrize("how", ["header", "cookie"])
@pytest.mark.parametrize("lang", ["zh-hans", "es"])
def test_the_account_pages_speak_the_language(lang: str, how: str) -> None:
    client = client_for(lang, how)
    for name, own in OWN_WORDS.items():
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html, name
        with translation.override(lang):
            assert gettext(own) in html, (name, own)
        word = DJANGO_WORDS[lang].get(name)
        assert word is None or word in html, (name, word)


@pytest.mark.parametrize("lang", ["zh-hans", "es"])
def test_the_refusal_of_a_bad_link_speaks_the_language(lang: str) -> None:
    response = client_for(lang, "header").get(reverse("verify", args=["bad"]))
    assert response.status_code == 400
    with translation.override(lang):
        assert gettext("This link does not work") in response.content.decode()


@pytest.mark.parametrize("lang", ["zh-hans", "es"])
def test_the_emails_speak_the_readers_language(lang: str) -> None:
    client = client_for(lang, "header")
    client.post(
        reverse("signup"),
        {
            "username": "lin",
            "email": "lin@example.org",
            "password1": "Lantern-Harbour-59",
            "password2": "Lantern-Harbour-59",
        },
    )
    UserFactory(username="mei", email="mei@example.org")
    client.post(reverse("password_reset"), {"email": "mei@example.org"})
    assert len(mail.outbox) == 2
    verify, reset = mail.outbox
    with translation.override(lang):
        expected_subject = gettext("Confirm your e-mail address for %(site_name)s") % {
            "site_name": "Tianhei"
        }
        reset_line = gettext("Please go to the following page and choose a new password:")
    assert verify.subject == expected_subject
    assert reset_line in reset.body
    if lang == "es":
        assert "contraseña" in reset.body
    else:
        assert "密码" in reset.body
