"""Club pages for organisers: create and edit a club, its people (organisers, referees,
invitations, player claims), its leagues and seasons. Thin: a form, one service call."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league import permissions as perms
from league.clubs import circuits, services
from league.clubs import invitations as inv
from league.clubs.forms import CircuitForm, ClubForm, InvitationForm, LeagueForm, SeasonForm
from league.clubs.mail import send_invitation
from league.clubs.models import CircuitProfile, Club, Invitation, League, PlayerClaim, Season
from league.errors import UserError, require
from league.pages import back, login_first, page_action


def _organised(request: HttpRequest, club_slug: str) -> Club:
    club = get_object_or_404(Club, slug=club_slug)
    require(perms.access_for(request).is_club_organiser(club))
    return club


def _form_page(
    request: HttpRequest, template: str, form: object, **context: object
) -> HttpResponse:
    return render(request, template, {"form": form, **context})


@login_first
def club_create(request: HttpRequest) -> HttpResponse:
    """Any verified (active) user creates a club and becomes its organiser."""
    require(perms.access_for(request).active)
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(request.user, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Club created: you are its organiser."))
            return redirect("club-people", club.slug)
    return _form_page(request, "league/club_form.html", form, club=None)


@login_first
def club_edit(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _organised(request, club_slug)
    initial = {f: getattr(club, f) for f in services.CLUB_FIELDS}
    form = ClubForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = {**form.cleaned_data, "slug": form.cleaned_data["slug"] or club.slug}
        try:
            club = services.update_club(request.user, club, **data)
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("club-people", club.slug)
    return _form_page(request, "league/club_form.html", form, club=club)


@login_first
def club_people(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Organisers, referees, pending invitations and claims, and the invitation form."""
    return _people_page(request, _organised(request, club_slug), InvitationForm())


def _people_page(
    request: HttpRequest, club: Club, form: InvitationForm, status: int = 200
) -> HttpResponse:
    pending = club.invitations.select_related("player").filter(
        accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
    )
    context = {
        "club": club,
        "organisers": club.organisers.select_related("user").order_by("user__username"),
        "referees": club.referees.select_related("user"),
        "invitations": pending,
        "claims": club.player_claims.filter(status=PlayerClaim.Status.PENDING).select_related(
            "player", "user"
        ),
        "form": form,
    }
    return render(request, "league/club_people.html", context, status=status)


@page_action
def club_invite(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Create an invitation; the page shows its link once (only a hash is kept)."""
    club = _organised(request, club_slug)
    form = InvitationForm(request.POST)
    if not form.is_valid():  # the page again, with what was typed and what is wrong
        return _people_page(request, club, form, status=400)
    data = form.cleaned_data
    try:
        invitation, token = inv.create_invitation(
            request.user, club, role=data["role"], email=data["email"], player=data["player"]
        )
    except UserError as exc:  # a form that keeps what was typed says the refusal itself
        form.add_error(None, exc.message)
        return _people_page(request, club, form, status=exc.status)
    link = request.build_absolute_uri(reverse("invitation", args=[token]))
    if invitation.email:
        transaction.on_commit(lambda: _mail(request, invitation, link))
    return render(
        request,
        "league/invitation_created.html",
        {"club": club, "invitation": invitation, "link": link},
    )


def _mail(request: HttpRequest, invitation: Invitation, link: str) -> None:
    if send_invitation(invitation, link):
        messages.info(request, _("The invitation was sent by e-mail."))
    else:
        messages.warning(request, _("The e-mail could not be sent; copy the link instead."))


@page_action
def invitation_revoke(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    club = _organised(request, club_slug)
    inv.revoke_invitation(request.user, get_object_or_404(Invitation, pk=pk, club=club))
    messages.success(request, _("Invitation revoked."))
    return redirect("club-people", club.slug)


@page_action
def organiser_remove(request: HttpRequest, club_slug: str, user_id: int) -> HttpResponse:
    club = _organised(request, club_slug)
    services.remove_organiser(request.user, club, user_id)
    messages.success(request, _("Organiser removed."))
    if not perms.access_for(request).is_club_organiser(club):
        return redirect("manage-home")
    return redirect("club-people", club.slug)


@page_action
def referee_remove(request: HttpRequest, club_slug: str, pk: int) -> HttpResponse:
    club = _organised(request, club_slug)
    services.remove_referee(request.user, club, pk)
    messages.success(request, _("Referee removed from the club."))
    return redirect("club-people", club.slug)


@page_action
def claim_decide(request: HttpRequest, club_slug: str, pk: int, decision: str) -> HttpResponse:
    club = _organised(request, club_slug)
    if decision not in ("approve", "reject"):
        raise Http404
    claim = get_object_or_404(PlayerClaim.objects.select_related("club", "user"), pk=pk, club=club)
    inv.decide_claim(request.user, claim, approve=decision == "approve")
    messages.success(
        request, _("Claim approved.") if decision == "approve" else _("Claim rejected.")
    )
    return back(request, reverse("club-people", args=[club.slug]))


# --- leagues and seasons ----------------------------------------------------------------------


@login_first
def club_leagues(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's leagues with their seasons, and a form for a new league."""
    club = _organised(request, club_slug)
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.save_league(request.user, club, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("League created."))
            return redirect("club-leagues", club.slug)
    leagues = club.leagues.prefetch_related("seasons__circuit", "circuit_profiles").order_by("name")
    return render(
        request, "league/club_leagues.html", {"club": club, "leagues": leagues, "form": form}
    )


def _league(request: HttpRequest, slug: str) -> League:
    league = get_object_or_404(League.objects.select_related("club"), slug=slug)
    require(league.club is not None and perms.access_for(request).is_club_organiser(league.club))
    return league


@login_first
def league_edit(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    form = LeagueForm(request.POST or None, initial={"name": league.name, "slug": league.slug})
    if request.method == "POST" and form.is_valid():
        try:
            services.save_league(request.user, None, league=league, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("club-leagues", league.club.slug)  # type: ignore[union-attr]
    return _form_page(request, "league/league_form.html", form, league=league, season=None)


@login_first
def season_edit(request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
    """A new season of the league (no ``pk``) or an existing one."""
    league = _league(request, slug)
    season = get_object_or_404(Season, pk=pk, league=league) if pk is not None else None
    initial = (
        {
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "circuit": season.circuit_id,
        }
        if season
        else {}
    )
    form = SeasonForm(request.POST or None, initial=initial, league=league)
    if request.method == "POST" and form.is_valid():
        try:
            services.save_season(request.user, league, season=season, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("club-leagues", league.club.slug)  # type: ignore[union-attr]
    return _form_page(request, "league/season_form.html", form, league=league, season=season)


# --- circuit profiles -------------------------------------------------------------------------


def _circuit_page(
    request: HttpRequest,
    league: League,
    form: CircuitForm,
    circuit: CircuitProfile | None = None,
    status: int = 200,
) -> HttpResponse:
    versions = (
        CircuitProfile.objects.filter(league=league, slug=circuit.slug)
        .prefetch_related("seasons")
        .order_by("-version")
        if circuit is not None
        else []
    )
    context = {"league": league, "form": form, "circuit": circuit, "versions": versions}
    return render(request, "league/circuit_form.html", context, status=status)


@login_first
def circuit_create(request: HttpRequest, slug: str) -> HttpResponse:
    """A new circuit profile of the league (its version 1)."""
    league = _league(request, slug)
    form = CircuitForm(request.POST or None)
    if request.method != "POST":
        return _circuit_page(request, league, form)
    if form.is_valid():
        try:
            made = circuits.create_circuit(
                request.user, league, slug=form.cleaned_data["slug"], data=form.profile_data()
            )
        except UserError as exc:  # the engine's or the name's refusal, by the fields
            form.add_error(None, exc.message)
            return _circuit_page(request, league, form, status=exc.status)
        messages.success(request, _("Circuit profile %(key)s created.") % {"key": made.key})
        return redirect("club-leagues", league.club.slug)  # type: ignore[union-attr]
    return _circuit_page(request, league, form, status=400)


@login_first
def circuit_edit(request: HttpRequest, slug: str, circuit_slug: str) -> HttpResponse:
    """A profile's versions and a form for its next version (the newest one filled in)."""
    league = _league(request, slug)
    latest = (
        CircuitProfile.objects.filter(league=league, slug=circuit_slug).order_by("-version").first()
    )
    if latest is None:
        raise Http404
    form = CircuitForm(request.POST or None, initial=CircuitForm.initial_for(latest), editing=True)
    if request.method != "POST":
        return _circuit_page(request, league, form, latest)
    if form.is_valid():
        try:
            made = circuits.new_circuit_version(request.user, latest, data=form.profile_data())
        except UserError as exc:
            form.add_error(None, exc.message)
            return _circuit_page(request, league, form, latest, status=exc.status)
        if made.pk == latest.pk:
            messages.info(
                request, _("Nothing changed: %(key)s stays the newest.") % {"key": made.key}
            )
        else:
            messages.success(
                request,
                _("Version %(key)s saved; seasons keep the version they use until you change it.")
                % {"key": made.key},
            )
        return redirect("circuit-edit", league.slug, made.slug)
    return _circuit_page(request, league, form, latest, status=400)
