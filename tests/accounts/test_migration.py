"""The unique-address migration stops, naming them, when two accounts share an address
(ignoring case), and applies once they no longer do."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError

User = get_user_model()


@pytest.mark.django_db(transaction=True)
def test_the_migration_names_accounts_that_share_an_address() -> None:
    call_command("migrate", "accounts", "zero", verbosity=0)
    try:
        User.objects.create_user("a", "same@example.org", "x")
        second = User.objects.create_user("b", "SAME@example.org", "x")
        with pytest.raises(RuntimeError, match=r"(?i)same@example.org \(users \d+ and \d+\)"):
            call_command("migrate", "accounts", verbosity=0)
        second.email = "other@example.org"
        second.save()
    finally:
        call_command("migrate", "accounts", verbosity=0)
    with pytest.raises(IntegrityError):
        User.objects.create_user("c", "Same@Example.org", "x")
