"""Draw page forms: they parse and validate input; services do the writing."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class DrawForm(forms.Form):
    from_round = forms.IntegerField(label=_("From round"), min_value=1)
    to_round = forms.IntegerField(label=_("To round"), min_value=1, required=False)
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=0, max_value=2**31 - 1)
    checked_in_only = forms.BooleanField(
        label=_("Only checked-in players"), required=False, initial=True
    )


class SwapForm(forms.Form):
    a = forms.CharField(label=_("Player (handle)"))
    b = forms.CharField(label=_("Other player (handle)"))


class FinalTableForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=0, max_value=2**31 - 1)
