"""Draw pages for organisers and staff (under ``/manage/``): the event's dashboard (its
rounds, their start times and the latest draw), the draw page, and the hand changes,
round moves and exports made from it. Views stay thin: reads come from selectors, writes
go through services.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET

from league import permissions as perms
from league.clubs.models import Player, Referee
from league.draws import selectors as draw_selectors
from league.draws import services
from league.draws.export import write_draw_csv
from league.draws.final_table import draw_final_table
from league.draws.forms import DrawForm, FinalTableForm, SwapForm
from league.errors import UserError
from league.events import lifecycle
from league.events import selectors as event_selectors
from league.events.forms import RoundStartForm
from league.events.models import Round, Table
from league.events.services import EVENT_TRANSITIONS, RELIEF_PERCENT
from league.events.views import event_for
from league.i18n import note_dict
from league.pages import login_first, page_action
from league.stages import selectors as stage_selectors


def _numbers(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


@login_first
def event_dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    rounds = list(event.rounds.order_by("number"))
    return render(
        request,
        "league/event_dashboard.html",
        {
            "event": event,
            "rounds": rounds,
            "counts": event_selectors.registration_counts(event),
            "can_manage": perms.access_for(request).can_manage_event(event),
            "next_statuses": EVENT_TRANSITIONS.get(event.status, ()),
            "job": draw_selectors.latest_draw_job(event),
            "relief_percent": RELIEF_PERCENT,
            "round_rows": [
                (r, RoundStartForm(initial={"starts_at": r.starts_at}, prefix=str(r.number)))
                for r in rounds
            ],
        },
    )


@login_first
def draw_page(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    can_manage = perms.access_for(request).can_manage_event(event)
    rounds = event_selectors.visible_rounds(perms.access_for(request), event)
    all_rounds = list(Round.objects.filter(event=event).order_by("number"))
    next_round = next((r.number for r in all_rounds if r.status == Round.Status.NONE), None)
    return render(
        request,
        "league/draw.html",
        {
            "event": event,
            "rounds": rounds,
            "all_rounds": all_rounds,
            "can_manage": can_manage,
            "job": draw_selectors.latest_draw_job(event),
            "measures": draw_selectors.draw_measures(rounds),
            "draw_form": DrawForm(initial={"from_round": next_round or 1, "checked_in_only": True}),
            "referees": list(event.referees.select_related("user")),
            "stages": stage_selectors.stage_rows(event) if can_manage else [],
        },
    )


@page_action
def final_table_draw(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    """Seat a final-table stage by its design (the rounds become drafts)."""
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    form = FinalTableForm(request.POST)
    if not form.is_valid():
        raise UserError(gettext_lazy("The seed is a whole number."), code="seed")
    design = draw_final_table(request.user, event, position, form.cleaned_data["seed"])
    messages.success(
        request,
        _("The final table is seated for %(n)s games (seed %(seed)s).")
        % {"n": len(design.games), "seed": design.seed},
    )
    return redirect(reverse("event-draw", args=[event.pk]) + "#stages")


@page_action
def draw_start(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    form = DrawForm(request.POST)
    if not form.is_valid():
        raise UserError(gettext_lazy("Choose the rounds to draw."), code="rounds")
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
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    job = draw_selectors.latest_draw_job(event)
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


@page_action
def round_action(request: HttpRequest, pk: int, number: int, verb: str) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
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


@page_action
def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
    rnd = get_object_or_404(Round.objects.select_related("event__club"), event=event, number=number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        raise UserError(gettext_lazy("Give two handles."), code="players")
    handles = [form.cleaned_data[k].strip().lstrip("@").lower() for k in ("a", "b")]
    players = {p.handle: p for p in Player.objects.filter(handle__in=handles)}
    unknown = [h for h in handles if h not in players]
    if unknown:
        raise UserError(
            gettext_lazy("No player has the handle @%(handle)s."),
            code="unknown_player",
            params={"handle": unknown[0]},
        )
    if len(players) != 2:
        raise UserError(
            gettext_lazy("Give the handles of two different players."), code="same_player"
        )
    tables = services.swap_players(request.user, rnd, players[handles[0]], players[handles[1]])
    messages.success(
        request,
        _("Round %(n)s: @%(a)s and @%(b)s swapped (tables %(tables)s); both seats are now pinned.")
        % {"n": number, "a": handles[0], "b": handles[1], "tables": _numbers(tables)},
    )
    return redirect(reverse("event-draw", args=[pk]) + f"#round-{number}")


@page_action
def table_referee(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
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


@page_action
def referees_assign(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
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


@page_action
def round_unpin(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_manage_event)
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
def draw_csv(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_for(request, pk, perms.LeagueAccess.can_staff_event)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-draw.csv"'
    write_draw_csv(response, event_selectors.visible_rounds(perms.access_for(request), event))
    return response
