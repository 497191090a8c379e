"""Player ratings for the Killer game: who is strong, and who is likely to win.

The model (explained for players in ``docs/ratings.md``):

* Every player has a **general skill** and, per role (killer, police, civilian), a small
  **role offset** that starts at zero and only grows when the games show it; the skill a
  player brings to a game is ``general + offset[role]``.
* A side's strength is an **average** of its members' skills (a sum would make the nine
  good players of a 12-player table look three times as strong as three killers). On the
  good side the police, who learn who the killers are, may carry more than their head
  count: good strength is ``w * police_avg + (1 - w) * civilian_avg`` with the **police
  share** ``w`` learned online (starting at one third).
* The good side's win probability is ``logistic(bias + good - killers)``, where the
  **side bias** is learned online: one shared part plus one part per table (players,
  killers), because how often the good side wins depends on the table.
* Every parameter is a Gaussian belief (mean and variance, no correlations). After a game
  the beliefs are updated by assumed-density filtering on the logistic link (with the
  usual probit approximation): each mean moves in proportion to its variance and to the
  surprise ``outcome - p``; each variance shrinks. A draw is half a win for each side.
  A little variance is added back after every game a player plays, so ratings can follow
  a player who improves.
* The displayed rating is the general skill plus the average of the three offsets: the
  player's strength averaged over the roles, on an Elo-like scale centred on 1500.

All state lives in plain lists and dicts so that one update of a 12-player game costs a
few microseconds in pure Python (one million games replay in seconds).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from engine.errors import EngineError
from engine.messages import Params

__all__ = [
    "ROLES",
    "WINNERS",
    "Rater",
    "RaterOptions",
    "RaterState",
    "RatingHistory",
    "RatingInputError",
    "RatingPoint",
]

ROLES = ("killer", "police", "civilian")
WINNERS = ("good", "killers", "draw")

# A player's state is one list: [general mean, general variance, then mean and variance
# of the killer, police and civilian offsets]. The role code is the offset's position.
_ROLE_SLOT = {"killer": 2, "police": 4, "civilian": 6}
_OUTCOME = {"good": 1.0, "killers": 0.0, "draw": 0.5}
# Probit approximation of a logistic averaged over a Gaussian: E[sigma(z)] ~
# sigma(m / sqrt(1 + pi * v / 8)).
_PI_8 = math.pi / 8.0

Seats = Sequence[tuple[str, str]]
_Group = tuple[list[list[float]], float]  # the states of one role's players, their weight
_Gathered = tuple[float, float, float, _Group, _Group, _Group, list[float] | None]


class RatingInputError(EngineError):
    """A game given to the rater is malformed: unknown role or winner, or a bad seat list."""


@dataclass(frozen=True, kw_only=True)
class RaterOptions:
    """The model's parameters. Skills are in logits internally; ``scale`` maps them to display.

    The defaults were chosen on simulated leagues (``bench/ratings.py``), not on the
    worlds the benchmark reports.
    """

    #: Prior standard deviation of a newcomer's general skill (logits).
    skill_sd: float = 1.5
    #: Prior standard deviation of each role offset: small, so role skill is shrunk toward
    #: the general skill until a player has many games in that role.
    role_sd: float = 0.6
    #: Prior standard deviation of the shared side bias and of each table's own bias.
    bias_sd: float = 1.0
    table_bias_sd: float = 0.5
    #: Prior belief about the police's share of the good side's strength (one third of the
    #: weight for about a third of the good players), learned online from the games.
    police_share: float = 1.0 / 3.0
    police_share_sd: float = 0.2
    #: Variance added back (as a standard deviation per game) so a rating never freezes.
    drift_sd: float = 0.01
    #: Display: ``center + scale * skill``; 400/ln(10) makes 400 points a 10:1 edge of one
    #: average side over the other, as in Elo.
    center: float = 1500.0
    scale: float = 400.0 / math.log(10.0)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                raise RatingInputError("ratings.option_number", {"key": f.name})
            if f.name not in ("center", "drift_sd") and value <= 0:
                raise RatingInputError("ratings.option_positive", {"key": f.name})
        if self.drift_sd < 0:
            raise RatingInputError("ratings.option_negative", {"key": "drift_sd"})
        if not 0 < self.police_share < 1:
            raise RatingInputError("ratings.option_share", {"key": "police_share"})

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RaterOptions:
        """Build options from event settings, refusing keys this model does not know."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise RatingInputError(
                "ratings.options_unknown", {"keys": unknown, "allowed": sorted(known)}
            )
        return cls(**values)


@dataclass(frozen=True)
class RaterState:
    """An immutable copy of a rater's beliefs, to restore later (see :class:`RatingHistory`)."""

    players: tuple[tuple[str, tuple[float, ...]], ...]
    bias: tuple[float, float]
    table_bias: tuple[tuple[tuple[int, int], tuple[float, float]], ...]
    police_share: tuple[float, float]
    games: int


class RatingPoint(NamedTuple):
    """One point of a player's rating chart: after game ``game`` (0-based index)."""

    game: int
    rating: float
    uncertainty: float


class Rater:
    """Online rating of Killer players; see the module docstring for the model."""

    __slots__ = (
        "_bias",
        "_d2",
        "_games",
        "_new",
        "_opts",
        "_players",
        "_share",
        "_stamp",
        "_tables",
        "_tb0",
    )

    def __init__(self, options: RaterOptions | None = None) -> None:
        opts = options if options is not None else RaterOptions()
        self._opts = opts
        s2 = opts.skill_sd**2
        r2 = opts.role_sd**2
        # A newcomer's state, copied on first appearance.
        # Slot 8 is not a belief: it marks the last call that saw the player, so a player
        # seated twice is caught without building a set per game.
        self._new = [0.0, s2, 0.0, r2, 0.0, r2, 0.0, r2, -1.0]
        self._stamp = 0.0
        self._d2 = opts.drift_sd**2
        self._tb0 = opts.table_bias_sd**2
        self._players: dict[str, list[float]] = {}
        self._bias = [0.0, opts.bias_sd**2]
        self._tables: dict[tuple[int, int], list[float]] = {}
        self._share = [opts.police_share, opts.police_share_sd**2]
        self._games = 0

    # -- replay and state ------------------------------------------------------------

    @classmethod
    def replay(
        cls, games: Iterable[tuple[Seats, str]], options: RaterOptions | None = None
    ) -> Rater:
        """A fresh rater after ``update`` on every ``(seats, winner)`` in order."""
        rater = cls(options)
        update = rater.update
        for seats, winner in games:
            update(seats, winner)
        return rater

    @property
    def options(self) -> RaterOptions:
        return self._opts

    @property
    def games(self) -> int:
        """How many games this rater has learned from."""
        return self._games

    def players(self) -> list[str]:
        """Every player seen in an update, in order of first appearance."""
        return list(self._players)

    def state(self) -> RaterState:
        """A deep, immutable copy of everything the rater has learned."""
        return RaterState(
            players=tuple((pid, tuple(s[:8])) for pid, s in self._players.items()),
            bias=(self._bias[0], self._bias[1]),
            table_bias=tuple((k, (b[0], b[1])) for k, b in self._tables.items()),
            police_share=(self._share[0], self._share[1]),
            games=self._games,
        )

    @classmethod
    def from_state(cls, state: RaterState, options: RaterOptions | None = None) -> Rater:
        """A rater that continues where the one that produced ``state`` stopped (same options)."""
        rater = cls(options)
        rater._players = {pid: [*s, -1.0] for pid, s in state.players}
        rater._bias = list(state.bias)
        rater._tables = {k: list(b) for k, b in state.table_bias}
        rater._share = list(state.police_share)
        rater._games = state.games
        return rater

    # -- reading ----------------------------------------------------------------------

    def _skill(self, player: str, role: str | None) -> tuple[float, float]:
        s = self._players.get(player, self._new)
        if role is None:  # the average over the three roles: who is strong, whatever the card
            return s[0] + (s[2] + s[4] + s[6]) / 3.0, s[1] + (s[3] + s[5] + s[7]) / 9.0
        slot = _ROLE_SLOT.get(role)
        if slot is None:
            raise RatingInputError("ratings.role", _bad_role(role))
        return s[0] + s[slot], s[1] + s[slot + 1]

    def rating(self, player: str, role: str | None = None) -> float:
        """Display rating (higher = stronger): averaged over the three roles, or in one role."""
        mean, _ = self._skill(player, role)
        return self._opts.center + self._opts.scale * mean

    def uncertainty(self, player: str, role: str | None = None) -> float:
        """One standard deviation of the rating, in rating points; shrinks with games."""
        _, var = self._skill(player, role)
        return self._opts.scale * math.sqrt(var)

    @property
    def police_share(self) -> float:
        """Learned share of the good side's strength that its police carry (starts at 1/3)."""
        return self._share[0]

    def side_bias(self, players: int, killers: int) -> float:
        """Learned advantage of the good side at such a table, in logits (0 = even)."""
        table = self._tables.get((players, killers))
        return self._bias[0] + (table[0] if table is not None else 0.0)

    # -- the model -------------------------------------------------------------------

    def _gather(self, seats: Seats, create: bool) -> _Gathered:
        """The game's linear predictor, its variance, and the seated players' states.

        ``m = bias + w * police avg + (1 - w) * civilian avg - killer avg``, with ``w`` the
        learned police share. Newcomers are registered (when ``create``) only once the whole
        seat list is valid, so a rejected game leaves no trace.
        """
        self._stamp = stamp = self._stamp + 1.0
        players = self._players
        new = self._new
        killers: list[list[float]] = []
        police: list[list[float]] = []
        civs: list[list[float]] = []
        fresh: list[tuple[str, list[float]]] = []
        pm = pv = cm = cv = km = kv = 0.0
        for pid, role in seats:
            s = players.get(pid)
            if s is None:
                s = new[:] if create else new
                fresh.append((pid, s))
            elif s[8] == stamp:
                raise RatingInputError("ratings.twice", {"player": str(pid)})
            else:
                s[8] = stamp
            if role == "killer":
                km += s[0] + s[2]
                kv += s[1] + s[3]
                killers.append(s)
            elif role == "civilian":
                cm += s[0] + s[6]
                cv += s[1] + s[7]
                civs.append(s)
            elif role == "police":
                pm += s[0] + s[4]
                pv += s[1] + s[5]
                police.append(s)
            else:
                raise RatingInputError(
                    "ratings.player_role", {"player": str(pid), **_bad_role(role)}
                )
        nk = len(killers)
        np_ = len(police)
        nc = len(civs)
        if nk == 0 or np_ + nc == 0:
            raise RatingInputError("ratings.sides", {"killer_count": nk, "good_count": np_ + nc})
        if fresh:
            names = [pid for pid, _ in fresh]
            if len(set(names)) != len(names):
                twice = next(p for p in names if names.count(p) > 1)
                raise RatingInputError("ratings.twice", {"player": str(twice)})
            if create:
                players.update(fresh)
        table = self._tables.get((nk + np_ + nc, nk))
        tm, tv = (table[0], table[1]) if table is not None else (0.0, self._tb0)
        bias = self._bias
        if np_ and nc:
            om, ov = self._share
            x = pm / np_ - cm / nc
            wp = om / np_
            wc = (1.0 - om) / nc
            tv += x * x * ov
        else:  # no police (6-7 player tables) or, oddly, no civilians: a plain average
            x = 0.0
            wp = wc = 1.0 / (np_ + nc)
        wk = 1.0 / nk
        m = bias[0] + tm + wp * pm + wc * cm - wk * km
        v = bias[1] + tv + wp * wp * pv + wc * wc * cv + wk * wk * kv
        return m, v, x, (killers, -wk), (police, wp), (civs, wc), table

    def predict(self, seats: Seats) -> float:
        """Probability that the good side wins (a draw counts half). Never learns."""
        m, v, *_ = self._gather(seats, create=False)
        return 1.0 / (1.0 + math.exp(-m / math.sqrt(1.0 + _PI_8 * v)))

    def update(self, seats: Seats, winner: str) -> float:
        """Learn from one finished game; returns the prediction made before learning."""
        y = _OUTCOME.get(winner)
        if y is None:
            raise RatingInputError(
                "ratings.winner", {"value": repr(winner), "winners": list(WINNERS)}
            )
        m, v, x, killers, police, civs, table = self._gather(seats, create=True)
        k = 1.0 / math.sqrt(1.0 + _PI_8 * v)
        p = 1.0 / (1.0 + math.exp(-m * k))
        # Assumed-density filtering: g = d log Z / dm and h = -d2 log Z / dm2 of the
        # predictive; a parameter with weight w and variance a moves by a*w*g and its
        # variance loses a*a*w*w*h.
        g = k * (y - p)
        h = k * k * p * (1.0 - p)
        d2 = self._d2
        # One loop per role, so the offset's slot is a constant (this is the hot loop).
        group, w = killers
        step = g * w
        shrink = h * w * w
        for s in group:
            a = s[1]
            c = s[3]
            s[0] += a * step
            s[1] = a * (1.0 - a * shrink) + d2
            s[2] += c * step
            s[3] = c * (1.0 - c * shrink)
        group, w = police
        step = g * w
        shrink = h * w * w
        for s in group:
            a = s[1]
            c = s[5]
            s[0] += a * step
            s[1] = a * (1.0 - a * shrink) + d2
            s[4] += c * step
            s[5] = c * (1.0 - c * shrink)
        group, w = civs
        step = g * w
        shrink = h * w * w
        for s in group:
            a = s[1]
            c = s[7]
            s[0] += a * step
            s[1] = a * (1.0 - a * shrink) + d2
            s[6] += c * step
            s[7] = c * (1.0 - c * shrink)
        if x:
            # The police share's weight is the police-minus-civilians skill gap (linearised).
            share = self._share
            a = share[1]
            share[0] += a * x * g
            share[1] = a - a * a * x * x * h
        bias = self._bias
        a = bias[1]
        bias[0] += a * g
        bias[1] = a - a * a * h
        if table is None:
            table = self._tables[(len(seats), len(killers[0]))] = [0.0, self._tb0]
        a = table[1]
        table[0] += a * g
        table[1] = a - a * a * h
        self._games += 1
        return p


def _bad_role(role: object) -> Params:
    return {"value": repr(role), "roles": list(ROLES)}


class RatingHistory:
    """A league's games in order, with each player's rating after each game.

    Correcting or removing an old game replays from that game on; checkpoints of the
    rater's state every ``checkpoint_every`` games keep that cheap, and the result is
    exactly (bit for bit) what a fresh replay of the corrected history gives.
    """

    def __init__(self, options: RaterOptions | None = None, checkpoint_every: int = 256) -> None:
        if checkpoint_every < 1:
            raise RatingInputError("ratings.checkpoint", {})
        self._opts = options
        self._every = checkpoint_every
        self._games: list[tuple[tuple[tuple[str, str], ...], str]] = []
        self._rater = Rater(options)
        # _checkpoints[i] is the state before game i * checkpoint_every.
        self._checkpoints: list[RaterState] = [self._rater.state()]
        self._points: dict[str, list[RatingPoint]] = {}
        self._predictions: list[float] = []

    @property
    def rater(self) -> Rater:
        """The rater after the last game (read from it; change history through this class)."""
        return self._rater

    def __len__(self) -> int:
        return len(self._games)

    @property
    def games(self) -> tuple[tuple[tuple[tuple[str, str], ...], str], ...]:
        return tuple(self._games)

    def prediction(self, game: int) -> float:
        """The good side's win probability the rater gave before game ``game`` was played."""
        return self._predictions[game]

    def trajectory(self, player: str) -> list[RatingPoint]:
        """The player's rating and uncertainty after each game they played, in order."""
        return list(self._points.get(player, ()))

    def append(self, seats: Seats, winner: str) -> int:
        """Add the next game; returns its index."""
        game = (tuple((pid, role) for pid, role in seats), winner)
        index = len(self._games)
        self._play(index, game)
        self._games.append(game)
        return index

    def replace(self, index: int, seats: Seats, winner: str) -> None:
        """Correct game ``index`` and replay every game from it on."""
        self._check_index(index)
        game = (tuple((pid, role) for pid, role in seats), winner)
        # Validate before touching anything: a bad correction leaves history as it was.
        Rater(self._opts).update(*game)
        tail = [game, *self._games[index + 1 :]]
        self._rewind(index)
        for game_ in tail:
            self.append(*game_)

    def insert(self, index: int, seats: Seats, winner: str) -> None:
        """Add a forgotten game before game ``index`` and replay every game from it on."""
        if not 0 <= index <= len(self._games):
            raise RatingInputError("ratings.insert_at", {"index": index, "count": len(self._games)})
        game = (tuple((pid, role) for pid, role in seats), winner)
        Rater(self._opts).update(*game)  # validate first, as in replace()
        tail = [game, *self._games[index:]]
        self._rewind(index)
        for game_ in tail:
            self.append(*game_)

    def remove(self, index: int) -> None:
        """Delete game ``index`` (e.g. voided) and replay every later game."""
        self._check_index(index)
        tail = self._games[index + 1 :]
        self._rewind(index)
        for game in tail:
            self.append(*game)

    def rater_before(self, index: int) -> Rater:
        """A rater as it stood before game ``index`` (``len(self)`` means now)."""
        if not 0 <= index <= len(self._games):
            raise RatingInputError("ratings.no_game", {"index": index, "count": len(self._games)})
        chk = min(index // self._every, len(self._checkpoints) - 1)
        rater = Rater.from_state(self._checkpoints[chk], self._opts)
        for seats, winner in self._games[chk * self._every : index]:
            rater.update(seats, winner)
        return rater

    def _check_index(self, index: int) -> None:
        if not 0 <= index < len(self._games):
            raise RatingInputError("ratings.no_game", {"index": index, "count": len(self._games)})

    def _play(self, index: int, game: tuple[tuple[tuple[str, str], ...], str]) -> None:
        seats, winner = game
        rater = self._rater
        if index % self._every == 0 and index // self._every == len(self._checkpoints):
            self._checkpoints.append(rater.state())
        self._predictions.append(rater.update(seats, winner))
        points = self._points
        for pid, _ in seats:
            point = RatingPoint(index, rater.rating(pid), rater.uncertainty(pid))
            points.setdefault(pid, []).append(point)

    def _rewind(self, index: int) -> None:
        """Forget games ``index`` onward; the rater returns to its state before ``index``."""
        for seats, _ in self._games[index:]:
            for pid, _ in seats:
                pts = self._points.get(pid)
                if pts is None:
                    continue
                while pts and pts[-1].game >= index:
                    pts.pop()
                if not pts:
                    del self._points[pid]
        self._rater = self.rater_before(index)
        del self._games[index:]
        del self._predictions[index:]
        del self._checkpoints[index // self._every + 1 :]
