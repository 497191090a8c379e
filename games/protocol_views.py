"""The blank paper protocol: one table's (from its game's page), every table of a round
(from the draw page, one table a page), and the table entry its QR code opens.

Who may print: a game's protocol its officials (its referee, the organisers of its event
or club, site admins); a round's, whoever may manage the event. Everybody else gets a 404,
as for the game's other officials' pages. A blank protocol shows seats and players, never
a role.
"""

from __future__ import annotations

import segno
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.models import Game
from games.permissions import access_for
from games.protocol import Protocol, game_protocol, round_protocols
from games.views import official_game
from league.middleware import use_club_timezone
from league.models import Event, Table


def qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` (segno, medium error correction: a folded or
    smudged sheet still scans)."""
    return str(segno.make(url, error="m").svg_inline(scale=3, dark="#000", light="#fff"))


def _sheets(request: HttpRequest, protocols: list[Protocol]) -> list[dict[str, object]]:
    sheets = []
    for p in protocols:
        url = request.build_absolute_uri(p.target)
        sheets.append({"p": p, "url": url, "qr": qr_svg(url)})
    return sheets


@login_required
def game_protocol_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = official_game(request, pk)
    if game.voided:
        raise Http404  # a voided game is played nowhere: its table is free for a new one
    protocol = game_protocol(game, access_for(request))
    return render(
        request,
        "games/protocol.html",
        {"game": game, "sheets": _sheets(request, [protocol]), "back": game},
    )


@login_required
def round_protocol_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if not access_for(request).can_manage_event(event):
        raise Http404
    use_club_timezone(event.club)
    round_ = get_object_or_404(event.rounds, number=number)
    return render(
        request,
        "games/protocol.html",
        {"event": event, "round": round_, "sheets": _sheets(request, round_protocols(round_))},
    )


@login_required
def table_entry(request: HttpRequest, table_pk: int) -> HttpResponse:
    """Where a protocol's QR code leads: the table's game — its live sheet while it is
    being played, its page once confirmed — or, before the game is opened, a button that
    opens it (the table's referee and the event's organisers; a 404 for anyone else)."""
    table = get_object_or_404(
        Table.objects.select_related("round__event__club", "referee"), pk=table_pk
    )
    is_referee = table.referee is not None and table.referee.user_id == request.user.pk
    if not (is_referee or access_for(request).can_manage_event(table.round.event)):
        raise Http404
    game = Game.objects.filter(table=table).first()
    if game is not None:
        done = game.status in (Game.Status.CONFIRMED, Game.Status.RELEASED)
        return redirect("games:game" if done else "games:sheet", pk=game.pk)
    return render(request, "games/protocol_open.html", {"table": table, "round": table.round})
