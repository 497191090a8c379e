"""League API routes under /api/v1/ (the viewsets live in the sub-packages)."""

from django.urls import URLPattern, URLResolver, include, path
from rest_framework.routers import SimpleRouter

from league.clubs.api import InvitationViewSet, LeagueViewSet, PlayerViewSet, SeasonViewSet
from league.draws.api import DrawJobViewSet
from league.events.api import ClubViewSet
from league.stages.api import EventStagesViewSet

router = SimpleRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("events", EventStagesViewSet, basename="event")
router.register("leagues", LeagueViewSet, basename="league")
router.register("seasons", SeasonViewSet, basename="season")
router.register("invitations", InvitationViewSet, basename="invitation")
router.register("draw-jobs", DrawJobViewSet, basename="drawjob")

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include(router.urls)),
]
