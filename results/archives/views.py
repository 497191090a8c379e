"""Archive pages: the downloads (full for the organisers, public for anyone) and the
staff's import page with its preview and confirmation step."""

from __future__ import annotations

import secrets
import tempfile
import time
from pathlib import Path

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from league import permissions as perms
from league.errors import require
from league.models import Club, Event
from league.pages import login_first
from results.archives.bundle import ArchiveError, max_bytes
from results.archives.export import export_archive
from results.archives.imports import import_archive, preview_archive, read_file

#: Uploaded archives wait here between the preview and the confirmation (a day at most).
UPLOADS = Path(tempfile.gettempdir()) / "tianhei-archive-uploads"
KEEP_SECONDS = 24 * 3600
SESSION_KEY = "archive_upload"
#: The preview's names for the manifest's counts.
COUNT_LABELS = {
    "events": gettext_lazy("events"),
    "stages": gettext_lazy("stages"),
    "rounds": gettext_lazy("rounds"),
    "registrations": gettext_lazy("registrations"),
    "players": gettext_lazy("players"),
    "referees": gettext_lazy("referees"),
    "users": gettext_lazy("accounts"),
    "leagues": gettext_lazy("leagues"),
    "audit": gettext_lazy("audit entries"),
    "games": gettext_lazy("games"),
    "versions": gettext_lazy("record versions"),
}


def _zip(data: bytes, *parts: str) -> HttpResponse:
    name = "-".join([*parts, timezone.now().strftime("%Y%m%d")]) + ".zip"
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_first
def event_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """The full archive of an event: its club's organisers only."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    require(perms.access_for(request).can_manage_event(event))
    return _zip(export_archive(event, public=False), event.club.slug, event.slug, "archive")


def event_public_archive(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    """The public archive of a finished event: anyone."""
    event = get_object_or_404(
        Event.objects.select_related("club"), club__slug=club_slug, slug=event_slug
    )
    if event.status != Event.Status.FINISHED:
        raise Http404
    return _zip(export_archive(event, public=True), club_slug, event_slug, "public")


@login_first
def club_archive(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The full archive of a club: its organisers only."""
    club = get_object_or_404(Club, slug=club_slug)
    require(perms.access_for(request).is_club_organiser(club))
    return _zip(export_archive(club, public=False), club.slug, "archive")


def club_public_archive(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The public archive of a club (its finished events): anyone."""
    club = get_object_or_404(Club, slug=club_slug)
    return _zip(export_archive(club, public=True), club.slug, "public")


# --- import ---------------------------------------------------------------------------------


def _clean_uploads() -> None:
    UPLOADS.mkdir(mode=0o700, parents=True, exist_ok=True)
    for old in UPLOADS.glob("*.zip"):
        try:
            if old.stat().st_mtime < time.time() - KEEP_SECONDS:
                old.unlink()
        except OSError:
            continue


def _waiting(request: HttpRequest) -> Path | None:
    token = request.session.get(SESSION_KEY)
    if not isinstance(token, str) or token != request.POST.get("token"):
        return None
    path = UPLOADS / f"{token}.zip"
    try:
        fresh = path.stat().st_mtime >= time.time() - KEEP_SECONDS
    except OSError:
        return None
    return path if fresh else None


@login_first
@require_http_methods(["GET", "POST"])
def import_page(request: HttpRequest) -> HttpResponse:
    """Site staff (superusers) upload an archive, read what it would create, confirm."""
    require(perms.access_for(request).admin)
    context: dict[str, object] = {"limit": max_bytes() // 2**20}
    if request.method == "POST" and "confirm" in request.POST:
        path = _waiting(request)
        if path is None:
            messages.error(request, _("That upload has expired: choose the file again."))
            return redirect("results:archive-import")
        try:
            report = import_archive(path.read_bytes(), actor=request.user)  # type: ignore[arg-type]
        except ArchiveError as exc:
            context["error"] = exc.message
            return render(request, "results/archive_import.html", context, status=exc.status)
        finally:
            path.unlink(missing_ok=True)
            request.session.pop(SESSION_KEY, None)
        if report.already_imported:
            messages.info(request, _("This archive was already imported: nothing was changed."))
        else:
            messages.success(
                request,
                _("Imported %(club)s: %(events)s events, %(games)s games.")
                % {"club": report.club.name, "events": len(report.events), "games": report.games},
            )
            for slug in report.differences:
                messages.warning(
                    request,
                    _("The recomputed standing of %(event)s differs from the archived one.")
                    % {"event": slug},
                )
        return redirect("club", report.club.slug)
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            context["error"] = _("Choose an archive file (.zip).")
            return render(request, "results/archive_import.html", context, status=400)
        try:
            data = read_file(upload)
            preview = preview_archive(data)
        except ArchiveError as exc:
            context["error"] = exc.message
            return render(request, "results/archive_import.html", context, status=exc.status)
        _clean_uploads()
        token = secrets.token_hex(16)
        (UPLOADS / f"{token}.zip").write_bytes(data)
        request.session[SESSION_KEY] = token
        counts = [(COUNT_LABELS[k], n) for k, n in preview.counts.items() if k in COUNT_LABELS]
        made = preview.archive.manifest.get("created_at")
        created = parse_datetime(made) if isinstance(made, str) else None  # shown as a date
        context |= {"preview": preview, "token": token, "counts": counts, "created": created}
    return render(request, "results/archive_import.html", context)
