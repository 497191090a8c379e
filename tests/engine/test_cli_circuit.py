"""``python -m engine circuit``: the worked example of docs/circuits.md, bad fields (exit
1), unreadable files (exit 2), the table, and once through a real subprocess."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.formats import circuit_cli

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "circuits.md"


def doc_block(marker: str) -> Any:
    """The JSON block that follows ``<!-- marker -->`` in docs/circuits.md."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```json\n(.*?)\n```", text, re.S)
    assert found, marker
    return json.loads(found.group(1))


@pytest.fixture
def example(tmp_path: Path) -> Path:
    path = tmp_path / "circuit.json"
    path.write_text(json.dumps(doc_block("circuit-example")), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    circuit_cli.add_arguments(parser)
    code = circuit_cli.run(parser.parse_args([str(a) for a in argv]))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_worked_example_of_the_docs(capsys: pytest.CaptureFixture[str], example: Path) -> None:
    code, out, err = run(capsys, example, "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == doc_block("circuit-example-result")


def test_the_docs_sentences_are_the_engines(example: Path) -> None:
    from engine.formats.circuit import compute_circuit, parse_circuit

    standing = compute_circuit(*parse_circuit(json.loads(example.read_text(encoding="utf-8"))))
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert str(standing.explain("chen-jie", "wang").message) in text
    assert str(standing.explain("sun", "li-wei").message) in text
    dropped = standing.line("li-wei").results[1]
    assert str(standing.result_message(dropped)) in text


def test_the_table_says_what_counted_and_what_placed_each_line(
    capsys: pytest.CaptureFixture[str], example: Path
) -> None:
    code, out, _ = run(capsys, example)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "5 players, best 2 events count, ranked from 2 event(s), seed 3"
    assert lines[2].split() == [
        "rank",
        "player",
        "points",
        "events",
        "counted",
        "dropped",
        "placed",
        "by",
    ]
    assert lines[3].split() == [
        "1",
        "wang",
        "328.5",
        "3",
        "Spring",
        "Cup,",
        "Summer",
        "Open",
        "Club",
        "Night",
        "1",
    ]
    assert lines[4].endswith("points: 328.5 vs 324.0")
    assert lines[6].startswith(" (4)  sun")
    assert lines[6].endswith("unranked: 1 of 2 events")
    assert lines[-1] == "(n): unranked, fewer than 2 events"


def test_a_circuit_counting_every_event(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = doc_block("circuit-example")
    doc["profile"]["best"] = None
    path = tmp_path / "all.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run(capsys, path, "--json")
    assert code == 0
    top = json.loads(out)["standings"][0]  # chen-jie 144 + 50 + 180 over wang 361
    assert (top["player"], top["points"], top["dropped"]) == ("chen-jie", "374.0", [])
    code, out, _ = run(capsys, path)
    assert out.startswith("5 players, all events count")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda d: d.update(format="kgc/9"),
            'needs "format": "kgc/1", got \'kgc/9\' [circuit.document]',
        ),
        (lambda d: d["profile"].update(best=0), "circuit profile: best too small"),
        (lambda d: d["profile"]["places"].append(0.5), "places[4] must be decimal numbers"),
        (
            lambda d: d["events"][0].update(category="major"),
            "event 'Spring Cup': unknown category 'major'",
        ),
        (
            lambda d: d["events"][1]["ranks"].append({"player": "wang", "rank": 4}),
            "event 'Club Night 1': player 'wang' is ranked twice [circuit.player_twice]",
        ),
        (
            lambda d: d["events"][2].update(players=3),
            "event 'Summer Open': 4 players ranked but only 3 played",
        ),
        (lambda d: d["events"].append(dict(d["events"][0])), "two events are named 'Spring Cup'"),
        (lambda d: d["events"][0]["ranks"][0].update(rank=0), "has rank 0; ranks start at 1"),
        (
            lambda d: d["events"][0]["ranks"][0].pop("player"),
            "events[0].ranks[0].player is missing",
        ),
    ],
)
def test_a_bad_field_exits_1_with_the_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: Any, reason: str
) -> None:
    doc = doc_block("circuit-example")
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run(capsys, path, "--json")
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {path}: ")
    assert reason in err


@pytest.mark.parametrize("content", [b"{", b"\xff\xfe", b"[" * 100_000])
def test_not_json_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    code, out, err = run(capsys, path)
    assert (code, out) == (2, "")
    assert "cannot read a JSON document" in err


def test_a_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, tmp_path / "nowhere.json")
    assert code == 2 and "nowhere.json" in err


def test_json_that_is_not_a_circuit_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "list.json"
    path.write_text("[]", encoding="utf-8")
    code, _, err = run(capsys, path)
    assert code == 1 and "$ must be a JSON object" in err


def test_through_python_dash_m(example: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "circuit", str(example), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == doc_block("circuit-example-result")
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "circuit", str(example.parent / "nowhere.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
