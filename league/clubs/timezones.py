"""A club's time zone: one of the IANA names Python knows (``zoneinfo``), checked without
the database, so the admin, the pages and the API refuse the same unknown names (an admin
once accepted "Europe/Valenca" and the site quietly used UTC)."""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


@cache
def timezone_names() -> tuple[str, ...]:
    """Every time zone name a club may choose, sorted (``localtime`` and friends left out)."""
    return tuple(sorted(name for name in zoneinfo.available_timezones() if name != "localtime"))


def is_timezone(name: object) -> bool:
    return isinstance(name, str) and name in frozenset(timezone_names())


def validate_timezone(value: object) -> None:
    """A model and form validator: ``value`` must be a known IANA time zone name."""
    if not is_timezone(value):
        raise ValidationError(
            _("%(value)s is not a known time zone (e.g. Europe/Berlin, Asia/Shanghai)."),
            code="invalid_timezone",
            params={"value": str(value)[:80]},
        )


def timezone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in timezone_names()]
