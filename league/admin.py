"""Admin for the league: where site admins name club organisers and referees."""

from django.contrib import admin

from league.models import (
    AuditEntry,
    Club,
    ClubOrganiser,
    Event,
    League,
    Membership,
    Player,
    PlayerConflict,
    Referee,
    RefereeConflict,
    Season,
)


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
class EventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read here; change events on the organiser pages (they go through the services)."""

    list_display = ["name", "club", "starts_on", "status"]
    list_filter = ["status", "club"]
    search_fields = ["name", "slug"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["at", "actor", "action", "target_type", "target_id", "event"]
    list_filter = ["action"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


admin.site.register([League, Season, PlayerConflict, RefereeConflict])
