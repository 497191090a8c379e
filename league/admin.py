"""Admin for the league: where site admins name club organisers and referees.

What an event has recorded — rounds, tables, seats, draw jobs, the audit log — is
read-only here (standings and ratings: ``results.admin``): it changes only through the
services, with their locks and audit (docs/organisers.md, "Lifecycle").
"""

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from league.clubs.timezones import timezone_choices, validate_timezone
from league.models import (
    AuditEntry,
    Club,
    ClubOrganiser,
    DrawJob,
    Event,
    Invitation,
    League,
    Membership,
    Player,
    PlayerClaim,
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


class ClubAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """The time zone from the list Python knows (the model's validator checks it too)."""

    timezone = forms.ChoiceField(
        label=_("time zone"), choices=timezone_choices, validators=[validate_timezone]
    )

    class Meta:
        model = Club
        fields = ["name", "slug", "city", "description", "timezone"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = ClubAdminForm
    list_display = ["name", "slug", "city", "timezone"]
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


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    """Invitations are created, accepted and revoked on the site (audited there)."""

    list_display = ["club", "role", "player", "email", "created_at", "expires_at", "accepted_at"]
    list_filter = ["role"]
    exclude = ["token_hash"]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(ReadOnlyAdmin):
    list_display = ["player", "user", "club", "status", "created_at", "decided_at"]
    list_filter = ["status"]
