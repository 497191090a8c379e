"""The demo has released games simulated by the engine and one game in progress."""

import pytest
from django.core.management import call_command

from games.models import Game, GameSheet, GameVersion


@pytest.mark.django_db
def test_seed_demo_records_games() -> None:
    call_command("seed_demo")
    games = Game.objects.filter(table__round__number=1)
    assert games.count() >= 2
    released = games.filter(status=Game.Status.RELEASED)
    assert released.count() == games.count() - 1
    for game in released:
        v = game.versions.get(status=GameVersion.Status.CONFIRMED)
        assert v.valid and v.confirmed_by_id != v.submitted_by_id
    live = games.get(status=Game.Status.DRAFT)
    assert GameSheet.objects.get(game=live).revision >= 2
    call_command("seed_demo")  # idempotent
    assert Game.objects.filter(table__round__number=1).count() == games.count()
