"""Writing an archive's rows (called by :func:`results.archives.imports.import_archive`
inside its transaction, after the collision checks).

The rows are written as they were — statuses, times, versions and history included —
not replayed through the services: an archive is a record of what happened, and the
services would stamp today's date and today's actor on it. What the database
guarantees still holds (every constraint applies), every confirmed record is judged
again by the engine (:func:`games.records.check_record`), and the results are computed
here, never copied.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db.models import Model
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameSheet, GameStatusChange, GameVersion, Protest
from games.records import NotARecordError, check_record, require_record_shape
from league.audit import AuditEntry
from league.models import (
    CircuitProfile,
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
    Season,
    Seat,
    Table,
)
from league.stages.models import Stage
from results.archives.bundle import Archive, ArchiveError
from results.archives.schema import CLUB_FIELDS, EVENT_FIELDS, PROTEST_FIELDS, STAGE_FIELDS
from results.models import EventResults, EventStanding
from results.pipeline.ratings import update_ratings
from results.pipeline.standings import recompute_event, recompute_season


def rows(archive: Archive, name: str) -> list[dict[str, Any]]:
    """A member that must be a list of objects (absent: empty)."""
    value = archive.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ArchiveError(
            _("The archive's %(name)s is not a list of objects."),
            code="archive.inconsistent",
            params={"name": name},
        )
    return value


def _date(value: Any) -> dt.date | None:
    return parse_date(value) if isinstance(value, str) else None


def _time(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if isinstance(value, str) else None


M = TypeVar("M", bound=Model)

DATES = {"starts_on", "ends_on", "joined", "left", "played_on"}
TIMES = {
    "registration_opens", "registration_closes", "created_at", "cut_confirmed_at",
    "finished_at", "starts_at", "released_at", "checked_in_at", "waitlisted_at",
    "voided_at", "submitted_at", "confirmed_at", "updated_at", "at", "ruled_at",
}  # fmt: skip
DECIMALS = {"multiplier", "carry"}


def _value(name: str, value: Any) -> Any:
    if name in DATES:
        return _date(value)
    if name in TIMES:
        return _time(value)
    if name in DECIMALS:
        return Decimal(str(value))
    return value


def _take(row: dict[str, Any], names: tuple[str, ...] | list[str]) -> dict[str, Any]:
    return {n: _value(n, row[n]) for n in names if n in row}


def _keep_times(model: type[Model], objs: list[Any], names: list[str]) -> None:
    """Put back the archived times that ``auto_now_add`` replaced on insert."""
    if objs:
        model.objects.bulk_update(objs, names, batch_size=500)  # type: ignore[attr-defined]


def _clean(obj: M) -> M:
    """Field checks (lengths, choices) for a row about to be saved."""
    obj.clean_fields(exclude=[f.name for f in obj._meta.fields if f.is_relation])
    return obj


class Loader:
    def __init__(self, archive: Archive, reused_leagues: list[str]) -> None:
        self.archive = archive
        self.reused_leagues = set(reused_leagues)
        self.users: dict[str, User] = {}
        self.players: dict[str, Player] = {}
        self.referees: dict[str, Referee] = {}
        self.seasons: dict[int, Season] = {}
        self.events: list[Event] = []
        self.event: dict[str, Event] = {}
        self.tables: dict[tuple[str, int, int], Table] = {}
        self.games: dict[int, Game] = {}
        self.club: Club
        #: The club's memberships, when the import creates the club.
        self.memberships: list[dict[str, Any]] = []

    def load(self) -> None:
        self.load_users()
        self.load_club()
        self.load_leagues()
        self.load_players()
        self.load_events()
        self.load_stages()
        self.load_rounds()
        self.load_registrations()
        self.load_games()
        self.load_audit()

    # --- people ---------------------------------------------------------------------------

    def load_users(self) -> None:
        prefix = f"archive-{self.archive.digest[:8]}-"
        for row in rows(self.archive, "users.json"):
            key = str(row["key"])
            username = str(row.get("username") or prefix + key)[:150]
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User(
                    username=username,
                    email=str(row.get("email") or ""),
                    first_name=str(row.get("first_name") or ""),
                    last_name=str(row.get("last_name") or ""),
                    is_active=False,
                    password=make_password(None),
                )
                user.full_clean(exclude=["password"], validate_unique=False)
                user.save()
            self.users[key] = user

    def user(self, key: Any) -> User | None:
        return None if key is None else self.users[str(key)]

    def load_players(self) -> None:
        for row in rows(self.archive, "players.json"):
            handle = str(row["handle"])
            player = Player.objects.filter(handle=handle).first()
            if player is None:
                user = self.user(row.get("user"))
                if user is not None and Player.objects.filter(user=user).exists():
                    user = None  # the account already stands for another player here
                player = _clean(Player(handle=handle, display_name=row["display_name"], user=user))
                player.save()
            self.players[handle] = player
        for row in rows(self.archive, "referees.json"):
            user = self.users[str(row["user"])]
            referee = Referee.objects.filter(user=user).first()
            if referee is None:
                club = self.club if row.get("of_club") else None
                referee = Referee.objects.create(user=user, club=club, grade=int(row["grade"]))
            self.referees[str(row["user"])] = referee

    def player_ids(self, handles: Any) -> list[int] | None:
        if handles is None:
            return None
        return [self.players[str(h)].pk for h in handles]

    # --- club, leagues, events ------------------------------------------------------------

    def load_club(self) -> None:
        row = self.archive.get("club.json")
        if not isinstance(row, dict):
            raise KeyError("club.json")
        club = Club.objects.filter(slug=row["slug"]).first()
        if club is None:
            club = _clean(Club(**_take(row, CLUB_FIELDS)))
            club.save()
            for key in row.get("organisers") or []:
                ClubOrganiser.objects.get_or_create(club=club, user=self.users[str(key)])
            self.memberships = row.get("memberships") or []
        self.club = club

    def load_leagues(self) -> None:
        for row in rows(self.archive, "leagues.json"):
            if row["slug"] in self.reused_leagues:
                league = League.objects.get(slug=row["slug"])
                have: dict[tuple[str, Any], Season] = {
                    (s.name, s.starts_on): s for s in league.seasons.all()
                }
                for s in row.get("seasons") or []:
                    self.seasons[int(s["key"])] = have[(s["name"], _date(s["starts_on"]))]
                continue
            league = League.objects.create(
                name=row["name"], slug=row["slug"], club=self.club if row.get("of_club") else None
            )
            profiles = {}
            for p in row.get("circuit_profiles") or []:
                profile = CircuitProfile.objects.create(
                    league=league, slug=p["slug"], version=int(p["version"]), data=p["data"]
                )
                profiles[profile.key] = profile
            for s in row.get("seasons") or []:
                season = _clean(
                    Season(
                        league=league,
                        circuit=profiles[s["circuit"]] if s.get("circuit") else None,
                        **_take(s, ("name", "starts_on", "ends_on", "circuit_seed")),
                    )
                )
                season.save()
                self.seasons[int(s["key"])] = season

    def load_events(self) -> None:
        for row in self.memberships:
            Membership.objects.create(
                player=self.players[str(row["player"])],
                club=self.club,
                **_take(row, ("joined", "left")),
            )
        for row in rows(self.archive, "events.json"):
            season = self.seasons[int(row["season"])] if row.get("season") is not None else None
            event = Event(club=self.club, season=season, **_take(row, EVENT_FIELDS))
            _clean(event).save()
            event.created_at = _time(row.get("created_at")) or event.created_at
            _keep_times(Event, [event], ["created_at"])
            event.staff.set([self.users[str(k)] for k in row.get("staff") or []])
            event.referees.set([self.referees[str(k)] for k in row.get("referees") or []])
            EventResults.objects.create(event=event, seed=int(row["results_seed"]), stale=True)
            self.events.append(event)
            self.event[event.slug] = event

    def load_stages(self) -> None:
        for row in rows(self.archive, "stages.json"):
            stage = Stage(
                event=self.event[str(row["event"])],
                entry_players=self.player_ids(row.get("entry_players")) or [],
                entrants=self.player_ids(row.get("entrants")),
                cut_confirmed_by=self.user(row.get("cut_confirmed_by")),
                **_take(row, STAGE_FIELDS),
            )
            _clean(stage).save()

    def load_rounds(self) -> None:
        seats = []
        for row in rows(self.archive, "rounds.json"):
            event = self.event[str(row["event"])]
            rnd = Round.objects.create(
                event=event, **_take(row, ("number", "starts_at", "status", "released_at"))
            )
            for t in row["tables"]:
                referee = self.referees[str(t["referee"])] if t.get("referee") else None
                table = Table.objects.create(
                    round=rnd,
                    number=int(t["number"]),
                    referee=referee,
                    referee_pinned=bool(t.get("referee_pinned")),
                )
                self.tables[(event.slug, rnd.number, table.number)] = table
                seats += [
                    Seat(
                        round=rnd,
                        table=table,
                        player=self.players[str(s["player"])],
                        number=int(s["number"]),
                        pinned=bool(s.get("pinned")),
                    )
                    for s in t["seats"]
                ]
        Seat.objects.bulk_create(seats, batch_size=1000)

    def load_registrations(self) -> None:
        regs = []
        names = ("status", "checked_in_at", "absent_rounds", "waitlisted_at", "notices")
        for row in rows(self.archive, "registrations.json"):
            reg = Registration(
                event=self.event[str(row["event"])],
                player=self.players[str(row["player"])],
                **_take(row, names),
            )
            reg.created_at = _time(row.get("created_at"))  # type: ignore[assignment]
            regs.append(reg)
        created = Registration.objects.bulk_create(regs, batch_size=1000)
        for reg, row in zip(created, rows(self.archive, "registrations.json"), strict=True):
            reg.created_at = _time(row.get("created_at")) or reg.created_at
        _keep_times(Registration, created, ["created_at"])
        conflicts = self.archive.get("conflicts.json") or {}
        for c in conflicts.get("players") or []:
            a, b = sorted((self.players[str(h)] for h in c["players"]), key=lambda p: p.pk)
            PlayerConflict.objects.create(
                event=self.event[str(c["event"])], player_a=a, player_b=b, reason=c["reason"]
            )
        for c in conflicts.get("referees") or []:
            RefereeConflict.objects.get_or_create(
                club=self.club,
                referee=self.referees[str(c["referee"])],
                player=self.players[str(c["player"])],
                defaults={"reason": c["reason"]},
            )

    # --- games ----------------------------------------------------------------------------

    def game_rows(self) -> list[tuple[int, dict[str, Any]]]:
        found = []
        for name, value in self.archive.members.items():
            if name.startswith("games/") and name.endswith("/game.json"):
                if not isinstance(value, dict) or f"games/{value.get('id')}/game.json" != name:
                    raise KeyError(name)
                found.append((int(value["id"]), value))
        return sorted(found, key=lambda pair: pair[0])

    def load_games(self) -> None:
        names = (
            "ruleset", "players", "title", "played_on", "status", "import_key", "revision",
            "voided_round", "voided_table", "void_reason", "voided_at",
        )  # fmt: skip
        for key, row in self.game_rows():
            table = None
            if row.get("table") is not None:
                table = self.tables[(str(row["event"]), int(row["round"]), int(row["table"]))]
            game = Game(
                table=table,
                club=self.club if row.get("club_game") else None,
                referee=self.referees[str(row["referee"])] if row.get("referee") else None,
                voided_event=self.event[str(row["voided_event"])]
                if row.get("voided_event")
                else None,
                voided_by=self.user(row.get("voided_by")),
                **_take(row, names),
            )
            _clean(game).save()
            self.games[key] = game
            self.load_versions(key, game, row)
            game.created_at = _time(row.get("created_at")) or game.created_at
            game.updated_at = _time(row.get("updated_at")) or game.updated_at
            _keep_times(Game, [game], ["created_at", "updated_at"])

    def load_versions(self, key: int, game: Game, row: dict[str, Any]) -> None:
        versions = {}
        names = (
            "number", "source", "reason", "status", "valid", "completeness", "violations",
            "winner", "ended", "confirmed_at",
        )  # fmt: skip
        for meta in row.get("versions") or []:
            record = self.archive.get(f"games/{key}/v{int(meta['number'])}.json")
            version = GameVersion(
                game=game,
                record=self.judged(game, meta, record),
                submitted_by=self.user(meta.get("submitted_by")),
                confirmed_by=self.user(meta.get("confirmed_by")),
                **_take(meta, names),
            )
            _clean(version).save()
            version.submitted_at = _time(meta.get("submitted_at")) or version.submitted_at
            _keep_times(GameVersion, [version], ["submitted_at"])
            versions[version.number] = version
        history = [
            GameStatusChange(
                game=game,
                from_status=h["from"],
                to_status=h["to"],
                version=versions.get(h["version"]) if h.get("version") is not None else None,
                actor=self.user(h.get("actor")),
                reason=h.get("reason") or "",
            )
            for h in row.get("history") or []
        ]
        created = GameStatusChange.objects.bulk_create(history)
        for change, h in zip(created, row.get("history") or [], strict=True):
            change.at = _time(h.get("at")) or change.at
        _keep_times(GameStatusChange, created, ["at"])
        sheet = row.get("sheet")
        if isinstance(sheet, dict):
            GameSheet.objects.create(
                game=game, revision=int(sheet["revision"]), steps=sheet["steps"]
            )
        self.load_protests(game, row.get("protests") or [], versions)

    def load_protests(
        self, game: Game, protests: list[Any], versions: dict[int, GameVersion]
    ) -> None:
        names = tuple(n for n in PROTEST_FIELDS if n not in ("created_at", "updated_at"))
        for p in protests:
            protest = Protest(
                game=game,
                player=self.players[str(p["player"])] if p.get("player") else None,
                filed_by=self.user(p.get("filed_by")),
                ruled_by=self.user(p.get("ruled_by")),
                version=versions.get(p["version"]) if p.get("version") is not None else None,
                **_take(p, names),
            )
            _clean(protest).save()
            protest.created_at = _time(p.get("created_at")) or protest.created_at
            protest.updated_at = _time(p.get("updated_at")) or protest.updated_at
            _keep_times(Protest, [protest], ["created_at", "updated_at"])

    def judged(self, game: Game, meta: dict[str, Any], record: Any) -> dict[str, Any]:
        """The record of a version: KGR/1 always; valid and complete if it counts."""
        where = {"game": game.title or str(meta.get("number")), "number": meta.get("number")}
        try:
            if meta.get("status") != GameVersion.Status.CONFIRMED:
                return require_record_shape(record)
            check = check_record(game, record)
        except NotARecordError:
            check = None
        if check is None or not check.valid or not check.complete:
            raise ArchiveError(
                _("The archive's record of game %(game)s, version %(number)s, is not valid."),
                code="archive.bad_record",
                params=where,
            )
        return check.record

    def load_audit(self) -> None:
        entries = []
        for row in rows(self.archive, "audit.json"):
            data: dict[str, Any] = row["data"] if isinstance(row.get("data"), dict) else {}
            entries.append(
                AuditEntry(
                    actor=self.user(row.get("actor")),
                    action=str(row["action"])[:60],
                    target_type=str(row["target_type"])[:60],
                    target_id=0,
                    event=self.event.get(str(row.get("event"))),
                    data={**data, "archived_target_id": row.get("target_id")},
                )
            )
        created = AuditEntry.objects.bulk_create(entries, batch_size=1000)
        for entry, row in zip(created, rows(self.archive, "audit.json"), strict=True):
            entry.at = _time(row.get("at")) or entry.at
        _keep_times(AuditEntry, created, ["at"])

    # --- results --------------------------------------------------------------------------

    def recompute(self) -> list[str]:
        """Standings of every imported event, their seasons, then the ratings; the slugs
        of events whose standing differs from the archived one."""
        for event in self.events:
            recompute_event(event.pk, force=True, season=False)
        for season_id in {e.season_id for e in self.events if e.season_id is not None}:
            recompute_season(season_id)
        released = [g.pk for g in self.games.values() if g.status == Game.Status.RELEASED]
        update_ratings(released)
        return self.differences()

    def differences(self) -> list[str]:
        archived = self.archive.get("standings.json") or {}
        ids = {key: game.pk for key, game in self.games.items()}
        different = []
        for event in self.events:
            want = (archived.get("events") or {}).get(event.slug, {}).get("standing") or []
            have = EventStanding.objects.filter(event=event).order_by("position")
            got = [
                [r.handle, r.rank, r.tied, str(r.points), r.wins, r.games, r.metrics] for r in have
            ]
            expected = [
                [
                    w["handle"],
                    w["rank"],
                    w["tied"],
                    w["points"],
                    w["wins"],
                    w["games"],
                    w["metrics"],
                ]
                for w in want
            ]
            items = [[i.get("game") for i in r.items] for r in have]
            want_items = [[ids.get(i.get("game"), i.get("game")) for i in w["items"]] for w in want]
            if got != expected or items != want_items:
                different.append(event.slug)
        return different
