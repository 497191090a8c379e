"""``python -m engine validate`` per spec §5: exit codes, output, --json, --series."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.simulate import simulate_game
from tests.engine.fixtures import HERE, N, game

EXAMPLE = str(HERE / "spec-example.json")


def write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return str(path)


def test_valid_record_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", EXAMPLE]) == 0
    assert capsys.readouterr().out == f"{EXAMPLE}: valid (finished, good on day 2)\n"


def test_invalid_record_exits_1_and_lists_every_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = json.loads(Path(EXAMPLE).read_text())
    bad["log"][3]["ballots"][0]["1"] = 5
    bad["result"]["winner"] = "killers"
    path = write(tmp_path, "bad.json", bad)
    assert main(["validate", EXAMPLE, path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"{path}: INVALID (finished, good on day 2), 2 violation(s)"
    assert out[2] == "  day 2 ballot 1: seat 1 voted but was voted out on day 1 [vote.dead_voter]"
    assert out[3].endswith("[result.wrong_winner]")


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    partial = write(tmp_path, "partial.json", simulate_game("classic", 9, 2, variant="in-progress"))
    sheet = write(tmp_path, "sheet.json", simulate_game("classic", 9, 2, variant="result-only"))
    assert main(["validate", "--json", EXAMPLE, partial, sheet]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert games[0] == {
        "file": EXAMPLE,
        "valid": True,
        "status": "finished",
        "winner": "good",
        "ended": "day 2",
        "violations": [],
    }
    assert (games[1]["status"], games[1]["winner"], games[1]["ended"]) == (
        "in-progress",
        None,
        None,
    )
    assert games[2]["status"] == "result-only" and games[2]["ended"] is None


def test_unreadable_or_not_json_exits_2_naming_file_line_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = write(tmp_path, "broken.json", '{\n  "format": "kgr/1",\n  "seats": [,]\n}')
    assert main(["validate", EXAMPLE, broken]) == 2
    assert capsys.readouterr().err == f"error: {broken}:3:13: not JSON: Expecting value\n"
    missing = str(tmp_path / "missing.json")
    assert main(["validate", missing]) == 2
    assert f"{missing}: cannot read" in capsys.readouterr().err
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{\n "a": "\xe9"}')
    assert main(["validate", str(latin)]) == 2
    assert f"{latin}:2:8: not UTF-8" in capsys.readouterr().err


def test_duplicate_keys_are_violations_not_parse_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        Path(EXAMPLE)
        .read_text()
        .replace('"ruleset": "classic",', '"ruleset": "classic", "ruleset": "classic",')
    )
    assert main(["validate", "--json", write(tmp_path, "dup.json", text)]) == 1
    (entry,) = json.loads(capsys.readouterr().out)["games"]
    assert entry["violations"][0]["code"] == "record.duplicate_key"


def test_series_checks_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 003 §5.8: the same player may not be the night-1 victim in two consecutive games.
    g = game("classic", "KPCCKPCC", N(3), meta={"event": "cup"})
    a, b = write(tmp_path, "a.json", g), write(tmp_path, "b.json", g)
    assert main(["validate", a, b]) == 0
    assert main(["validate", "--series", "--json", a, b]) == 1
    games = json.loads(capsys.readouterr().out.split("\n", 2)[2])["games"]
    assert [x["code"] for x in games[1]["violations"]] == ["series.repeat_night1_victim"]


def test_module_entry_point_and_standings_dispatch() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "validate", EXAMPLE], capture_output=True, text=True
    )
    assert done.returncode == 0 and "valid" in done.stdout
    done = subprocess.run([sys.executable, "-m", "engine"], capture_output=True, text=True)
    assert done.returncode == 2
    done = subprocess.run(
        [sys.executable, "-m", "engine", "standings", "--help"], capture_output=True, text=True
    )
    assert done.returncode in (0, 2)  # 2 until engine/standings_cli.py exists
