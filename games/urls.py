from django.urls import path

from games import (
    entry_views,
    event_views,
    merge_views,
    past_results_views,
    protest_views,
    protocol_views,
    views,
)

app_name = "games"

urlpatterns = [
    path("games/", views.my_games, name="mine"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/sheet/", entry_views.sheet_page, name="sheet"),
    path("games/<int:pk>/paper/", entry_views.paper_page, name="paper"),
    path("games/<int:pk>/upload/", entry_views.upload_page, name="upload"),
    path("games/<int:pk>/protocol/", protocol_views.game_protocol_page, name="protocol"),
    path(
        "games/events/<int:pk>/rounds/<int:number>/protocol/",
        protocol_views.round_protocol_page,
        name="round-protocol",
    ),
    path("games/tables/<int:table_pk>/", protocol_views.table_entry, name="table-entry"),
    path("games/<int:pk>/versions/<int:number>/review/", views.review_page, name="review"),
    path("games/<int:pk>/confirm/", views.confirm_view, name="confirm"),
    path("games/<int:pk>/release/", views.release_view, name="release"),
    path("games/<int:pk>/void/", views.void_view, name="void"),
    path("games/<int:pk>/record.json", views.game_export, name="export"),
    path("games/tables/<int:table_pk>/open/", views.open_table, name="open-table"),
    path("games/events/<int:pk>/", event_views.event_games, name="event"),
    path("games/events/<int:pk>/awaiting/", event_views.awaiting, name="awaiting"),
    path("games/clubs/<slug:club_slug>/new/", views.club_game_new, name="club-new"),
    path("games/players/merge/", merge_views.merge_page, name="merge-players"),
    path(
        "games/clubs/<slug:club_slug>/past-results/",
        past_results_views.past_results_page,
        name="past-results",
    ),
    path(
        "games/clubs/<slug:club_slug>/past-results/confirm/",
        past_results_views.past_results_confirm,
        name="past-results-confirm",
    ),
    path(
        "games/clubs/<slug:club_slug>/past-results/template.csv",
        past_results_views.past_results_template,
        name="past-results-template",
    ),
    path("games/<int:pk>/protests/", protest_views.protest_list, name="protests"),
    path("games/<int:pk>/protests/new/", protest_views.protest_file, name="protest-file"),
    path(
        "games/<int:pk>/protests/<int:protest_pk>/rule/",
        protest_views.protest_rule,
        name="protest-rule",
    ),
    path(
        "e/<str:token>/games/<int:pk>/protest/",
        protest_views.protest_file_personal,
        name="protest-file-personal",
    ),
]
