"""Admin for the league: where site admins name club organisers and referees.

What an event has recorded — rounds, tables, seats, draw jobs, the audit log — is
read-only here (standings and ratings: ``results.admin``): it changes only through the
services, with their locks and audit (docs/organisers.md, "Lifecycle").
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from league.models import (
    AuditEntry,
    Club,
    ClubOrganiser,
    DrawJob,
    Event,
    League,
    Membership,
    Player,
    PlayerConflict,
    Referee,
    RefereeConflict,
    Round,
    Season,
    Seat,
    Table,
)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Look, never touch: no add, change or delete (the services own these rows)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class OrganiserInline(admin.TabularInline):  # type: ignore[type-arg]
    model = ClubOrganiser
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "slug", "city"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [OrganiserInline]


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Membership
    extra = 0


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["display_name", "handle", "user"]
    search_fields = ["display_name", "handle"]
    raw_id_fields = ["user"]
    inlines = [MembershipInline]


@admin.register(Referee)
class RefereeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["__str__", "club", "grade"]
    raw_id_fields = ["user"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """Read here; change events on the organiser pages (they go through the services)."""

    list_display = ["name", "club", "starts_on", "status"]
    list_filter = ["status", "club"]
    search_fields = ["name", "slug"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "actor", "action", "target_type", "target_id", "event"]
    list_filter = ["action"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["event", "number", "status", "starts_at", "released_at"]
    list_filter = ["status"]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["round", "number", "referee", "referee_pinned"]
    list_select_related = ["round__event", "referee__user"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "player", "pinned"]
    list_select_related = ["table__round__event", "player"]


admin.site.register(DrawJob, ReadOnlyAdmin)


admin.site.register([League, Season, PlayerConflict, RefereeConflict])
