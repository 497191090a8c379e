"""Template filters: the engine's codes and words in the reader's language.

``{% load engine_text %}`` then ``{{ violation|violation_text }}``, ``{{ item|point_reason }}``,
``{{ tie|engine_message }}``, ``{{ role|role }}``, ``{{ kind|award_kind }}``,
``{{ winner|winner }}``, ``{{ status|completeness }}``, ``{{ "1.5"|decimal }}``. Every
sentence is rendered from a code and its params by :mod:`league.engine_text`; nothing here
reads an engine sentence.
"""

from __future__ import annotations

from typing import Any

from django import template

from league import engine_text as et

register = template.Library()


@register.filter
def violation_text(v: Any) -> str:
    """A violation (stored dict or engine object): ``place: sentence``."""
    return et.stored_violation_text(v)


@register.filter
def point_reason(item: Any) -> str:
    """A point line (stored dict or engine ``PointItem``): its reason."""
    return et.stored_reason_text(item)


@register.filter
def engine_message(message: Any) -> str:
    """Anything with a code and params (a tie, an ending, a warning)."""
    return et.message_text(message)


@register.filter
def role(value: str) -> str:
    return et.word_text(str(value or ""), "role")


@register.filter
def award_kind(value: str) -> str:
    return et.word_text(str(value or ""), "kind")


@register.filter
def winner(value: str) -> str:
    return et.word_text(str(value or ""), "winner")


@register.filter
def completeness(value: str) -> str:
    return et.word_text(str(value or ""), "status")


@register.filter
def decimal(value: Any) -> str:
    """A decimal kept as text ("1.5") shown with the reader's decimal mark (1,5 in Spanish)."""
    return et.number_text(value) if value not in (None, "") else ""
