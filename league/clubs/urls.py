"""Club pages for organisers (included from ``league.urls``)."""

from django.urls import path

from league.clubs import views

urlpatterns = [
    path("manage/clubs/<slug:club_slug>/audit/", views.club_audit, name="club-audit"),
]
