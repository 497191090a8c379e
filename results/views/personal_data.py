"""A signed-in user's own data: what the site holds (a page and its JSON download) and
the deletion of the account, with a confirmation (type your username)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.merge import player_games
from games.permissions import signed_in
from league.errors import UserError
from league.models import Player
from league.pages import login_first
from results.account_deletion import delete_account
from results.personal_data import as_json, as_zip, export_personal_data


class DeleteAccountForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Type your username to confirm"), max_length=150, strip=True
    )


@require_GET
@login_first
def my_data(request: HttpRequest) -> HttpResponse:
    """What the download holds, the download, and the way to delete the account."""
    player = Player.objects.filter(user=signed_in(request)).first()
    return render(request, "results/personal_data.html", {"player": player})


@require_GET
@login_first
def my_data_download(request: HttpRequest) -> HttpResponse:
    """Everything about the signed-in user: a JSON file, or (``?format=zip``) a zip of the
    JSON and CSV files of its lists."""
    data = export_personal_data(signed_in(request))
    if request.GET.get("format") == "zip":
        response = HttpResponse(as_zip(data), content_type="application/zip")
        name = "tianhei-my-data.zip"
    else:
        response = HttpResponse(as_json(data), content_type="application/json; charset=utf-8")
        name = "tianhei-my-data.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


@login_first
def delete_my_account(request: HttpRequest) -> HttpResponse:
    """GET: what deletion does; POST: the typed username confirms it."""
    user = signed_in(request)
    player = Player.objects.filter(user=user).first()
    form = DeleteAccountForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:  # a refusal shows the form again, with why
                delete_account(user, confirm=form.cleaned_data["username"])
            except UserError as e:
                form.add_error("username" if e.status == 400 else None, e.message)
                status = e.status
            else:
                logout(request)
                messages.success(
                    request,
                    _("Your account was deleted; your name was replaced in every record."),
                )
                return redirect("home")
        else:
            status = 400
    games = len(player_games(player)) if player is not None else 0
    context = {"form": form, "player": player, "games": games}
    return render(request, "results/personal_data_delete.html", context, status=status)
