"""Results API routes (included from ``games.api_urls`` under /api/v1/)."""

from django.urls import path

from games import results_api

urlpatterns = [
    path(
        "results/events/<int:pk>/standings/",
        results_api.EventStandingsView.as_view(),
        name="results-standings",
    ),
    path("results/games/<int:pk>/", results_api.GameResultView.as_view(), name="results-game"),
]
