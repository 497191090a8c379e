"""League pages: organisers under /manage/, public pages under /clubs/."""

from django.urls import include, path

from league import views

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("league.public_urls")),  # results: rankings, players (issue 8)
    # organisers and staff
    path("manage/", views.manage_home, name="manage-home"),
    path("manage/clubs/<slug:club_slug>/audit/", views.club_audit, name="club-audit"),
    path("manage/clubs/<slug:club_slug>/events/new/", views.event_create, name="event-create"),
    path("manage/events/<int:pk>/", views.event_dashboard, name="event-dashboard"),
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
    path("manage/events/<int:pk>/draw/", views.draw_page, name="event-draw"),
    path("manage/events/<int:pk>/draw/start/", views.draw_start, name="draw-start"),
    path("manage/events/<int:pk>/draw/job/", views.draw_job, name="draw-job"),
    path("manage/events/<int:pk>/draw.csv", views.draw_csv, name="draw-csv"),
    path("manage/events/<int:pk>/referees/assign/", views.referees_assign, name="referees-assign"),
    path("manage/events/<int:pk>/rounds/<int:number>/swap/", views.round_swap, name="round-swap"),
    path(
        "manage/events/<int:pk>/rounds/<int:number>/unpin/", views.round_unpin, name="round-unpin"
    ),
    path(
        "manage/events/<int:pk>/rounds/<int:number>/<str:verb>/",
        views.round_action,
        name="round-action",
    ),
    path(
        "manage/events/<int:pk>/tables/<int:table_pk>/referee/",
        views.table_referee,
        name="table-referee",
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
    # public
    path("clubs/<slug:club_slug>/", views.club_page, name="club"),
    path("clubs/<slug:club_slug>/calendar.ics", views.club_ics, name="club-calendar"),
    path("clubs/<slug:club_slug>/<slug:event_slug>/", views.public_event, name="public-event"),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/register/",
        views.register_self,
        name="register-self",
    ),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/rounds/<int:number>/",
        views.public_round,
        name="public-round",
    ),
]
