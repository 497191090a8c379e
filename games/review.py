"""What a confirming official reads before the button: a version's whole record (seats,
roles, every night and day with each ballot's voters, awards, the result), the engine's
verdict and the differences from the version that confirming it would replace.

Read-only and for officials only: everything here shows roles. Sentences are made here,
in the reader's language, from the stored record (which keeps codes and seat numbers).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine.validate import validate
from games.models import GameVersion
from league.engine_text import message_text, phase_text, word_text
from league.models import Player


@dataclass(frozen=True)
class SeatRow:
    seat: int
    player: str
    name: str
    role: str


@dataclass(frozen=True)
class BallotRow:
    """One target of a ballot (None: the abstentions) with its votes and voters."""

    target: str
    role: str
    count: int
    voters: str


@dataclass(frozen=True)
class BallotView:
    number: int
    rows: list[BallotRow]
    total: int


@dataclass(frozen=True)
class PhaseView:
    key: str  # "night 1", "day 2": how two versions' phases are matched
    title: str
    kind: str  # "night" or "day"
    before: list[str]  # kills, checks, ejections, surrenders
    ballots: list[BallotView]
    after: list[str]  # lots, the elimination, last words


@dataclass(frozen=True)
class SeatChange:
    seat: int
    before_player: str
    after_player: str
    before_role: str
    after_role: str

    @property
    def player_changed(self) -> bool:
        return self.before_player != self.after_player

    @property
    def role_changed(self) -> bool:
        return self.before_role != self.after_role


@dataclass(frozen=True)
class PhaseChange:
    title: str
    change: str  # "changed", "added" (only in this version), "removed" (only in the basis)
    before: PhaseView | None
    after: PhaseView | None


@dataclass(frozen=True)
class Diff:
    basis: GameVersion
    seats: list[SeatChange]
    phases: list[PhaseChange]
    winner_before: str
    winner_after: str
    awards_changed: bool
    log_before: bool  # the basis has a log (False: a result-only record)
    log_after: bool

    @property
    def winner_changed(self) -> bool:
        return self.winner_before != self.winner_after

    @property
    def same(self) -> bool:
        return not (
            self.seats
            or self.phases
            or self.winner_changed
            or self.awards_changed
            or self.log_before != self.log_after
        )


@dataclass(frozen=True)
class Review:
    version: GameVersion
    seats: list[SeatRow]
    phases: list[PhaseView]
    awards: list[dict[str, Any]]
    winner: str
    ended: str
    reason: str
    has_log: bool
    diff: Diff | None


def _list(value: Any) -> list[Any]:
    """A record's list, or nothing: a draft version may hold anything where a list goes
    (its violations say so), and the review still shows the rest."""
    return value if isinstance(value, list) else []


def _seats(record: dict[str, Any]) -> dict[int, dict[str, str]]:
    out: dict[int, dict[str, str]] = {}
    for s in _list(record.get("seats")):
        if isinstance(s, dict) and isinstance(s.get("seat"), int):
            out[s["seat"]] = {
                "player": str(s.get("player") or ""),
                "role": str(s.get("role") or ""),
            }
    return out


class _Words:
    """Seat labels for one record: "seat 3 Li Wei (killer)"."""

    def __init__(self, record: dict[str, Any], names: dict[str, str]) -> None:
        self.seats = _seats(record)
        self.names = names

    def name(self, seat: Any) -> str:
        info = self.seats.get(seat) if isinstance(seat, int) else None
        if info is None:
            return ""
        return self.names.get(info["player"], info["player"])

    def role(self, seat: Any) -> str:
        info = self.seats.get(seat) if isinstance(seat, int) else None
        return info["role"] if info is not None else ""

    def who(self, seat: Any) -> str:
        if not isinstance(seat, int) or seat not in self.seats:
            return _("seat %(n)s") % {"n": seat}
        return _("seat %(n)s %(name)s (%(role)s)") % {
            "n": seat,
            "name": self.name(seat),
            "role": word_text(self.role(seat), "role"),
        }

    def short(self, seat: Any) -> str:
        name = self.name(seat)
        return f"{seat} {name}" if name else str(seat)


def _seat_order(seat: Any) -> tuple[int, int, str]:
    return (0, seat, "") if isinstance(seat, int) else (1, 0, str(seat))


def _ballot(number: int, ballot: Any, words: _Words) -> BallotView:
    voters: dict[Any, list[int]] = defaultdict(list)
    total = 0
    if isinstance(ballot, dict):
        for voter, target in ballot.items():
            seat = int(voter) if str(voter).isdigit() else voter
            voters[target if isinstance(target, int) else None].append(seat)
            total += 1
    rows = []
    for target, who in sorted(
        voters.items(), key=lambda kv: (kv[0] is None, -len(kv[1]), kv[0] or 0)
    ):
        listed = ", ".join(words.short(s) for s in sorted(who, key=_seat_order))
        rows.append(
            BallotRow(
                target=words.who(target) if target is not None else _("abstained"),
                role=words.role(target) if target is not None else "",
                count=len(who),
                voters=listed,
            )
        )
    return BallotView(number=number, rows=rows, total=total)


def _phase(p: dict[str, Any], words: _Words) -> PhaseView:
    n = p.get("n")
    before: list[str] = []
    after: list[str] = []
    ballots: list[BallotView] = []
    if p.get("phase") == "night":
        kill = p.get("kill")
        before.append(
            _("The killers killed %(who)s.") % {"who": words.who(kill)}
            if kill
            else _("The killers killed nobody.")
        )
        check = p.get("check")
        if check:
            verdict = _("a killer") if words.role(check) == "killer" else _("good")
            before.append(
                _("The police checked %(who)s: %(verdict)s.")
                % {"who": words.who(check), "verdict": verdict}
            )
        else:
            before.append(_("The police checked nobody."))
        return PhaseView(f"night {n}", _("Night %(n)s") % {"n": n}, "night", before, [], [])
    for seat in _list(p.get("eject")):
        before.append(_("The referee ejected %(who)s.") % {"who": words.who(seat)})
    if p.get("surrender"):
        before.append(_("%(who)s surrendered.") % {"who": words.who(p["surrender"])})
    for i, ballot in enumerate(_list(p.get("ballots")), start=1):
        ballots.append(_ballot(i, ballot, words))
    if p.get("lot"):
        after.append(_("Drawn by lot: %(who)s.") % {"who": words.who(p["lot"])})
    if "eliminated" in p:
        out = p.get("eliminated")
        after.append(
            _("%(who)s was voted out.") % {"who": words.who(out)}
            if out
            else _("Nobody was voted out.")
        )
    for entry in _list(p.get("last_words")):
        if not isinstance(entry, dict):
            continue
        named = ", ".join(words.who(s) for s in _list(entry.get("suspects")))
        after.append(
            _("Last words of %(who)s: suspects %(named)s.")
            % {"who": words.who(entry.get("seat")), "named": named or _("nobody")}
        )
    return PhaseView(f"day {n}", _("Day %(n)s") % {"n": n}, "day", before, ballots, after)


def _phases(record: dict[str, Any], words: _Words) -> list[PhaseView]:
    log = record.get("log")
    if not isinstance(log, list):
        return []
    return [_phase(p, words) for p in log if isinstance(p, dict)]


def _awards(record: dict[str, Any], words: _Words) -> list[dict[str, Any]]:
    out = []
    for a in _list(record.get("awards")):
        if isinstance(a, dict):
            out.append(
                {
                    "who": words.who(a.get("seat")),
                    "kind": str(a.get("kind") or ""),
                    "points": a.get("points"),
                    "reason": str(a.get("reason") or ""),
                }
            )
    return out


def _winner(record: dict[str, Any]) -> str:
    result = record.get("result")
    return str(result.get("winner") or "") if isinstance(result, dict) else ""


def _names(*records: dict[str, Any]) -> dict[str, str]:
    handles = {s["player"] for r in records for s in _seats(r).values() if s["player"]}
    return dict(Player.objects.filter(handle__in=handles).values_list("handle", "display_name"))


def basis_for(version: GameVersion, versions: list[GameVersion]) -> GameVersion | None:
    """The version ``version`` is compared with: the confirmed one (what confirming would
    replace), else the latest earlier version."""
    confirmed = next(
        (v for v in versions if v.status == GameVersion.Status.CONFIRMED and v.pk != version.pk),
        None,
    )
    if confirmed is not None:
        return confirmed
    earlier = [v for v in versions if v.number < version.number]
    return earlier[-1] if earlier else None


def _diff(
    basis: GameVersion, record: dict[str, Any], names: dict[str, str], after: list[PhaseView]
) -> Diff:
    old = basis.record if isinstance(basis.record, dict) else {}
    old_seats, new_seats = _seats(old), _seats(record)
    seats = []
    for n in sorted(set(old_seats) | set(new_seats)):
        a = old_seats.get(n, {"player": "", "role": ""})
        b = new_seats.get(n, {"player": "", "role": ""})
        if a != b:
            seats.append(SeatChange(n, a["player"], b["player"], a["role"], b["role"]))
    old_words = _Words(old, names)
    old_log = [p for p in _list(old.get("log")) if isinstance(p, dict)]
    new_log = [p for p in _list(record.get("log")) if isinstance(p, dict)]
    before_views = {v.key: (v, p) for v, p in zip(_phases(old, old_words), old_log, strict=False)}
    after_views = {v.key: (v, p) for v, p in zip(after, new_log, strict=False)}
    phases = []
    keys = list(after_views) + [k for k in before_views if k not in after_views]
    for key in keys:
        a_view = before_views.get(key)
        b_view = after_views.get(key)
        if a_view is None and b_view is not None:
            phases.append(PhaseChange(b_view[0].title, "added", None, b_view[0]))
        elif b_view is None and a_view is not None:
            phases.append(PhaseChange(a_view[0].title, "removed", a_view[0], None))
        elif a_view is not None and b_view is not None and a_view[1] != b_view[1]:
            phases.append(PhaseChange(b_view[0].title, "changed", a_view[0], b_view[0]))
    return Diff(
        basis=basis,
        seats=seats,
        phases=phases,
        winner_before=_winner(old),
        winner_after=_winner(record),
        awards_changed=(old.get("awards") or []) != (record.get("awards") or []),
        log_before=isinstance(old.get("log"), list),
        log_after=isinstance(record.get("log"), list),
    )


def build_review(version: GameVersion, versions: list[GameVersion]) -> Review:
    """Everything the confirming official must see about ``version`` (``versions``: all of
    the game's versions, in number order, to find what it would replace)."""
    record = version.record if isinstance(version.record, dict) else {}
    basis = basis_for(version, versions)
    names = _names(record, basis.record if basis is not None else {})
    words = _Words(record, names)
    phases = _phases(record, words)
    reason = ""
    try:
        ending = validate(record).outcome.ending
        reason = message_text(ending) if ending is not None else ""
    except (ValueError, TypeError, KeyError):  # an unreadable draft: its violations say why
        reason = ""
    seats = [
        SeatRow(n, s["player"], names.get(s["player"], s["player"]), s["role"])
        for n, s in sorted(_seats(record).items())
    ]
    return Review(
        version=version,
        seats=seats,
        phases=phases,
        awards=_awards(record, words),
        winner=_winner(record),
        ended=phase_text(version.ended, on=True) if version.ended else "",
        reason=reason,
        has_log=isinstance(record.get("log"), list),
        diff=_diff(basis, record, names, phases) if basis is not None else None,
    )
