"""The "game confirmed or corrected" e-mail (issue #18 item 6): sent by a task after the
commit to the table's players who want it, once per confirmed version; before release it
says nothing of the result or the roles, after release it links to the game's page."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from games import services, tasks
from league.clubs.profiles import save_notifications
from league.engine_text.games import WORDS
from league.models import Player
from tests.games.conftest import World
from tests.league.factories import UserFactory

pytestmark = pytest.mark.django_db

#: Words that would give away the result or a role, in every language of the site.
SECRET = ("killer", "police", "civilian", "good", "killers")


def secret_words() -> set[str]:
    words = set(SECRET)
    for lang in ("zh-hans", "es"):
        with translation.override(lang):
            words |= {str(WORDS[w]) for w in SECRET}
    return {w.lower() for w in words}


def _second_player(world: World, *, wants: bool) -> Any:
    """Give the table's second player an account (wanting these e-mails or not)."""
    user = UserFactory(username="second")
    Player.objects.filter(handle=world.handles[1]).update(user=user)
    if not wants:
        save_notifications(user, notify_game_results=False)
    return user


def _confirm(world: World, callbacks: Any, number: int = 1, record: Any = None, **kw: Any) -> None:
    ref, org = world.user("referee"), world.user("organiser")
    services.submit_record(ref, world.game, record or world.record(), "api", **kw)
    with callbacks(execute=False) as pending:
        services.confirm_version(org, world.game, number)
    assert mail.outbox == []  # nothing is sent in the request itself
    for callback in pending:
        callback()


def test_a_confirmation_before_release_says_nothing_of_the_result(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    _second_player(world, wants=False)
    _confirm(world, django_capture_on_commit_callbacks)
    (message,) = mail.outbox  # the player who turned it off gets none
    assert message.to == [world.user("player_at_table").email]
    assert "table 1 of round 1" in message.body and world.event.name in message.subject
    assert "Results appear when the organiser releases them." in message.body
    assert reverse("games:game", args=[world.game.pk]) not in message.body
    text = f"{message.subject}\n{message.body}".lower()
    assert not [w for w in secret_words() if w in text], text


def test_a_correction_of_a_released_game_links_to_its_page_once(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    _confirm(world, django_capture_on_commit_callbacks)
    services.release_game(world.user("organiser"), world.game)
    mail.outbox.clear()
    fixed = copy.deepcopy(world.record())
    fixed["awards"] = [{"seat": 2, "kind": "warning", "reason": "phone at the table"}]
    _confirm(world, django_capture_on_commit_callbacks, 2, fixed, reason="missed a warning")
    (message,) = mail.outbox
    assert message.subject.startswith("Corrected:")
    assert reverse("games:game", args=[world.game.pk]) in message.body
    version = world.game.versions.get(number=2)
    assert tasks.notify_game_confirmed.apply(args=[version.pk]).get() == 0  # a retry
    assert len(mail.outbox) == 1
