"""Personal event pages (issue #18, item 5): a private link for each registered player
and each referee of an event, usable without logging in.

The link's secret is derived from the site's secret key and the link's ``nonce``
(:func:`token_for`); the database keeps only its SHA-256 (``token_hash``), looked up,
then the secret is compared again in constant time. Regenerating draws a new nonce (the
old link stops working), revoking ends the link; both are organiser actions, audited.

What a page shows declares its release gate: seats of released rounds only
(:data:`league.permissions.PUBLIC_ROUND_STATUSES`), no role ever; a referee's tables of
the rounds a referee may read (:data:`league.permissions.REFEREE_ROUND_STATUSES`).
Released results come from whoever registered a reader (:func:`register_results_reader`:
the results app, at start-up — the league cannot import it).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy as _

from league import permissions as perms
from league.audit import audit
from league.clubs.models import Player, Referee
from league.errors import UserError, require
from league.events.models import Event, PersonalLink, Registration, Round, Seat, Table
from league.events.services import OPEN_STATUSES, lock_event
from league.permissions import Viewer

SALT = "league.events.personal"
TOKEN_LENGTH = 32
_TOKEN = re.compile(r"^[0-9a-f]{32}$")


# --- tokens ---------------------------------------------------------------------------------


def token_for(link: PersonalLink) -> str:
    """The secret the link's URL carries (128 bits, hex)."""
    return salted_hmac(SALT, link.nonce, algorithm="sha256").hexdigest()[:TOKEN_LENGTH]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _fresh(link: PersonalLink) -> None:
    link.nonce = secrets.token_hex(16)
    link.token_hash = _hash(token_for(link))


def link_for_token(token: str) -> PersonalLink | None:
    """The live link ``token`` opens, or None (unknown, malformed, revoked, or a referee
    no longer listed for the event: a 404)."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    link = (
        PersonalLink.objects.select_related("event__club", "registration__player", "referee__user")
        .filter(token_hash=_hash(token), revoked=False)
        .first()
    )
    if link is None or not constant_time_compare(token_for(link), token):
        return None
    if link.referee_id is not None and not link.event.referees.filter(pk=link.referee_id).exists():
        return None  # no longer a referee of the event
    return link


# --- links: made on demand, regenerated, revoked --------------------------------------------


def ensure_links(event: Event) -> None:
    """Give every registered or waiting player, and every referee, of ``event`` a link
    (one insert for those missing; revoked links stay revoked)."""
    have_regs = set(
        PersonalLink.objects.filter(event=event, registration__isnull=False).values_list(
            "registration_id", flat=True
        )
    )
    have_refs = set(
        PersonalLink.objects.filter(event=event, referee__isnull=False).values_list(
            "referee_id", flat=True
        )
    )
    new: list[PersonalLink] = []
    regs = Registration.objects.filter(event=event).exclude(status=Registration.Status.WITHDRAWN)
    for reg_id in regs.values_list("pk", flat=True):
        if reg_id not in have_regs:
            new.append(PersonalLink(event=event, registration_id=reg_id))
    for ref_id in event.referees.values_list("pk", flat=True):
        if ref_id not in have_refs:
            new.append(PersonalLink(event=event, referee_id=ref_id))
    for link in new:
        _fresh(link)
    PersonalLink.objects.bulk_create(new, ignore_conflicts=True)


def player_tokens(event: Event) -> dict[int, str]:
    """Player pk → the secret of their live link in ``event`` (for the printed sheets)."""
    ensure_links(event)
    links = PersonalLink.objects.filter(
        event=event, registration__isnull=False, revoked=False
    ).values_list("registration__player_id", "nonce")
    return {player_id: token_for(PersonalLink(nonce=nonce)) for player_id, nonce in links}


@dataclass
class LinkInfo:
    """A link as the registrations page shows it (``token`` None: revoked)."""

    pk: int
    token: str | None


def attach_links(event: Event, registrations: Sequence[Registration]) -> None:
    """Give each registration a ``personal`` :class:`LinkInfo` (or None) for the page."""
    ensure_links(event)
    links = {
        link.registration_id: LinkInfo(link.pk, None if link.revoked else token_for(link))
        for link in PersonalLink.objects.filter(event=event, registration__isnull=False)
    }
    for reg in registrations:
        reg.personal = links.get(reg.pk)  # type: ignore[attr-defined]


def referee_links(event: Event) -> list[tuple[Referee, LinkInfo | None]]:
    """Each referee of ``event`` and their link."""
    ensure_links(event)
    links = {
        link.referee_id: LinkInfo(link.pk, None if link.revoked else token_for(link))
        for link in PersonalLink.objects.filter(event=event, referee__isnull=False)
    }
    return [(ref, links.get(ref.pk)) for ref in event.referees.select_related("user")]


def referee_tokens(event: Event) -> list[tuple[Referee, str | None]]:
    return [(ref, info.token if info else None) for ref, info in referee_links(event)]


def own_token(registration: Registration) -> str | None:
    """The secret of a player's own link (shown to them on the event page when signed in)."""
    ensure_links(registration.event)
    link = PersonalLink.objects.filter(registration=registration, revoked=False).first()
    return token_for(link) if link else None


@transaction.atomic
def regenerate_link(actor: Viewer, link: PersonalLink) -> str:
    """A new secret for ``link`` (the old one stops working; a revoked link lives again)."""
    require(perms.can_manage_event(actor, link.event))
    lock_event(link.event)
    link.refresh_from_db()
    _fresh(link)
    link.revoked = False
    link.save(update_fields=["nonce", "token_hash", "revoked"])
    audit(actor, "personal_link.regenerate", link, event=link.event)
    return token_for(link)


@transaction.atomic
def revoke_link(actor: Viewer, link: PersonalLink) -> None:
    require(perms.can_manage_event(actor, link.event))
    lock_event(link.event)
    link.revoked = True
    link.save(update_fields=["revoked"])
    audit(actor, "personal_link.revoke", link, event=link.event)


# --- self check-in ---------------------------------------------------------------------------


def check_in_window(event: Event) -> tuple[dt.datetime, dt.datetime]:
    """When a player may check themselves in: from ``check_in_opens_minutes`` before the
    first round's start to ``check_in_closes_minutes`` after it; without round times,
    the event's days in the club's time zone."""
    first = (
        Round.objects.filter(event=event, starts_at__isnull=False)
        .order_by("starts_at")
        .values_list("starts_at", flat=True)
        .first()
    )
    if first is not None:
        return (
            first - dt.timedelta(minutes=event.check_in_opens_minutes),
            first + dt.timedelta(minutes=event.check_in_closes_minutes),
        )
    zone = timezone.get_current_timezone()
    opens = dt.datetime.combine(event.starts_on, dt.time.min, tzinfo=zone)
    closes = dt.datetime.combine(event.ends_on + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return opens, closes


def _local(value: dt.datetime) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M")


@transaction.atomic
def self_check_in(link: PersonalLink) -> Registration:
    """A player checks in from their personal link, within the check-in window only."""
    event = lock_event(link.event)
    registration = link.registration
    if registration is None:
        raise UserError(_("Only a player checks in."), code="not_a_player", status=409)
    registration.refresh_from_db()
    if registration.status != Registration.Status.REGISTERED:
        raise UserError(
            _("Only a registered player can check in."), code="not_registered", status=409
        )
    if event.status not in OPEN_STATUSES:
        raise UserError(_("Check-in is closed for this event."), code="closed", status=409)
    opens, closes = check_in_window(event)
    now = timezone.now()
    if not opens <= now <= closes:
        raise UserError(
            _("You can check yourself in from %(opens)s to %(closes)s."),
            code="check_in_window",
            params={"opens": _local(opens), "closes": _local(closes)},
            status=409,
        )
    if registration.checked_in_at is None:
        registration.checked_in_at = now
        registration.save(update_fields=["checked_in_at"])
        audit(
            registration.player.user,
            "registration.self_check_in",
            registration,
            event=event,
            player=registration.player.handle,
        )
    return registration


# --- what the pages read ---------------------------------------------------------------------

#: Reads a player's released results in an event: rows of plain values
#: (``round``, ``table``, ``seat``, ``outcome``, ``points``, ``game``).
ResultsReader = Callable[[Event, Player], Sequence[Mapping[str, Any]]]
_results_readers: list[ResultsReader] = []


def register_results_reader(reader: ResultsReader) -> None:
    """Called at start-up by the app that computes results (``results.apps``)."""
    if reader not in _results_readers:
        _results_readers.append(reader)


OUTCOMES = {"win": _("win"), "loss": _("loss"), "draw": _("draw")}


def released_results(event: Event, player: Player) -> list[Mapping[str, Any]]:
    """Every registered reader's rows, each with ``outcome_label`` in the reader's words."""
    return [
        {**row, "outcome_label": OUTCOMES.get(str(row.get("outcome")), row.get("outcome", ""))}
        for reader in _results_readers
        for row in reader(event, player)
    ]


NOTICES = {
    "promoted": _(
        "A place freed up and you were next on the waiting list: you are now registered."
    ),
}


@dataclass
class PlayerPage:
    event: Event
    registration: Registration
    seats: list[Seat]
    current: Seat | None
    window: tuple[dt.datetime, dt.datetime]
    can_check_in: bool
    waiting_position: int | None
    notices: list[Any] = field(default_factory=list)
    results: list[Mapping[str, Any]] = field(default_factory=list)


def player_page(link: PersonalLink, waiting_position: int | None) -> PlayerPage:
    """A player's page: their seats in released rounds (never a role), the check-in
    window, notices and released results."""
    assert link.registration is not None
    reg = link.registration
    event = link.event
    seats = list(
        Seat.objects.filter(
            player_id=reg.player_id,
            round__event=event,
            round__status__in=perms.PUBLIC_ROUND_STATUSES,
        )
        .select_related("round", "table__referee__user")
        .order_by("round__number")
    )
    window = check_in_window(event)
    now = timezone.now()
    return PlayerPage(
        event=event,
        registration=reg,
        seats=seats,
        current=seats[-1] if seats else None,
        window=window,
        can_check_in=(
            reg.status == Registration.Status.REGISTERED
            and reg.checked_in_at is None
            and event.status in OPEN_STATUSES
            and window[0] <= now <= window[1]
        ),
        waiting_position=waiting_position,
        notices=[
            {"text": NOTICES[n["code"]], "at": dt.datetime.fromisoformat(n["at"])}
            for n in reg.notices
            if n.get("code") in NOTICES
        ],
        results=released_results(event, reg.player),
    )


def referee_tables(link: PersonalLink) -> list[Table]:
    """A referee's tables in the rounds a referee may read, by round."""
    return list(
        Table.objects.filter(
            round__event=link.event,
            referee=link.referee,
            round__status__in=perms.REFEREE_ROUND_STATUSES,
        )
        .select_related("round")
        .order_by("round__number", "number")
    )


def event_rounds(event: Event) -> list[Round]:
    return list(Round.objects.filter(event=event).order_by("number"))
