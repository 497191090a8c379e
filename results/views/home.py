"""The home page: what is on now (events in play and their round's progress), what is
coming, recent results, the top of the rankings, clubs and seasons — links into every
public area.

Release gates: :mod:`results.home` (published events, released rounds, released games).
The sections are the same for every reader in a language, so they are rendered once and
cached for :data:`HOME_SECONDS` (``league.outages.cache``: while the cache is down the
page reads the database); the reader's own parts (the menu, the language) are not cached.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from league.outages import cache
from results.home import home_sections

#: How long the home page's sections are cached: a new result shows within this.
HOME_SECONDS = 30


def _optional_url(name: str) -> str:
    """The path of a page that may not exist in this build (another room's), or ""."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    key = f"results:home:v1:{get_language()}"
    block = cache.get(key)
    if block is None:
        block = render_to_string(
            "results/_home.html",
            {**home_sections(), "analytics_url": _optional_url("results:analytics")},
        )
        cache.set(key, block, HOME_SECONDS)
    return render(request, "results/home.html", {"sections": mark_safe(block)})
