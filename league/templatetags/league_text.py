"""``{% load league_text %}``: a draw job's stored notes in the reader's language."""

from __future__ import annotations

from typing import Any

from django import template

from league.i18n import draw_note_text

register = template.Library()


@register.filter
def draw_text(note: Any) -> str:
    """A stored ``{"code", "params"}`` note (a draw's warning or error), rendered now."""
    return draw_note_text(note)
