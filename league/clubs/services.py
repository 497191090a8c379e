"""Club-side writes: clubs (any verified user creates one), their organisers and
referees, leagues and seasons; players (created by organisers, or by an event's staff for a
walk-in). Permission-checked and audited like every league write."""

from __future__ import annotations

import secrets
from datetime import date
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from league import permissions as perms
from league.audit import audit
from league.clubs.circuits import announce_circuit_change, check_season_circuit, may_run_league
from league.clubs.models import (
    CircuitProfile,
    Club,
    ClubOrganiser,
    League,
    Membership,
    Player,
    Referee,
    Season,
)
from league.clubs.profiles import save_language
from league.clubs.timezones import is_timezone
from league.errors import UserError, every_problem, require
from league.i18n import IMPORT_PROBLEMS
from league.permissions import Viewer

if TYPE_CHECKING:  # for the annotation only: events sit above clubs
    from league.events.models import Event


def player_problems(display_name: str, handle: str) -> list[tuple[str, str]]:
    """A new player's problems as ``(column, code)``: the column is known here, where each
    problem is found (:data:`league.i18n.IMPORT_PROBLEMS` words it)."""
    problems = []
    if not display_name.strip():
        problems.append(("display_name", "player.name_required"))
    elif len(display_name.strip()) > 120:
        problems.append(("display_name", "player.name_too_long"))
    if not handle:
        problems.append(("handle", "player.handle_required"))
    elif len(handle) > 60 or slugify(handle, allow_unicode=True) != handle:
        problems.append(("handle", "player.handle_invalid"))
    return problems


@transaction.atomic
def create_player(
    actor: Viewer,
    *,
    display_name: str,
    handle: str,
    club: Club | None = None,
    user: User | None = None,
    event: Event | None = None,
) -> Player:
    """Create a player; organisers anywhere, or ``event``'s staff for a walk-in."""
    require(
        perms.can_manage_players(actor)
        or (event is not None and perms.can_staff_event(actor, event))
    )
    handle = handle.strip().lower()
    problems = player_problems(display_name, handle)
    if problems:
        raise every_problem(
            [
                UserError(IMPORT_PROBLEMS[code], code=code, params={"column": column})
                for column, code in problems
            ],
            code="player",
        )
    if Player.objects.filter(handle=handle).exists():
        raise UserError(
            _("The handle @%(handle)s is taken."),
            code="handle_taken",
            params={"handle": handle},
            status=409,
        )
    if club is not None and not perms.is_club_organiser(actor, club):
        raise UserError(
            _("Only a club's organisers add players to it."), code="not_allowed", status=403
        )
    player = Player.objects.create(display_name=display_name.strip(), handle=handle, user=user)
    if club is not None:
        Membership.objects.create(player=player, club=club, joined=timezone.localdate())
    audit(actor, "player.create", player, handle=handle)
    return player


# --- clubs, their people, leagues and seasons ---------------------------------------------

CLUB_FIELDS = ("name", "slug", "city", "description", "timezone")
CLUB_LIMITS = {"name": 120, "city": 120, "description": 2000}


def active_user(actor: Viewer) -> User:
    """The signed-in, active account (accounts stay inactive until their address is
    confirmed, so this is "a verified user"); anyone else is refused."""
    require(perms.LeagueAccess(actor).active)
    assert isinstance(actor, User)
    return actor


def _club_problems(fields: dict[str, Any]) -> list[UserError]:
    problems: list[UserError] = []
    if "name" in fields and not fields["name"]:
        problems.append(UserError(_("A club needs a name."), code="club.name_required"))
    for name, limit in CLUB_LIMITS.items():
        if len(fields.get(name, "")) > limit:
            problems.append(
                UserError(
                    _("%(field)s is longer than %(limit)s characters."),
                    code="club.too_long",
                    params={"field": name, "limit": limit},
                )
            )
    slug = fields.get("slug")
    if slug is not None and (not slug or len(slug) > 60 or slugify(slug) != slug):
        problems.append(
            UserError(
                _("The address may hold only letters, digits and hyphens (at most 60)."),
                code="club.slug_invalid",
            )
        )
    if "timezone" in fields and not is_timezone(fields["timezone"]):
        problems.append(
            UserError(
                _("%(value)s is not a known time zone (e.g. Europe/Berlin, Asia/Shanghai)."),
                code="club.timezone_invalid",
                params={"value": str(fields["timezone"])[:80]},
            )
        )
    return problems


def _clean_club(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - set(CLUB_FIELDS)
    if unknown:
        raise TypeError(f"unknown club fields: {sorted(unknown)}")
    out = {k: (v.strip() if isinstance(v, str) else v) for k, v in fields.items()}
    problems = _club_problems(out)
    if problems:
        raise every_problem(problems, code="club")
    return out


def _slug_taken(slug: str) -> UserError:
    return UserError(
        _("The address “%(slug)s” is taken."),
        code="slug_taken",
        params={"slug": slug},
        status=409,
    )


@transaction.atomic
def create_club(actor: Viewer, **fields: Any) -> Club:
    """Any verified user creates a club and becomes its organiser."""
    user = active_user(actor)
    fields.setdefault("timezone", "UTC")
    if not fields.get("slug"):
        fields["slug"] = slugify(fields.get("name", ""))[:60] or secrets.token_hex(4)
    fields = _clean_club(fields)
    if Club.objects.filter(slug=fields["slug"]).exists():
        raise _slug_taken(fields["slug"])
    try:
        with transaction.atomic():
            club = Club.objects.create(**fields)
    except IntegrityError:  # a concurrent create took the address
        raise _slug_taken(fields["slug"]) from None
    ClubOrganiser.objects.create(club=club, user=user)
    audit(user, "club.create", club, name=club.name, slug=club.slug)
    return club


@transaction.atomic
def update_club(actor: Viewer, club: Club, **fields: Any) -> Club:
    """An organiser edits the club's name, address, city, description and time zone."""
    require(perms.is_club_organiser(actor, club))
    fields = _clean_club(fields)
    club = Club.objects.select_for_update().get(pk=club.pk)
    changed = {k: v for k, v in fields.items() if getattr(club, k) != v}
    if "slug" in changed and Club.objects.filter(slug=changed["slug"]).exists():
        raise _slug_taken(changed["slug"])
    if changed:
        for name, value in changed.items():
            setattr(club, name, value)
        try:
            with transaction.atomic():
                club.save(update_fields=list(changed))
        except IntegrityError:
            raise _slug_taken(club.slug) from None
        audit(actor, "club.update", club, changed=sorted(changed))
    return club


@transaction.atomic
def remove_organiser(actor: Viewer, club: Club, user_id: int) -> None:
    """Remove one of the club's organisers; never the last one (the club row is locked,
    so two removals cannot each leave the other)."""
    require(perms.is_club_organiser(actor, club))
    Club.objects.select_for_update().get(pk=club.pk)
    organisers = list(ClubOrganiser.objects.filter(club=club))
    row = next((o for o in organisers if o.user_id == user_id), None)
    if row is None:
        raise UserError(_("Not an organiser of this club."), code="not_found", status=404)
    if len(organisers) == 1:
        raise UserError(
            _("A club keeps at least one organiser."), code="club.last_organiser", status=409
        )
    row.delete()
    audit(actor, "club.organiser_remove", club, user=user_id)


@transaction.atomic
def remove_referee(actor: Viewer, club: Club, referee_id: int) -> None:
    """The referee leaves the club (their record, and the events they judged, stay)."""
    require(perms.is_club_organiser(actor, club))
    referee = Referee.objects.select_for_update().filter(pk=referee_id, club=club).first()
    if referee is None:
        raise UserError(_("Not a referee of this club."), code="not_found", status=404)
    referee.club = None
    referee.save(update_fields=["club"])
    audit(actor, "club.referee_remove", club, referee=referee.pk, user=referee.user_id)


def _league_problems(name: str, slug: str) -> list[UserError]:
    problems = []
    if not name or len(name) > 120:
        problems.append(
            UserError(_("A name of 1 to 120 characters, please."), code="league.name_invalid")
        )
    if not slug or len(slug) > 60 or slugify(slug) != slug:
        problems.append(
            UserError(
                _("The address may hold only letters, digits and hyphens (at most 60)."),
                code="league.slug_invalid",
            )
        )
    return problems


@transaction.atomic
def save_league(
    actor: Viewer, club: Club | None, *, league: League | None = None, name: str, slug: str = ""
) -> League:
    """Create a league of ``club`` (``league`` None) or rename one (its organisers)."""
    if league is None:
        assert club is not None
        require(perms.is_club_organiser(actor, club))
        league = League(club=club)
    else:
        require(may_run_league(actor, league))
    name = name.strip()
    slug = (slug or "").strip() or league.slug or slugify(name)[:60] or secrets.token_hex(4)
    problems = _league_problems(name, slug)
    if problems:
        raise every_problem(problems, code="league")
    if League.objects.filter(slug=slug).exclude(pk=league.pk).exists():
        raise _slug_taken(slug)
    created = league.pk is None
    league.name, league.slug = name, slug
    try:
        with transaction.atomic():
            league.save()
    except IntegrityError:
        raise _slug_taken(slug) from None
    audit(actor, "league.create" if created else "league.update", league, name=name, slug=slug)
    return league


#: Leave a setting as it is (a partial update).
KEEP = object()


@transaction.atomic
def save_season(
    actor: Viewer,
    league: League,
    *,
    season: Season | None = None,
    name: str,
    starts_on: date,
    ends_on: date,
    circuit: CircuitProfile | object | None = KEEP,
) -> Season:
    """Create (``season`` None) or edit a season of ``league`` (the league's organisers).

    ``circuit``: rank it as a circuit with that version of one of the league's profiles,
    or None for the plain totals (left out: unchanged). A change is announced after the
    commit so that the season is ranked again."""
    require(may_run_league(actor, league))
    name = name.strip()
    problems = []
    if not name or len(name) > 120:
        problems.append(
            UserError(_("A name of 1 to 120 characters, please."), code="season.name_invalid")
        )
    if ends_on < starts_on:
        problems.append(UserError(_("A season cannot end before it starts."), code="season.dates"))
    if circuit is not KEEP:
        assert circuit is None or isinstance(circuit, CircuitProfile)
        try:
            check_season_circuit(league, circuit)
        except UserError as exc:
            problems.append(exc)
    if problems:
        raise every_problem(problems, code="season")
    created = season is None
    if season is None:
        season = Season(league=league)
    before = season.circuit_id
    season.name, season.starts_on, season.ends_on = name, starts_on, ends_on
    if circuit is not KEEP:
        season.circuit = circuit  # type: ignore[assignment]
    season.save()
    details: dict[str, Any] = {"league": league.pk}
    if season.circuit_id != before:
        details["circuit"] = season.circuit.key if season.circuit is not None else None
        announce_circuit_change(season)
    audit(actor, "season.create" if created else "season.update", season, **details)
    return season


@transaction.atomic
def update_own_profile(actor: Viewer, *, display_name: str, language: str) -> Player:
    """A linked player changes their display name and the language the site speaks."""
    user = active_user(actor)
    player = Player.objects.select_for_update().filter(user=user).first()
    if player is None:
        raise UserError(
            _("Your account is not linked to a player yet."), code="profile.no_player", status=409
        )
    display_name = display_name.strip()
    if not display_name or len(display_name) > 120:
        raise UserError(_("A name of 1 to 120 characters, please."), code="profile.name_invalid")
    if language and language not in dict(settings.LANGUAGES):
        raise UserError(_("Unknown language."), code="profile.language")
    if player.display_name != display_name:
        player.display_name = display_name
        player.save(update_fields=["display_name"])
    save_language(user, language)
    audit(user, "player.profile", player, display_name=display_name, language=language)
    return player
