"""Club pages (included from ``league.urls``): organisers' pages under /manage/clubs/,
leagues and seasons under /manage/leagues/, a user's own under /me/ and /invitations/."""

from django.urls import path

from league.clubs import account_views, manage_views, views

urlpatterns = [
    path("manage/clubs/new/", manage_views.club_create, name="club-create"),
    path("manage/clubs/<slug:club_slug>/audit/", views.club_audit, name="club-audit"),
    path("manage/clubs/<slug:club_slug>/edit/", manage_views.club_edit, name="club-edit"),
    path("manage/clubs/<slug:club_slug>/people/", manage_views.club_people, name="club-people"),
    path("manage/clubs/<slug:club_slug>/invite/", manage_views.club_invite, name="club-invite"),
    path(
        "manage/clubs/<slug:club_slug>/invitations/<int:pk>/revoke/",
        manage_views.invitation_revoke,
        name="invitation-revoke",
    ),
    path(
        "manage/clubs/<slug:club_slug>/organisers/<int:user_id>/remove/",
        manage_views.organiser_remove,
        name="organiser-remove",
    ),
    path(
        "manage/clubs/<slug:club_slug>/referees/<int:pk>/remove/",
        manage_views.referee_remove,
        name="referee-remove",
    ),
    path(
        "manage/clubs/<slug:club_slug>/claims/<int:pk>/<str:decision>/",
        manage_views.claim_decide,
        name="claim-decide",
    ),
    path("manage/clubs/<slug:club_slug>/leagues/", manage_views.club_leagues, name="club-leagues"),
    path("manage/leagues/<slug:slug>/edit/", manage_views.league_edit, name="league-edit"),
    path("manage/leagues/<slug:slug>/seasons/new/", manage_views.season_edit, name="season-create"),
    path(
        "manage/leagues/<slug:slug>/seasons/<int:pk>/edit/",
        manage_views.season_edit,
        name="season-edit",
    ),
    path(
        "manage/leagues/<slug:slug>/circuits/new/",
        manage_views.circuit_create,
        name="circuit-create",
    ),
    path(
        "manage/leagues/<slug:slug>/circuits/<slug:circuit_slug>/",
        manage_views.circuit_edit,
        name="circuit-edit",
    ),
    path("invitations/<str:token>/", account_views.invitation, name="invitation"),
    path("me/profile/", account_views.my_profile, name="my-profile"),
    path("me/claim/", account_views.claim, name="player-claim"),
]
