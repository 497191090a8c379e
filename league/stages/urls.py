"""Stage pages for organisers under /manage/ (included from ``league.urls``)."""

from django.urls import path

from league.stages import views

urlpatterns = [
    path("manage/events/<int:pk>/stages/", views.stages_page, name="event-stages"),
    path(
        "manage/events/<int:pk>/stages/<int:position>/finish/",
        views.stage_finish,
        name="stage-finish",
    ),
    path(
        "manage/events/<int:pk>/stages/<int:position>/reopen-cut/",
        views.stage_reopen_cut,
        name="stage-reopen-cut",
    ),
    path(
        "manage/events/<int:pk>/stages/<int:position>/seat-plan/",
        views.seat_plan,
        name="stage-seat-plan",
    ),
]
