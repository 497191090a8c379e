"""The "game confirmed or corrected" e-mail to the players seated at its table, in their
language. Roles are secret until release: before it the e-mail says only that the game
was confirmed (or corrected) and that results appear when the organiser releases them;
for a released game it links to the game's page."""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.models import Game, GameVersion
from league.clubs.profiles import opted_out, preferred_language, send_once
from league.mail import send_rendered
from league.models import Seat

KIND = "game_confirmed"


def send_game_confirmed(version_id: int) -> int:
    """E-mail the players of the game whose version ``version_id`` was confirmed (at most
    once each per version); returns how many e-mails were sent now. A version superseded
    since, or a game off its table (voided), is not written about."""
    version = (
        GameVersion.objects.select_related("game__table__round__event__club")
        .filter(pk=version_id, status=GameVersion.Status.CONFIRMED, game__table__isnull=False)
        .first()
    )
    if version is None or version.game.table is None:
        return 0
    game = version.game
    seats = [
        s
        for s in Seat.objects.filter(table=game.table, player__user__isnull=False)
        .select_related("player__user")
        .order_by("number")
        if s.player.user is not None and s.player.user.email
    ]
    out = opted_out([s.player.user_id for s in seats if s.player.user_id], "notify_game_results")
    sent = 0
    for seat in seats:
        user = seat.player.user
        if user is None or user.pk in out:
            continue
        with translation.override(preferred_language(user) or settings.LANGUAGE_CODE):
            sent += send_once(KIND, version.pk, user, partial(_send, version, seat, user.email))
    return sent


def _send(version: GameVersion, seat: Seat, to: str) -> bool:
    game = version.game
    table = game.table
    assert table is not None
    released = game.status == Game.Status.RELEASED
    context = {
        "player": seat.player,
        "event": table.round.event,
        "round": table.round,
        "table": table,
        # a correction replaces a version that was confirmed before
        "correction": game.versions.filter(
            status=GameVersion.Status.SUPERSEDED, confirmed_at__isnull=False
        ).exists(),
        "released": released,
        # only a released game's page shows its result to the players
        "link": f"{settings.SITE_URL}{reverse('games:game', args=[game.pk])}" if released else "",
    }
    return send_rendered(
        "games/email/game_confirmed_subject.txt",
        "games/email/game_confirmed.txt",
        context,
        to,
        what=f"game-confirmed e-mail for version {version.pk}, seat {seat.pk}",
    )
