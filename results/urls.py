"""Public results pages (namespace ``results``): rankings, players, clubs, an event's
standings and a game's account."""

from django.urls import path

from results.views import game, rankings, standings

app_name = "results"

urlpatterns = [
    path("rankings/", rankings.leaderboard, name="leaderboard"),
    path("rankings/seasons/<int:pk>/", rankings.season_ranking, name="season"),
    path("rankings/leagues/<slug:slug>/", rankings.league_ranking, name="league"),
    path("rankings/clubs/<slug:slug>/", rankings.club_results, name="club"),
    path("players/<str:handle>/", rankings.player_page, name="player"),
    path("games/<int:pk>/account/", game.game_account, name="account"),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/standings/",
        standings.standings,
        name="standings",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/standings.csv",
        standings.standings_csv,
        name="standings-csv",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/standings/<str:handle>/",
        standings.breakdown,
        name="standings-player",
    ),
]
