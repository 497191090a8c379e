from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """What happened at the tables: game records, submissions, confirmation, release."""

    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games.selectors import recorded_tables
        from league.events.lifecycle import register_recorded_tables

        register_recorded_tables(recorded_tables)
