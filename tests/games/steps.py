"""Turn a KGR/1 record into the live sheet's steps (to play simulated games through it)."""

from __future__ import annotations

from typing import Any

from engine.record import Ballot, Day, LastWordsEntry, Night, parse_record
from engine.state import Eject, Eliminate, Lot, Surrender, day_events


def record_to_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    rec = parse_record(record)
    steps: list[dict[str, Any]] = [
        {"type": "deal", "roles": {str(s.seat): s.role.value for s in rec.seats}}
    ]
    for phase in rec.log or ():
        if isinstance(phase, Night):
            steps.append({"type": "night", "kill": phase.kill, "check": phase.check})
            continue
        assert isinstance(phase, Day)
        for e in day_events(phase):
            if isinstance(e, Eject):
                steps.append({"type": "eject", "seat": e.seat})
            elif isinstance(e, Surrender):
                steps.append({"type": "surrender", "seat": e.seat})
            elif isinstance(e, Ballot):
                steps.append({"type": "ballot", "votes": {str(v): t for v, t in e.votes}})
            elif isinstance(e, Lot):
                steps.append({"type": "lot", "seat": e.seat})
            elif isinstance(e, Eliminate):
                steps.append({"type": "eliminate", "seat": e.seat})
            elif isinstance(e, LastWordsEntry):
                steps.append({"type": "last_words", "seat": e.seat, "suspects": list(e.suspects)})
    for a in rec.awards or ():
        step: dict[str, Any] = {"type": "award", "seat": a.seat, "kind": a.kind.value}
        if a.points is not None:
            step["points"] = a.points
        if a.reason is not None:
            step["reason"] = a.reason
        steps.append(step)
    return steps
