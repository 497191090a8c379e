"""Club page forms."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

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
