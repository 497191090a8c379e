"""Stage pages for organisers (under ``/manage/``): the list of stages with its form, the
buttons that finish a stage or reopen a cut, and the printable seat plan of a final
table. Reads come from :mod:`league.stages.selectors`, writes go through
:mod:`league.stages.services`; refusals of the buttons are answered by the middleware,
the form's are shown beside it (the rows kept as typed)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from league import permissions as perms
from league.clubs.models import Player
from league.errors import UserError
from league.events.models import Event
from league.events.views import event_for
from league.pages import login_first, page_action
from league.stages import selectors, services
from league.stages.forms import StageFormSet, initial_rows, stages_of
from league.stages.models import StageSeating

#: The results room's page that confirms a cut (it computes the entrants).
CUT_PAGE = "results:stage-cut"


def cut_url(event: Event, position: int) -> str | None:
    """The address of the cut page of stage ``position``, once the results room has it."""
    try:
        return reverse(CUT_PAGE, kwargs={"pk": event.pk, "position": position})
    except NoReverseMatch:
        return None


def _formset(event: Event, data: Any = None) -> Any:
    plans = selectors.event_stages(event)
    listed = {p for plan in plans for p in plan.entry_players}
    handles = dict(Player.objects.filter(pk__in=listed).values_list("pk", "handle"))
    return StageFormSet(
        data,
        initial=initial_rows(event, plans, handles),
        form_kwargs={"event": event},
        prefix="stages",
    )


def _page(
    request: HttpRequest, event: Event, formset: Any, error: UserError | None = None
) -> HttpResponse:
    rows = selectors.stage_rows(event)
    return render(
        request,
        "league/stages.html",
        {
            "event": event,
            "can_manage": True,
            "rows": [(row, cut_url(event, row.plan.position)) for row in rows],
            "has_stages": selectors.has_stages(event),
            "formset": formset,
            "error": error,
        },
        status=error.status if error is not None else 200,
    )


@login_first
def stages_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The stages, and the form that replaces their list."""
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    if request.method != "POST":
        return _page(request, event, _formset(event))
    formset = _formset(event, request.POST)
    if not formset.is_valid():
        return _page(request, event, formset, None)
    try:
        services.set_stages(request.user, event, stages_of(formset))
    except UserError as exc:
        return _page(request, event, formset, exc)
    messages.success(request, _("The stages are saved."))
    return redirect("event-stages", pk=event.pk)


@page_action
def stage_finish(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    stage = services.finish_stage(request.user, event, position)
    messages.success(request, _("“%(stage)s” is finished.") % {"stage": stage.name})
    return redirect(reverse("event-stages", args=[event.pk]) + f"#stage-{position}")


@page_action
def stage_reopen_cut(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    stage = services.reopen_cut(request.user, event, position)
    messages.success(
        request, _("The cut before “%(stage)s” is open again.") % {"stage": stage.name}
    )
    return redirect(reverse("event-stages", args=[event.pk]) + f"#stage-{position}")


@login_first
def seat_plan(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    """The final table's seat plan, game by game, seat by seat: printable (A4)."""
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    plan = next((p for p in selectors.event_stages(event) if p.position == position), None)
    if plan is None or plan.seating != StageSeating.FINAL:
        raise Http404
    return render(
        request,
        "league/final_seat_plan.html",
        {
            "event": event,
            "stage": plan,
            "games": selectors.final_table_games(event, plan),
            "can_manage": perms.access_for(request).can_manage_event(event),
        },
    )
