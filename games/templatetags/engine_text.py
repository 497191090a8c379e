"""Template filters for the engine's English words, translated at the edge.

``{% load engine_text %}`` then ``{{ violation|violation_text }}``, ``{{ item|point_reason }}``,
``{{ role|role }}``, ``{{ kind|award_kind }}``.
"""

from __future__ import annotations

from typing import Any

from django import template

from games import violation_text as vt

register = template.Library()


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)


@register.filter
def violation_text(v: Any) -> str:
    """A violation (dict or engine object): its message in the reader's language."""
    return vt.violation_text(
        str(_get(v, "code") or ""), str(_get(v, "message") or ""), str(_get(v, "where") or "")
    )


@register.filter
def point_reason(item: Any) -> str:
    """A point line (dict or engine ``PointItem``): its reason in the reader's language."""
    return vt.point_reason_text(str(_get(item, "kind") or ""), str(_get(item, "reason") or ""))


@register.filter
def role(value: str) -> str:
    return vt.role_text(value)


@register.filter
def award_kind(value: str) -> str:
    return vt.award_kind_text(value)


@register.filter
def winner(value: str) -> str:
    return vt.winner_text(value)


@register.filter
def completeness(value: str) -> str:
    return vt.completeness_text(value)


@register.filter
def decimal(value: Any) -> str:
    """A decimal kept as text ("1.5") shown with the reader's decimal mark (1,5 in Spanish)."""
    return vt.number_text(str(value)) if value not in (None, "") else ""
