"""Submissions, confirmation, corrections and release through the services."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games import services
from games.models import Game, GameStatusChange, GameVersion
from games.records import NotARecordError
from games.signals import results_changed
from league.models import AuditEntry
from tests.games.conftest import World, refused

pytestmark = pytest.mark.django_db


def test_valid_record_is_submitted_and_confirmed_by_another_official(world: World) -> None:
    ref, org = world.user("referee"), world.user("organiser")
    v = services.submit_record(ref, world.game, world.record(), "api", expected_revision=1)
    assert v.status == GameVersion.Status.SUBMITTED and v.valid and v.number == 1
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.SUBMITTED and world.game.revision == 2
    with refused(403, "game.own_submission"):
        services.confirm_version(ref, world.game, 1)
    confirmed = services.confirm_version(org, world.game, 1, expected_revision=2)
    assert confirmed.status == GameVersion.Status.CONFIRMED and confirmed.confirmed_by == org
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.CONFIRMED
    assert list(
        GameStatusChange.objects.filter(game=world.game).values_list("from_status", "to_status")
    ) == [("draft", "submitted"), ("submitted", "confirmed")]
    actions = set(
        AuditEntry.objects.filter(target_id=world.game.pk).values_list("action", flat=True)
    )
    assert {"game.submit", "game.confirm"} <= actions


def test_invalid_record_is_a_draft_with_violations_and_never_confirmed(world: World) -> None:
    rec = world.record()
    rec["result"] = {"winner": "draw" if rec["result"]["winner"] != "draw" else "good"}
    v = services.submit_record(world.user("referee"), world.game, rec, "api")
    assert v.status == GameVersion.Status.DRAFT and not v.valid
    assert any(x["code"] == "result.wrong_winner" for x in v.violations)
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.DRAFT
    with refused(409, "game.not_confirmable") as e:
        services.confirm_version(world.user("organiser"), world.game, 1)
    assert e.value.params == {"n": 1} and "Version 1 cannot be confirmed" in e.value.message


def test_in_progress_record_stays_draft(world: World) -> None:
    rec = world.record(variant="in-progress")
    v = services.submit_record(world.user("referee"), world.game, rec, "api")
    assert v.valid and v.status == GameVersion.Status.DRAFT and v.completeness == "in-progress"


def test_record_of_another_table_is_rejected_as_draft(world: World) -> None:
    rec = world.record()
    rec["seats"][0]["player"], rec["seats"][1]["player"] = (
        rec["seats"][1]["player"],
        rec["seats"][0]["player"],
    )
    v = services.submit_record(world.user("referee"), world.game, rec, "api")
    assert not v.valid and v.violations[0]["code"] == "platform.seating"
    rec = world.record()
    rec["ruleset"] = "mainstream"
    v = services.submit_record(world.user("referee"), world.game, rec, "api")
    assert any(x["code"] == "platform.ruleset" for x in v.violations)


def test_not_a_record_is_refused_and_nothing_stored(world: World) -> None:
    with pytest.raises(NotARecordError, match="not JSON"):
        services.submit_record(world.user("referee"), world.game, b"{nope", "upload")
    with pytest.raises(NotARecordError, match="wrong format"):
        services.submit_record(world.user("referee"), world.game, {"format": "pgn"}, "upload")
    assert not world.game.versions.exists()


def test_stale_revision_conflicts_and_writes_nothing(world: World) -> None:
    services.submit_record(world.user("referee"), world.game, world.record(), "api", 1)
    with refused(409, "game.stale_revision") as e:
        services.submit_record(world.user("organiser"), world.game, world.record(2), "api", 1)
    assert isinstance(e.value, services.StaleRevision) and e.value.current == 2
    assert e.value.params == {"rev": 2} and e.value.extra() == {"revision": 2}
    assert world.game.versions.count() == 1


def test_correction_needs_reason_and_a_second_official(world: World) -> None:
    ref, org, admin = world.user("referee"), world.user("organiser"), world.user("admin")
    services.submit_record(ref, world.game, world.record(), "api")
    services.confirm_version(org, world.game, 1)
    fixed = copy.deepcopy(world.record())
    fixed["awards"] = [{"seat": 2, "kind": "warning", "reason": "phone at the table"}]
    with refused(400, "game.reason_required"):
        services.submit_record(org, world.game, fixed, "api")
    v2 = services.submit_record(org, world.game, fixed, "api", reason="missed a warning")
    assert v2.status == GameVersion.Status.SUBMITTED
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.CONFIRMED  # v1 still counts until v2 is confirmed
    with refused(403, "game.own_submission"):
        services.confirm_version(org, world.game, 2)
    services.confirm_version(admin, world.game, 2)
    statuses = dict(world.game.versions.values_list("number", "status"))
    assert statuses == {1: "superseded", 2: "confirmed"}
    history = GameStatusChange.objects.filter(game=world.game).last()
    assert history is not None and history.reason == "missed a warning"


def test_release_only_confirmed_games_by_organisers(world: World) -> None:
    ref, org = world.user("referee"), world.user("organiser")
    services.submit_record(ref, world.game, world.record(), "api")
    with refused(409, "game.not_confirmed"):
        services.release_game(org, world.game)
    services.confirm_version(org, world.game, 1)
    with refused(403, "game.not_allowed"):
        services.release_game(ref, world.game)
    assert services.release_round(org, world.round) == 1
    world.game.refresh_from_db()
    assert world.game.status == Game.Status.RELEASED


def test_results_changed_seam_fires_on_commit(
    world: World, django_capture_on_commit_callbacks
) -> None:
    seen: list[int] = []

    def heard(sender: Any, game: Game, **kwargs: Any) -> None:
        seen.append(game.pk)

    results_changed.connect(heard)
    try:
        services.submit_record(world.user("referee"), world.game, world.record(), "api")
        assert seen == []
        with django_capture_on_commit_callbacks(execute=True):
            services.confirm_version(world.user("organiser"), world.game, 1)
        with django_capture_on_commit_callbacks(execute=True):
            services.release_game(world.user("organiser"), world.game)
    finally:
        results_changed.disconnect(heard)
    assert seen == [world.game.pk, world.game.pk]


def test_outsiders_cannot_submit(world: World) -> None:
    for role in ("other_referee", "player_at_table", "other_player"):
        with refused(403, "game.not_allowed"):
            services.submit_record(world.user(role), world.game, world.record(), "api")


@pytest.mark.parametrize("ruleset,n", [("mainstream", 7), ("civilian-draw", 13), ("majority", 10)])
def test_every_ruleset_records(ruleset: str, n: int) -> None:
    from tests.games.conftest import make_world

    w = make_world(ruleset, n)
    v = services.submit_record(w.user("referee"), w.game, w.record(5), "api")
    assert v.valid, v.violations
