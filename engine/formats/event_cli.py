"""``python -m engine event``: an event of stages from ``EVENT.json`` (formats.md §4).

Like ``standings``, nothing is ranked unless every record of the event is valid (the
across-games checks over all its games, in stage order): a cut built on a bad record
would send the wrong players on. Exit 0: printed; 1: an invalid record, a player
outside a stage's entry or a bad field; 2: a file that cannot be read or is not JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.cli_report import emit
from engine.errors import EngineError
from engine.formats.stages import (
    EventOutcome,
    FormatError,
    StageGames,
    StageSpec,
    compute_event,
)
from engine.record import UnreadableFile, load_file
from engine.scoring import (
    DEFAULT_PROFILE,
    PROFILES,
    ProfileError,
    ScoringProfile,
    format_points,
    get_profile,
    profile_from_dict,
    summarize,
)
from engine.standings import METRICS, Standings
from engine.validate import validate_series

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
FORMAT = "kge/1"
_EVENT_KEYS = ("format", "seed", "profile", "precedence", "stages")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``event`` subcommand's arguments."""
    parser.add_argument("event", type=Path, metavar="EVENT.json", help="a kge/1 event file")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


@dataclass(frozen=True)
class EventFile:
    """``EVENT.json`` read: the event's options and each stage's spec and game paths."""

    seed: int
    profile: ScoringProfile
    precedence: tuple[str, ...] | None
    stages: tuple[tuple[StageSpec, tuple[str, ...]], ...]


def parse_event(data: object) -> EventFile:
    """The event document, or a :class:`FormatError` naming the field at fault."""
    if not isinstance(data, Mapping):
        raise FormatError("formats.event_type", {"value": _kind(data)})
    unknown = sorted(str(k) for k in data if k not in _EVENT_KEYS)
    if unknown:
        raise FormatError("formats.event_keys", {"keys": unknown, "allowed": list(_EVENT_KEYS)})
    if data.get("format") != FORMAT:
        raise FormatError("formats.event_format", {"value": repr(data.get("format"))})
    seed = data.get("seed", 0)
    if type(seed) is not int:
        raise FormatError("formats.seed", {"value": repr(seed)})
    precedence = data.get("precedence")
    if precedence is not None and not (
        isinstance(precedence, list) and all(isinstance(k, str) for k in precedence)
    ):
        raise FormatError("formats.precedence_type", {"value": repr(precedence)})
    stages = data.get("stages")
    if not isinstance(stages, list) or not stages:
        raise FormatError("formats.stages_type", {"value": repr(stages)})
    parsed = []
    for stage in stages:
        if not isinstance(stage, Mapping):
            raise FormatError("formats.stage_type", {"value": _kind(stage)})
        spec = StageSpec.parse({k: v for k, v in stage.items() if k != "games"})
        games = stage.get("games")
        if not isinstance(games, list) or not all(isinstance(g, str) and g for g in games):
            raise FormatError("formats.games", {"stage": spec.name, "value": repr(games)})
        parsed.append((spec, tuple(games)))
    return EventFile(
        seed=seed,
        profile=_profile(data.get("profile")),
        precedence=None if precedence is None else tuple(precedence),
        stages=tuple(parsed),
    )


def _kind(value: object) -> str:
    """A short description of a wrong top-level value (never a whole document)."""
    return type(value).__name__ if isinstance(value, list | Mapping) else repr(value)


def _profile(value: object) -> ScoringProfile:
    if value is None:
        return DEFAULT_PROFILE
    try:
        if isinstance(value, str):
            return get_profile(value)
        if isinstance(value, Mapping):
            return profile_from_dict(value)
    except ProfileError:
        pass
    raise FormatError("formats.event_profile", {"value": repr(value), "profiles": sorted(PROFILES)})


def run(args: argparse.Namespace) -> int:
    """Read, validate and compute the event; print it. Returns the exit status."""
    path: Path = args.event
    try:
        data = load_file(path)
    except UnreadableFile as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        event = parse_event(data)
    except FormatError as e:
        print(f"{path}: {e} [{e.code}]", file=sys.stderr)
        return EXIT_INVALID

    labels = [game for _spec, games in event.stages for game in games]
    values: list[Any] = []
    unreadable: list[str] = []
    for label in labels:
        try:
            values.append(load_file(path.parent / label))
        except UnreadableFile as e:
            unreadable.append(str(e))
    for problem in unreadable:
        print(f"error: {problem}", file=sys.stderr)
    if unreadable:
        return EXIT_UNREADABLE

    verdicts = validate_series(values)
    invalid = [(label, v) for label, v in zip(labels, verdicts, strict=True) if not v.valid]
    for label, verdict in invalid:
        for violation in verdict.violations:
            print(f"{label}: {violation.message} [{violation.code}]", file=sys.stderr)
    if invalid:
        print(
            f"{len(invalid)} of {len(labels)} records invalid: no event computed", file=sys.stderr
        )
        return EXIT_INVALID

    summaries = iter(
        summarize(v.record, label)
        for label, v in zip(labels, verdicts, strict=True)
        if v.record is not None  # a valid verdict always carries its record
    )
    stages = [
        StageGames(spec, tuple(next(summaries) for _ in games)) for spec, games in event.stages
    ]
    try:
        outcome = compute_event(
            stages, profile=event.profile, precedence=event.precedence, seed=event.seed
        )
    except EngineError as e:  # a player outside a stage's entry, a bad precedence
        print(f"{path}: {e} [{e.code}]", file=sys.stderr)
        return EXIT_INVALID
    return emit(outcome, args.json, as_document, as_table, outcome.warnings)


def as_document(outcome: EventOutcome) -> dict[str, Any]:
    """The ``--json`` document: the final order, then each stage's cumulative standing."""
    return {
        "standings": [
            {
                "player": row.player,
                "rank": row.rank,
                "tied": row.tied,
                "points": format_points(row.points),
                "last_stage": row.last_stage,
                "stages": {name: format_points(v) for name, v in row.stages.items()},
            }
            for row in outcome.final
        ],
        "stages": [
            {
                "name": stage.spec.name,
                "entrants": list(stage.entrants),
                "standings": [
                    {
                        "player": row.player,
                        "rank": row.rank,
                        "tied": row.tied,
                        "points": format_points(row.points),
                    }
                    for row in stage.cumulative.rows
                ],
            }
            for stage in outcome.stages
        ],
    }


def as_table(outcome: EventOutcome) -> str:
    """Each stage's cumulative standing (what placed each player), then the final order."""
    lines = [f"seed {outcome.seed}, tie-breaks: {', '.join(outcome.precedence)}", ""]
    for stage in outcome.stages:
        spec = stage.spec
        scored = sum(1 for g in stage.own.games if g.scored)
        lines.append(
            f"stage {stage.index + 1}: {spec.name} (entry {_entry_text(stage.spec)}, "
            f"× {spec.multiplier}, carry {spec.carry}, {len(stage.own.games)} games, "
            f"{scored} scored, profile {stage.own.profile}"
            f"{', hidden' if spec.hidden else ''})"
        )
        header = ("rank", "player", "stage", "total", "placed by")
        cells: list[tuple[str, ...]] = [header]
        rows = stage.cumulative.rows
        for i, row in enumerate(rows):
            cells.append(
                (
                    f"{row.rank}{'=' if row.tied else ''}",
                    row.player,
                    format_points(stage.stage_points[row.player]),
                    format_points(row.points),
                    _placed(stage.cumulative, rows[i - 1].player, row.player) if i else "",
                )
            )
        lines.extend(_aligned(cells))
        lines.append("")
    lines.append("final order")
    names = [s.spec.name for s in outcome.stages]
    cells = [("rank", "player", "total", "last stage", *names)]
    for final in outcome.final:
        per_stage = [format_points(final.stages[n]) if n in final.stages else "-" for n in names]
        cells.append(
            (
                f"{final.rank}{'=' if final.tied else ''}",
                final.player,
                format_points(final.points),
                final.last_stage,
                *per_stage,
            )
        )
    lines.extend(_aligned(cells, left=(1, 3)))
    return "\n".join(lines) + "\n"


def _entry_text(spec: StageSpec) -> str:
    entry = spec.entry.as_json()
    return entry if isinstance(entry, str) else json.dumps(entry, ensure_ascii=False)


def _placed(standing: Standings, above: str, below: str) -> str:
    why = standing.explain(above, below)
    if why.metric is None:
        return "tied"
    assert why.higher_value is not None and why.lower_value is not None
    metric = METRICS[why.metric]
    # weighted counts (carry 0.5) are not whole: show them as decimals, never truncated
    shown = [
        metric.show(v) if metric.unit == "points" or v == v.to_integral() else format_points(v)
        for v in (why.higher_value, why.lower_value)
    ]
    return f"{metric.name}: {shown[0]} vs {shown[1]}"


def _aligned(cells: list[tuple[str, ...]], left: tuple[int, ...] = (1, 4)) -> list[str]:
    widths = [max(len(c[k]) for c in cells) for k in range(len(cells[0]))]
    return [
        "  ".join(
            c[k].ljust(widths[k]) if k in left else c[k].rjust(widths[k]) for k in range(len(c))
        ).rstrip()
        for c in cells
    ]
