"""iCalendar (RFC 5545) feed of a club's upcoming events, one entry per round.

Written by hand: the format is small, and escaping, CRLF line ends and 75-octet line
folding are all it needs. Each round with a start time becomes a timed event; an event
without round times becomes one all-day entry.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from league.clubs.models import Club
from league.events.models import Event

ROUND_LENGTH = dt.timedelta(minutes=90)


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def escape(text: str) -> str:
    """An RFC 5545 TEXT value: backslash, ``;`` and ``,`` escaped, every line break (CRLF,
    CR or LF) as ``\\n``, other control characters dropped (a bare CR would end the line)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return _CONTROL.sub("", text.replace("\n", "\\n"))


def fold(line: str) -> str:
    """Fold a content line at 75 octets without splitting a UTF-8 character."""
    out: list[str] = []
    current = ""
    limit = 75
    for char in line:
        if len((current + char).encode()) > limit:
            out.append(current)
            current = " " + char
            limit = 75
        else:
            current += char
    out.append(current)
    return "\r\n".join(out)


def _round_title(event: str, number: int) -> str:
    """ "<event> — round N" in the reader's language (the same words as ``Round.__str__``)."""
    return gettext("%(event)s — round %(n)s") % {"event": event, "n": number}


def _utc(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def club_calendar(club: Club, events: Iterable[Event], *, base_url: str) -> str:
    host = base_url.split("//", 1)[-1].split("/", 1)[0] or "tianhei"
    stamp = _utc(timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Tianhei//League calendar//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(club.name)}",
    ]
    for event in events:
        url = base_url + reverse("public-event", args=[club.slug, event.slug])
        rounds = [r for r in event.rounds.all() if r.starts_at]
        common = [f"LOCATION:{escape(event.venue)}"] if event.venue else []
        common.append(f"URL:{url}")
        if not rounds:
            lines += [
                "BEGIN:VEVENT",
                f"UID:event-{event.pk}@{host}",
                f"DTSTAMP:{stamp}",
                f"DTSTART;VALUE=DATE:{event.starts_on:%Y%m%d}",
                f"DTEND;VALUE=DATE:{event.ends_on + dt.timedelta(days=1):%Y%m%d}",
                f"SUMMARY:{escape(event.name)}",
                *common,
                "END:VEVENT",
            ]
        for rnd in rounds:
            assert rnd.starts_at is not None
            lines += [
                "BEGIN:VEVENT",
                f"UID:round-{rnd.pk}@{host}",
                f"DTSTAMP:{stamp}",
                f"DTSTART:{_utc(rnd.starts_at)}",
                f"DTEND:{_utc(rnd.starts_at + ROUND_LENGTH)}",
                f"SUMMARY:{escape(_round_title(event.name, rnd.number))}",
                *common,
                "END:VEVENT",
            ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(fold(line) for line in lines) + "\r\n"


def personal_calendar(
    name: str, entries: Iterable[tuple[str, dt.datetime, str, str]], *, base_url: str
) -> str:
    """A personal feed: one timed entry per ``(uid, start, summary, location)``."""
    host = base_url.split("//", 1)[-1].split("/", 1)[0] or "tianhei"
    stamp = _utc(timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Tianhei//Personal calendar//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(name)}",
    ]
    for uid, start, summary, location in entries:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{uid}@{host}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{_utc(start)}",
            f"DTEND:{_utc(start + ROUND_LENGTH)}",
            f"SUMMARY:{escape(summary)}",
            *([f"LOCATION:{escape(location)}"] if location else []),
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(fold(line) for line in lines) + "\r\n"


def round_title(event: str, number: int) -> str:
    return _round_title(event, number)
