"""Stored violations keep their params: ``[{code, where, params, message}]``.

Before, a version stored each violation as ``{code, where, message}`` with the English
sentence only, and pages translated it by reading the sentence back. Now pages and the
API render ``code`` and ``params`` in the reader's language, so every stored violation
needs its params:

- the engine's violations: the version's record is judged again with the engine
  (``engine.validate.validate``, pure and stable); a stored violation takes the params of
  the fresh one with the same code, place and English sentence (each fresh one used
  once). The stored sentence is kept as it was;
- the platform's own (``platform.*``): their sentences are this project's, in four fixed
  shapes; the value between the fixed words is the param, and the sentence is rebuilt
  from it to check nothing was lost;
- anything else (a record the engine now judges differently, a record that no longer
  reads): ``params`` is null and the stored sentence is shown as it was stored.

Nothing is removed: the sentence stays in ``message``. Reversing drops ``params``.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

BATCH = 500

# The platform's sentences as games.records stored them: (code, before, after, param).
_PLATFORM = (
    ("platform.ruleset", "setup: the record's ruleset is not this game's (", ")", "ruleset"),
    ("platform.seating", "setup: seats ", " do not match the table's seating", "seats"),
    ("platform.unknown_player", "setup: unknown players ", "", "names"),
    ("platform.too_many", "record: and ", " more problems not listed", "count"),
)


def _seat(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() and str(int(text)) == text else text


def _platform_params(code: str, message: str) -> dict[str, Any] | None:
    for known, before, after, name in _PLATFORM:
        if code != known or not message.startswith(before) or not message.endswith(after):
            continue
        value = message[len(before) : len(message) - len(after)]
        if not value:
            return None
        param: Any
        if name == "seats":
            param = [_seat(s) for s in value.split(", ")]
            back = ", ".join(str(s) for s in param)
        elif name == "names":
            param = value.split(", ")
            back = ", ".join(param)
        elif name == "count":
            if not value.isdigit():
                return None
            param = int(value)
            back = str(param)
        else:
            param = back = value
        if before + back + after != message:
            return None
        return {name: param}
    return None


def _fresh(record: Any) -> list[dict[str, Any]]:
    from engine.validate import validate

    try:
        return [v.as_dict() for v in validate(record).violations]
    except Exception:  # a record the engine cannot judge: no params recovered
        return []


def with_params(record: Any, stored: list[Any]) -> list[Any]:
    """The stored violations, each with ``params`` (None where they cannot be recovered)."""
    if all(isinstance(v, dict) and "params" in v for v in stored):
        return stored
    fresh: list[dict[str, Any]] | None = None
    out = []
    for v in stored:
        if not isinstance(v, dict) or "params" in v:
            out.append(v)
            continue
        code, message = str(v.get("code", "")), str(v.get("message", ""))
        params: dict[str, Any] | None
        if code.startswith("platform."):
            params = _platform_params(code, message)
        else:
            if fresh is None:
                fresh = _fresh(record)
            params = None
            for i, f in enumerate(fresh):
                if (f["code"], f["where"], f["message"]) == (code, v.get("where"), message):
                    params = f["params"]
                    del fresh[i]
                    break
        out.append({**v, "params": params})
    return out


def forwards(apps: Any, schema_editor: Any) -> None:
    GameVersion = apps.get_model("games", "GameVersion")
    changed = []
    for version in GameVersion.objects.only("pk", "record", "violations").iterator(
        chunk_size=BATCH
    ):
        stored = version.violations if isinstance(version.violations, list) else []
        if not stored:
            continue
        new = with_params(version.record, stored)
        if new is not stored:
            version.violations = new
            changed.append(version)
        if len(changed) >= BATCH:
            GameVersion.objects.bulk_update(changed, ["violations"])
            changed = []
    if changed:
        GameVersion.objects.bulk_update(changed, ["violations"])


def backwards(apps: Any, schema_editor: Any) -> None:
    GameVersion = apps.get_model("games", "GameVersion")
    changed = []
    for version in GameVersion.objects.only("pk", "violations").iterator(chunk_size=BATCH):
        stored = version.violations if isinstance(version.violations, list) else []
        if any(isinstance(v, dict) and "params" in v for v in stored):
            version.violations = [
                {k: x for k, x in v.items() if k != "params"} if isinstance(v, dict) else v
                for v in stored
            ]
            changed.append(version)
        if len(changed) >= BATCH:
            GameVersion.objects.bulk_update(changed, ["violations"])
            changed = []
    if changed:
        GameVersion.objects.bulk_update(changed, ["violations"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_protect_recorded_people")]

    operations = [migrations.RunPython(forwards, backwards)]
