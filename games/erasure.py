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
- **The audit log** keeps every entry, who and when; only the name is replaced where
  an entry's details quote it.

One transaction (the caller's), the player's row locked, every game locked as a
correction locks it.
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
from league.models import AuditEntry, Player

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


def _rewrite_game(actor: User | None, game: Game, rename: Renamer, new_handle: str) -> int:
    """Every version, the player list, the sheet and the history of one game; returns how
    many versions changed. The confirmed version must stay valid."""
    game = lock_game(game.pk)
    changed = 0
    for version in game.versions.select_for_update().order_by("number"):
        record = rename(version.record)
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
    if game.players:
        game.players = rename(game.players)
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
        game=game,
        from_status=game.status,
        to_status=game.status,
        actor=actor,
        reason=HISTORY_REASON % new_handle,
    )
    game.revision += 1
    game.save(update_fields=["players", "revision", "updated_at"])
    if game.status in _COUNTED:
        results_pending.send(sender=Game, game=game)
        transaction.on_commit(_announcer(game))
    return changed


def _announcer(game: Game) -> Callable[[], object]:
    """After the commit: the results pipeline hears of the game (bound now, not later)."""
    return lambda: results_changed.send(sender=Game, game=game)


def _rewrite_audit(player: Player, user: User | None, rename: Renamer, olds: list[str]) -> int:
    """Entries about the player or by the account, and any whose details quote a name."""
    about = Q(target_type=player._meta.label_lower, target_id=player.pk)
    if user is not None:
        about |= Q(actor=user) | Q(target_type=user._meta.label_lower, target_id=user.pk)
    quoted = Q()
    for old in olds:
        quoted |= _text_has("t", old)
    entries = AuditEntry.objects.annotate(t=Cast("data", TextField())).filter(about | quoted)
    changed = 0
    for entry in entries.only("pk", "data").iterator():
        data = rename(entry.data)
        if data != entry.data:
            AuditEntry.objects.filter(pk=entry.pk).update(data=data)
            changed += 1
    return changed


def pseudonymise_player(
    actor: User | None, player: Player, handle: str, display_name: str
) -> Erasure:
    """Give ``player`` the pseudonym everywhere (see the module). The caller holds the
    transaction and has checked who may do it; ``handle`` must be free."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    user = player.user
    old_handle, old_name = player.handle, player.display_name
    games = _games_naming(player)
    names = {old_handle: handle, old_name: display_name}
    if user is not None:
        names[user.username] = handle
        if user.get_full_name().strip():
            names[user.get_full_name().strip()] = display_name
    rename = Renamer(names)
    # the player's row first: a table game's record is judged against its seats' handles
    player.handle, player.display_name, player.user = handle, display_name, None
    player.save(update_fields=["handle", "display_name", "user"])
    erasure = Erasure(player.pk, handle, display_name)
    for game in games:
        erasure.versions += _rewrite_game(actor, game, rename, handle)
        erasure.games.append(game.pk)
    for protest in Protest.objects.filter(Q(player=player) | Q(game_id__in=erasure.games)):
        text, ruling = rename.text(protest.text), rename.text(protest.ruling)
        if (text, ruling) != (protest.text, protest.ruling):
            Protest.objects.filter(pk=protest.pk).update(text=text, ruling=ruling)
    PersonalLink.objects.filter(registration__player=player).update(revoked=True)
    erasure.audit_entries = _rewrite_audit(player, user, rename, list(rename.names))
    return erasure
