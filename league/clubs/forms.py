"""Club page forms: they parse and validate; the services write."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from league.clubs.models import Invitation, Player
from league.clubs.timezones import timezone_choices, validate_timezone
from league.widgets import DateInput


class AuditFilterForm(forms.Form):
    """The audit log's filters; every field optional, bad values simply ignored."""

    event = forms.TypedChoiceField(label=_("Event"), required=False, coerce=int, empty_value=None)
    action = forms.ChoiceField(label=_("Action"), required=False)
    actor = forms.CharField(label=_("Who (login name)"), required=False, max_length=150)
    since = forms.DateField(label=_("Since"), required=False, widget=DateInput)

    def __init__(self, *args: Any, events: Any = (), actions: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        event_field = self.fields["event"]
        action_field = self.fields["action"]
        assert isinstance(event_field, forms.ChoiceField)
        assert isinstance(action_field, forms.ChoiceField)
        event_field.choices = [("", _("all events")), *((e.pk, e.name) for e in events)]
        action_field.choices = [("", _("all actions")), *((a, a) for a in actions)]


class ClubForm(forms.Form):
    """A club's settings; the time zone is one of the names Python knows."""

    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        required=False,
        help_text=_("Part of the public address; made from the name when empty."),
    )
    city = forms.CharField(label=_("City"), max_length=120, required=False)
    description = forms.CharField(
        label=_("Description"), max_length=2000, required=False, widget=forms.Textarea
    )
    timezone = forms.ChoiceField(
        label=_("Time zone"),
        choices=timezone_choices,
        initial="UTC",
        validators=[validate_timezone],
        help_text=_("Event times are shown in it."),
    )


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Invite as"), choices=Invitation.Role.choices)
    player = forms.CharField(
        label=_("Player (handle)"),
        max_length=61,
        required=False,
        help_text=_("Only to link a player of the club to the invited account."),
    )
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        required=False,
        help_text=_("Optional: we send the link there. You can always copy it."),
    )

    def clean_player(self) -> Player | None:
        handle = (self.cleaned_data.get("player") or "").strip().lstrip("@").lower()
        if not handle:
            return None
        player = Player.objects.filter(handle=handle).first()
        if player is None:
            raise forms.ValidationError(_("No player @%(handle)s.") % {"handle": handle})
        return player


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        required=False,
        help_text=_("Part of the public address; made from the name when empty."),
    )


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    starts_on = forms.DateField(label=_("Starts on"), widget=DateInput)
    ends_on = forms.DateField(label=_("Ends on"), widget=DateInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            raise forms.ValidationError(_("A season cannot end before it starts."))
        return data


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=120)
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("follow the browser")), *settings.LANGUAGES],
    )


class NotificationsForm(forms.Form):
    """Which e-mails the user wants (any signed-in user, linked to a player or not)."""

    notify_round_released = forms.BooleanField(
        label=_("My table and seat when a round is released"), required=False
    )
    notify_game_results = forms.BooleanField(
        label=_("When a game I played is confirmed or corrected"), required=False
    )
    notify_waitlist = forms.BooleanField(label=_("When I come off a waiting list"), required=False)


class ClaimForm(forms.Form):
    handle = forms.CharField(label=_("Player (handle)"), max_length=61)

    def clean_handle(self) -> Player:
        handle = self.cleaned_data["handle"].strip().lstrip("@").lower()
        player = Player.objects.filter(handle=handle).first()
        if player is None:
            raise forms.ValidationError(_("No player @%(handle)s.") % {"handle": handle})
        return player
