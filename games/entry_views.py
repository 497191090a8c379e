"""Entering a game's record, for its officials: the live sheet, the paper form (roles and
the winner) and uploads of KGR/1 files, each becoming a version with a report."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.record import FORMAT
from games import selectors, services, sheet
from games.forms import PaperForm, UploadForm
from games.models import Game, GameVersion
from games.permissions import access_for, signed_in
from games.replay import record_meta
from games.views import official_game
from league.errors import UserError

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


@login_required
def sheet_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = official_game(request, pk)
    state = sheet.sheet_state(signed_in(request), game)
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
    meta = record_meta(game)
    if meta:
        rec["meta"] = meta
    rec["seats"] = seats
    rec["result"] = {"winner": form.cleaned_data["winner"]}
    return rec


@login_required
def paper_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = official_game(request, pk)
    seats = selectors.seating(game, access_for(request))
    form = PaperForm(request.POST or None, seats=seats)
    if request.method == "POST" and form.is_valid():
        try:  # a refusal shows the form again, keeping the roles and winner typed
            version = services.submit_record(
                signed_in(request),
                game,
                _paper_record(game, form),
                GameVersion.Source.PAPER,
                reason=form.cleaned_data["reason"],
            )
        except UserError as e:
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


def file_report(name: str, **kw: Any) -> dict[str, Any]:
    return {"file": name, **kw}


@login_required
def upload_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload KGR/1 files for one game: each file becomes a version, with a report."""
    game = official_game(request, pk)
    form = UploadForm(request.POST or None, request.FILES or None)
    reports: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        for f in form.cleaned_data["records"]:
            reports.append(upload_one(request, game, f.name, f.read(), form.cleaned_data["reason"]))
    return render(request, "games/upload.html", {"game": game, "form": form, "reports": reports})


def upload_one(
    request: HttpRequest, game: Game, name: str, data: bytes, reason: str = ""
) -> dict[str, Any]:
    try:
        version = services.submit_record(
            signed_in(request), game, data, GameVersion.Source.UPLOAD, reason=reason
        )
    except UserError as e:  # one file's refusal is its line of the report; the rest go on
        return file_report(name, ok=False, message=e.message, violations=[])
    ok = version.status == GameVersion.Status.SUBMITTED
    return file_report(
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
