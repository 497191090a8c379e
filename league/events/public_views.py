"""Public event pages (under ``/clubs/``): a club, its calendar, an event and its rounds.

They declare their release gate: they only ever read
:func:`league.events.selectors.public_rounds`.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import permissions as perms
from league.clubs.models import Club, Player
from league.errors import UserError
from league.events import personal, selectors, services, waitlist
from league.events.calendar import club_calendar
from league.events.models import Event, Registration, Round
from league.middleware import use_club_timezone
from league.pages import page_action
from league.stages.selectors import event_stages, has_stages


def _public_event(club_slug: str, event_slug: str) -> Event:
    event = get_object_or_404(selectors.public_events(), club__slug=club_slug, slug=event_slug)
    use_club_timezone(event.club)
    return event


def club_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    use_club_timezone(club)
    return render(
        request,
        "league/club.html",
        {
            "club": club,
            "events": selectors.upcoming_events(club),
            "ics_url": request.build_absolute_uri(reverse("club-calendar", args=[club.slug])),
        },
    )


def club_ics(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    body = club_calendar(
        club,
        list(selectors.upcoming_events(club)),
        base_url=request.build_absolute_uri("/").rstrip("/"),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{club.slug}.ics"'
    return response


def public_event(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    """Release gate: :func:`selectors.public_rounds` — released rounds only."""
    event = _public_event(club_slug, event_slug)
    rounds = selectors.public_rounds(event)
    schedule = (
        Round.objects.filter(event=event).order_by("number").only("number", "starts_at", "status")
    )
    mine = selectors.own_registration(request.user, event)
    live = mine is not None and mine.status != Registration.Status.WITHDRAWN
    return render(
        request,
        "league/public_event.html",
        {
            "event": event,
            "rounds": rounds,
            "schedule": schedule,
            "can_register": perms.access_for(request).can_register_self(event),
            "my_registration": mine,
            "my_position": waitlist.position(mine) if mine is not None else None,
            "my_token": personal.own_token(mine) if live and mine is not None else None,
            "places_taken": waitlist.registered_count(event) if event.capacity else None,
            "stages": event_stages(event) if has_stages(event) else [],
        },
    )


def public_round(
    request: HttpRequest, club_slug: str, event_slug: str, number: int
) -> HttpResponse:
    """Release gate: :func:`selectors.public_rounds` — a draft round is a 404, not a 403."""
    event = _public_event(club_slug, event_slug)
    rnd = next((r for r in selectors.public_rounds(event) if r.number == number), None)
    if rnd is None:
        raise Http404
    return render(
        request,
        "league/public_round.html",
        {
            "event": event,
            "round": rnd,
            "schedules": selectors.player_schedules([rnd]),
        },
    )


@page_action
def register_self(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    event = _public_event(club_slug, event_slug)
    player: Player | None = getattr(request.user, "player", None)
    if player is None:  # only a player's own account registers itself
        raise UserError(gettext_lazy("You may not do this."), code="not_allowed", status=403)
    reg = services.register_player(request.user, event, player)
    if reg.status == Registration.Status.WAITLISTED:
        messages.success(
            request,
            _("The event is full: you are number %(n)s on the waiting list.")
            % {"n": waitlist.position(reg)},
        )
    else:
        messages.success(request, _("You are registered."))
    return redirect("public-event", club_slug=club_slug, event_slug=event_slug)
