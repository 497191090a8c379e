"""Real engine messages for every violation code the engine can emit.

Drives the engine (no Django): random legal games with one planted mistake each (the
engine tests' mutation catalogue), a fuzzer that feeds random events to a live
:class:`GameState` in lenient mode, broken JSON and broken record shapes, bad rulesets,
awards and a series. ``emitted_codes()`` reads the codes straight from the engine's
source, so a new code without a message here fails the i18n tests.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

from engine.record import Ballot, LastWordsEntry, Role, Seat, Violation, Winner, read_record
from engine.rulesets import RULESETS, RulesetError, get_ruleset
from engine.simulate import simulate_game
from engine.state import (
    Eject,
    Eliminate,
    Ending,
    Event,
    GameState,
    Lot,
    NightAction,
    Surrender,
    Tie,
)
from engine.validate import validate, validate_series
from tests.engine.fixtures.mutations import CATALOGUE

ENGINE = Path(__file__).resolve().parents[2] / "engine"
_CODE = re.compile(
    r"(?:Violation|\.bad|RulesetError|_unknown)\(\s*\"([a-z0-9_]+\.[a-z0-9_]+)\"", re.MULTILINE
)


def emitted_codes() -> set[str]:
    """Every code literal the engine passes to Violation / bad / RulesetError."""
    codes: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        codes |= set(_CODE.findall(path.read_text()))
    return codes


def _mutations(rng: random.Random) -> list[Violation]:
    found: list[Violation] = []
    for ruleset in RULESETS:
        lo, hi = RULESETS[ruleset].players
        for seed in range(6):
            base = simulate_game(ruleset, rng.randint(lo, hi), seed)
            for mutate in CATALOGUE.values():
                record = copy.deepcopy(base)
                if mutate(record, random.Random(seed)) is not None:
                    found += validate(record).violations
    return found


def _random_event(rng: random.Random, n: int) -> Event:
    def seat() -> int:
        return int(rng.choice([*range(1, n + 1), *range(1, n + 1), 0, n + 3]))

    def maybe() -> int | None:
        return None if rng.random() < 0.2 else seat()

    kind = rng.randrange(8)
    if kind == 0:
        return NightAction(maybe(), maybe())
    if kind == 1:
        return Eject(seat())
    if kind == 2:
        return Surrender(seat())
    if kind == 3:
        return Lot(seat())
    if kind == 4:
        return Eliminate(maybe())
    if kind == 5:
        return LastWordsEntry(seat(), tuple(seat() for _ in range(rng.randrange(5))))
    voters = list(range(1, n + 1)) + [seat() for _ in range(rng.randrange(2))]
    rng.shuffle(voters)
    votes = [(v, maybe()) for v in voters if rng.random() < 0.95]
    return Ballot(tuple(votes))


def _fuzz(rng: random.Random) -> list[Violation]:
    found: list[Violation] = []
    for ruleset in RULESETS:
        rules = RULESETS[ruleset]
        for n in sorted(rules.table_sizes)[:3]:
            counts = rules.role_counts(n)
            assert counts is not None
            cards = ["killer"] * counts[0] + ["police"] * counts[1] + ["civilian"] * counts[2]
            for _ in range(60):
                rng.shuffle(cards)
                seats = [Seat(i, f"p{i}", Role(r)) for i, r in enumerate(cards, 1)]
                state = GameState(rules, seats)
                for _ in range(40):
                    found += state.step(_random_event(rng, n), strict=False)
                found += state.close_day()
                for winner in (None, *Winner):
                    found += state.judge_result(winner)
    return found


def _records(rng: random.Random) -> list[Violation]:
    found: list[Violation] = []
    good = simulate_game("classic", 12, 1)
    for text in ("{", "[1, 2", '{"a": 1,}', "nul", "1e999999"):
        found += read_record(text)[1]
    found += read_record(json.dumps(good) + ' {"x": 1}')[1]
    found += read_record('{"format": "KGR/1", "format": "KGR/1"}')[1]
    for breaker in _BREAKERS:
        record = copy.deepcopy(good)
        breaker(record)
        found += read_record(record)[1]
        found += validate(record).violations
    values: tuple[Any, ...] = (None, 3, "x", [], True, 1.5)
    for value in values:
        found += read_record(value)[1]
    return found


def _set(path: str, value: Any) -> Any:
    def apply(record: dict[str, Any]) -> None:
        target: Any = record
        keys = path.split(".")
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        elif value is _DELETE:
            del target[last]
        else:
            target[last] = value

    return apply


_DELETE = object()
_BREAKERS = [
    _set("format", "KGR/2"),
    _set("format", 2),
    _set("ruleset", 7),
    _set("ruleset", "nonesuch"),
    _set("ruleset", {"base": 1, "overrides": []}),
    _set("ruleset", {"base": "classic"}),
    _set("ruleset", {"base": "classic", "overrides": {"colour": 1}}),
    _set("ruleset", {"base": "classic", "overrides": {"ballot": "loudest"}}),
    _set("ruleset", {"base": "classic", "overrides": {"players": [9, 3]}}),
    _set("ruleset", {"base": "classic", "overrides": {"players": "x"}}),
    _set("ruleset", {"base": "classic", "overrides": {"roles": {"8": [1]}}}),
    _set("ruleset", {"base": "classic", "overrides": {"abstain": 3}}),
    _set("ruleset", {"base": "classic", "overrides": {"surrender": 3}}),
    _set("ruleset", {"base": "classic", "overrides": {"final_tie": None}}),
    _set("ruleset", {"base": "mainstream", "overrides": {"ballot": "majority"}}),
    _set("ruleset", {"base": "classic", "overrides": {"roles": {"20": [2, 2]}}}),
    _set("seats", []),
    _set("seats", "x"),
    _set("seats.0", 5),
    _set("seats.0.seat", 0),
    _set("seats.0.seat", None),
    _set("seats.0.seat", 40),
    _set("seats.0.role", "wolf"),
    _set("seats.0.player", ""),
    _set("seats.1.player", "p1x"),
    _set("seats.0.extra", 1),
    _set("seats.0.role", _DELETE),
    _set("log", "x"),
    _set("log.0", 3),
    _set("log.0.phase", "dusk"),
    _set("log.0.kill", "three"),
    _set("log.1.eject", "x"),
    _set("log.1.ballots", {}),
    _set("log.1.ballots.0", []),
    _set("log.1.ballots.0.x", 2),
    _set("log.1.last_words", {}),
    _set("log.1.last_words.0", 4),
    _set("meta", []),
    _set("meta", {"event": 3}),
    _set("awards", {}),
    _set("awards", [{"seat": 1, "kind": "medal"}]),
    _set("awards", [{"seat": 1, "kind": "bonus", "points": "x", "reason": 3}]),
    _set("awards", [{"seat": 1, "kind": "bonus", "points": None, "reason": None}]),
    _set("awards", [{"seat": 30, "kind": "warning", "points": 2}]),
    _set("awards", [{"seat": 2, "kind": "bonus"}, {"seat": 3, "kind": "penalty", "points": -1}]),
    _set("result", {"winner": "nobody"}),
    _set("result", 3),
]


def _duplicates() -> list[Violation]:
    text = (
        '{"format": "KGR/1", "ruleset": {"base": "classic", "overrides": {"surrender": true, '
        '"surrender": false}}, "seats": [{"seat": 1, "seat": 1, "player": "a", "role": "killer"}]}'
    )
    found = read_record(text)[1]
    good = simulate_game("classic", 8, 2)
    ballot = json.dumps(good["log"][1]["ballots"][0])
    voter = next(iter(good["log"][1]["ballots"][0]))
    twice = ballot[:-1] + f', "{voter}": null}}'
    found += read_record(json.dumps(good).replace(ballot, twice, 1))[1]
    bad_voter = copy.deepcopy(good)
    bad_voter["log"][1]["ballots"][0]["x"] = 1
    found += read_record(bad_voter)[1]
    return found


def _rulesets() -> list[Violation]:
    found: list[Violation] = []
    specs: list[Any] = [
        "nonesuch",
        3,
        {"base": "classic"},
        {"base": 3, "overrides": {}},
        {"base": "classic", "overrides": []},
        {"base": "classic", "overrides": {}, "x": 1},
        {"base": "classic", "overrides": {"x": 1}},
    ]
    for spec in specs:
        try:
            get_ruleset(spec)
        except RulesetError as e:
            found.append(Violation(e.code, "ruleset", e.params))
    return found


def _series() -> list[Violation]:
    games = []
    for seed in range(80):
        rec = simulate_game("classic", 8, seed, players=[f"p{i}" for i in range(8)])
        rec["meta"] = {"event": "e"}
        games.append(rec)
    return [v for verdict in validate_series(games) for v in verdict.violations]


def _by_hand() -> list[Violation]:
    """Shapes the random sources rarely reach: the lot ladder, odd set-ups."""
    found: list[Violation] = []
    rules = get_ruleset({"base": "mainstream", "overrides": {"final_tie": "lot"}})
    cards = ["killer", "police", "civilian", "civilian", "killer", "police", "civilian", "civilian"]
    state = GameState(rules, [Seat(i, f"p{i}", Role(r)) for i, r in enumerate(cards, 1)])
    state.step(NightAction(None, None), strict=False)
    tie = Ballot(((1, 3), (2, 1), (3, 1), (4, 1), (5, 3), (6, 1), (7, 3), (8, 3)))
    for _ in range(3):
        state.step(tie, strict=False)
    found += state.close_day()
    found += state.step(Lot(5), strict=False)
    found += state.step(Lot(1), strict=False)
    good = simulate_game("classic", 8, 4)
    few = copy.deepcopy(good)
    few["seats"] = few["seats"][:5]
    del few["log"], few["result"]
    found += validate(few).violations
    twice = copy.deepcopy(good)
    twice["seats"][1]["player"] = twice["seats"][0]["player"]
    found += validate(twice).violations
    drawn = copy.deepcopy(good)  # a draw the classic rules cannot give
    del drawn["log"]
    drawn["result"] = {"winner": "draw"}
    found += validate(drawn).violations
    return found


def corpus(seed: int = 7) -> list[Violation]:
    """Engine violations covering every code (and, for most codes, every message shape)."""
    rng = random.Random(seed)
    return (
        _mutations(rng)
        + _fuzz(rng)
        + _records(rng)
        + _duplicates()
        + _rulesets()
        + _series()
        + _by_hand()
    )


def sheet_texts(seed: int = 3) -> tuple[set[Tie], set[Ending]]:
    """Every tie and end of game (reason and params) the engine produces in simulated games."""
    ties: set[Tie] = set()
    reasons: set[Ending] = set()
    rng = random.Random(seed)
    for ruleset in RULESETS:
        rules = get_ruleset(ruleset)
        for n in sorted(rules.table_sizes):
            counts = rules.role_counts(n)
            assert counts is not None
            cards = ["killer"] * counts[0] + ["police"] * counts[1] + ["civilian"] * counts[2]
            for _ in range(25):
                rng.shuffle(cards)
                state = GameState(
                    rules, [Seat(i, f"p{i}", Role(r)) for i, r in enumerate(cards, 1)]
                )
                for _ in range(200):
                    if state.over:
                        break
                    e = state.expected()
                    if e.tie:
                        ties.add(e.tie)
                    event = _legal_event(rng, state)
                    state.step(event, strict=False)
                if state.ending:
                    reasons.add(state.ending)
    return ties, reasons


def _legal_event(rng: random.Random, state: GameState) -> Event:
    e = state.expected()
    alive = sorted(e.alive)
    step = str(e.step)
    if step == "night":
        checks = sorted(e.check_targets)
        return NightAction(rng.choice(alive), rng.choice(checks) if checks else None)
    if step in ("day", "ballot"):
        if step == "day" and e.may_surrender and rng.random() < 0.1:
            return Surrender(rng.choice(sorted(e.may_surrender)))
        candidates = sorted(e.candidates)
        votes = []
        for v in sorted(e.voters):
            targets = [c for c in candidates if c != v][:2] or [c for c in candidates if c != v]
            votes.append((v, rng.choice(targets) if targets else None))
        return Ballot(tuple(votes))
    if step == "lot":
        return Lot(rng.choice(sorted(e.lot_candidates)))
    return Eliminate(e.eliminated)
