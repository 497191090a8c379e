"""Ratings benchmark: engine.ratings.Rater side by side with openskill, trueskill and others.

Simulated leagues: players have a hidden general skill plus a hidden deviation per role;
tables of 8-16 with the classic role counts; heavy-tailed activity; the winner is drawn
from a hidden model that is *not* the Rater's (a probit on an average where each police
officer counts twice a civilian, with a good-side base rate that depends on the table,
and a few draws). Every system learns online in game order and predicts each game before
seeing it; only the last 20% of games are scored.

Metrics per system: native log-loss of the good side's win probability (no recalibration;
a draw is the outcome 0.5), accuracy on decided games, Spearman correlation of ratings with
the hidden general skill over players with at least 5 games, and microseconds per update
of a 12-player game (timed separately, one core, pure Python).

    .venv/bin/python bench/ratings.py               # full run, a few minutes of CPU
    .venv/bin/python bench/ratings.py --quick       # about 30 seconds of CPU
    .venv/bin/python bench/ratings.py --speed-only  # just the update-speed table
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean, pstdev
from typing import Any

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.ratings import Rater

Seats = list[tuple[str, str]]
ROLES_BY_SIZE = {8: 2, 9: 2, 10: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 4, 16: 4}
_PHI = NormalDist().cdf
_PHI_INV = NormalDist().inv_cdf


# -- the simulated world ---------------------------------------------------------------


@dataclass(frozen=True)
class World:
    name: str
    players: int
    games: int
    role_sd: float  # hidden per-role deviation, relative to a general skill sd of 1
    activity_sd: float  # lognormal spread of how often a player plays
    sizes: tuple[int, ...] = (8, 9, 10, 11, 12, 13, 14, 15, 16)
    skill_scale: float = 1.0  # probit units per unit of the (police-weighted) difference
    draw_rate: float = 0.04  # draw probability of an even game


WORLDS = (
    World("small-dense", players=150, games=24000, role_sd=0.35, activity_sd=0.6),
    World("large-sparse", players=3000, games=30000, role_sd=0.35, activity_sd=1.6),
    World("high-role-variance", players=400, games=24000, role_sd=0.8, activity_sd=1.0),
    World("12-player", players=300, games=24000, role_sd=0.5, activity_sd=1.0, sizes=(12,)),
)

# The good side's win rate at an even table: more civilians per killer helps the good side.
BASE_RATE = {8: 0.44, 9: 0.50, 10: 0.55, 11: 0.43, 12: 0.48, 13: 0.53, 14: 0.57, 15: 0.46, 16: 0.51}


@dataclass
class League:
    games: list[tuple[Seats, float]]  # seats and outcome: 1 good, 0 killers, 0.5 draw
    truth: list[float]  # the oracle's expected outcome per game
    skill: dict[str, float]  # hidden general skill


def simulate(world: World, seed: int) -> League:
    """A league history drawn from the hidden model."""
    rng = np.random.default_rng(seed)
    n = world.players
    names = [f"w{seed}-{i}" for i in range(n)]
    general = rng.normal(0.0, 1.0, n)
    role = {r: general + rng.normal(0.0, world.role_sd, n) for r in ("killer", "police", "civ")}
    activity = rng.lognormal(0.0, world.activity_sd, n)
    activity /= activity.sum()
    sizes = rng.choice(np.array(world.sizes), world.games)
    draws = rng.random(world.games)
    outcome_u = rng.random(world.games)
    games: list[tuple[Seats, float]] = []
    truth: list[float] = []
    for g in range(world.games):
        size = int(sizes[g])
        k = ROLES_BY_SIZE[size]
        idx = rng.choice(n, size, replace=False, p=activity)
        killers, police, civs = idx[:k], idx[k : 2 * k], idx[2 * k :]
        # Police know more, so each counts twice a civilian (a share that varies by table).
        good = (2.0 * role["police"][police].sum() + role["civ"][civs].sum()) / (2 * k + len(civs))
        bad = role["killer"][killers].mean()
        q = _PHI(_PHI_INV(BASE_RATE[size]) + world.skill_scale * (good - bad))
        d = world.draw_rate * 4.0 * q * (1.0 - q)
        truth.append(q * (1.0 - d) + 0.5 * d)
        y = 0.5 if draws[g] < d else 1.0 if outcome_u[g] < q else 0.0
        seats = [(names[i], "killer") for i in killers]
        seats += [(names[i], "police") for i in police]
        seats += [(names[i], "civilian") for i in civs]
        order = rng.permutation(size)
        games.append(([seats[i] for i in order], y))
    return League(games, truth, dict(zip(names, general.tolist(), strict=True)))


# -- the systems ------------------------------------------------------------------------


class System:
    """What the benchmark needs from a rating system."""

    name = ""
    note = ""

    def predict(self, seats: Seats) -> float:
        raise NotImplementedError

    def update(self, seats: Seats, y: float) -> None:
        raise NotImplementedError

    def rating(self, player: str) -> float:
        raise NotImplementedError


_WINNER = {1.0: "good", 0.0: "killers", 0.5: "draw"}


class TianheiRater(System):
    name = "Tianhei Rater"
    note = "rating = mean over the 3 roles"

    def __init__(self) -> None:
        self.r = Rater()

    def predict(self, seats: Seats) -> float:
        return self.r.predict(seats)

    def update(self, seats: Seats, y: float) -> None:
        self.r.update(seats, _WINNER[y])

    def rating(self, player: str) -> float:
        return self.r.rating(player)


def _split(seats: Seats) -> tuple[list[str], list[str]]:
    good = [p for p, r in seats if r != "killer"]
    bad = [p for p, r in seats if r == "killer"]
    return good, bad


class TeamElo(System):
    """Elo on team averages with a learned good-side bias per table size."""

    name = "team-average Elo"
    note = "K=0.08 logit/game, bias K=0.02"

    def __init__(self, k: float = 0.08, kb: float = 0.02) -> None:
        self.k, self.kb = k, kb
        self.mu: dict[str, float] = {}
        self.bias: dict[int, float] = {}

    def _z(self, good: list[str], bad: list[str]) -> float:
        mu = self.mu
        ga = sum(mu.get(p, 0.0) for p in good) / len(good)
        ka = sum(mu.get(p, 0.0) for p in bad) / len(bad)
        return self.bias.get(len(good) + len(bad), 0.0) + ga - ka

    def predict(self, seats: Seats) -> float:
        return 1.0 / (1.0 + math.exp(-self._z(*_split(seats))))

    def update(self, seats: Seats, y: float) -> None:
        good, bad = _split(seats)
        err = y - 1.0 / (1.0 + math.exp(-self._z(good, bad)))
        mu, step = self.mu, self.k * err
        for p in good:
            mu[p] = mu.get(p, 0.0) + step
        for p in bad:
            mu[p] = mu.get(p, 0.0) - step
        n = len(seats)
        self.bias[n] = self.bias.get(n, 0.0) + self.kb * err

    def rating(self, player: str) -> float:
        return self.mu.get(player, 0.0)


class Glicko2Team(System):
    """Glicko-2 on team averages: each player plays the composite of everyone else.

    A player's share of the game's logit is 1/(side size); the other players' and the side
    bias's uncertainties enter through Glicko's g(phi). The side bias per table size is a
    pseudo-player with weight 1. Volatility is updated with Glicko-2's Illinois iteration.
    """

    name = "Glicko-2-style team avg"
    note = "phi0=2.0 (350 pts), sigma0=0.06, tau=0.5"

    def __init__(self, phi0: float = 2.0, sigma0: float = 0.06, tau: float = 0.5) -> None:
        self.new = (0.0, phi0, sigma0)
        self.tau = tau
        self.state: dict[str, tuple[float, float, float]] = {}

    def _members(self, seats: Seats) -> list[tuple[str, float]]:
        good, bad = _split(seats)
        members = [(p, 1.0 / len(good)) for p in good] + [(p, -1.0 / len(bad)) for p in bad]
        members.append((f"#bias{len(seats)}", 1.0))
        return members

    def predict(self, seats: Seats) -> float:
        get, new = self.state.get, self.new
        z = var = 0.0
        for p, w in self._members(seats):
            mu, phi, _ = get(p, new)
            z += w * mu
            var += w * w * phi * phi
        return 1.0 / (1.0 + math.exp(-z / math.sqrt(1.0 + 3.0 * var / math.pi**2)))

    def update(self, seats: Seats, y: float) -> None:
        get, new = self.state.get, self.new
        members = self._members(seats)
        cur = [get(p, new) for p, _ in members]
        z = sum(w * s[0] for (_, w), s in zip(members, cur, strict=True))
        var = sum(w * w * s[1] ** 2 for (_, w), s in zip(members, cur, strict=True))
        for (p, w), (mu, phi, sigma) in zip(members, cur, strict=True):
            rest = var - w * w * phi * phi
            g = 1.0 / math.sqrt(1.0 + 3.0 * rest / math.pi**2)
            e = 1.0 / (1.0 + math.exp(-g * z))
            v = 1.0 / (w * w * g * g * e * (1.0 - e))
            delta = v * w * g * (y - e)
            sigma = self._volatility(phi, sigma, v, delta)
            phi_star2 = phi * phi + sigma * sigma
            phi_new = 1.0 / math.sqrt(1.0 / phi_star2 + 1.0 / v)
            self.state[p] = (mu + phi_new * phi_new * w * g * (y - e), phi_new, sigma)

    def _volatility(self, phi: float, sigma: float, v: float, delta: float) -> float:
        """Glicko-2 step 5: the new volatility, by the Illinois method."""
        a = math.log(sigma * sigma)
        tau2 = self.tau * self.tau
        d2, p2 = delta * delta, phi * phi

        def f(x: float) -> float:
            ex = math.exp(x)
            return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / tau2

        lo = a
        if d2 > p2 + v:
            hi = math.log(d2 - p2 - v)
        else:
            k = 1
            while f(a - k * self.tau) < 0:
                k += 1
            hi = a - k * self.tau
        hi, lo = lo, hi
        f_hi, f_lo = f(hi), f(lo)
        while abs(lo - hi) > 1e-6:
            c = hi + (hi - lo) * f_hi / (f_lo - f_hi)
            f_c = f(c)
            if f_c * f_lo <= 0:
                hi, f_hi = lo, f_lo
            else:
                f_hi /= 2.0
            lo, f_lo = c, f_c
        return math.exp(hi / 2.0)

    def rating(self, player: str) -> float:
        return self.state.get(player, self.new)[0]


class TrueSkillWeighted(System):
    """trueskill with team members weighted 1/n and a side pseudo-player per table size."""

    name = "TrueSkill 1/n + side players"
    note = "draw_probability 0.04; rating = mu"

    def __init__(self) -> None:
        import trueskill

        self.env = trueskill.TrueSkill(draw_probability=0.04)
        self.ratings: dict[str, trueskill.Rating] = {}

    def _teams(self, seats: Seats) -> tuple[list[str], list[str]]:
        good, bad = _split(seats)
        return [*good, f"#good{len(seats)}"], [*bad, f"#bad{len(seats)}"]

    def _weights(self, team: list[str]) -> list[float]:
        return [1.0 / (len(team) - 1)] * (len(team) - 1) + [1.0]

    def predict(self, seats: Seats) -> float:
        env, get = self.env, self.ratings.get
        diff = var = 0.0
        for team, sign in zip(self._teams(seats), (1.0, -1.0), strict=True):
            for p, w in zip(team, self._weights(team), strict=True):
                r = get(p) or env.create_rating()
                diff += sign * w * r.mu
                var += w * w * (r.sigma**2 + env.beta**2)
        return _PHI(diff / math.sqrt(var))

    def update(self, seats: Seats, y: float) -> None:
        env, get = self.env, self.ratings.get
        teams = self._teams(seats)
        groups = [[get(p) or env.create_rating() for p in team] for team in teams]
        ranks = [0, 0] if y == 0.5 else ([0, 1] if y == 1.0 else [1, 0])
        weights = [self._weights(team) for team in teams]
        new = env.rate(groups, ranks=ranks, weights=weights)
        for team, rated in zip(teams, new, strict=True):
            self.ratings.update(zip(team, rated, strict=True))

    def rating(self, player: str) -> float:
        r = self.ratings.get(player)
        return float(r.mu if r is not None else self.env.mu)


class OpenSkillPerRole(System):
    """openskill PlackettLuce, one rating per (player, role); team strength is its sum."""

    name = "openskill PL per-role"
    note = "native predict_win; rating = mean mu over 3 roles"

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings: dict[tuple[str, str], Any] = {}

    def _get(self, key: tuple[str, str]) -> Any:
        r = self.ratings.get(key)
        if r is None:
            r = self.ratings[key] = self.model.rating()
        return r

    def _keys(self, seats: Seats) -> list[list[tuple[str, str]]]:
        return [
            [(p, r) for p, r in seats if r != "killer"],
            [(p, r) for p, r in seats if r == "killer"],
        ]

    def predict(self, seats: Seats) -> float:
        teams = [[self._get(k) for k in team] for team in self._keys(seats)]
        return float(self.model.predict_win(teams)[0])

    def update(self, seats: Seats, y: float) -> None:
        ranks = [0.0, 0.0] if y == 0.5 else ([0.0, 1.0] if y == 1.0 else [1.0, 0.0])
        keys = self._keys(seats)
        new = self.model.rate([[self._get(k) for k in team] for team in keys], ranks=ranks)
        for team, rated in zip(keys, new, strict=True):
            self.ratings.update(zip(team, rated, strict=True))

    def rating(self, player: str) -> float:
        mus = [self._get((player, r)).mu for r in ("killer", "police", "civilian")]
        return fmean(mus)


SYSTEMS: tuple[Callable[[], System], ...] = (
    TianheiRater,
    TeamElo,
    Glicko2Team,
    TrueSkillWeighted,
    OpenSkillPerRole,
)


# -- scoring ----------------------------------------------------------------------------


def log_loss(ps: Sequence[float], ys: Sequence[float]) -> float:
    eps = 1e-12
    total = 0.0
    for p, y in zip(ps, ys, strict=True):
        p = min(max(p, eps), 1.0 - eps)
        total -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / len(ps)


def accuracy(ps: Sequence[float], ys: Sequence[float]) -> float:
    decided = [(p, y) for p, y in zip(ps, ys, strict=True) if y != 0.5]
    return sum((p > 0.5) == (y == 1.0) for p, y in decided) / len(decided)


@dataclass
class Score:
    log_loss: float
    accuracy: float
    spearman: float
    seconds: float


def run(system: System, league: League, tail: int) -> Score:
    """Online pass over the league; scores the last ``tail`` games."""
    preds: list[float] = []
    start = time.perf_counter()
    cut = len(league.games) - tail
    for i, (seats, y) in enumerate(league.games):
        if i >= cut:
            preds.append(system.predict(seats))
        system.update(seats, y)
    seconds = time.perf_counter() - start
    ys = [y for _, y in league.games[cut:]]
    counts: dict[str, int] = {}
    for seats, _ in league.games:
        for p, _ in seats:
            counts[p] = counts.get(p, 0) + 1
    ranked = [p for p, c in counts.items() if c >= 5]
    rho = spearmanr([system.rating(p) for p in ranked], [league.skill[p] for p in ranked])[0]
    return Score(log_loss(preds, ys), accuracy(preds, ys), float(rho), seconds)


def speed_stream(games: int) -> list[tuple[Seats, float]]:
    """12-player games among 400 players (3 killers, 3 police, 6 civilians)."""
    rng = np.random.default_rng(99)
    names = [f"s{i}" for i in range(400)]
    roles = ["killer"] * 3 + ["police"] * 3 + ["civilian"] * 6
    stream = []
    for _ in range(games):
        picked = rng.choice(400, 12, replace=False)
        seats = [(names[i], r) for i, r in zip(picked, roles, strict=True)]
        stream.append((seats, float(rng.integers(0, 2))))
    return stream


def update_speed(
    update: Callable[[Seats, Any], object], stream: Sequence[tuple[Seats, Any]]
) -> float:
    """Microseconds per update: best of many short timed batches (the machine is shared)."""
    half = len(stream) // 2
    for seats, y in stream[:half]:  # warm-up: the players are known, as in a real league
        update(seats, y)
    batch = stream[half:]
    best = math.inf
    for _ in range(7):
        for lo in range(0, len(batch), 200):
            chunk = batch[lo : lo + 200]
            start = time.perf_counter()
            for seats, y in chunk:
                update(seats, y)
            best = min(best, (time.perf_counter() - start) / len(chunk))
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a ~30 s run: fewer games, 1 seed")
    parser.add_argument("--seeds", type=int, default=None, help="seeds per world (default 2)")
    parser.add_argument(
        "--trueskill-games",
        type=int,
        default=None,
        help="skip trueskill on leagues longer than this (it is slow); default: never in a "
        "full run, above 6000 games with --quick",
    )
    parser.add_argument("--speed-only", action="store_true", help="only the update-speed table")
    parser.add_argument(
        "--million",
        action="store_true",
        help="also time Rater.replay of one million 12-player games (spec §4's speed goal)",
    )
    args = parser.parse_args()
    wall, cpu = time.perf_counter(), time.process_time()
    seeds = args.seeds or (1 if args.quick else 2)
    scale = 0.25 if args.quick else 1.0
    ts_limit = args.trueskill_games
    if ts_limit is None:
        ts_limit = 6000 if args.quick else 10**9
    print(f"Seeds per world: {seeds}. Scored on the last 20% of each league; mean ± sd over seeds.")
    verdicts: list[str] = []
    for world in () if args.speed_only else WORLDS:
        games = int(world.games * scale)
        w = World(**{**world.__dict__, "games": games})
        print(
            f"\n### {w.name}: {w.players} players, {games} games, role sd {w.role_sd}, "
            f"activity sd {w.activity_sd}, tables {min(w.sizes)}-{max(w.sizes)}\n"
        )
        rows: dict[str, list[Score]] = {}
        oracle: list[float] = []
        for seed in range(seeds):
            league = simulate(w, 1000 * seed + zlib.crc32(w.name.encode()) % 997)
            tail = games // 5
            ys = [y for _, y in league.games[-tail:]]
            oracle.append(log_loss(league.truth[-tail:], ys))
            for make in SYSTEMS:
                if make is TrueSkillWeighted and games > ts_limit:
                    continue
                system = make()
                rows.setdefault(system.name, []).append(run(system, league, tail))
        print("| system | log-loss | accuracy | Spearman | s per league |")
        print("|---|---|---|---|---|")
        print(f"| oracle (hidden model) | {fmean(oracle):.4f} | | | |")
        for name, scores in rows.items():
            ll = [s.log_loss for s in scores]
            print(
                f"| {name} | {fmean(ll):.4f} ± {pstdev(ll):.4f} "
                f"| {fmean(s.accuracy for s in scores):.3f} "
                f"| {fmean(s.spearman for s in scores):.3f} "
                f"| {fmean(s.seconds for s in scores):.1f} |"
            )
        if games > ts_limit:
            print(f"\n(TrueSkill skipped: {games} games > --trueskill-games {ts_limit}.)")
        ours = rows[TianheiRater.name]
        others = [v for k, v in rows.items() if k != TianheiRater.name]
        best_ll = min(fmean(s.log_loss for s in v) for v in others)
        best_rho = max(fmean(s.spearman for s in v) for v in others)
        our_ll, our_rho = fmean(s.log_loss for s in ours), fmean(s.spearman for s in ours)
        verdicts.append(
            f"- {w.name}: log-loss {our_ll:.4f} vs best baseline {best_ll:.4f} "
            f"({'met' if our_ll < best_ll else 'NOT met'}); "
            f"Spearman {our_rho:.3f} vs {best_rho:.3f} "
            f"({'met' if our_rho >= best_rho else 'NOT met'})"
        )
    n_speed = 4000 if args.quick else 10000
    stream = speed_stream(n_speed)
    print("\n### Update speed, 12-player games\n")
    print("Microseconds per update; best 200-game batch of 7 passes (the machine is shared).\n")
    print("| system | µs per update | notes |")
    print("|---|---|---|")
    named = [(seats, _WINNER[y]) for seats, y in stream]
    us = update_speed(Rater().update, named)
    print(f"| {TianheiRater.name} | {us:.1f} | engine `Rater.update` called directly |")
    for make in SYSTEMS[1:]:
        system = make()
        n = n_speed // 10 if isinstance(system, TrueSkillWeighted) else n_speed
        print(f"| {system.name} | {update_speed(system.update, stream[:n]):.1f} | {system.note} |")
    if args.million:
        million = itertools.islice(itertools.cycle(named), 1_000_000)
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        Rater.replay(million)
        replay_cpu = time.process_time() - start_cpu
        print(
            f"\n`Rater.replay` of 1,000,000 12-player games: {replay_cpu:.1f} s CPU, "
            f"{time.perf_counter() - start_wall:.1f} s wall."
        )
    print("\n### Goals\n")
    if verdicts:
        print("\n".join(verdicts))
    print(
        f"- speed: {us:.1f} µs per 12-player update, one million games ≈ {us:.0f} s "
        f"({'met' if us <= 10.0 else 'NOT met'})"
    )
    print(
        f"\nTotal: {time.perf_counter() - wall:.0f} s wall, "
        f"{time.process_time() - cpu:.0f} s CPU (one core)."
    )


if __name__ == "__main__":
    main()
