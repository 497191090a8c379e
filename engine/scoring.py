"""Game points: scoring profiles and the points of one game (scoring.md §1).

A profile is versioned data, so a result keeps the rules it was scored with; every point
is an exact ``Decimal`` that carries its reason, so a player can audit each total. The
scorer works on :class:`GameSummary`, a small flat view of a validated record, so the
rules of points do not depend on how records are parsed or replayed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, TypeVar

from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.record import GameRecord

Role = Literal["killer", "police", "civilian"]
Winner = Literal["good", "killers", "draw"]
Status = Literal["finished", "result-only", "in-progress"]
AwardKind = Literal["bonus", "penalty", "warning"]
Outcome = Literal["win", "draw", "loss"]
ItemKind = Literal[
    "result",
    "bonus",
    "bonus-cap",
    "penalty",
    "warning",
    "warnings",
    "ejection",
    "best-guess",
    "ci",
]

_T = TypeVar("_T", bound=str)

ROLES: tuple[Role, ...] = ("killer", "police", "civilian")
WINNERS: tuple[Winner, ...] = ("good", "killers", "draw")
STATUSES: tuple[Status, ...] = ("finished", "result-only", "in-progress")
AWARD_KINDS: tuple[AwardKind, ...] = ("bonus", "penalty", "warning")


class ScoringError(EngineError):
    """A profile or a game summary that cannot be scored as given."""


class ProfileError(ScoringError):
    """A scoring profile that is unknown or malformed (names the key at fault)."""


class SummaryError(ScoringError):
    """A game summary that contradicts itself (names the game and seat)."""


def side_of(role: Role) -> Literal["good", "killers"]:
    """The side a role plays for: police and civilians are the good side."""
    return "killers" if role == "killer" else "good"


def format_points(value: Decimal) -> str:
    """A points value as a plain decimal string: ``"1.2"``, ``"-0.5"``, ``"1.0"``.

    No exponent and at least one decimal place, so tables line up and JSON readers
    never meet ``"1E+1"``.
    """
    if value == 0:
        return "0.0"
    text = format(value.normalize(), "f")
    return text if "." in text else text + ".0"


# --- profiles ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoringProfile:
    """The points of one scoring rule set. Penalties are magnitudes (subtracted).

    ``key`` (``id-vVERSION``) names it in events and results: a change to the points
    makes a new version rather than editing one that results were scored with.
    """

    id: str
    version: int
    good_win: Decimal
    killers_win: Decimal
    draw: Decimal
    loss: Decimal
    bonus_cap: Decimal
    warning_threshold: int
    warning_penalty: Decimal
    ejection_penalty: Decimal
    best_guess: Decimal
    ci_factor: Decimal

    def __post_init__(self) -> None:
        if not self.id or self.id != self.id.strip() or " " in self.id:
            raise ProfileError(f"profile id must be a non-empty word, got {self.id!r}")
        if type(self.version) is not int or self.version < 1:
            raise ProfileError(f"profile {self.id}: version must be an integer >= 1")
        if type(self.warning_threshold) is not int or self.warning_threshold < 1:
            raise ProfileError(f"profile {self.id}: warning_threshold must be an integer >= 1")
        for name in _DECIMAL_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, Decimal) or not value.is_finite():
                raise ProfileError(f"profile {self.id}: {name} must be a finite Decimal")
        for name in _MAGNITUDE_FIELDS:
            if getattr(self, name) < 0:
                raise ProfileError(f"profile {self.id}: {name} must not be negative")

    @property
    def key(self) -> str:
        """The versioned name used by events and results, e.g. ``club-v1``."""
        return f"{self.id}-v{self.version}"

    def win_points(self, winner: Literal["good", "killers"]) -> Decimal:
        """Points for each player of the winning side."""
        return self.good_win if winner == "good" else self.killers_win


_DECIMAL_FIELDS = (
    "good_win",
    "killers_win",
    "draw",
    "loss",
    "bonus_cap",
    "warning_penalty",
    "ejection_penalty",
    "best_guess",
    "ci_factor",
)
_MAGNITUDE_FIELDS = ("bonus_cap", "warning_penalty", "ejection_penalty", "best_guess", "ci_factor")

CLUB_V1 = ScoringProfile(
    id="club",
    version=1,
    good_win=Decimal("1.0"),
    killers_win=Decimal("1.0"),
    draw=Decimal("0.5"),
    loss=Decimal("0"),
    bonus_cap=Decimal("1.0"),
    warning_threshold=4,
    warning_penalty=Decimal("0.5"),
    ejection_penalty=Decimal("0.5"),
    best_guess=Decimal("0.2"),
    ci_factor=Decimal("0.4"),
)
DEFAULT_PROFILE = CLUB_V1

#: The built-in profiles by key. Read-only: an organiser's own profile is built with
#: :func:`profile_from_dict` and passed to the scorer, not registered globally.
PROFILES: Mapping[str, ScoringProfile] = MappingProxyType({CLUB_V1.key: CLUB_V1})


def get_profile(key: str) -> ScoringProfile:
    """A built-in profile by key (``club-v1``); unknown keys list the known ones."""
    try:
        return PROFILES[key]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise ProfileError(f"unknown scoring profile {key!r}; known: {known}") from None


_PROFILE_KEYS = frozenset(f.name for f in fields(ScoringProfile)) | {"base"}


def profile_from_dict(data: Mapping[str, object]) -> ScoringProfile:
    """An organiser's profile from plain data (e.g. an event's settings JSON).

    ``id`` and ``version`` are required; ``base`` (a built-in key, default ``club-v1``)
    supplies every parameter not given. Unknown keys are rejected, not ignored, so a
    misspelt parameter never silently scores with the default. Numbers may be strings,
    integers or Decimals; JSON floats are read by their shortest repr (``0.4`` → 0.4).
    """
    unknown = sorted(set(data) - _PROFILE_KEYS)
    if unknown:
        allowed = ", ".join(sorted(_PROFILE_KEYS))
        raise ProfileError(
            f"unknown scoring profile key(s): {', '.join(unknown)}; allowed: {allowed}"
        )
    for required in ("id", "version"):
        if required not in data:
            raise ProfileError(f"scoring profile needs {required!r}")
    base_key = data.get("base", DEFAULT_PROFILE.key)
    if not isinstance(base_key, str):
        raise ProfileError("scoring profile 'base' must be a profile key string")
    base = get_profile(base_key)
    ident = data["id"]
    if not isinstance(ident, str):
        raise ProfileError("scoring profile 'id' must be a string")

    def dec(name: str, default: Decimal) -> Decimal:
        return _to_decimal(data[name], name) if name in data else default

    def whole(name: str, default: int) -> int:
        if name not in data:
            return default
        value = data[name]
        if type(value) is not int:
            raise ProfileError(f"scoring profile {name!r} must be an integer, got {value!r}")
        return value

    return ScoringProfile(
        id=ident,
        version=whole("version", base.version),
        good_win=dec("good_win", base.good_win),
        killers_win=dec("killers_win", base.killers_win),
        draw=dec("draw", base.draw),
        loss=dec("loss", base.loss),
        bonus_cap=dec("bonus_cap", base.bonus_cap),
        warning_threshold=whole("warning_threshold", base.warning_threshold),
        warning_penalty=dec("warning_penalty", base.warning_penalty),
        ejection_penalty=dec("ejection_penalty", base.ejection_penalty),
        best_guess=dec("best_guess", base.best_guess),
        ci_factor=dec("ci_factor", base.ci_factor),
    )


def _to_decimal(value: object, name: str) -> Decimal:
    """Exact Decimal from str/int/Decimal, or a float by its repr (never its binary value)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        raise ProfileError(f"scoring profile {name!r} must be a number, got {value!r}")
    try:
        result = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise ProfileError(f"scoring profile {name!r} must be a number, got {value!r}") from None
    if not result.is_finite():
        raise ProfileError(f"scoring profile {name!r} must be finite, got {value!r}")
    return result


# --- the scorer's input -----------------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    """One seat of a game: who sat there and which card they held."""

    seat: int
    player: str
    role: Role


@dataclass(frozen=True)
class AwardInfo:
    """A referee award: a bonus or penalty of positive ``points``, or a warning (0)."""

    seat: int
    kind: AwardKind
    points: Decimal = Decimal("0")
    reason: str = ""


@dataclass(frozen=True)
class GameSummary:
    """What scoring needs from one validated game, and nothing else.

    ``night1_suspects`` are the seats named in the day-1 last words of the night-1
    victim. A result-only record has no log, so no victim, suspects or ejections.
    """

    game: str
    seats: tuple[SeatInfo, ...]
    status: Status
    winner: Winner | None
    event: str | None = None
    night1_victim: int | None = None
    night1_suspects: tuple[int, ...] = ()
    ejected: tuple[int, ...] = ()
    awards: tuple[AwardInfo, ...] = ()

    def __post_init__(self) -> None:
        where = f"game {self.game}"
        if self.status not in STATUSES:
            raise SummaryError(f"{where}: unknown status {self.status!r}")
        if (self.winner is None) != (self.status == "in-progress"):
            raise SummaryError(f"{where}: a {self.status} game must {_winner_rule(self.status)}")
        if self.winner is not None and self.winner not in WINNERS:
            raise SummaryError(f"{where}: unknown winner {self.winner!r}")
        numbers = [s.seat for s in self.seats]
        if not numbers or len(set(numbers)) != len(numbers):
            raise SummaryError(f"{where}: seats must be present and distinct")
        players = Counter(s.player for s in self.seats)
        twice = sorted(p for p, n in players.items() if n > 1 or not p)
        if twice:
            raise SummaryError(f"{where}: players must be non-empty and unique: {twice}")
        for info in self.seats:
            if info.role not in ROLES:
                raise SummaryError(f"{where} seat {info.seat}: unknown role {info.role!r}")
        known = set(numbers)
        if self.status == "result-only" and (
            self.night1_victim is not None or self.night1_suspects or self.ejected
        ):
            raise SummaryError(f"{where}: a result-only game has no victim, suspects or ejections")
        if self.night1_victim is None and self.night1_suspects:
            raise SummaryError(f"{where}: day-1 suspects without a night-1 victim")
        mentioned = [*self.night1_suspects, *self.ejected, *(a.seat for a in self.awards)]
        if self.night1_victim is not None:
            mentioned.append(self.night1_victim)
        for seat in mentioned:
            if seat not in known:
                raise SummaryError(f"{where}: seat {seat} is not at the table")
        if len(set(self.night1_suspects)) != len(self.night1_suspects) or (
            self.night1_victim in self.night1_suspects
        ):
            raise SummaryError(f"{where}: suspects must be distinct seats other than the speaker")
        killers = sum(1 for s in self.seats if s.role == "killer")
        if len(self.night1_suspects) > killers:
            raise SummaryError(f"{where}: more suspects named than the {killers} killers dealt")
        if len(set(self.ejected)) != len(self.ejected):
            raise SummaryError(f"{where}: a seat is ejected twice")
        for award in self.awards:
            _check_award(award, where)

    def seat(self, number: int) -> SeatInfo:
        """The seat with this number."""
        for info in self.seats:
            if info.seat == number:
                return info
        raise SummaryError(f"game {self.game}: seat {number} is not at the table")


def summarize(record: GameRecord, game: str) -> GameSummary:
    """The scoring view of a KGR/1 record, labelled ``game`` (a file name or an id).

    Meant for records that validated: the facts read here (night-1 kill, ejections,
    day-1 last words, declared winner) are then exactly what the replay computed.
    """
    from engine.record import Day, Night

    event = record.meta.get("event") if record.meta is not None else None
    seats = tuple(
        SeatInfo(s.seat, s.player, _pick(s.role.value, ROLES, "role")) for s in record.seats
    )
    awards = tuple(
        AwardInfo(
            a.seat,
            _pick(a.kind.value, AWARD_KINDS, "award kind"),
            _award_points(a.points),
            a.reason or "",
        )
        for a in record.awards or ()
    )
    winner = None if record.result is None else _pick(record.result.value, WINNERS, "winner")
    if record.log is None:
        status: Status = "in-progress" if winner is None else "result-only"
        return GameSummary(game, seats, status, winner, event, awards=awards)
    victim = next((p.kill for p in record.log if isinstance(p, Night) and p.n == 1), None)
    days = [p for p in record.log if isinstance(p, Day)]
    words = [w for d in days if d.n == 1 for w in d.last_words or () if w.seat == victim]
    return GameSummary(
        game,
        seats,
        "in-progress" if winner is None else "finished",
        winner,
        event,
        night1_victim=victim,
        night1_suspects=words[0].suspects if words else (),
        ejected=tuple(seat for d in days for seat in d.eject or ()),
        awards=awards,
    )


def _pick(value: str, options: tuple[_T, ...], what: str) -> _T:
    """``value`` as one of the literal ``options`` (a record enum's value, typed)."""
    for option in options:
        if option == value:
            return option
    raise SummaryError(f"unknown {what} {value!r}")


def _award_points(points: float | None) -> Decimal:
    """A record's JSON number as the exact decimal it was written as."""
    if points is None:
        return Decimal("0")
    return Decimal(repr(points)) if isinstance(points, float) else Decimal(points)


def _winner_rule(status: Status) -> str:
    return "have no winner" if status == "in-progress" else "have a winner"


def _check_award(award: AwardInfo, where: str) -> None:
    if award.kind not in AWARD_KINDS:
        raise SummaryError(f"{where} seat {award.seat}: unknown award kind {award.kind!r}")
    if not isinstance(award.points, Decimal) or not award.points.is_finite():
        raise SummaryError(f"{where} seat {award.seat}: award points must be a finite Decimal")
    if award.kind == "warning" and award.points != 0:
        raise SummaryError(f"{where} seat {award.seat}: a warning carries no points")
    if award.kind != "warning" and award.points <= 0:
        raise SummaryError(f"{where} seat {award.seat}: a {award.kind} needs positive points")


# --- scoring one game -------------------------------------------------------------------


@dataclass(frozen=True)
class PointItem:
    """One line of a player's points, with the reason a player can read."""

    game: str
    player: str
    kind: ItemKind
    points: Decimal
    reason: str


@dataclass(frozen=True)
class PlayerScore:
    """A player's points in one game; ``total`` is always the sum of ``items``."""

    player: str
    seat: int
    role: Role
    outcome: Outcome
    night1_victim: bool
    items: tuple[PointItem, ...]

    @property
    def total(self) -> Decimal:
        """The game points (Ci excluded: it is event-level)."""
        return sum((i.points for i in self.items), Decimal("0"))

    @property
    def result_points(self) -> Decimal:
        """The points for the game's result alone (win, draw or loss)."""
        return sum((i.points for i in self.items if i.kind == "result"), Decimal("0"))


@dataclass(frozen=True)
class GameScore:
    """The points of one game, or why it was not scored (``scored`` False + a warning)."""

    game: str
    event: str | None
    status: Status
    profile: str
    scored: bool
    players: tuple[PlayerScore, ...]
    warnings: tuple[str, ...] = ()

    @property
    def points(self) -> dict[str, Decimal]:
        """Each player's game points, in seat order."""
        return {p.player: p.total for p in self.players}


def score_game(summary: GameSummary, profile: ScoringProfile = DEFAULT_PROFILE) -> GameScore:
    """Score one game by ``profile`` (scoring.md §1); an in-progress game is skipped."""
    if summary.status == "in-progress":
        return GameScore(
            game=summary.game,
            event=summary.event,
            status=summary.status,
            profile=profile.key,
            scored=False,
            players=(),
            warnings=(f"{summary.game}: in-progress record skipped (no result to score)",),
        )
    return GameScore(
        game=summary.game,
        event=summary.event,
        status=summary.status,
        profile=profile.key,
        scored=True,
        players=tuple(_score_seat(summary, info, profile) for info in summary.seats),
    )


def _score_seat(summary: GameSummary, info: SeatInfo, profile: ScoringProfile) -> PlayerScore:
    items: list[PointItem] = []

    def add(kind: ItemKind, points: Decimal, reason: str) -> None:
        items.append(PointItem(summary.game, info.player, kind, points, reason))

    outcome = _outcome(summary.winner, info.role)
    if outcome == "draw":
        add("result", profile.draw, "drawn game")
    elif outcome == "win":
        add("result", profile.win_points(side_of(info.role)), f"won: {summary.winner} side won")
    else:
        add("result", profile.loss, f"lost: {summary.winner} side won")

    mine = [a for a in summary.awards if a.seat == info.seat]
    bonuses = [a for a in mine if a.kind == "bonus"]
    for award in bonuses:
        add("bonus", award.points, _labelled("referee bonus", award.reason))
    excess = sum((a.points for a in bonuses), Decimal("0")) - profile.bonus_cap
    if excess > 0:
        cap = format_points(profile.bonus_cap)
        add("bonus-cap", -excess, f"referee bonuses capped at +{cap} per game")
    for award in mine:
        if award.kind == "penalty":
            add("penalty", -award.points, _labelled("referee penalty", award.reason))
    warnings = [a for a in mine if a.kind == "warning"]
    for count, award in enumerate(warnings, start=1):
        add("warning", Decimal("0"), _labelled(f"warning {count}", award.reason))
    if len(warnings) >= profile.warning_threshold:
        add(
            "warnings",
            -profile.warning_penalty,
            f"{profile.warning_threshold} warnings in one game: automatic penalty (once)",
        )
    if info.seat in summary.ejected:
        add("ejection", -profile.ejection_penalty, "ejected by the referee")

    victim = summary.night1_victim == info.seat
    if victim and side_of(info.role) == "good":
        for suspect in summary.night1_suspects:
            named = summary.seat(suspect)
            if named.role == "killer":
                add("best-guess", profile.best_guess, f"best guess: named {_who(named)}, a killer")
    return PlayerScore(info.player, info.seat, info.role, outcome, victim, tuple(items))


def _outcome(winner: Winner | None, role: Role) -> Outcome:
    if winner == "draw":
        return "draw"
    return "win" if winner == side_of(role) else "loss"


def _labelled(label: str, reason: str) -> str:
    return f"{label}: {reason}" if reason else label


def _who(info: SeatInfo) -> str:
    return f"seat {info.seat} ({info.player})"
