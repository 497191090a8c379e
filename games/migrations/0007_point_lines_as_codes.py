"""Standings' point lines and warnings keep codes and params.

An event's standings (``league.EventStanding.items``) stored each point line as
``{game, kind, points, reason}`` with the engine's English reason; now a line is
``{game, kind, points, code, params}`` and pages and the API render the reason in the
reader's language. ``EventResults.warnings`` becomes ``[{code, params}]`` the same way.

How the params are found (recomputed with the engine, not by reading the sentence): for
each event, the games its lines name are scored again from their confirmed records with
the event's profile (``engine.standings.compute_standings``, Ci included); a stored line
takes the code and params of the fresh line of the same player, game, kind and points
whose English reason is the stored one (each fresh line used once). A line without such
a twin — its game was corrected or voided since, the profile changed — keeps its English
``reason`` with ``params`` null and is shown as stored; the next recomputation of the
event (any change to it, or ``manage.py rebuild_results``) rewrites every line anyway.
Nothing is removed. Reversing renders the English reasons back.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import migrations

_SKIPPED = ("game ", ": record skipped")  # games.results' own warning
_IN_PROGRESS = ": in-progress record skipped (no result to score)"  # the engine's


def _fresh_lines(records: dict[int, Any], profile_key: str, precedence: Any, seed: int) -> Any:
    """Player handle → the event's point lines as the engine computes them now."""
    from engine.errors import EngineError
    from engine.record import parse_record
    from engine.scoring import get_profile, score_game, summarize
    from engine.standings import compute_standings

    lines: dict[str, list[Any]] = defaultdict(list)
    try:
        profile = get_profile(profile_key or "club-v1")
    except (EngineError, ValueError):
        return lines
    summaries = []
    for game_id, record in sorted(records.items()):
        try:
            summaries.append(summarize(parse_record(record), str(game_id)))
        except (EngineError, ValueError, TypeError, KeyError):
            continue
    try:
        standings = compute_standings(summaries, profile, precedence or None, seed=seed)
        for row in standings.rows:
            lines[row.player].extend(row.items)
    except (EngineError, ValueError):  # an old precedence: the game lines without Ci
        for summary in summaries:
            for player in score_game(summary, profile).players:
                lines[player.player].extend(player.items)
    return lines


def _with_code(item: Any, fresh: list[Any]) -> Any:
    from engine.scoring import format_points

    if not isinstance(item, dict) or "params" in item:
        return item
    for i, line in enumerate(fresh):
        same = (str(line.game), line.kind, format_points(line.points), line.reason) == (
            str(item.get("game")),
            item.get("kind"),
            item.get("points"),
            item.get("reason"),
        )
        if same:
            del fresh[i]
            return {
                "game": item.get("game"),
                "kind": item.get("kind"),
                "points": item.get("points"),
                "code": line.code,
                "params": dict(line.params),
            }
    return {**item, "code": None, "params": None}


def _warning(text: Any) -> Any:
    if isinstance(text, dict):
        return text
    text = str(text)
    before, after = _SKIPPED
    middle = text[len(before) : len(text) - len(after)]
    if text.startswith(before) and text.endswith(after) and middle.isdigit():
        return {"code": "results.record_skipped", "params": {"game": int(middle)}}
    if text.endswith(_IN_PROGRESS) and text != _IN_PROGRESS:
        return {"code": "scoring.in_progress", "params": {"game": text[: -len(_IN_PROGRESS)]}}
    return {"code": None, "params": None, "message": text}


def forwards(apps: Any, schema_editor: Any) -> None:
    Event = apps.get_model("league", "Event")
    EventResults = apps.get_model("league", "EventResults")
    EventStanding = apps.get_model("league", "EventStanding")
    GameVersion = apps.get_model("games", "GameVersion")
    for state in EventResults.objects.all():
        if state.warnings and not all(isinstance(w, dict) for w in state.warnings):
            state.warnings = [_warning(w) for w in state.warnings]
            state.save(update_fields=["warnings"])
    events = EventStanding.objects.values_list("event_id", flat=True).distinct()
    for event_id in list(events):
        rows = list(EventStanding.objects.filter(event_id=event_id).only("pk", "handle", "items"))
        if all(isinstance(i, dict) and "params" in i for r in rows for i in r.items or []):
            continue
        game_ids = {
            int(i["game"])
            for r in rows
            for i in r.items or []
            if isinstance(i, dict) and str(i.get("game", "")).isdigit()
        }
        records = dict(
            GameVersion.objects.filter(game_id__in=game_ids, status="confirmed").values_list(
                "game_id", "record"
            )
        )
        event = Event.objects.get(pk=event_id)
        state = EventResults.objects.filter(event_id=event_id).first()
        fresh = _fresh_lines(
            records,
            event.scoring_profile,
            event.tiebreak_precedence,
            state.seed if state is not None else event_id,
        )
        for row in rows:
            mine = fresh.get(row.handle, [])
            row.items = [_with_code(i, mine) for i in row.items or []]
        EventStanding.objects.bulk_update(rows, ["items"], batch_size=500)


def _reason(item: Any) -> Any:
    from engine.messages import render

    if not isinstance(item, dict) or "params" not in item:
        return item
    out = {k: v for k, v in item.items() if k not in ("code", "params")}
    if item.get("params") is not None and item.get("code"):
        try:
            out["reason"] = render(item["code"], item["params"])
        except (KeyError, ValueError):
            out.setdefault("reason", item["code"])
    return out


def _warning_text(w: Any) -> Any:
    from engine.messages import render

    if not isinstance(w, dict):
        return w
    code, params = w.get("code"), w.get("params")
    if code == "results.record_skipped" and isinstance(params, dict):
        return f"game {params.get('game')}: record skipped"
    if code and isinstance(params, dict):
        try:
            return render(code, params)
        except (KeyError, ValueError):
            return code
    return str(w.get("message", ""))


def backwards(apps: Any, schema_editor: Any) -> None:
    EventResults = apps.get_model("league", "EventResults")
    EventStanding = apps.get_model("league", "EventStanding")
    for state in EventResults.objects.all():
        if any(isinstance(w, dict) for w in state.warnings or []):
            state.warnings = [_warning_text(w) for w in state.warnings]
            state.save(update_fields=["warnings"])
    changed = []
    for row in EventStanding.objects.only("pk", "items").iterator(chunk_size=500):
        if any(isinstance(i, dict) and "params" in i for i in row.items or []):
            row.items = [_reason(i) for i in row.items]
            changed.append(row)
    EventStanding.objects.bulk_update(changed, ["items"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_violations_keep_params"),
        ("league", "0011_protect_recorded_people"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
