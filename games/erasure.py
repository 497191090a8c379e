"""Replacing a player's name by a pseudonym in everything the site holds (issue #22
item 5: a deleted account). It lives in ``games`` because it rewrites game records; the
account's side and the choice of the pseudonym are ``results.account_deletion``'s.

- **The player**: display name and handle become the pseudonym (``Player-7f3a2b`` and
  ``player-7f3a2b``); the link to the account goes; their personal event links are
  revoked.
- **Game records are rewritten in place**, every version of every game that names the
  handle (drafts and superseded versions too), with the game's player list, its live
  sheet's steps, the stored violations and the reasons and history lines that quote the
  name. This is the one exception to "a record is never edited": a correction appends a
  version and keeps the old one, and a kept version would keep the name the deletion
  must remove. Nothing but the name changes — seats, roles, log, awards and result stay
  — and every confirmed version is judged again (:func:`games.records.check_record`): if
  one would no longer be valid, nothing is erased. Each game gets a history line (no old
  name in it) and its revision moves on; a counted game tells the results pipeline
  (``results_pending`` now, ``results_changed`` after the commit), which writes the
  standings again under the new handle with the same points (the ratings are kept by
  player, not by name, so they do not move).
- **The account's names**: a record's ``meta.referee`` (the referee's username, as the
  live sheet writes it) becomes the account's new username; invitations sent to its
  e-mail address forget the address.
- **The audit log** keeps every entry, who and when; only the names are replaced: all
  of them (handle, display name, username, full name, e-mail address) in the entries
  about the player or the account or made by it, the handle and the e-mail address
  wherever another entry quotes them.

One function, :func:`erase_names`; one transaction (the caller's), the player's row
locked, every game locked as a correction locks it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from games.merge import player_games, record_handles
from games.models import Game, GameSheet, GameStatusChange, GameVersion, Protest
from games.records import check_record
from games.services import lock_game
from games.signals import results_changed, results_pending
from league.errors import UserError
from league.events.models import PersonalLink
from league.models import AuditEntry, Invitation, Player

S = Game.Status
_COUNTED = (S.CONFIRMED, S.RELEASED)

#: The history line of a game whose record was pseudonymised (it names the pseudonym only).
HISTORY_REASON = "erasure: a player's name was replaced by @%s"


@dataclass
class Erasure:
    """What was rewritten: the games (their ids), versions and audit entries."""

    player_id: int
    handle: str
    display_name: str
    games: list[int] = field(default_factory=list)
    versions: int = 0
    audit_entries: int = 0


class Renamer:
    """Replaces the old handle and name by the new ones in any JSON value: a string equal
    to one of them is replaced; a longer string has each occurrence of the handle (as a
    whole word: ``p1`` is not in ``p10``) or of the name replaced."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = {old: new for old, new in names.items() if old}
        words = sorted(self.names, key=len, reverse=True)
        self.pattern = re.compile(
            "|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in words) if words else "(?!)"
        )

    def text(self, value: str) -> str:
        if value in self.names:
            return self.names[value]
        return self.pattern.sub(lambda m: self.names[m.group(0)], value)

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self(v) for v in value]
        if isinstance(value, dict):
            return {k: self(v) for k, v in value.items()}
        return value


def _games_naming(player: Player) -> list[Game]:
    """Every game that names the handle: seated at a table, listed in a club game (or
    its versions), a voided game's remembered players, any version's record."""
    found = {g.pk for g in player_games(player)}
    handle = player.handle
    voided = Game.objects.filter(status=S.VOIDED).values_list("pk", "players")
    found |= {pk for pk, players in voided if handle in (players or [])}
    texts = GameVersion.objects.annotate(t=Cast("record", TextField()))
    candidates = texts.filter(_text_has("t", handle)).values_list("game_id", "record")
    found |= {gid for gid, record in candidates if handle in record_handles(record)}
    return list(Game.objects.filter(pk__in=found).order_by("pk"))


def _text_has(column: str, text: str) -> Q:
    """A JSON column (cast to text) holding ``text``, as stored raw or ``\\u``-escaped."""
    escaped = json.dumps(text)[1:-1]
    q = Q(**{f"{column}__contains": text})
    return q | Q(**{f"{column}__contains": escaped}) if escaped != text else q


def _rewrite_game(
    actor: User | None, game: Game, rename: Renamer, referee: tuple[str, str] | None, note: str
) -> int:
    """Every version, the player list, the sheet and the history of one game; returns how
    many versions changed. ``referee``: (old, new) username in the records' ``meta``. The
    confirmed version must stay valid."""
    game = lock_game(game.pk)
    if game.players:  # first: a club game's record is judged against this list
        game.players = rename(game.players)
    changed = 0
    for version in game.versions.select_for_update().order_by("number"):
        record = _referee_renamed(rename(version.record), referee)
        violations = rename(version.violations)
        reason = rename.text(version.reason)
        if (record, violations, reason) == (version.record, version.violations, version.reason):
            continue
        if version.status == GameVersion.Status.CONFIRMED:
            check = check_record(game, record)
            if not (check.valid and check.complete):
                raise UserError(
                    _("The record of %(game)s would no longer be valid: nothing was erased."),
                    code="erasure.record_invalid",
                    params={"game": game.pk},
                    status=409,
                )
        version.record, version.violations, version.reason = record, violations, reason
        version.save(update_fields=["record", "violations", "reason"])
        changed += 1
    sheet = GameSheet.objects.select_for_update().filter(game=game).first()
    if sheet is not None and sheet.steps:
        steps = rename(sheet.steps)
        if steps != sheet.steps:
            sheet.steps = steps
            sheet.save(update_fields=["steps"])
    for line in GameStatusChange.objects.filter(game=game).exclude(reason=""):
        reason = rename.text(line.reason)
        if reason != line.reason:
            GameStatusChange.objects.filter(pk=line.pk).update(reason=reason)
    GameStatusChange.objects.create(
        game=game, from_status=game.status, to_status=game.status, actor=actor, reason=note
    )
    game.revision += 1
    game.save(update_fields=["players", "revision", "updated_at"])
    if game.status in _COUNTED:
        results_pending.send(sender=Game, game=game)
        transaction.on_commit(_announcer(game))
    return changed


def _referee_renamed(record: Any, referee: tuple[str, str] | None) -> Any:
    """The record with ``meta.referee`` (a username, as the sheet writes it) renamed."""
    if referee is None or not isinstance(record, dict):
        return record
    meta = record.get("meta")
    if isinstance(meta, dict) and meta.get("referee") == referee[0]:
        return {**record, "meta": {**meta, "referee": referee[1]}}
    return record


def _announcer(game: Game) -> Callable[[], object]:
    """After the commit: the results pipeline hears of the game (bound now, not later)."""
    return lambda: results_changed.send(sender=Game, game=game)


def _refereed_games(user: User) -> list[Game]:
    """Games whose records may name ``user`` as their referee (``meta.referee``)."""
    username = user.get_username()
    texts = GameVersion.objects.annotate(t=Cast("record", TextField()))
    rows = texts.filter(_text_has("t", username)).values_list("game_id", "record")
    ids = {
        gid
        for gid, record in rows
        if isinstance(record, dict) and (record.get("meta") or {}).get("referee") == username
    }
    return list(Game.objects.filter(pk__in=ids).order_by("pk"))


def _rewrite_audit(about: Q, everywhere: list[str], own: Renamer, quoted: Renamer) -> int:
    """Entries ``about`` the person (``own`` renames every name of theirs in them), and
    any other entry quoting one of ``everywhere`` (only those are renamed there)."""
    found = Q()
    for text in everywhere:
        found |= _text_has("t", text)
    entries = AuditEntry.objects.annotate(t=Cast("data", TextField())).filter(about | found)
    mine = set(AuditEntry.objects.filter(about).values_list("pk", flat=True))
    changed = 0
    for entry in entries.only("pk", "data").iterator():
        data = (own if entry.pk in mine else quoted)(entry.data)
        if data != entry.data:
            AuditEntry.objects.filter(pk=entry.pk).update(data=data)
            changed += 1
    return changed


def erase_names(
    actor: User | None,
    user: User | None,
    player: Player | None,
    *,
    handle: str,
    display_name: str,
    username: str,
) -> Erasure:
    """Give ``player`` (if any) the pseudonym ``handle`` / ``display_name`` everywhere, and
    rename ``user``'s username to ``username`` where records and the audit log quote it
    (see the module). The caller holds the transaction, has checked who may do it, and
    renames the account itself; ``handle`` must be free."""
    erasure = Erasure(player.pk if player else 0, handle, display_name)
    handles: dict[str, str] = {}
    own: dict[str, str] = {}
    everywhere: list[str] = []
    games: dict[int, Game] = {}
    if player is not None:
        player = Player.objects.select_for_update().get(pk=player.pk)
        handles[player.handle] = handle
        own[player.display_name] = display_name
        everywhere.append(player.handle)
        games.update((g.pk, g) for g in _games_naming(player))
        # the player's row first: a table game's record is judged against its seats
        player.handle, player.display_name, player.user = handle, display_name, None
        player.save(update_fields=["handle", "display_name", "user"])
    referee = None
    if user is not None:
        referee = (user.get_username(), username)
        own[user.get_username()] = username
        if user.get_full_name().strip():
            own[user.get_full_name().strip()] = display_name
        if user.email:
            own[user.email] = ""
            everywhere.append(user.email)
            Invitation.objects.filter(email__iexact=user.email).update(email="")
        games.update((g.pk, g) for g in _refereed_games(user))
    records = Renamer(handles)
    note = HISTORY_REASON % handle
    for game in sorted(games.values(), key=lambda g: g.pk):
        erasure.versions += _rewrite_game(actor, game, records, referee, note)
        erasure.games.append(game.pk)
    people = Renamer({**handles, **own})
    if player is not None:
        protests = Protest.objects.filter(Q(player=player) | Q(game_id__in=erasure.games))
        for protest in protests:
            text, ruling = people.text(protest.text), people.text(protest.ruling)
            if (text, ruling) != (protest.text, protest.ruling):
                Protest.objects.filter(pk=protest.pk).update(text=text, ruling=ruling)
        PersonalLink.objects.filter(registration__player=player).update(revoked=True)
    about = Q(pk__in=[])
    if player is not None:
        about |= Q(target_type=player._meta.label_lower, target_id=player.pk)
    if user is not None:
        about |= Q(actor=user) | Q(target_type=user._meta.label_lower, target_id=user.pk)
    quoted = Renamer({**handles, **{e: own[e] for e in everywhere if e in own}})
    erasure.audit_entries = _rewrite_audit(about, everywhere, people, quoted)
    return erasure
