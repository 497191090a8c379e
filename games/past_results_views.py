"""The page of a spreadsheet of past results, for a club's organisers: upload → preview
(every problem by row and column, every warning, each game and each new player) →
confirm. The file waits in the session between the preview and the confirmation, named
by its SHA-256: the confirmation imports exactly the file the preview showed, checked
again (:func:`games.past_results.import_results`)."""

from __future__ import annotations

import base64
import csv
import io
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.past_results import (
    TEMPLATE_HEADER,
    ImportPlan,
    PastResultsError,
    import_results,
    plan_import,
)
from games.past_results_files import max_bytes, max_rows
from games.permissions import access_for, signed_in
from league.errors import UserError, require
from league.models import Club
from league.pages import login_first, page_action

#: The session key the previewed file waits under.
SESSION_KEY = "games.past_results"


class PastResultsForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Spreadsheet (.xlsx or .csv)"))


def _club(request: HttpRequest, slug: str) -> Club:
    """The club, for its organisers (and site admins) only."""
    club = get_object_or_404(Club, slug=slug)
    access = access_for(request)
    require(access.is_club_organiser(club) or access.is_site_admin())
    return club


def _limits() -> dict[str, int]:
    return {"max_kib": max_bytes() // 1024, "max_rows": max_rows()}


@login_first
def past_results_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    """GET: the form and the format; POST: the file's preview (nothing saved)."""
    club = _club(request, club_slug)
    form = PastResultsForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"club": club, "form": form, **_limits()}
    if request.method != "POST" or not form.is_valid():
        status = 400 if request.method == "POST" else 200
        return render(request, "games/past_results.html", context, status=status)
    upload = form.cleaned_data["file"]
    # never more than one byte past the limit into memory: the reader refuses it
    data = upload.read(max_bytes() + 1)
    name = str(upload.name or "results")[:200]
    try:
        plan = plan_import(signed_in(request), club, name, data)
    except PastResultsError as e:  # an unreadable file: its problems on the page
        context.update(problems=e.problems)
        return render(request, "games/past_results_preview.html", context, status=e.status)
    if not plan.problems and plan.to_create:
        request.session[SESSION_KEY] = {
            "club": club.pk,
            "name": plan.name,
            "digest": plan.digest,
            "data": base64.b64encode(data).decode(),
        }
    context.update(plan=plan, problems=plan.problems, warnings=plan.warnings)
    status = 400 if plan.problems else 200
    return render(request, "games/past_results_preview.html", context, status=status)


@page_action
def past_results_confirm(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Import the previewed file (all of it, or nothing), then back to the page."""
    club = _club(request, club_slug)
    held = request.session.get(SESSION_KEY)
    digest = request.POST.get("digest", "")
    if not isinstance(held, dict) or held.get("club") != club.pk or held.get("digest") != digest:
        raise UserError(
            gettext_lazy("This preview is no longer available: upload the file again."),
            code="results_import.expired",
            status=409,
        )
    data = base64.b64decode(held["data"])
    try:
        plan = import_results(signed_in(request), club, str(held["name"]), data)
    except PastResultsError as e:  # something changed since the preview: show it again
        context = {"club": club, "form": PastResultsForm(), "problems": e.problems, **_limits()}
        return render(request, "games/past_results_preview.html", context, status=e.status)
    del request.session[SESSION_KEY]
    messages.success(request, _summary(plan))
    return redirect("games:past-results", club_slug=club.slug)


def _summary(plan: ImportPlan) -> str:
    games = ngettext(
        "%(n)s game imported and released", "%(n)s games imported and released", len(plan.created)
    ) % {"n": len(plan.created)}
    players = ngettext("%(n)s new player", "%(n)s new players", len(plan.new_players)) % {
        "n": len(plan.new_players)
    }
    skipped = ngettext(
        "%(n)s row already imported", "%(n)s rows already imported", len(plan.skipped)
    ) % {"n": len(plan.skipped)}
    return _("%(games)s; %(players)s; %(skipped)s.") % {
        "games": games,
        "players": players,
        "skipped": skipped,
    }


@login_first
def past_results_template(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The file's header and one example row, as a CSV to fill in."""
    _club(request, club_slug)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(TEMPLATE_HEADER)
    writer.writerow(
        [
            "2026-11-29",
            "Spring Cup",
            "1",
            "classic",
            "li-wei, chen-jie, wang-fang, zhao-min, liu-yang, sun-li, zhou-tao, wu-hui",
            "killer, police, civilian, civilian, killer, police, civilian, civilian",
            "good",
            "2:bonus:0.3:found both killers",
        ]
    )
    response = HttpResponse("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="past-results-template.csv"'
    return response
