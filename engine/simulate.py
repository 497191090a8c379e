"""Random legal games of any ruleset and table size, as KGR/1 records.

The simulator plays through :class:`engine.state.GameState`, choosing among what
``expected()`` allows, so every game it writes is legal by construction; the tests and
the benchmark feed its records back to the validator. Votes gather on a few favourites
so that ties, tie-breaks, off-site PKs and final ties all occur often.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.errors import EngineError
from engine.record import Ballot, LastWordsEntry, Role, Seat, dump_record
from engine.rulesets import RULESETS, Ruleset, get_ruleset
from engine.state import Eject, Eliminate, Event, GameState, Lot, NightAction, Step, Surrender


class Variant(StrEnum):
    """How much of the game the record keeps."""

    FINISHED = "finished"
    IN_PROGRESS = "in-progress"
    RESULT_ONLY = "result-only"


@dataclass(frozen=True, slots=True)
class SimOptions:
    """Probabilities of the rarer events; the defaults make every branch common in tests."""

    no_kill: float = 0.05
    self_kill: float = 0.05
    no_check: float = 0.1
    eject: float = 0.05
    surrender: float = 0.3
    abstain: float = 0.1
    last_words: float = 0.8
    favourites: int = 2  # how many players the votes gather on
    loyalty: float = 0.8  # chance a vote goes to a favourite


def _ballot(
    rng: random.Random,
    voters: Sequence[int],
    candidates: Sequence[int],
    abstain: bool,
    opt: SimOptions,
) -> Ballot:
    favourites = rng.sample(candidates, min(opt.favourites, len(candidates)))
    votes: list[tuple[int, int | None]] = []
    for voter in voters:
        if abstain and rng.random() < opt.abstain:
            votes.append((voter, None))
            continue
        pool = [c for c in favourites if c != voter]
        if not pool or rng.random() >= opt.loyalty:
            pool = [c for c in candidates if c != voter]
        votes.append((voter, rng.choice(pool)))
    return Ballot(tuple(votes))


def _next_event(
    state: GameState, rng: random.Random, opt: SimOptions, declined: set[int]
) -> Event | None:
    e = state.expected()
    speakers = sorted(e.last_words - declined)
    if speakers:
        seat = speakers[0]
        if rng.random() < opt.last_words:
            others = [s for s in range(1, state.n + 1) if s != seat]
            k = rng.randint(0, min(state.dealt[Role.KILLER], len(others)))
            return LastWordsEntry(seat, tuple(rng.sample(others, k)))
        declined.add(seat)
    if e.step is Step.OVER:
        return None
    if e.step is Step.NIGHT:
        alive = sorted(e.alive)
        kill: int | None = None
        if rng.random() >= opt.no_kill:
            killers = [s for s in alive if state.role[s] is Role.KILLER]
            pool = killers if rng.random() < opt.self_kill else alive
            kill = rng.choice(pool)
        check = None
        if e.check_targets and rng.random() >= opt.no_check:
            check = rng.choice(sorted(e.check_targets))
        return NightAction(kill, check)
    if e.step is Step.DAY:
        if e.may_surrender and rng.random() < opt.surrender:
            return Surrender(rng.choice(sorted(e.may_surrender)))
        if rng.random() < opt.eject:
            return Eject(rng.choice(sorted(e.ejectable)))
    if e.step in (Step.DAY, Step.BALLOT):
        return _ballot(rng, sorted(e.voters), sorted(e.candidates), e.abstain, opt)
    if e.step is Step.LOT:
        return Lot(rng.choice(sorted(e.lot_candidates)))
    return Eliminate(e.eliminated)


def _deal(rng: random.Random, rules: Ruleset, n: int, players: Sequence[str] | None) -> list[Seat]:
    counts = rules.role_counts(n)
    if counts is None:
        raise EngineError("simulate.table_size", {"ruleset": rules.id, "n": n})
    roles = [Role.KILLER] * counts[0] + [Role.POLICE] * counts[1] + [Role.CIVILIAN] * counts[2]
    rng.shuffle(roles)
    names = list(players) if players is not None else [f"player-{i:02d}" for i in range(1, n + 1)]
    if len(names) != n:
        raise EngineError("simulate.player_names", {"count": len(names), "n": n})
    return [Seat(i + 1, names[i], roles[i]) for i in range(n)]


def simulate_game(
    ruleset: str | Mapping[str, Any] | Ruleset,
    n_players: int,
    seed: int,
    *,
    variant: Variant | str = Variant.FINISHED,
    options: SimOptions | None = None,
    players: Sequence[str] | None = None,
    meta: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """One random legal game as a KGR/1 JSON value; the same seed gives the same game.

    ``in-progress`` cuts the game at a random point before its end; ``result-only`` keeps
    only the cards and the winner. A finished game's days that voted all declare
    ``eliminated`` (``null`` after a final tie that ended the game, spec §6.4). A table
    size the ruleset does not seat, or names that do not fit the seats, raise
    :class:`~engine.errors.EngineError` (``simulate.table_size``, ``simulate.player_names``).
    """
    rules = get_ruleset(ruleset)
    opt = options or SimOptions()
    variant = Variant(variant)
    rng = random.Random(seed)
    seats = _deal(rng, rules, n_players, players)
    state = GameState(rules, seats)
    events: list[Event] = []
    end_index: int | None = None
    declined: set[int] = set()
    while (event := _next_event(state, rng, opt, declined)) is not None:
        state.apply(event)
        events.append(event)
        if end_index is None and state.over:
            end_index = len(events) - 1
    if variant is Variant.IN_PROGRESS:
        cut = rng.randint(0, end_index or 0)
        state = GameState(rules, seats)
        for event in events[:cut]:
            state.apply(event)
    record = dump_record(
        state.to_record(
            result=variant is not Variant.IN_PROGRESS,
            meta=dict(meta) if meta is not None else None,
        )
    )
    if variant is Variant.RESULT_ONLY:
        del record["log"]
    return record


def simulate_games(
    count: int,
    seed: int,
    rulesets: Sequence[str] | None = None,
    variants: Sequence[Variant | str] = (Variant.FINISHED,),
) -> Iterator[dict[str, Any]]:
    """``count`` random games over the given rulesets (default: all), every allowed size."""
    rng = random.Random(seed)
    ids = list(rulesets or RULESETS)
    for _ in range(count):
        rules = RULESETS[rng.choice(ids)]
        n = rng.choice(sorted(rules.table_sizes))
        yield simulate_game(rules, n, rng.getrandbits(32), variant=rng.choice(list(variants)))
