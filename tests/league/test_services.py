"""League services and database constraints."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from league.draws import selectors as draw_selectors
from league.draws import services as draw_services
from league.errors import CsvImportError, UserError
from league.events import conflicts as event_conflicts
from league.events import imports as event_imports
from league.events import selectors as event_selectors
from league.events import services as event_services
from league.models import (
    AuditEntry,
    DrawJob,
    Event,
    Membership,
    Registration,
    Round,
    Seat,
    Table,
)
from league.permissions import LeagueAccess
from tests.league.factories import (
    ClubFactory,
    ClubOrganiserFactory,
    EventFactory,
    PlayerFactory,
    RefereeFactory,
    RegistrationFactory,
    UserFactory,
    registered_players,
)

pytestmark = pytest.mark.django_db


def not_allowed() -> Any:
    """The refusal every service starts with: 403, code ``not_allowed``."""
    return pytest.raises(UserError, check=lambda e: (e.code, e.status) == ("not_allowed", 403))


@pytest.fixture
def organiser() -> Any:
    return ClubOrganiserFactory().user


@pytest.fixture
def event(organiser: Any) -> Event:
    return EventFactory(club=organiser.organised_clubs.get().club)


def draw(actor: Any, event: Event, capture: Any, **kwargs: Any) -> DrawJob:
    with capture(execute=True):
        job = draw_services.request_draw(actor, event, **kwargs)
    job.refresh_from_db()
    return job


# --- constraints ----------------------------------------------------------------------------


def test_one_seat_per_player_per_round_and_one_player_per_seat(event: Event) -> None:
    a, b = PlayerFactory.create_batch(2)
    rnd = event.rounds.get(number=1)
    t1 = Table.objects.create(round=rnd, number=1)
    t2 = Table.objects.create(round=rnd, number=2)
    Seat.objects.create(round=rnd, table=t1, player=a, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=rnd, table=t2, player=a, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=rnd, table=t1, player=b, number=1)
    Seat.objects.create(round=rnd, table=t1, player=b, number=2)


@pytest.mark.parametrize(
    "make",
    [
        lambda e, p: Registration.objects.create(event=e, player=p),
        lambda e, p: Registration.objects.create(event=e, player=p, status="maybe"),
        lambda e, p: Registration.objects.create(
            event=EventFactory(), player=p, status="withdrawn", checked_in_at=timezone.now()
        ),
        lambda e, p: Round.objects.create(event=e, number=9, status="released"),
        lambda e, p: Round.objects.create(event=e, number=1),
        lambda e, p: Membership.objects.create(
            player=p, club=e.club, joined=dt.date(2025, 2, 1), left=dt.date(2025, 1, 1)
        ),
        lambda e, p: EventFactory(min_table=12, max_table=8),
        lambda e, p: DrawJob.objects.bulk_create(
            [DrawJob(event=e, from_round=1, to_round=1), DrawJob(event=e, from_round=1, to_round=1)]
        ),
    ],
    ids=[
        "duplicate-registration",
        "bad-registration-status",
        "withdrawn-checked-in",
        "released-without-time",
        "duplicate-round",
        "membership-backwards",
        "table-range",
        "two-active-draw-jobs",
    ],
)
def test_database_rejects(event: Event, make: Any) -> None:
    player = PlayerFactory()
    Registration.objects.create(event=event, player=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        make(event, player)


# --- events ---------------------------------------------------------------------------------


def event_fields(**extra: Any) -> dict[str, Any]:
    today = timezone.localdate()
    return {
        "name": "Spring Open 春季赛",
        "venue": "Tea house",
        "starts_on": today,
        "ends_on": today,
        "rounds_count": 3,
        "min_table": 8,
        "max_table": 12,
        **extra,
    }


def test_create_event_makes_rounds_with_start_times_and_audits(organiser: Any) -> None:
    club = organiser.organised_clubs.get().club
    start = timezone.now().replace(microsecond=0)
    starts = [start + dt.timedelta(hours=i) for i in range(3)]
    event = event_services.create_event(organiser, club, round_starts=starts, **event_fields())
    assert event.status == "draft"
    assert event.slug == "spring-open"
    assert [r.starts_at for r in event.rounds.order_by("number")] == starts
    assert AuditEntry.objects.filter(action="event.create", target_id=event.pk).exists()


def test_create_event_checks_club_and_settings(organiser: Any) -> None:
    club = organiser.organised_clubs.get().club
    with not_allowed():
        event_services.create_event(organiser, ClubFactory(), **event_fields())
    with not_allowed():
        event_services.create_event(None, club, **event_fields())
    with pytest.raises(UserError, match="ruleset"):
        event_services.create_event(organiser, club, **event_fields(ruleset="nope"))
    with pytest.raises(UserError, match="precedence"):
        event_services.create_event(
            organiser, club, **event_fields(tiebreak_precedence=["lots", "x"])
        )
    with pytest.raises(UserError, match="no table size"):
        event_services.create_event(
            organiser, club, **event_fields(ruleset="majority", min_table=11, max_table=12)
        )
    event_services.create_event(organiser, club, **event_fields(slug="x"))
    with pytest.raises(UserError, match="already has"):
        event_services.create_event(organiser, club, **event_fields(slug="x"))
    assert Event.objects.count() == 1


def test_update_event_round_count_and_locks(organiser: Any, event: Event) -> None:
    event_services.update_event(organiser, event, rounds_count=5)
    assert event.rounds.count() == 5
    event_services.update_event(organiser, event, rounds_count=2)
    assert event.rounds.count() == 2
    Round.objects.filter(event=event, number=2).update(status="draft")
    with pytest.raises(UserError):
        event_services.update_event(organiser, event, rounds_count=1)
    with pytest.raises(UserError, match="table sizes"):
        event_services.update_event(organiser, event, max_table=10)
    with not_allowed():
        event_services.update_event(UserFactory(), event, name="x")


def test_event_transitions_are_guarded_and_logged(organiser: Any) -> None:
    event = EventFactory(club=organiser.organised_clubs.get().club, status="draft")
    with pytest.raises(UserError):
        event_services.transition_event(organiser, event, "finished")
    event_services.transition_event(organiser, event, "registration")
    event_services.transition_event(organiser, event, "running")
    event_services.transition_event(organiser, event, "finished")
    entries = AuditEntry.objects.filter(action="event.status", target_id=event.pk)
    assert sorted(e.data["after"] for e in entries) == ["finished", "registration", "running"]


# --- registrations --------------------------------------------------------------------------


def test_register_check_in_withdraw(organiser: Any, event: Event) -> None:
    player = PlayerFactory()
    reg = event_services.register_player(organiser, event, player)
    with pytest.raises(UserError, match="already"):
        event_services.register_player(organiser, event, player)
    event_services.check_in(organiser, reg)
    assert reg.checked_in_at is not None
    event_services.check_in(organiser, reg, undo=True)
    assert reg.checked_in_at is None
    event_services.check_in(organiser, reg)
    event_services.withdraw(organiser, reg)
    reg.refresh_from_db()
    assert reg.status == "withdrawn" and reg.checked_in_at is None
    with pytest.raises(UserError):
        event_services.check_in(organiser, reg)
    event_services.register_player(organiser, event, player)
    reg.refresh_from_db()
    assert reg.status == "registered"
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"registration.register", "registration.check_in", "registration.withdraw"} <= actions


def test_player_registers_and_withdraws_themselves_only(event: Event) -> None:
    user = UserFactory()
    me = PlayerFactory(user=user)
    reg = event_services.register_player(user, event, me)
    with not_allowed():
        event_services.register_player(user, event, PlayerFactory())
    with not_allowed():
        event_services.check_in(user, reg)
    other = RegistrationFactory(event=event)
    with not_allowed():
        event_services.withdraw(user, other)
    event_services.withdraw(user, reg)
    event.registration_closes = timezone.now() - dt.timedelta(days=1)
    event.registration_opens = timezone.now() - dt.timedelta(days=2)
    event.save()
    with not_allowed():
        event_services.register_player(user, event, me)


def test_set_absences_validates_rounds(organiser: Any, event: Event) -> None:
    reg = RegistrationFactory(event=event)
    event_services.set_absences(organiser, reg, [2, 2, 3])
    assert reg.absent_rounds == [2, 3]
    with pytest.raises(UserError):
        event_services.set_absences(organiser, reg, [4])


# --- CSV import -----------------------------------------------------------------------------


def test_csv_import_creates_registers_and_checks_in(organiser: Any, event: Event) -> None:
    PlayerFactory(handle="li-wei", display_name="李伟")
    text = (
        f"display_name,handle,club\n李伟,li-wei,\nJosé Núñez,jose,{event.club.slug}\nÆrin,aerin,\n"
    )
    result = event_imports.import_players_csv(organiser, event, text.encode(), check_in=True)
    assert (result.created, result.existing, result.registered) == (2, 1, 3)
    regs = Registration.objects.filter(event=event)
    assert regs.count() == 3 and all(r.checked_in_at for r in regs)
    assert Membership.objects.filter(player__handle="jose", club=event.club).exists()


def test_csv_import_reports_every_bad_row_and_saves_nothing(organiser: Any, event: Event) -> None:
    text = (
        "display_name,handle,club\n"
        "Ana,ana,\n"
        ",empty-name,\n"
        "Bad,has space,\n"
        "Dup,ana,\n"
        "Clubless,c1,no-such-club\n"
    )
    with pytest.raises(CsvImportError) as info:
        event_imports.import_players_csv(organiser, event, text)
    where = [(p.row, p.column) for p in info.value.problems]
    assert where == [(3, "display_name"), (4, "handle"), (5, "handle"), (6, "club")]
    assert not Registration.objects.filter(event=event).exists()
    with pytest.raises(CsvImportError, match="problems"):
        event_imports.import_players_csv(organiser, event, "name,nick\nA,b\n")


def test_csv_import_needs_staff(event: Event) -> None:
    with not_allowed():
        event_imports.import_players_csv(UserFactory(), event, "display_name,handle\nA,a\n")


# --- draws ----------------------------------------------------------------------------------


def seated(rnd: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("number").values_list("player_id", flat=True))
        for t in rnd.tables.order_by("number")
    ]


def test_draw_all_rounds_writes_valid_seating(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 30)
    registered_players(event, 3, checked_in=False)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, seed=3)
    assert job.status == "done", job.error
    assert job.progress == 1.0 and "repeats" in job.metrics
    ids = {p.pk for p in players}
    for rnd in event.rounds.all():
        assert rnd.status == "draft"
        tables = seated(rnd)
        assert sorted(p for t in tables for p in t) == sorted(ids)
        assert all(8 <= len(t) <= 12 for t in tables)
    measures = {
        m.key: m
        for m in draw_selectors.draw_measures(
            event_selectors.visible_rounds(LeagueAccess(organiser), event)
        )
    }
    assert measures["repeats"].value >= measures["repeats"].bound
    assert AuditEntry.objects.filter(action="draw.done", event=event).exists()


@pytest.mark.parametrize("allow", [True, False])
def test_the_event_chooses_whether_a_pair_may_meet_once_more(
    organiser: Any, allow: bool, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # 36 players, 9 rounds: the 32-player orthogonal array with a ninth round plus four
    # players reaches R's bound only with some pairs meeting 4 times (max λ bound 3)
    settings.LEAGUE_DRAW_TIME_LIMIT = 60.0  # the whole search (its effort is counted, not timed)
    event = EventFactory(
        club=organiser.organised_clubs.get().club, rounds_count=9, allow_extra_meeting=allow
    )
    registered_players(event, 36)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, seed=1)
    assert job.status == "done", job.error
    bound = job.metrics["max_meetings_bound"]
    relief = [w for w in job.warnings if w["code"] == "draw.cap_relief"]
    if allow:
        assert job.metrics["max_meetings"] == bound + 1
        assert job.metrics["repeats"] == job.metrics["repeats_bound"]
        assert relief
    else:
        assert job.metrics["max_meetings"] == bound
        assert not relief


def test_draw_failure_is_recorded_with_a_clear_message(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 5)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    assert job.status == "failed"
    assert job.error and job.error["code"] == "draw.too_few_players"
    assert job.error["params"] == {"round": 1, "count": 5, "min": 8}
    assert not Table.objects.filter(round__event=event).exists()


def test_draw_needs_checked_in_players_unless_asked(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 16, checked_in=False)
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    assert job.status == "failed" and job.error == {
        "code": "league.draw.no_checked_in",
        "params": {},
    }
    job = draw(
        organiser,
        event,
        django_capture_on_commit_callbacks,
        from_round=1,
        to_round=1,
        checked_in_only=False,
    )
    assert job.status == "done"


def test_draw_guards(organiser: Any, event: Event, django_capture_on_commit_callbacks: Any) -> None:
    registered_players(event, 16)
    with pytest.raises(UserError, match="earlier"):
        draw_services.request_draw(organiser, event, from_round=2)
    with not_allowed():
        draw_services.request_draw(UserFactory(), event, from_round=1)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    with pytest.raises(UserError, match="already drawn"):
        draw_services.request_draw(organiser, event, from_round=1, to_round=1)
    r1 = event.rounds.get(number=1)
    draw_services.confirm_round(organiser, r1)
    draw_services.release_round(organiser, r1)
    with pytest.raises(UserError, match="released"):
        draw_services.request_draw(organiser, event, from_round=1)


def test_redraw_after_withdrawal_keeps_released_rounds(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 17)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    r1 = event.rounds.get(number=1)
    before = seated(r1)
    draw_services.confirm_round(organiser, r1)
    draw_services.release_round(organiser, r1)
    event.refresh_from_db()
    assert event.status == "running"
    gone = players[0]
    event_services.withdraw(organiser, Registration.objects.get(event=event, player=gone))
    # the engine is handed the rounds being replaced, to start from (a few moves then)
    from league.draws.bridge import build_input

    replaced = [seated(event.rounds.get(number=n)) for n in (2, 3)]
    previous = build_input(event, 2, 3, seed=1).problem.previous_draw
    assert [[sorted(int(p) for p in t) for t in rnd] for rnd in previous] == [
        [sorted(t) for t in rnd] for rnd in replaced
    ]
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=2)
    assert job.status == "done", job.error
    assert seated(event.rounds.get(number=1)) == before
    for number in (2, 3):
        players_now = [p for t in seated(event.rounds.get(number=number)) for p in t]
        assert gone.pk not in players_now and len(players_now) == 16


def test_absent_players_sit_out_their_rounds(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 17)
    reg = Registration.objects.get(event=event, player=players[0])
    event_services.set_absences(organiser, reg, [2])
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    assert job.status == "done", job.error
    assert Seat.objects.filter(round__event=event, player=players[0]).count() == 2
    assert not Seat.objects.filter(round__number=2, round__event=event, player=players[0]).exists()


def test_swap_move_referee_confirm_release(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 16)
    refs = RefereeFactory.create_batch(3)
    event.referees.add(*refs)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    rnd = event.rounds.get(number=1)
    t1, t2 = rnd.tables.order_by("number")
    a = t1.seats.get(number=1)
    b = t2.seats.get(number=3)
    draw_services.swap_players(organiser, rnd, a.player, b.player)
    assert Seat.objects.get(round=rnd, player=a.player).table_id == t2.pk
    assert Seat.objects.get(round=rnd, player=a.player).number == 3
    assert Seat.objects.get(round=rnd, player=b.player).number == 1
    free = next(r for r in refs if not rnd.tables.filter(referee=r).exists())
    draw_services.move_referee(organiser, t1, free)
    t1.refresh_from_db()
    assert t1.referee == free
    other = t2.referee
    draw_services.move_referee(organiser, t1, other) if other else None
    if other:
        t2.refresh_from_db()
        assert t2.referee == free
    with pytest.raises(UserError, match="not on this event"):
        draw_services.move_referee(organiser, t1, RefereeFactory())
    with pytest.raises(UserError):
        draw_services.release_round(organiser, rnd)
    draw_services.confirm_round(organiser, rnd)
    with pytest.raises(UserError, match="reopen it"):
        draw_services.swap_players(organiser, rnd, a.player, b.player)
    draw_services.reopen_round(organiser, rnd)
    draw_services.confirm_round(organiser, rnd)
    draw_services.release_round(organiser, rnd)
    rnd.refresh_from_db()
    assert rnd.status == "released" and rnd.released_at is not None
    assert [r.number for r in event_selectors.public_rounds(event)] == [1]


def test_move_referee_refuses_own_club(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 16)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    rnd = event.rounds.get(number=1)
    table = Seat.objects.get(round=rnd, player=players[0]).table
    club = ClubFactory()
    Membership.objects.create(player=players[0], club=club, joined=dt.date(2025, 1, 1))
    ref = RefereeFactory(club=club)
    event.referees.add(ref)
    with pytest.raises(UserError, match="own club"):
        draw_services.move_referee(organiser, table, ref)


def test_swap_refuses_declared_player_conflict(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 16)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1, to_round=1)
    rnd = event.rounds.get(number=1)
    t1, t2 = rnd.tables.order_by("number")
    a = t1.seats.get(number=1).player
    b = t2.seats.get(number=1).player
    c = t2.seats.get(number=2).player
    from league.models import PlayerConflict

    lo, hi = sorted([a, c], key=lambda p: p.pk)
    PlayerConflict.objects.create(event=event, player_a=lo, player_b=hi)
    with pytest.raises(UserError, match="must not meet"):
        draw_services.swap_players(organiser, rnd, a, b)


def test_public_selector_never_returns_unreleased_rounds(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    registered_players(event, 16)
    draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    rounds = event.rounds.order_by("number")
    draw_services.confirm_round(organiser, rounds[0])
    draw_services.confirm_round(organiser, rounds[1])
    assert event_selectors.public_rounds(event) == []
    draw_services.release_round(organiser, rounds[0])
    assert [r.number for r in event_selectors.public_rounds(event)] == [1]
    with pytest.raises(UserError, match="Release round 2 first"):
        draw_services.release_round(organiser, rounds[2])


def test_declared_conflicts_are_respected_by_the_draw(
    organiser: Any, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered_players(event, 16)
    event_conflicts.declare_player_conflict(organiser, event, players[0], players[1], "siblings")
    with pytest.raises(UserError, match="already"):
        event_conflicts.declare_player_conflict(organiser, event, players[1], players[0])
    ref_a, ref_b = RefereeFactory.create_batch(2)
    event.referees.add(ref_a, ref_b)
    event_conflicts.declare_referee_conflict(organiser, event, ref_a, players[2])
    job = draw(organiser, event, django_capture_on_commit_callbacks, from_round=1)
    assert job.status == "done", job.error
    for rnd in event.rounds.all():
        t0 = Seat.objects.get(round=rnd, player=players[0]).table_id
        assert Seat.objects.get(round=rnd, player=players[1]).table_id != t0
        assert Seat.objects.get(round=rnd, player=players[2]).table.referee_id != ref_a.pk
    pc, rc = event_selectors.event_conflicts(event)
    assert len(pc) == 1 and len(rc) == 1
    event_conflicts.remove_conflict(organiser, event, pc[0])
    assert event_selectors.event_conflicts(event)[0] == []


def test_a_lost_draw_job_expires(organiser: Any, event: Event) -> None:
    registered_players(event, 16)
    stale = DrawJob.objects.create(event=event, from_round=1, to_round=1, status="running")
    DrawJob.objects.filter(pk=stale.pk).update(
        created_at=timezone.now() - draw_services.STALE_DRAW_AFTER - dt.timedelta(minutes=1)
    )
    draw_services.request_draw(organiser, event, from_round=1)
    stale.refresh_from_db()
    assert stale.status == "failed" and stale.error == {"code": "league.draw.stale", "params": {}}


def test_registration_search_any_script(event: Event) -> None:
    for name, handle in (("王芳", "wf1"), ("José Núñez", "jn"), ("Anna", "anna")):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name, handle=handle))

    def found(query: str) -> list[str]:
        return [r.player.handle for r in event_selectors.registrations(event, query)]

    assert found("wangfang") == ["wf1"]
    assert found("wf") == ["wf1"]
    assert found("王") == ["wf1"]
    assert found("jose nunez") == ["jn"]
    assert found("@ann") == ["anna"]
    assert len(found("")) == 3


def test_move_referee_refuses_a_swap_that_displaces_into_a_conflict(
    organiser: Any, event: Event
) -> None:
    from tests.league.factories import lay_out

    players = registered_players(event, 16)
    rnd = event.rounds.get(number=1)
    t1, t2 = lay_out(rnd, players)
    ref_a, ref_b = RefereeFactory.create_batch(2)
    event.referees.add(ref_a, ref_b)
    Table.objects.filter(pk=t1.pk).update(referee=ref_a)
    Table.objects.filter(pk=t2.pk).update(referee=ref_b)
    event_conflicts.declare_referee_conflict(organiser, event, ref_a, players[8])  # sits at table 2
    with pytest.raises(UserError, match="would move to table 2"):
        draw_services.move_referee(organiser, t1, ref_b)
    event_conflicts.declare_referee_conflict(organiser, event, ref_b, players[0])
    with pytest.raises(UserError, match="may not judge"):
        draw_services.move_referee(organiser, t1, ref_b)
