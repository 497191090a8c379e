"""Public results pages on the games side: an event's standings (with CSV export and each
player's point breakdown) and a released game told night by night.

Release gates: the standings read the league's standings tables, which count released
games only, and show published events only (``league.permissions.can_view_event``); the
game account shows a record only when ``games.permissions.can_see_secrets`` says so
(released, or an official of the game) and never otherwise — not even who held which card.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.formats import get_format, number_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_noop, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from engine.errors import EngineError
from engine.record import parse_record
from engine.scoring import get_profile, score_game, summarize
from games import permissions, selectors
from games.models import Game
from league import rankings
from league.csv_cells import SafeWriter
from league.middleware import use_club_timezone
from league.models import Event, Player
from league.outages import cache
from league.permissions import can_view_event
from league.results_models import EventStanding


def public_event(request: HttpRequest, club_slug: str, event_slug: str) -> Event:
    event = get_object_or_404(
        Event.objects.select_related("club"), club__slug=club_slug, slug=event_slug
    )
    if not can_view_event(request.user, event):
        raise Http404
    use_club_timezone(event.club)
    return event


class Words:
    """The translated words of the standings' reasons, looked up once per page."""

    def __init__(self) -> None:
        self.list_sep = pgettext("list separator", ", ")
        self.clause_sep = pgettext("clause separator", "; ")
        self.labels = {k: rankings.metric_label(k) for k in rankings.METRIC_LABELS}
        self.tied = _("tied with %(next)s on every tie-break")
        self.above = _("above %(next)s on %(metric)s (%(a)s vs %(b)s)")
        self.level = _("level on %(metrics)s")
        self.decimal = str(get_format("DECIMAL_SEPARATOR"))
        self._numbers: dict[str | None, str] = {}

    def number(self, value: str | None) -> str:
        """``value`` as the reader writes it; remembered, since a table repeats few values."""
        text = self._numbers.get(value)
        if text is None:
            text = self._numbers[value] = _short(value, self.decimal)
        return text

    def label(self, key: str) -> str:
        return self.labels.get(key) or rankings.metric_label(key)


def explain(row: Any, below: Any | None, words: Words | None = None) -> str:
    """Why ``row`` stands above the next line, in the reader's language."""
    above = row.above_next or {}
    if below is None or not above:
        return ""
    w = words or Words()
    level = w.list_sep.join(w.label(k) for k in above.get("level_on", []))
    metric = above.get("metric")
    if metric is None:
        return w.tied % {"next": _name(below)}
    text = w.above % {
        "next": _name(below),
        "metric": w.label(metric),
        "a": w.number(above.get("higher")),
        "b": w.number(above.get("lower")),
    }
    if level:
        text += w.clause_sep + w.level % {"metrics": level}
    return text


def _short(value: str | None, decimal: str | None = None) -> str:
    """A metric value as the reader writes numbers: "3", "1.5" / "1,5" (never "3E+1")."""
    if value is None:
        return "—"
    d = Decimal(value)
    shown = d.quantize(Decimal(1)) if d == d.to_integral() else d
    if decimal is None:
        return number_format(shown)  # the reader's decimal mark
    return str(shown).replace(".", decimal)


def _name(row: Any) -> str:
    """A standing row's player name (a model row or a :class:`rankings.Line`)."""
    if isinstance(row, rankings.Line):
        return row.display_name or row.handle
    return str(row.player.display_name if row.player is not None else row.handle)


def standings_table_html(event: Event, precedence: list[str]) -> str:
    """The standings table's rows, built directly (fast for events of hundreds)."""
    rows = rankings.standing_lines(event)
    columns = [k for k in precedence if k != "points"]
    player_prefix = reverse("results-player", args=["-"])[:-2]
    points_prefix = reverse("games:standings", args=[event.club.slug, event.slug])
    points_label = escape(_("points"))
    tied_label = escape(_("tied"))
    words = Words()
    out = []
    for i, row in enumerate(rows):
        below = rows[i + 1] if i + 1 < len(rows) else None
        handle = escape(row.handle)
        link = quote(row.handle)
        name = (
            f'<a href="{player_prefix}{link}/">{escape(row.display_name)}</a>'
            if row.display_name is not None
            else handle
        )
        why = explain(row, below, words)
        metrics = row.metrics or {}
        cells = "".join(f'<td class="num">{words.number(metrics.get(k))}</td>' for k in columns)
        tied = f' rank-tied" title="{tied_label}' if row.tied else ""
        # Decimals as a template shows them: every place kept, the reader's decimal mark.
        points = str(row.points).replace(".", words.decimal)
        ci = str(row.ci).replace(".", words.decimal)
        out.append(
            f'<tr id="row-{handle}"><td class="num{tied}">{row.rank}</td>'
            f'<td>{name} <a class="muted" href="{points_prefix}{link}/">{points_label}</a>'
            + (f'<span class="why">{escape(why)}</span>' if why else "")
            + f'</td><td class="num"><strong>{points}</strong></td>'
            f'<td class="num">{row.games}</td><td class="num">{ci}</td>{cells}</tr>'
        )
    return "".join(out)


@require_GET
def standings(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    event = public_event(request, club_slug, event_slug)
    state = rankings.event_state(event)
    precedence = list(state.precedence) if state is not None else []
    columns = [(k, rankings.metric_label(k)) for k in precedence if k != "points"]
    # Cached under the standings' version: a recomputation makes a new key.
    version = f"{state.version}-{state.digest[:12]}" if state is not None else "none"
    key = f"results:st:{event.pk}:{version}:{get_language()}"
    rows_html = cache.get(key)
    if rows_html is None:
        rows_html = standings_table_html(event, precedence)
        cache.set(key, rows_html, 600)
    return render(
        request,
        "games/public/standings.html",
        {
            "event": event,
            "state": state,
            "rows_html": mark_safe(rows_html),  # built from escaped parts
            "columns": columns,
        },
    )


@require_GET
def standings_csv(request: HttpRequest, club_slug: str, event_slug: str) -> HttpResponse:
    event = public_event(request, club_slug, event_slug)
    state = rankings.event_state(event)
    rows = rankings.event_standings(event)
    precedence = list(state.precedence) if state is not None else []
    words = Words()
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    writer = SafeWriter(response)
    writer.writerow(
        ["rank", "tied", "player", "name", "points", "wins", "games", "awards", "ci"]
        + [f"metric:{k}" for k in precedence]
        + ["above_next"]
    )
    for i, row in enumerate(rows):
        below = rows[i + 1] if i + 1 < len(rows) else None
        writer.writerow(
            [
                row.rank,
                "yes" if row.tied else "",
                row.handle,
                row.player.display_name if row.player else "",
                row.points,
                row.wins,
                row.games,
                row.awards,
                row.ci,
                *[(row.metrics or {}).get(k, "") for k in precedence],
                explain(row, below, words),
            ]
        )
    return response


@require_GET
def breakdown(request: HttpRequest, club_slug: str, event_slug: str, handle: str) -> HttpResponse:
    """One player's points in the event, game by game, with the reason for each point."""
    event = public_event(request, club_slug, event_slug)
    try:
        row = rankings.standing_of(event, handle)
    except EventStanding.DoesNotExist:
        raise Http404 from None
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in row.items:
        games[item["game"]].append(item)
    per_game = [
        {
            "game": gid,
            "items": items,
            "total": sum((Decimal(i["points"]) for i in items), Decimal(0)),
        }
        for gid, items in games.items()
    ]
    return render(
        request,
        "games/public/breakdown.html",
        {"event": event, "row": row, "games": per_game},
    )


# --- a released game, night by night ---------------------------------------------------------


def _who(seat: Any, seats: dict[int, dict[str, Any]]) -> str:
    info = seats.get(seat)
    if info is None:
        return _("seat %(n)s") % {"n": seat}
    return _("seat %(n)s %(name)s (%(role)s)") % {
        "n": seat,
        "name": info["name"],
        "role": rankings.ROLE_LABELS.get(info["role"], info["role"]),
    }


def account(record: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """The record's log as readable phases: ``[{"title", "lines": [...]}, ...]``."""
    seats = {
        s["seat"]: {"name": names.get(s["player"], s["player"]), "role": s["role"]}
        for s in record.get("seats", [])
    }
    phases = []
    for p in record.get("log") or []:
        lines: list[str] = []
        n = p.get("n")
        if p.get("phase") == "night":
            title = _("Night %(n)s") % {"n": n}
            kill = p.get("kill")
            lines.append(
                _("The killers killed %(who)s.") % {"who": _who(kill, seats)}
                if kill
                else _("The killers killed nobody.")
            )
            check = p.get("check")
            if check:
                verdict = (
                    _("a killer") if seats.get(check, {}).get("role") == "killer" else _("good")
                )
                lines.append(
                    _("The police checked %(who)s: %(verdict)s.")
                    % {"who": _who(check, seats), "verdict": verdict}
                )
        else:
            title = _("Day %(n)s") % {"n": n}
            for words in p.get("last_words") or []:
                named = ", ".join(_who(s, seats) for s in words.get("suspects", []))
                lines.append(
                    _("Last words of %(who)s: suspects %(named)s.")
                    % {"who": _who(words.get("seat"), seats), "named": named or _("nobody")}
                )
            for seat in p.get("eject") or []:
                lines.append(_("The referee ejected %(who)s.") % {"who": _who(seat, seats)})
            if p.get("surrender"):
                lines.append(_("%(who)s surrendered.") % {"who": _who(p["surrender"], seats)})
            for i, ballot in enumerate(p.get("ballots") or [], start=1):
                tally: dict[Any, int] = defaultdict(int)
                for _voter, target in ballot.items():
                    tally[target] += 1
                parts = [
                    _("%(who)s: %(n)s") % {"who": _who(t, seats), "n": c}
                    for t, c in sorted(tally.items(), key=lambda kv: -kv[1])
                    if t is not None
                ]
                if tally.get(None):
                    parts.append(_("abstained: %(n)s") % {"n": tally[None]})
                lines.append(_("Vote %(i)s — %(parts)s.") % {"i": i, "parts": "; ".join(parts)})
            if "lot" in p and p.get("lot"):
                lines.append(_("Drawn by lot: %(who)s.") % {"who": _who(p["lot"], seats)})
            if "eliminated" in p:
                out = p.get("eliminated")
                lines.append(
                    _("%(who)s was voted out.") % {"who": _who(out, seats)}
                    if out
                    else _("Nobody was voted out.")
                )
        phases.append({"title": title, "lines": lines})
    return phases


WINNER_TEXT = {
    "good": gettext_noop("The good side (police and civilians) won."),
    "killers": gettext_noop("The killers won."),
    "draw": gettext_noop("The game was drawn."),
}


@require_GET
def game_account(request: HttpRequest, pk: int) -> HttpResponse:
    """A released game's record as a story, with each player's points and reasons."""
    try:
        game = selectors.game_by_id(pk)
    except Game.DoesNotExist:
        raise Http404 from None
    if not permissions.can_view_game(request.user, game):
        raise Http404
    secrets = permissions.can_see_secrets(request.user, game)
    record = selectors.confirmed_record(game) if secrets else None
    context: dict[str, Any] = {"game": game, "record": record, "released": game.released}
    if record is not None:
        handles = [s.get("player") for s in record.get("seats", [])]
        names = dict(
            Player.objects.filter(handle__in=handles).values_list("handle", "display_name")
        )
        event = game.event
        profile = get_profile(event.scoring_profile if event else "club-v1")
        try:
            score = score_game(summarize(parse_record(record), str(game.pk)), profile)
        except (EngineError, ValueError):
            score = None
        seats = []
        points = {p.seat: p for p in score.players} if score else {}
        for s in record.get("seats", []):
            ps = points.get(s["seat"])
            seats.append(
                {
                    "seat": s["seat"],
                    "handle": s["player"],
                    "name": names.get(s["player"], s["player"]),
                    "role": s["role"],
                    "role_label": rankings.ROLE_LABELS.get(s["role"], s["role"]),
                    "points": ps.total if ps else None,
                    "items": ps.items if ps else (),
                }
            )
        winner = (record.get("result") or {}).get("winner")
        context.update(
            {
                "phases": account(record, names),
                "seats": seats,
                "winner_text": _(WINNER_TEXT[winner]) if winner in WINNER_TEXT else "",
                "profile": profile.key,
            }
        )
    return render(request, "games/public/game.html", context)
