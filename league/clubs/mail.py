"""The invitation e-mail: sent in the request, after the commit, in the organiser's
language (as the accounts' e-mails are: invitations are rare and the organiser holds the
link anyway). An SMTP failure is logged and reported, never a 500."""

from __future__ import annotations

from league.clubs.models import Invitation
from league.mail import send_rendered


def send_invitation(invitation: Invitation, link: str) -> bool:
    """Mail ``link`` to the invitation's address; False (logged) when sending failed."""
    if not invitation.email:
        return False
    context = {"invitation": invitation, "club": invitation.club, "link": link}
    return send_rendered(
        "league/email/invitation_subject.txt",
        "league/email/invitation.txt",
        context,
        invitation.email,
        what=f"invitation {invitation.pk}",
    )
