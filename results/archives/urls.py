"""Archive routes (included from ``results.urls``, namespace ``results``)."""

from django.urls import path

from results.archives import views

urlpatterns = [
    path("manage/events/<int:pk>/archive.zip", views.event_archive, name="event-archive"),
    path("manage/clubs/<slug:club_slug>/archive.zip", views.club_archive, name="club-archive"),
    path(
        "clubs/<slug:club_slug>/<slug:event_slug>/public-archive.zip",
        views.event_public_archive,
        name="event-public-archive",
    ),
    path(
        "clubs/<slug:club_slug>/public-archive.zip",
        views.club_public_archive,
        name="club-public-archive",
    ),
    path("manage/archives/import/", views.import_page, name="archive-import"),
]
