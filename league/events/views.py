"""Event pages for organisers, staff and referees (under ``/manage/``). Views stay thin:
reads come from selectors, writes go through services. Anonymous visitors are sent to
log in, everyone else without the right gets 403 (:mod:`league.permissions`). A refusal
of a service (:class:`league.errors.UserError`) is answered by the middleware
(:class:`league.errors.UserErrorMiddleware`); only a form that keeps what was typed
catches it, to show it beside the form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import segno
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import permissions as perms
from league.clubs.models import Club, Player
from league.clubs.selectors import organised_clubs
from league.clubs.services import create_player
from league.errors import CsvImportError, UserError, require
from league.events import conflicts as conflict_services
from league.events import personal, selectors, services, waitlist
from league.events.forms import AddPlayerForm, CsvImportForm, EventForm, RoundStartForm
from league.events.imports import import_players_csv
from league.events.models import Event, Registration, Round
from league.events.selectors import PlayerSchedule
from league.inputs import strict_int
from league.middleware import use_club_timezone
from league.pages import back, login_first, page_action


def event_for(
    request: HttpRequest, pk: int, check: Callable[[perms.LeagueAccess, Event], bool]
) -> Event:
    """The event ``pk`` if the request's access passes ``check`` (a question of
    :class:`~league.permissions.LeagueAccess`), in its club's time zone."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require(check(perms.access_for(request), event))
    use_club_timezone(event.club)
    return event


@login_first
def manage_home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "league/manage_home.html",
        {
            "events": selectors.managed_events(perms.access_for(request)),
            "clubs": organised_clubs(perms.access_for(request)),
            "refereed": selectors.refereed_events(perms.access_for(request)),
        },
    )


@login_first
def event_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    require(perms.access_for(request).can_create_event(club))
    use_club_timezone(club)
    form = EventForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(request.user, club, **form.service_kwargs())
        except UserError as exc:  # shown above the form, which keeps what was typed
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Event created."))
            return redirect("event-dashboard", pk=event.pk)
    return render(request, "league/event_form.html", {"form": form, "club": club})


@login_first
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    form = EventForm(request.POST or None, initial=EventForm.initial_for(event), club=event.club)
    if request.method == "POST" and form.is_valid():
        kwargs = form.service_kwargs()
        if not kwargs.get("slug"):
            kwargs["slug"] = event.slug
        if request.POST.get("first_round_at") in (None, ""):
            kwargs["round_starts"] = None
        try:
            services.update_event(request.user, event, **kwargs)
        except UserError as exc:  # shown above the form, which keeps what was typed
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Event saved."))
            return redirect("event-dashboard", pk=event.pk)
    return render(
        request, "league/event_form.html", {"form": form, "club": event.club, "event": event}
    )


@page_action
def event_status(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    services.transition_event(request.user, event, request.POST.get("to", ""))
    messages.success(request, _("Event status changed."))
    return redirect("event-dashboard", pk=pk)


@page_action
def round_start(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    rnd = get_object_or_404(Round, event=event, number=number)
    form = RoundStartForm(request.POST, prefix=str(number))
    if not form.is_valid():
        raise UserError(gettext_lazy("Enter a valid date and time."), code="starts_at")
    services.set_round_start(request.user, rnd, form.cleaned_data["starts_at"])
    return redirect("event-dashboard", pk=pk)


@login_first
def registrations(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    query = request.GET.get("q", "")
    regs = selectors.registrations(event, query)[:500]
    personal.attach_links(event, regs)
    return render(
        request,
        "league/registrations.html",
        {
            "event": event,
            "query": query,
            "registrations": regs,
            "counts": selectors.registration_counts(event),
            "waiting": waitlist.waiting_list(event),
            "referee_links": personal.referee_links(event),
            "add_form": AddPlayerForm(),
            "can_manage": perms.access_for(request).can_manage_event(event),
        },
    )


@page_action
def registration_check_in(request: HttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    reg = get_object_or_404(
        Registration.objects.select_related("player", "event"), pk=reg_pk, event=event
    )
    services.check_in(request.user, reg, undo=request.POST.get("undo") == "1")
    if request.headers.get("X-Requested-With") == "fetch":
        return JsonResponse(
            {
                "checked_in": reg.checked_in_at is not None,
                "counts": selectors.registration_counts(event),
            }
        )
    return back(request, reverse("event-registrations", args=[pk]))


@page_action
def registration_withdraw(request: HttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    """Staff withdraw anyone; a player withdraws themselves (the service decides)."""
    event = event_for(request, pk, perms.LeagueAccess.can_view_event)
    reg = get_object_or_404(
        Registration.objects.select_related("player", "event"), pk=reg_pk, event=event
    )
    services.withdraw(request.user, reg)
    messages.success(request, _("%(player)s withdrawn.") % {"player": reg.player.display_name})
    if not perms.access_for(request).can_staff_event(event):
        return redirect("public-event", club_slug=event.club.slug, event_slug=event.slug)
    return back(request, reverse("event-registrations", args=[pk]))


@page_action
def registration_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    form = AddPlayerForm(request.POST)
    if not form.is_valid():
        raise UserError(gettext_lazy("Give a handle."), code="handle")
    handle = form.cleaned_data["handle"].strip().lstrip("@").lower()
    player = Player.objects.filter(handle=handle).first()
    if player is None:
        name = form.cleaned_data["display_name"].strip()
        if not name:
            raise UserError(
                gettext_lazy("No player @%(handle)s; give a display name to create them."),
                code="unknown_player",
                params={"handle": handle},
            )
        player = create_player(request.user, display_name=name, handle=handle, event=event)
    reg = services.register_player(request.user, event, player)
    if reg.status == Registration.Status.WAITLISTED:
        messages.success(
            request,
            _("The event is full: %(player)s is number %(n)s on the waiting list.")
            % {"player": player.display_name, "n": waitlist.position(reg)},
        )
    else:
        messages.success(request, _("%(player)s registered.") % {"player": player.display_name})
    return redirect("event-registrations", pk=pk)


@login_first
def registration_import(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    form = CsvImportForm(request.POST or None, request.FILES or None)
    problems = None
    if request.method == "POST" and form.is_valid():
        try:
            result = import_players_csv(
                request.user,
                event,
                form.cleaned_data["file"].read(),
                check_in=form.cleaned_data["check_in"],
            )
        except CsvImportError as exc:  # the page lists every problem of the file
            problems = exc.problems
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _(
                    "Imported: %(created)s new players, %(existing)s known, %(registered)s "
                    "registered, %(waitlisted)s on the waiting list."
                )
                % result.__dict__,
            )
            return redirect("event-registrations", pk=pk)
    return render(
        request, "league/import.html", {"event": event, "form": form, "problems": problems}
    )


@login_first
def conflicts(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    players, referees = selectors.event_conflicts(event)
    return render(
        request,
        "league/conflicts.html",
        {
            "event": event,
            "player_conflicts": players,
            "referee_conflicts": referees,
            "referees": event.referees.select_related("user"),
            "can_manage": perms.access_for(request).can_manage_event(event),
        },
    )


def _player_by_handle(handle: str) -> Player:
    handle = handle.strip().lstrip("@").lower()
    player = Player.objects.filter(handle=handle).first()
    if player is None:
        raise UserError(
            gettext_lazy("No player @%(handle)s."), code="unknown_player", params={"handle": handle}
        )
    return player


@page_action
def conflict_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    reason = request.POST.get("reason", "")[:200]
    if request.POST.get("kind") == "referee":
        referee = get_object_or_404(event.referees.all(), pk=request.POST.get("referee") or 0)
        conflict_services.declare_referee_conflict(
            request.user,
            event,
            referee,
            _player_by_handle(request.POST.get("player", "")),
            reason,
        )
    else:
        conflict_services.declare_player_conflict(
            request.user,
            event,
            _player_by_handle(request.POST.get("a", "")),
            _player_by_handle(request.POST.get("b", "")),
            reason,
        )
    messages.success(request, _("Conflict declared."))
    return redirect("event-conflicts", pk=pk)


@page_action
def conflict_remove(request: HttpRequest, pk: int, kind: str, conflict_pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    players, referees = selectors.event_conflicts(event)
    pool: list[Any] = list(players) if kind == "player" else list(referees)
    conflict = next((c for c in pool if c.pk == conflict_pk), None)
    if conflict is None:
        raise Http404
    conflict_services.remove_conflict(request.user, event, conflict)
    messages.success(request, _("Conflict removed."))
    return redirect("event-conflicts", pk=pk)


@login_first
def referee_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    """A referee's view: confirmed and released rounds, their own tables first."""
    event = event_for(request, pk, lambda a, e: a.is_event_referee(e) or a.can_staff_event(e))
    rounds = selectors.visible_rounds(perms.access_for(request), event)
    mine = [
        (rnd, table)
        for rnd in rounds
        for table in rnd.tables.all()
        if table.referee is not None and table.referee.user_id == request.user.pk
    ]
    return render(request, "league/referee.html", {"event": event, "rounds": rounds, "mine": mine})


def _qr(request: HttpRequest, token: str | None) -> str:
    """An inline SVG QR code of a personal page's address ("" without a live link)."""
    if not token:
        return ""
    url = request.build_absolute_uri(reverse("personal-page", args=[token]))
    return str(segno.make(url, error="m").svg_inline(scale=2, dark="#111", light="#fff"))


@login_first
def sheet_tables(request: HttpRequest, pk: int) -> HttpResponse:
    """Table sheets; each table's referee finds the QR code of their personal page."""
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    rounds = selectors.visible_rounds(perms.access_for(request), event)
    wanted = strict_int(request.GET.get("round"))
    if wanted is not None:
        rounds = [r for r in rounds if r.number == wanted]
    referee_qr = {ref.pk: _qr(request, token) for ref, token in personal.referee_tokens(event)}
    return render(
        request,
        "league/sheet_tables.html",
        {"event": event, "rounds": rounds, "referee_qr": referee_qr},
    )


@login_first
def sheet_players(request: HttpRequest, pk: int) -> HttpResponse:
    """Where everyone sits, with a QR code of each player's personal page (registered
    players not seated yet are listed too)."""
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    rounds = selectors.visible_rounds(perms.access_for(request), event)
    schedules = selectors.player_schedules(rounds)
    seated = {s.player.pk for s in schedules}
    regs = Registration.objects.filter(event=event, status=Registration.Status.REGISTERED)
    for reg in regs.select_related("player").order_by("player__display_name"):
        if reg.player_id not in seated:
            schedules.append(PlayerSchedule(reg.player, [None] * len(rounds)))
    tokens = personal.player_tokens(event)
    rows = [(s, _qr(request, tokens.get(s.player.pk))) for s in schedules]
    return render(
        request, "league/sheet_players.html", {"event": event, "rounds": rounds, "rows": rows}
    )
