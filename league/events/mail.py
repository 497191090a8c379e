"""E-mail to players about their registration, in their preferred language."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from league.clubs.profiles import opted_out, preferred_language
from league.events.models import Registration
from league.mail import send_rendered


def send_promotion(registration_id: int) -> bool:
    """E-mail the player of ``registration_id`` that they left the waiting list and are
        registered. False (logged) when there is nobody to write to or SMTP fails; a
        registration withdrawn again since is not written about, nor a player who turned
    these e-mails off (``Preferences.notify_waitlist``)."""
    reg = (
        Registration.objects.select_related("player__user", "event__club")
        .filter(pk=registration_id, status=Registration.Status.REGISTERED)
        .first()
    )
    user = reg.player.user if reg is not None else None
    if reg is None or user is None or not user.email:
        return False
    if opted_out([user.pk], "notify_waitlist"):
        return False
    context = {"registration": reg, "event": reg.event, "player": reg.player}
    with translation.override(preferred_language(user) or settings.LANGUAGE_CODE):
        return send_rendered(
            "league/email/promoted_subject.txt",
            "league/email/promoted.txt",
            context,
            user.email,
            what=f"promotion e-mail for registration {reg.pk}",
        )
