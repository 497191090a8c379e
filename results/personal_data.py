"""Everything the site holds about a signed-in user, as one JSON document (issue #22
item 5): the account, its preferences and roles, the linked player, memberships,
registrations, seats of released rounds, the released games they played (their own
seat, role and awards, the table's players — never another player's role), ratings and
their history, standings lines, protests they filed and the audit entries about them or
by them. It lives in ``results``, the highest layer, because it reads every app.

What it leaves out on purpose: secrets (the password's hash, an API token's key, a
two-factor device's key, personal links' secrets) — their existence and dates are in —
and anything not yet released (a seat of a round still in draft, a game not released).
Bounded: at most :data:`MAX_AUDIT` audit entries (the newest), said when cut. Each
download is audited (``personal_data.download``).
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.merge import player_games
from games.models import Game, GameVersion, Protest
from league.audit import audit
from league.clubs.profiles import Preferences
from league.csv_cells import SafeWriter
from league.models import (
    AuditEntry,
    ClubOrganiser,
    Membership,
    Player,
    PlayerClaim,
    Referee,
    Registration,
    Seat,
)
from league.permissions import PUBLIC_ROUND_STATUSES
from results.models import EventStanding, PlayerRating, RatingPoint, SeasonStanding

FORMAT = "tianhei-personal-data/1"
#: The most audit entries one download holds (the newest first).
MAX_AUDIT = 5000


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _account(user: User) -> dict[str, Any]:
    prefs = Preferences.objects.filter(user=user).first()
    token = Token.objects.filter(user=user).first()
    referee = Referee.objects.filter(user=user).select_related("club").first()
    return {
        "username": user.username,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "is_active": user.is_active,
        "preferences": {
            "language": prefs.language if prefs else "",
            "notify_round_released": prefs.notify_round_released if prefs else True,
            "notify_game_results": prefs.notify_game_results if prefs else True,
            "notify_waitlist": prefs.notify_waitlist if prefs else True,
        },
        "api_token": {
            "exists": token is not None,
            "created": _when(token.created if token else None),
        },
        "two_factor": user.totpdevice_set.filter(confirmed=True).exists(),  # type: ignore[attr-defined]
        "organiser_of": [
            {"club": o.club.name, "slug": o.club.slug}
            for o in ClubOrganiser.objects.filter(user=user).select_related("club")
        ],
        "referee": (
            {"club": referee.club.name if referee.club else None, "grade": referee.grade}
            if referee is not None
            else None
        ),
        "staff_of_events": [e.name for e in user.staffed_events.order_by("pk")],
        "claims": [
            {
                "player": c.player.handle,
                "club": c.club.name,
                "status": c.status,
                "created_at": _when(c.created_at),
            }
            for c in PlayerClaim.objects.filter(user=user).select_related("player", "club")
        ],
    }


def _player(player: Player) -> dict[str, Any]:
    return {
        "handle": player.handle,
        "display_name": player.display_name,
        "created_at": _when(player.created_at),
        "memberships": [
            {"club": m.club.name, "joined": _when(m.joined), "left": _when(m.left)}
            for m in Membership.objects.filter(player=player).select_related("club")
        ],
        "registrations": [
            {
                "event": r.event.name,
                "club": r.event.club.name,
                "status": r.status,
                "checked_in_at": _when(r.checked_in_at),
                "waitlisted_at": _when(r.waitlisted_at),
                "absent_rounds": r.absent_rounds,
                "created_at": _when(r.created_at),
            }
            for r in Registration.objects.filter(player=player).select_related("event__club")
        ],
        "seats": [
            {
                "event": s.round.event.name,
                "round": s.round.number,
                "table": s.table.number,
                "seat": s.number,
            }
            for s in Seat.objects.filter(
                player=player, round__status__in=PUBLIC_ROUND_STATUSES
            ).select_related("round__event", "table")
        ],
    }


def _games(player: Player) -> list[dict[str, Any]]:
    """The released games the player played: their seat, role and awards, the table."""
    games = [g for g in player_games(player) if g.status == Game.Status.RELEASED]
    versions = {
        v.game_id: v
        for v in GameVersion.objects.filter(game__in=games, status=GameVersion.Status.CONFIRMED)
    }
    out = []
    for game in games:
        version = versions.get(game.pk)
        if version is None:
            continue
        record = version.record
        seats = [s for s in record.get("seats", []) if isinstance(s, dict)]
        mine = next((s for s in seats if s.get("player") == player.handle), None)
        if mine is None:
            continue
        role = str(mine.get("role"))
        side = "killers" if role == "killer" else "good"
        winner = version.winner or str((record.get("result") or {}).get("winner", ""))
        event = game.event
        out.append(
            {
                "game": game.pk,
                "title": str(game),
                "event": event.name if event is not None else None,
                "club": game.the_club.name,
                "round": game.round.number if game.round is not None else None,
                "played_on": _when(game.played_on),
                "seat": mine.get("seat"),
                "role": role,
                "winner": winner,
                "outcome": "draw" if winner == "draw" else ("win" if winner == side else "loss"),
                "players": [{"seat": s.get("seat"), "player": s.get("player")} for s in seats],
                "awards": [
                    a
                    for a in record.get("awards", [])
                    if isinstance(a, dict) and a.get("seat") == mine.get("seat")
                ],
                "completeness": version.completeness,
            }
        )
    return out


def _results(player: Player) -> dict[str, Any]:
    rating = PlayerRating.objects.filter(player=player).first()
    fields = ("rating", "uncertainty", "games", "wins", "draws")
    return {
        "rating": {f: getattr(rating, f) for f in fields} if rating is not None else None,
        "rating_history": [
            {
                "game": p.game_id,
                "played_on": _when(p.played_on),
                "seat": p.seat,
                "role": p.role,
                "outcome": p.outcome,
                "rating": p.rating,
                "uncertainty": p.uncertainty,
            }
            for p in RatingPoint.objects.filter(player=player).order_by("played_on", "game_id")
        ],
        "standings": [
            {
                "event": s.event.name,
                "position": s.position,
                "rank": s.rank,
                "tied": s.tied,
                "points": str(s.points),
                "games": s.games,
                "wins": s.wins,
            }
            for s in EventStanding.objects.filter(player=player).select_related("event")
        ],
        "season_standings": [
            {"season": str(s.season), "points": str(s.points), "games": s.games, "wins": s.wins}
            for s in SeasonStanding.objects.filter(player=player).select_related("season__league")
        ],
    }


def _protests(player: Player | None, user: User) -> list[dict[str, Any]]:
    mine = Q(filed_by=user) | (Q(player=player) if player is not None else Q(pk__in=[]))
    return [
        {
            "game": p.game_id,
            "phase": p.phase,
            "text": p.text,
            "evidence": p.evidence,
            "status": p.status,
            "ruling": p.ruling if p.status != Protest.Status.OPEN else "",
            "created_at": _when(p.created_at),
        }
        for p in Protest.objects.filter(mine)
    ]


def _audit(player: Player | None, user: User) -> tuple[list[dict[str, Any]], bool]:
    about = Q(actor=user) | Q(target_type=user._meta.label_lower, target_id=user.pk)
    if player is not None:
        about |= Q(target_type=player._meta.label_lower, target_id=player.pk)
    rows = list(AuditEntry.objects.filter(about).order_by("-at", "-pk")[: MAX_AUDIT + 1])
    entries = [
        {
            "at": _when(e.at),
            "action": e.action,
            "target": f"{e.target_type}:{e.target_id}",
            "by_you": e.actor_id == user.pk,
            "data": e.data,
        }
        for e in rows[:MAX_AUDIT]
    ]
    return entries, len(rows) > MAX_AUDIT


def export_personal_data(user: User) -> dict[str, Any]:
    """:func:`personal_data`, with an audit entry saying the user took it (when, and how
    many games and audit entries it held)."""
    data = personal_data(user)
    audit(
        user,
        "personal_data.download",
        user,
        games=len(data["games"]),
        audit_entries=len(data["audit"]),
    )
    return data


def personal_data(user: User) -> dict[str, Any]:
    """Everything about ``user`` (see the module), as plain JSON values."""
    player = Player.objects.filter(user=user).first()
    audit, cut = _audit(player, user)
    data: dict[str, Any] = {
        "format": FORMAT,
        "generated_at": _when(timezone.now()),
        "account": _account(user),
        "player": None,
        "games": [],
        "results": None,
        "protests": _protests(player, user),
        "audit": audit,
        "audit_truncated": cut,
    }
    if player is not None:
        data.update(player=_player(player), games=_games(player), results=_results(player))
    return data


#: The CSV files of the zip: name → (the list in the JSON, its columns).
CSV_FILES = {
    "games.csv": (
        ("games",),
        (
            "game",
            "title",
            "event",
            "club",
            "round",
            "played_on",
            "seat",
            "role",
            "winner",
            "outcome",
        ),
    ),
    "rating_history.csv": (
        ("results", "rating_history"),
        ("game", "played_on", "seat", "role", "outcome", "rating", "uncertainty"),
    ),
    "standings.csv": (
        ("results", "standings"),
        ("event", "position", "rank", "tied", "points", "games", "wins"),
    ),
    "registrations.csv": (
        ("player", "registrations"),
        ("event", "club", "status", "checked_in_at", "waitlisted_at", "created_at"),
    ),
}


def _rows(data: dict[str, Any], path: tuple[str, ...]) -> list[dict[str, Any]]:
    value: Any = data
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, list) else []


def as_json(data: dict[str, Any]) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


def as_zip(data: dict[str, Any]) -> bytes:
    """``data.json`` and, for spreadsheets, the lists of :data:`CSV_FILES` as CSV
    (UTF-8 with a byte-order mark, cells safe from formula injection)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.json", as_json(data))
        for name, (path, columns) in CSV_FILES.items():
            text = io.StringIO()
            writer = SafeWriter(text)
            writer.writerow(columns)
            for row in _rows(data, path):
                writer.writerow(row.get(c) for c in columns)
            archive.writestr(name, "\ufeff" + text.getvalue())
    return out.getvalue()
