"""Top-level URLs: pages per app, the versioned API, its schema, admin and health."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz
from config.language import set_language

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("i18n/setlang/", set_language, name="set_language"),  # also saves the profile
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("league.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("", include("games.urls")),
    path("", include("league.urls")),
]
