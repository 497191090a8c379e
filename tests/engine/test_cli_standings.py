"""``python -m engine standings`` on real KGR/1 files: valid, invalid and unreadable."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import standings_cli

RECORDS = Path(__file__).parent / "standings_records"
EVENT = ["r1.json", "r2.json", "r3-paper.json", "r4-live.json"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    standings_cli.add_arguments(parser)
    args = parser.parse_args([str(RECORDS / a) if a.endswith(".json") else a for a in argv])
    code = standings_cli.run(args)
    out, err = capsys.readouterr()
    return code, out, err.replace(f"{RECORDS}/", "")


def document(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    parsed: dict[str, Any] = json.loads(out)
    return parsed


def test_json_document_has_exactly_the_spec_shape(capsys: pytest.CaptureFixture[str]) -> None:
    doc = document(capsys, *EVENT)
    assert set(doc) == {"standings", "games"}
    assert {tuple(row) for row in doc["standings"]} == {
        ("player", "rank", "tied", "points", "wins", "games", "awards", "ci")
    }
    assert {tuple(game) for game in doc["games"]} == {("file", "points")}
    first = doc["standings"][0]
    assert first == {
        "player": "wu-hui",
        "rank": 1,
        "tied": False,
        "points": "3.0",
        "wins": 2,
        "games": 3,
        "awards": "1.0",
        "ci": "0.0",
    }
    assert [r["rank"] for r in doc["standings"]] == list(range(1, 9))


def test_json_points_are_decimal_strings_and_ci_is_event_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = document(capsys, *EVENT)
    li = next(r for r in doc["standings"] if r["player"] == "li-wei")
    # killed on night 1 in r2 (lost): N = 3, K = 1, B = 1, so Ci = 0.4 on top of 0.2 best guess
    assert (li["points"], li["ci"], li["awards"], li["games"]) == ("0.6", "0.4", "0.2", 3)
    files = [Path(g["file"]).name for g in doc["games"]]
    assert files == EVENT
    r2 = doc["games"][1]["points"]
    assert r2["li-wei"] == "0.2"  # without Ci
    assert r2["wu-hui"] == "2.0" and r2["sun-li"] == "-0.5"
    assert doc["games"][3]["points"] == {}  # in progress: not scored


def test_in_progress_warning_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *EVENT, "--json")
    assert code == 0 and json.loads(out)
    assert err == "warning: r4-live.json: in-progress record skipped (no result to score)\n"


def test_human_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *EVENT)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "4 games (3 scored), profile club-v1, seed 0"
    assert lines[3].split() == [
        "rank",
        "player",
        "points",
        "wins",
        "games",
        "awards",
        "ci",
        "placed",
        "by",
    ]
    assert lines[4].split() == ["1", "wu-hui", "3.0", "2", "3", "1.0", "0.0"]
    assert lines[-1].endswith("liu-yang      0.0     0      3     0.0  0.0  wins: 1 vs 0")


def test_lots_follow_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """Twice the same paper sheet: its two killers are level on everything but lots."""

    def top_two(seed: int) -> list[str]:
        doc = document(capsys, "r3-paper.json", "r3-paper.json", "--seed", str(seed))
        return [r["player"] for r in doc["standings"][:2]]

    orders = {seed: top_two(seed) for seed in range(8)}
    assert {tuple(sorted(o)) for o in orders.values()} == {("chen-jie", "sun-li")}
    assert len({tuple(o) for o in orders.values()}) == 2
    assert top_two(5) == orders[5]
    _, out, _ = run(capsys, "r3-paper.json", "r3-paper.json", "--seed", "3")
    assert "drawing of lots: " in out


def test_invalid_record_is_reported_and_nothing_ranked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "r1.json", "bad-vote.json", "--json")
    assert (code, out) == (1, "")
    assert "bad-vote.json: day 1: seat 2 declared out" in err
    assert "[day.wrong_elimination]" in err
    assert err.endswith("1 of 2 records invalid: no standing computed\n")


def test_series_checks_apply(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "r2.json", "repeat-victim.json")
    assert (code, out) == (1, "")
    assert "repeat-victim.json: series: li-wei (seat 2) is the night-1 victim again" in err
    assert run(capsys, "repeat-victim.json")[0] == 0  # alone it is a valid game


def test_duplicate_keys_make_a_record_invalid(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (RECORDS / "r1.json").read_text()
    doubled = tmp_path / "doubled.json"
    doubled.write_text(
        text.replace('"ruleset": "classic",', '"ruleset": "classic", "ruleset": "classic",')
    )
    code, _, err = run(capsys, str(doubled))
    assert code == 1 and "record.duplicate_key" in err


def test_unreadable_files_exit_2_with_line_and_column(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "r1.json", "broken.json", "missing.json", "bad-vote.json")
    assert (code, out) == (2, "")
    assert "error: broken.json:4:1: not JSON: Expecting value" in err
    assert "error: missing.json: cannot read: No such file or directory" in err
    assert "bad-vote" not in err  # unreadable files are reported before validation


def test_non_utf8_file_is_unreadable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{\n "player": "Mu\xf1oz"}')
    code, _, err = run(capsys, str(latin))
    assert code == 2 and err == f"error: {latin}:2:15: not UTF-8 text\n"


def test_unknown_profile_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        run(capsys, "r1.json", "--profile", "club-v9")
    assert caught.value.code == 2


@pytest.mark.skipif(
    not (Path(standings_cli.__file__).parent / "__main__.py").exists(),
    reason="the engine's command dispatcher (engine/__main__.py) is not there yet",
)
def test_python_dash_m_engine_standings() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "standings", *EVENT, "--json"],
        cwd=RECORDS,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["standings"][0]["player"] == "wu-hui"
