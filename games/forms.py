"""Forms for the games pages: paper results, uploads, confirmation, new club games."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from league.i18n import ruleset_choices


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".json,application/json"}))
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class UploadForm(forms.Form):
    records = MultipleFileField(label=_("KGR/1 files"))
    reason = forms.CharField(
        label=_("Reason (for a correction of a confirmed game)"), required=False, max_length=2000
    )

    def clean_records(self) -> list[Any]:
        files: list[Any] = self.cleaned_data["records"]
        limit = int(settings.UPLOAD_MAX_FILES)
        if len(files) > limit:
            raise forms.ValidationError(
                _("At most %(limit)s files at once (you chose %(n)s)."),
                code="too_many_files",
                params={"limit": limit, "n": len(files)},
            )
        return files


ROLE_CHOICES = [
    ("", "—"),
    ("killer", _("killer")),
    ("police", _("police officer")),
    ("civilian", _("civilian")),
]
WINNER_CHOICES = [("good", _("good side")), ("killers", _("killers")), ("draw", _("draw"))]


class PaperForm(forms.Form):
    """Result only: a card per seat and the winner (spec: a record without a log)."""

    winner = forms.ChoiceField(label=_("Winner"), choices=WINNER_CHOICES)
    reason = forms.CharField(
        label=_("Reason (for a correction of a confirmed game)"), required=False, max_length=2000
    )

    def __init__(self, *args: Any, seats: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_list = seats
        for s in seats:
            self.fields[f"role_{s['seat']}"] = forms.ChoiceField(
                label=f"{s['seat']}. {s['name']}", choices=ROLE_CHOICES
            )

    def seat_fields(self) -> list[Any]:
        return [self[f"role_{s['seat']}"] for s in self.seat_list]


class ClubGameForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=160, required=False)
    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=ruleset_choices, initial="classic")
    played_on = forms.DateField(label=_("Played on"), required=False)
    players = forms.CharField(
        label=_("Players, one handle per line, seat 1 first"),
        widget=forms.Textarea(attrs={"rows": 8}),
    )

    def clean_players(self) -> list[str]:
        return [
            line.strip().lstrip("@")
            for line in self.cleaned_data["players"].splitlines()
            if line.strip()
        ]
