"""League API routes under /api/v1/."""

from django.urls import URLPattern, URLResolver, include, path
from rest_framework.routers import SimpleRouter

from league import api

router = SimpleRouter()
router.register("clubs", api.ClubViewSet, basename="club")
router.register("players", api.PlayerViewSet, basename="player")
router.register("events", api.EventViewSet, basename="event")
router.register("leagues", api.LeagueViewSet, basename="league")
router.register("draw-jobs", api.DrawJobViewSet, basename="drawjob")

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include(router.urls)),
    path("", include("league.rankings_api_urls")),  # results: rankings (issue 8)
]
