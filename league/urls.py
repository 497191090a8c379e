"""League pages: organisers under /manage/, public pages under /clubs/. Each sub-package
has its own routes; the order below matters only where ``league.draws.urls`` says so."""

from django.urls import include, path

# The home page is the results app's (results.views.home): it lists results.
urlpatterns = [
    path("", include("league.clubs.urls")),
    path("", include("league.events.urls")),
    path("", include("league.draws.urls")),
    path("", include("league.stages.urls")),
]
