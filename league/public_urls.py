"""Public results pages of the league side (included from ``league.urls``)."""

from django.urls import path

from league import public_views

urlpatterns = [
    path("rankings/", public_views.leaderboard, name="results-leaderboard"),
    path("rankings/seasons/<int:pk>/", public_views.season_ranking, name="results-season"),
    path("rankings/leagues/<slug:slug>/", public_views.league_ranking, name="results-league"),
    path("rankings/clubs/<slug:slug>/", public_views.club_results, name="results-club"),
    path("players/<str:handle>/", public_views.player_page, name="results-player"),
]
