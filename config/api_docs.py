"""The API's browsable docs, within the Content-Security-Policy.

Swagger UI is served from our static files (drf-spectacular-sidecar) and its start-up
script is a second request rather than an inline ``<script>`` (drf-spectacular's split
view); the page's template has no inline style either.
"""

from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView


class SwaggerView(SpectacularSwaggerSplitView):
    template_name = "api_docs/swagger_ui.html"


class RedocView(SpectacularRedocView):
    """ReDoc without the web fonts of drf-spectacular's template (another origin)."""

    template_name = "api_docs/redoc.html"
