"""A strict Content-Security-Policy on every response (docs/security.md, "Browser").

Django 5.2 has none built in. The policy is ``settings.CONTENT_SECURITY_POLICY``, a map of
directive to sources, rendered once: scripts, styles, fonts and images come from this
site only, nothing is framed or embedded, forms post only here. Pages therefore carry no
inline script or event handler (``static/js/`` holds them all) and the API docs load
Swagger UI and ReDoc from our own static files (drf-spectacular-sidecar).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def render_policy(policy: Mapping[str, Sequence[str]]) -> str:
    """``{"default-src": ["'self'"]}`` → ``"default-src 'self'"``."""
    return "; ".join(f"{name} {' '.join(sources)}".strip() for name, sources in policy.items())


@cache
def _policy(items: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    return render_policy(dict(items))


def current_policy() -> str:
    configured: Mapping[str, Sequence[str]] = settings.CONTENT_SECURITY_POLICY
    return _policy(tuple((name, tuple(sources)) for name, sources in configured.items()))


class ContentSecurityPolicyMiddleware:
    """Adds the policy to each response that has none of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = current_policy()
        return response
