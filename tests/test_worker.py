"""A task's round trip through the broker and a real `bin/worker` process."""

import pytest

from config.celery import ping


@pytest.mark.worker
@pytest.mark.django_db
def test_task_round_trip_through_real_worker(celery_worker_process) -> None:
    result = ping.delay("night-falls")
    assert result.get(timeout=30) == "pong:night-falls"
    assert result.successful()
