"""League pages: organisers under /manage/, public pages under /clubs/. Each sub-package
has its own routes; the order below matters only where ``league.draws.urls`` says so."""

from django.urls import include, path

from league.events import views as event_views

urlpatterns = [
    path("", event_views.home, name="home"),
    path("", include("league.clubs.urls")),
    path("", include("league.events.urls")),
    path("", include("league.draws.urls")),
    path("", include("league.stages.urls")),
]
