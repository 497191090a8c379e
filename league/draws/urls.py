"""Draw pages for organisers and staff under /manage/ (included from ``league.urls``).

``rounds/<number>/<verb>/`` comes after the named round actions (``swap``, ``unpin``),
and this module after ``league.events.urls`` (``rounds/<number>/start/``)."""

from django.urls import path

from league.draws import views

urlpatterns = [
    path("manage/events/<int:pk>/", views.event_dashboard, name="event-dashboard"),
    path("manage/events/<int:pk>/draw/", views.draw_page, name="event-draw"),
    path("manage/events/<int:pk>/draw/start/", views.draw_start, name="draw-start"),
    path("manage/events/<int:pk>/draw/job/", views.draw_job, name="draw-job"),
    path(
        "manage/events/<int:pk>/stages/<int:position>/final-table/",
        views.final_table_draw,
        name="draw-final-table",
    ),
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
]
