"""Writes to games: submissions, confirmation, corrections and release.

Every write checks the actor's permission with one :class:`~games.permissions.Access`,
locks the game row (``select_for_update``), checks the caller's expected revision (a stale
one raises :class:`StaleRevision`, never overwrites), moves statuses only through
:func:`_transition` (which writes history), bumps the revision, writes an audit entry, and
tells the results pipeline on commit. A refusal is a :class:`~league.errors.UserError`
with a ``game.*`` code.
"""

from __future__ import annotations

from datetime import date
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.rulesets import RulesetError, get_ruleset
from games.errors import EngineWords
from games.models import Game, GameStatusChange, GameVersion
from games.permissions import Access
from games.records import check_record
from games.signals import results_changed, results_pending
from games.tasks import notify_game_confirmed
from league.audit import audit as league_audit
from league.audit import audit_entry
from league.errors import UserError
from league.models import AuditEntry, Club, Player, Referee, Round, Seat, Table
from league.outages import enqueue
from league.permissions import Viewer

S = Game.Status
V = GameVersion.Status


def not_allowed(message: str | Promise, code: str = "game.not_allowed") -> UserError:
    """A 403 refusal of a game write (``message`` a lazy sentence)."""
    return UserError(message, code=code, status=403)


class StaleRevision(UserError):
    """The caller saw an older revision of the game than the current one (409); the
    answer carries the current ``revision``."""

    def __init__(self, current: int) -> None:
        super().__init__(
            _(
                "This game changed since you loaded it (now at revision %(rev)s). "
                "Reload and try again."
            ),
            code="game.stale_revision",
            params={"rev": current},
            status=409,
        )
        self.current = current

    def extra(self) -> dict[str, Any]:
        return {"revision": self.current}


# Allowed status moves; a correction keeps confirmed/released and is written as history.
# A void (organisers, with a reason) is the one way out of every status and is final.
_MOVES: dict[S, set[S]] = {
    S.DRAFT: {S.SUBMITTED, S.VOIDED},
    S.SUBMITTED: {S.CONFIRMED, S.VOIDED},
    S.CONFIRMED: {S.RELEASED, S.VOIDED},
    S.RELEASED: {S.VOIDED},
    S.VOIDED: set(),
}


def lock_game(game_id: int) -> Game:
    """The game row, locked until the end of the transaction, with what checks need.

    Its table's row is locked too: an organiser's swap or referee change locks the same
    row before checking for recorded play (``league.events.lifecycle``), so neither can slip
    between the other's check and write."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related(
            "table__round__event__club", "table__referee__user", "club", "referee__user"
        )
        .get(pk=game_id)
    )
    if game.table_id is not None:
        # of=self and no ordering: Table's default ordering would join (and lock) its
        # round and event rows too, and the event row is the organisers' lock
        list(
            Table.objects.select_for_update(of=("self",))
            .filter(pk=game.table_id)
            .order_by()
            .values_list("pk")
        )
    return game


def check_revision(game: Game, expected: int | None) -> None:
    if expected is not None and int(expected) != game.revision:
        raise StaleRevision(game.revision)


class BadMove(UserError):
    """A status move the game's rules do not allow (409); ``params`` are the two status
    values, the sentence shows their labels in the reader's language."""

    def __init__(self, source: str, target: str) -> None:
        super().__init__(
            _("A game cannot go from %(a)s to %(b)s."),
            code="game.bad_status",
            params={"a": source, "b": target},
            status=409,
        )

    @property
    def message(self) -> str:
        labels = {k: S(v).label for k, v in self.params.items()}
        return str(self.template) % labels


def _transition(
    game: Game,
    to: S,
    actor: Viewer,
    version: GameVersion | None = None,
    reason: str = "",
) -> None:
    """The one place a game's status changes: validates the move and writes history."""
    if to != game.status and to not in _MOVES[S(game.status)]:
        raise BadMove(game.status, to)
    GameStatusChange.objects.create(
        game=game,
        from_status=game.status,
        to_status=to,
        version=version,
        actor=_user(actor),
        reason=reason,
    )
    game.status = to


def _save(game: Game) -> None:
    game.revision += 1
    game.save(update_fields=["status", "revision", "updated_at"])


def _user(actor: Viewer) -> User | None:
    """The account to record beside a change (none for an anonymous caller or a task)."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def audit(actor: Viewer, action: str, game: Game, **data: Any) -> None:
    """A game's audit entry (``league.audit``: one log); ``data`` never holds roles (the
    log is read by more people)."""
    league_audit(actor, action, game, event=game.event, **data)


# --- creating games ----------------------------------------------------------------------


def require_not_voided(game: Game) -> None:
    if game.status == S.VOIDED:
        raise UserError(
            _("This game was voided; it can no longer change."), code="game.voided", status=409
        )


def _require_released(round_: Round) -> None:
    if round_.status != Round.Status.RELEASED:
        raise UserError(
            _("Round %(n)s is not released yet: its games open when it is."),
            code="game.round_not_released",
            params={"n": round_.number},
            status=409,
        )


def game_for_table(table: Table, actor: User | None = None) -> Game:
    """The table's game, created on first use (one per table, by a unique constraint).

    Only a released round has games: its seating is final and public, so nothing played
    can be lost to a redraw or a swap of a draft."""
    try:
        return Game.objects.get(table=table)
    except Game.DoesNotExist:
        pass
    _require_released(table.round)
    try:
        with transaction.atomic():
            game = Game.objects.create(table=table)
            audit(actor, "game.create", game, round=table.round.number, table=table.number)
            return game
    except IntegrityError:
        return Game.objects.get(table=table)


def create_round_games(actor: User, round_: Round) -> list[Game]:
    """A game for every table of the round (organisers; existing games are kept)."""
    if not Access(actor).can_manage_event(round_.event):
        raise not_allowed(_("Only the event's organisers can create its games."))
    _require_released(round_)
    games = [game_for_table(t, actor) for t in round_.tables.select_related("round__event")]
    return games


def create_club_game(
    actor: User,
    club: Club,
    ruleset: str,
    referee: Referee | None = None,
    title: str = "",
    played_on: date | None = None,
    players: list[str] | None = None,
) -> Game:
    """A stand-alone game at a club, refereed by ``referee`` (default: the actor)."""
    if referee is None:
        referee = Referee.objects.filter(user=actor).first()
    organiser = Access(actor).is_club_organiser(club)
    own = referee is not None and referee.user_id == actor.pk and referee.club_id == club.pk
    if not (organiser or own):
        raise not_allowed(_("Only the club's organisers and referees can record its games."))
    try:
        rules = get_ruleset(ruleset)
    except RulesetError as e:  # said by code, in the reader's language
        raise EngineWords(code=e.code, params=e.params) from None
    handles = [h.strip() for h in players or [] if h.strip()]
    if handles:
        if len(set(handles)) != len(handles):
            raise UserError(_("A player can hold only one seat."), code="game.seat_twice")
        if rules.role_counts(len(handles)) is None:
            lo, hi = rules.players
            raise UserError(
                _("%(ruleset)s seats %(lo)s to %(hi)s players, not %(n)s."),
                code="game.table_size",
                params={"ruleset": rules.id, "lo": lo, "hi": hi, "n": len(handles)},
            )
        known = set(Player.objects.filter(handle__in=handles).values_list("handle", flat=True))
        unknown = [h for h in handles if h not in known]
        if unknown:
            raise UserError(
                _("Unknown players: %(p)s"),
                code="game.unknown_players",
                params={"p": ", ".join(unknown)},
            )
    with transaction.atomic():
        game = Game.objects.create(
            club=club,
            referee=referee,
            ruleset=ruleset,
            title=title,
            played_on=played_on,
            players=handles,
        )
        audit(actor, "game.create", game, title=title)
    return game


# --- submissions -------------------------------------------------------------------------


def submit_record(
    actor: User,
    game: Game,
    data: Any,
    source: str,
    expected_revision: int | None = None,
    reason: str = "",
) -> GameVersion:
    """Append a version. Valid and complete: ``submitted``; otherwise a ``draft`` showing
    its violations. On a confirmed or released game this is a correction and needs a
    reason. Raises ``records.NotARecordError`` (400) for input that is no KGR/1 record."""
    if not Access(actor).can_submit(game):
        raise not_allowed(_("Only this game's referee and organisers can submit its record."))
    with transaction.atomic():
        game = lock_game(game.pk)
        check_revision(game, expected_revision)
        require_not_voided(game)
        # judged under the lock of the game and its table: the seating it is checked
        # against is the one it is stored beside (a swap cannot slip in between)
        check = check_record(game, data)
        correction = game.status in (S.CONFIRMED, S.RELEASED)
        reason = reason.strip()
        if correction and not reason:
            raise UserError(
                _("This game is already confirmed: a correction needs a reason."),
                code="game.reason_required",
            )
        last = game.versions.aggregate(m=Max("number"))["m"] or 0
        status = V.SUBMITTED if check.valid and check.complete else V.DRAFT
        version = GameVersion.objects.create(
            game=game,
            number=last + 1,
            record=check.record,
            source=source,
            submitted_by=actor,
            reason=reason,
            status=status,
            valid=check.valid,
            completeness=check.completeness,
            violations=check.violations,
            winner=check.winner,
            ended=check.ended,
        )
        if status == V.SUBMITTED and game.status == S.DRAFT:
            _transition(game, S.SUBMITTED, actor, version)
        _save(game)
        audit(
            actor,
            "game.correct" if correction else "game.submit",
            game,
            version=version.number,
            status=status,
            source=source,
            reason=reason,
            violations=len(check.violations),
        )
    return version


def confirm_version(
    actor: User, game: Game, number: int, expected_revision: int | None = None
) -> GameVersion:
    """Confirm a submitted version: by an official who did not submit it, under a lock.

    The previously confirmed version (if any: this is a correction) is superseded, and so
    are older pending submissions. The results pipeline hears about it on commit."""
    if not Access(actor).can_confirm(game):
        raise not_allowed(_("Only this game's referee and organisers can confirm its record."))
    with transaction.atomic():
        game = lock_game(game.pk)
        check_revision(game, expected_revision)
        require_not_voided(game)
        try:
            version = game.versions.select_for_update().get(number=number)
        except GameVersion.DoesNotExist:
            raise UserError(
                _("This game has no version %(n)s."),
                code="game.no_version",
                params={"n": number},
            ) from None
        if version.status == V.CONFIRMED:
            raise UserError(
                _("Version %(n)s is already confirmed."),
                code="game.already_confirmed",
                params={"n": number},
                status=409,
            )
        if version.status != V.SUBMITTED:
            raise UserError(
                _(
                    "Version %(n)s cannot be confirmed: only a valid, complete, "
                    "submitted version can."
                ),
                code="game.not_confirmable",
                params={"n": number},
                status=409,
            )
        if version.submitted_by_id == actor.pk:
            raise not_allowed(
                _("You submitted this version; another official must confirm it."),
                code="game.own_submission",
            )
        correction = game.status in (S.CONFIRMED, S.RELEASED)
        game.versions.filter(status=V.CONFIRMED).update(status=V.SUPERSEDED)
        game.versions.filter(status=V.SUBMITTED, number__lt=number).update(status=V.SUPERSEDED)
        version.status = V.CONFIRMED
        version.confirmed_by = actor
        version.confirmed_at = timezone.now()
        version.save(update_fields=["status", "confirmed_by", "confirmed_at"])
        _transition(
            game,
            S(game.status) if correction else S.CONFIRMED,
            actor,
            version,
            reason=version.reason if correction else "",
        )
        _save(game)
        audit(actor, "game.confirm", game, version=number, correction=correction)
        results_pending.send(sender=Game, game=game)
        transaction.on_commit(lambda: results_changed.send(sender=Game, game=game))
        transaction.on_commit(partial(enqueue, notify_game_confirmed, version.pk))  # players
    return version


def release_game(actor: User, game: Game, expected_revision: int | None = None) -> Game:
    """Publish a confirmed game: its roles and record become public (organisers only)."""
    if not Access(actor).can_release(game):
        raise not_allowed(_("Only the organisers can release a game's results."))
    with transaction.atomic():
        game = lock_game(game.pk)
        check_revision(game, expected_revision)
        if game.status != S.CONFIRMED:
            raise UserError(
                _("Only a confirmed game can be released."), code="game.not_confirmed", status=409
            )
        _transition(game, S.RELEASED, actor)
        _save(game)
        audit(actor, "game.release", game)
        results_pending.send(sender=Game, game=game)
        transaction.on_commit(lambda: results_changed.send(sender=Game, game=game))
    return game


def release_round(actor: User, round_: Round) -> int:
    """Release every confirmed game of a round at once (organisers): one transaction,
    one history row and audit line per game, one stale mark and one results task for the
    event (the task takes in every game released). Returns how many were released."""
    if not Access(actor).can_manage_event(round_.event):
        raise not_allowed(_("Only the organisers can release a game's results."))
    user = _user(actor)
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(of=("self",))
            .select_related("table__round__event")
            .filter(table__round=round_, status=S.CONFIRMED)
            .order_by("table__number")
        )
        if not games:
            return 0
        now = timezone.now()
        GameStatusChange.objects.bulk_create(
            GameStatusChange(game=g, from_status=S.CONFIRMED, to_status=S.RELEASED, actor=user)
            for g in games
        )
        Game.objects.filter(pk__in=[g.pk for g in games]).update(
            status=S.RELEASED, revision=F("revision") + 1, updated_at=now
        )
        AuditEntry.objects.bulk_create(
            audit_entry(
                user,
                "game.release",
                g,
                event=round_.event,
                round=round_.number,
                table=g.table.number if g.table else None,
            )
            for g in games
        )
        first = games[0]
        results_pending.send(sender=Game, game=first)
        transaction.on_commit(lambda: results_changed.send(sender=Game, game=first))
    return len(games)


# --- voiding -----------------------------------------------------------------------------


def void_game(actor: User, game: Game, reason: str, expected_revision: int | None = None) -> Game:
    """Take a game out of play for good, keeping every version and sheet step.

    An event game leaves its table — remembering its event, round, table number, referee
    and seating — so the table can be redrawn, swapped or played again; a voided game
    counts for nothing in standings and ratings. Organisers only, with a reason.
    """
    if not Access(actor).can_release(game):
        raise not_allowed(_("Only the organisers can void a game."))
    reason = (reason or "").strip()
    if not reason:
        raise UserError(_("Say why the game is voided."), code="game.reason_required")
    with transaction.atomic():
        game = lock_game(game.pk)
        check_revision(game, expected_revision)
        require_not_voided(game)
        counted = game.status in (S.CONFIRMED, S.RELEASED)
        if counted:
            # while the game still names its event's table
            results_pending.send(sender=Game, game=game)
        table = game.table
        where: dict[str, Any] = {}
        if table is not None:
            event = table.round.event
            handles = list(
                Seat.objects.filter(table=table)
                .order_by("number")
                .values_list("player__handle", flat=True)
            )
            game.voided_event = event
            game.voided_round = table.round.number
            game.voided_table = table.number
            game.referee = table.referee
            game.players = handles
            game.table = None
            where = {"round": table.round.number, "table": table.number}
        _transition(game, S.VOIDED, actor, reason=reason)
        game.void_reason = reason
        game.voided_by = actor
        game.voided_at = timezone.now()
        game.revision += 1
        game.save()
        audit(actor, "game.void", game, reason=reason, was_counted=counted, **where)
        if counted:
            transaction.on_commit(lambda: results_changed.send(sender=Game, game=game))
    return game
