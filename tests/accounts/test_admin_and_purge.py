"""Operators see pending sign-ups in the admin and purge the ones never confirmed."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from config.accounts.models import PendingSignup
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def pending(username: str, days_ago: int) -> PendingSignup:
    user = UserFactory(username=username, is_active=False)
    row = PendingSignup.objects.create(user=user)
    PendingSignup.objects.filter(pk=row.pk).update(
        created=timezone.now() - timedelta(days=days_ago)
    )
    return row


def test_purge_deletes_only_old_unconfirmed_accounts() -> None:
    pending("old", 40)
    pending("recent", 2)
    UserFactory(username="deactivated", is_active=False)  # no pending row: an admin's doing
    out = StringIO()
    call_command("purge_signups", "--dry-run", stdout=out)
    assert "would delete old" in out.getvalue() and User.objects.filter(username="old").exists()
    call_command("purge_signups", stdout=out)
    assert not User.objects.filter(username="old").exists()
    assert User.objects.filter(username__in=["recent", "deactivated"]).count() == 2
    call_command("purge_signups", "--days", "1", stdout=out)
    assert not User.objects.filter(username="recent").exists()
    assert User.objects.filter(username="deactivated").exists()


def test_the_admin_lists_pending_signups(client: Client) -> None:
    pending("lin", 1)
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    response = client.get("/admin/accounts/pendingsignup/")
    assert response.status_code == 200 and b"lin" in response.content


def test_the_admin_refuses_a_taken_address_with_a_form_error(client: Client) -> None:
    UserFactory(username="mei", email="mei@example.org")
    other = UserFactory(username="lin", email="lin@example.org")
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    url = f"/admin/auth/user/{other.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    data = {
        "username": "lin",
        "email": "MEI@example.org",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
    }
    response = client.post(url, data)
    assert response.status_code == 200
    assert "email" in response.context["adminform"].form.errors
    data["email"] = "lin2@example.org"
    assert client.post(url, data).status_code == 302
    other.refresh_from_db()
    assert other.email == "lin2@example.org"
