"""Who may see and do what with a game: the one gate pages, the API, exports and selectors
ask. Every check fails closed.

- The **officials** of a game are its referee and the organisers of its event (for a
  stand-alone game: of its club); site admins organise everything (``league.permissions``).
- Until a game is **released**, its roles — the record, its versions, their violations
  and outcomes, the live sheet — are visible to its officials only (its *secrets*).
- That a game exists, its seating and status: its officials, anyone for a stand-alone
  game, else whoever may read its round (``league.permissions``).
- Officials submit and correct; a *different* official confirms; organisers release.

:class:`Access` answers each question for one user, per game and as a queryset filter
(:meth:`Access.secret_games` and :meth:`Access.visible_games`), both from the same facts
it reads once: the clubs the user organises and the events they staff or referee.
:func:`access_for` gives the one ``Access`` of a request.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Q

from games.models import Game
from league.models import Round
from league.permissions import (
    PUBLIC_EVENT_STATUSES,
    REFEREE_ROUND_STATUSES,
    STAFF_ROUND_STATUSES,
    LeagueAccess,
)
from league.permissions import access_for as league_access_for

_RELEASED = Game.Status.RELEASED

# Where a game's facts live in the database, for the queryset side of each question. An
# event game reaches its event through its table; a voided one keeps ``voided_event``; a
# stand-alone club game has neither, and its club and referee of its own.
_AT_TABLE = Q(table__isnull=False)
_VOIDED = Q(table__isnull=True, voided_event__isnull=False)
_STANDALONE = Q(table__isnull=True, voided_event__isnull=True)


def _event_id(game: Game) -> int | None:
    if game.table is not None:
        return game.table.round.event_id
    return game.voided_event_id


def _club_id(game: Game) -> int | None:
    """The club whose organisers run the game (its event's club, else its own)."""
    event = game.event
    return event.club_id if event is not None else game.club_id


def _clubs_q(club_ids: frozenset[int]) -> Q:
    return (
        (_AT_TABLE & Q(table__round__event__club_id__in=club_ids))
        | (_VOIDED & Q(voided_event__club_id__in=club_ids))
        | (_STANDALONE & Q(club_id__in=club_ids))
    )


class Access(LeagueAccess):
    """What ``user`` may see and do with games (and, inherited, in the league)."""

    # --- per game ---------------------------------------------------------------------------

    def is_game_referee(self, game: Game) -> bool:
        if self.user_id is None:
            return False
        referee = game.game_referee
        return referee is not None and referee.user_id == self.user_id

    def is_game_organiser(self, game: Game) -> bool:
        return self.organises_club(_club_id(game))

    def is_game_official(self, game: Game) -> bool:
        return self.is_game_referee(game) or self.is_game_organiser(game)

    def can_see_secrets(self, game: Game) -> bool:
        """Roles, the record, versions, violations, the sheet: released, or an official."""
        return game.status == _RELEASED or self.is_game_official(game)

    def can_view_game(self, game: Game) -> bool:
        """That the game exists, its seating and status (never its roles before release)."""
        if self.is_game_official(game):
            return True
        if _event_id(game) is None:
            return True  # a stand-alone club game
        round_ = game.round
        if round_ is None:
            return False  # a voided event game: its officials only
        event = round_.event
        return self.can_view_event(event) and round_.status in self.visible_round_statuses(event)

    def can_submit(self, game: Game) -> bool:
        return self.is_game_official(game)

    def can_confirm(self, game: Game) -> bool:
        """May confirm some version; whether it is their own submission is checked per version."""
        return self.is_game_official(game)

    def can_release(self, game: Game) -> bool:
        return self.is_game_organiser(game)

    # --- the same questions as queryset filters ---------------------------------------------

    def official_games(self) -> Q:
        """Games the user officiates: :meth:`is_game_official` as a filter on ``Game``."""
        if not self.active:
            return Q(pk__in=[])
        if self.admin:
            return Q(pk__isnull=False)  # every game (an empty Q() would vanish in an "or")
        referee = (_AT_TABLE & Q(table__referee__user_id=self.user_id)) | (
            Q(table__isnull=True) & Q(referee__user_id=self.user_id)
        )
        return referee | _clubs_q(self.organised_club_ids)

    def secret_games(self) -> Q:
        """Games whose secrets the user may see: :meth:`can_see_secrets` as a filter."""
        return Q(status=_RELEASED) | self.official_games()

    def visible_games(self) -> Q:
        """Games the user may know about: :meth:`can_view_game` as a filter."""
        public = Q(table__round__event__status__in=PUBLIC_EVENT_STATUSES)
        rounds = Q(table__round__status=Round.Status.RELEASED) & public
        if self.active:
            staffed = self.organised_club_ids, self.staffed_event_ids
            rounds |= (
                Q(table__round__event__club_id__in=staffed[0])
                | Q(table__round__event_id__in=staffed[1])
            ) & Q(table__round__status__in=STAFF_ROUND_STATUSES)
            rounds |= (
                public
                & Q(table__round__event_id__in=self.refereed_event_ids)
                & Q(table__round__status__in=REFEREE_ROUND_STATUSES)
            )
        return self.official_games() | _STANDALONE | (_AT_TABLE & rounds)


def access_for(request: object) -> Access:
    """The request's one :class:`Access` (``league.permissions.access_for``: the same object
    the league's pages and API of this request ask)."""
    return league_access_for(request, Access)


def signed_in(request: object) -> User:
    """The account behind a request that requires one (``login_required``, DRF's
    ``IsAuthenticated``): the actor the services are given. Anything else is refused."""
    user = getattr(request, "user", None)
    if isinstance(user, User) and user.is_authenticated and user.is_active:
        return user
    raise PermissionDenied
