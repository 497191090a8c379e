"""Club pages for organisers: the club's audit log."""

from __future__ import annotations

import datetime as dt

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from league import permissions as perms
from league.audit import AuditFilter, club_audit_actions
from league.audit import club_audit as club_audit_entries
from league.clubs.forms import AuditFilterForm
from league.clubs.models import Club
from league.errors import require
from league.middleware import use_club_timezone
from league.pages import login_first

AUDIT_PAGE = 50


@login_first
def club_audit(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Who did what to the club's events: read-only, filterable, for its organisers."""
    club = get_object_or_404(Club, slug=club_slug)
    require(perms.access_for(request).is_club_organiser(club))
    use_club_timezone(club)
    form = AuditFilterForm(
        request.GET or None,
        events=club.events.order_by("-starts_on"),
        actions=club_audit_actions(club),
    )
    wanted = AuditFilter()
    if form.is_valid():
        data = form.cleaned_data
        since = data["since"]
        wanted = AuditFilter(
            event=data["event"],
            action=data["action"],
            actor=data["actor"].strip(),
            since=(timezone.make_aware(dt.datetime.combine(since, dt.time.min)) if since else None),
        )
    page = Paginator(club_audit_entries(club, wanted), AUDIT_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "league/audit.html",
        {"club": club, "form": form, "page": page, "query": query.urlencode()},
    )
