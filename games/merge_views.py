"""The page to merge duplicate players (``/games/players/merge/``): choose the survivor
and the duplicate by handle, read what will move (counts per kind, or why the merge is
refused), then confirm with a POST. The merge itself is :func:`games.merge.merge_players`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from games.merge import MergePlan, merge_plan, merge_players
from games.permissions import access_for, signed_in
from league.errors import UserError, require
from league.models import Player
from league.pages import login_first


def _handle(request: HttpRequest, name: str) -> str:
    data = request.POST if request.method == "POST" else request.GET
    return (data.get(name) or "").strip().lstrip("@").lower()[:60]


@login_first
def merge_page(request: HttpRequest) -> HttpResponse:
    require(access_for(request).can_manage_players())
    survivor_handle, duplicate_handle = _handle(request, "survivor"), _handle(request, "duplicate")
    plan: MergePlan | None = None
    refusal = ""
    if survivor_handle and duplicate_handle:
        survivor = get_object_or_404(Player, handle=survivor_handle)
        duplicate = get_object_or_404(Player, handle=duplicate_handle)
        if request.method == "POST":  # a refusal: the middleware's message, then back
            done = merge_players(signed_in(request), survivor, duplicate)
            messages.success(
                request,
                _("@%(duplicate)s was merged into @%(survivor)s (%(records)s records rewritten).")
                % {
                    "duplicate": duplicate.handle,
                    "survivor": survivor.handle,
                    "records": len(done.games),
                },
            )
            return redirect("results:player", handle=survivor.handle)
        try:
            plan = merge_plan(signed_in(request), survivor, duplicate)
        except UserError as exc:  # shown on the page, above the form that keeps the handles
            if exc.status == 403:
                raise
            refusal = exc.message
    return render(
        request,
        "games/merge.html",
        {
            "survivor": survivor_handle,
            "duplicate": duplicate_handle,
            "plan": plan,
            "refusal": refusal,
        },
    )
