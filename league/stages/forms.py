"""The stages page's form: one row per stage (a formset: an empty row to add one, a
box to remove one). It parses what was typed; :func:`league.stages.services.set_stages`
checks the list as a whole and writes it."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.scoring import PROFILES
from league.clubs.models import Player
from league.events.models import Event
from league.stages.models import EntryKind, StageSeating
from league.stages.selectors import StagePlan
from league.stages.validation import MAX_LISTED, MAX_NAME, MAX_ROUNDS, MAX_STAGES

#: Handles in the list of players: separated by commas, semicolons or white space.
_SEPARATORS = re.compile(r"[\s,;，；、]+")


def _profile_choices() -> list[tuple[str, Any]]:
    return [("", _("the event's")), *((key, key) for key in sorted(PROFILES))]


class StageForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_NAME)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS)
    scoring_profile = forms.ChoiceField(
        label=_("Scoring profile"), choices=_profile_choices, required=False
    )
    multiplier = forms.DecimalField(
        label=_("Multiplier"), max_digits=6, decimal_places=3, initial=Decimal(1)
    )
    carry = forms.DecimalField(
        label=_("Carry-over"),
        max_digits=6,
        decimal_places=3,
        initial=Decimal(1),
        help_text=_("1: the earlier standing is added up; 0: a fresh start."),
    )
    entry_kind = forms.ChoiceField(
        label=_("Who enters"), choices=EntryKind.choices, initial=EntryKind.ALL
    )
    entry_top = forms.IntegerField(
        label=_("How many (the best of the standing)"),
        min_value=2,
        max_value=MAX_LISTED,
        required=False,
    )
    entry_players = forms.CharField(
        label=_("Listed players (handles)"),
        required=False,
        max_length=40_000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    hidden = forms.BooleanField(label=_("Standing hidden until the stage ends"), required=False)
    seating = forms.ChoiceField(
        label=_("Seating"), choices=StageSeating.choices, initial=StageSeating.DRAW
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_entry_players(self) -> list[int]:
        text = self.cleaned_data.get("entry_players") or ""
        handles = [h.lstrip("@") for h in _SEPARATORS.split(text) if h.strip()]
        if len(handles) > MAX_LISTED:
            raise forms.ValidationError(
                _("List at most %(n)s players."), code="too_many", params={"n": MAX_LISTED}
            )
        found = dict(
            Player.objects.filter(handle__in=handles, registrations__event=self.event).values_list(
                "handle", "pk"
            )
        )
        unknown = [h for h in handles if h not in found]
        if unknown:
            raise forms.ValidationError(
                _("Not registered for this event: %(handles)s."),
                code="unknown",
                params={"handles": ", ".join(unknown[:20])},
            )
        return [found[h] for h in handles]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("entry_kind") == EntryKind.TOP and not data.get("entry_top"):
            self.add_error("entry_top", _("Say how many of the best enter."))
        if data.get("entry_kind") == EntryKind.PLAYERS and not data.get("entry_players"):
            self.add_error("entry_players", _("List the players who enter."))
        return data

    def stage(self) -> dict[str, Any]:
        """The stage as :func:`league.stages.services.set_stages` takes it."""
        data = self.cleaned_data
        kind = data["entry_kind"]
        entry: Any = "all"
        if kind == EntryKind.TOP:
            entry = {"top": data["entry_top"]}
        elif kind == EntryKind.PLAYERS:
            entry = {"players": data["entry_players"]}
        return {
            "name": data["name"],
            "rounds": data["rounds"],
            "scoring_profile": data.get("scoring_profile") or "",
            "multiplier": data["multiplier"],
            "carry": data["carry"],
            "entry": entry,
            "hidden": data["hidden"],
            "seating": data["seating"],
        }


StageFormSet = forms.formset_factory(
    StageForm,
    extra=1,
    can_delete=True,
    max_num=MAX_STAGES,
    validate_max=True,
    absolute_max=MAX_STAGES + 1,
)


def initial_rows(
    event: Event, plans: list[StagePlan], handles: dict[int, str]
) -> list[dict[str, Any]]:
    """The form's rows for the stages as they are (the default stage, named after the
    event's rounds, when the event has none)."""
    if all(p.pk is None for p in plans):
        return [
            {
                "name": _("%(n)s rounds") % {"n": event.rounds_count},
                "rounds": event.rounds_count,
                "multiplier": Decimal(1),
                "carry": Decimal(1),
                "entry_kind": EntryKind.ALL,
                "seating": StageSeating.DRAW,
            }
        ]
    return [
        {
            "name": p.name,
            "rounds": len(p.round_numbers),
            "scoring_profile": ""
            if p.scoring_profile == event.scoring_profile
            else p.scoring_profile,
            "multiplier": p.multiplier,
            "carry": p.carry,
            "entry_kind": p.entry_kind,
            "entry_top": p.entry_top,
            "entry_players": " ".join(handles.get(pid, str(pid)) for pid in p.entry_players),
            "hidden": p.hidden,
            "seating": p.seating,
        }
        for p in plans
    ]


def stages_of(formset: Any) -> list[dict[str, Any]]:
    """The stages typed, in order: the rows not removed and not left empty."""
    return [
        form.stage()
        for form in formset.forms
        if form.cleaned_data and not form.cleaned_data.get("DELETE")
    ]
