from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    """Who, where and when: clubs, players, events, rounds, seating and the draws."""

    name = "league"
    verbose_name = _("League")
