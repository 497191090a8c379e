"""Forms for the games pages: paper results, uploads, confirmation, new club games."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from engine.record import FORMAT
from games import paper
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
    """KGR/1 files (an event's pile, matched to tables by their meta)."""

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


class GameUploadForm(UploadForm):
    """A game's own files: KGR/1 JSON or the notation in a ``.txt`` file."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["records"]
        field.label = _("Game files (KGR/1 .json or notation .txt)")
        field.widget.attrs["accept"] = ".json,.txt,application/json,text/plain"


ROLE_CHOICES = [
    ("", "—"),
    ("killer", _("killer")),
    ("police", _("police officer")),
    ("civilian", _("civilian")),
]
WINNER_CHOICES = [
    ("", "—"),
    ("good", _("good side")),
    ("killers", _("killers")),
    ("draw", _("draw")),
]
#: The longest text a day's line of the paper form, its awards or a whole game in the
#: notation may be (characters; a whole game is bounded again by RECORD_MAX_BYTES).
DAY_MAX_CHARS = 4000
AWARDS_MAX_CHARS = 20_000
NOTATION_MAX_CHARS = 256 * 1024


class PaperForm(forms.Form):
    """The paper protocol copied out: a card per seat, each night's kill and check, each
    day's items in the notation (``lw3:1,5 v 1>2 2>1 … out1``), awards, the winner.

    Without any night or day it is a result-only record (spec: a record without a log).
    Rows after the last one filled in are left out; a row in between is kept (empty),
    so the engine says what it lacks next to it. :meth:`record` builds the KGR/1 value;
    the engine judges it (``games.services.submit_record``), and the page puts each
    violation next to the row it concerns (:meth:`attach`)."""

    winner = forms.ChoiceField(label=_("Winner"), choices=WINNER_CHOICES, required=False)
    awards = forms.CharField(
        label=_("Awards, one a line"),
        required=False,
        max_length=AWARDS_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "autocapitalize": "off"}),
    )
    reason = forms.CharField(
        label=_("Reason (for a correction of a confirmed game)"), required=False, max_length=2000
    )

    def __init__(
        self, *args: Any, seats: list[dict[str, Any]], phases: int = 0, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seat_list = seats
        self.phases = phases or paper.phase_count(len(seats))
        self.violations: dict[str, list[dict[str, Any]]] = {}
        targets = [("", "—")] + [(str(s["seat"]), f"{s['seat']}. {s['name']}") for s in seats]
        for s in seats:
            self.fields[f"role_{s['seat']}"] = forms.ChoiceField(
                label=f"{s['seat']}. {s['name']}", choices=ROLE_CHOICES
            )
        for n in range(1, self.phases + 1):
            self.fields[f"night_{n}_kill"] = forms.ChoiceField(
                label=_("kill"), choices=targets, required=False
            )
            self.fields[f"night_{n}_check"] = forms.ChoiceField(
                label=_("check"), choices=targets, required=False
            )
            self.fields[f"day_{n}"] = forms.CharField(
                label=_("Day %(n)s") % {"n": n},
                required=False,
                max_length=DAY_MAX_CHARS,
                widget=forms.TextInput(
                    attrs={
                        "spellcheck": "false",
                        "autocapitalize": "off",
                        "autocomplete": "off",
                    }
                ),
            )

    def seat_fields(self) -> list[Any]:
        return [self[f"role_{s['seat']}"] for s in self.seat_list]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for n in range(1, self.phases + 1):
            text = data.get(f"day_{n}") or ""
            if text.strip():
                try:
                    data[f"day_{n}_phase"] = paper.parse_day(n, text)
                except paper.TextProblem as e:
                    self.add_error(f"day_{n}", e.message)
        if (data.get("awards") or "").strip():
            try:
                data["award_list"] = paper.parse_awards(data["awards"])
            except paper.TextProblem as e:
                self.add_error("awards", e.message)
        return data

    def _phases(self) -> list[dict[str, Any]]:
        data = self.cleaned_data
        log: list[dict[str, Any]] = []
        for n in range(1, self.phases + 1):
            kill, check = data.get(f"night_{n}_kill"), data.get(f"night_{n}_check")
            log.append(
                {
                    "phase": "night",
                    "n": n,
                    "kill": int(kill) if kill else None,
                    "check": int(check) if check else None,
                }
            )
            log.append(data.get(f"day_{n}_phase") or {"phase": "day", "n": n})
        # keep everything up to the last phase filled in
        filled = [
            i
            for i, p in enumerate(log)
            if (p["phase"] == "night" and (p["kill"] or p["check"]))
            or (p["phase"] == "day" and len(p) > 2)
        ]
        return log[: filled[-1] + 1] if filled else []

    def record(self, ruleset: Any, meta: dict[str, str]) -> dict[str, Any]:
        """The KGR/1 value of what was typed (call after :meth:`is_valid`)."""
        data = self.cleaned_data
        rec: dict[str, Any] = {"format": FORMAT, "ruleset": ruleset}
        if meta:
            rec["meta"] = meta
        rec["seats"] = [
            {"seat": s["seat"], "player": s["player"], "role": data[f"role_{s['seat']}"]}
            for s in self.seat_list
        ]
        log = self._phases()
        if log:
            rec["log"] = log
        if data.get("award_list"):
            rec["awards"] = data["award_list"]
        if data.get("winner"):
            rec["result"] = {"winner": data["winner"]}
        return rec

    def attach(self, violations: list[dict[str, Any]]) -> None:
        """The engine's violations, to be shown next to the rows they concern."""
        self.violations = paper.placed(violations)

    def general_violations(self) -> list[dict[str, Any]]:
        return self.violations.get("", [])

    def role_violations(self) -> list[dict[str, Any]]:
        return self.violations.get("roles", [])

    def winner_violations(self) -> list[dict[str, Any]]:
        return self.violations.get("winner", [])

    def award_violations(self) -> list[dict[str, Any]]:
        return self.violations.get("awards", [])

    def phase_rows(self) -> list[dict[str, Any]]:
        """One row per round: the night's kill and check, the day's items, and what the
        engine said about each."""
        return [
            {
                "n": n,
                "kill": self[f"night_{n}_kill"],
                "check": self[f"night_{n}_check"],
                "day": self[f"day_{n}"],
                "night_violations": self.violations.get(f"night_{n}", []),
                "day_violations": self.violations.get(f"day_{n}", []),
            }
            for n in range(1, self.phases + 1)
        ]


class NotationForm(forms.Form):
    """A whole game typed in the notation (``docs/notation.md``)."""

    text = forms.CharField(
        label=_("The game in the notation"),
        max_length=NOTATION_MAX_CHARS,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 18,
                "spellcheck": "false",
                "autocapitalize": "off",
                "autocomplete": "off",
                "class": "notation",
            }
        ),
    )
    reason = forms.CharField(
        label=_("Reason (for a correction of a confirmed game)"), required=False, max_length=2000
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problem: paper.TextProblem | None = None
        self.violations: list[tuple[int | None, dict[str, Any]]] = []

    def clean_text(self) -> str:
        text: str = self.cleaned_data["text"]
        try:
            self.cleaned_data["record"] = paper.parse_text(text)
        except paper.TextProblem as e:
            self.problem = e
            raise forms.ValidationError(e.message, code="notation") from None
        return text

    def attach(self, violations: list[dict[str, Any]]) -> None:
        """The engine's violations, each with the line of the text it concerns."""
        typed = getattr(self, "cleaned_data", {}).get("text")  # else the text it starts with
        lines = paper.statement_lines(typed or self.initial.get("text") or "")
        self.violations = [
            (lines.get(paper.violation_place(str(v.get("where") or ""))), v) for v in violations
        ]


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
