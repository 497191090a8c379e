"""``{% load league_text %}``: the draw's stored messages in the reader's language."""

from __future__ import annotations

from django import template

from league.i18n import draw_message_text

register = template.Library()


@register.filter
def draw_text(message: str) -> str:
    return draw_message_text(str(message or ""))
