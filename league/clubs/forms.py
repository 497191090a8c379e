"""Club page forms: they parse and validate; the services write."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from league.clubs.models import CircuitProfile, Invitation, League, Player
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
    circuit = forms.ModelChoiceField(
        label=_("Circuit profile"),
        queryset=CircuitProfile.objects.none(),
        required=False,
        empty_label=_("none (the plain sum of the events' points)"),
        help_text=_(
            "Rank the season by place points with this version of one of the league's "
            "circuit profiles."
        ),
    )

    def __init__(self, *args: Any, league: League | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        circuit = self.fields["circuit"]
        assert isinstance(circuit, forms.ModelChoiceField)
        if league is not None:  # the versions of the league's own profiles
            circuit.queryset = CircuitProfile.objects.filter(league=league).order_by(
                "slug", "-version"
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            raise forms.ValidationError(_("A season cannot end before it starts."))
        return data


_SPLIT = re.compile(r"[,;\s]+")


class CircuitForm(forms.Form):
    """A circuit profile (formats.md §3) as an organiser writes it; the engine checks it
    (:func:`league.clubs.circuits.checked_profile`). Decimals are written with a point."""

    slug = forms.SlugField(
        label=_("Name"),
        max_length=60,
        help_text=_("Letters, digits and hyphens; its versions are NAME-v1, NAME-v2, …"),
    )
    places = forms.CharField(
        label=_("Points by place"),
        max_length=10_000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Points for 1st, 2nd, 3rd, … separated by commas or lines (e.g. 100, 80, 65)."),
    )
    categories = forms.CharField(
        label=_("Categories"),
        max_length=5_000,
        widget=forms.Textarea(attrs={"rows": 3}),
        initial="club=1",
        help_text=_("One per line: name=weight (e.g. club=1, open=1.5, major=2)."),
    )
    field_reference = forms.IntegerField(
        label=_("Field reference (players)"),
        min_value=1,
        max_value=100_000,
        initial=1,
        help_text=_("The field factor is players ÷ reference, kept between min and max."),
    )
    field_min = forms.DecimalField(
        label=_("Field factor min"),
        min_value=0,
        max_digits=12,
        decimal_places=6,
        initial=1,
        localize=True,
    )
    field_max = forms.DecimalField(
        label=_("Field factor max"),
        min_value=0,
        max_digits=12,
        decimal_places=6,
        initial=1,
        localize=True,
    )
    best = forms.IntegerField(
        label=_("Best events counted"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_("Only each player's best B events count; empty: all of them."),
    )
    min_events = forms.IntegerField(
        label=_("Events needed to be ranked"), min_value=0, max_value=1000, initial=1
    )

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if editing:  # a new version keeps the name
            del self.fields["slug"]

    def clean_places(self) -> list[str]:
        raw = self.cleaned_data.get("places") or ""
        return [p for p in _SPLIT.split(raw) if p]

    def clean_categories(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for line in (self.cleaned_data.get("categories") or "").splitlines():
            if not line.strip():
                continue
            name, sep, weight = line.partition("=")
            if not sep or not name.strip() or not weight.strip():
                raise forms.ValidationError(
                    _("Write each category as name=weight, not “%(line)s”.")
                    % {"line": line.strip()[:60]}
                )
            out[name.strip()] = weight.strip()
        return out

    def profile_data(self) -> dict[str, Any]:
        """The profile in the engine's JSON form (decimals as text)."""
        d = self.cleaned_data
        return {
            "places": d["places"],
            "categories": d["categories"],
            "field": {
                "reference": d["field_reference"],
                "min": str(d["field_min"]),
                "max": str(d["field_max"]),
            },
            "best": d.get("best"),
            "min_events": d["min_events"],
        }

    @staticmethod
    def initial_for(circuit: CircuitProfile) -> dict[str, Any]:
        data = circuit.data
        field = data.get("field", {})
        return {
            "slug": circuit.slug,
            "places": ", ".join(data.get("places", [])),
            "categories": "\n".join(f"{k}={v}" for k, v in data.get("categories", {}).items()),
            "field_reference": field.get("reference", 1),
            "field_min": Decimal(str(field.get("min", "1"))),  # shown in the reader's notation
            "field_max": Decimal(str(field.get("max", "1"))),
            "best": data.get("best"),
            "min_events": data.get("min_events", 1),
        }


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
