"""Circuit profiles of a league (formats.md §3) and a season's circuit.

A profile is kept as versions that never change once made (a season's ranking must not
move because somebody edited the profile): creating one makes version 1, an edit makes
the next version, and a season points at the version it ranks by. Every profile is
checked by the engine (:meth:`engine.formats.circuit.CircuitProfile.parse`) and stored in
its JSON form. A season whose circuit changes is announced after the commit
(:data:`season_circuit_changed`, for the results pipeline to rank it again); an event's
circuit category must be one of its season's circuit categories
(:func:`category_problems`, called by the event services).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.dispatch import Signal
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from engine.formats.circuit import CircuitError
from engine.formats.circuit import CircuitProfile as EngineProfile
from league import permissions as perms
from league.audit import audit
from league.clubs.models import CircuitProfile, League, Season
from league.errors import EngineRefusal, UserError, require
from league.permissions import Viewer

if TYPE_CHECKING:  # for the annotation only: events sit above clubs
    from league.events.models import Event

#: Sent after the commit of a change of a season's circuit profile or seed, with
#: ``season_id``: the season's circuit standing must be computed again.
season_circuit_changed = Signal()

#: An event's circuit category: a slug of at most this many characters.
CATEGORY_LENGTH = 40


def may_run_league(actor: Viewer, league: League) -> bool:
    """A site admin, or an organiser of the league's club."""
    access = perms.LeagueAccess(actor)
    return access.admin or (league.club_id is not None and access.organises_club(league.club_id))


def checked_profile(data: object) -> dict[str, Any]:
    """``data`` as the engine reads it (its JSON form), or a 400 naming what is wrong."""
    if not isinstance(data, Mapping):
        data = {"profile": data}  # the engine refuses it with its own words
    try:
        return EngineProfile.parse(data).as_json()
    except CircuitError as exc:
        raise EngineRefusal(_("Not saved: %(error)s"), code="circuit_profile", error=exc) from exc


def _slug_problem(slug: str) -> UserError | None:
    if not slug or len(slug) > 60 or slugify(slug) != slug:
        return UserError(
            _("The name may hold only letters, digits and hyphens (at most 60)."),
            code="circuit.slug_invalid",
        )
    return None


@transaction.atomic
def create_circuit(actor: Viewer, league: League, *, slug: str, data: object) -> CircuitProfile:
    """Version 1 of a new circuit profile of ``league`` (its club's organisers)."""
    require(may_run_league(actor, league))
    slug = (slug or "").strip().lower()
    problem = _slug_problem(slug)
    if problem is not None:
        raise problem
    profile = checked_profile(data)
    League.objects.select_for_update().get(pk=league.pk)  # one version number at a time
    if CircuitProfile.objects.filter(league=league, slug=slug).exists():
        raise UserError(
            _("The league already has a circuit profile “%(slug)s”: edit it for a new version."),
            code="circuit.slug_taken",
            params={"slug": slug},
            status=409,
        )
    try:
        with transaction.atomic():
            circuit = CircuitProfile.objects.create(
                league=league, slug=slug, version=1, data=profile
            )
    except IntegrityError:  # cannot happen under the league's lock; said plainly if it does
        raise UserError(
            _("The league already has a circuit profile “%(slug)s”: edit it for a new version."),
            code="circuit.slug_taken",
            params={"slug": slug},
            status=409,
        ) from None
    audit(actor, "circuit.create", circuit, league=league.pk, key=circuit.key, data=profile)
    return circuit


@transaction.atomic
def new_circuit_version(actor: Viewer, circuit: CircuitProfile, *, data: object) -> CircuitProfile:
    """The next version of ``circuit``'s profile (the versions before stay as they are).

    Nothing new when ``data`` is the latest version's: that version is returned."""
    league = circuit.league
    require(may_run_league(actor, league))
    profile = checked_profile(data)
    League.objects.select_for_update().get(pk=league.pk)
    versions = CircuitProfile.objects.filter(league=league, slug=circuit.slug)
    latest = versions.order_by("-version").first()
    assert latest is not None
    if latest.data == profile:
        return latest
    top = versions.aggregate(top=Max("version"))["top"] or 0
    made = CircuitProfile.objects.create(
        league=league, slug=circuit.slug, version=top + 1, data=profile
    )
    audit(actor, "circuit.version", made, league=league.pk, key=made.key, data=profile)
    return made


def league_circuits(league: League) -> list[CircuitProfile]:
    """Every version of the league's profiles: by name, the newest version first."""
    return list(CircuitProfile.objects.filter(league=league).order_by("slug", "-version"))


def circuit_by_key(league: League, key: str | None) -> CircuitProfile | None:
    """The version ``slug-vN`` of a profile of ``league`` (None for no key), or a 400."""
    if not key:
        return None
    slug, _sep, version = key.rpartition("-v")
    found = None
    if slug and version.isdigit() and len(version) <= 9:
        found = CircuitProfile.objects.filter(
            league=league, slug=slug, version=int(version)
        ).first()
    if found is None:
        raise UserError(
            _("The league has no circuit profile “%(key)s”."),
            code="circuit.unknown",
            params={"key": key[:80]},
        )
    return found


def check_season_circuit(league: League, circuit: CircuitProfile | None) -> None:
    """A season ranks only by a profile of its own league."""
    if circuit is not None and circuit.league_id != league.pk:
        raise UserError(
            _("That circuit profile belongs to another league."), code="circuit.other_league"
        )


def announce_circuit_change(season: Season) -> None:
    """After the commit: the season's circuit is to be computed again."""
    season_id = season.pk
    transaction.on_commit(lambda: season_circuit_changed.send(Season, season_id=season_id))


def category_problems(event: Event) -> list[UserError]:
    """The event's circuit category: a slug, and one of its season's circuit categories
    when the season is ranked as a circuit."""
    category = event.circuit_category or ""
    if not category or len(category) > CATEGORY_LENGTH or slugify(category) != category:
        return [
            UserError(
                _("The circuit category may hold only letters, digits and hyphens (at most 40)."),
                code="circuit_category",
            )
        ]
    season = event.season if event.season_id is not None else None
    circuit = season.circuit if season is not None else None
    if circuit is None:
        return []
    known = sorted(circuit.data.get("categories", {}))
    if category in known:
        return []
    return [
        UserError(
            _(
                "The season's circuit (%(circuit)s) has no category “%(category)s”; "
                "its categories are: %(known)s."
            ),
            code="circuit_category",
            params={"circuit": circuit.key, "category": category, "known": ", ".join(known)},
        )
    ]
