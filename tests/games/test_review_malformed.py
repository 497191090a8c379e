"""A review page for any stored draft: mutations of a simulated record (seats, log
entries and their fields replaced by values of the wrong type) never give a 500, on the
review page or on the game page, for the version itself or the next one's diff."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games import services
from games.records import NotARecordError
from tests.games.conftest import make_world

pytestmark = pytest.mark.django_db

WRONG = (None, "x", 99, [99], {"a": [1]})


def mutations(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    def changed(path: tuple[Any, ...], bad: Any) -> dict[str, Any]:
        copied = copy.deepcopy(record)
        target: Any = copied
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = bad
        return copied

    paths: list[tuple[Any, ...]] = [(key,) for key in record]
    paths += [("seats", i) for i in range(2)]
    log = record.get("log") or []
    for j in sorted({0, 1, 2, len(log) - 1}):
        paths.append(("log", j))
        paths += [("log", j, key) for key in log[j]]
    for path in paths:
        for bad in WRONG:
            yield f"{path}={bad!r}", changed(path, bad)


def test_review_and_game_pages_never_fail_on_a_malformed_draft(client: Client) -> None:
    world = make_world()
    client.raise_request_exception = False
    client.force_login(world.user("organiser"))
    failures = []
    tried = 0
    for label, record in mutations(world.record()):
        try:
            version = services.submit_record(world.user("referee"), world.game, record, "api")
        except NotARecordError:  # refused outright: nothing is stored to review
            continue
        tried += 1
        for url in (
            f"/games/{world.game.pk}/versions/{version.number}/review/",
            f"/games/{world.game.pk}/",
        ):
            if client.get(url).status_code >= 500:
                failures.append((label, url))
    assert tried > 100
    assert not failures, failures[:10]
