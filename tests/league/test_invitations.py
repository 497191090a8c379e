"""Invitations to a club: organiser, referee, a player's account. The link carries the
secret (only its hash is kept); it works once, expires and can be revoked; accepting
asks for a log-in, shows what is accepted, and a POST accepts. Abuse: expired, revoked,
used, unknown and overlong links; strangers; two accepts at once (PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import smtplib
import threading
from typing import Any

import pytest
from django.core import mail
from django.db import connection, connections
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from league.audit import AuditEntry
from league.clubs import invitations as inv
from league.clubs.models import ClubOrganiser, Invitation, Player, Referee
from league.errors import UserError
from tests.league.factories import (
    ClubFactory,
    ClubOrganiserFactory,
    MembershipFactory,
    PlayerFactory,
    RefereeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def organiser_and_club() -> tuple[Any, Any]:
    row = ClubOrganiserFactory()
    return row.user, row.club


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def link_of(response: Any) -> str:
    text = response.content.decode()
    start = text.index('id="invitation-link" readonly value="') + len(
        'id="invitation-link" readonly value="'
    )
    return text[start : text.index('"', start)]


# --- creating -------------------------------------------------------------------------------


def test_organiser_creates_an_invitation_the_link_is_shown_once_and_mailed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    organiser, club = organiser_and_club()
    c = client_for(organiser)
    with_mail = {"role": "referee", "email": "ref@example.org", "player": ""}
    with django_capture_on_commit_callbacks(execute=True):
        response = c.post(f"/manage/clubs/{club.slug}/invite/", with_mail)
    assert response.status_code == 200
    link = link_of(response)
    token = link.rstrip("/").rsplit("/", 1)[1]
    invitation = Invitation.objects.get()
    assert invitation.token_hash == inv.token_hash(token) and token not in invitation.token_hash
    assert invitation.expires_at - timezone.now() > dt.timedelta(days=6, hours=23)
    assert len(mail.outbox) == 1 and link in mail.outbox[0].body
    assert mail.outbox[0].to == ["ref@example.org"]
    assert AuditEntry.objects.filter(action="invitation.create").count() == 1
    page = c.get(f"/manage/clubs/{club.slug}/people/")
    assert "ref@example.org" in page.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other_organiser"])
def test_only_the_clubs_organisers_invite(who: str) -> None:
    _organiser, club = organiser_and_club()
    c = Client()
    if who == "stranger":
        c.force_login(UserFactory())
    elif who == "other_organiser":
        c.force_login(ClubOrganiserFactory().user)
    response = c.post(f"/manage/clubs/{club.slug}/invite/", {"role": "organiser"})
    assert response.status_code in (302, 403)
    if who != "anonymous":
        assert response.status_code == 403
    assert not Invitation.objects.exists()
    assert c.get(f"/manage/clubs/{club.slug}/people/").status_code in (302, 403)


def test_a_player_invitation_names_a_player_of_the_club_not_linked() -> None:
    organiser, club = organiser_and_club()
    outsider = PlayerFactory()
    with pytest.raises(UserError) as e:
        inv.create_invitation(organiser, club, role="player", player=outsider)
    assert e.value.code == "invitation.not_member"
    with pytest.raises(UserError) as e:
        inv.create_invitation(organiser, club, role="player")
    assert e.value.code == "invitation.player"
    linked = PlayerFactory(user=UserFactory())
    MembershipFactory(player=linked, club=club)
    with pytest.raises(UserError) as e:
        inv.create_invitation(organiser, club, role="player", player=linked)
    assert e.value.code == "invitation.player_linked"


# --- accepting ------------------------------------------------------------------------------


def test_accepting_asks_for_a_log_in_shows_the_offer_and_makes_an_organiser() -> None:
    organiser, club = organiser_and_club()
    _invitation, token = inv.create_invitation(organiser, club, role="organiser")
    url = f"/invitations/{token}/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert "next=/invitations/" in anonymous["Location"]
    newcomer = UserFactory()
    c = client_for(newcomer)
    page = c.get(url)
    assert page.status_code == 200 and club.name in page.content.decode()
    assert not ClubOrganiser.objects.filter(user=newcomer).exists()  # a GET changes nothing
    response = c.post(url)
    assert response.status_code == 302
    assert ClubOrganiser.objects.filter(user=newcomer, club=club).exists()
    invitation = Invitation.objects.get()
    assert invitation.accepted_by == newcomer and invitation.accepted_at is not None
    assert AuditEntry.objects.filter(action="invitation.accept", actor=newcomer).exists()


def test_a_referee_invitation_makes_or_links_the_referee_record() -> None:
    organiser, club = organiser_and_club()
    _i, token = inv.create_invitation(organiser, club, role="referee")
    user = UserFactory()
    inv.accept_invitation(user, token)
    assert Referee.objects.get(user=user).club == club
    # a referee of no club joins this one; a referee of another club is refused
    free = RefereeFactory(club=None)
    _i, token = inv.create_invitation(organiser, club, role="referee")
    inv.accept_invitation(free.user, token)
    free.refresh_from_db()
    assert free.club == club
    elsewhere = RefereeFactory(club=ClubFactory())
    _i, token = inv.create_invitation(organiser, club, role="referee")
    with pytest.raises(UserError) as e:
        inv.accept_invitation(elsewhere.user, token)
    assert e.value.code == "invitation.referee_elsewhere" and e.value.status == 409
    assert Invitation.objects.get(token_hash=inv.token_hash(token)).accepted_at is None


def test_a_player_invitation_links_one_account_to_one_player() -> None:
    organiser, club = organiser_and_club()
    player = PlayerFactory()
    MembershipFactory(player=player, club=club)
    _i, token = inv.create_invitation(organiser, club, role="player", player=player)
    already = PlayerFactory(user=UserFactory())
    with pytest.raises(UserError) as e:
        inv.accept_invitation(already.user, token)
    assert e.value.code == "invitation.already_player"
    user = UserFactory()
    response = client_for(user).post(f"/invitations/{token}/")
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.user == user


# --- abuse ----------------------------------------------------------------------------------


def test_expired_revoked_used_and_unknown_links_answer_4xx_pages() -> None:
    organiser, club = organiser_and_club()
    user = UserFactory()
    c = client_for(user)
    expired, expired_token = inv.create_invitation(organiser, club, role="organiser")
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now())
    revoked, revoked_token = inv.create_invitation(organiser, club, role="organiser")
    client_for(organiser).post(f"/manage/clubs/{club.slug}/invitations/{revoked.pk}/revoke/")
    _used, used_token = inv.create_invitation(organiser, club, role="referee")
    inv.accept_invitation(UserFactory(), used_token)
    cases = {
        expired_token: (410, "expired"),
        revoked_token: (410, "revoked"),
        used_token: (409, "already been accepted"),
        "not-a-token": (404, "not valid"),
        "x" * 500: (404, "not valid"),
    }
    for token, (status, words) in cases.items():
        response = c.get(f"/invitations/{token}/")
        assert response.status_code == status, token
        assert words in response.content.decode()
        # a refused POST goes back with the sentence as a message (the pages' convention;
        # a 404 is a page of its own)
        response = c.post(f"/invitations/{token}/", HTTP_REFERER=f"/invitations/{token}/")
        assert response.status_code == (404 if status == 404 else 302)
        # anonymous visitors learn the same, without logging in first
        assert Client().get(f"/invitations/{token}/").status_code == status
    assert not ClubOrganiser.objects.filter(user=user).exists()
    assert not Referee.objects.filter(user=user).exists()
    for token, code in ((expired_token, "expired"), (revoked_token, "revoked")):
        with pytest.raises(UserError) as e:
            inv.accept_invitation(user, token)
        assert e.value.code == f"invitation.{code}"


def test_revoking_is_for_the_clubs_organisers_and_only_while_pending() -> None:
    organiser, club = organiser_and_club()
    invitation, token = inv.create_invitation(organiser, club, role="organiser")
    other = ClubOrganiserFactory().user
    response = client_for(other).post(
        f"/manage/clubs/{club.slug}/invitations/{invitation.pk}/revoke/"
    )
    assert response.status_code == 403
    with pytest.raises(UserError) as e:
        inv.revoke_invitation(other, invitation)
    assert e.value.code == "not_allowed"
    inv.revoke_invitation(organiser, invitation)
    assert AuditEntry.objects.filter(action="invitation.revoke").count() == 1
    with pytest.raises(UserError) as e:
        inv.revoke_invitation(organiser, invitation)
    assert e.value.code == "invitation.revoked"
    used, used_token = inv.create_invitation(organiser, club, role="organiser")
    inv.accept_invitation(UserFactory(), used_token)
    with pytest.raises(UserError) as e:
        inv.revoke_invitation(organiser, used)
    assert e.value.code == "invitation.used"
    assert token  # the revoked link stays refused (above)


def test_an_inactive_account_cannot_accept() -> None:
    organiser, club = organiser_and_club()
    _i, token = inv.create_invitation(organiser, club, role="organiser")
    sleeper = UserFactory(is_active=False)
    with pytest.raises(UserError) as e:
        inv.accept_invitation(sleeper, token)
    assert e.value.code == "not_allowed"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL; SQLite locks the file"
)
def test_two_accepts_of_one_link_at_once_make_one_organiser() -> None:
    organiser, club = organiser_and_club()
    _i, token = inv.create_invitation(organiser, club, role="organiser")
    users = [UserFactory(), UserFactory()]
    barrier = threading.Barrier(2)
    results: list[Any] = [None, None]

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = inv.accept_invitation(users[i], token)
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    losses = [r for r in results if isinstance(r, Exception)]
    assert len(losses) == 1, results
    assert isinstance(losses[0], UserError) and losses[0].code == "invitation.used"
    assert ClubOrganiser.objects.filter(club=club).count() == 2  # the inviter and one winner
    assert Player.objects.count() == 0


# --- the API --------------------------------------------------------------------------------


def test_the_invitations_api_creates_lists_accepts_and_revokes() -> None:
    organiser, club = organiser_and_club()
    api = APIClient()
    api.force_authenticate(organiser)
    created = api.post(
        f"/api/v1/clubs/{club.slug}/invitations/", {"role": "referee"}, format="json"
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    token = body["link"].rstrip("/").rsplit("/", 1)[1]
    assert body["role"] == "referee" and "token_hash" not in body
    listed = api.get(f"/api/v1/clubs/{club.slug}/invitations/").json()
    assert [i["id"] for i in listed] == [body["id"]] and "link" not in listed[0]

    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.get(f"/api/v1/clubs/{club.slug}/invitations/").status_code == 403
    assert (
        stranger.post(f"/api/v1/clubs/{club.slug}/invitations/{body['id']}/revoke/").status_code
        == 403
    )
    assert APIClient().post("/api/v1/invitations/accept/", {"token": token}).status_code in (
        401,
        403,
    )
    accepted = stranger.post("/api/v1/invitations/accept/", {"token": token}, format="json")
    assert accepted.status_code == 200, accepted.json()
    again = stranger.post("/api/v1/invitations/accept/", {"token": token}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "invitation.used"

    second = api.post(
        f"/api/v1/clubs/{club.slug}/invitations/", {"role": "organiser"}, format="json"
    ).json()
    revoked = api.post(f"/api/v1/clubs/{club.slug}/invitations/{second['id']}/revoke/")
    assert revoked.status_code == 200
    late = stranger.post(
        "/api/v1/invitations/accept/",
        {"token": second["link"].rstrip("/").rsplit("/", 1)[1]},
        format="json",
    )
    assert late.status_code == 410 and late.json()["code"] == "invitation.revoked"
    unknown = stranger.post("/api/v1/invitations/accept/", {"token": "nope"}, format="json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "invitation.unknown"
    bad_role = api.post(f"/api/v1/clubs/{club.slug}/invitations/", {"role": "king"}, format="json")
    assert bad_role.status_code == 400


def test_a_mail_server_failure_keeps_the_invitation_and_its_link(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise smtplib.SMTPException("down")

    monkeypatch.setattr("league.mail.send_mail", refuse)
    organiser, club = organiser_and_club()
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(organiser).post(
            f"/manage/clubs/{club.slug}/invite/", {"role": "organiser", "email": "a@example.org"}
        )
    assert response.status_code == 200 and "/invitations/" in link_of(response)
    assert Invitation.objects.count() == 1


def test_a_refused_invitation_form_keeps_what_was_typed() -> None:
    organiser, club = organiser_and_club()
    response = client_for(organiser).post(
        f"/manage/clubs/{club.slug}/invite/",
        {"role": "player", "email": "typed@example.org", "player": "nosuchplayer"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="typed@example.org"' in page and 'value="nosuchplayer"' in page
    assert 'class="error"' in page
    assert not Invitation.objects.filter(club=club).exists()
