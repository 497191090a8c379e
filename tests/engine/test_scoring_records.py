"""The adapter from KGR/1 records to game summaries, and the points of real records."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from engine.record import loads, parse_record
from engine.scoring import AwardInfo, GameSummary, score_game, summarize

RECORDS = Path(__file__).parent / "standings_records"


def load(name: str) -> GameSummary:
    record = parse_record(loads((RECORDS / f"{name}.json").read_bytes()))
    return summarize(record, name)


def test_full_record_summary() -> None:
    summary = load("r1")
    assert (summary.game, summary.event, summary.status, summary.winner) == (
        "r1",
        "Spring Cup",
        "finished",
        "good",
    )
    assert summary.seat(3).player == "wang-fang" and summary.seat(3).role == "civilian"
    assert (summary.night1_victim, summary.night1_suspects, summary.ejected) == (3, (1, 5), ())
    assert summary.awards == (AwardInfo(2, "bonus", Decimal("0.3"), "found both killers"),)


def test_spec_example_points() -> None:
    points = score_game(load("r1")).points
    assert points["wang-fang"] == Decimal("1.4")  # won + both killers named
    assert points["chen-jie"] == Decimal("1.3")  # won + 0.3 bonus, exactly (not 1.2999…)
    assert points["li-wei"] == points["liu-yang"] == 0


def test_awards_from_a_record() -> None:
    points = score_game(load("r2")).points
    assert points["sun-li"] == Decimal("-0.5")  # four warnings
    assert points["wu-hui"] == Decimal("2.0")  # win + 0.5 + 0.75 capped at 1.0
    assert points["li-wei"] == Decimal("0.2")  # police victim named one killer of two


def test_result_only_and_in_progress_records() -> None:
    paper = load("r3-paper")
    assert (paper.status, paper.night1_victim, paper.winner) == ("result-only", None, "killers")
    assert score_game(paper).points["zhou-tao"] == -1
    live = load("r4-live")
    assert (live.status, live.winner, live.night1_victim) == ("in-progress", None, 4)
    assert not score_game(live).scored


def test_ejections_are_read_from_every_day() -> None:
    record = parse_record(loads((RECORDS / "r1.json").read_bytes()))
    text = (
        (RECORDS / "r1.json")
        .read_text()
        .replace('"n": 2, "ballots"', '"n": 2, "eject": [8], "ballots"')
    )
    ejected = summarize(parse_record(loads(text)), "r1-ejected")
    assert ejected.ejected == (8,) and summarize(record, "r1").ejected == ()
