"""Games in the admin: read-only. Records, versions, sheets and statuses change only
through ``games.services`` (locks, revisions, audit, the results pipeline)."""

from django.contrib import admin

from games.models import Game, GameSheet, GameStatusChange, GameVersion, Protest
from league.admin import ReadOnlyAdmin


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "status", "revision", "updated_at"]
    list_filter = ["status"]
    list_select_related = ["table__round__event", "club", "voided_event"]


@admin.register(GameVersion)
class GameVersionAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "status", "source", "valid", "submitted_at"]
    list_filter = ["status", "source"]


admin.site.register([GameStatusChange, GameSheet], ReadOnlyAdmin)


@admin.register(Protest)
class ProtestAdmin(ReadOnlyAdmin):
    """Read-only: protests are filed and ruled through ``games.protests`` (audited)."""

    list_display = ["game", "phase", "status", "player", "created_at", "ruled_at"]
    list_filter = ["status"]
    list_select_related = ["game__table__round__event", "game__club", "player"]
