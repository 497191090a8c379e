"""Merging a duplicate player into the survivor (issue #18): every seat, registration,
membership, conflict, account link and game record of the duplicate moves to the
survivor, and the duplicate is deleted. It lives in ``games`` because it rewrites records.

- **Who**: a site admin, or an organiser who organises every club the duplicate's rows
  belong to (its memberships, the events of its registrations and seats, its club games)
  and a club of the survivor (any organiser if the survivor belongs to no club yet).
- **Refused** (``merge.*`` codes): the same player twice; either player has a game in
  progress — a game of theirs (at a table they sit at, or a club game naming them) that
  is ``draft`` or ``submitted``, or a confirmed or released game with a correction
  pending (a draft or submitted version after the confirmed one); both sat in the same
  round of an event, or in the same club game; both have an account.
- **Registrations** in an event both are registered in are merged into the survivor's:
  registered if either was, checked in at the earlier time, absent only from the rounds
  both said they would miss. Memberships are united (two current memberships of one club
  become the survivor's, joined at the earlier date); conflicts move (a conflict between
  the two is dropped, a repeated one kept once).
- **Records** are never edited: every confirmed or released game whose confirmed version
  names the duplicate gets a new version, the same record with the survivor's handle,
  judged again by the engine (:func:`games.records.check_record`) and confirmed by the
  actor; the old one is superseded and kept. The status stays; the history gets a line.
  Voided games are final and keep everything as it was.
- **Results** are not moved but recomputed: each rewritten game goes through
  ``results_pending`` and, after the commit, ``results_changed`` (the pipeline replays
  the ratings from the earliest of them); the duplicate's derived rows go with it.

Everything happens in one transaction under row locks (the events, both players, every
game rewritten) and is written as one audit entry listing what moved.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameStatusChange, GameVersion, Protest
from games.permissions import Access
from games.records import check_record
from games.services import lock_game
from games.signals import results_changed, results_pending
from league.audit import audit
from league.errors import UserError
from league.events.services import lock_event
from league.models import (
    Event,
    Membership,
    Player,
    PlayerConflict,
    RefereeConflict,
    Registration,
    Seat,
)

S = Game.Status
V = GameVersion.Status
_OPEN = (S.DRAFT, S.SUBMITTED)
_COUNTED = (S.CONFIRMED, S.RELEASED)


def record_handles(record: Any) -> set[str]:
    """The player handles a record's seats name."""
    seats = record.get("seats") if isinstance(record, dict) else None
    if not isinstance(seats, list):
        return set()
    return {s["player"] for s in seats if isinstance(s, dict) and isinstance(s.get("player"), str)}


def renamed(record: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of ``record`` with the seat of ``old`` given to ``new`` (nothing else)."""
    out = copy.deepcopy(record)
    for seat in out.get("seats") or []:
        if isinstance(seat, dict) and seat.get("player") == old:
            seat["player"] = new
    return out


@dataclass
class MergePlan:
    """What a merge moves, counted per kind (the confirmation page shows it)."""

    survivor: Player
    duplicate: Player
    seats: int = 0
    registrations: int = 0
    registrations_merged: int = 0
    memberships: int = 0
    player_conflicts: int = 0
    referee_conflicts: int = 0
    account: bool = False
    games: list[Game] = field(default_factory=list)
    voided_games: int = 0

    def counts(self) -> dict[str, int]:
        return {
            "seats": self.seats,
            "registrations": self.registrations,
            "registrations_merged": self.registrations_merged,
            "memberships": self.memberships,
            "player_conflicts": self.player_conflicts,
            "referee_conflicts": self.referee_conflicts,
            "records": len(self.games),
            "voided_games": self.voided_games,
            "account": int(self.account),
        }


def _refused(message: Any, code: str, status: int = 409, **params: Any) -> UserError:
    return UserError(message, code=code, params=params, status=status)


def player_games(player: Player) -> list[Game]:
    """Every game that is not voided and seats ``player``: at a table they sit at, or a
    stand-alone club game that lists them (or, listing nobody, whose versions name them)."""
    found = {
        g.pk: g
        for g in Game.objects.filter(table__seats__player=player).select_related(
            "table__round__event"
        )
    }
    club_games = list(Game.objects.filter(table__isnull=True, club__isnull=False))
    unlisted = [g.pk for g in club_games if not g.players]
    named = {
        game_id
        for game_id, record in GameVersion.objects.filter(game_id__in=unlisted).values_list(
            "game_id", "record"
        )
        if player.handle in record_handles(record)
    }
    for g in club_games:
        if player.handle in (g.players or []) or g.pk in named:
            found[g.pk] = g
    return sorted(found.values(), key=lambda g: g.pk)


def _in_progress(games: list[Game]) -> list[Game]:
    """Games still being played or corrected: draft or submitted, or a draft or submitted
    version numbered after the confirmed one."""
    if not games:
        return []
    confirmed = GameVersion.objects.filter(game=OuterRef("game"), status=V.CONFIRMED)
    pending = set(
        GameVersion.objects.filter(game__in=games, status__in=(V.DRAFT, V.SUBMITTED))
        .annotate(confirmed=Subquery(confirmed.values("number")[:1]))
        .filter(number__gt=Coalesce("confirmed", 0))
        .values_list("game_id", flat=True)
    )
    return [g for g in games if g.status in _OPEN or (g.status in _COUNTED and g.pk in pending)]


def _club_ids(player: Player, games: list[Game]) -> set[int]:
    """The clubs ``player``'s rows belong to: memberships (past ones too), the events of
    registrations and seats, the clubs of ``games``."""
    ids = set(Membership.objects.filter(player=player).values_list("club_id", flat=True))
    ids |= set(Registration.objects.filter(player=player).values_list("event__club_id", flat=True))
    ids |= set(Seat.objects.filter(player=player).values_list("round__event__club_id", flat=True))
    for g in games:
        event = g.table.round.event if g.table is not None else None
        ids.add(event.club_id if event is not None else g.club_id or 0)
    return ids - {0}


def _require_allowed(
    access: Access, survivor: Player, duplicate: Player, games: list[Game]
) -> None:
    """A site admin; or an organiser of every club the duplicate's rows belong to and of a
    club of the survivor (if it has one): nobody moves another club's records."""
    if access.is_site_admin():
        return
    mine = access.organised_club_ids
    theirs = _club_ids(duplicate, games)
    kept = _club_ids(survivor, [])
    if not access.can_manage_players() or not theirs <= mine or (kept and not kept & mine):
        raise _refused(
            _("Only an organiser of both players' clubs can merge them."),
            "merge.not_allowed",
            status=403,
        )


def _confirmed_records(games: list[Game]) -> dict[int, GameVersion]:
    return {v.game_id: v for v in GameVersion.objects.filter(game__in=games, status=V.CONFIRMED)}


def _voided_with(handle: str) -> int:
    return sum(
        1
        for players in Game.objects.filter(status=S.VOIDED).values_list("players", flat=True)
        if handle in (players or [])
    )


def merge_plan(actor: User, survivor: Player, duplicate: Player) -> MergePlan:
    """What merging ``duplicate`` into ``survivor`` would move, or the refusal (a
    :class:`UserError` with a ``merge.*`` code). Reads only."""
    if survivor.pk == duplicate.pk:
        raise _refused(
            _("A player cannot be merged into themselves."), "merge.same_player", status=400
        )
    games = player_games(duplicate)
    _require_allowed(Access(actor), survivor, duplicate, games)
    theirs = player_games(survivor)
    busy = _in_progress(sorted({g.pk: g for g in games + theirs}.values(), key=lambda g: g.pk))
    if busy:
        raise _refused(
            _("A game of these players is still in progress or being corrected: %(games)s."),
            "merge.game_in_progress",
            games=[str(g) for g in busy],
        )
    shared = sorted({g.pk for g in games} & {g.pk for g in theirs})
    if shared:
        raise _refused(
            _("Both players sat in the same game (%(games)s): they are two people."),
            "merge.same_game",
            games=[str(g) for g in games if g.pk in shared],
        )
    rounds = Seat.objects.filter(player=survivor).values("round_id")
    same = Seat.objects.filter(player=duplicate, round_id__in=rounds).select_related("round__event")
    clash = same.first()
    if clash is not None:
        raise _refused(
            _("Both players sat in round %(round)s of %(event)s: they are two people."),
            "merge.same_round",
            event=clash.round.event.name,
            round=clash.round.number,
        )
    if survivor.user_id is not None and duplicate.user_id is not None:
        raise _refused(
            _("Both players have an account; only one account can stay with a player."),
            "merge.two_accounts",
        )
    confirmed = _confirmed_records(games)
    rewritten = [
        g
        for g in games
        if g.pk in confirmed and duplicate.handle in record_handles(confirmed[g.pk].record)
    ]
    kept_events = set(
        Registration.objects.filter(player=survivor).values_list("event_id", flat=True)
    )
    moved_events = list(
        Registration.objects.filter(player=duplicate).values_list("event_id", flat=True)
    )
    merged = sum(1 for e in moved_events if e in kept_events)
    return MergePlan(
        survivor=survivor,
        duplicate=duplicate,
        seats=Seat.objects.filter(player=duplicate).count(),
        registrations=len(moved_events) - merged,
        registrations_merged=merged,
        memberships=Membership.objects.filter(player=duplicate).count(),
        player_conflicts=PlayerConflict.objects.filter(
            Q(player_a=duplicate) | Q(player_b=duplicate)
        ).count(),
        referee_conflicts=RefereeConflict.objects.filter(player=duplicate).count(),
        account=duplicate.user_id is not None,
        games=rewritten,
        voided_games=_voided_with(duplicate.handle),
    )


# --- the merge -----------------------------------------------------------------------------


def _merge_registration(keep: Registration, other: Registration) -> None:
    """``other`` (the duplicate's) folded into ``keep`` (the survivor's), same event."""
    registered = Registration.Status.REGISTERED
    if other.status == registered and keep.status == registered:
        times = [t for t in (keep.checked_in_at, other.checked_in_at) if t is not None]
        keep.checked_in_at = min(times) if times else None
        keep.absent_rounds = sorted(set(keep.absent_rounds or []) & set(other.absent_rounds or []))
    elif other.status == registered:
        keep.status = registered
        keep.checked_in_at = other.checked_in_at
        keep.absent_rounds = other.absent_rounds
    other.delete()
    keep.save(update_fields=["status", "checked_in_at", "absent_rounds"])


def _move_rows(survivor: Player, duplicate: Player) -> None:
    """Seats, registrations, memberships, conflicts, protests filed and the account link."""
    Seat.objects.filter(player=duplicate).update(player=survivor)
    Protest.objects.filter(player=duplicate).update(player=survivor)
    kept = {r.event_id: r for r in Registration.objects.filter(player=survivor)}
    for reg in Registration.objects.filter(player=duplicate):
        if reg.event_id in kept:
            _merge_registration(kept[reg.event_id], reg)
        else:
            reg.player = survivor
            reg.save(update_fields=["player"])
    current = {m.club_id: m for m in Membership.objects.filter(player=survivor, left__isnull=True)}
    for m in Membership.objects.filter(player=duplicate):
        same = current.get(m.club_id) if m.left is None else None
        if same is None:
            m.player = survivor
            m.save(update_fields=["player"])
            continue
        if m.joined < same.joined:
            same.joined = m.joined
            same.save(update_fields=["joined"])
        m.delete()
    for c in PlayerConflict.objects.filter(Q(player_a=duplicate) | Q(player_b=duplicate)):
        other = c.player_b_id if c.player_a_id == duplicate.pk else c.player_a_id
        a, b = sorted((other, survivor.pk))
        pair = PlayerConflict.objects.filter(event_id=c.event_id, player_a_id=a, player_b_id=b)
        if other == survivor.pk or pair.exists():
            c.delete()
        else:
            c.player_a_id, c.player_b_id = a, b
            c.save(update_fields=["player_a", "player_b"])
    for rc in RefereeConflict.objects.filter(player=duplicate):
        same_club = Q(club__isnull=True) if rc.club_id is None else Q(club_id=rc.club_id)
        if RefereeConflict.objects.filter(
            same_club, referee_id=rc.referee_id, player=survivor
        ).exists():
            rc.delete()
        else:
            rc.player = survivor
            rc.save(update_fields=["player"])
    if duplicate.user_id is not None:
        user_id = duplicate.user_id
        duplicate.user = None
        duplicate.save(update_fields=["user"])
        survivor.user_id = user_id
        survivor.save(update_fields=["user"])


def _rewrite(actor: User, game: Game, old: str, new: str) -> GameVersion:
    """A new confirmed version of ``game``: its confirmed record with ``old``'s seat given
    to ``new``, judged again by the engine. The old version is superseded, never edited."""
    if game.table_id is None and old in (game.players or []):
        game.players = [new if h == old else h for h in game.players]
        game.save(update_fields=["players"])
    current = game.versions.get(status=V.CONFIRMED)
    check = check_record(game, renamed(current.record, old, new))
    if not (check.valid and check.complete):
        raise _refused(
            _("The record of %(game)s would no longer be valid with the survivor in it."),
            "merge.record_invalid",
            game=str(game),
        )
    number = (game.versions.aggregate(m=Max("number"))["m"] or 0) + 1
    current.status = V.SUPERSEDED
    current.save(update_fields=["status"])
    reason = f"merge: @{old} → @{new}"
    version = GameVersion.objects.create(
        game=game,
        number=number,
        record=check.record,
        source=current.source,
        submitted_by=None,  # no one submitted it: the merge wrote it, the actor confirms
        reason=reason,
        status=V.CONFIRMED,
        valid=True,
        completeness=check.completeness,
        violations=[],
        winner=check.winner,
        ended=check.ended,
        confirmed_by=actor,
        confirmed_at=timezone.now(),
    )
    GameStatusChange.objects.create(
        game=game,
        from_status=game.status,
        to_status=game.status,
        version=version,
        actor=actor,
        reason=reason,
    )
    game.revision += 1
    game.save(update_fields=["revision", "updated_at"])
    results_pending.send(sender=Game, game=game)
    transaction.on_commit(lambda: results_changed.send(sender=Game, game=game))
    return version


def merge_players(actor: User, survivor: Player, duplicate: Player) -> MergePlan:
    """Merge ``duplicate`` into ``survivor`` (see the module) and delete ``duplicate``."""
    with transaction.atomic():
        both = [survivor.pk, duplicate.pk]
        events = Event.objects.filter(
            Q(registrations__player__in=both) | Q(rounds__seats__player__in=both)
        )
        for event in events.distinct().order_by("pk"):
            lock_event(event)
        locked = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=both).order_by("pk")
        }
        if len(set(both)) == 2 and len(locked) < 2:
            raise _refused(_("One of these players no longer exists."), "merge.gone", status=404)
        survivor, duplicate = locked[survivor.pk], locked[duplicate.pk]
        plan = merge_plan(actor, survivor, duplicate)
        games = [lock_game(g.pk) for g in plan.games]
        plan_ids = {g.pk for g in games}
        busy = [g for g in games if g.status not in _COUNTED]
        if busy:  # changed between the plan and the lock
            raise _refused(
                _("A game of these players is still in progress or being corrected: %(games)s."),
                "merge.game_in_progress",
                games=[str(g) for g in busy],
            )
        old, new = duplicate.handle, survivor.handle
        listed = [
            g
            for g in player_games(duplicate)
            if g.table_id is None and old in (g.players or []) and g.pk not in plan_ids
        ]
        _move_rows(survivor, duplicate)
        for g in listed:  # club games listing them whose record does not name them
            g.players = [new if h == old else h for h in g.players]
            g.save(update_fields=["players"])
        versions = [_rewrite(actor, g, old, new) for g in games]
        duplicate_data = {"id": duplicate.pk, "handle": old, "name": duplicate.display_name}
        Player.objects.filter(pk=duplicate.pk).delete()
        audit(
            actor,
            "player.merge",
            survivor,
            duplicate=duplicate_data,
            moved=plan.counts(),
            games={str(v.game_id): v.number for v in versions},
        )
    return plan
