"""The invitation e-mail: sent in the request, after the commit, in the organiser's
language (as the accounts' e-mails are: invitations are rare and the organiser holds the
link anyway). An SMTP failure is logged and reported, never a 500."""

from __future__ import annotations

import logging
import smtplib

from django.core.mail import send_mail
from django.template.loader import render_to_string

from league.clubs.models import Invitation

logger = logging.getLogger(__name__)


def send_invitation(invitation: Invitation, link: str) -> bool:
    """Mail ``link`` to the invitation's address; False (logged) when sending failed."""
    if not invitation.email:
        return False
    context = {"invitation": invitation, "club": invitation.club, "link": link}
    subject = "".join(render_to_string("league/email/invitation_subject.txt", context).splitlines())
    body = render_to_string("league/email/invitation.txt", context)
    try:
        send_mail(subject, body, None, [invitation.email])
    except (smtplib.SMTPException, OSError) as exc:
        logger.error("invitation %s not mailed: %s", invitation.pk, exc)
        return False
    return True
