from django.urls import path

from games import api, protest_api

app_name = "games-api"

urlpatterns = [
    path("games/", api.GameList.as_view(), name="list"),
    path("games/<int:pk>/", api.GameDetail.as_view(), name="detail"),
    path("games/<int:pk>/versions/", api.GameVersions.as_view(), name="versions"),
    path("games/<int:pk>/corrections/", api.GameCorrections.as_view(), name="corrections"),
    path("games/<int:pk>/confirm/", api.GameConfirm.as_view(), name="confirm"),
    path("games/<int:pk>/release/", api.GameRelease.as_view(), name="release"),
    path("games/<int:pk>/void/", api.GameVoid.as_view(), name="void"),
    path(
        "events/<int:event_pk>/rounds/<int:number>/release-games/",
        api.RoundRelease.as_view(),
        name="release-round",
    ),
    path("games/<int:pk>/sheet/", api.SheetView.as_view(), name="sheet"),
    path("games/<int:pk>/sheet/steps/", api.SheetStep.as_view(), name="sheet-step"),
    path("games/<int:pk>/sheet/undo/", api.SheetUndo.as_view(), name="sheet-undo"),
    path("games/<int:pk>/sheet/submit/", api.SheetSubmit.as_view(), name="sheet-submit"),
    path("player-merges/", api.PlayerMerge.as_view(), name="player-merge"),
    path("games/<int:pk>/protests/", protest_api.GameProtests.as_view(), name="protests"),
    path(
        "games/<int:pk>/protests/<int:protest_pk>/ruling/",
        protest_api.ProtestRuling.as_view(),
        name="protest-ruling",
    ),
]
