"""Games pages. Thin: reads from selectors, writes through services; every page asks
``games.permissions`` what it may show, and roles appear only where it says so."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from engine.record import FORMAT
from games import permissions, review, selectors, services, sheet
from games.forms import ClubGameForm, PaperForm, UploadForm
from games.models import Game, GameVersion
from games.records import NotARecordError, load_json, require_record_shape
from league.inputs import ROUND_MAX, safe_back, strict_int
from league.middleware import use_club_timezone
from league.models import Club, Event, Round, Table
from league.permissions import can_manage_event, can_view_event, visible_round_statuses

#: The sheet's words, handed to static/js/sheet.js as JSON.
SHEET_STRINGS = {
    "saved": gettext_lazy("saved ✓"),
    "saving": gettext_lazy("saving…"),
    "offline": gettext_lazy("not saved yet — retrying"),
    "queued": gettext_lazy("waiting to save"),
    "stale": gettext_lazy("The sheet changed on another device; showing the latest."),
    "deal": gettext_lazy("Deal the cards"),
    "dealBtn": gettext_lazy("Deal"),
    "need": gettext_lazy("Needed"),
    "chosen": gettext_lazy("chosen"),
    "killer": gettext_lazy("killer"),
    "police": gettext_lazy("police officer"),
    "civilian": gettext_lazy("civilian"),
    "night": gettext_lazy("Night"),
    "kill": gettext_lazy("Kill"),
    "noKill": gettext_lazy("No kill"),
    "check": gettext_lazy("Check"),
    "noCheck": gettext_lazy("No check"),
    "noPolice": gettext_lazy("No police officer alive: no check."),
    "saveNight": gettext_lazy("Save the night"),
    "day": gettext_lazy("Day"),
    "eject": gettext_lazy("Eject (rule-breaker)"),
    "ejectBtn": gettext_lazy("Eject"),
    "surrender": gettext_lazy("Surrender"),
    # {seat} is replaced by the seat's number and name
    "confirmSurrender": gettext_lazy(
        "Seat {seat} surrenders: the other side wins at once. Record the surrender?"
    ),
    "ballot": gettext_lazy("Ballot"),
    "abstain": gettext_lazy("abstain"),
    "saveBallot": gettext_lazy("Save the ballot"),
    "votesLeft": gettext_lazy("votes missing"),
    "between": gettext_lazy("Candidates"),
    "declare": gettext_lazy("The ballots put this seat out"),
    "nobodyOut": gettext_lazy("Nobody is out"),
    "isOut": gettext_lazy("is out"),
    "lot": gettext_lazy("Draw lots among the tied"),
    "over": gettext_lazy("Game over"),
    "winner": gettext_lazy("Winner"),
    "submit": gettext_lazy("Submit for confirmation"),
    "latest": gettext_lazy("Latest version"),
    "lastWords": gettext_lazy("Last words"),
    "suspects": gettext_lazy("named as suspects"),
    "saveWords": gettext_lazy("Save last words"),
    "seat": gettext_lazy("Seat"),
    "awards": gettext_lazy("Awards"),
    "addAward": gettext_lazy("Add award"),
    "bonus": gettext_lazy("bonus"),
    "penalty": gettext_lazy("penalty"),
    "warning": gettext_lazy("warning"),
    "points": gettext_lazy("points"),
    "reason": gettext_lazy("reason"),
    "dead": gettext_lazy("out"),
    "confirmUndo": gettext_lazy("Undo the last step?"),
    "good": gettext_lazy("good side"),
    "killers": gettext_lazy("killers"),
    "draw": gettext_lazy("draw"),
    "submitted": gettext_lazy("Submitted as version"),
    "closed": gettext_lazy(
        "This game is confirmed: the sheet is closed. Corrections go through an upload "
        "or the paper form, with a reason."
    ),
    # a version's status and a pending step's type, shown by sheet.js (T.status_*, T.step_*)
    **{f"status_{value}": label for value, label in GameVersion.Status.choices},
    "step_deal": gettext_lazy("deal"),
    "step_night": gettext_lazy("night"),
    "step_eject": gettext_lazy("ejection"),
    "step_surrender": gettext_lazy("surrender"),
    "step_ballot": gettext_lazy("ballot"),
    "step_lot": gettext_lazy("lot"),
    "step_eliminate": gettext_lazy("elimination"),
    "step_last_words": gettext_lazy("last words"),
    "step_award": gettext_lazy("award"),
    "step_undo/": gettext_lazy("undo"),
    "step_submit/": gettext_lazy("submit"),
}


def _game(request: HttpRequest, pk: int) -> Game:
    try:
        game = selectors.game_by_id(pk)
    except Game.DoesNotExist:
        raise Http404 from None
    if not permissions.can_view_game(request.user, game):
        raise Http404
    use_club_timezone(game.the_club)
    return game


def _back(request: HttpRequest, default: str) -> HttpResponse:
    """Back to where the action started: the form's ``next`` field, else the Referer (a
    full address, as browsers send it), if either points into this site; else
    ``default``."""
    return redirect(
        safe_back(
            request, request.POST.get("next"), request.META.get("HTTP_REFERER"), default=default
        )
    )


def _revision(request: HttpRequest) -> int | None:
    return strict_int(request.POST.get("revision", ""))


def _where(game: Game) -> str:
    """Where an event game is (also a voided one): "Round 2, table 3"; else its name."""
    if game.table is not None:
        r: int | None = game.table.round.number
        t: int | None = game.table.number
    elif game.voided_event_id is not None:
        r, t = game.voided_round, game.voided_table
    else:
        return str(game)
    return _("Round %(r)s, table %(t)s") % {"r": r, "t": t}


def _official(request: HttpRequest, pk: int) -> Game:
    game = _game(request, pk)
    if not permissions.is_game_official(request.user, game):
        raise Http404  # the page exists only for officials; say nothing more
    return game


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk)
    user = request.user
    secrets = permissions.can_see_secrets(user, game)
    official = permissions.is_game_official(user, game)
    versions = selectors.versions_for(user, game) if secrets else []
    confirmed = next((v for v in versions if v.status == GameVersion.Status.CONFIRMED), None)
    record = confirmed.record if confirmed is not None else None
    roles: dict[Any, str] = {}
    if record and secrets:
        roles = {s.get("seat"): s.get("role") for s in record.get("seats", [])}
    seats = [{**s, "role": roles.get(s["seat"])} for s in selectors.seating(game, user)]
    return render(
        request,
        "games/game.html",
        {
            "game": game,
            "seats": seats,
            "secrets": secrets,
            "official": official,
            "organiser": permissions.is_game_organiser(user, game),
            "versions": versions,
            "confirmed": confirmed,
            "record": record,
            "log": _log_lines(record) if record else [],
        },
    )


def _log_lines(record: dict[str, Any]) -> list[str]:
    lines = []
    for p in record.get("log") or []:
        if p.get("phase") == "night":
            lines.append(
                _("Night %(n)s: kill %(k)s, check %(c)s")
                % {
                    "n": p.get("n"),
                    "k": p.get("kill") or _("nobody"),
                    "c": p.get("check") or _("nobody"),
                }
            )
            continue
        parts = [_("Day %(n)s") % {"n": p.get("n")}]
        for s in p.get("eject") or []:
            parts.append(_("seat %(s)s ejected") % {"s": s})
        if p.get("surrender"):
            parts.append(_("seat %(s)s surrendered") % {"s": p["surrender"]})
        for k, b in enumerate(p.get("ballots") or [], start=1):
            counts: dict[Any, int] = {}
            for t in b.values():
                if t is not None:
                    counts[t] = counts.get(t, 0) + 1
            tally = ", ".join(f"{t}×{c}" for t, c in sorted(counts.items(), key=lambda x: -x[1]))
            parts.append(_("ballot %(k)s: %(t)s") % {"k": k, "t": tally or "—"})
        if "eliminated" in p:
            e = p["eliminated"]
            parts.append(_("seat %(s)s out") % {"s": e} if e else _("nobody out"))
        lines.append("; ".join(parts))
    return lines


def game_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's record as a KGR/1 file: the confirmed version (officials: ?version=N)."""
    game = _game(request, pk)
    if not permissions.can_see_secrets(request.user, game):
        raise Http404
    versions = selectors.versions_for(request.user, game)
    wanted = strict_int(request.GET.get("version", ""))
    if wanted is not None:
        version = next((v for v in versions if v.number == wanted), None)
    else:
        version = next((v for v in versions if v.status == GameVersion.Status.CONFIRMED), None)
    if version is None:
        raise Http404
    response = JsonResponse(version.record, json_dumps_params={"ensure_ascii": False, "indent": 2})
    name = f"game-{game.pk}-v{version.number}.kgr.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def sheet_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _official(request, pk)
    state = sheet.sheet_state(request.user, game)
    return render(
        request,
        "games/sheet.html",
        {
            "game": game,
            "state": state,
            "api": reverse("games-api:sheet", args=[game.pk]),
            "strings": {k: str(v) for k, v in SHEET_STRINGS.items()},
        },
    )


def _paper_record(game: Game, form: PaperForm) -> dict[str, Any]:
    seats = [
        {"seat": s["seat"], "player": s["player"], "role": form.cleaned_data[f"role_{s['seat']}"]}
        for s in form.seat_list
    ]
    rec: dict[str, Any] = {"format": FORMAT, "ruleset": game.ruleset_spec()}
    meta = sheet.record_meta(game)
    if meta:
        rec["meta"] = meta
    rec["seats"] = seats
    rec["result"] = {"winner": form.cleaned_data["winner"]}
    return rec


@login_required
def paper_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _official(request, pk)
    seats = selectors.seating(game, request.user)
    form = PaperForm(request.POST or None, seats=seats)
    if request.method == "POST" and form.is_valid():
        try:
            version = services.submit_record(
                request.user,
                game,
                _paper_record(game, form),
                GameVersion.Source.PAPER,
                reason=form.cleaned_data["reason"],
            )
        except services.GameError as e:
            messages.error(request, e.message)
        else:
            _report_version(request, version)
            return redirect("games:game", pk=game.pk)
    return render(request, "games/paper.html", {"game": game, "form": form})


def _report_version(request: HttpRequest, version: GameVersion) -> None:
    if version.status == GameVersion.Status.SUBMITTED:
        messages.success(
            request,
            _("Version %(n)s submitted; another official can now confirm it.")
            % {"n": version.number},
        )
    else:
        messages.warning(
            request,
            _("Version %(n)s saved as a draft: %(count)s problem(s) to fix.")
            % {"n": version.number, "count": len(version.violations)},
        )


def _file_report(name: str, **kw: Any) -> dict[str, Any]:
    return {"file": name, **kw}


@login_required
def upload_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload KGR/1 files for one game: each file becomes a version, with a report."""
    game = _official(request, pk)
    form = UploadForm(request.POST or None, request.FILES or None)
    reports: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        for f in form.cleaned_data["records"]:
            reports.append(
                _upload_one(request, game, f.name, f.read(), form.cleaned_data["reason"])
            )
    return render(request, "games/upload.html", {"game": game, "form": form, "reports": reports})


def _upload_one(
    request: HttpRequest, game: Game, name: str, data: bytes, reason: str = ""
) -> dict[str, Any]:
    try:
        version = services.submit_record(
            request.user, game, data, GameVersion.Source.UPLOAD, reason=reason
        )
    except NotARecordError as e:
        return _file_report(name, ok=False, message=str(e), violations=[])
    except services.GameError as e:
        return _file_report(name, ok=False, message=e.message, violations=[])
    ok = version.status == GameVersion.Status.SUBMITTED
    return _file_report(
        name,
        ok=ok,
        game=game,
        version=version.number,
        message=(
            _("accepted as version %(n)s of %(game)s")
            if ok
            else _("stored as draft version %(n)s of %(game)s, not valid")
        )
        % {"n": version.number, "game": game},
        violations=version.violations,
    )


@login_required
def event_games(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's games by round, with statuses; organisers create, upload, release."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    user = request.user
    organiser = can_manage_event(user, event)
    if not (organiser or can_view_event(user, event)):
        raise Http404
    use_club_timezone(event.club)
    games = {g.table_id: g for g in selectors.event_games(event)}
    rounds = []
    shown = None if organiser else visible_round_statuses(user, event)
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
            try:
                if verb == "create":
                    _create_games(request, round_)
                else:
                    _release_games(request, round_)
            except services.GameError as e:
                messages.error(request, e.message)
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
    made = services.create_round_games(request.user, round_)
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
    n = services.release_round(request.user, round_)
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
    except NotARecordError as e:
        return _file_report(name, ok=False, message=str(e), violations=[])
    meta = value.get("meta") if isinstance(value, dict) else None
    rnd = meta.get("round") if isinstance(meta, dict) else None
    tbl = meta.get("table") if isinstance(meta, dict) else None
    # meta values are strings in KGR/1
    rnd = strict_int(rnd, hi=ROUND_MAX) if isinstance(rnd, str) else None
    tbl = strict_int(tbl, hi=ROUND_MAX) if isinstance(tbl, str) else None
    if rnd is None or tbl is None:
        return _file_report(
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
        return _file_report(
            name,
            ok=False,
            message=_("this event has no table %(t)s in round %(r)s") % {"t": tbl, "r": rnd},
            violations=[],
        )
    try:
        game = services.game_for_table(table, request.user)
    except services.GameError as e:
        return _file_report(name, ok=False, message=e.message, violations=[])
    game = selectors.game_by_id(game.pk)
    return _upload_one(request, game, name, data)


@login_required
def review_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One version as the confirming official must read it before the button: the whole
    record with roles, the engine's verdict, and the differences from the version it
    would replace. Officials only (a 404 for anyone else: roles are on this page)."""
    game = _official(request, pk)
    versions = selectors.versions_for(request.user, game)
    version = next((v for v in versions if v.number == number), None)
    if version is None:
        raise Http404
    return render(
        request,
        "games/review.html",
        {
            "game": game,
            "review": review.build_review(version, versions),
            "version": version,
            "own": version.submitted_by_id == request.user.pk,
            "correction": game.status in (Game.Status.CONFIRMED, Game.Status.RELEASED),
        },
    )


@login_required
@require_POST
def confirm_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _official(request, pk)
    number = request.POST.get("version", "")
    try:
        version = services.confirm_version(
            request.user,
            game,
            strict_int(number) or 0,
            expected_revision=_revision(request),
        )
    except services.GameError as e:
        messages.error(request, e.message)
        return _back(request, reverse("games:game", args=[game.pk]))
    game.refresh_from_db(fields=["status", "revision"])
    messages.success(
        request,
        _("%(where)s: version %(n)s confirmed; the game is now %(status)s.")
        % {
            "where": _where(game),
            "n": version.number,
            "status": Game.Status(game.status).label,
        },
    )
    return redirect("games:game", pk=game.pk)


@login_required
@require_POST
def release_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _official(request, pk)
    try:
        services.release_game(request.user, game, expected_revision=_revision(request))
    except services.GameError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            _("%(where)s: results released; the game is now %(status)s and its record public.")
            % {"where": _where(game), "status": Game.Status.RELEASED.label},
        )
    return _back(request, reverse("games:game", args=[game.pk]))


@login_required
@require_POST
def void_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Void a game for good (organisers, with a reason): it keeps its versions and steps,
    counts for nothing, and its table is free again."""
    game = _official(request, pk)
    if not permissions.is_game_organiser(request.user, game):
        raise PermissionDenied
    where = _where(game)
    try:
        services.void_game(
            request.user,
            game,
            request.POST.get("reason", ""),
            expected_revision=_revision(request),
        )
    except services.GameError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request,
            _(
                "%(where)s: game voided. It no longer counts; its versions and steps are "
                "kept, and the table is free for a redraw, a swap, a referee change or a "
                "new game."
            )
            % {"where": where},
        )
    return _back(request, reverse("games:game", args=[game.pk]))


@login_required
def awaiting(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's games with a submitted version not yet confirmed, oldest first."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    use_club_timezone(event.club)
    if not can_manage_event(request.user, event):
        if can_view_event(request.user, event):
            raise PermissionDenied
        raise Http404
    return render(
        request,
        "games/awaiting.html",
        {"event": event, "pending": selectors.awaiting_confirmation(event)},
    )


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    games = list(selectors.referee_games(request.user)[:100])
    # only released rounds have games: a draft's seating may still change
    tables = (
        Table.objects.filter(
            referee__user_id=int(request.user.pk or 0),
            game__isnull=True,
            round__status=Round.Status.RELEASED,
        )
        .select_related("round__event")
        .order_by("-round__event__starts_on", "round__number")[:50]
    )
    return render(request, "games/my_games.html", {"games": games, "tables": tables})


@login_required
@require_POST
def open_table(request: HttpRequest, table_pk: int) -> HttpResponse:
    """The referee (or an organiser) opens the game of a table of a released round,
    creating it on first use; any other round is refused with a message."""
    table = get_object_or_404(
        Table.objects.select_related("round__event__club", "referee"), pk=table_pk
    )
    is_referee = table.referee is not None and table.referee.user_id == request.user.pk
    if not (is_referee or can_manage_event(request.user, table.round.event)):
        raise Http404
    try:
        game = services.game_for_table(table, request.user)
    except services.GameError as e:
        messages.error(request, e.message)
        return _back(request, reverse("games:mine"))
    return redirect("games:sheet", pk=game.pk)


@login_required
def club_game_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    form = ClubGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_club_game(
                request.user,
                club,
                form.cleaned_data["ruleset"],
                title=form.cleaned_data["title"],
                played_on=form.cleaned_data["played_on"],
                players=form.cleaned_data["players"],
            )
        except services.GameError as e:
            messages.error(request, e.message)
        else:
            return redirect("games:sheet", pk=game.pk)
    return render(request, "games/club_game_new.html", {"club": club, "form": form})
