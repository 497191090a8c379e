"""A released game's record told night by night, in the reader's language (the game's
results page and the API): each phase's sentences (``lines``) and, for the page, who
voted for whom ballot by ballot, last words with their suspects, and the awards with
their reasons (:func:`account`, :func:`awards`)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from results.selectors import ROLE_LABELS


def _who(seat: Any, seats: dict[int, dict[str, Any]]) -> str:
    info = seats.get(seat)
    if info is None:
        return _("seat %(n)s") % {"n": seat}
    return _("seat %(n)s %(name)s (%(role)s)") % {
        "n": seat,
        "name": info["name"],
        "role": ROLE_LABELS.get(info["role"], info["role"]),
    }


def account(record: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """The record's log as readable phases: ``[{"title", "lines": [...]}, ...]``."""
    seats = {
        s["seat"]: {"name": names.get(s["player"], s["player"]), "role": s["role"]}
        for s in record.get("seats", [])
    }
    phases = []
    for p in record.get("log") or []:
        lines: list[str] = []
        shown_apart: list[str] = []  # last words and votes: the page shows them as tables
        votes_end = 0  # the day's outcome (lot, who is out) follows its ballots
        n = p.get("n")
        if p.get("phase") == "night":
            title = _("Night %(n)s") % {"n": n}
            kill = p.get("kill")
            lines.append(
                _("The killers killed %(who)s.") % {"who": _who(kill, seats)}
                if kill
                else _("The killers killed nobody.")
            )
            check = p.get("check")
            if check:
                verdict = (
                    _("a killer") if seats.get(check, {}).get("role") == "killer" else _("good")
                )
                lines.append(
                    _("The police checked %(who)s: %(verdict)s.")
                    % {"who": _who(check, seats), "verdict": verdict}
                )
        else:
            title = _("Day %(n)s") % {"n": n}
            for words in p.get("last_words") or []:
                named = ", ".join(_who(s, seats) for s in words.get("suspects", []))
                lines.append(
                    _("Last words of %(who)s: suspects %(named)s.")
                    % {"who": _who(words.get("seat"), seats), "named": named or _("nobody")}
                )
                shown_apart.append(lines[-1])
            for seat in p.get("eject") or []:
                lines.append(_("The referee ejected %(who)s.") % {"who": _who(seat, seats)})
            if p.get("surrender"):
                lines.append(_("%(who)s surrendered.") % {"who": _who(p["surrender"], seats)})
            for i, ballot in enumerate(p.get("ballots") or [], start=1):
                tally: dict[Any, int] = defaultdict(int)
                for _voter, target in ballot.items():
                    tally[target] += 1
                parts = [
                    _("%(who)s: %(n)s") % {"who": _who(t, seats), "n": c}
                    for t, c in sorted(tally.items(), key=lambda kv: -kv[1])
                    if t is not None
                ]
                if tally.get(None):
                    parts.append(_("abstained: %(n)s") % {"n": tally[None]})
                lines.append(_("Vote %(i)s — %(parts)s.") % {"i": i, "parts": "; ".join(parts)})
                shown_apart.append(lines[-1])
            votes_end = len(lines)
            if "lot" in p and p.get("lot"):
                lines.append(_("Drawn by lot: %(who)s.") % {"who": _who(p["lot"], seats)})
            if "eliminated" in p:
                out = p.get("eliminated")
                lines.append(
                    _("%(who)s was voted out.") % {"who": _who(out, seats)}
                    if out
                    else _("Nobody was voted out.")
                )
        phases.append(
            {
                "title": title,
                "lines": lines,
                "story": [line for line in lines[:votes_end] if line not in shown_apart]
                if p.get("phase") == "day"
                else lines,
                "outcome": lines[votes_end:] if p.get("phase") == "day" else [],
                "kind": p.get("phase"),
                "n": n,
                "ballots": _ballots(p, seats),
                "last_words": _last_words(p, seats),
                "ejected": [_seat(s, seats) for s in p.get("eject") or []],
            }
        )
    return phases


def _seat(seat: Any, seats: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A seat as the page shows it: number, name and role."""
    info = seats.get(seat, {})
    role = info.get("role", "")
    return {
        "seat": seat,
        "name": info.get("name", ""),
        "role": role,
        "role_label": ROLE_LABELS.get(role, role),
    }


def _ballots(phase: dict[str, Any], seats: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each ballot of a day: every vote (voter → target, ``None`` an abstention) in seat
    order, and the tally, most votes first."""
    out = []
    for i, ballot in enumerate(phase.get("ballots") or [], start=1):
        if not isinstance(ballot, dict):
            continue
        votes = []
        tally: dict[Any, int] = defaultdict(int)
        for voter, target in sorted(ballot.items(), key=lambda kv: int(kv[0])):
            votes.append(
                {
                    "voter": _seat(int(voter), seats),
                    "target": _seat(target, seats) if target is not None else None,
                }
            )
            if target is not None:
                tally[target] += 1
        counts = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(
            {
                "number": i,
                "votes": votes,
                "tally": [{**_seat(t, seats), "votes": c} for t, c in counts],
                "abstained": sum(1 for v in ballot.values() if v is None),
            }
        )
    return out


def _last_words(phase: dict[str, Any], seats: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            **_seat(words.get("seat"), seats),
            "suspects": [_seat(s, seats) for s in words.get("suspects") or []],
        }
        for words in phase.get("last_words") or []
        if isinstance(words, dict)
    ]


def awards(record: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """The referee's bonuses, penalties and warnings, each with its seat, player, points
    and reason, in the record's order."""
    seats = {
        s["seat"]: {"name": names.get(s["player"], s["player"]), "role": s["role"]}
        for s in record.get("seats", [])
    }
    return [
        {
            **_seat(a.get("seat"), seats),
            "kind": a.get("kind", ""),
            "points": a.get("points"),
            "reason": a.get("reason", ""),
        }
        for a in record.get("awards") or []
        if isinstance(a, dict)
    ]


WINNER_TEXT = {
    "good": gettext_noop("The good side (police and civilians) won."),
    "killers": gettext_noop("The killers won."),
    "draw": gettext_noop("The game was drawn."),
}
