"""An event's games, for its organisers and readers: the rounds' games with their
statuses, creating a round's games, releasing them, uploading a pile of records matched
to their tables, and the games awaiting confirmation."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games import selectors, services
from games.entry_views import file_report, upload_one
from games.forms import UploadForm
from games.models import Game
from games.permissions import access_for, signed_in
from games.records import NotARecordError, load_json, require_record_shape
from league.errors import UserError, require
from league.inputs import ROUND_MAX, strict_int
from league.middleware import use_club_timezone
from league.models import Event, Round, Table


@login_required
def event_games(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's games by round, with statuses; organisers create, upload, release."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    access = access_for(request)
    organiser = access.can_manage_event(event)
    if not (organiser or access.can_view_event(event)):
        raise Http404
    use_club_timezone(event.club)
    games = {g.table_id: g for g in selectors.event_games(event)}
    rounds = []
    shown = None if organiser else access.visible_round_statuses(event)
    for rnd in event.rounds.prefetch_related("tables__referee__user").order_by("number"):
        if shown is not None and rnd.status not in shown:
            continue
        rows = [(t, games.get(t.pk)) for t in rnd.tables.all()]
        if rows:
            rounds.append((rnd, rows))
    form = UploadForm()
    reports: list[dict[str, Any]] = []
    if request.method == "POST" and organiser:
        verb = request.POST.get("verb")
        if verb == "upload":
            form = UploadForm(request.POST, request.FILES)
            if form.is_valid():
                files = form.cleaned_data["records"]
                reports = [_upload_to_event(request, event, f.name, f.read()) for f in files]
        elif verb in ("create", "release") and (
            number := strict_int(request.POST.get("round"), hi=ROUND_MAX)
        ):
            round_ = get_object_or_404(event.rounds, number=number)
            if verb == "create":
                _create_games(request, round_)
            else:
                _release_games(request, round_)
            return redirect(reverse("games:event", args=[event.pk]) + f"#round-{round_.number}")
    context: dict[str, Any] = {
        "event": event,
        "rounds": rounds,
        "organiser": organiser,
        "form": form,
        "reports": reports,
    }
    if organiser:
        context["voided"] = list(
            Game.objects.filter(voided_event=event)
            .select_related("voided_by")
            .order_by("voided_round", "voided_table", "voided_at")
        )
        context["awaiting_count"] = len(selectors.awaiting_confirmation(event))
    return render(request, "games/event_games.html", context)


def _tables_text(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))


def _create_games(request: HttpRequest, round_: Round) -> None:
    before = set(Game.objects.filter(table__round=round_).values_list("table_id", flat=True))
    made = services.create_round_games(signed_in(request), round_)
    new = [g.table.number for g in made if g.table is not None and g.table_id not in before]
    if new:
        messages.success(
            request,
            _("Round %(r)s: %(n)s new games ready (tables %(tables)s); %(all)s in all.")
            % {"r": round_.number, "n": len(new), "tables": _tables_text(new), "all": len(made)},
        )
    else:
        messages.info(
            request,
            _("Round %(r)s: every table already had its game (%(all)s in all).")
            % {"r": round_.number, "all": len(made)},
        )


def _release_games(request: HttpRequest, round_: Round) -> None:
    confirmed = list(
        Game.objects.filter(table__round=round_, status=Game.Status.CONFIRMED).values_list(
            "pk", flat=True
        )
    )
    n = services.release_round(signed_in(request), round_)
    released = list(
        Game.objects.filter(pk__in=confirmed, status=Game.Status.RELEASED).values_list(
            "table__number", flat=True
        )
    )
    if n:
        messages.success(
            request,
            _(
                "Round %(r)s: %(n)s games released (tables %(tables)s); their records and "
                "role cards are now public."
            )
            % {"r": round_.number, "n": n, "tables": _tables_text(released)},
        )
    else:
        messages.info(
            request,
            _("Round %(r)s: no confirmed game to release.") % {"r": round_.number},
        )


def _upload_to_event(request: HttpRequest, event: Event, name: str, data: bytes) -> dict[str, Any]:
    """Match a file to its table by ``meta.round`` and ``meta.table``, then submit it."""
    try:
        value = require_record_shape(load_json(data))
    except NotARecordError as e:  # this file's line of the report; the rest go on
        return file_report(name, ok=False, message=e.message, violations=[])
    meta = value.get("meta") if isinstance(value, dict) else None
    rnd = meta.get("round") if isinstance(meta, dict) else None
    tbl = meta.get("table") if isinstance(meta, dict) else None
    # meta values are strings in KGR/1
    rnd = strict_int(rnd, hi=ROUND_MAX) if isinstance(rnd, str) else None
    tbl = strict_int(tbl, hi=ROUND_MAX) if isinstance(tbl, str) else None
    if rnd is None or tbl is None:
        return file_report(
            name,
            ok=False,
            message=_(
                "cannot tell which game this is: meta.round and meta.table must name a round "
                'and a table of this event (e.g. "round": "2", "table": "3")'
            ),
            violations=[],
        )
    table = (
        Table.objects.filter(round__event=event, round__number=rnd, number=tbl)
        .select_related("round__event__club", "referee")
        .first()
    )
    if table is None:
        return file_report(
            name,
            ok=False,
            message=_("this event has no table %(t)s in round %(r)s") % {"t": tbl, "r": rnd},
            violations=[],
        )
    try:
        game = services.game_for_table(table, signed_in(request))
    except UserError as e:  # one file's refusal is its line of the report; the rest go on
        return file_report(name, ok=False, message=e.message, violations=[])
    game = selectors.game_by_id(game.pk)
    return upload_one(request, game, name, data)


@login_required
def awaiting(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's games with a submitted version not yet confirmed, oldest first."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    use_club_timezone(event.club)
    access = access_for(request)
    if not access.can_view_event(event):
        raise Http404
    require(access.can_manage_event(event))
    return render(
        request,
        "games/awaiting.html",
        {"event": event, "pending": selectors.awaiting_confirmation(event)},
    )
