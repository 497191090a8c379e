"""Export a club or an event as an archive (``docs/archives.md``).

Everything is named without database ids where the other site has its own: players by
handle, accounts by username (full archive) or by a pseudonym ``official-N`` (public
archive), events by slug, seasons and games by the archive-local key they had here.

The **full** archive holds everything an organiser manages: every game's versions
(drafts and corrections too), status history, live sheets, registrations with
check-ins and absences, conflicts, e-mail addresses and the audit log of its events.
The **public** archive holds what anyone may read on the site, through the same gates:
finished events only, released rounds, released games with their public (confirmed)
version, the public standings; no accounts, no e-mail addresses, no audit.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Model, Q
from django.utils import timezone

from games.models import Game, GameSheet, GameStatusChange, GameVersion, Protest
from games.permissions import Access
from games.protests import public_protests
from games.selectors import versions_for
from league.audit import AuditEntry
from league.models import (
    Club,
    ClubOrganiser,
    Event,
    League,
    Membership,
    Player,
    PlayerConflict,
    Referee,
    RefereeConflict,
    Registration,
    Round,
    Seat,
    Table,
)
from league.stages.models import Stage
from league.stages.selectors import event_stages
from results.archives.bundle import write_zip
from results.archives.schema import (
    CLUB_FIELDS,
    EVENT_FIELDS,
    GAME_FIELDS,
    PROTEST_FIELDS,
    STAGE_FIELDS,
    STAGE_STANDING_FIELDS,
    STANDING_FIELDS,
    VERSION_FIELDS,
)
from results.models import EventResults, EventStanding, SeasonStanding, StageStanding
from results.stages import visible


def plain(value: Any) -> Any:
    """A field's value as JSON: dates in ISO 8601, decimals as strings."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def fields(obj: Model, names: Iterable[str]) -> dict[str, Any]:
    return {name: plain(getattr(obj, name)) for name in names}


class _People:
    """Accounts as the archive names them: by username (full) or by a pseudonym."""

    def __init__(self, public: bool) -> None:
        self.public = public
        self.users: dict[int, dict[str, Any]] = {}

    def key(self, user: User | None) -> str | None:
        if user is None:
            return None
        entry = self.users.get(user.pk)
        if entry is None:
            if self.public:
                entry = {"key": f"official-{len(self.users) + 1}"}
            else:
                entry = {"key": user.get_username(), "username": user.get_username()}
                entry |= fields(user, ("email", "first_name", "last_name"))
            self.users[user.pk] = entry
        return str(entry["key"])


class _Exporter:
    def __init__(self, club: Club, events: list[Event], public: bool, whole_club: bool) -> None:
        self.club, self.events, self.public, self.whole_club = club, events, public, whole_club
        self.people = _People(public)
        self.players: dict[int, Player] = {}
        self.handles: set[str] = set()
        self.referees: dict[int, Referee] = {}
        self.members: dict[str, Any] = {}
        self.slug = {e.pk: e.slug for e in events}

    # --- small helpers --------------------------------------------------------------------

    def player(self, player: Player) -> str:
        self.players[player.pk] = player
        return player.handle

    def referee(self, referee: Referee | None) -> str | None:
        if referee is None or self.public:
            return None
        self.referees[referee.pk] = referee
        return self.people.key(referee.user)

    def handles_of(self, ids: Iterable[int] | None) -> list[str] | None:
        if ids is None:
            return None
        found = {p.pk: p for p in Player.objects.filter(pk__in=list(ids))}
        return [self.player(found[i]) for i in ids if i in found]

    # --- the parts ------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        club = fields(self.club, CLUB_FIELDS)
        if not self.public:
            organisers = ClubOrganiser.objects.filter(club=self.club).select_related("user")
            club["organisers"] = sorted(str(self.people.key(o.user)) for o in organisers)
            club["memberships"] = [
                {"player": self.player(m.player), **fields(m, ("joined", "left"))}
                for m in Membership.objects.filter(club=self.club).select_related("player")
            ]
        self.members["club.json"] = club
        self.members["leagues.json"] = self.leagues()
        self.members["events.json"] = [self.event(e) for e in self.events]
        self.members["stages.json"] = [self.stage(s) for s in self.stages()]
        self.members["rounds.json"] = [self.round(r) for e in self.events for r in self.rounds(e)]
        if not self.public:
            self.members["registrations.json"] = self.registrations()
            self.members["conflicts.json"] = self.conflicts()
            self.members["audit.json"] = self.audit()
        self.games()
        self.members["standings.json"] = self.standings()
        if not self.public:
            self.members["referees.json"] = [
                {
                    "user": self.people.key(r.user),
                    "grade": r.grade,
                    "of_club": r.club_id == self.club.pk,
                }
                for r in sorted(self.referees.values(), key=lambda r: r.pk)
            ]
        self.members["players.json"] = self.player_rows()
        self.members["users.json"] = list(self.people.users.values())
        return self.members

    def leagues(self) -> list[dict[str, Any]]:
        season_ids = {e.season_id for e in self.events if e.season_id is not None}
        owned = Q(club=self.club) if self.whole_club else Q(pk__in=[])
        leagues = League.objects.filter(owned | Q(seasons__pk__in=season_ids)).distinct()
        out = []
        for league in leagues.order_by("slug"):
            seasons = league.seasons.order_by("starts_on", "pk")
            if not (self.whole_club and league.club_id == self.club.pk):
                seasons = seasons.filter(pk__in=season_ids)
            out.append(
                {
                    **fields(league, ("name", "slug")),
                    "of_club": league.club_id == self.club.pk,
                    "circuit_profiles": [
                        fields(p, ("slug", "version", "data", "created_at"))
                        for p in league.circuit_profiles.order_by("slug", "version")
                    ],
                    "seasons": [
                        {
                            "key": s.pk,
                            **fields(s, ("name", "starts_on", "ends_on", "circuit_seed")),
                            "circuit": s.circuit.key if s.circuit else None,
                        }
                        for s in seasons.select_related("circuit")
                    ],
                }
            )
        return out

    def event(self, event: Event) -> dict[str, Any]:
        row = fields(event, EVENT_FIELDS)
        row["season"] = event.season_id
        state = EventResults.objects.filter(event=event).first()
        row["results_seed"] = state.seed if state is not None else event.pk
        if not self.public:
            row["staff"] = sorted(str(self.people.key(u)) for u in event.staff.all())
            row["referees"] = sorted(str(self.referee(r)) for r in event.referees.all())
        return row

    def stages(self) -> list[Stage]:
        stages = Stage.objects.filter(event__in=self.events).order_by("event_id", "position")
        return list(stages.select_related("cut_confirmed_by", "event"))

    def stage(self, stage: Stage) -> dict[str, Any]:
        row = {"event": stage.event.slug, **fields(stage, STAGE_FIELDS)}
        row["entry_players"] = self.handles_of(stage.entry_players)
        row["entrants"] = self.handles_of(stage.entrants)
        row["cut_confirmed_by"] = None if self.public else self.people.key(stage.cut_confirmed_by)
        return row

    def rounds(self, event: Event) -> list[Round]:
        rounds = Round.objects.filter(event=event)
        if self.public:
            rounds = rounds.filter(status=Round.Status.RELEASED)
        return list(rounds.order_by("number"))

    def round(self, rnd: Round) -> dict[str, Any]:
        tables = Table.objects.filter(round=rnd).select_related("referee__user").order_by("number")
        seats = Seat.objects.filter(round=rnd).select_related("player").order_by("number")
        by_table: dict[int, list[dict[str, Any]]] = {}
        for seat in seats:
            by_table.setdefault(seat.table_id, []).append(
                {"number": seat.number, "player": self.player(seat.player), "pinned": seat.pinned}
            )
        return {
            "event": self.slug[rnd.event_id],
            **fields(rnd, ("number", "starts_at", "status", "released_at")),
            "tables": [
                {
                    "number": t.number,
                    "referee": self.referee(t.referee),
                    "referee_pinned": t.referee_pinned and not self.public,
                    "seats": by_table.get(t.pk, []),
                }
                for t in tables
            ],
        }

    def registrations(self) -> list[dict[str, Any]]:
        """Full only: no public page lists who registered (a no-show stays unnamed)."""
        if self.public:
            return []
        regs = Registration.objects.filter(event__in=self.events).select_related("player", "event")
        names = ("checked_in_at", "absent_rounds", "waitlisted_at", "notices", "created_at")
        return [
            {"event": r.event.slug, "player": self.player(r.player), "status": r.status}
            | fields(r, names)
            for r in regs.order_by("event_id", "pk")
        ]

    def conflicts(self) -> dict[str, Any]:
        players = PlayerConflict.objects.filter(event__in=self.events).select_related(
            "event", "player_a", "player_b"
        )
        referees = RefereeConflict.objects.filter(club=self.club).select_related(
            "referee__user", "player"
        )
        return {
            "players": [
                {
                    "event": c.event.slug,
                    "players": [self.player(c.player_a), self.player(c.player_b)],
                    "reason": c.reason,
                }
                for c in players.order_by("pk")
            ],
            "referees": [
                {
                    "referee": self.referee(c.referee),
                    "player": self.player(c.player),
                    "reason": c.reason,
                }
                for c in referees.order_by("pk")
            ],
        }

    def audit(self) -> list[dict[str, Any]]:
        entries = AuditEntry.objects.filter(event__in=self.events).select_related("actor", "event")
        return [
            {
                "event": self.slug.get(a.event_id or 0),
                "actor": self.people.key(a.actor),
                **fields(a, ("action", "target_type", "target_id", "data", "at")),
            }
            for a in entries.order_by("at", "pk")
        ]

    # --- games ----------------------------------------------------------------------------

    def game_query(self) -> Any:
        at_events = Q(table__round__event__in=self.events)
        if self.public:
            reader = Access(AnonymousUser())
            released_rounds = Q(table__round__status=Round.Status.RELEASED)
            query = Q(status=Game.Status.RELEASED) & (at_events & released_rounds)
            if self.whole_club:
                query |= Q(status=Game.Status.RELEASED, club=self.club)
            return Game.objects.filter(query).filter(reader.visible_games())
        query = at_events | Q(voided_event__in=self.events)
        if self.whole_club:
            query |= Q(club=self.club)
        return Game.objects.filter(query)

    def games(self) -> None:
        reader = Access(AnonymousUser())
        games = self.game_query().select_related(
            "table__round__event",
            "table__referee__user",
            "referee__user",
            "voided_event",
            "voided_by",
        )
        for game in games.order_by("pk"):
            if self.public:
                versions = versions_for(reader, game)
            else:
                versions = list(
                    game.versions.select_related("submitted_by", "confirmed_by").order_by("number")
                )
            self.game(game, versions)

    def game(self, game: Game, versions: list[GameVersion]) -> None:
        rnd = game.round
        row: dict[str, Any] = {"id": game.pk, **fields(game, GAME_FIELDS)}
        row["event"] = self.slug[rnd.event_id] if rnd is not None else None
        row["round"] = rnd.number if rnd is not None else None
        row["table"] = game.table.number if game.table is not None else None
        row["club_game"] = game.club_id is not None
        row["referee"] = self.referee(game.referee)
        row["voided_event"] = self.slug.get(game.voided_event_id or 0)
        row["voided_by"] = None if self.public else self.people.key(game.voided_by)
        for handle in game.players if isinstance(game.players, list) else []:
            self.handles.add(str(handle))
        row["versions"] = []
        for version in versions:
            meta = fields(version, VERSION_FIELDS)
            meta["submitted_by"] = self.people.key(version.submitted_by)
            meta["confirmed_by"] = self.people.key(version.confirmed_by)
            row["versions"].append(meta)
            self.members[f"games/{game.pk}/v{version.number}.json"] = version.record
            self.record_handles(version.record)
        numbers = {v.pk: v.number for v in versions}
        history = GameStatusChange.objects.filter(game=game).select_related("actor")
        row["history"] = [
            {
                "from": h.from_status,
                "to": h.to_status,
                "version": numbers.get(h.version_id or 0),
                "actor": self.people.key(h.actor),
                "reason": "" if self.public else h.reason,
                "at": plain(h.at),
            }
            for h in history.order_by("at", "pk")
            if not self.public or h.version_id is None or h.version_id in numbers
        ]
        if not self.public:
            sheet = GameSheet.objects.filter(game=game).first()
            if sheet is not None:
                row["sheet"] = {"revision": sheet.revision, "steps": sheet.steps}
        row["protests"] = self.protests(game, numbers)
        self.members[f"games/{game.pk}/game.json"] = row

    def protests(self, game: Game, numbers: dict[int, int]) -> list[dict[str, Any]]:
        """A game's protests: every one (full); the ruled ones, public on the site (public)."""
        if self.public:
            protests = public_protests(game)
        else:
            protests = list(
                Protest.objects.filter(game=game)
                .select_related("player", "filed_by", "ruled_by")
                .order_by("created_at", "pk")
            )
        out = []
        for p in protests:
            row = fields(p, PROTEST_FIELDS)
            row["player"] = self.player(p.player) if p.player is not None else None
            row["filed_by"] = None if self.public else self.people.key(p.filed_by)
            row["ruled_by"] = self.people.key(p.ruled_by)
            row["version"] = numbers.get(p.version_id or 0)
            out.append(row)
        return out

    def record_handles(self, record: Any) -> None:
        seats = record.get("seats") if isinstance(record, dict) else None
        for seat in seats if isinstance(seats, list) else []:
            if isinstance(seat, dict) and isinstance(seat.get("player"), str):
                self.handles.add(seat["player"])

    # --- standings and players ------------------------------------------------------------

    def standings(self) -> dict[str, Any]:
        anonymous = Access(AnonymousUser())
        events: dict[str, Any] = {}
        for event in self.events:
            rows = EventStanding.objects.filter(event=event).order_by("position")
            public_stages = {
                p.position
                for p in event_stages(event)
                if not self.public or visible(anonymous, event, p)
            }
            stage_rows = StageStanding.objects.filter(event=event, stage__in=public_stages)
            events[event.slug] = {
                "standing": [fields(r, STANDING_FIELDS) for r in rows],
                "stages": [
                    fields(r, STAGE_STANDING_FIELDS)
                    for r in stage_rows.order_by("stage", "position")
                ],
            }
            self.handles.update(r.handle for r in rows)
        season_ids = {e.season_id for e in self.events if e.season_id is not None}
        seasons = SeasonStanding.objects.filter(season_id__in=season_ids).select_related("player")
        return {
            "events": events,
            "seasons": [
                {
                    "season": s.season_id,
                    "player": self.player(s.player),
                    **fields(
                        s, ("events", "games", "wins", "points", "circuit_points", "circuit_rank")
                    ),
                }
                for s in seasons.order_by("season_id", "player__handle")
            ],
        }

    def player_rows(self) -> list[dict[str, Any]]:
        for player in Player.objects.filter(handle__in=self.handles).select_related("user"):
            self.players[player.pk] = player
        rows = []
        for player in sorted(self.players.values(), key=lambda p: p.handle):
            row = fields(player, ("handle", "display_name"))
            if not self.public:
                row["user"] = self.people.key(player.user)
            rows.append(row)
        return rows


def club_events(club: Club, public: bool) -> list[Event]:
    events = Event.objects.filter(club=club)
    if public:
        events = events.filter(status=Event.Status.FINISHED)
    return list(events.order_by("starts_on", "pk"))


def export_archive(target: Club | Event, *, public: bool) -> bytes:
    """The archive of a club (every event, its leagues, its stand-alone games) or of one
    event, as the bytes of a zip file. The public variant holds only what anyone may read
    (finished events; a public archive of an unfinished event holds its settings only)."""
    if isinstance(target, Club):
        club, events, whole = target, club_events(target, public), True
        scope = {"kind": "club", "club": club.slug}
    else:
        club, events, whole = target.club, [target], False
        scope = {"kind": "event", "club": club.slug, "event": target.slug}
        if public and target.status != Event.Status.FINISHED:
            events = []
    members = _Exporter(club, events, public, whole).run()
    counts: dict[str, int] = {
        name.removesuffix(".json"): len(value)
        for name, value in members.items()
        if "/" not in name and isinstance(value, list)
    }
    counts["games"] = sum(1 for name in members if name.endswith("/game.json"))
    counts["versions"] = sum(1 for name in members if "/v" in name)
    manifest = {
        "archive_id": uuid.uuid4().hex,
        "created_at": timezone.now().isoformat(),
        "source": {"site": settings.SITE_URL or "", "name": "Tianhei"},
        "scope": scope,
        "public": public,
        "counts": counts,
    }
    return write_zip(members, manifest)
