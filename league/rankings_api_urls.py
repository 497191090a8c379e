"""Rankings API routes (included from ``league.api_urls`` under /api/v1/)."""

from django.urls import path

from league import rankings_api

urlpatterns = [
    path("rankings/ratings/", rankings_api.RatingLeaderboard.as_view(), name="rankings-ratings"),
    path(
        "rankings/seasons/<int:pk>/", rankings_api.SeasonRanking.as_view(), name="rankings-season"
    ),
    path(
        "rankings/leagues/<slug:slug>/",
        rankings_api.LeagueRanking.as_view(),
        name="rankings-league",
    ),
    path(
        "rankings/players/<str:handle>/",
        rankings_api.PlayerProfile.as_view(),
        name="rankings-player",
    ),
    path("rankings/clubs/<slug:slug>/", rankings_api.ClubResults.as_view(), name="rankings-club"),
]
