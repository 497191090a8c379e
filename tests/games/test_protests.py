"""Protests and rulings (issue #20, item 5): who files and rules, phases checked against
the record, an upheld protest's correction through the normal confirmation, a rejection's
reasons, publicity after the ruling, the audit, the pages and the API's 4xx."""

from __future__ import annotations

import copy
import html
import json
import threading
import time
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils.translation import override
from rest_framework.test import APIClient

from engine.notation import print_notation
from games import protests as protests_module
from games.models import Game, GameVersion, Protest
from games.permissions import Access
from games.protests import (
    MAX_OPEN_PER_FILER,
    Filer,
    file_protest,
    protests_per_referee,
    rule_protest,
    visible_protests,
)
from games.selectors import confirmed_record
from games.services import confirm_version, void_game
from league.errors import UserError
from league.events import personal
from league.models import AuditEntry, Player, Registration
from tests.games.conftest import refused
from tests.league.factories import ClubOrganiserFactory, RegistrationFactory, UserFactory
from tests.results.factories import Played, played_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def ev() -> Played:
    return played_event(n_players=14)


@pytest.fixture
def game(ev: Played) -> Game:
    return ev.play(1, 1, ev.players[:12], seed=7)


def token_of(ev: Played, player: Player) -> str:
    if not Registration.objects.filter(event=ev.event, player=player).exists():
        RegistrationFactory(event=ev.event, player=player)
    return personal.player_tokens(ev.event)[player.pk]


def link_filer(ev: Played, player: Player) -> Filer:
    link = personal.link_for_token(token_of(ev, player))
    assert link is not None
    return Filer.from_link(link)


def corrected(game: Game) -> dict[str, Any]:
    record = copy.deepcopy(confirmed_record(game))
    assert record is not None
    record["awards"] = [*record.get("awards", []), {"seat": 2, "kind": "warning"}]
    return record


def filed(ev: Played, game: Game, text: str = "Seat 4 voted twice") -> Protest:
    return file_protest(link_filer(ev, ev.players[0]), game, phase="day 1 ballot 1", text=text)


# --- filing -------------------------------------------------------------------------------


def test_a_player_files_from_their_personal_link(ev: Played, game: Game) -> None:
    player = ev.players[0]
    protest = file_protest(
        link_filer(ev, player),
        game,
        phase="Day 1  Ballot 1",
        text="  Seat 4 voted twice  ",
        evidence="https://video.example/clip",
    )
    assert protest.status == Protest.Status.OPEN
    assert protest.player == player and protest.filed_by is None
    assert protest.phase == "day 1 ballot 1" and protest.text == "Seat 4 voted twice"
    entry = AuditEntry.objects.get(action="game.protest.file")
    assert entry.data["protest"] == protest.pk and entry.data["player"] == player.handle


@pytest.mark.parametrize("who", ["player", "organiser"])
def test_signed_in_player_and_organiser_file(ev: Played, game: Game, who: str) -> None:
    user = ev.players[3].user if who == "player" else ev.organiser
    protest = file_protest(Filer.from_user(user), game, phase="night 1", text="no check shown")
    assert protest.filed_by == user
    assert protest.player == (ev.players[3] if who == "player" else None)


@pytest.mark.parametrize("who", ["stranger", "other_player", "referee", "staff", "anonymous"])
def test_others_may_not_file(ev: Played, game: Game, who: str) -> None:
    staff = UserFactory()
    ev.event.staff.add(staff)
    user = {
        "stranger": UserFactory(),
        "other_player": ev.players[13].user,  # in the event, not at this table
        "referee": ev.referee.user,
        "staff": staff,
        "anonymous": None,
    }[who]
    with refused(403, "protest.not_allowed"):
        file_protest(Filer.from_user(user), game, phase="night 1", text="x")
    assert not Protest.objects.exists()


def test_a_link_speaks_for_its_own_event_only(ev: Played, game: Game) -> None:
    other = played_event(n_players=12)
    other_game = other.play(1, 1, other.players[:12], seed=3)
    filer = link_filer(ev, ev.players[0])
    with refused(403, "protest.not_allowed"):
        file_protest(filer, other_game, phase="night 1", text="x")


def test_an_unreleased_game_cannot_be_protested(ev: Played) -> None:
    game = ev.play(1, 1, ev.players[:12], seed=7, release=False)
    with refused(409, "protest.not_released"):
        file_protest(link_filer(ev, ev.players[0]), game, phase="night 1", text="x")
    assert not Protest.objects.exists()


@pytest.mark.parametrize(
    "phase", ["night 9", "day 1 ballot 4", "day 0", "noon", "", "night 1 ballot 1", None, 3]
)
def test_a_phase_the_record_does_not_have_is_refused(ev: Played, game: Game, phase: Any) -> None:
    with refused(400, "protest.bad_phase"):
        file_protest(link_filer(ev, ev.players[0]), game, phase=phase, text="x")


def test_every_phase_of_the_record_is_accepted(ev: Played, game: Game) -> None:
    record = confirmed_record(game)
    assert record is not None
    filer = Filer.from_user(ev.organiser)
    ruler = _ruler(ev)
    day = next(p for p in record["log"] if p["phase"] == "day" and p.get("ballots"))
    last = len(day["ballots"])
    for phase in ("setup", "awards", "result", f"day {day['n']} ballot {last}"):
        protest = file_protest(filer, game, phase=phase, text="look again")
        rule_protest(ruler, protest, decision="rejected", ruling="no")
    with refused(400, "protest.bad_phase"):
        file_protest(filer, game, phase=f"day {day['n']} ballot {last + 1}", text="x")


def _ruler(ev: Played) -> Any:
    """A second organiser of the club: the chief referee in these tests."""
    return ClubOrganiserFactory(club=ev.club).user


@pytest.mark.parametrize(
    ("text", "evidence", "code"),
    [
        ("   ", "", "protest.text_required"),
        ("x" * (Protest.TEXT_MAX + 1), "", "protest.too_long"),
        ("ok", "javascript:alert(1)", "protest.bad_evidence"),
        ("ok", "ftp://files.example/a.mp4", "protest.bad_evidence"),
        ("ok", "https://v.example/" + "a" * Protest.URL_MAX, "protest.bad_evidence"),
        ("ok", "not a link", "protest.bad_evidence"),
    ],
)
def test_bad_text_or_evidence_is_refused(
    ev: Played, game: Game, text: str, evidence: str, code: str
) -> None:
    with refused(400, code):
        file_protest(
            link_filer(ev, ev.players[0]), game, phase="night 1", text=text, evidence=evidence
        )


def test_open_protests_per_filer_are_bounded(ev: Played, game: Game) -> None:
    filer = link_filer(ev, ev.players[0])
    for i in range(MAX_OPEN_PER_FILER):
        file_protest(filer, game, phase="night 1", text=f"protest {i}")
    with refused(409, "protest.too_many"):
        file_protest(filer, game, phase="night 1", text="one more")
    # the same player signed in is the same filer
    with refused(409, "protest.too_many"):
        file_protest(Filer.from_user(ev.players[0].user), game, phase="night 1", text="again")


# --- ruling ---------------------------------------------------------------------------------


def test_upheld_submits_a_version_that_another_official_confirms(ev: Played, game: Game) -> None:
    protest = filed(ev, game)
    ruler = ev.organiser
    before = game.versions.count()
    ruled = rule_protest(
        ruler, protest, decision="upheld", ruling="Seat 2 is warned.", record=corrected(game)
    )
    assert ruled.status == Protest.Status.UPHELD and ruled.ruled_by == ruler
    assert ruled.ruled_at is not None and ruled.ruling == "Seat 2 is warned."
    version = ruled.version
    assert version is not None and version.status == GameVersion.Status.SUBMITTED
    assert game.versions.count() == before + 1 and version.reason == "Seat 2 is warned."
    game.refresh_from_db()
    assert game.status == Game.Status.RELEASED  # the released record stands until confirmed
    with refused(403, "game.own_submission"):
        confirm_version(ruler, game, version.number)
    confirm_version(ev.referee.user, game, version.number)  # another official
    version.refresh_from_db()
    assert version.status == GameVersion.Status.CONFIRMED
    assert confirmed_record(game)["awards"][-1] == {"seat": 2, "kind": "warning"}  # type: ignore[index]
    entry = AuditEntry.objects.get(action="game.protest.rule")
    assert entry.data == {"protest": protest.pk, "decision": "upheld", "version": version.number}


def test_upheld_needs_a_valid_changed_record(ev: Played, game: Game) -> None:
    protest = filed(ev, game)
    count = game.versions.count()
    with refused(400, "protest.record_required"):
        rule_protest(ev.organiser, protest, decision="upheld", ruling="yes")
    with refused(400, "protest.correction_unchanged"):
        rule_protest(
            ev.organiser, protest, decision="upheld", ruling="yes", record=confirmed_record(game)
        )
    broken = corrected(game)
    broken["seats"][0]["role"] = "police"  # the role counts no longer fit
    with refused(400, "protest.correction_invalid"):
        rule_protest(ev.organiser, protest, decision="upheld", ruling="yes", record=broken)
    with refused(400):
        rule_protest(ev.organiser, protest, decision="upheld", ruling="yes", record="{not json")
    assert game.versions.count() == count  # nothing was kept of the refused corrections
    protest.refresh_from_db()
    assert protest.status == Protest.Status.OPEN
    assert not AuditEntry.objects.filter(action="game.protest.rule").exists()


def test_rejected_needs_reasons_and_is_final(ev: Played, game: Game) -> None:
    protest = filed(ev, game)
    with refused(400, "protest.reasons_required"):
        rule_protest(ev.organiser, protest, decision="rejected", ruling="  ")
    with refused(400, "protest.record_unexpected"):
        rule_protest(
            ev.organiser, protest, decision="rejected", ruling="no", record=corrected(game)
        )
    with refused(400, "protest.bad_decision"):
        rule_protest(ev.organiser, protest, decision="open", ruling="no")
    ruled = rule_protest(
        ev.organiser, protest, decision="rejected", ruling="The video shows one vote."
    )
    assert ruled.status == Protest.Status.REJECTED and ruled.version is None
    with refused(409, "protest.already_ruled"):
        rule_protest(_ruler(ev), protest, decision="rejected", ruling="again")


def test_who_rules(ev: Played, game: Game) -> None:
    protest = filed(ev, game)
    # the game's referee never rules on their own game, even as an organiser
    ClubOrganiserFactory(club=ev.club, user=ev.referee.user)
    for user in (ev.referee.user, ev.players[0].user, UserFactory()):
        with refused(403, "protest.not_chief_referee"):
            rule_protest(user, protest, decision="rejected", ruling="no")
    # the event's staff rule; upholding (a new record) needs an organiser
    staff = UserFactory()
    ev.event.staff.add(staff)
    with refused(403, "protest.uphold_needs_organiser"):
        rule_protest(staff, protest, decision="upheld", ruling="yes", record=corrected(game))
    assert rule_protest(staff, protest, decision="rejected", ruling="no").ruled_by == staff


def test_an_organiser_does_not_rule_on_their_own_protest(ev: Played, game: Game) -> None:
    protest = file_protest(Filer.from_user(ev.organiser), game, phase="night 1", text="x")
    with refused(403, "protest.own_protest"):
        rule_protest(ev.organiser, protest, decision="rejected", ruling="no")
    rule_protest(_ruler(ev), protest, decision="rejected", ruling="no")


def test_a_voided_game_takes_no_ruling(ev: Played, game: Game) -> None:
    protest = filed(ev, game)
    void_game(ev.organiser, game, "wrong table")
    with refused(409, "game.voided"):
        rule_protest(ev.organiser, protest, decision="rejected", ruling="no")


# --- who sees what ------------------------------------------------------------------------


def test_open_protests_are_seen_by_officials_and_the_filer_only(ev: Played, game: Game) -> None:
    filer = link_filer(ev, ev.players[0])
    protest = file_protest(filer, game, phase="night 1", text="secret until ruled")

    def seen(user: Any, as_filer: Filer | None = None) -> bool:
        rows = visible_protests(Access(user), game, as_filer or Filer.from_user(user))
        return protest.pk in [p.pk for p in rows]

    assert seen(None, filer) and seen(ev.players[0].user)
    assert seen(ev.organiser) and seen(ev.referee.user)
    assert not seen(None) and not seen(ev.players[1].user) and not seen(UserFactory())
    rule_protest(ev.organiser, protest, decision="rejected", ruling="one vote only")
    assert seen(None) and seen(ev.players[1].user) and seen(UserFactory())


def test_pages_show_a_protest_only_after_its_ruling(ev: Played, game: Game) -> None:
    protest = filed(ev, game, text="TWICE-VOTED")
    client = Client()
    pages = [
        reverse("games:protests", args=[game.pk]),
        reverse("games:game", args=[game.pk]),
        reverse("results:account", args=[game.pk]),
    ]
    for url in pages:
        assert "TWICE-VOTED" not in client.get(url).content.decode(), url
    assert client.get(reverse("games-api:protests", args=[game.pk])).json() == []
    rule_protest(ev.organiser, protest, decision="rejected", ruling="REASONS-GIVEN")
    for url in pages:
        text = client.get(url).content.decode()
        assert "TWICE-VOTED" in text and "REASONS-GIVEN" in text, url
    [row] = client.get(reverse("games-api:protests", args=[game.pk])).json()
    assert row["status"] == "rejected" and row["ruling"] == "REASONS-GIVEN"
    assert row["phase"] == "day 1 ballot 1" and row["phase_label"] == "Day 1, ballot 1"


def test_protests_per_referee(ev: Played, game: Game) -> None:
    second = ev.play(2, 1, ev.players[2:14], seed=8)
    a = filed(ev, game, "a")
    filed(ev, game, "b")
    c = file_protest(Filer.from_user(ev.organiser), second, phase="night 1", text="c")
    rule_protest(ev.organiser, a, decision="upheld", ruling="yes", record=corrected(game))
    rule_protest(_ruler(ev), c, decision="rejected", ruling="no")
    counts = protests_per_referee()
    mine = counts[ev.referee.pk]
    assert (mine.filed, mine.open, mine.upheld, mine.rejected) == (3, 1, 1, 1)
    only_second = protests_per_referee(Game.objects.filter(pk=second.pk))[ev.referee.pk]
    assert (only_second.filed, only_second.rejected) == (1, 1)
    assert protests_per_referee(Game.objects.none()) == {}


# --- pages ----------------------------------------------------------------------------------


def test_the_personal_page_links_each_released_game_to_a_protest(ev: Played, game: Game) -> None:
    token = token_of(ev, ev.players[0])
    page = Client().get(reverse("personal-page", args=[token])).content.decode()
    assert reverse("games:protest-file-personal", args=[token, game.pk]) in page


def test_filing_from_the_personal_page_asks_for_confirmation(ev: Played, game: Game) -> None:
    token = token_of(ev, ev.players[0])
    url = reverse("games:protest-file-personal", args=[token, game.pk])
    client = Client()
    form = client.get(url)
    assert form.status_code == 200 and form["Cache-Control"] == "no-store, private"
    body = {"phase": "night 1", "text": "The kill was never shown", "evidence": ""}
    check = client.post(url, body)
    assert check.status_code == 200 and 'id="protest-confirm"' in check.content.decode()
    assert not Protest.objects.exists()
    done = client.post(url, {**body, "confirm": "1"})
    assert done.status_code == 302 and done["Location"] == reverse("personal-page", args=[token])
    protest = Protest.objects.get()
    assert protest.player == ev.players[0] and protest.text == "The kill was never shown"
    # the filer finds it, still open, on the form; another player's link does not
    again = client.get(url).content.decode()
    assert 'id="my-protests"' in again and "The kill was never shown" in again
    other = reverse("games:protest-file-personal", args=[token_of(ev, ev.players[1]), game.pk])
    assert "The kill was never shown" not in client.get(other).content.decode()


def test_the_file_form_keeps_what_was_typed_on_a_refusal(ev: Played, game: Game) -> None:
    token = token_of(ev, ev.players[0])
    url = reverse("games:protest-file-personal", args=[token, game.pk])
    page = Client().post(url, {"phase": "night 77", "text": "KEPT-TEXT", "confirm": "1"})
    assert page.status_code == 200 and "KEPT-TEXT" in page.content.decode()
    assert not Protest.objects.exists()


def test_the_file_pages_are_404_where_nothing_may_be_filed(ev: Played) -> None:
    unreleased = ev.play(1, 1, ev.players[:12], seed=7, release=False)
    token = token_of(ev, ev.players[0])
    client = Client()
    assert (
        client.get(reverse("games:protest-file-personal", args=[token, unreleased.pk])).status_code
        == 404
    )
    assert (
        client.get(
            reverse("games:protest-file-personal", args=["0" * 32, unreleased.pk])
        ).status_code
        == 404
    )
    client.force_login(UserFactory())
    assert client.get(reverse("games:protest-file", args=[unreleased.pk])).status_code == 404


def test_the_chief_referee_rules_on_the_rule_page(ev: Played, game: Game) -> None:
    protest = filed(ev, game)
    url = reverse("games:protest-rule", args=[game.pk, protest.pk])
    client = Client()
    client.force_login(ev.referee.user)
    assert client.get(url).status_code == 404  # the protested game's referee
    client.force_login(ev.organiser)
    page = client.get(url)
    assert page.status_code == 200 and json.dumps(game.pk) in page.content.decode()
    refused_page = client.post(url, {"decision": "upheld", "ruling": "yes", "record": ""})
    assert refused_page.status_code == 200 and 'id="ruling-error"' in refused_page.content.decode()
    done = client.post(
        url, {"decision": "upheld", "ruling": "yes", "record": json.dumps(corrected(game))}
    )
    assert done.status_code == 302
    protest.refresh_from_db()
    assert protest.status == Protest.Status.UPHELD and protest.version is not None


# --- API ------------------------------------------------------------------------------------


def _api(user: Any) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_api_files_lists_and_rules(ev: Played, game: Game) -> None:
    url = reverse("games-api:protests", args=[game.pk])
    player = _api(ev.players[0].user)
    made = player.post(url, {"phase": "day 1", "text": "wrong count"}, format="json")
    assert made.status_code == 201, made.json()
    data = made.json()
    assert data["status"] == "open" and data["player"] == ev.players[0].handle
    assert [p["id"] for p in player.get(url).json()] == [data["id"]]
    assert _api(None).get(url).json() == []
    ruling = reverse("games-api:protest-ruling", args=[game.pk, data["id"]])
    assert _api(ev.players[1].user).post(ruling, {}, format="json").status_code == 404
    answer = _api(ev.organiser).post(
        ruling,
        {"decision": "upheld", "ruling": "recounted", "record": corrected(game)},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["version"] is not None and answer.json()["version_status"] == "submitted"
    again = _api(ev.organiser).post(ruling, {"decision": "rejected", "ruling": "x"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "protest.already_ruled"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"phase": "night 1"},
        {"phase": ["night 1"], "text": "x"},
        {"phase": "night 1", "text": "x" * (Protest.TEXT_MAX + 1)},
        {"phase": "night 1", "text": "x", "evidence": "h" * (Protest.URL_MAX + 1)},
        {"phase": "night 1", "text": "x", "evidence": "javascript:alert(1)"},
        {"phase": "night 99", "text": "x"},
        {"phase": "n" * 41, "text": "x"},
        [],
        "just a string",
    ],
)
def test_api_refuses_malformed_protests(ev: Played, game: Game, body: Any) -> None:
    url = reverse("games-api:protests", args=[game.pk])
    answer = _api(ev.players[0].user).post(url, body, format="json")
    assert answer.status_code == 400, answer.content
    assert not Protest.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"decision": "maybe", "ruling": "x"},
        {"decision": "rejected"},
        {"decision": "rejected", "ruling": ""},
        {"decision": "rejected", "ruling": "x" * (Protest.TEXT_MAX + 1)},
        {"decision": "upheld", "ruling": "x"},
        {"decision": "upheld", "ruling": "x", "record": None},
        {"decision": "upheld", "ruling": "x", "record": "not a record"},
        {"decision": "upheld", "ruling": "x", "record": [1, 2]},
        {"decision": ["rejected"], "ruling": "x"},
    ],
)
def test_api_refuses_malformed_rulings(ev: Played, game: Game, body: Any) -> None:
    protest = filed(ev, game)
    url = reverse("games-api:protest-ruling", args=[game.pk, protest.pk])
    answer = _api(ev.organiser).post(url, body, format="json")
    assert answer.status_code == 400, answer.content
    protest.refresh_from_db()
    assert protest.status == Protest.Status.OPEN


def test_api_needs_an_account_to_write(ev: Played, game: Game) -> None:
    url = reverse("games-api:protests", args=[game.pk])
    assert _api(None).post(url, {"phase": "night 1", "text": "x"}, format="json").status_code in (
        401,
        403,
    )
    protest = filed(ev, game)
    ruling = reverse("games-api:protest-ruling", args=[game.pk, protest.pk])
    assert _api(None).post(
        ruling, {"decision": "rejected", "ruling": "x"}, format="json"
    ).status_code in (401, 403)
    other = ev.play(2, 1, ev.players[2:14], seed=9)
    elsewhere = reverse("games-api:protest-ruling", args=[other.pk, protest.pk])
    assert (
        _api(ev.organiser)
        .post(elsewhere, {"decision": "rejected", "ruling": "x"}, format="json")
        .status_code
        == 404
    )


# --- races (PostgreSQL: row locks) ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL; SQLite locks the file"
)
def test_two_chief_referees_rule_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ev = played_event(n_players=12)
    game = ev.play(1, 1, ev.players[:12], seed=7)
    protest = filed(ev, game)
    rulers = [ev.organiser, _ruler(ev)]
    original = protests_module.audit

    def slow_audit(*a: Any, **k: Any) -> None:  # hold the lock while the other waits
        time.sleep(0.3)
        original(*a, **k)

    monkeypatch.setattr(protests_module, "audit", slow_audit)
    barrier = threading.Barrier(2)
    results: list[Any] = [None, None]

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = rule_protest(rulers[i], protest, decision="rejected", ruling=f"ruling {i}")
        except Exception as e:
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    losses = [r for r in results if isinstance(r, Exception)]
    assert len(losses) == 1 and isinstance(losses[0], UserError), results
    assert losses[0].code == "protest.already_ruled"
    assert AuditEntry.objects.filter(action="game.protest.rule").count() == 1


@pytest.mark.parametrize("lang", ["es", "zh-hans"])
def test_phase_labels_are_in_the_readers_language(lang: str) -> None:
    """The labels are marked with a name makemessages knows (``gettext``), so they reach
    the catalogues: a Spanish or Chinese reader picks "Day 1, ballot 2" in their own words."""
    english = {
        "setup": "Seats and role cards",
        "day 1 ballot 2": "Day 1, ballot 2",
        "night 1": "Night 1",
        "awards": "Awards",
    }
    with override(lang):
        shown = {phase: protests_module.phase_label(phase) for phase in english}
    assert not [phase for phase, text in english.items() if shown[phase] == text], shown


def test_the_rule_page_corrects_the_record_in_the_notation(ev: Played, game: Game) -> None:
    protest = filed(ev, game)
    url = reverse("games:protest-rule", args=[game.pk, protest.pk])
    client = Client()
    client.force_login(ev.organiser)
    page = client.get(url).content.decode()
    text = print_notation(confirmed_record(game))
    assert html.escape(text.splitlines()[0]) in page  # the record to correct, in the notation
    bad = client.post(url, {"decision": "upheld", "ruling": "recount", "record": text + "\nZ9"})
    said = bad.content.decode()
    assert bad.status_code == 200 and 'id="ruling-error"' in said and "line " in said
    protest.refresh_from_db()
    assert protest.status == Protest.Status.OPEN and game.versions.count() == 1
    fixed = text + "\nwarning 2"
    done = client.post(url, {"decision": "upheld", "ruling": "recount", "record": fixed})
    assert done.status_code == 302
    protest.refresh_from_db()
    assert protest.status == Protest.Status.UPHELD
    assert protest.version is not None and protest.version.record == corrected(game)
