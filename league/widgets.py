"""Form widgets shared by the league's page forms: HTML date and date-time inputs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms


class DateInput(forms.DateInput):
    input_type = "date"


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, dt.datetime):
            return value.strftime("%Y-%m-%dT%H:%M")
        return super().format_value(value)


DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]
