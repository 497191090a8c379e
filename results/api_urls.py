"""Results API routes under /api/v1/ (namespace ``results-api``): rankings, players,
clubs, an event's standings, its stages and their standings, and a game's result."""

from django.urls import path

from results.api import analytics, rankings, stages, standings

app_name = "results-api"

urlpatterns = [
    path("rankings/ratings/", rankings.RatingLeaderboard.as_view(), name="ratings"),
    path("rankings/seasons/<int:pk>/", rankings.SeasonRanking.as_view(), name="season"),
    path("rankings/leagues/<slug:slug>/", rankings.LeagueRanking.as_view(), name="league"),
    path("rankings/players/<str:handle>/", rankings.PlayerProfile.as_view(), name="player"),
    path("rankings/clubs/<slug:slug>/", rankings.ClubResults.as_view(), name="club"),
    path(
        "results/events/<int:pk>/standings/",
        standings.EventStandingsView.as_view(),
        name="standings",
    ),
    path("results/events/<int:pk>/stages/", stages.EventStagesView.as_view(), name="event-stages"),
    path(
        "results/events/<int:pk>/stages/<int:position>/standings/",
        stages.StageStandingView.as_view(),
        name="stage-standings",
    ),
    path("results/games/<int:pk>/", standings.GameResultView.as_view(), name="game"),
    path("analytics/", analytics.AnalyticsView.as_view(), name="analytics"),
    path("analytics/players/", analytics.PlayersView.as_view(), name="analytics-players"),
]
