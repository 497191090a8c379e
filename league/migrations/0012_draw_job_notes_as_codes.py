"""A draw job's warnings and error become codes with params (issue #16).

Rows written before keep their text as a ``legacy`` note, ``{"code": "legacy", "params":
{"text": …}}``, shown as it was stored (in the language it was written in): the old text
is not parsed back into a code (docs/organisers.md, "Draw messages").
"""

from django.db import migrations, models

LEGACY = "legacy"


def _legacy(text):
    return {"code": LEGACY, "params": {"text": text}}


def _as_note(value):
    if isinstance(value, dict) and isinstance(value.get("code"), str):
        return value
    return _legacy(str(value))


def forwards(apps, schema_editor):
    DrawJob = apps.get_model("league", "DrawJob")
    for job in DrawJob.objects.only("pk", "error", "warnings").iterator():
        warnings = [_as_note(w) for w in job.warnings or []]
        note = _legacy(job.error) if job.error else None
        DrawJob.objects.filter(pk=job.pk).update(warnings=warnings, error_note=note)


def _as_text(value):
    if not isinstance(value, dict):
        return str(value)
    params = value.get("params") or {}
    if value.get("code") == LEGACY:
        return str(params.get("text", ""))
    return str(value.get("code", ""))  # a code, when migrating back to text


def backwards(apps, schema_editor):
    DrawJob = apps.get_model("league", "DrawJob")
    for job in DrawJob.objects.only("pk", "error_note", "warnings").iterator():
        warnings = [_as_text(w) for w in job.warnings or []]
        error = _as_text(job.error_note) if job.error_note else ""
        DrawJob.objects.filter(pk=job.pk).update(warnings=warnings, error=error)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0011_protect_recorded_people"),
    ]

    operations = [
        migrations.AddField(
            model_name="drawjob",
            name="error_note",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.RunPython(forwards, backwards),
    ]
