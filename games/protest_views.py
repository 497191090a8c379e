"""Protest pages (``games.protests``): a game's protests, filing one (signed in, or from
a player's personal link ``/e/<secret>/games/<pk>/protest/``) with a confirmation step,
and the chief referee's ruling. Thin: the service decides who may; a refusal is shown
above the form, which keeps what was typed.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from games import paper, protests
from games.models import Game, GameVersion, Protest
from games.permissions import access_for, signed_in
from games.selectors import confirmed_version
from games.views import visible_game
from league.errors import UserError
from league.events.personal import link_for_token
from league.middleware import use_club_timezone
from league.pages import login_first


class ProtestForm(forms.Form):
    phase = forms.ChoiceField(label=gettext_lazy("Where in the game"))
    text = forms.CharField(
        label=gettext_lazy("What do you protest against?"),
        max_length=Protest.TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 5}),
    )
    evidence = forms.URLField(
        label=gettext_lazy("Photo or video link (optional)"),
        max_length=Protest.URL_MAX,
        required=False,
        assume_scheme="https",
    )

    def __init__(self, *args: Any, phases: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["phase"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = phases


class RulingForm(forms.Form):
    decision = forms.ChoiceField(
        label=gettext_lazy("Ruling"),
        choices=[
            (Protest.Status.UPHELD, gettext_lazy("Upheld: the record is corrected")),
            (Protest.Status.REJECTED, gettext_lazy("Rejected: the record stays as it is")),
        ],
        widget=forms.RadioSelect,
    )
    ruling = forms.CharField(
        label=gettext_lazy("Ruling and reasons"),
        max_length=Protest.TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    record = forms.CharField(
        label=gettext_lazy("Corrected record, when upheld (the notation, or KGR/1 JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )


def _private(response: HttpResponse) -> HttpResponse:
    """A page whose address holds a personal secret: never cached, no referrer out."""
    response["Cache-Control"] = "no-store, private"
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _file(
    request: HttpRequest,
    game: Game,
    filer: protests.Filer,
    action: str,
    done: str,
) -> HttpResponse:
    """The file form: fill in, read it back (confirm), file; back to ``done``."""
    if game.status != Game.Status.RELEASED or not protests.may_file(filer, game):
        raise Http404  # nothing to protest here, or not theirs to protest
    version = confirmed_version(game)
    phases = protests.phase_choices(version.record if version is not None else None)
    form = ProtestForm(request.POST or None, phases=phases)
    error = ""
    confirming = False
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if request.POST.get("confirm") == "1":
            try:
                protests.file_protest(
                    filer, game, phase=data["phase"], text=data["text"], evidence=data["evidence"]
                )
            except UserError as exc:
                error = str(exc.message)
            else:
                messages.success(
                    request, _("Your protest was filed; the chief referee will rule on it.")
                )
                return redirect(done)
        elif request.POST.get("edit") != "1":
            confirming = True
    access = access_for(request)
    mine = [p for p in protests.visible_protests(access, game, filer) if filer.owns(p)]
    context = {
        "game": game,
        "mine": mine,
        "form": form,
        "action": action,
        "done": done,
        "error": error,
        "confirming": confirming,
        "phase_text": protests.phase_label(form.cleaned_data.get("phase", ""))
        if confirming
        else "",
    }
    return render(request, "games/protest_file.html", context)


@login_first
@require_http_methods(["GET", "POST"])
def protest_file(request: HttpRequest, pk: int) -> HttpResponse:
    """A signed-in player of the game, or an organiser of its event, files a protest."""
    game = visible_game(request, pk)
    action = reverse("games:protest-file", args=[pk])
    return _file(request, game, protests.Filer.from_user(request.user), action, _list_url(game))


@require_http_methods(["GET", "POST"])
def protest_file_personal(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """A player files from their personal page: the link proves who they are."""
    link = link_for_token(token)
    if link is None or link.registration is None:
        raise Http404
    use_club_timezone(link.event.club)
    game = visible_game(request, pk)
    action = reverse("games:protest-file-personal", args=[token, pk])
    done = reverse("personal-page", args=[token])
    return _private(_file(request, game, protests.Filer.from_link(link), action, done))


def _list_url(game: Game) -> str:
    return reverse("games:protests", args=[game.pk])


@require_GET
def protest_list(request: HttpRequest, pk: int) -> HttpResponse:
    """A game's protests: ruled ones for everyone who may read the record, open ones for
    its officials, chief referees and filers."""
    game = visible_game(request, pk)
    access = access_for(request)
    filer = protests.Filer.from_user(request.user)
    rows = protests.visible_protests(access, game, filer)
    context = {
        "game": game,
        "protests": rows,
        "may_rule": protests.may_rule(access, game),
        "may_file": game.status == Game.Status.RELEASED and protests.may_file(filer, game, access),
    }
    return render(request, "games/protest_list.html", context)


def _ruled_protest(request: HttpRequest, pk: int, protest_pk: int) -> tuple[Game, Protest]:
    game = visible_game(request, pk)
    if not protests.may_rule(access_for(request), game):
        raise Http404
    protest = Protest.objects.select_related("player", "filed_by").filter(pk=protest_pk, game=game)
    found = protest.first()
    if found is None:
        raise Http404
    return game, found


def _record_text(game: Game) -> str:
    """The confirmed record to correct: in the notation (a line a phase, easy to change on
    a phone), as JSON only when it cannot be printed."""
    version = confirmed_version(game)
    if version is None:
        return ""
    return paper.printed(version.record) or json.dumps(version.record, ensure_ascii=False)


def _correction(text: str) -> Any:
    """The typed correction: JSON as it is (the record reader judges it), anything else
    read as the notation (:class:`games.paper.TextProblem` names line and column)."""
    if not text or text.lstrip().startswith("{"):
        return text or None
    return paper.parse_text(text)


@login_first
@require_http_methods(["GET", "POST"])
def protest_rule(request: HttpRequest, pk: int, protest_pk: int) -> HttpResponse:
    """The chief referee's ruling: upheld with the corrected record, or rejected."""
    game, protest = _ruled_protest(request, pk, protest_pk)
    form = RulingForm(request.POST or None, initial={"record": _record_text(game)})
    error = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        upheld = data["decision"] == Protest.Status.UPHELD
        try:
            protests.rule_protest(
                signed_in(request),
                protest,
                decision=data["decision"],
                ruling=data["ruling"],
                record=_correction(data["record"]) if upheld else None,
                source=GameVersion.Source.UPLOAD,
            )
        except paper.TextProblem as exc:
            error = exc.message
        except UserError as exc:
            error = str(exc.message)
        else:
            messages.success(request, _ruled_message(protest, upheld))
            return redirect(_list_url(game))
    protest.phase_text = protests.phase_label(protest.phase)  # type: ignore[attr-defined]
    context = {"game": game, "protest": protest, "form": form, "error": error}
    return render(request, "games/protest_rule.html", context)


def _ruled_message(protest: Protest, upheld: bool) -> str:
    if not upheld:
        return _("The protest was rejected; the ruling is now public.")
    protest.refresh_from_db()
    number = protest.version.number if protest.version else "?"
    return _(
        "The protest was upheld and version %(n)s submitted: another official must confirm it."
    ) % {"n": number}
