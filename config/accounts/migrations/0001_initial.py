"""Pending sign-ups, and one account per e-mail address regardless of case.

The unique index is on ``auth_user`` (Django's own user table: no custom user model):
``LOWER(email)`` where the address is not empty, in the SQL that SQLite and PostgreSQL
share. If two accounts already share an address the migration stops and names them:
change one in the admin, then migrate again.
"""

from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion

INDEX = "accounts_user_email_ci_uniq"


def refuse_duplicates(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    seen = {}
    clashes = []
    for pk, email in User.objects.exclude(email="").values_list("pk", "email"):
        key = email.lower()
        if key in seen:
            clashes.append(f"{email} (users {seen[key]} and {pk})")
        else:
            seen[key] = pk
    if clashes:
        raise RuntimeError(
            "Accounts share an e-mail address (ignoring case): "
            + "; ".join(clashes[:20])
            + ". Give each a different address in the admin, then migrate again."
        )


class Migration(migrations.Migration):
    initial = True

    # After auth's last migration: on SQLite, a later AlterField on auth_user rebuilds the
    # table from Django's model state and would drop an index it does not know about
    # (tests/accounts/test_signup.py checks the index is there after all migrations).
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.CreateModel(
            name="PendingSignup",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="pending_signup",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("created", models.DateTimeField(auto_now_add=True)),
            ],
            options={"verbose_name": "pending sign-up"},
        ),
        migrations.RunPython(refuse_duplicates, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(email)) WHERE email <> ''",
            f"DROP INDEX IF EXISTS {INDEX}",
        ),
    ]
