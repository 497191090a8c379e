"""Event page forms: they parse and validate input; services do the writing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from engine.scoring import PROFILES
from engine.standings import DEFAULT_PRECEDENCE, METRICS
from league.clubs.models import Club, Referee, Season
from league.events.models import Event
from league.events.services import RELIEF_PERCENT
from league.i18n import metric_label, ruleset_choices
from league.widgets import DATETIME_FORMATS, DateInput, DateTimeInput


def _precedence_help() -> str:
    known = pgettext("list separator", ", ").join(f"{k} ({metric_label(k)})" for k in METRICS)
    return str(_("Metric keys separated by commas, lots last. Known: %(keys)s")) % {"keys": known}


def _extra_meeting_help() -> str:

    return str(
        _(
            "When keeping every pair to the fewest possible meetings would leave over "
            "%(percent)s %% more repeat meetings in all, let a few pairs meet once more."
        )
    ) % {"percent": RELIEF_PERCENT}


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=80,
        required=False,
        help_text=_("Part of the public address; made from the name when empty."),
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    starts_on = forms.DateField(label=_("Starts on"), widget=DateInput)
    ends_on = forms.DateField(label=_("Ends on"), widget=DateInput)
    registration_opens = forms.DateTimeField(
        label=_("Registration opens"),
        required=False,
        widget=DateTimeInput,
        input_formats=DATETIME_FORMATS,
    )
    registration_closes = forms.DateTimeField(
        label=_("Registration closes"),
        required=False,
        widget=DateTimeInput,
        input_formats=DATETIME_FORMATS,
    )
    capacity = forms.IntegerField(
        label=_("Places"),
        min_value=1,
        max_value=100_000,
        required=False,
        help_text=_("Empty: no limit. Players who register once it is full join the waiting list."),
    )
    check_in_opens_minutes = forms.IntegerField(
        label=_("Self check-in opens (minutes before round 1)"),
        min_value=0,
        max_value=1440,
        initial=60,
        required=False,
    )
    check_in_closes_minutes = forms.IntegerField(
        label=_("Self check-in closes (minutes after round 1 starts)"),
        min_value=0,
        max_value=1440,
        initial=15,
        required=False,
    )
    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=ruleset_choices)
    speech_seconds = forms.IntegerField(
        label=_("Speech (seconds)"),
        min_value=5,
        max_value=600,
        initial=60,
        required=False,
        help_text=_("The referee's timer for each player's speech on the live sheet."),
    )
    tie_speech_seconds = forms.IntegerField(
        label=_("Tie speech (seconds)"),
        min_value=5,
        max_value=600,
        initial=30,
        required=False,
        help_text=_("The timer for the speeches before a tie-break ballot."),
    )
    last_words_seconds = forms.IntegerField(
        label=_("Last words (seconds)"), min_value=5, max_value=600, initial=20, required=False
    )
    scoring_profile = forms.ChoiceField(
        label=_("Scoring profile"), choices=[(k, k) for k in PROFILES]
    )
    tiebreak_precedence = forms.CharField(
        label=_("Tie-break precedence"),
        required=False,
        help_text=lazy(_precedence_help, str)(),  # in the reader's language
        initial=", ".join(DEFAULT_PRECEDENCE),
    )
    rounds_count = forms.IntegerField(label=_("Number of rounds"), min_value=1, max_value=30)
    min_table = forms.IntegerField(label=_("Smallest table"), min_value=6, max_value=17, initial=8)
    max_table = forms.IntegerField(label=_("Largest table"), min_value=6, max_value=17, initial=12)
    allow_extra_meeting = forms.BooleanField(
        label=_("Allow one extra meeting for a more even draw"),
        required=False,
        initial=True,
        help_text=lazy(_extra_meeting_help, str)(),
    )
    first_round_at = forms.DateTimeField(
        label=_("Round 1 starts at"),
        required=False,
        widget=DateTimeInput,
        input_formats=DATETIME_FORMATS,
        help_text=_("Sets every round's start time; change single rounds on the dashboard."),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes between rounds"), min_value=10, max_value=24 * 60, initial=90
    )
    referees = forms.ModelMultipleChoiceField(
        label=_("Referees"),
        queryset=Referee.objects.select_related("user"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    staff = forms.CharField(
        label=_("Event staff"),
        required=False,
        help_text=_("Usernames separated by commas: they check players in."),
    )
    season = forms.ModelChoiceField(
        label=_("Season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=_("none (a one-off event)"),
        help_text=_("The season whose ranking counts this event: one of your club's leagues."),
    )
    circuit_category = forms.SlugField(
        label=_("Circuit category"),
        max_length=40,
        required=False,
        initial="club",
        help_text=_(
            "Its weight in the season's circuit: one of the categories of the season's "
            "circuit profile. Empty: club."
        ),
    )

    def __init__(self, *args: Any, club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        season_field = self.fields["season"]
        assert isinstance(season_field, forms.ModelChoiceField)
        if club is not None:  # only the seasons of the club's own leagues
            season_field.queryset = Season.objects.filter(league__club=club).select_related(
                "league"
            )

    def clean_tiebreak_precedence(self) -> list[str]:
        raw = self.cleaned_data.get("tiebreak_precedence") or ""
        return [k.strip() for k in raw.split(",") if k.strip()]

    def clean_staff(self) -> list[Any]:
        names = [n.strip() for n in (self.cleaned_data.get("staff") or "").split(",") if n.strip()]
        users = list(get_user_model().objects.filter(username__in=names))
        missing = sorted(set(names) - {u.get_username() for u in users})
        if missing:
            raise forms.ValidationError(
                _("Unknown users: %(names)s") % {"names": ", ".join(missing)}
            )
        return users

    def service_kwargs(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["circuit_category"] = data.get("circuit_category") or "club"
        for key in (
            "check_in_opens_minutes",
            "check_in_closes_minutes",
            "speech_seconds",
            "tie_speech_seconds",
            "last_words_seconds",
        ):
            if data.get(key) is None:  # left empty: the default (new) or unchanged (edit)
                data.pop(key, None)
        first = data.pop("first_round_at")
        minutes = data.pop("round_minutes") or 90
        starts = None
        if first is not None:
            starts = [
                first + dt.timedelta(minutes=minutes * i) for i in range(data["rounds_count"])
            ]
        data["round_starts"] = starts
        return data

    @classmethod
    def initial_for(cls, event: Event) -> dict[str, Any]:
        first = event.rounds.order_by("number").first()
        return {
            "name": event.name,
            "slug": event.slug,
            "venue": event.venue,
            "starts_on": event.starts_on,
            "ends_on": event.ends_on,
            "registration_opens": event.registration_opens,
            "registration_closes": event.registration_closes,
            "capacity": event.capacity,
            "check_in_opens_minutes": event.check_in_opens_minutes,
            "check_in_closes_minutes": event.check_in_closes_minutes,
            "ruleset": event.ruleset,
            "speech_seconds": event.speech_seconds,
            "tie_speech_seconds": event.tie_speech_seconds,
            "last_words_seconds": event.last_words_seconds,
            "scoring_profile": event.scoring_profile,
            "tiebreak_precedence": ", ".join(event.tiebreak_precedence),
            "rounds_count": event.rounds_count,
            "min_table": event.min_table,
            "max_table": event.max_table,
            "allow_extra_meeting": event.allow_extra_meeting,
            "first_round_at": first.starts_at if first else None,
            "referees": list(event.referees.all()),
            "staff": ", ".join(u.get_username() for u in event.staff.all()),
            "season": event.season_id,
            "circuit_category": event.circuit_category,
        }


class RoundStartForm(forms.Form):
    starts_at = forms.DateTimeField(
        label=_("Starts at"), required=False, widget=DateTimeInput, input_formats=DATETIME_FORMATS
    )


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("UTF-8, header row: display_name,handle[,club]."),
    )
    check_in = forms.BooleanField(label=_("Check everyone in"), required=False)


class AddPlayerForm(forms.Form):
    handle = forms.CharField(label=_("Handle"), max_length=60)
    display_name = forms.CharField(
        label=_("Display name (new players)"), max_length=120, required=False
    )
