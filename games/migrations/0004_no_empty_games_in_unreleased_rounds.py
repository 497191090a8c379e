"""Games exist only for released rounds now: drop the empty games (no version, no sheet
step) that earlier code created for draft or confirmed rounds, so a redraw may replace
their tables. Games with recorded play are left alone (a redraw keeps their tables)."""

from django.db import migrations
from django.db.models import Exists, OuterRef


def drop_empty_unreleased_games(apps, schema_editor):  # type: ignore[no-untyped-def]
    Game = apps.get_model("games", "Game")
    GameVersion = apps.get_model("games", "GameVersion")
    GameSheet = apps.get_model("games", "GameSheet")
    empty = (
        Game.objects.filter(table__isnull=False)
        .exclude(table__round__status="released")
        .exclude(Exists(GameVersion.objects.filter(game=OuterRef("pk"))))
        .exclude(Exists(GameSheet.objects.filter(game=OuterRef("pk"), revision__gt=0)))
    )
    empty.delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0003_pins_and_voids")]

    operations = [migrations.RunPython(drop_empty_unreleased_games, migrations.RunPython.noop)]
