"""The demo league `make run` shows."""

from __future__ import annotations

import pytest

from league.demo import seed_league
from league.models import Event, Player, Referee, Round, Seat, Table

pytestmark = pytest.mark.django_db


def test_seed_league_builds_a_drawn_event_once() -> None:
    lines = seed_league()
    assert any("round 1 released" in line for line in lines), lines
    event = Event.objects.get(slug="demo-open")
    assert Player.objects.count() == 48 and Referee.objects.count() == 8
    assert event.status == "running"
    assert not Table.objects.filter(round__event=event, referee__isnull=True).exists()
    statuses = list(event.rounds.order_by("number").values_list("status", flat=True))
    assert statuses == ["released", "draft", "draft", "draft"]
    for rnd in Round.objects.filter(event=event):
        assert Seat.objects.filter(round=rnd).count() == 48
        assert rnd.starts_at is not None
    assert any(
        any("\u4e00" <= ch <= "\u9fff" for ch in p.display_name) for p in Player.objects.all()
    )
    assert Player.objects.filter(display_name__contains="ñ").exists()
    seed_league()
    assert Event.objects.count() == 1 and Player.objects.count() == 48
