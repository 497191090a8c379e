"""The league's models, as Django loads them: each lives in its sub-package
(``league.clubs``, ``league.events``, ``league.draws``, ``league.stages``) or in
``league.audit``; this module imports them so that the app registry finds them
(``app_label`` stays ``league``).
"""

from __future__ import annotations

from league.audit import AuditEntry
from league.clubs.models import (
    CircuitProfile,
    Club,
    ClubOrganiser,
    Invitation,
    League,
    Membership,
    Player,
    PlayerClaim,
    Referee,
    Season,
)
from league.clubs.profiles import Preferences
from league.draws.models import DrawJob
from league.events.models import (
    Event,
    PlayerConflict,
    RefereeConflict,
    Registration,
    Round,
    Seat,
    Table,
)
from league.stages.models import Stage

__all__ = [
    "AuditEntry",
    "CircuitProfile",
    "Club",
    "ClubOrganiser",
    "DrawJob",
    "Event",
    "Invitation",
    "League",
    "Membership",
    "Player",
    "PlayerClaim",
    "PlayerConflict",
    "Preferences",
    "Referee",
    "RefereeConflict",
    "Registration",
    "Round",
    "Season",
    "Seat",
    "Stage",
    "Table",
]
