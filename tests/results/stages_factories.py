"""Events with stages for the results tests: stage rows, cuts frozen as the league
freezes them, and games played through the real services (two tables a round, each with
its own referee)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone

from engine.formats.stages import Entry, EntryKind, StageGames, StageSpec, compute_event
from engine.record import parse_record
from engine.scoring import get_profile, summarize
from games.models import Game
from games.selectors import confirmed_record
from league.models import Player
from league.stages.models import Stage
from results.models import EventResults, StageStanding
from results.pipeline.standings import mark_event_stale, recompute_event
from tests.league.factories import RefereeFactory
from tests.results.factories import Played, played_event


def play_at(ev: Played, round_no: int, table_no: int, players: list[Player], seed: int) -> Game:
    """A game at table ``table_no`` of a round, refereed by that table's own referee."""
    referees = ev.__dict__.setdefault("_referees", {1: ev.referee})
    if table_no not in referees:
        referee = RefereeFactory()
        ev.event.referees.add(referee)
        referees[table_no] = referee
    first, ev.referee = ev.referee, referees[table_no]
    try:
        return ev.play(round_no, table_no, players, seed=seed)
    finally:
        ev.referee = first


def three_stages(*, final_hidden: bool = False) -> Played:
    """20 players: qualifying (round 1, two tables of 10), a semi-final of the top 16
    (round 2, ×1.5, two tables of 8), a final of the top 8 (round 3, ×2, carry ½)."""
    ev = played_event(n_players=20, rounds=3)
    Stage.objects.bulk_create(
        [
            Stage(event=ev.event, position=0, name="qualifying", rounds=1),
            Stage(
                event=ev.event,
                position=1,
                name="semifinal",
                rounds=1,
                multiplier=Decimal("1.5"),
                entry_kind=Stage.Entry.TOP,
                entry_top=16,
            ),
            Stage(
                event=ev.event,
                position=2,
                name="final",
                rounds=1,
                multiplier=Decimal(2),
                carry=Decimal("0.5"),
                entry_kind=Stage.Entry.TOP,
                entry_top=8,
                hidden=final_hidden,
                seating=Stage.Seating.FINAL,
            ),
        ]
    )
    return ev


def freeze_cut(ev: Played, position: int, top: int) -> list[Player]:
    """The cut as the league freezes it: the first ``top`` of the stored cumulative
    standing after the stage before (set on the row directly: these tests are about the
    pipeline, the cut page's tests go through the league's service)."""
    handles = list(
        StageStanding.objects.filter(event=ev.event, stage=position - 1)
        .order_by("position")
        .values_list("handle", flat=True)[:top]
    )
    by_handle = {p.handle: p for p in ev.players}
    players = [by_handle[h] for h in handles]
    Stage.objects.filter(event=ev.event, position=position).update(
        entrants=[p.pk for p in players], cut_confirmed_at=timezone.now()
    )
    mark_event_stale(ev.event.pk)  # as the league's stages_changed makes the pipeline do
    recompute_event(ev.event.pk)
    return players


def summaries(games: list[Game]) -> tuple[Any, ...]:
    return tuple(summarize(parse_record(confirmed_record(g)), str(g.pk)) for g in games)


def play_all(ev: Played) -> dict[str, Any]:
    q = [
        play_at(ev, 1, 1, ev.players[:10], 11),
        play_at(ev, 1, 2, ev.players[10:], 12),
    ]
    semi = freeze_cut(ev, 1, 16)
    s = [play_at(ev, 2, 1, semi[::2], 21), play_at(ev, 2, 2, semi[1::2], 22)]
    final = freeze_cut(ev, 2, 8)
    f = [play_at(ev, 3, 1, final, 31)]
    return {"q": q, "s": s, "f": f, "semi": semi, "final": final}


def expected(ev: Played, played: dict[str, Any], stages: int = 3) -> Any:
    """The engine's own computation of the first ``stages`` stages of ``played``."""
    profile = get_profile("club-v1")

    def entry(key: str) -> Entry:
        return Entry(EntryKind.PLAYERS, players=tuple(p.handle for p in played[key]))

    specs = [StageGames(StageSpec("qualifying", profile=profile), summaries(played["q"]))]
    if stages > 1:
        spec = StageSpec(
            "semifinal", profile=profile, multiplier=Decimal("1.5"), entry=entry("semi")
        )
        specs.append(StageGames(spec, summaries(played["s"])))
    if stages > 2:
        spec = StageSpec(
            "final",
            profile=profile,
            multiplier=Decimal(2),
            carry=Decimal("0.5"),
            entry=entry("final"),
        )
        specs.append(StageGames(spec, summaries(played["f"])))
    seed = EventResults.objects.get(event=ev.event).seed
    return compute_event(specs, profile=profile, seed=seed)
