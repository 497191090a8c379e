"""Game points: scoring profiles and the points of one game (scoring.md §1).

A profile is versioned data, so a result keeps the rules it was scored with; every point
is an exact ``Decimal`` that carries its reason, so a player can audit each total. The
scorer works on :class:`GameSummary`, a small flat view of a validated record, so the
rules of points do not depend on how records are parsed or replayed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, TypeVar

from engine.errors import EngineError
from engine.messages import Message, Params, render

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
            raise ProfileError("profile.id", {"value": repr(self.id)})
        for name in ("version", "warning_threshold"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ProfileError("profile.at_least_one", {"profile": self.id, "key": name})
        for name in _DECIMAL_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, Decimal) or not value.is_finite():
                raise ProfileError("profile.not_decimal", {"profile": self.id, "key": name})
        for name in _MAGNITUDE_FIELDS:
            if getattr(self, name) < 0:
                raise ProfileError("profile.negative", {"profile": self.id, "key": name})

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
        raise ProfileError(
            "profile.unknown", {"profile": key, "profiles": sorted(PROFILES)}
        ) from None


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
        raise ProfileError(
            "profile.unknown_keys", {"keys": unknown, "allowed": sorted(_PROFILE_KEYS)}
        )
    for required in ("id", "version"):
        if required not in data:
            raise ProfileError("profile.missing_key", {"key": required})
    base_key = data.get("base", DEFAULT_PROFILE.key)
    if not isinstance(base_key, str):
        raise ProfileError("profile.base_type", {})
    base = get_profile(base_key)
    ident = data["id"]
    if not isinstance(ident, str):
        raise ProfileError("profile.id_type", {})

    def dec(name: str, default: Decimal) -> Decimal:
        return _to_decimal(data[name], name) if name in data else default

    def whole(name: str, default: int) -> int:
        if name not in data:
            return default
        value = data[name]
        if type(value) is not int:
            raise ProfileError("profile.not_integer", {"key": name, "value": repr(value)})
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
    shown = {"key": name, "value": repr(value)}
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        raise ProfileError("profile.not_number", shown)
    try:
        result = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise ProfileError("profile.not_number", shown) from None
    if not result.is_finite():
        raise ProfileError("profile.not_finite", shown)
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
        game = self.game
        if self.status not in STATUSES:
            raise SummaryError("summary.status", {"label": game, "value": repr(self.status)})
        if (self.winner is None) != (self.status == "in-progress"):
            variant = "absent" if self.status == "in-progress" else "present"
            raise SummaryError(
                "summary.winner", {"variant": variant, "label": game, "status": self.status}
            )
        if self.winner is not None and self.winner not in WINNERS:
            raise SummaryError(
                "summary.winner_unknown", {"label": game, "value": repr(self.winner)}
            )
        numbers = [s.seat for s in self.seats]
        if not numbers or len(set(numbers)) != len(numbers):
            raise SummaryError("summary.seats", {"label": game})
        players = Counter(s.player for s in self.seats)
        twice = sorted(p for p, n in players.items() if n > 1 or not p)
        if twice:
            raise SummaryError("summary.players", {"label": game, "names": twice})
        for info in self.seats:
            if info.role not in ROLES:
                raise SummaryError(
                    "summary.role", {"label": game, "seat": info.seat, "value": repr(info.role)}
                )
        known = set(numbers)
        if self.status == "result-only" and (
            self.night1_victim is not None or self.night1_suspects or self.ejected
        ):
            raise SummaryError("summary.result_only", {"label": game})
        if self.night1_victim is None and self.night1_suspects:
            raise SummaryError("summary.suspects_no_victim", {"label": game})
        mentioned = [*self.night1_suspects, *self.ejected, *(a.seat for a in self.awards)]
        if self.night1_victim is not None:
            mentioned.append(self.night1_victim)
        for seat in mentioned:
            if seat not in known:
                raise SummaryError("summary.seat_absent", {"label": game, "seat": seat})
        if len(set(self.night1_suspects)) != len(self.night1_suspects) or (
            self.night1_victim in self.night1_suspects
        ):
            raise SummaryError("summary.suspects_distinct", {"label": game})
        killers = sum(1 for s in self.seats if s.role == "killer")
        if len(self.night1_suspects) > killers:
            raise SummaryError("summary.suspects_count", {"label": game, "count": killers})
        if len(set(self.ejected)) != len(self.ejected):
            raise SummaryError("summary.ejected_twice", {"label": game})
        for award in self.awards:
            _check_award(award, game)

    def seat(self, number: int) -> SeatInfo:
        """The seat with this number."""
        for info in self.seats:
            if info.seat == number:
                return info
        raise SummaryError("summary.seat_absent", {"label": self.game, "seat": number})


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
            _pick(a.kind.value, AWARD_KINDS, "award_kind"),
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
    """``value`` as one of the literal ``options`` (a record enum's value, typed); ``what``
    names the field (``role``, ``award_kind``, ``winner``)."""
    for option in options:
        if option == value:
            return option
    raise SummaryError("summary.unknown", {"variant": what, "value": repr(value)})


def _award_points(points: float | None) -> Decimal:
    """A record's JSON number as the exact decimal it was written as."""
    if points is None:
        return Decimal("0")
    return Decimal(repr(points)) if isinstance(points, float) else Decimal(points)


def _check_award(award: AwardInfo, game: str) -> None:
    where: dict[str, str | int] = {"label": game, "seat": award.seat}
    if award.kind not in AWARD_KINDS:
        raise SummaryError("summary.award_kind", {**where, "value": repr(award.kind)})
    if not isinstance(award.points, Decimal) or not award.points.is_finite():
        raise SummaryError("summary.award_points", where)
    if award.kind == "warning" and award.points != 0:
        raise SummaryError("summary.warning_points", where)
    if award.kind != "warning" and award.points <= 0:
        raise SummaryError("summary.award_positive", {**where, "kind": award.kind})


# --- the profile's automatic points -----------------------------------------------------

AutomaticKind = Literal["warnings", "ejection"]


@dataclass(frozen=True)
class AutomaticPoints:
    """A line the profile adds by itself, not the referee: the penalty of a seat whose
    warnings reached the profile's threshold, or the penalty of an ejected seat."""

    seat: int
    kind: AutomaticKind
    points: Decimal
    code: str
    params: Params = field(default_factory=dict, hash=False)


def automatic_points(
    awards: Iterable[AwardInfo],
    ejected: Iterable[int] = (),
    profile: ScoringProfile = DEFAULT_PROFILE,
) -> tuple[AutomaticPoints, ...]:
    """The points ``profile`` adds by itself for these awards and ejections (scoring.md
    §1): for each seat whose warnings reach ``warning_threshold``, ``-warning_penalty``
    once (a fifth warning adds nothing more); for each ejected seat,
    ``-ejection_penalty``. In seat order, a seat's warnings line before its ejection.

    :func:`score_game` adds exactly these lines, so a live sheet that shows them shows
    what the game will score. Bonuses and penalties are the referee's own points.
    """
    warnings = Counter(a.seat for a in awards if a.kind == "warning")
    out = set(ejected)
    lines: list[AutomaticPoints] = []
    for seat in sorted(set(warnings) | out):
        if warnings[seat] >= profile.warning_threshold:
            penalty = -profile.warning_penalty
            count = {"count": profile.warning_threshold}
            lines.append(AutomaticPoints(seat, "warnings", penalty, "points.warnings", count))
        if seat in out:
            lines.append(
                AutomaticPoints(seat, "ejection", -profile.ejection_penalty, "points.ejection", {})
            )
    return tuple(lines)


# --- scoring one game -------------------------------------------------------------------


@dataclass(frozen=True)
class PointItem:
    """One line of a player's points, with its reason as data: a catalogue ``code``
    (``points.<kind>``) and ``params`` (numbers as decimal text, counts, seats, the
    referee's own words as ``note``); ``reason`` is the English a player reads."""

    game: str
    player: str
    kind: ItemKind
    points: Decimal
    code: str
    params: Params = field(default_factory=dict, hash=False)

    @property
    def reason(self) -> str:
        """The line's reason in English, rendered from ``code`` and ``params``."""
        return render(self.code, self.params)

    @property
    def message(self) -> Message:
        """The reason as a :class:`Message` (code and params)."""
        return Message(self.code, self.params)


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
    """The points of one game, or why it was not scored (``scored`` False + a warning, a
    :class:`Message`)."""

    game: str
    event: str | None
    status: Status
    profile: str
    scored: bool
    players: tuple[PlayerScore, ...]
    warnings: tuple[Message, ...] = ()

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
            warnings=(Message("scoring.in_progress", {"label": summary.game}),),
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

    def add(kind: ItemKind, points: Decimal, code: str, params: Params) -> None:
        items.append(PointItem(summary.game, info.player, kind, points, code, params))

    outcome = _outcome(summary.winner, info.role)
    if outcome == "draw":
        add("result", profile.draw, "points.result", {"variant": "draw"})
    elif outcome == "win":
        won = {"variant": "win", "winner": summary.winner}
        add("result", profile.win_points(side_of(info.role)), "points.result", won)
    else:
        add("result", profile.loss, "points.result", {"variant": "loss", "winner": summary.winner})

    mine = [a for a in summary.awards if a.seat == info.seat]
    bonuses = [a for a in mine if a.kind == "bonus"]
    for award in bonuses:
        add("bonus", award.points, "points.bonus", _noted(award.reason))
    excess = sum((a.points for a in bonuses), Decimal("0")) - profile.bonus_cap
    if excess > 0:
        cap = {"points": format_points(profile.bonus_cap)}
        add("bonus-cap", -excess, "points.bonus_cap", cap)
    for award in mine:
        if award.kind == "penalty":
            add("penalty", -award.points, "points.penalty", _noted(award.reason))
    warnings = [a for a in mine if a.kind == "warning"]
    for count, award in enumerate(warnings, start=1):
        add("warning", Decimal("0"), "points.warning", {**_noted(award.reason), "count": count})
    ejected = (info.seat,) if info.seat in summary.ejected else ()
    for line in automatic_points(mine, ejected, profile):
        add(line.kind, line.points, line.code, line.params)

    victim = summary.night1_victim == info.seat
    if victim and side_of(info.role) == "good":
        for suspect in summary.night1_suspects:
            named = summary.seat(suspect)
            if named.role == "killer":
                guessed: Params = {"seat": named.seat, "player": named.player}
                add("best-guess", profile.best_guess, "points.best_guess", guessed)
    return PlayerScore(info.player, info.seat, info.role, outcome, victim, tuple(items))


def _outcome(winner: Winner | None, role: Role) -> Outcome:
    if winner == "draw":
        return "draw"
    return "win" if winner == side_of(role) else "loss"


def _noted(note: str) -> dict[str, str]:
    """The params of a referee's award line: its ``note`` variant when they wrote one."""
    return {"variant": "note", "note": note} if note else {}
