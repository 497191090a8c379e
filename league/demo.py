"""Demo data for the league side: what a fresh `make run` shows."""

from django.contrib.auth import get_user_model

DEMO_PASSWORD = "tianhei-demo"


def seed_league() -> list[str]:
    """Create the demo league; returns lines describing what was made."""
    user_model = get_user_model()
    admin, created = user_model.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        admin.set_password(DEMO_PASSWORD)
        admin.save()
    return [f"site admin: admin / {DEMO_PASSWORD}"]
