"""Games pages: a game's page and export, the review before confirming, the confirm,
release and void buttons, a referee's games, opening a table's game, a new club game.
Thin: reads from selectors, writes through services; every page asks the request's
``games.permissions.Access`` what it may show, and roles appear only where it says so.

The sheet, paper and upload pages are ``games.entry_views``; an event's games pages are
``games.event_views``. The helpers here (:func:`visible_game`, :func:`official_game`,
:func:`back`, …) are theirs too."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import review, selectors, services
from games.forms import ClubGameForm
from games.models import Game, GameVersion
from games.permissions import access_for, signed_in
from league.errors import UserError, require
from league.inputs import safe_back, strict_int
from league.middleware import use_club_timezone
from league.models import Club, Round, Table


def visible_game(request: HttpRequest, pk: int) -> Game:
    """The game, or 404 for anyone who may not know it exists; times in its club's zone."""
    try:
        game = selectors.game_by_id(pk)
    except Game.DoesNotExist:
        raise Http404 from None
    if not access_for(request).can_view_game(game):
        raise Http404
    use_club_timezone(game.the_club)
    return game


def back(request: HttpRequest, default: str) -> HttpResponse:
    """Back to where the action started: the form's ``next`` field, else the Referer (a
    full address, as browsers send it), if either points into this site; else
    ``default``."""
    return redirect(
        safe_back(
            request, request.POST.get("next"), request.META.get("HTTP_REFERER"), default=default
        )
    )


def posted_revision(request: HttpRequest) -> int | None:
    return strict_int(request.POST.get("revision", ""))


def where(game: Game) -> str:
    """Where an event game is (also a voided one): "Round 2, table 3"; else its name."""
    if game.table is not None:
        r: int | None = game.table.round.number
        t: int | None = game.table.number
    elif game.voided_event_id is not None:
        r, t = game.voided_round, game.voided_table
    else:
        return str(game)
    return _("Round %(r)s, table %(t)s") % {"r": r, "t": t}


def official_game(request: HttpRequest, pk: int) -> Game:
    """The game, for its officials only (a 404 for anyone else: roles are on these pages)."""
    game = visible_game(request, pk)
    if not access_for(request).is_game_official(game):
        raise Http404  # the page exists only for officials; say nothing more
    return game


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = visible_game(request, pk)
    access = access_for(request)
    secrets = access.can_see_secrets(game)
    official = access.is_game_official(game)
    versions = selectors.versions_for(access, game) if secrets else []
    confirmed = next((v for v in versions if v.status == GameVersion.Status.CONFIRMED), None)
    record = confirmed.record if confirmed is not None else None
    roles: dict[Any, str] = {}
    if record and secrets:
        roles = {s.get("seat"): s.get("role") for s in record.get("seats", [])}
    seats = [{**s, "role": roles.get(s["seat"])} for s in selectors.seating(game, access)]
    return render(
        request,
        "games/game.html",
        {
            "game": game,
            "seats": seats,
            "secrets": secrets,
            "official": official,
            "organiser": access.is_game_organiser(game),
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
    game = visible_game(request, pk)
    access = access_for(request)
    if not access.can_see_secrets(game):
        raise Http404
    versions = selectors.versions_for(access, game)
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
def review_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One version as the confirming official must read it before the button: the whole
    record with roles, the engine's verdict, and the differences from the version it
    would replace. Officials only (a 404 for anyone else: roles are on this page)."""
    game = official_game(request, pk)
    versions = selectors.versions_for(access_for(request), game)
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
    game = official_game(request, pk)
    number = request.POST.get("version", "")
    version = services.confirm_version(
        signed_in(request),
        game,
        strict_int(number) or 0,
        expected_revision=posted_revision(request),
    )
    game.refresh_from_db(fields=["status", "revision"])
    messages.success(
        request,
        _("%(where)s: version %(n)s confirmed; the game is now %(status)s.")
        % {
            "where": where(game),
            "n": version.number,
            "status": Game.Status(game.status).label,
        },
    )
    return redirect("games:game", pk=game.pk)


@login_required
@require_POST
def release_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = official_game(request, pk)
    services.release_game(signed_in(request), game, expected_revision=posted_revision(request))
    messages.success(
        request,
        _("%(where)s: results released; the game is now %(status)s and its record public.")
        % {"where": where(game), "status": Game.Status.RELEASED.label},
    )
    return back(request, reverse("games:game", args=[game.pk]))


@login_required
@require_POST
def void_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Void a game for good (organisers, with a reason): it keeps its versions and steps,
    counts for nothing, and its table is free again."""
    game = official_game(request, pk)
    require(access_for(request).is_game_organiser(game))
    place = where(game)
    services.void_game(
        signed_in(request),
        game,
        request.POST.get("reason", ""),
        expected_revision=posted_revision(request),
    )
    messages.success(
        request,
        _(
            "%(where)s: game voided. It no longer counts; its versions and steps are "
            "kept, and the table is free for a redraw, a swap, a referee change or a "
            "new game."
        )
        % {"where": place},
    )
    return back(request, reverse("games:game", args=[game.pk]))


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
    if not (is_referee or access_for(request).can_manage_event(table.round.event)):
        raise Http404
    game = services.game_for_table(table, signed_in(request))
    return redirect("games:sheet", pk=game.pk)


@login_required
def club_game_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    form = ClubGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:  # a refusal shows the form again, keeping what was typed
            game = services.create_club_game(
                signed_in(request),
                club,
                form.cleaned_data["ruleset"],
                title=form.cleaned_data["title"],
                played_on=form.cleaned_data["played_on"],
                players=form.cleaned_data["players"],
            )
        except UserError as e:
            messages.error(request, e.message)
        else:
            return redirect("games:sheet", pk=game.pk)
    return render(request, "games/club_game_new.html", {"club": club, "form": form})
