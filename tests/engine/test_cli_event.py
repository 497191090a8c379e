"""``python -m engine event`` on real KGR/1 files: the spec's JSON shape, the table, and
exit 1 (invalid record, player outside the cut, bad field) and 2 (unreadable)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from engine.formats import event_cli
from engine.formats.stages import FormatError
from engine.record import load_file

EVENTS = Path(__file__).parent / "fixtures" / "events"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    event_cli.add_arguments(parser)
    args = parser.parse_args([str(EVENTS / a) if a.endswith(".json") else a for a in argv])
    code = event_cli.run(args)
    out, err = capsys.readouterr()
    return code, out, err.replace(f"{EVENTS}/", "")


def document(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, _ = run(capsys, "event.json", "--json")
    assert code == 0
    parsed: dict[str, Any] = json.loads(out)
    return parsed


def test_json_document_has_exactly_the_spec_shape(capsys: pytest.CaptureFixture[str]) -> None:
    doc = document(capsys)
    assert set(doc) == {"standings", "stages"}
    assert {tuple(r) for r in doc["standings"]} == {
        ("player", "rank", "tied", "points", "last_stage", "stages")
    }
    assert [tuple(s) for s in doc["stages"]] == [("name", "entrants", "standings")] * 2
    for stage in doc["stages"]:
        assert {tuple(r) for r in stage["standings"]} == {("player", "rank", "tied", "points")}
    assert [s["name"] for s in doc["stages"]] == ["qualifying", "final"]
    assert len(doc["stages"][0]["entrants"]) == 10 and len(doc["stages"][1]["entrants"]) == 8
    cut = [r["player"] for r in doc["stages"][0]["standings"]][:8]
    assert doc["stages"][1]["entrants"] == cut


def test_final_order_and_points_follow_multiplier_and_carry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = document(capsys)
    final = doc["standings"]
    assert [r["rank"] for r in final] == list(range(1, 11))
    assert [r["last_stage"] for r in final] == ["final"] * 8 + ["qualifying"] * 2
    qualifying = {r["player"]: Decimal(r["points"]) for r in doc["stages"][0]["standings"]}
    for row in final:
        assert all(isinstance(v, str) for v in row["stages"].values())
        if row["last_stage"] == "final":
            stage = Decimal(row["stages"]["final"])
            assert Decimal(row["points"]) == Decimal("0.5") * qualifying[row["player"]] + stage
        else:
            assert set(row["stages"]) == {"qualifying"}
            assert Decimal(row["points"]) == qualifying[row["player"]]
    assert [r["player"] for r in final[:8]] == [r["player"] for r in doc["stages"][1]["standings"]]


def test_table_names_each_stage_and_the_final_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "event.json")
    assert code == 0 and err == ""
    assert "stage 1: qualifying" in out and "stage 2: final" in out
    assert '{"top": 8}' in out and "× 1.5" in out and "carry 0.5" in out
    assert "final order" in out and "drawing of lots" in out


def test_a_player_outside_the_cut_exits_1_naming_player_stage_and_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "outsider-event.json", "--json")
    assert code == 1 and out == ""
    assert "formats.not_entitled" in err and "f/outsider.json" in err and "final" in err
    outsider = {s["player"] for s in load_file(EVENTS / "f" / "outsider.json")["seats"]}
    cut = {"p07", "p04"}  # the two the qualifying left out (seed 7)
    assert outsider & cut and any(p in err for p in outsider & cut)


@pytest.mark.parametrize(
    ("event", "needle"),
    [
        ("bad-field-event.json", "formats.multiplier"),
        ("invalid-record-event.json", "records invalid"),
    ],
)
def test_invalid_input_exits_1(capsys: pytest.CaptureFixture[str], event: str, needle: str) -> None:
    code, out, err = run(capsys, event)
    assert code == 1 and out == "" and needle in err


@pytest.mark.parametrize("event", ["broken-event.json", "missing-game-event.json", "none.json"])
def test_unreadable_files_exit_2(capsys: pytest.CaptureFixture[str], event: str) -> None:
    code, out, err = run(capsys, event)
    assert code == 2 and out == "" and err.startswith("error: ")


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "formats.event_type"),
        ({"format": "kge/2", "stages": []}, "formats.event_format"),
        ({"format": "kge/1", "stages": [], "extra": 1}, "formats.event_keys"),
        ({"format": "kge/1", "seed": "7", "stages": [{"name": "a", "games": []}]}, "formats.seed"),
        ({"format": "kge/1", "stages": []}, "formats.stages_type"),
        ({"format": "kge/1", "stages": [{"name": "a", "games": "g.json"}]}, "formats.games"),
        (
            {"format": "kge/1", "profile": "x", "stages": [{"name": "a", "games": []}]},
            "formats.event_profile",
        ),
        (
            {"format": "kge/1", "precedence": "points", "stages": [{"name": "a", "games": []}]},
            "formats.precedence_type",
        ),
    ],
)
def test_event_document_fields_are_checked(data: object, code: str) -> None:
    with pytest.raises(FormatError) as caught:
        event_cli.parse_event(data)
    assert caught.value.code == code


def test_python_dash_m_engine_event_dispatches() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "event", str(EVENTS / "event.json"), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["standings"][0]["rank"] == 1
