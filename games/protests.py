"""Protests against a released game's record and the chief referee's rulings (issue #20).

- **Who files**: a player who sat at the game — from their personal page (the personal
  link proves who they are, no account needed) or signed in — or an organiser of the
  game's event (of its club, for a stand-alone game). Only on a *released* game, pointing
  to a phase of its record: ``setup``, ``night N``, ``day N``, ``day N ballot K``,
  ``awards`` or ``result`` (the engine's ``where`` words), with a text and an optional
  photo or video link (``http``/``https``). At most :data:`MAX_OPEN_PER_FILER` open
  protests per filer and game, :data:`MAX_PER_GAME` in all.
- **Who rules** (the *chief referee*): the event's organisers (its club's organisers and
  site admins) and its staff (``Event.staff``) — never the referee of the protested game,
  and never the one who filed the protest. ``upheld`` corrects the record: the ruler
  submits the corrected record through ``games.services.submit_record`` (a new version,
  which another official confirms with ``confirm_version``, the normal confirmation), and
  the protest names that version; so upholding needs an official of the game (an
  organiser). ``rejected`` needs the reasons.
- **Who sees**: open protests, the game's officials, the chief referees and the filer;
  ruled ones (with their ruling), whoever may see the game's record — everyone once the
  game is released.

Every write is atomic under the game's lock (``games.services.lock_game``) and audited
(``game.protest.file``, ``game.protest.rule``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameVersion, Protest
from games.permissions import Access
from games.selectors import confirmed_version
from games.services import audit, lock_game, not_allowed, require_not_voided, submit_record
from league.errors import UserError
from league.events.models import PersonalLink
from league.models import Player, Seat
from league.permissions import Viewer

P = Protest.Status

#: Open protests one filer may have on one game at a time, and protests a game may have.
MAX_OPEN_PER_FILER = 3
MAX_PER_GAME = 50

_PHASE = re.compile(r"^(?:(night|day) ([1-9][0-9]{0,2})(?: ballot ([1-9]))?|setup|awards|result)$")
_EVIDENCE = URLValidator(schemes=["http", "https"])


# --- who is filing -------------------------------------------------------------------------


@dataclass(frozen=True)
class Filer:
    """Who files a protest: a signed-in account (``user``) and/or the player it comes
    from. From a personal link, ``user`` is None and ``event_id`` is the link's event
    (the link speaks for its player in that event only)."""

    user: User | None = None
    player: Player | None = None
    event_id: int | None = None

    @classmethod
    def from_user(cls, user: Viewer) -> Filer:
        if not isinstance(user, User) or not user.is_authenticated or not user.is_active:
            return cls()
        return cls(user=user, player=Player.objects.filter(user=user).first())

    @classmethod
    def from_link(cls, link: PersonalLink) -> Filer:
        reg = link.registration
        return cls(player=reg.player if reg is not None else None, event_id=link.event_id)

    @property
    def actor(self) -> User | None:
        return self.user

    def owns(self, protest: Protest) -> bool:
        if self.user is not None and protest.filed_by_id == self.user.pk:
            return True
        return self.player is not None and protest.player_id == self.player.pk


def _event_id(game: Game) -> int | None:
    event = game.event
    return event.pk if event is not None else None


def played_in(player: Player, game: Game) -> bool:
    """Whether ``player`` sat at ``game``: its table's seats (an event game), else the
    club game's list of players or its confirmed record."""
    if game.table_id is not None:
        return Seat.objects.filter(table_id=game.table_id, player=player).exists()
    if game.voided_event_id is not None:
        return False
    if player.handle in (game.players or []):
        return True
    version = confirmed_version(game)
    seats = version.record.get("seats", []) if version is not None else []
    return any(isinstance(s, dict) and s.get("player") == player.handle for s in seats)


def files_as_player(filer: Filer, game: Game) -> bool:
    if filer.player is None:
        return False
    if filer.event_id is not None and filer.event_id != _event_id(game):
        return False
    return played_in(filer.player, game)


def may_file(filer: Filer, game: Game, access: Access | None = None) -> bool:
    """A player of the game, or an organiser of its event (status aside); ``access`` is
    the filer's own (a request's), when the caller has it."""
    if filer.user is not None:
        if access is None or access.user_id != filer.user.pk:
            access = Access(filer.user)
        if access.is_game_organiser(game):
            return True
    return files_as_player(filer, game)


def may_rule(access: Access, game: Game) -> bool:
    """The chief referee of ``game``: its event's organisers and staff (a stand-alone
    game's club organisers), never the game's own referee."""
    if not access.active or access.is_game_referee(game):
        return False
    if access.is_game_organiser(game):
        return True
    event = game.event
    return event is not None and access.can_staff_event(event)


# --- phases ------------------------------------------------------------------------------------


def normal_phase(value: Any) -> str:
    """``value`` in its stored form ("Day 1  Ballot 2" → "day 1 ballot 2"), unchecked."""
    if not isinstance(value, str) or len(value) > 40:
        return ""
    return " ".join(value.lower().split())


def record_phases(record: dict[str, Any] | None) -> list[str]:
    """Every phase reference a protest may point to in ``record``, in game order."""
    out = ["setup"]
    for p in (record or {}).get("log") or []:
        if not isinstance(p, dict) or p.get("phase") not in ("night", "day"):
            continue
        name = f"{p['phase']} {p.get('n')}"
        out.append(name)
        ballots = p.get("ballots") or []
        if p["phase"] == "day" and isinstance(ballots, list):
            out.extend(f"{name} ballot {k}" for k in range(1, len(ballots) + 1))
    out += ["awards", "result"]
    return out


def phase_label(phase: str) -> str:
    """A phase reference in the reader's language."""
    match = _PHASE.match(phase or "")
    if match is None:
        return phase
    kind, n, ballot = match.groups()
    if kind is None:
        return {
            "setup": gettext("Seats and role cards"),
            "awards": gettext("Awards"),
            "result": gettext("Result"),
        }[phase]
    if kind == "night":
        return gettext("Night %(n)s") % {"n": n}
    if ballot is None:
        return gettext("Day %(n)s") % {"n": n}
    return gettext("Day %(n)s, ballot %(k)s") % {"n": n, "k": ballot}


def phase_choices(record: dict[str, Any] | None) -> list[tuple[str, str]]:
    return [(p, phase_label(p)) for p in record_phases(record)]


def check_phase(record: dict[str, Any] | None, value: Any) -> str:
    phase = normal_phase(value)
    if not _PHASE.match(phase) or phase not in record_phases(record):
        raise UserError(
            _(
                "This game's record has no phase “%(phase)s”: "
                "choose a night, a day or a ballot of it."
            ),
            code="protest.bad_phase",
            params={"phase": str(value)[:40]},
        )
    return phase


# --- inputs ------------------------------------------------------------------------------------


def _text(value: Any, code: str, empty: Any) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise UserError(empty, code=code)
    if len(text) > Protest.TEXT_MAX:
        raise UserError(
            _("At most %(max)s characters, please (this is %(n)s)."),
            code="protest.too_long",
            params={"max": Protest.TEXT_MAX, "n": len(text)},
        )
    return text


def clean_evidence(value: Any) -> str:
    link = value.strip() if isinstance(value, str) else ""
    if not link:
        return ""
    try:
        if len(link) > Protest.URL_MAX:
            raise ValidationError("too long")
        _EVIDENCE(link)
    except ValidationError:
        raise UserError(
            _(
                "The evidence must be a web link (http:// or https://) "
                "of at most %(max)s characters."
            ),
            code="protest.bad_evidence",
            params={"max": Protest.URL_MAX},
        ) from None
    return link


# --- writes ------------------------------------------------------------------------------------


def file_protest(filer: Filer, game: Game, *, phase: Any, text: Any, evidence: Any = "") -> Protest:
    """File a protest on a released game (see the module for who may)."""
    if not may_file(filer, game):
        raise not_allowed(
            _("Only the game's players and its event's organisers can protest it."),
            code="protest.not_allowed",
        )
    text = _text(text, "protest.text_required", _("Say what you protest against."))
    link = clean_evidence(evidence)
    with transaction.atomic():
        game = lock_game(game.pk)
        if game.status != Game.Status.RELEASED:
            raise UserError(
                _("Only a released game can be protested."),
                code="protest.not_released",
                status=409,
            )
        version = confirmed_version(game)
        phase = check_phase(version.record if version is not None else None, phase)
        protests = Protest.objects.filter(game=game)
        mine = Q(filed_by=filer.user) if filer.user is not None else Q(pk__in=[])
        if files_as_player(filer, game) and filer.player is not None:
            mine |= Q(player=filer.player)
        if protests.filter(mine, status=P.OPEN).count() >= MAX_OPEN_PER_FILER:
            raise UserError(
                _("You already have %(n)s open protests on this game: wait for their rulings."),
                code="protest.too_many",
                params={"n": MAX_OPEN_PER_FILER},
                status=409,
            )
        if protests.count() >= MAX_PER_GAME:
            raise UserError(
                _("This game has too many protests already."),
                code="protest.too_many",
                params={"n": MAX_PER_GAME},
                status=409,
            )
        player = filer.player if files_as_player(filer, game) else None
        protest = Protest.objects.create(
            game=game, player=player, filed_by=filer.user, phase=phase, text=text, evidence=link
        )
        audit(
            filer.actor,
            "game.protest.file",
            game,
            protest=protest.pk,
            phase=phase,
            player=player.handle if player is not None else None,
            personal_link=filer.event_id is not None,
        )
    return protest


def rule_protest(
    actor: User,
    protest: Protest,
    *,
    decision: Any,
    ruling: Any,
    record: Any = None,
    source: str = GameVersion.Source.UPLOAD,
) -> Protest:
    """The chief referee's ruling: ``upheld`` with the corrected ``record`` (submitted
    as a new version for another official to confirm), or ``rejected`` with reasons."""
    game = protest.game
    access = Access(actor)
    if not may_rule(access, game):
        raise not_allowed(
            _(
                "Only the event's chief referee (its organisers and staff, "
                "not the game's referee) rules on protests."
            ),
            code="protest.not_chief_referee",
        )
    if decision not in (P.UPHELD, P.REJECTED):
        raise UserError(_("A ruling upholds or rejects the protest."), code="protest.bad_decision")
    if decision == P.REJECTED:
        ruling = _text(ruling, "protest.reasons_required", _("Say why the protest is rejected."))
        if record is not None:
            raise UserError(
                _("A rejected protest leaves the record as it is: send no record."),
                code="protest.record_unexpected",
            )
    else:
        ruling = _text(ruling, "protest.ruling_required", _("Say what the ruling is."))
        if record is None:
            raise UserError(
                _("Upholding a protest corrects the record: send the corrected record."),
                code="protest.record_required",
            )
        if not access.can_submit(game):
            raise not_allowed(
                _(
                    "Upholding corrects the record, which only the game's organisers can "
                    "submit: reject it, or ask one of them."
                ),
                code="protest.uphold_needs_organiser",
            )
    with transaction.atomic():
        game = lock_game(game.pk)
        require_not_voided(game)
        protest = Protest.objects.select_for_update().get(pk=protest.pk)
        if protest.status != P.OPEN:
            raise UserError(
                _("This protest was already ruled on."), code="protest.already_ruled", status=409
            )
        if protest.filed_by_id == actor.pk:
            raise not_allowed(
                _("You filed this protest: another chief referee rules on it."),
                code="protest.own_protest",
            )
        version = None
        if decision == P.UPHELD:
            current = confirmed_version(game)
            version = submit_record(actor, game, record, source, reason=ruling)
            if version.status != GameVersion.Status.SUBMITTED:
                raise UserError(
                    _(
                        "The corrected record is not valid and complete (%(n)s problems): "
                        "nothing was changed."
                    ),
                    code="protest.correction_invalid",
                    params={"n": len(version.violations)},
                )
            if current is not None and current.record == version.record:
                raise UserError(
                    _(
                        "The corrected record is the same as the confirmed one: "
                        "nothing was changed."
                    ),
                    code="protest.correction_unchanged",
                )
        protest.status = decision
        protest.ruling = ruling
        protest.ruled_by = actor
        protest.ruled_at = timezone.now()
        protest.version = version
        protest.save(
            update_fields=["status", "ruling", "ruled_by", "ruled_at", "version", "updated_at"]
        )
        audit(
            actor,
            "game.protest.rule",
            game,
            protest=protest.pk,
            decision=str(decision),
            version=version.number if version is not None else None,
        )
    return protest


# --- reads -------------------------------------------------------------------------------------


def protests_of(games: Sequence[int] | QuerySet[Game]) -> QuerySet[Protest]:
    return Protest.objects.filter(game__in=games).select_related(
        "player", "filed_by", "ruled_by", "version__confirmed_by"
    )


def visible_protests(access: Access, game: Game, filer: Filer | None = None) -> list[Protest]:
    """The game's protests ``access`` may read, oldest first, each with ``phase_text``:
    ruled ones wherever the record may be read (everyone once released); open ones for
    the game's officials, its chief referees and their filer. One query."""
    if not access.can_see_secrets(game) and filer is None:
        return []
    insider = access.is_game_official(game) or may_rule(access, game)
    rows = []
    for p in protests_of([game.pk]).order_by("created_at", "pk"):
        if (p.ruled and access.can_see_secrets(game)) or insider or (filer and filer.owns(p)):
            p.phase_text = phase_label(p.phase)  # type: ignore[attr-defined]
            rows.append(p)
    return rows


def public_protests(game: Game) -> list[Protest]:
    """The ruled protests of a released game (none before release): the public account."""
    if game.status != Game.Status.RELEASED:
        return []
    return visible_protests(Access(None), game)


@dataclass(frozen=True)
class RefereeProtests:
    """Protests against the games one referee refereed."""

    referee_id: int
    filed: int
    open: int
    upheld: int
    rejected: int


def protests_per_referee(games: QuerySet[Game] | None = None) -> dict[int, RefereeProtests]:
    """Referee pk → how many protests were filed against the games they refereed (the
    table's referee; a stand-alone or voided game's own), and how many are open, upheld
    and rejected; over ``games`` (every game if None). Games without a referee are left
    out. One query. Open protests are not public: a public page shows ``upheld`` and
    ``rejected`` only."""
    qs = Protest.objects.all()
    if games is not None:
        qs = qs.filter(game__in=games)
    rows = (
        qs.annotate(ref=Coalesce("game__table__referee_id", "game__referee_id"))
        .filter(ref__isnull=False)
        .values("ref")
        .annotate(
            filed=Count("pk"),
            open=Count("pk", filter=Q(status=P.OPEN)),
            upheld=Count("pk", filter=Q(status=P.UPHELD)),
            rejected=Count("pk", filter=Q(status=P.REJECTED)),
        )
        .order_by("ref")
    )
    return {
        r["ref"]: RefereeProtests(r["ref"], r["filed"], r["open"], r["upheld"], r["rejected"])
        for r in rows
    }
