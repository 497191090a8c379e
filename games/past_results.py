"""Past results from a spreadsheet (issue #22): one row per game, read, checked, shown,
then written all at once — or nothing is.

The flow is parse → rows → problems → write:

- :func:`games.past_results_files.read_sheet` reads a ``.csv`` or ``.xlsx`` into text
  rows, bounded (size, unpacked size, rows, columns, cell length);
- :func:`plan_import` turns each row into a game: its date, event, table, ruleset, the
  players by seat (``seat1``…``seatN`` or one ``players`` cell ``a, b, c``), their roles
  (``role1``… or ``roles``), the winner and optional awards; matches every player (by
  handle, then by name) and judges the result-only record it builds with
  :func:`games.records.check_record` — every problem keeps its row and column, and the
  reader sees it in their language (:class:`league.errors.ImportProblem`);
- :func:`import_results` writes the plan in one transaction under the club's row lock,
  or raises :class:`PastResultsError` with every problem and writes nothing.

**What a row becomes**: a stand-alone game of the importing club (no event, round or
table is made up), titled by the ``event`` column, played on ``date``, with its players
in seat order, released at once: version 1, a result-only KGR/1 record (no log; the
file has none), written by the import and confirmed by the organiser who imported it
(``submitted_by`` empty, as a merge writes its versions: nobody submitted it, so "not
your own submission" holds), its history draft → submitted → confirmed → released, one
audit line per game and one for the file. The results pipeline hears of each game as
of any confirmed and released one (``results_pending``, then ``results_changed``), so
ratings and the club's results take them in.

**Idempotent**: each game's ``Game.import_key`` is the SHA-256 of the club, the date,
the event and the table (folded: case and spacing do not count) — what names one game
of a club, not what the row says about it. Importing the same file again finds every
key and skips the row; a row whose key exists with a different result is a problem (a
correction goes through the game's page, with a reason), so a fixed typo never makes a
second game. The key's uniqueness is a database constraint; two imports of one file at
once queue on the club's row.

**Players**: matched by handle, then by name (:mod:`games.past_results_players`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.functional import lazy

from engine.record import FORMAT
from engine.rulesets import RULESETS
from games.models import Game, GameStatusChange, GameVersion
from games.past_results_files import PastResultsError, Sheet, read_sheet
from games.past_results_players import NewPlayer, Players
from games.past_results_words import (
    TEMPLATE_HEADER,
    awards_cell,
    columns_of,
    date_cell,
    seat_cells,
    word_cell,
)
from games.permissions import Access
from games.records import check_record
from games.signals import results_changed, results_pending
from league.audit import audit, audit_entry
from league.engine_text import violation_text
from league.errors import ImportProblem, require
from league.models import AuditEntry, Club, Membership, Player

__all__ = ["TEMPLATE_HEADER", "ImportPlan", "PastResultsError", "import_results", "plan_import"]

S = Game.Status
V = GameVersion.Status
#: Control characters have no place in a cell (a line break inside a list cell does).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass
class Seat:
    seat: int
    cell: str
    handle: str
    name: str
    role: str
    how: str  # "handle", "name" or "new"


@dataclass
class PlannedGame:
    """One row as the game it becomes (``existing``: the game it already is)."""

    line: int
    played_on: dt.date
    event: str
    table: str
    ruleset: str
    seats: list[Seat]
    winner: str
    awards: list[dict[str, Any]]
    key: str
    existing: int | None = None

    def record(self) -> dict[str, Any]:
        meta = {"date": self.played_on.isoformat(), "table": self.table}
        if self.event:
            meta["event"] = self.event
        rec: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "meta": meta,
            "seats": [{"seat": s.seat, "player": s.handle, "role": s.role} for s in self.seats],
        }
        if self.awards:
            rec["awards"] = self.awards
        rec["result"] = {"winner": self.winner}
        return rec


@dataclass
class ImportPlan:
    """What a file would do: the games (new and already imported), the new players, every
    problem (nothing is written while there is one) and the warnings (shown, not
    blocking). ``digest`` names the file the preview showed."""

    club: Club
    name: str
    digest: str
    games: list[PlannedGame] = field(default_factory=list)
    new_players: list[NewPlayer] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    warnings: list[ImportProblem] = field(default_factory=list)
    created: list[Game] = field(default_factory=list)

    @property
    def to_create(self) -> list[PlannedGame]:
        return [g for g in self.games if g.existing is None]

    @property
    def skipped(self) -> list[PlannedGame]:
        return [g for g in self.games if g.existing is not None]


def _problem(line: int, column: str, code: str, **params: Any) -> ImportProblem:
    return ImportProblem.of(line, column, code, **params)


_violation_lazy = lazy(violation_text, str)


def import_key(club: Club, played_on: dt.date, event: str, table: str) -> str:
    """The stable key of one imported game of ``club``: its date, event and table, folded
    (case and runs of spaces do not count)."""
    parts = [str(club.pk), played_on.isoformat(), _fold(event), _fold(table)]
    return hashlib.sha256("\x1f".join(["kgr-import/1", *parts]).encode()).hexdigest()


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


# --- rows → games ---------------------------------------------------------------------------


def _row(
    club: Club, cols: dict[str, Any], line: int, cells: list[str], players: Players
) -> tuple[PlannedGame | None, list[ImportProblem]]:
    problems: list[ImportProblem] = []

    def get(name: str) -> str:
        i = cols.get(name)
        return cells[i].strip() if i is not None and i < len(cells) else ""

    named = {i: n for n, i in cols.items() if isinstance(i, int)}
    named.update({i: f"seat{n}" for n, i in cols["seat"].items()})
    named.update({i: f"role{n}" for n, i in cols["role"].items()})
    for i, value in enumerate(cells):
        column = named.get(i, str(i + 1))
        if len(value) > 1000:
            problems.append(_problem(line, column, "results.too_long", limit=1000))
        elif _CONTROL.search(value):
            problems.append(_problem(line, column, "results.control_character"))
    played_on = date_cell(get("date"))
    if played_on is None:
        problems.append(_problem(line, "date", "results.date_invalid", value=get("date")[:30]))
    elif played_on > timezone.localdate():
        problems.append(_problem(line, "date", "results.date_future", value=get("date")))
    event, table = get("event"), get("table")
    if len(event) > 160:
        problems.append(_problem(line, "event", "results.too_long", limit=160))
    if not table:
        problems.append(_problem(line, "table", "results.table_required"))
    elif len(table) > 40:
        problems.append(_problem(line, "table", "results.too_long", limit=40))
    ruleset = get("ruleset").casefold() or "classic"
    if ruleset not in RULESETS:
        problems.append(
            _problem(
                line,
                "ruleset",
                "results.ruleset_unknown",
                value=ruleset[:30],
                choices=list(RULESETS),
            )
        )

    def seat_col(n: int) -> str:
        return f"seat{n}" if cols["seat"] else "players"

    def role_col(n: int | None = None) -> str:
        return (f"role{n}" if n else "role") if cols["role"] else "roles"

    cells_p = seat_cells(cols, cells, "seat", "players")
    cells_r = seat_cells(cols, cells, "role", "roles")
    if not cells_p:
        problems.append(_problem(line, "players", "results.no_players"))
    roles: list[str] = []
    for n, text in enumerate(cells_r, start=1):
        role = word_cell("role", text)
        if role is None:
            problems.append(_problem(line, role_col(n), "results.role_unknown", value=text[:30]))
        roles.append(role or "")
    if cells_p and len(cells_p) != len(cells_r):  # no roles at all: 0 roles
        problems.append(
            _problem(
                line, role_col(), "results.roles_count", roles=len(cells_r), players=len(cells_p)
            )
        )
    winner = word_cell("winner", get("winner"))
    if winner is None:
        problems.append(
            _problem(line, "winner", "results.winner_unknown", value=get("winner")[:30])
        )
    awards = awards_cell(line, get("awards"), len(cells_p), problems)
    seats: list[Seat] = []
    seen: dict[str, int] = {}
    for n, text in enumerate(cells_p, start=1):
        column = seat_col(n)
        if not text:
            problems.append(_problem(line, column, "results.seat_empty", seat=n))
            continue
        found = players.resolve(line, column, text, played_on or timezone.localdate(), problems)
        if found is None:
            continue
        handle, name, how = found
        if handle in seen:
            problems.append(
                _problem(line, column, "results.player_twice", handle=handle, seat=seen[handle])
            )
        seen.setdefault(handle, n)
        seats.append(Seat(n, text, handle, name, roles[n - 1] if n <= len(roles) else "", how))
    if problems or played_on is None or winner is None:
        return None, problems
    game = PlannedGame(
        line,
        played_on,
        event,
        table,
        ruleset,
        seats,
        winner,
        awards,
        import_key(club, played_on, event, table),
    )
    return game, _record_problems(club, game)


#: Where in the row a record's violation is shown, by the violation's ``where``.
_WHERE_COLUMN = {"result": "winner", "awards": "awards", "setup": "roles"}


def _record_problems(club: Club, game: PlannedGame) -> list[ImportProblem]:
    """The engine's judgement of the row's record (seats, roles, awards, result)."""
    unsaved = Game(club=club, ruleset=game.ruleset, players=[s.handle for s in game.seats])
    check = check_record(unsaved, game.record())
    return [
        _problem(
            game.line,
            _WHERE_COLUMN.get(v["where"], "roles"),
            "results.record",
            rule=v["code"],
            violation=_violation_lazy(v["code"], v["where"], v.get("params") or {}),
        )
        for v in check.violations
    ]


def _same(existing: GameVersion | None, game: PlannedGame) -> bool:
    if existing is None:
        return False
    rec = existing.record
    mine = game.record()
    keys = ("ruleset", "seats", "awards", "result")
    return all(
        json.dumps(rec.get(k), sort_keys=True) == json.dumps(mine.get(k), sort_keys=True)
        for k in keys
    )


def _mark_existing(plan: ImportPlan) -> None:
    """Rows already imported: skipped if they say the same, a problem if not."""
    keys = {g.key: g for g in plan.games}
    found = {g.import_key: g for g in Game.objects.filter(import_key__in=keys)}
    if not found:
        return
    versions = {
        v.game_id: v
        for v in GameVersion.objects.filter(game__in=found.values(), status=V.CONFIRMED)
    }
    for key, existing in found.items():
        game = keys[key]
        game.existing = existing.pk
        same = existing.club_id == plan.club.pk and (
            existing.status == S.VOIDED or _same(versions.get(existing.pk), game)
        )
        if same:
            plan.warnings.append(
                _problem(game.line, "row", "results.already_imported", game=existing.pk)
            )
        else:
            plan.problems.append(
                _problem(game.line, "row", "results.already_different", game=existing.pk)
            )


def plan_import(actor: User, club: Club, name: str, data: bytes) -> ImportPlan:
    """Read and check the file: everything it would do and every problem; writes nothing.

    Refuses (403) anyone but the club's organisers (and site admins). A file that cannot
    be read at all raises :class:`PastResultsError`."""
    access = Access(actor)
    require(access.is_club_organiser(club) or access.is_site_admin())
    plan = ImportPlan(club=club, name=name[:200], digest=hashlib.sha256(data).hexdigest())
    sheet: Sheet = read_sheet(name, data)
    cols = columns_of(sheet.header, plan.problems)
    if plan.problems:
        return plan
    if not sheet.rows:
        plan.problems.append(_problem(2, "file", "results.no_games"))
        return plan
    players = Players(club)
    first: dict[str, int] = {}
    for line, cells in sheet.rows:
        game, problems = _row(club, cols, line, cells, players)
        plan.problems += problems
        if game is None:
            continue
        if game.key in first:
            plan.problems.append(
                _problem(line, "table", "results.key_repeated", row=first[game.key])
            )
            continue
        first[game.key] = line
        plan.games.append(game)
    _mark_existing(plan)
    used = {s.handle for g in plan.to_create for s in g.seats if s.how == "new"}
    plan.new_players = [p for p in players.new.values() if p.handle in used]
    plan.warnings += [w for w in players.close_names() if w.params.get("handle") in used]
    plan.problems.sort(key=lambda p: (p.row, p.column))
    plan.warnings.sort(key=lambda p: (p.row, p.column))
    return plan


# --- writing --------------------------------------------------------------------------------


def import_results(
    actor: User, club: Club, name: str, data: bytes, *, dry_run: bool = False
) -> ImportPlan:
    """Import the file: every new game released at once, or nothing (see the module).

    The club's row is locked first, so the check of what was imported before and the
    writes see the same database. Raises :class:`PastResultsError` (every problem) when
    the file has any; ``dry_run`` checks everything and writes nothing."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        plan = plan_import(actor, club, name, data)
        if plan.problems:
            raise PastResultsError(plan.problems)
        if dry_run or not plan.to_create:
            return plan
        _write(actor, plan)
    return plan


def _write(actor: User, plan: ImportPlan) -> None:
    club = plan.club
    todo = plan.to_create
    new = [p for p in plan.new_players if any(s.handle == p.handle for g in todo for s in g.seats)]
    made = Player.objects.bulk_create(Player(display_name=p.name, handle=p.handle) for p in new)
    Membership.objects.bulk_create(
        Membership(player=p, club=club, joined=n.first_played)
        for p, n in zip(made, new, strict=True)
    )
    now = timezone.now()
    games = Game.objects.bulk_create(
        Game(
            club=club,
            ruleset=g.ruleset,
            players=[s.handle for s in g.seats],
            title=g.event[:160],
            played_on=g.played_on,
            status=S.RELEASED,
            import_key=g.key,
        )
        for g in todo
    )
    versions = []
    for game, g in zip(games, todo, strict=True):
        check = check_record(game, g.record())
        assert check.valid and check.complete, check.violations  # judged in the plan
        versions.append(
            GameVersion(
                game=game,
                number=1,
                record=check.record,
                source=GameVersion.Source.UPLOAD,
                submitted_by=None,  # the import wrote it; the organiser confirms it
                reason=f"import: {plan.name}, row {g.line}",
                status=V.CONFIRMED,
                valid=True,
                completeness=check.completeness,
                violations=[],
                winner=check.winner,
                ended=check.ended,
                confirmed_by=actor,
                confirmed_at=now,
            )
        )
    versions = GameVersion.objects.bulk_create(versions)
    moves = ((S.DRAFT, S.SUBMITTED), (S.SUBMITTED, S.CONFIRMED), (S.CONFIRMED, S.RELEASED))
    GameStatusChange.objects.bulk_create(
        GameStatusChange(
            game=game, from_status=a, to_status=b, version=v, actor=actor, reason=v.reason
        )
        for game, v in zip(games, versions, strict=True)
        for a, b in moves
    )
    AuditEntry.objects.bulk_create(
        [audit_entry(actor, "player.create", p, handle=p.handle, source="import") for p in made]
        + [
            audit_entry(actor, "game.import", game, file=plan.name, row=g.line, key=g.key)
            for game, g in zip(games, todo, strict=True)
        ]
    )
    audit(
        actor,
        "results.import",
        club,
        file=plan.name,
        digest=plan.digest,
        games=len(games),
        skipped=len(plan.skipped),
        players_created=[p.handle for p in made],
    )
    plan.created = games
    for game in games:
        results_pending.send(sender=Game, game=game)
    transaction.on_commit(lambda: _announce(games))


#: Who tells the results pipeline about many games at once, if a higher layer registered
#: it at start-up (:func:`register_batch_announcer`; ``games`` cannot import ``results``):
#: one ratings replay for a whole file instead of one per game. Without it each game is
#: announced as a confirmation announces it.
_batch_announcer: Callable[[list[int]], object] | None = None


def register_batch_announcer(announcer: Callable[[list[int]], object] | None) -> None:
    global _batch_announcer
    _batch_announcer = announcer


def _announce(games: Iterable[Game]) -> None:
    if _batch_announcer is not None:
        _batch_announcer([g.pk for g in games])
        return
    for game in games:
        results_changed.send(sender=Game, game=game)
