from django.apps import AppConfig


class ResultsConfig(AppConfig):
    """What the released games add up to: standings, season totals, ratings, their
    pipeline, and the public pages and API that read them."""

    name = "results"

    def ready(self) -> None:
        # Imported here, not at the top: the receivers reach the models, which Django
        # allows only once the app registry is ready (Django's own idiom for signals).
        from games.past_results import register_batch_announcer
        from games.signals import results_changed, results_pending
        from league.events.personal import register_results_reader
        from league.events.signals import event_season_changed
        from results.personal import player_event_games
        from results.receivers import (
            enqueue_imported_games,
            enqueue_results,
            enqueue_season_totals,
            mark_stale,
        )
        from results.stages import connect as connect_stages

        results_pending.connect(mark_stale, dispatch_uid="results.mark_stale")
        results_changed.connect(enqueue_results, dispatch_uid="results.enqueue_results")
        event_season_changed.connect(
            enqueue_season_totals, dispatch_uid="results.enqueue_season_totals"
        )
        register_results_reader(player_event_games)
        register_batch_announcer(enqueue_imported_games)  # a past-results file: one heal
        connect_stages()  # stage changes and an event's status: the standings again
