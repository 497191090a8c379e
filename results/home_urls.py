"""The home page's route, outside the ``results`` namespace: settings and every
template name it ``home``."""

from django.urls import path

from results.views.home import home

urlpatterns = [path("", home, name="home")]
