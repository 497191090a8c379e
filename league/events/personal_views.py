"""Personal event pages (``/e/<secret>/``), usable without logging in, and the organiser's
actions on the links (regenerate, revoke). See :mod:`league.events.personal`.

The secret is in the URL: the pages are never cached and send no referrer to other sites, and an
unknown, malformed or revoked secret is a 404 like any missing page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league import permissions as perms
from league.errors import UserError
from league.events import personal, waitlist
from league.events.calendar import personal_calendar, round_title
from league.events.models import PersonalLink, Registration
from league.middleware import use_club_timezone
from league.pages import back, page_action


def _link(token: str) -> PersonalLink:
    link = personal.link_for_token(token)
    if link is None:
        raise Http404
    use_club_timezone(link.event.club)
    return link


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store, private"
    response["Referrer-Policy"] = "same-origin"  # no-referrer would send Origin: null
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _render(
    request: HttpRequest, link: PersonalLink, token: str, error: str = "", status: int = 200
) -> HttpResponse:
    context = {"event": link.event, "token": token, "error": error}
    if link.registration is not None:
        context["page"] = personal.player_page(link, waitlist.position(link.registration))
        template = "league/personal_player.html"
    else:
        context["referee"] = link.referee
        context["tables"] = personal.referee_tables(link)
        template = "league/personal_referee.html"
    context["ics_url"] = request.build_absolute_uri(reverse("personal-calendar", args=[token]))
    return _private(render(request, template, context, status=status))


@require_GET
def personal_page(request: HttpRequest, token: str) -> HttpResponse:
    return _render(request, _link(token), token)


@require_POST
def personal_check_in(request: HttpRequest, token: str) -> HttpResponse:
    """Self check-in; a refusal (outside the window, not registered) is shown on the page
    with its status (409), which keeps the player where they are."""
    link = _link(token)
    try:
        personal.self_check_in(link)
    except UserError as exc:
        return _render(request, link, token, error=str(exc.message), status=exc.status)
    messages.success(request, _("You are checked in."))
    return _private(redirect("personal-page", token=token))


@require_GET
def personal_ics(request: HttpRequest, token: str) -> HttpResponse:
    """The person's own rounds: seat (players, released rounds) or table (referees)."""
    link = _link(token)
    event = link.event
    entries = []
    if link.registration is not None:
        seats = {s.round_id: s for s in personal.player_page(link, None).seats}
        playing = link.registration.status == Registration.Status.REGISTERED
        for rnd in personal.event_rounds(event):
            if rnd.starts_at is None or not (playing or rnd.pk in seats):
                continue
            title = round_title(event.name, rnd.number)
            seat = seats.get(rnd.pk)
            if seat is not None:
                title += " · " + _("table %(table)s, seat %(seat)s") % {
                    "table": seat.table.number,
                    "seat": seat.number,
                }
            entries.append(
                (f"personal-{link.pk}-round-{rnd.pk}", rnd.starts_at, title, event.venue)
            )
    else:
        for table in personal.referee_tables(link):
            if table.round.starts_at is None:
                continue
            title = (
                round_title(event.name, table.round.number)
                + " · "
                + _("referee at table %(table)s") % {"table": table.number}
            )
            uid = f"personal-{link.pk}-table-{table.pk}"
            entries.append((uid, table.round.starts_at, title, event.venue))
    body = personal_calendar(
        event.name, entries, base_url=request.build_absolute_uri("/").rstrip("/")
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{event.slug}.ics"'
    return _private(response)


def _managed_link(request: HttpRequest, pk: int, link_pk: int) -> PersonalLink:
    link = get_object_or_404(
        PersonalLink.objects.select_related("event__club"), pk=link_pk, event_id=pk
    )
    if not perms.access_for(request).can_manage_event(link.event):
        raise Http404
    return link


@page_action
def link_regenerate(request: HttpRequest, pk: int, link_pk: int) -> HttpResponse:
    link = _managed_link(request, pk, link_pk)
    personal.regenerate_link(request.user, link)
    messages.success(request, _("A new personal link was made; the old one no longer works."))
    return back(request, reverse("event-registrations", args=[pk]))


@page_action
def link_revoke(request: HttpRequest, pk: int, link_pk: int) -> HttpResponse:
    link = _managed_link(request, pk, link_pk)
    personal.revoke_link(request.user, link)
    messages.success(request, _("The personal link no longer works."))
    return back(request, reverse("event-registrations", args=[pk]))
