"""League pages. Views stay thin: reads come from selectors, writes go through services.

Organiser pages live under ``/manage/`` and ask :mod:`league.permissions` (anonymous
visitors are sent to log in, everyone else without the right gets 403). Public pages
declare their release gate: they only ever read :func:`league.selectors.public_rounds`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from league import draws, lifecycle, selectors, services
from league import permissions as perms
from league.calendar import club_calendar
from league.csv_cells import SafeWriter
from league.errors import CsvImportError, LeagueError
from league.forms import (
    AddPlayerForm,
    AuditFilterForm,
    CsvImportForm,
    DrawForm,
    EventForm,
    RoundStartForm,
    SwapForm,
)
from league.i18n import note_dict
from league.inputs import safe_back, strict_int
from league.middleware import use_club_timezone
from league.models import Club, Event, Player, Referee, Registration, Round, Table

View = Callable[..., HttpResponseBase]


def home(request: HttpRequest) -> HttpResponse:
    upcoming = selectors.public_events().filter(ends_on__gte=timezone.localdate())
    return render(
        request,
        "league/home.html",
        {"upcoming": upcoming.order_by("starts_on")[:10], "clubs": Club.objects.all()[:50]},
    )


# --- access helpers -------------------------------------------------------------------------


def _event_for(request: HttpRequest, pk: int, check: Callable[[Any, Event], bool]) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if not check(request.user, event):
        raise PermissionDenied
    use_club_timezone(event.club)
    return event


def login_first(view: View) -> View:
    """Anonymous visitors go to the login page; the view itself checks permissions."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def action(view: View) -> View:
    """POST-only page action: a user-fixable error becomes a message, then back."""

    @require_POST
    @login_first
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, *args, **kwargs)
        except LeagueError as exc:
            messages.error(request, exc.message)
            back = safe_back(
                request,
                request.POST.get("next"),
                request.META.get("HTTP_REFERER"),
                default=reverse("home"),
            )
            return redirect(back)

    return wrapper


def _numbers(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def _back(request: HttpRequest, default: str) -> HttpResponse:
    return redirect(safe_back(request, request.POST.get("next"), default=default))


# --- organiser: events ----------------------------------------------------------------------


AUDIT_PAGE = 50


@login_first
def club_audit(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Who did what to the club's events: read-only, filterable, for its organisers."""
    club = get_object_or_404(Club, slug=club_slug)
    if not perms.is_club_organiser(request.user, club):
        raise PermissionDenied
    use_club_timezone(club)
    form = AuditFilterForm(
        request.GET or None,
        events=club.events.order_by("-starts_on"),
        actions=selectors.club_audit_actions(club),
    )
    wanted = selectors.AuditFilter()
    if form.is_valid():
        data = form.cleaned_data
        since = data["since"]
        wanted = selectors.AuditFilter(
            event=data["event"],
            action=data["action"],
            actor=data["actor"].strip(),
            since=(timezone.make_aware(dt.datetime.combine(since, dt.time.min)) if since else None),
        )
    page = Paginator(selectors.club_audit(club, wanted), AUDIT_PAGE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "league/audit.html",
        {"club": club, "form": form, "page": page, "query": query.urlencode()},
    )


@login_first
def manage_home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "league/manage_home.html",
        {
            "events": selectors.managed_events(request.user),
            "clubs": selectors.organised_clubs(request.user),
            "refereed": selectors.refereed_events(request.user),
        },
    )


@login_first
def event_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    if not perms.can_create_event(request.user, club):
        raise PermissionDenied
    use_club_timezone(club)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(request.user, club, **form.service_kwargs())
        except LeagueError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Event created."))
            return redirect("event-dashboard", pk=event.pk)
    return render(request, "league/event_form.html", {"form": form, "club": club})


@login_first
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    form = EventForm(request.POST or None, initial=EventForm.initial_for(event))
    if request.method == "POST" and form.is_valid():
        kwargs = form.service_kwargs()
        if not kwargs.get("slug"):
            kwargs["slug"] = event.slug
        if request.POST.get("first_round_at") in (None, ""):
            kwargs["round_starts"] = None
        try:
            services.update_event(request.user, event, **kwargs)
        except LeagueError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Event saved."))
            return redirect("event-dashboard", pk=event.pk)
    return render(
        request, "league/event_form.html", {"form": form, "club": event.club, "event": event}
    )


@login_first
def event_dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    rounds = list(event.rounds.order_by("number"))
    return render(
        request,
        "league/event_dashboard.html",
        {
            "event": event,
            "rounds": rounds,
            "counts": selectors.registration_counts(event),
            "can_manage": perms.can_manage_event(request.user, event),
            "next_statuses": services.EVENT_TRANSITIONS.get(event.status, ()),
            "job": selectors.latest_draw_job(event),
            "relief_percent": draws.RELIEF_PERCENT,
            "round_rows": [
                (r, RoundStartForm(initial={"starts_at": r.starts_at}, prefix=str(r.number)))
                for r in rounds
            ],
        },
    )


@action
def event_status(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    services.transition_event(request.user, event, request.POST.get("to", ""))
    messages.success(request, _("Event status changed."))
    return redirect("event-dashboard", pk=pk)


@action
def round_start(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    rnd = get_object_or_404(Round, event=event, number=number)
    form = RoundStartForm(request.POST, prefix=str(number))
    if not form.is_valid():
        raise LeagueError(_("Enter a valid date and time."))
    services.set_round_start(request.user, rnd, form.cleaned_data["starts_at"])
    return redirect("event-dashboard", pk=pk)


# --- organiser: registrations ---------------------------------------------------------------


@login_first
def registrations(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    query = request.GET.get("q", "")
    return render(
        request,
        "league/registrations.html",
        {
            "event": event,
            "query": query,
            "registrations": selectors.registrations(event, query)[:500],
            "counts": selectors.registration_counts(event),
            "add_form": AddPlayerForm(),
            "can_manage": perms.can_manage_event(request.user, event),
        },
    )


@action
def registration_check_in(request: HttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
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
    return _back(request, reverse("event-registrations", args=[pk]))


@action
def registration_withdraw(request: HttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    """Staff withdraw anyone; a player withdraws themselves (the service decides)."""
    event = _event_for(request, pk, perms.can_view_event)
    reg = get_object_or_404(
        Registration.objects.select_related("player", "event"), pk=reg_pk, event=event
    )
    services.withdraw(request.user, reg)
    messages.success(request, _("%(player)s withdrawn.") % {"player": reg.player.display_name})
    if not perms.can_staff_event(request.user, event):
        return redirect("public-event", club_slug=event.club.slug, event_slug=event.slug)
    return _back(request, reverse("event-registrations", args=[pk]))


@action
def registration_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    form = AddPlayerForm(request.POST)
    if not form.is_valid():
        raise LeagueError(_("Give a handle."))
    handle = form.cleaned_data["handle"].strip().lstrip("@").lower()
    player = Player.objects.filter(handle=handle).first()
    if player is None:
        name = form.cleaned_data["display_name"].strip()
        if not name:
            raise LeagueError(
                _("No player @%(handle)s; give a display name to create them.") % {"handle": handle}
            )
        player = services.create_player(request.user, display_name=name, handle=handle, event=event)
    services.register_player(request.user, event, player)
    messages.success(request, _("%(player)s registered.") % {"player": player.display_name})
    return redirect("event-registrations", pk=pk)


@login_first
def registration_import(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    form = CsvImportForm(request.POST or None, request.FILES or None)
    problems = None
    if request.method == "POST" and form.is_valid():
        try:
            result = services.import_players_csv(
                request.user,
                event,
                form.cleaned_data["file"].read(),
                check_in=form.cleaned_data["check_in"],
            )
        except CsvImportError as exc:
            problems = exc.problems
            messages.error(request, exc.message)
        except LeagueError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _(
                    "Imported: %(created)s new players, %(existing)s known, %(registered)s "
                    "registered."
                )
                % result.__dict__,
            )
            return redirect("event-registrations", pk=pk)
    return render(
        request, "league/import.html", {"event": event, "form": form, "problems": problems}
    )


# --- organiser: the draw --------------------------------------------------------------------


@login_first
def draw_page(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    can_manage = perms.can_manage_event(request.user, event)
    rounds = selectors.visible_rounds(request.user, event)
    all_rounds = list(Round.objects.filter(event=event).order_by("number"))
    next_round = next((r.number for r in all_rounds if r.status == "none"), None)
    return render(
        request,
        "league/draw.html",
        {
            "event": event,
            "rounds": rounds,
            "all_rounds": all_rounds,
            "can_manage": can_manage,
            "job": selectors.latest_draw_job(event),
            "measures": selectors.draw_measures(rounds),
            "draw_form": DrawForm(initial={"from_round": next_round or 1, "checked_in_only": True}),
            "referees": list(event.referees.select_related("user")),
        },
    )


@action
def draw_start(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    form = DrawForm(request.POST)
    if not form.is_valid():
        raise LeagueError(_("Choose the rounds to draw."))
    data = form.cleaned_data
    job = services.request_draw(
        request.user,
        event,
        from_round=data["from_round"],
        to_round=data["to_round"],
        seed=data["seed"],
        checked_in_only=data["checked_in_only"],
    )
    kept = lifecycle.kept_in_rounds(event, job.from_round, job.to_round)
    messages.success(
        request,
        _("The draw of rounds %(a)s–%(b)s has started.") % {"a": job.from_round, "b": job.to_round}
        + (
            " " + _("Kept as they were: %(tables)s.") % {"tables": lifecycle.describe(kept)}
            if kept
            else ""
        ),
    )
    return redirect("event-draw", pk=pk)


@require_GET
@login_first
def draw_job(request: HttpRequest, pk: int) -> JsonResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    job = selectors.latest_draw_job(event)
    if job is None:
        return JsonResponse({"status": None})
    return JsonResponse(
        {
            "id": job.pk,
            "status": job.status,
            "progress": job.progress,
            "error": note_dict(job.error),
            "warnings": [note_dict(w) for w in job.warnings or []],
        }
    )


@action
def round_action(request: HttpRequest, pk: int, number: int, verb: str) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    rnd = get_object_or_404(Round.objects.select_related("event__club"), event=event, number=number)
    do = {
        "confirm": services.confirm_round,
        "reopen": services.reopen_round,
        "release": services.release_round,
    }.get(verb)
    if do is None:
        raise Http404
    rnd = do(request.user, rnd)
    messages.success(
        request,
        _("Round %(n)s is now %(status)s.") % {"n": number, "status": rnd.get_status_display()},
    )
    return redirect(reverse("event-draw", args=[pk]) + f"#round-{number}")


@action
def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    rnd = get_object_or_404(Round.objects.select_related("event__club"), event=event, number=number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        raise LeagueError(_("Give two handles."))
    handles = [form.cleaned_data[k].strip().lstrip("@").lower() for k in ("a", "b")]
    players = {p.handle: p for p in Player.objects.filter(handle__in=handles)}
    unknown = [h for h in handles if h not in players]
    if unknown:
        raise LeagueError(_("No player has the handle @%(handle)s.") % {"handle": unknown[0]})
    if len(players) != 2:
        raise LeagueError(_("Give the handles of two different players."))
    tables = services.swap_players(request.user, rnd, players[handles[0]], players[handles[1]])
    messages.success(
        request,
        _("Round %(n)s: @%(a)s and @%(b)s swapped (tables %(tables)s); both seats are now pinned.")
        % {"n": number, "a": handles[0], "b": handles[1], "tables": _numbers(tables)},
    )
    return redirect(reverse("event-draw", args=[pk]) + f"#round-{number}")


@action
def table_referee(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    table = get_object_or_404(
        Table.objects.select_related("round__event__club"), pk=table_pk, round__event=event
    )
    ref_pk = request.POST.get("referee") or None
    referee = get_object_or_404(Referee, pk=ref_pk) if ref_pk else None
    tables = services.move_referee(request.user, table, referee)
    messages.success(
        request,
        _("Round %(n)s: referee changed at tables %(tables)s, now pinned.")
        % {"n": table.round.number, "tables": _numbers(tables)},
    )
    return redirect(reverse("event-draw", args=[pk]) + f"#round-{table.round.number}")


@action
def referees_assign(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    done = services.assign_referees(request.user, event)
    text = _("Referees assigned in %(n)s draft rounds.") % {"n": done.rounds}
    if done.kept:
        text += " " + ngettext(
            "%(n)s table kept its referee (placed by hand or played).",
            "%(n)s tables kept their referee (placed by hand or played).",
            done.kept,
        ) % {"n": done.kept}
    if done.without:
        messages.warning(
            request,
            _("No referee could be given to: %(tables)s.")
            % {
                "tables": ", ".join(
                    _("round %(r)s table %(t)s") % {"r": r, "t": t} for r, t in done.without
                )
            },
        )
    messages.success(request, text)
    return redirect("event-draw", pk=pk)


@action
def round_unpin(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    rnd = get_object_or_404(Round.objects.select_related("event__club"), event=event, number=number)
    count = services.unpin_round(request.user, rnd)
    messages.success(
        request,
        ngettext(
            "Round %(n)s: pins removed from %(count)s table; a redraw or “Assign referees to "
            "draft rounds” may now change it.",
            "Round %(n)s: pins removed from %(count)s tables; a redraw or “Assign referees to "
            "draft rounds” may now change them.",
            count,
        )
        % {"n": number, "count": count},
    )
    return redirect(reverse("event-draw", args=[pk]) + f"#round-{number}")


@login_first
def conflicts(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    players, referees = selectors.event_conflicts(event)
    return render(
        request,
        "league/conflicts.html",
        {
            "event": event,
            "player_conflicts": players,
            "referee_conflicts": referees,
            "referees": event.referees.select_related("user"),
            "can_manage": perms.can_manage_event(request.user, event),
        },
    )


def _player_by_handle(handle: str) -> Player:
    handle = handle.strip().lstrip("@").lower()
    player = Player.objects.filter(handle=handle).first()
    if player is None:
        raise LeagueError(_("No player @%(handle)s.") % {"handle": handle})
    return player


@action
def conflict_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    reason = request.POST.get("reason", "")[:200]
    if request.POST.get("kind") == "referee":
        referee = get_object_or_404(event.referees.all(), pk=request.POST.get("referee") or 0)
        services.declare_referee_conflict(
            request.user,
            event,
            referee,
            _player_by_handle(request.POST.get("player", "")),
            reason,
        )
    else:
        services.declare_player_conflict(
            request.user,
            event,
            _player_by_handle(request.POST.get("a", "")),
            _player_by_handle(request.POST.get("b", "")),
            reason,
        )
    messages.success(request, _("Conflict declared."))
    return redirect("event-conflicts", pk=pk)


@action
def conflict_remove(request: HttpRequest, pk: int, kind: str, conflict_pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_manage_event)
    players, referees = selectors.event_conflicts(event)
    pool: list[Any] = list(players) if kind == "player" else list(referees)
    conflict = next((c for c in pool if c.pk == conflict_pk), None)
    if conflict is None:
        raise Http404
    services.remove_conflict(request.user, event, conflict)
    messages.success(request, _("Conflict removed."))
    return redirect("event-conflicts", pk=pk)


@login_first
def referee_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    """A referee's view: confirmed and released rounds, their own tables first."""
    event = _event_for(
        request, pk, lambda u, e: perms.is_event_referee(u, e) or perms.can_staff_event(u, e)
    )
    rounds = selectors.visible_rounds(request.user, event)
    mine = [
        (rnd, table)
        for rnd in rounds
        for table in rnd.tables.all()
        if table.referee is not None and table.referee.user_id == request.user.pk
    ]
    return render(request, "league/referee.html", {"event": event, "rounds": rounds, "mine": mine})


# --- organiser: sheets and export -----------------------------------------------------------


@login_first
def sheet_tables(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    rounds = selectors.visible_rounds(request.user, event)
    wanted = strict_int(request.GET.get("round"))
    if wanted is not None:
        rounds = [r for r in rounds if r.number == wanted]
    return render(request, "league/sheet_tables.html", {"event": event, "rounds": rounds})


@login_first
def sheet_players(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    rounds = selectors.visible_rounds(request.user, event)
    return render(
        request,
        "league/sheet_players.html",
        {"event": event, "rounds": rounds, "schedules": selectors.player_schedules(rounds)},
    )


CSV_EXPORT_HEADER = [
    "round",
    "round_status",
    "starts_at",
    "table",
    "referee",
    "seat",
    "handle",
    "display_name",
]


def write_draw_csv(response: HttpResponse, rounds: list[Round]) -> None:
    response.write("\ufeff")
    out = SafeWriter(response)
    out.writerow(CSV_EXPORT_HEADER)
    for rnd in rounds:
        for table in rnd.tables.all():
            ref = str(table.referee) if table.referee else ""
            for seat in table.seats.all():
                out.writerow(
                    [
                        rnd.number,
                        rnd.status,
                        rnd.starts_at.isoformat() if rnd.starts_at else "",
                        table.number,
                        ref,
                        seat.number,
                        seat.player.handle,
                        seat.player.display_name,
                    ]
                )


@login_first
def draw_csv(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, perms.can_staff_event)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-draw.csv"'
    write_draw_csv(response, selectors.visible_rounds(request.user, event))
    return response


# --- public ---------------------------------------------------------------------------------


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
    return render(
        request,
        "league/public_event.html",
        {
            "event": event,
            "rounds": rounds,
            "schedule": schedule,
            "can_register": perms.can_register_self(request.user, event),
            "my_registration": selectors.own_registration(request.user, event),
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


@action
def register_self(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    event = _public_event(club_slug, event_slug)
    player = getattr(request.user, "player", None)
    if player is None:
        raise PermissionDenied
    services.register_player(request.user, event, player)
    messages.success(request, _("You are registered."))
    return redirect("public-event", club_slug=club_slug, event_slug=event_slug)
