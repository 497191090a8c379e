"""One way the site sends an e-mail: a subject and a body rendered from templates in the
active language, sent through Django's e-mail backend. A mail server's failure is logged
and answered False — the caller's page or task goes on (the link is shown, a new one can
be asked for) — never a 500."""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Mapping
from typing import Any

from django.core.mail import send_mail
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def send_rendered(
    subject_template: str, body_template: str, context: Mapping[str, Any], to: str, *, what: str
) -> bool:
    """Send ``body_template`` to ``to`` under ``subject_template`` (its lines joined: a
    subject is one line); False, logged as ``what``, when the mail server refused it."""
    subject = "".join(render_to_string(subject_template, dict(context)).splitlines())
    body = render_to_string(body_template, dict(context))
    try:
        send_mail(subject, body, None, [to])
    except (smtplib.SMTPException, OSError) as exc:
        logger.error("%s not sent: %s", what, exc)
        return False
    return True
