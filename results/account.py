"""A released game's record told night by night, in the reader's language (the game's
results page and the API)."""

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
            if "lot" in p and p.get("lot"):
                lines.append(_("Drawn by lot: %(who)s.") % {"who": _who(p["lot"], seats)})
            if "eliminated" in p:
                out = p.get("eliminated")
                lines.append(
                    _("%(who)s was voted out.") % {"who": _who(out, seats)}
                    if out
                    else _("Nobody was voted out.")
                )
        phases.append({"title": title, "lines": lines})
    return phases


WINNER_TEXT = {
    "good": gettext_noop("The good side (police and civilians) won."),
    "killers": gettext_noop("The killers won."),
    "draw": gettext_noop("The game was drawn."),
}
