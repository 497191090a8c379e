"""Event pages: organisers and staff under /manage/, the public under /clubs/ (included
from ``league.urls``)."""

from django.urls import path

from league.events import personal_views, public_views, views

urlpatterns = [
    path("manage/", views.manage_home, name="manage-home"),
    path("manage/clubs/<slug:club_slug>/events/new/", views.event_create, name="event-create"),
    path("manage/events/<int:pk>/edit/", views.event_edit, name="event-edit"),
    path("manage/events/<int:pk>/status/", views.event_status, name="event-status"),
    path(
        "manage/events/<int:pk>/rounds/<int:number>/start/",
        views.round_start,
        name="round-start",
    ),
    path("manage/events/<int:pk>/registrations/", views.registrations, name="event-registrations"),
    path(
        "manage/events/<int:pk>/registrations/add/",
        views.registration_add,
        name="registration-add",
    ),
    path(
        "manage/events/<int:pk>/registrations/import/",
        views.registration_import,
        name="registration-import",
    ),
    path(
        "manage/events/<int:pk>/registrations/<int:reg_pk>/check-in/",
        views.registration_check_in,
        name="registration-check-in",
    ),
    path(
        "manage/events/<int:pk>/registrations/<int:reg_pk>/withdraw/",
        views.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "manage/events/<int:pk>/links/<int:link_pk>/regenerate/",
        personal_views.link_regenerate,
        name="personal-link-regenerate",
    ),
    path(
        "manage/events/<int:pk>/links/<int:link_pk>/revoke/",
        personal_views.link_revoke,
        name="personal-link-revoke",
    ),
    path("manage/events/<int:pk>/conflicts/", views.conflicts, name="event-conflicts"),
    path("manage/events/<int:pk>/conflicts/add/", views.conflict_add, name="conflict-add"),
    path(
        "manage/events/<int:pk>/conflicts/<str:kind>/<int:conflict_pk>/remove/",
        views.conflict_remove,
        name="conflict-remove",
    ),
    path("manage/events/<int:pk>/referee/", views.referee_rounds, name="referee-rounds"),
    path("manage/events/<int:pk>/sheets/tables/", views.sheet_tables, name="sheet-tables"),
    path("manage/events/<int:pk>/sheets/players/", views.sheet_players, name="sheet-players"),
    # personal pages: the secret is the key (no log-in)
    path("e/<str:token>/", personal_views.personal_page, name="personal-page"),
    path("e/<str:token>/check-in/", personal_views.personal_check_in, name="personal-check-in"),
    path("e/<str:token>/calendar.ics", personal_views.personal_ics, name="personal-calendar"),
    # public
    path("clubs/<slug:club_slug>/", public_views.club_page, name="club"),
    path("clubs/<slug:club_slug>/calendar.ics", public_views.club_ics, name="club-calendar"),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/", public_views.public_event, name="public-event"
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/register/",
        public_views.register_self,
        name="register-self",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/rounds/<int:number>/",
        public_views.public_round,
        name="public-round",
    ),
]
