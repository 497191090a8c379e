"""The draw job's text ``error`` gives way to its note (0012 copied it there)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0012_draw_job_notes_as_codes"),
    ]

    operations = [
        migrations.RemoveField(model_name="drawjob", name="error"),
        migrations.RenameField(model_name="drawjob", old_name="error_note", new_name="error"),
    ]
