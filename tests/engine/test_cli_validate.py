"""``python -m engine validate`` per spec §5: exit codes, output, --json, --series."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import build_parser, json_game_writer, main, quick_args
from engine.messages import CATALOGUE, PARAMS, placeholders
from engine.record import UnreadableFile, Violation, load_file
from engine.simulate import simulate_game
from engine.validate import Outcome, Status, Verdict, validate, validate_series
from tests.engine.fixtures import HERE, N, game
from tests.engine.fixtures.mutations import CATALOGUE as MUTATIONS

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


# --- issue #16: params in --json, the fast CLI path judges exactly as load_file + validate ---

PHASE = re.compile(r"(night|day) [1-9][0-9]*( ballot [1-9][0-9]*)?")
DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def _ints(v: object) -> bool:
    return isinstance(v, list) and all(type(x) is int for x in v)


def _strs(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


# What a parameter of each kind looks like once it went through the CLI's JSON.
FITS: dict[str, Callable[[object], bool]] = {
    "int": lambda v: type(v) is int,
    "seat": lambda v: type(v) is int and v >= 1,
    "seats": _ints,
    "ints": _ints,
    "phase": lambda v: isinstance(v, str) and PHASE.fullmatch(v) is not None,
    "text": lambda v: isinstance(v, str),
    "texts": _strs,
    "word": lambda v: isinstance(v, str) and v != "",
    "words": _strs,
    "decimal": lambda v: isinstance(v, str) and DECIMAL.fullmatch(v) is not None,
}


def plain_json(v: object) -> bool:
    if v is None or isinstance(v, bool | int | str):
        return True
    return isinstance(v, list) and all(type(x) is int or isinstance(x, str) for x in v)


def check_violation(x: dict[str, Any]) -> None:
    """A violation of the --json document: its four keys, params plain JSON of their kinds."""
    assert list(x) == ["code", "where", "params", "message"]
    assert isinstance(x["params"], dict)
    for name, value in x["params"].items():
        assert plain_json(value), (x["code"], name, value)
        kind = PARAMS.get(name)
        if kind is not None and value is not None:
            assert FITS[kind](value), (x["code"], name, kind, value)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def reference(files: list[str], series: bool, as_json: bool) -> tuple[int, str, Any]:
    """What validate printed before issue #16's CLI work, from the same engine: every file
    through load_file, then validate (or validate_series) of the values.
    Returns (exit code, stderr, the games as JSON values or the plain report)."""
    values, problems = [], []
    for path in files:
        try:
            values.append(load_file(path))
        except UnreadableFile as e:
            problems.append(str(e))
    if problems:
        return 2, "".join(f"error: {p}\n" for p in problems), None
    verdicts = validate_series(values) if series else [validate(v) for v in values]
    code = 0 if all(v.valid for v in verdicts) else 1
    if as_json:
        games = [
            {
                "file": path,
                "valid": v.valid,
                "status": v.status.value,
                "winner": v.winner.value if v.winner else None,
                "ended": v.ended,
                "violations": [x.as_dict() for x in v.violations],
            }
            for path, v in zip(files, verdicts, strict=True)
        ]
        return code, "", json.loads(json.dumps(games, ensure_ascii=False))
    lines = []
    for path, v in zip(files, verdicts, strict=True):
        summary = v.status.value
        if v.winner:
            summary += f", {v.winner.value}" + (f" on {v.ended}" if v.ended else "")
        if v.valid:
            lines.append(f"{path}: valid ({summary})\n")
        else:
            lines.append(f"{path}: INVALID ({summary}), {len(v.violations)} violation(s)\n")
            for x in v.violations:
                place = "" if x.message.startswith(x.where) else f"{x.where}: "
                lines.append(f"  {place}{x.message} [{x.code}]\n")
    return code, "", "".join(lines)


def test_json_violations_carry_params_seats_as_ints_phases_as_strings(tmp_path: Path) -> None:
    bad = json.loads(Path(EXAMPLE).read_text())
    bad["log"][3]["ballots"][0]["1"] = 5  # seat 1, voted out on day 1, votes on day 2
    code, out, _ = run(["validate", "--json", write(tmp_path, "bad.json", bad)])
    assert code == 1
    (entry,) = json.loads(out)["games"]
    (x,) = entry["violations"]
    check_violation(x)
    assert x["code"] == "vote.dead_voter" and x["where"] == "day 2 ballot 1"
    params = x["params"]
    assert any(PARAMS.get(k) == "seat" and v == 1 for k, v in params.items()), params
    assert x["message"].endswith("seat 1 voted but was voted out on day 1")


def test_json_params_of_every_mutation_are_plain_json_of_their_kind(tmp_path: Path) -> None:
    files, rng = [], random.Random(16)
    for i, (name, mutate) in enumerate(sorted(MUTATIONS.items())):
        for seed in range(4):
            record = simulate_game(("classic", "mainstream", "civilian-draw")[seed % 3], 12, seed)
            if mutate(record, rng) is not None:
                files.append(write(tmp_path, f"{i}-{name}-{seed}.json", record))
    code, out, _ = run(["validate", "--json", *files])
    assert code == 1
    violations = [x for g in json.loads(out)["games"] for x in g["violations"]]
    assert len(violations) >= len(files)
    for x in violations:
        check_violation(x)
    assert reference(files, False, True)[2] == json.loads(out)["games"]


@pytest.mark.skipif(not CATALOGUE, reason="the catalogue is empty")
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_json_writer_keeps_every_catalogue_key_params(data: st.DataObject) -> None:
    """Any violation of the catalogue, with any params of the kinds it names, comes out
    of the --json writer with the same params (tuples as lists) and its message."""
    samples: dict[str, st.SearchStrategy[Any]] = {
        "int": st.integers(0, 40),
        "seat": st.integers(1, 16),
        "seats": st.lists(st.integers(1, 16), max_size=5).map(tuple),
        "ints": st.lists(st.integers(0, 99), max_size=5),
        "phase": st.sampled_from(["night 1", "day 2", "day 3 ballot 2"]),
        "text": st.text(max_size=12),
        "texts": st.lists(st.text(max_size=6), max_size=3),
        "word": st.sampled_from(["killer", "good", "list"]),
        "words": st.lists(st.sampled_from(["bonus", "draw"]), max_size=3),
        "decimal": st.sampled_from(["1", "0.5", "-1.5"]),
    }
    key = data.draw(st.sampled_from(sorted(CATALOGUE)))
    code, _, variant = key.partition("/")
    params: dict[str, Any] = {"variant": variant} if variant else {}
    for name in placeholders(CATALOGUE[key]):
        params[name] = data.draw(samples[PARAMS[name]])
    violation = Violation(code, data.draw(st.sampled_from(["setup", "day 2", "result"])), params)
    verdict = Verdict(False, Status.FINISHED, (violation,), Outcome())
    line = json_game_writer()('é/a "b".json', verdict)
    game = json.loads(line)
    assert game["file"] == 'é/a "b".json' and game["valid"] is False
    (x,) = game["violations"]
    assert x == json.loads(json.dumps(violation.as_dict()))
    assert x["params"] == json.loads(json.dumps(params))
    assert x["message"] == violation.message


def test_many_files_one_game_a_line_written_once(tmp_path: Path) -> None:
    files = [
        write(tmp_path, f"g{i:03}.json", simulate_game(("classic", "mainstream")[i % 2], 12, i))
        for i in range(300)
    ]
    writes: list[str] = []

    class Counting(io.StringIO):
        def write(self, s: str) -> int:
            writes.append(s)
            return super().write(s)

    with contextlib.redirect_stdout(Counting()):
        assert main(["validate", "--json", *files]) == 0
    assert len(writes) == 1  # the document is built in memory and written once
    lines = writes[0].split("\n")
    assert lines[0] == '{"games": [' and lines[-2:] == ["]}", ""]
    games = [json.loads(line.removesuffix(",")) for line in lines[1:-2]]
    assert [g["file"] for g in games] == files
    assert all(g["valid"] and g["status"] == "finished" and g["ended"] for g in games)
    assert json.loads(writes[0]) == {"games": games}


def test_unreadable_files_exit_2_each_named_in_order_nothing_on_stdout(tmp_path: Path) -> None:
    good = write(tmp_path, "good.json", simulate_game("classic", 12, 1))
    broken = write(tmp_path, "broken.json", '{"format": "kgr/1",\n "seats": [}')
    nan = write(tmp_path, "nan.json", '{"format": NaN}')
    missing = str(tmp_path / "missing.json")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"a":\n "\xe9"}')
    files = [good, broken, missing, good, str(latin), nan]
    for flags in ([], ["--json"], ["--series"], ["--json", "--series"]):
        code, out, err = run(["validate", *flags, *files])
        assert (code, out) == (2, "")
        assert err == reference(files, "--series" in flags, False)[1]
        assert err.splitlines() == [
            f"error: {broken}:2:12: not JSON: Expecting value",
            f"error: {missing}: cannot read: No such file or directory",
            f"error: {latin}:2:3: not UTF-8 text",
            f"error: {nan}:1:12: not JSON: NaN is not a JSON number",
        ]
    directory = str(tmp_path)
    assert run(["validate", directory])[:2] == (2, "")


def test_byte_order_mark_and_form_broken_records_judged_as_from_load_file(
    tmp_path: Path,
) -> None:
    record = simulate_game("classic", 12, 3)
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(record).encode())
    no_seats = {k: v for k, v in record.items() if k != "seats"}  # too broken to read
    files = [str(bom), write(tmp_path, "no-seats.json", no_seats), write(tmp_path, "x.json", [])]
    code, out, _ = run(["validate", "--json", *files])
    games = json.loads(out)["games"]
    assert (code, games) == (1, reference(files, False, True)[2])
    assert games[0]["valid"] and games[1]["status"] == "finished"  # not "in-progress"


def _player_03_as(text: str, raw: bytes) -> bytes:
    return text.encode().replace(b"player-03", raw, 1)


# Text edits that each break a record file in its own way (or not at all).
EDITS: dict[str, Callable[[str], bytes]] = {
    "plain": lambda t: t.encode(),
    "byte-order mark": lambda t: b"\xef\xbb\xbf" + t.encode(),
    "duplicate key": lambda t: t.replace(
        '"format": "kgr/1"', '"format": "kgr/1", "format": 1', 1
    ).encode(),
    "duplicate nested key": lambda t: t.replace('"seat": 2,', '"seat": 2, "seat": 2,', 1).encode(),
    "escaped colon": lambda t: t.replace('"player-01"', '"a\\u003ab"', 1).encode(),
    "colon in a name": lambda t: t.replace('"player-02"', '"a:b"', 1).encode(),
    "truncated": lambda t: t[: len(t) // 2].encode(),
    "NaN": lambda t: t.replace('"seat": 1', '"seat": NaN', 1).encode(),
    "not UTF-8": lambda t: _player_03_as(t, b"\xff"),
    "surrogate": lambda t: _player_03_as(t, b"\xed\xa0\x80"),  # UTF-8 refuses surrogates
    "no seats": lambda t: json.dumps(
        {k: v for k, v in json.loads(t).items() if k != "seats"}
    ).encode(),
    "a list": lambda t: f"[{t}]".encode(),
    "deep": lambda t: ("[" * 100_000 + "]" * 100_000).encode(),
}


@st.composite
def record_files(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    out = []
    for i in range(draw(st.integers(1, 5))):
        ruleset = draw(st.sampled_from(["classic", "mainstream", "civilian-draw"]))
        variant = draw(st.sampled_from(["finished", "finished", "in-progress", "result-only"]))
        seed = draw(st.integers(0, 40))
        record = simulate_game(ruleset, 12, seed, variant=variant, meta={"event": "cup"})
        mutation = draw(st.sampled_from([None, *sorted(MUTATIONS)]))
        if mutation is not None and variant == "finished":
            MUTATIONS[mutation](record, random.Random(seed))
        text = json.dumps(record, ensure_ascii=False, indent=draw(st.sampled_from([None, 2])))
        edit = draw(st.sampled_from(sorted(EDITS)))
        if edit != "plain" and draw(st.booleans()):
            edit = "plain"  # most files readable, so that most examples get past reading
        out.append((f"{i}-{edit}.json", EDITS[edit](text)))
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=record_files(), flags=st.sampled_from([(), ("--json",), ("--series", "--json")]))
def test_cli_judges_exactly_as_load_file_then_validate(
    files: list[tuple[str, bytes]], flags: tuple[str, ...]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, data in files:
            path = Path(tmp) / name
            path.write_bytes(data)
            paths.append(str(path))
        code, out, err = run(["validate", *flags, *paths])
        want_code, want_err, want = reference(paths, "--series" in flags, "--json" in flags)
    assert (code, err) == (want_code, want_err)
    if code == 2:
        assert out == ""
    elif "--json" in flags:
        assert json.loads(out)["games"] == want
        for game in want:
            for x in game["violations"]:
                check_violation(x)
    else:
        assert out == want


TOKENS = ["--json", "--series", "a.json", "b c.json", "", "-", "--", "-x", "--js", "-h", "validate"]


@settings(max_examples=400)
@given(argv=st.lists(st.sampled_from(TOKENS), max_size=6))
def test_quick_arguments_are_argparse_s_or_none(argv: list[str]) -> None:
    """validate's usual command lines are read without argparse, as argparse reads them."""
    args = ["validate", *argv]
    quick = quick_args(args)
    if quick is None:
        return
    parsed, extra = build_parser().parse_known_args(args)
    assert not extra
    assert (quick.files, quick.json, quick.series) == (parsed.files, parsed.json, parsed.series)


def test_quick_arguments_take_the_usual_command_lines() -> None:
    for argv in (
        ["validate", "a"],
        ["validate", "--json", "a", "b"],
        ["validate", "a", "--series"],
    ):
        assert quick_args(argv) is not None
    for argv in (["validate"], ["validate", "a", "--json", "b"], ["validate", "-h"], ["standings"]):
        assert quick_args(argv) is None


def test_validate_starts_without_what_it_does_not_use() -> None:
    script = (
        "import sys\n"
        "from engine.cli import main\n"
        f"code = main(['validate', '--json', {EXAMPLE!r}])\n"
        "print(code, sorted(m for m in sys.modules if m.startswith(('engine', 'argparse', "
        "'numpy', 'scipy'))), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    code, _, loaded = done.stderr.partition(" ")
    assert code == "0", done.stderr
    for module in (
        "argparse",
        "numpy",
        "scipy",
        "engine.simulate",
        "engine.scoring",
        "engine.standings",
        "engine.standings_cli",
        "engine.ratings",
        "engine.seating",
        "engine.referees",
    ):
        assert f"'{module}'" not in loaded, module
