"""`seed_demo` fills an empty database once and leaves a used one alone."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Game


@pytest.mark.django_db
def test_seed_demo_if_empty_runs_once() -> None:
    call_command("seed_demo", "--if-empty")
    users = get_user_model().objects.count()
    games = Game.objects.count()
    assert users >= 1 and games >= 40
    call_command("seed_demo", "--if-empty")
    assert get_user_model().objects.count() == users
    assert Game.objects.count() == games


@pytest.mark.django_db
def test_seed_demo_skips_a_used_database() -> None:
    get_user_model().objects.create(username="someone")
    call_command("seed_demo", "--if-empty")
    assert not Game.objects.exists()
