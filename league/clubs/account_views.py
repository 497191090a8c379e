"""Pages of a signed-in user: accept an invitation, claim a player ("this is me"), edit
one's own player profile (display name, language)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from league.clubs import invitations as inv
from league.clubs import services
from league.clubs.forms import ClaimForm, NotificationsForm, ProfileForm
from league.clubs.models import Invitation, Player, PlayerClaim
from league.clubs.profiles import (
    SESSION_KEY,
    notification_choices,
    preferred_language,
    save_notifications,
)
from league.errors import UserError
from league.pages import login_first, page_action


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """What the link offers, then a POST accepts. Anonymous visitors log in (or sign up)
    first and come back here; a used, revoked or expired invitation answers 4xx."""
    found = inv.find_invitation(token)
    inv.refuse_unusable(found)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method == "POST":
        inv.accept_invitation(request.user, token)
        messages.success(request, _accepted_message(found))
        return redirect("manage-home" if found.role != Invitation.Role.PLAYER else "my-profile")
    return render(request, "league/invitation.html", {"invitation": found})


def _accepted_message(found: Invitation) -> str:
    if found.role == Invitation.Role.ORGANISER:
        return _("You now organise %(club)s.") % {"club": found.club.name}
    if found.role == Invitation.Role.REFEREE:
        return _("You now referee for %(club)s.") % {"club": found.club.name}
    return _("Your account is now linked to your player.")


@login_first
def my_profile(request: HttpRequest) -> HttpResponse:
    """A linked player edits their display name and language; others may claim a player.
    Everyone chooses which e-mails they get (the second form, marked by :data:`NOTIFY`)."""
    user_id = int(request.user.pk or 0)
    if request.method == "POST" and NOTIFY in request.POST:
        return _save_notifications(request)
    player = Player.objects.filter(user_id=user_id).first()
    notify_form = NotificationsForm(initial=notification_choices(request.user))
    if player is None:
        claims = PlayerClaim.objects.filter(user_id=user_id).select_related("player", "club")[:10]
        return render(
            request,
            "league/my_profile.html",
            {
                "player": None,
                "claims": claims,
                "claim_form": ClaimForm(),
                "notify_form": notify_form,
            },
        )
    initial = {"display_name": player.display_name, "language": preferred_language(request.user)}
    form = ProfileForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_own_profile(request.user, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            request.session[SESSION_KEY] = form.cleaned_data["language"]
            messages.success(request, _("Saved."))
            return redirect("my-profile")
    return render(
        request,
        "league/my_profile.html",
        {"player": player, "form": form, "notify_form": notify_form},
    )


#: The name of the notifications form's submit button: a POST carrying it saves that form.
NOTIFY = "save_notifications"


def _save_notifications(request: HttpRequest) -> HttpResponse:
    """Save which e-mails the signed-in user wants (an unticked box is off)."""
    form = NotificationsForm(request.POST)
    form.is_valid()  # check boxes only: nothing is invalid, a missing one is off
    assert isinstance(request.user, User)
    save_notifications(request.user, **form.cleaned_data)
    messages.success(request, _("Saved."))
    return redirect("my-profile")


@page_action
def claim(request: HttpRequest) -> HttpResponse:
    form = ClaimForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
        return redirect("my-profile")
    inv.claim_player(request.user, form.cleaned_data["handle"])
    messages.success(request, _("Your claim was sent to the club's organisers."))
    return redirect("my-profile")
