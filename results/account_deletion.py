"""Deleting one's own account (issue #22 item 5): the account is closed and emptied, and
the linked player's name becomes a pseudonym in every record
(:func:`games.erasure.erase_names`). Records stay valid, standings keep their
points and order; only the name changes.

- **Confirmation**: the user types their username; anything else is refused (400).
- **Refused** (409) while the user is the only organiser of a club: the club would be
  left without anyone to run it (another organiser first, or a site administrator).
- **The account** is kept as a row — versions and rulings point to who confirmed them,
  and "not your own submission" depends on it — but emptied: inactive, username
  ``deleted-…``, no e-mail address or name, no usable password; its API token,
  two-factor devices, preferences, e-mail log, claims, organiser roles, event staff
  places and log-in attempts are deleted. Every session of it ends (an inactive account
  is signed out everywhere).
- **The pseudonym** is ``Player-`` and six hex digits (handle ``player-…``). The drawing
  of lots of a standing hashes the handle, so the pseudonym is drawn until each line the
  lots placed next to the player keeps its side (up to :data:`DRAWS` draws; after that
  the closest is taken and the audit entry names the events where the lots moved).
  Lines tied on a whole ladder without lots keep their shared rank.
- **The standings** of the player's events are computed again in the same transaction
  and compared with what they were: the audit entry lists any event whose order or
  points moved (``order_changed``: empty unless the lots above could not be kept).
- **Audited**: ``account.delete`` (by the user, on the account) with the pseudonym, the
  counts of games, versions and audit entries rewritten — never the old name.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from games.erasure import Erasure, erase_names
from league.audit import audit
from league.clubs.profiles import Notification, Preferences
from league.errors import UserError
from league.models import Club, ClubOrganiser, Player, PlayerClaim
from league.outages import cache
from results.models import (
    AnalyticsScope,
    EventResults,
    EventStanding,
    RatingsLedger,
    StageStanding,
)
from results.pipeline.standings import recompute_event

#: How many pseudonyms are drawn at most to keep every lot-decided neighbour in place.
DRAWS = 4000


@dataclass(frozen=True)
class Lot:
    """The pseudonym's lot for ``seed`` must come after ``after``'s and before ``before``'s
    (a handle, or None) — the lines the lots put just above and below the player."""

    event_id: int
    seed: int
    after: str | None
    before: str | None


def _lot(seed: int, handle: str) -> bytes:
    """The lot :func:`engine.standings.draw_lots` gives ``handle`` (lower draws first)."""
    return hashlib.sha256(f"{seed}\x00{handle}".encode()).digest()


def _neighbours(rows: list[dict[str, Any]], player_id: int, event_id: int, seed: int) -> list[Lot]:
    index = next((i for i, r in enumerate(rows) if r["player_id"] == player_id), None)
    if index is None:
        return []
    above = rows[index - 1] if index > 0 else None
    below = rows[index + 1] if index + 1 < len(rows) else None
    after = (
        above["handle"] if above and (above["above_next"] or {}).get("metric") == "lots" else None
    )
    before = (
        below["handle"]
        if below and (rows[index]["above_next"] or {}).get("metric") == "lots"
        else None
    )
    return [Lot(event_id, seed, after, before)] if after or before else []


def lot_constraints(player: Player) -> list[Lot]:
    """Where the lots placed ``player`` next to another line: in each event's standings
    (a one-stage event; seed = the event's) and each stage's (seed + the stage)."""
    events = set(EventStanding.objects.filter(player=player).values_list("event_id", flat=True))
    events |= set(StageStanding.objects.filter(player=player).values_list("event_id", flat=True))
    seeds = dict(EventResults.objects.filter(event_id__in=events).values_list("event_id", "seed"))
    staged = set(
        StageStanding.objects.filter(event_id__in=events)
        .values("event_id")
        .annotate(n=Count("stage", distinct=True))
        .values_list("event_id", flat=True)
    )
    fields = ("event_id", "handle", "player_id", "above_next")
    lots: list[Lot] = []
    for event_id in sorted(events):
        seed = seeds.get(event_id, event_id)
        if event_id in staged:
            rows = list(
                StageStanding.objects.filter(event_id=event_id)
                .order_by("stage", "position")
                .values("stage", *fields)
            )
            for stage in sorted({r["stage"] for r in rows}):
                part = [r for r in rows if r["stage"] == stage]
                lots += _neighbours(part, player.pk, event_id, seed + stage)
        else:
            rows = list(
                EventStanding.objects.filter(event_id=event_id).order_by("position").values(*fields)
            )
            lots += _neighbours(rows, player.pk, event_id, seed)
    return lots


def _misses(handle: str, lots: list[Lot]) -> list[int]:
    """The events where ``handle`` would move across a lot-decided neighbour."""
    missed = []
    for lot in lots:
        mine = _lot(lot.seed, handle)
        if (lot.after is not None and not _lot(lot.seed, lot.after) < mine) or (
            lot.before is not None and not mine < _lot(lot.seed, lot.before)
        ):
            missed.append(lot.event_id)
    return missed


def choose_pseudonym(player: Player) -> tuple[str, str, list[int]]:
    """``(handle, display name, events whose lots move)`` — the last empty but for a
    player with more lot-decided neighbours than :data:`DRAWS` draws could satisfy."""
    lots = lot_constraints(player)
    best: tuple[str, list[int]] | None = None
    for _draw in range(DRAWS):
        handle = f"player-{secrets.token_hex(3)}"
        missed = _misses(handle, lots)
        if best is not None and len(missed) >= len(best[1]):
            continue
        if Player.objects.filter(handle=handle).exists():
            continue
        best = (handle, missed)
        if not missed:
            break
    assert best is not None
    handle, missed = best
    return handle, "Player-" + handle.removeprefix("player-"), sorted(set(missed))


def _events_of(player: Player | None) -> list[int]:
    """The events in whose standings ``player`` has a line."""
    if player is None:
        return []
    ids = set(EventStanding.objects.filter(player=player).values_list("event_id", flat=True))
    ids |= set(StageStanding.objects.filter(player=player).values_list("event_id", flat=True))
    return sorted(ids)


def _order(event_id: int) -> list[tuple[Any, ...]]:
    """An event's standings (and its stages') as (player, rank, points), in order."""
    lines: list[tuple[Any, ...]] = list(
        EventStanding.objects.filter(event_id=event_id)
        .order_by("position")
        .values_list("player_id", "rank", "points")
    )
    lines += list(
        StageStanding.objects.filter(event_id=event_id)
        .order_by("stage", "position")
        .values_list("stage", "player_id", "rank", "points")
    )
    return lines


def _only_organiser_of(user: User) -> list[str]:
    mine = ClubOrganiser.objects.filter(user=user).values_list("club_id", flat=True)
    alone = (
        Club.objects.filter(pk__in=mine)
        .annotate(n=Count("organisers"))
        .filter(n=1)
        .order_by("name")
        .values_list("name", flat=True)
    )
    return list(alone)


def _free_username(wanted: str, user: User) -> str:
    username = wanted
    while User.objects.filter(username=username).exclude(pk=user.pk).exists():
        username = f"deleted-{secrets.token_hex(4)}"
    return username


def _empty_account(user: User, username: str) -> None:
    """Close and empty the account (see the module)."""
    old = user.username
    Token.objects.filter(user=user).delete()
    TOTPDevice.objects.filter(user=user).delete()
    Preferences.objects.filter(user=user).delete()
    Notification.objects.filter(user=user).delete()
    PlayerClaim.objects.filter(user=user).delete()
    ClubOrganiser.objects.filter(user=user).delete()
    user.staffed_events.clear()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=old).delete()
    user.username = username
    user.email = ""
    user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()


def _forget_home_page() -> None:
    cache.delete_many(f"results:home:v1:{code}" for code, _name in settings.LANGUAGES)


@dataclass(frozen=True)
class Deletion:
    username: str
    erasure: Erasure | None
    lots_moved: list[int]


def delete_account(actor: User, *, confirm: str) -> Deletion:
    """Delete ``actor``'s own account (see the module); ``confirm`` is the username typed."""
    if not (isinstance(actor, User) and actor.is_authenticated and actor.is_active):
        raise UserError(_("Sign in to delete your account."), code="not_allowed", status=403)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=actor.pk)
        if (confirm or "").strip() != user.username:
            raise UserError(
                _("Type your username exactly to confirm the deletion."),
                code="account.confirm_mismatch",
            )
        alone = _only_organiser_of(user)
        if alone:
            raise UserError(
                _(
                    "You are the only organiser of %(clubs)s: invite another organiser "
                    "before you delete your account."
                ),
                code="account.last_organiser",
                params={"clubs": alone},
                status=409,
            )
        player = Player.objects.filter(user=user).first()
        moved: list[int] = []
        if player is not None:
            handle, name, moved = choose_pseudonym(player)
        else:
            handle = f"account-{secrets.token_hex(3)}"
            name = handle
        username = _free_username(f"deleted-{handle}", user)
        events = _events_of(player)
        before = {e: _order(e) for e in events}
        erasure = erase_names(
            user, user, player, handle=handle, display_name=name, username=username
        )
        # the standings under the new name now, in this transaction (the tasks that the
        # erasure enqueued find them fresh): same points, same order, or it is said
        for event_id in events:
            recompute_event(event_id)
        changed = sorted(e for e in events if _order(e) != before[e])
        _empty_account(user, username)
        # the rating pages are cached under the ratings' version: a new one, new keys;
        # the home page's block (results.views.home, 30 s) goes after the commit
        RatingsLedger.objects.filter(pk=1).update(computed_at=timezone.now())
        # so are the analytics' figures (results.views.analytics): those naming this
        # account as a referee get a new version, so no rendering keeps the old name
        AnalyticsScope.objects.filter(figures__referee__user=user).update(
            computed_at=timezone.now()
        )
        transaction.on_commit(_forget_home_page)
        audit(
            user,
            "account.delete",
            user,
            pseudonym=handle if player is not None else None,
            player=player.pk if player is not None else None,
            games=len(erasure.games),
            versions=erasure.versions,
            audit_entries=erasure.audit_entries,
            lots_moved=moved,
            order_changed=changed,
        )
    return Deletion(user.username, erasure if player is not None else None, moved)
