"""Public results pages (namespace ``results``): rankings, players, clubs, an event's
standings, its stages' standings and final table, its venue screen and overlay, a game's
account; and the organisers' cut page of a stage. The home page is routed without the
namespace (``home``) by :mod:`results.home_urls`."""

from django.urls import include, path

from results.views import analytics, game, personal_data, rankings, stages, standings, venue

app_name = "results"

urlpatterns = [
    path("rankings/", rankings.leaderboard, name="leaderboard"),
    path("clubs/", rankings.clubs, name="clubs"),
    path("clubs/<slug:club_slug>/<slug:event_slug>/venue/", venue.venue, name="venue"),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/venue/overlay/",
        venue.overlay,
        name="venue-overlay",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/venue.json", venue.venue_json, name="venue-json"
    ),
    path("rankings/seasons/<int:pk>/", rankings.season_ranking, name="season"),
    path("rankings/leagues/<slug:slug>/", rankings.league_ranking, name="league"),
    path("rankings/clubs/<slug:slug>/", rankings.club_results, name="club"),
    path("players/<str:handle>/", rankings.player_page, name="player"),
    path("analytics/", analytics.analytics, name="analytics"),
    path("analytics/players/", analytics.players, name="analytics-players"),
    path("games/<int:pk>/account/", game.game_account, name="account"),
    path("me/data/", personal_data.my_data, name="my-data"),
    path("me/data.json", personal_data.my_data_download, name="my-data-download"),
    path("me/delete/", personal_data.delete_my_account, name="delete-account"),
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
        "clubs/<slug:club_slug>/<slug:event_slug>/stages/<int:position>/standings/",
        stages.stage_standings,
        name="stage-standings",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/stages/<int:position>/standings.csv",
        stages.stage_standings_csv,
        name="stage-standings-csv",
    ),
    path("clubs/<slug:club_slug>/<slug:event_slug>/final/", stages.final_table, name="final-table"),
    path("manage/events/<int:pk>/stages/<int:position>/cut/", stages.stage_cut, name="stage-cut"),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/standings/<str:handle>/",
        standings.breakdown,
        name="standings-player",
    ),
    path("", include("results.archives.urls")),  # archives (issue #22)
]
