"""Club and event archives (issue #22): the round trip into an empty database, the public
variant's secrecy, idempotent re-import, refused files, the pages and the commands."""

from __future__ import annotations

import datetime as dt
import difflib
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client, TestCase
from django.urls import reverse

from engine.simulate import simulate_game
from games.models import Game, GameVersion
from games.protests import Filer, file_protest
from games.services import confirm_version, create_club_game, submit_record, void_game
from league.events.services import transition_event
from league.models import Club, Event, Player
from results.archives.bundle import MANIFEST, ArchiveError, dumps, sha256
from results.archives.digest import results_digest
from results.archives.export import export_archive
from results.archives.imports import import_archive, preview_archive
from results.models import PlayerRating
from tests.league.factories import (
    ClubOrganiserFactory,
    PlayerFactory,
    RegistrationFactory,
    UserFactory,
)
from tests.results.factories import Played, played_event, superuser
from tests.results.stages_factories import play_all, three_stages

pytestmark = pytest.mark.django_db

SECRET = "secret-marker-7f3a"


def championship() -> tuple[Played, dict[str, Any]]:
    """A finished three-stage event: released games, one corrected twice (three
    versions), then a pending correction (submitted, never confirmed) of another."""
    ev = three_stages()
    played = play_all(ev)
    corrected = played["q"][0]
    seated = ev.players[:10]
    ev.correct(corrected, ev.record(seated, 101), reason="wrong vote")
    ev.correct(corrected, ev.record(seated, 102), reason="wrong night")
    pending = ev.record(ev.players[10:], 555)
    pending["meta"] = {"note": SECRET}
    submit_record(ev.organiser, played["q"][1], pending, "upload", reason="maybe")
    with TestCase.captureOnCommitCallbacks(execute=True):
        transition_event(ev.organiser, ev.event, Event.Status.FINISHED)
    return ev, played


def empty_database() -> None:
    """Every table emptied, as on a new site (Django's ``flush``). PostgreSQL refuses to
    TRUNCATE under the test's pending deferred foreign-key checks: run them first."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def _normal(html: str) -> str:
    """A page without what differs between two databases: ids in links, tokens."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    html = re.sub(r'nonce="[^"]*"', "", html)
    html = re.sub(r" · updated [^<]*", "", html)  # when the standings were computed
    html = re.sub(r"/games/\d+/", "/games/N/", html)
    html = re.sub(r"#\d+\b", "#N", html)  # a game is named by its id (#146 here, #5 there)
    return re.sub(r"(game|row|g)-\d+", r"\1-N", html)


def pages(ev: Played, game_keys: list[tuple[int, int]]) -> dict[str, str]:
    club, slug = ev.club.slug, ev.event.slug
    client = Client()
    urls = [
        reverse("results:standings", args=[club, slug]),
        *(reverse("results:stage-standings", args=[club, slug, n]) for n in range(3)),
        *(reverse("results:player", args=[p.handle]) for p in ev.players[:3]),
    ]
    for rnd, table in game_keys:
        game = Game.objects.get(
            table__round__event__slug=slug, table__round__number=rnd, table__number=table
        )
        urls.append(reverse("results:account", args=[game.pk]))
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out[re.sub(r"/games/\d+/", "/games/N/", url)] = _normal(response.content.decode())
    return out


def test_round_trip_into_an_empty_database_gives_identical_results_and_pages() -> None:
    ev, _played = championship()
    keys = [(1, 1), (1, 2), (2, 1), (3, 1)]
    before_pages = pages(ev, keys)
    before = results_digest()
    assert before["standings"] and before["ratings"]
    data = export_archive(ev.club, public=False)

    empty_database()
    assert not Club.objects.exists() and not PlayerRating.objects.exists()
    report = import_archive(data, actor=superuser("importer"))

    assert report.differences == []
    assert len(report.events) == 1 and report.games == 5
    assert results_digest() == before
    after_pages = pages(ev, keys)
    assert list(after_pages) == list(before_pages)
    for url, html in after_pages.items():
        diff = difflib.unified_diff(before_pages[url].splitlines(), html.splitlines(), lineterm="")
        assert html == before_pages[url], url + "\n" + "\n".join(list(diff)[:40])
    versions = GameVersion.objects.filter(game__table__round__number=1, game__table__number=1)
    assert list(versions.order_by("number").values_list("status", flat=True)) == [
        "superseded",
        "superseded",
        "confirmed",
    ]
    pending = GameVersion.objects.get(record__meta__note=SECRET)
    assert pending.status == "submitted" and pending.submitted_by.username == ev.organiser.username
    organiser = User.objects.get(username=ev.organiser.username)
    assert not organiser.is_active and not organiser.has_usable_password()
    assert organiser.email == ev.organiser.email


# --- the public archive -----------------------------------------------------------------------


def _zip_text(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name).decode() for name in zf.namelist()}


def test_public_archive_holds_only_what_is_public_and_imports_the_same_standings() -> None:
    ev, played = championship()
    file_protest(
        Filer.from_user(ev.organiser), played["s"][0], phase="result", text=f"open {SECRET}-protest"
    )
    RegistrationFactory(event=ev.event, player=PlayerFactory(handle="no-show-player"))
    full, public = _zip_text(export_archive(ev.club, public=False)), None
    secrets = [SECRET, "@example.org", ev.organiser.username, ev.referee.user.username]
    secrets.append("no-show-player")  # registered, never seated: no public page names them
    for secret in secrets:  # the full archive holds them: the scan below can fail
        assert any(secret in text for text in full.values()), secret
    assert "audit.json" in full and f"{SECRET}-protest" in "".join(full.values())
    data = export_archive(ev.club, public=True)
    public = _zip_text(data)
    blob = "".join(public.values())
    for secret in secrets:
        assert secret not in blob, secret
    assert not {"audit.json", "conflicts.json", "registrations.json", "referees.json"} & set(public)
    assert '"sheet"' not in blob and "protest" not in blob.replace('"protests"', "")
    manifest = json.loads(public[MANIFEST])
    assert manifest["public"] is True and manifest["scope"] == {
        "kind": "club",
        "club": ev.club.slug,
    }
    versions = [n for n in public if re.match(r"games/\d+/v\d+\.json", n)]
    assert len(versions) == 5  # the confirmed version of each released game, nothing else

    before = results_digest()
    empty_database()
    report = import_archive(data, actor=None)
    assert report.differences == []
    after = results_digest()
    assert after["standings"] == before["standings"]
    assert after["ratings"] == before["ratings"]
    assert not User.objects.filter(email__endswith="@example.org").exists()
    assert all(not u.is_active for u in User.objects.all())


def test_a_public_archive_of_an_unfinished_event_holds_no_games() -> None:
    ev = played_event(rounds=1)
    ev.play(1)
    names = _zip_text(export_archive(ev.event, public=True))
    assert not [n for n in names if n.startswith("games/")]
    assert json.loads(names["events.json"]) == []


# --- import rules -------------------------------------------------------------------------------


def small() -> Played:
    """A released game corrected once, a confirmed one unreleased, a voided one and a
    released stand-alone club game."""
    ev = played_event(rounds=3)
    game = ev.play(1, seed=3)
    ev.correct(game, ev.record(ev.players[:12], 4))
    ev.play(2, seed=5, release=False)
    void_game(ev.organiser, ev.play(3, seed=6, release=False), "wrong table")
    seated = [p.handle for p in ev.players[:10]]
    alone = create_club_game(ev.organiser, ev.club, "classic", players=seated, title="Friday")
    alone.played_on = dt.date(2026, 3, 2)
    alone.save()
    record = simulate_game("classic", 10, 77, players=seated)
    version = submit_record(ev.organiser, alone, record, "upload")
    second = ClubOrganiserFactory(club=ev.club).user
    with TestCase.captureOnCommitCallbacks(execute=True):
        confirm_version(second, Game.objects.get(pk=alone.pk), version.number)
    ev.release(alone)
    return ev


def test_importing_the_same_archive_twice_changes_nothing() -> None:
    ev = small()
    data = export_archive(ev.club, public=False)
    empty_database()
    first = import_archive(data, actor=None)
    voided = Game.objects.get(status=Game.Status.VOIDED)
    assert voided.voided_event.slug == ev.event.slug and voided.void_reason == "wrong table"
    alone = Game.objects.get(club__slug=ev.club.slug)
    assert alone.status == Game.Status.RELEASED and alone.title == "Friday"
    assert PlayerRating.objects.filter(games=2).count() == 10  # the club game is rated
    counts = (Game.objects.count(), GameVersion.objects.count(), Player.objects.count())
    again = import_archive(data, actor=None)
    assert again.already_imported and again.club == first.club
    assert (Game.objects.count(), GameVersion.objects.count(), Player.objects.count()) == counts
    assert preview_archive(data).already_imported


def test_an_archive_whose_club_exists_is_refused_and_nothing_is_written() -> None:
    ev = small()
    data = export_archive(ev.club, public=False)
    counts = (Game.objects.count(), User.objects.count())
    with pytest.raises(ArchiveError) as caught:
        import_archive(data, actor=None)
    assert caught.value.code == "archive.club_exists" and caught.value.status == 409
    assert ev.club.slug in caught.value.message
    assert (Game.objects.count(), User.objects.count()) == counts


def test_an_event_archive_goes_into_the_existing_club_under_a_free_slug() -> None:
    ev = small()
    data = export_archive(ev.event, public=False)
    Event.objects.filter(pk=ev.event.pk).update(slug="renamed")
    report = import_archive(data, actor=None)
    assert report.club == ev.club and report.events[0].slug == ev.event.slug
    assert Event.objects.filter(club=ev.club).count() == 2
    assert Player.objects.count() == len(ev.players)  # same handles and names: the same people


def test_a_player_of_the_same_handle_and_another_name_is_a_collision() -> None:
    ev = small()
    data = export_archive(ev.club, public=False)
    empty_database()
    PlayerFactory(handle=ev.players[0].handle, display_name="Someone Else")
    with pytest.raises(ArchiveError) as caught:
        import_archive(data, actor=None)
    assert caught.value.code == "archive.player_exists"
    assert not Club.objects.exists()


def rezip(data: bytes, change: Any, *, manifest: bool = True) -> bytes:
    """The archive with its members changed by ``change(members)``; the manifest's hashes
    follow (``manifest=True``: a consistent forgery) or not (tampering)."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    head = json.loads(members.pop(MANIFEST))
    change(members)
    if manifest:
        head["members"] = {n: sha256(b) for n, b in members.items()}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(MANIFEST, dumps(head))
        for name, body in members.items():
            zf.writestr(name, body)
    return out.getvalue()


def _edit(name: str, edit: Any) -> Any:
    def change(members: dict[str, bytes]) -> None:
        members[name] = dumps(edit(json.loads(members[name])))

    return change


def _refused(data: bytes, code: str) -> ArchiveError:
    with pytest.raises(ArchiveError) as caught:
        import_archive(data, actor=None)
    assert caught.value.code == code, caught.value.message
    assert caught.value.status in (400, 409)
    assert not Club.objects.exists() and not Game.objects.exists()
    return caught.value


@pytest.fixture
def archive_then_empty() -> bytes:
    ev = small()
    data = export_archive(ev.club, public=False)
    empty_database()
    return data


def test_bad_files_are_refused_with_nothing_written(
    archive_then_empty: bytes, settings: Any
) -> None:
    data = archive_then_empty
    _refused(b"not a zip at all", "archive.not_zip")
    players = _edit("players.json", lambda rows: [{**r, "display_name": "X"} for r in rows])
    _refused(rezip(data, players, manifest=False), "archive.tampered")
    _refused(rezip(data, lambda m: m.pop("rounds.json"), manifest=False), "archive.tampered")
    _refused(rezip(data, lambda m: m.update({"../evil.json": b"{}"})), "archive.bad_member_name")
    _refused(rezip(data, lambda m: m.update({"x.json": b"{nope"})), "archive.bad_json")

    error = _refused(_bump_version(data), "archive.version")
    assert "version is 2" in error.message
    settings.ARCHIVE_MAX_BYTES = len(data) - 1
    _refused(data, "archive.too_large")
    settings.ARCHIVE_MAX_BYTES = 50 * 2**20
    settings.ARCHIVE_MAX_MEMBERS = 3
    _refused(data, "archive.too_many_members")
    settings.ARCHIVE_MAX_MEMBERS = 100_000
    bomb = rezip(data, lambda m: m.update({"bomb.json": b"[" + b" " * 20 * 2**20 + b"]"}))
    assert len(bomb) < len(data) + 100 * 1024
    _refused(bomb, "archive.too_large_unpacked")
    # finally the untouched file still imports
    assert import_archive(data, actor=None).games == 4  # with the voided and the club game


def _bump_version(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    head = json.loads(members[MANIFEST])
    head["version"] = 2
    members[MANIFEST] = dumps(head)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    return out.getvalue()


def test_a_consistent_but_wrong_archive_is_refused_whole(archive_then_empty: bytes) -> None:
    data = archive_then_empty
    drop_player = _edit("players.json", lambda rows: rows[1:])
    error = _refused(rezip(data, drop_player), "archive.inconsistent")
    assert "Nothing was imported" in error.message

    def broken_record(members: dict[str, bytes]) -> None:
        for name, body in members.items():
            meta = json.loads(body) if name.endswith("/game.json") else None
            if meta and meta["status"] == "released":
                confirmed = next(v for v in meta["versions"] if v["status"] == "confirmed")
                key = f"games/{meta['id']}/v{confirmed['number']}.json"
                record = json.loads(members[key])
                record["seats"] = record["seats"][:3]
                members[key] = dumps(record)
                return

    _refused(rezip(data, broken_record), "archive.bad_record")
    assert not User.objects.exists()


# --- pages and buttons ------------------------------------------------------------------------


def test_the_downloads_are_for_organisers_and_the_public_ones_for_finished_events() -> None:
    ev = small()
    full = reverse("results:event-archive", args=[ev.event.pk])
    club_full = reverse("results:club-archive", args=[ev.club.slug])
    public = reverse("results:event-public-archive", args=[ev.club.slug, ev.event.slug])
    club_public = reverse("results:club-public-archive", args=[ev.club.slug])
    anonymous, stranger, organiser = Client(), Client(), Client()
    stranger.force_login(ev.players[0].user)
    organiser.force_login(ev.organiser)

    assert anonymous.get(full).status_code == 302  # to the log-in page
    assert stranger.get(full).status_code == 403
    assert stranger.get(club_full).status_code == 403
    assert anonymous.get(public).status_code == 404  # the event is not finished
    assert anonymous.get(reverse("results:event-archive", args=[99999])).status_code == 302
    assert organiser.get(reverse("results:event-archive", args=[99999])).status_code == 404
    response = organiser.get(full)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    assert "users.json" in _zip_text(response.content)
    assert organiser.get(club_full).status_code == 200

    dashboard = organiser.get(reverse("event-dashboard", args=[ev.event.pk])).content.decode()
    assert f'href="{full}"' in dashboard and f'href="{public}"' not in dashboard
    people = organiser.get(reverse("club-people", args=[ev.club.slug])).content.decode()
    assert f'href="{club_full}"' in people and f'href="{club_public}"' in people

    with TestCase.captureOnCommitCallbacks(execute=True):
        transition_event(ev.organiser, ev.event, Event.Status.FINISHED)
    dashboard = organiser.get(reverse("event-dashboard", args=[ev.event.pk])).content.decode()
    assert f'href="{public}"' in dashboard
    response = anonymous.get(public)
    assert response.status_code == 200
    names = _zip_text(response.content)
    assert "users.json" in names and json.loads(names["users.json"]) == [
        {"key": "official-1"},
        {"key": "official-2"},
    ]
    assert ev.organiser.email not in "".join(names.values())
    assert anonymous.get(club_public).status_code == 200


def test_the_import_page_previews_then_imports_on_confirmation_for_site_staff() -> None:
    ev = small()
    data = export_archive(ev.club, public=False)
    empty_database()
    url = reverse("results:archive-import")
    organiser = Client()
    organiser.force_login(UserFactory())
    assert organiser.get(url).status_code == 403
    assert 'id="import-archive"' not in organiser.get(reverse("manage-home")).content.decode()
    assert Client().get(url).status_code == 302
    staff = Client()
    staff.force_login(superuser())
    assert staff.get(url).status_code == 200
    assert 'id="import-archive"' in staff.get(reverse("manage-home")).content.decode()
    assert f'href="{url}"' in staff.get(reverse("manage-home")).content.decode()

    bad = staff.post(url, {"file": io.BytesIO(b"junk")})
    assert bad.status_code == 400 and "not a zip archive" in bad.content.decode()
    upload = io.BytesIO(data)
    upload.name = "club.zip"
    page = staff.post(url, {"file": upload})
    html = page.content.decode()
    assert page.status_code == 200 and 'id="archive-confirm"' in html
    assert "will be created" in html and not Club.objects.exists()  # nothing yet
    made = json.loads(_zip_text(data)["manifest.json"])["created_at"]
    assert made not in html  # when it was made: a date for people, not the ISO string
    token = re.search(r'name="token" value="([0-9a-f]+)"', html)
    assert token is not None
    assert staff.post(url, {"confirm": "1", "token": "0" * 32}).status_code == 302
    assert not Club.objects.exists()  # another token: expired, nothing imported
    done = staff.post(url, {"confirm": "1", "token": token.group(1)})
    assert done.status_code == 302 and done["Location"] == reverse("club", args=[ev.club.slug])
    assert Club.objects.filter(slug=ev.club.slug).exists()
    upload.seek(0)
    again = staff.post(url, {"file": upload}).content.decode()
    assert 'id="archive-already"' in again and 'id="archive-confirm"' not in again


# --- commands ---------------------------------------------------------------------------------


def test_the_commands_export_import_and_compare(tmp_path: Path) -> None:
    ev = small()
    out, digest = tmp_path / "club.zip", tmp_path / "results.json"
    call_command("export_archive", "--club", ev.club.slug, "-o", str(out))
    call_command("export_archive", "--event", f"{ev.club.slug}/{ev.event.slug}", "--public",
                 "-o", str(tmp_path / "event.zip"))  # fmt: skip
    assert zipfile.is_zipfile(out) and zipfile.is_zipfile(tmp_path / "event.zip")
    with pytest.raises(CommandError, match="No club"):
        call_command("export_archive", "--club", "nope", "-o", str(out))
    with pytest.raises(CommandError, match="No event"):
        call_command("export_archive", "--event", "nope", "-o", str(out))
    call_command("compare_results", "-o", str(digest))

    empty_database()
    with pytest.raises(CommandError, match="differ"):
        call_command("compare_results", "--against", str(digest))
    text = io.StringIO()
    call_command("import_archive", str(out), "--dry-run", stdout=text)
    assert "readable" in text.getvalue() and not Club.objects.exists()
    call_command("import_archive", str(out), stdout=text)
    assert "Imported" in text.getvalue()
    call_command("import_archive", str(out), stdout=text)
    assert "Already imported" in text.getvalue()
    call_command("compare_results", "--against", str(digest), stdout=text)
    assert "identical" in text.getvalue()
    tampered = tmp_path / "tampered.zip"
    tampered.write_bytes(rezip(out.read_bytes(), lambda m: m.pop("rounds.json"), manifest=False))
    with pytest.raises(CommandError, match="altered"):
        call_command("import_archive", str(tampered))


def test_the_import_command_exits_1_on_a_refusal(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"junk")
    done = subprocess.run(
        [sys.executable, "manage.py", "import_archive", str(bad)],
        capture_output=True,
        text=True,
        env={**os.environ, "DEBUG": "1", "DATABASE_URL": "sqlite:///:memory:"},
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "not a zip archive" in done.stderr
