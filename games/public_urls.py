"""Public results pages of the games side (included from ``games.urls``)."""

from django.urls import path

from games import public_views

urlpatterns = [
    path("games/<int:pk>/account/", public_views.game_account, name="account"),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/standings/",
        public_views.standings,
        name="standings",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/standings.csv",
        public_views.standings_csv,
        name="standings-csv",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/standings/<str:handle>/",
        public_views.breakdown,
        name="standings-player",
    ),
]
