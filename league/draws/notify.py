"""The "round released" e-mail: each seated player with an address who wants it hears
their table, seat, referee and start time, in their language and their club's time zone.
Never a role: roles stay secret until the games are released."""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.utils import timezone, translation

from league.clubs.profiles import opted_out, preferred_language, send_once
from league.events.models import Round, Seat
from league.mail import send_rendered

KIND = "round_released"


def send_round_released(round_id: int) -> int:
    """E-mail every seated player of the released round ``round_id`` (at most once each:
    :func:`league.clubs.profiles.send_once`); returns how many e-mails were sent now."""
    rnd = (
        Round.objects.select_related("event__club")
        .filter(pk=round_id, status=Round.Status.RELEASED)
        .first()
    )
    if rnd is None:
        return 0
    seats = [
        s
        for s in Seat.objects.filter(round=rnd, player__user__isnull=False)
        .select_related("player__user", "table__referee__user")
        .order_by("table__number", "number")
        if s.player.user is not None and s.player.user.email
    ]
    out = opted_out([s.player.user_id for s in seats if s.player.user_id], "notify_round_released")
    sent = 0
    for seat in seats:
        user = seat.player.user
        if user is None or user.pk in out:
            continue
        language = preferred_language(user) or settings.LANGUAGE_CODE
        with translation.override(language), timezone.override(rnd.event.club.timezone):
            sent += send_once(KIND, rnd.pk, user, partial(_send, rnd, seat, user.email))
    return sent


def _send(rnd: Round, seat: Seat, to: str) -> bool:
    context = {
        "round": rnd,
        "event": rnd.event,
        "player": seat.player,
        "table": seat.table,
        "seat": seat,
        "referee": seat.table.referee,
    }
    return send_rendered(
        "league/email/round_released_subject.txt",
        "league/email/round_released.txt",
        context,
        to,
        what=f"round-released e-mail for round {rnd.pk}, seat {seat.pk}",
    )
