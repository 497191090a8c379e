"""The API's browsable docs, within the Content-Security-Policy.

Swagger UI is served from our static files (drf-spectacular-sidecar) and its start-up
script is a second request rather than an inline ``<script>`` (drf-spectacular's split
view); the page's template has no inline style either. ReDoc, also local, styles itself
by inserting ``<style>`` elements and searches in a ``blob:`` worker: its page alone
allows those two (no script from anywhere but 'self'; the page shows no user content).
"""

from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.request import Request

from config.csp import HEADER, render_policy


class SwaggerView(SpectacularSwaggerSplitView):
    template_name = "api_docs/swagger_ui.html"


class RedocView(SpectacularRedocView):
    """ReDoc without the web fonts of drf-spectacular's template (another origin)."""

    template_name = "api_docs/redoc.html"

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        response: HttpResponse = super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]
        policy = {
            **settings.CONTENT_SECURITY_POLICY,
            "style-src": ["'self'", "'unsafe-inline'"],
            "worker-src": ["'self'", "blob:"],
        }
        response[HEADER] = render_policy(policy)
        return response
