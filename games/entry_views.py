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

from games import paper, selectors, services, sheet
from games.forms import GameUploadForm, NotationForm, PaperForm
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


def latest_version(game: Game) -> GameVersion | None:
    return game.versions.order_by("-number").first()


def draft_of(version: GameVersion | None) -> GameVersion | None:
    """The version if it is a draft (the newest version is work not yet submitted)."""
    return version if version is not None and version.status == GameVersion.Status.DRAFT else None


@login_required
def paper_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The paper protocol copied out, as a form or in the notation (``?mode=notation``).

    What the engine refuses is stored as a draft version and the page comes back with
    everything typed and each violation beside what it concerns; a newest version that is
    a draft fills the page on the next visit too (for a correction, the confirmed record
    does). Valid and complete: submitted, and back to the game."""
    game = official_game(request, pk)
    mode = request.POST.get("mode") or request.GET.get("mode") or "form"
    mode = "notation" if mode == "notation" else "form"
    seats = selectors.seating(game, access_for(request))
    draft = draft_of(latest_version(game))
    # the page starts from the draft being finished, else (a correction) the confirmed record
    start = draft or selectors.confirmed_version(game)
    posted = request.method == "POST"
    form: PaperForm | NotationForm
    if mode == "notation":
        text = paper.printed(start.record) if start is not None else None
        initial = {
            "text": text or paper.starter_notation(game.ruleset_spec(), record_meta(game), seats)
        }
        form = NotationForm(request.POST if posted else None, initial=initial)
    else:
        record = start.record if start is not None else None
        form = PaperForm(
            request.POST if posted else None,
            seats=seats,
            phases=paper.phase_count(len(seats), record),
            initial=paper.form_initial(record),
        )
    if posted and form.is_valid():
        if isinstance(form, PaperForm):
            record = form.record(game.ruleset_spec(), record_meta(game))
        else:
            record = form.cleaned_data["record"]
        try:  # a refusal shows the form again, keeping everything typed
            version = services.submit_record(
                signed_in(request),
                game,
                record,
                GameVersion.Source.PAPER,
                reason=form.cleaned_data["reason"],
            )
        except UserError as e:
            form.add_error(None, e.message)
        else:
            if version.status == GameVersion.Status.SUBMITTED:
                messages.success(
                    request,
                    _("Version %(n)s submitted; another official can now confirm it.")
                    % {"n": version.number},
                )
                return redirect("games:game", pk=game.pk)
            draft = version  # the page again, everything kept, the problems beside it
    if draft is not None and not form.errors:
        form.attach(draft.violations)
    return render(
        request,
        "games/paper.html",
        {"game": game, "form": form, "mode": mode, "draft": draft, "seats": seats},
    )


def refusal(e: UserError) -> dict[str, Any]:
    """A refused file's line of the report: the sentence, and for the notation the line
    and column of the first problem."""
    params = e.params or {}
    line, column = params.get("line"), params.get("column")
    if e.code.startswith("notation.") and isinstance(line, int) and isinstance(column, int):
        error = paper.notation_sentence(e.code, dict(params))
        message = _("not the notation, line %(line)s, column %(column)s: %(error)s") % {
            "line": line,
            "column": column,
            "error": error,
        }
        return {"message": message, "line": line, "column": column}
    return {"message": e.message}


def file_report(name: str, **kw: Any) -> dict[str, Any]:
    return {"file": name, **kw}


@login_required
def upload_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload files for one game (KGR/1 JSON or the notation): each file becomes a
    version, with a report."""
    game = official_game(request, pk)
    form = GameUploadForm(request.POST or None, request.FILES or None)
    reports: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        for f in form.cleaned_data["records"]:
            reports.append(upload_one(request, game, f.name, f.read(), form.cleaned_data["reason"]))
    return render(request, "games/upload.html", {"game": game, "form": form, "reports": reports})


def upload_one(
    request: HttpRequest, game: Game, name: str, data: bytes, reason: str = ""
) -> dict[str, Any]:
    """One file for ``game``: KGR/1 JSON, or the notation (:func:`games.paper.is_json`)."""
    try:
        value: Any = data if paper.is_json(name, data) else paper.read_notation_file(data)
        version = services.submit_record(
            signed_in(request), game, value, GameVersion.Source.UPLOAD, reason=reason
        )
    except UserError as e:  # one file's refusal is its line of the report; the rest go on
        return file_report(name, ok=False, violations=[], **refusal(e))
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
