"""Top-level URLs: pages per app, the versioned API, its schema, admin and health."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from config.api_docs import RedocView, SwaggerView
from config.health import healthz
from config.language import set_language

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("i18n/setlang/", set_language, name="set_language"),  # also saves the profile
    # The admin logs in through the site's log-in: its lockout and its second factor.
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("admin/", admin.site.urls),
    path("accounts/", include("config.accounts.urls")),  # login (two steps), two-factor
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", RedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/v1/", include("config.accounts.api_urls")),  # auth/token/: issue, revoke
    path("api/v1/", include("league.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("results.api_urls")),
    path("", include("results.home_urls")),  # the home page, named "home"
    path("", include("results.urls")),
    path("", include("games.urls")),
    path("", include("league.urls")),
]
