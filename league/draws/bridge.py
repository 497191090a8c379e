"""The bridge between the league and the seating engine.

Load once (registrations, absences, conflicts, clubs, earlier rounds) → build a plain
:class:`engine.seating.SeatingProblem` → call the engine → write Round/Table/Seat rows
with ``bulk_create`` inside one transaction. The :class:`~league.draws.models.DrawJob` row
carries progress while the engine works, and the measures when it is done; its warnings
and its error are notes, ``{"code", "params"}`` (the engine's codes and the league's
``league.draw.*``), rendered in the reader's language when read (:mod:`league.i18n`).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine.errors import EngineError
from engine.messages import Message
from engine.referees import assign_referees
from engine.seating import SearchOptions, SeatingProblem, SeatingProblemError, draw_seating
from league.audit import audit
from league.clubs.selectors import current_clubs
from league.draws.models import DrawJob
from league.engine_text.draws import LEAGUE
from league.errors import UserError
from league.events import lifecycle, selectors
from league.events.models import DRAWN_ROUND_STATUSES, Event, Registration, Round, Seat, Table
from league.events.services import RELIEF_PERCENT, allowed_table_sizes, lock_event
from league.i18n import draw_note_text, note
from league.stages.models import EntryKind
from league.stages.selectors import event_stages, stage_of_round

log = logging.getLogger(__name__)


#: Club-mates are kept apart (softly) in this many opening rounds.
CLUB_APART_ROUNDS = 2


#: Seconds between two progress writes.
PROGRESS_EVERY = 0.5


#: The note of a draw that failed on a bug (logged).
GENERIC_FAILURE = "league.draw.failed"


#: A stored note: ``{"code": str, "params": {…}}``.
Note = dict[str, Any]


class DrawRefused(UserError):
    """The league refuses to run or write a draw (409): a ``league.draw.*`` note the job
    stores, and a :class:`UserError` (``code`` the note's last part, its ``params``) whose
    sentence is the note's, in the language active when read."""

    status = 409

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        self.note = note(code, params)
        super().__init__(LEAGUE[code], code=code.rpartition(".")[2], params=self.note["params"])

    @property
    def message(self) -> str:
        return draw_note_text(self.note)

    def extra(self) -> dict[str, Any]:
        return {"note": self.note}


def engine_note(message: Message | EngineError) -> Note:
    """An engine warning (:class:`~engine.messages.Message`) or refusal as a note; a
    malformed request with several problems keeps every one."""
    if isinstance(message, SeatingProblemError) and len(message.problems) > 1:
        return note(
            "league.draw.problems", {"problems": [engine_note(p) for p in message.problems]}
        )
    return note(message.code, message.params)


def time_limit() -> float:
    return float(getattr(settings, "LEAGUE_DRAW_TIME_LIMIT", 10.0))


@dataclass
class DrawInput:
    """Everything the engine needs, in plain values (player and referee ids are pks as str)."""

    problem: Any
    referees: list[str]
    referee_conflicts: set[tuple[str, str]]
    from_round: int
    to_round: int
    warnings: list[Note] = field(default_factory=list)
    #: referees of the rounds kept (history), when every such table has a listed referee
    fixed_referees: list[list[str]] = field(default_factory=list)
    grades: dict[str, float] = field(default_factory=dict)
    #: the engine's effort and trade-offs (the event's "allow one extra meeting")
    options: SearchOptions = field(default_factory=SearchOptions)
    #: tables of the redrawn rounds left as they are (recorded play, placed by hand)
    kept: list[lifecycle.KeptTable] = field(default_factory=list)


def build_input(
    event: Event, from_round: int, to_round: int, seed: int, *, checked_in_only: bool = True
) -> DrawInput:
    """Load the event once and turn it into the engine's problem."""
    earlier = selectors.event_rounds(event, DRAWN_ROUND_STATUSES)
    drawn = {
        r.number: tuple(tuple(str(s.player_id) for s in t.seats.all()) for t in r.tables.all())
        for r in earlier
    }
    fixed = [tables for number, tables in sorted(drawn.items()) if number < from_round]
    # tables of the redrawn rounds that stay as they are: their players sit out the
    # engine's draw of that round
    kept = lifecycle.kept_in_rounds(event, from_round, to_round)
    kept_pks = {k.pk for k in kept}
    kept_players: dict[int, set[int]] = {}
    for r in earlier:
        for t in r.tables.all():
            if t.pk in kept_pks:
                kept_players.setdefault(r.number, set()).update(s.player_id for s in t.seats.all())
    # the draw being replaced, from round from_round on: the engine starts from it too,
    # so a redraw after a withdrawal moves few players
    previous: list[tuple[tuple[str, ...], ...]] = []
    for r in earlier:
        if r.number < from_round or r.number > to_round:
            continue
        if r.number != from_round + len(previous):
            break
        previous.append(
            tuple(
                tuple(str(s.player_id) for s in t.seats.all())
                for t in r.tables.all()
                if t.pk not in kept_pks
            )
        )
    if len(fixed) != from_round - 1:
        raise DrawRefused("league.draw.order")
    regs = stage_registrations(event, from_round, checked_in_only=checked_in_only)
    if not regs:
        raise DrawRefused(
            "league.draw.no_checked_in" if checked_in_only else "league.draw.no_players"
        )
    drawable = {r.player_id for r in regs}
    seated_before = {int(p) for rnd in fixed for table in rnd for p in table}
    ids = sorted(drawable | seated_before)
    new_rounds = set(range(from_round, to_round + 1))
    absent: dict[str, set[int]] = {}
    for reg in regs:
        missing = {int(r) for r in reg.absent_rounds} & new_rounds
        if missing:
            absent[str(reg.player_id)] = missing
    for pid in seated_before - drawable:
        absent[str(pid)] = set(new_rounds)
    for number, pids in kept_players.items():
        for pid in pids & set(ids):
            absent.setdefault(str(pid), set()).add(number)
    avoid = [(str(a), str(b)) for a, b in selectors.avoid_pairs(event) if a in ids and b in ids]
    clubs = {str(p): str(c) for p, c in current_clubs(ids).items()}
    sizes = allowed_table_sizes(event)
    problem = SeatingProblem(
        players=tuple(str(p) for p in ids),
        rounds=to_round,
        min_table=event.min_table,
        max_table=event.max_table,
        avoid=frozenset(avoid),
        absent={p: frozenset(rs) for p, rs in absent.items()},
        seed=seed,
        allowed_sizes=frozenset(sizes),
        clubs=clubs,
        club_apart_rounds=min(CLUB_APART_ROUNDS, to_round),
        fixed_rounds=tuple(fixed),
        previous_draw=tuple(previous),
    )
    referees = list(event.referees.all())
    conflicts = {(str(r), str(p)) for r, p in selectors.referee_conflicts(event, referees)}
    listed = {r.pk for r in referees}
    history = [r for r in earlier if r.number < from_round]
    fixed_refs = [[t.referee_id for t in r.tables.all()] for r in history]
    usable = all(ref in listed for refs in fixed_refs for ref in refs)
    return DrawInput(
        problem=problem,
        referees=[str(r.pk) for r in referees],
        referee_conflicts=conflicts,
        from_round=from_round,
        to_round=to_round,
        fixed_referees=[[str(ref) for ref in refs] for refs in fixed_refs] if usable else [],
        grades={str(r.pk): float(r.grade) for r in referees},
        options=SearchOptions(
            cap_relief_percent=RELIEF_PERCENT if event.allow_extra_meeting else 0
        ),
        kept=kept,
        warnings=[kept_note(kept)] if kept else [],
    )


def stage_registrations(
    event: Event, from_round: int, *, checked_in_only: bool = True
) -> list[Registration]:
    """The registrations a draw from ``from_round`` seats: a later stage's frozen entrants
    (still registered; check-in is the first stage's), or for the first stage the
    registered players (its listed ones, if it lists them), checked in if asked."""
    stage = stage_of_round(event_stages(event), from_round)
    regs = list(Registration.objects.filter(event=event, status=Registration.Status.REGISTERED))
    if stage.position > 0:
        entrants = set(stage.entrants or ())
        return [r for r in regs if r.player_id in entrants]
    if stage.entry_kind == EntryKind.PLAYERS:
        listed = set(stage.entry_players)
        regs = [r for r in regs if r.player_id in listed]
    if checked_in_only:
        regs = [r for r in regs if r.checked_in_at is not None]
    return regs


def kept_note(kept: Sequence[lifecycle.KeptTable]) -> Note:
    """The tables a redraw left as they were, and why (``played`` or ``pinned``)."""
    tables = [{"round": k.round, "table": k.number, "why": k.why} for k in kept]
    return note("league.draw.kept", {"tables": tables})


def _progress_writer(job_id: int) -> Callable[[float], None]:
    last = [0.0]

    def report(fraction: float) -> None:
        fraction = min(max(float(fraction), 0.0), 0.99)
        now = time.monotonic()
        if now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        DrawJob.objects.filter(pk=job_id, status=DrawJob.Status.RUNNING).update(progress=fraction)

    return report


def engine_draw(
    data: DrawInput, progress: Callable[[float], None] | None = None, limit: float | None = None
) -> tuple[list[list[list[str]]], list[list[str | None]] | None, dict[str, Any], list[Note]]:
    """Call the engine: seating for rounds from..to, then referees. Pure values out."""
    limit = time_limit() if limit is None else limit
    draw = draw_seating(data.problem, time_limit=limit, options=data.options, progress=progress)
    all_rounds = [[list(table) for table in r.tables] for r in draw.rounds]
    skip = len(all_rounds) - (data.to_round - data.from_round + 1)
    seating = all_rounds[skip:]
    metrics = _plain(draw.metrics)
    metrics["method"] = draw.method
    warnings = [engine_note(w) for w in draw.warnings]
    referees: list[list[str | None]] | None = None
    if data.referees:
        if skip and not data.fixed_referees:
            warnings.append(note("league.draw.no_referee_history"))
        try:
            plan = assign_referees(
                draw,
                referees=data.referees,
                conflicts=data.referee_conflicts,
                seed=data.problem.seed,
                fixed=data.fixed_referees,
                grades=data.grades,
                time_limit=max(0.2, limit / 2),
            )
            plan_rounds = [list(r) for r in plan.rounds]
            referees = [[None if x is None else str(x) for x in r] for r in plan_rounds[skip:]]
            metrics["referees"] = _plain(plan.metrics)
            warnings += [engine_note(w) for w in plan.warnings]
        except EngineError as exc:
            warnings.append(note("league.draw.referees_not_assigned", {"error": engine_note(exc)}))
    else:
        warnings.append(note("league.draw.no_referees"))
    return seating, referees, metrics, warnings


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        for name in ("seat_excess",):
            if hasattr(value, name):
                out[name] = getattr(value, name)
        return out
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


def write_rounds(
    event: Event,
    from_round: int,
    seating: Sequence[Sequence[Sequence[str]]],
    referees: Sequence[Sequence[str | None]] | None,
    kept: Sequence[lifecycle.KeptTable] = (),
) -> list[Note]:
    """Replace the tables of rounds from_round.. with ``seating``; rounds become draft.

    Tables in ``kept`` stay as they are, and the new tables take the numbers they leave
    free. If the tables to keep changed while the engine worked (a game was recorded, a
    seat placed by hand), nothing is written. Returns warnings (referees dropped because
    a kept table holds them). The caller holds the event lock inside ``transaction.atomic``.
    """
    numbers = list(range(from_round, from_round + len(seating)))
    rounds = {r.number: r for r in Round.objects.filter(event=event, number__in=numbers)}
    if any(rounds[n].status == Round.Status.RELEASED for n in numbers):
        raise DrawRefused("league.draw.released")
    tables_now = Table.objects.filter(round__in=rounds.values())
    if {k.pk for k in lifecycle.kept_tables(tables_now)} != {k.pk for k in kept}:
        raise DrawRefused("league.draw.kept_changed")
    tables_now.exclude(pk__in=[k.pk for k in kept]).delete()
    kept_by_round: dict[int, set[int]] = {}
    for k in kept:
        kept_by_round.setdefault(k.round, set()).add(k.number)
    kept_refs: dict[int, set[int]] = {}
    for number, ref_id in Table.objects.filter(pk__in=[k.pk for k in kept]).values_list(
        "round__number", "referee_id"
    ):
        if ref_id is not None:
            kept_refs.setdefault(number, set()).add(ref_id)
    warnings: list[Note] = []
    tables: list[Table] = []
    for n, layout in zip(numbers, seating, strict=True):
        refs = referees[n - from_round] if referees else None
        taken = kept_by_round.get(n, set())
        free = (t for t in range(1, len(layout) + len(taken) + 1) if t not in taken)
        for j, _players in enumerate(layout):
            ref = refs[j] if refs and j < len(refs) else None
            number = next(free)
            if ref and int(ref) in kept_refs.get(n, set()):
                warnings.append(note("league.draw.referee_dropped", {"round": n, "table": number}))
                ref = None
            tables.append(
                Table(round=rounds[n], number=number, referee_id=int(ref) if ref else None)
            )
    Table.objects.bulk_create(tables)
    seats: list[Seat] = []
    it = iter(tables)
    for n, layout in zip(numbers, seating, strict=True):
        for players in layout:
            table = next(it)
            seats.extend(
                Seat(round=rounds[n], table=table, player_id=int(p), number=k)
                for k, p in enumerate(players, start=1)
            )
    Seat.objects.bulk_create(seats)
    Round.objects.filter(pk__in=[rounds[n].pk for n in numbers]).update(
        status=Round.Status.DRAFT, released_at=None
    )
    return warnings


def run_draw_job(job_id: int, *, limit: float | None = None) -> DrawJob:
    """Run one queued draw job to the end; never raises for a failed draw.

    ``limit`` overrides the engine's time limit (``settings.LEAGUE_DRAW_TIME_LIMIT``).
    """
    with transaction.atomic():
        job = (
            DrawJob.objects.select_for_update(of=("self",))
            .select_related("event", "requested_by")
            .get(pk=job_id)
        )
        if job.status != DrawJob.Status.QUEUED:
            return job
        job.status = DrawJob.Status.RUNNING
        job.save(update_fields=["status"])
    event = job.event
    try:
        data = build_input(
            event, job.from_round, job.to_round, job.seed, checked_in_only=job.checked_in_only
        )
        seating, referees, metrics, warnings = engine_draw(data, _progress_writer(job.pk), limit)
        with transaction.atomic():
            lock_event(event)
            dropped = write_rounds(event, job.from_round, seating, referees, data.kept)
            job.status = DrawJob.Status.DONE
            job.progress = 1.0
            job.metrics = metrics
            job.warnings = data.warnings + warnings + dropped
            job.finished_at = timezone.now()
            job.save()
            audit(
                job.requested_by,
                "draw.done",
                job,
                event=event,
                rounds=[job.from_round, job.to_round],
            )
    except DrawRefused as exc:
        _fail(job, exc.note)
    except EngineError as exc:
        _fail(job, engine_note(exc))
    except Exception:  # a bug, or a refusal without a note: logged, the job says so
        log.exception("draw job %s failed", job_id)
        _fail(job, note(GENERIC_FAILURE))
    return job


def _fail(job: DrawJob, error: Note) -> None:
    job.status = DrawJob.Status.FAILED
    job.error = error
    job.finished_at = timezone.now()
    DrawJob.objects.filter(pk=job.pk).update(
        status=job.status, error=error, finished_at=job.finished_at
    )
    audit(job.requested_by, "draw.failed", job, event=job.event, error=error)
