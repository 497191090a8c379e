"""Web pages benchmark: standings, leaderboard, player, home, venue and analytics pages on
a big league.

Builds (or reuses) a PostgreSQL database of 10,000 players in 300 clubs who played
200,000 released games (2,000 events of 10 rounds × 10 tables of 12), computes every
standing and rating with the results pipeline (timed: the ratings rebuild is the figure
with a one-minute goal), then serves the site with gunicorn (DEBUG off) on 127.0.0.1 and
measures, with 20 concurrent HTTP clients (a threaded client in this file), the median
and p95 latency and the throughput of each page: the rating leaderboard, a player page,
an event's standings, the home page, an event's venue screen, the JSON its screens poll
(20 screens' worth of events) and the analytics page (when ``results:analytics`` exists).
First it measures ``/healthz`` the same way, the baseline: a request through the same
server, middleware and database connection that renders nothing; each page's p95 is also
printed as a ratio to the baseline's. It also times the pipeline after a new
confirmation and after a correction of the oldest game.

The newest :data:`LIVE_EVENTS` events are set running before the load (idempotent), so
the home page has events in play and their venue screens a round to show.

    .venv/bin/python bench/web.py                    # build the dataset, then measure
    .venv/bin/python bench/web.py --reuse            # measure against the existing dataset
    .venv/bin/python bench/web.py --games 20000 --players 2000 --events 200   # smaller
    .venv/bin/python bench/web.py --reuse --pages home,venue,venue-poll,analytics

Only ever talks to 127.0.0.1 (PostgreSQL and the server it starts); each load phase is
bounded by --seconds. Records are real KGR/1 games: a pool from ``engine.simulate``,
each reused with other players in the seats (the log refers to seats, so a record stays
valid). Seat rows of the draw are not created (no page here reads them).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlparse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tianhei_bench"
LOCAL = {"127.0.0.1", "localhost", "::1"}
SECRET = "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"


def setup_django(db_url: str, redis_url: str) -> None:
    os.environ["DATABASE_URL"] = db_url
    if redis_url:
        os.environ["REDIS_URL"] = redis_url  # the production cache (docker-compose)
    os.environ["DEBUG"] = "0"  # also keeps Django from recording every query in memory
    os.environ["SECRET_KEY"] = SECRET
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def recreate_database(db_url: str) -> None:
    import psycopg

    u = urlparse(db_url)
    name = u.path.lstrip("/")
    admin = u._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def tune_database(db_url: str) -> None:
    """The planner setting docker-compose gives PostgreSQL (data in memory or on SSD)."""
    import psycopg

    name = urlparse(db_url).path.lstrip("/")
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET random_page_cost = 1.1')


# --- loading ---------------------------------------------------------------------------------


def copy_rows(model: Any, rows: Iterable[dict[str, Any]]) -> int:
    """COPY ``rows`` (dicts by field name, ids included) into ``model``'s table; fields
    not given take their Python default (through the site's one COPY helper)."""
    from django.db.models import JSONField

    from results.bulk import copy_in

    fields = list(model._meta.concrete_fields)

    def values(row: dict[str, Any]) -> list[Any]:
        out = []
        for f in fields:
            if f.attname in row:
                value = row[f.attname]
            elif f.name in row:
                value = row[f.name]
            else:
                value = f.get_default()
            if isinstance(f, JSONField) and value is not None:
                value = json.dumps(value)
            out.append(value)
        return out

    return copy_in(model, [f.attname for f in fields], (values(row) for row in rows))


def reset_sequences(*models: Any) -> None:
    from django.core.management.color import no_style
    from django.db import connection

    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(sql)


def record_pool(size: int, seed: int) -> list[dict[str, Any]]:
    from engine.simulate import simulate_game

    return [simulate_game("classic", 12, seed * 100_003 + i) for i in range(size)]


def build(args: argparse.Namespace) -> dict[str, float]:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import Game, GameVersion
    from league.models import Club, Event, League, Membership, Player, Round, Season, Table

    timings: dict[str, float] = {}
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    timings["migrate"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    pool = record_pool(args.pool, args.seed)
    timings["simulate_pool"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    now = timezone.now()
    User = get_user_model()
    submitter = User.objects.create_user("bench-referee")
    confirmer = User.objects.create_user("bench-organiser")
    clubs = Club.objects.bulk_create(
        Club(name=f"Club {i:03d}", slug=f"club-{i:03d}", city="Beijing") for i in range(args.clubs)
    )
    players = Player.objects.bulk_create(
        (Player(display_name=f"玩家 {i:05d}", handle=f"p{i:05d}") for i in range(args.players)),
        batch_size=5000,
    )
    Membership.objects.bulk_create(
        (
            Membership(player=p, club=clubs[i % len(clubs)], joined=dt.date(2024, 1, 1))
            for i, p in enumerate(players)
        ),
        batch_size=5000,
    )
    by_club: list[list[str]] = [[] for _ in clubs]
    for i, p in enumerate(players):
        by_club[i % len(clubs)].append(p.handle)
    league = League.objects.create(name="National league", slug="national")
    seasons = [
        Season.objects.create(
            league=league, name=str(y), starts_on=dt.date(y, 1, 1), ends_on=dt.date(y, 12, 31)
        )
        for y in (2025, 2026)
    ]
    first_day = dt.date(2025, 1, 4)
    days = 640
    events = []
    for e in range(args.events):
        club = clubs[e % len(clubs)]
        day = first_day + dt.timedelta(days=e * days // max(1, args.events))
        events.append(
            Event(
                club=club,
                season=seasons[0] if day.year == 2025 else seasons[1],
                name=f"{club.name} Open {e:04d}",
                slug=f"open-{e:04d}",
                starts_on=day,
                ends_on=day,
                rounds_count=args.rounds,
                min_table=8,
                max_table=12,
                status=Event.Status.FINISHED,
            )
        )
    events = Event.objects.bulk_create(events, batch_size=2000)
    rounds = Round.objects.bulk_create(
        (
            Round(
                event=ev,
                number=r,
                status=Round.Status.RELEASED,
                starts_at=timezone.make_aware(
                    dt.datetime.combine(ev.starts_on, dt.time(9 + r // 2, 30 * (r % 2)))
                ),
                released_at=now,
            )
            for ev in events
            for r in range(1, args.rounds + 1)
        ),
        batch_size=5000,
    )
    timings["league_rows"] = time.perf_counter() - t0

    # Tables, games and confirmed versions: COPY with explicit ids.
    t0 = time.perf_counter()
    tables_per_round = args.games // (args.events * args.rounds)
    field_size = tables_per_round * 12
    table_rows: list[dict[str, Any]] = []
    game_rows: list[dict[str, Any]] = []
    version_rows: list[dict[str, Any]] = []
    gid = 0
    rounds_by_event: dict[int, list[Any]] = {}
    for rnd in rounds:
        rounds_by_event.setdefault(rnd.event_id, []).append(rnd)
    for e, ev in enumerate(events):
        c = e % len(clubs)
        candidates = [h for k in range(4) for h in by_club[(c + k) % len(clubs)]]
        field = rng.sample(candidates, min(field_size, len(candidates)))
        for rnd in rounds_by_event[ev.pk]:
            rng.shuffle(field)
            for t in range(tables_per_round):
                gid += 1
                seated = field[t * 12 : (t + 1) * 12]
                if len(seated) < 12:
                    continue
                template = pool[gid % len(pool)]
                record = dict(template)
                record["seats"] = [
                    {**s, "player": seated[i]} for i, s in enumerate(template["seats"])
                ]
                table_rows.append({"id": gid, "round_id": rnd.pk, "number": t + 1})
                game_rows.append(
                    {
                        "id": gid,
                        "table_id": gid,
                        "status": "released",
                        "revision": 4,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
                version_rows.append(
                    {
                        "id": gid,
                        "game_id": gid,
                        "number": 1,
                        "record": record,
                        "source": "upload",
                        "submitted_by_id": submitter.pk,
                        "submitted_at": now,
                        "status": "confirmed",
                        "valid": True,
                        "completeness": "finished",
                        "violations": [],
                        "winner": record["result"]["winner"],
                        "ended": "",
                        "confirmed_by_id": confirmer.pk,
                        "confirmed_at": now,
                    }
                )
    timings["generate_games"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    with transaction.atomic():
        copy_rows(Table, table_rows)
        copy_rows(Game, game_rows)
        copy_rows(GameVersion, version_rows)
        reset_sequences(Table, Game, GameVersion)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    timings["copy_games"] = time.perf_counter() - t0
    timings["games"] = len(game_rows)
    return timings


def _recompute_events(ids: list[int]) -> None:
    from django.db import connections

    from results.pipeline.standings import recompute_event

    try:
        for event_id in ids:
            recompute_event(event_id, force=True, season=False)
    finally:
        connections.close_all()


def compute(args: argparse.Namespace) -> dict[str, float]:
    """Every standing (2 processes) and the full ratings rebuild (timed on its own)."""
    import multiprocessing

    from django.db import connection, connections

    from league.models import Event
    from results.pipeline.ratings import rebuild_ratings

    timings: dict[str, float] = {}
    ids = list(Event.objects.order_by("pk").values_list("pk", flat=True))
    connections.close_all()
    t0 = time.perf_counter()
    jobs = max(1, args.jobs)
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_recompute_events, args=(ids[i::jobs],)) for i in range(jobs)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    from django.db import transaction

    from league.models import Season
    from results.pipeline.standings import recompute_season

    with transaction.atomic():
        for season_id in Season.objects.values_list("pk", flat=True):
            recompute_season(season_id)
    timings["rebuild_standings_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    report = rebuild_ratings()
    timings["rebuild_ratings_s"] = time.perf_counter() - t0
    timings["rating_points"] = report.points_written
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return timings


def pipeline_latency() -> dict[str, float]:
    """The pipeline after one new released game, and after correcting the oldest game."""
    from django.db import transaction

    from games.models import Game, GameVersion
    from results.services import process_game

    out: dict[str, float] = {}
    newest = Game.objects.order_by("-pk").first()
    oldest = Game.objects.order_by("table__round__starts_at", "pk").first()
    assert newest is not None and oldest is not None
    # A "new" game: make the newest unreleased, catch up, release it again.
    Game.objects.filter(pk=newest.pk).update(status="confirmed")
    process_game(newest.pk)
    Game.objects.filter(pk=newest.pk).update(status="released")
    t0 = time.perf_counter()
    process_game(newest.pk)
    out["new_game_s"] = time.perf_counter() - t0
    # A correction of the oldest game: the other side won.
    version = GameVersion.objects.get(game=oldest, status="confirmed")
    record = dict(version.record)
    winner = record["result"]["winner"]
    record["result"] = {"winner": "good" if winner == "killers" else "killers"}
    record.pop("log", None)
    record.pop("awards", None)
    with transaction.atomic():
        GameVersion.objects.filter(pk=version.pk).update(status="superseded")
        GameVersion.objects.create(
            game=oldest,
            number=2,
            record=record,
            source="upload",
            submitted_by=version.submitted_by,
            status="confirmed",
            valid=True,
            completeness="result-only",
            winner=record["result"]["winner"],
            confirmed_by=version.confirmed_by,
            confirmed_at=version.confirmed_at,
        )
    t0 = time.perf_counter()
    process_game(oldest.pk)
    out["correct_oldest_game_s"] = time.perf_counter() - t0
    return out


# --- load --------------------------------------------------------------------------------------


def start_server(args: argparse.Namespace, log_path: str | None = None) -> subprocess.Popen[bytes]:
    """gunicorn on ``args.port`` with ``args.workers`` workers, once /healthz answers; its
    output goes to ``log_path`` (tracebacks of any 500) or nowhere."""
    env = dict(os.environ)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    log: Any = subprocess.DEVNULL
    if log_path is not None:
        env["LOG_LEVEL"] = "WARNING"
        log = open(log_path, "wb")  # noqa: SIM115 - the server writes to it while it runs
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            str(args.workers),
            "--timeout",
            "60",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.DEVNULL if log_path is None else subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120  # a loaded machine starts 4 workers slowly
    while time.monotonic() < deadline:
        try:
            status, _ = get(args.port, "/healthz")
            if status == 200:
                return proc
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError(f"gunicorn did not answer /healthz within 120 s (log: {log_path})")


def get(port: int, path: str) -> tuple[int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1", "Accept-Encoding": "identity"})
        resp = conn.getresponse()
        body = resp.read()
        return resp.status, len(body)
    finally:
        conn.close()


def load(
    port: int, paths: Callable[[random.Random], str], clients: int, seconds: float
) -> dict[str, Any]:
    """``clients`` threads each GET a fresh path in a loop for ``seconds``."""
    latencies: list[float] = []
    errors = 0
    sizes: list[int] = []
    lock = threading.Lock()
    stop = 0.0

    def worker(n: int) -> None:
        nonlocal errors
        rng = random.Random(n)
        mine: list[float] = []
        bad = 0
        while time.monotonic() < stop:
            path = paths(rng)
            t0 = time.perf_counter()
            try:
                status, size = get(port, path)
            except OSError:
                status, size = 0, 0
            mine.append(time.perf_counter() - t0)
            if status != 200:
                bad += 1
            else:
                sizes.append(size)
        with lock:
            latencies.extend(mine)
            errors += bad

    # Warm up every gunicorn worker (imports, template loading, connections).
    warm = random.Random(-1)
    for _ in range(20):
        get(port, paths(warm))
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    stop = time.monotonic() + seconds
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "requests": len(latencies),
        "errors": errors,
        "rps": len(latencies) / elapsed,
        "median_ms": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "kb": (statistics.mean(sizes) / 1024) if sizes else 0,
    }


WRK_SCRIPT = """
local paths = {%s}
local n = #paths
local seeded = false
request = function()
  if not seeded then math.randomseed(os.time() + math.floor(os.clock() * 1e6)); seeded = true end
  return wrk.format("GET", paths[math.random(n)], {["Host"] = "127.0.0.1"})
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %%d, "errors": %%d, "duration_us": %%d, "p50": %%d, "p95": %%d, "p99": %%d}\\n',
    summary.requests, e.status + e.connect + e.read + e.write + e.timeout, summary.duration,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
"""


def load_wrk(
    port: int, pick: Callable[[random.Random], str], clients: int, seconds: float
) -> dict[str, Any]:
    """The same measure with ``wrk`` (C, 2 threads): the client takes less CPU from the
    server than the Python threads do. Paths: 5,000 drawn by ``pick``."""
    import tempfile

    rng = random.Random(7)
    paths = ", ".join(json.dumps(pick(rng)) for _ in range(5000))
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(WRK_SCRIPT % paths)
        script = f.name
    try:
        get(port, pick(rng))  # warm up
        out = subprocess.run(
            [
                "wrk",
                "-t2",
                f"-c{clients}",
                f"-d{int(seconds)}s",
                "--timeout",
                "10s",
                "-s",
                script,
                f"http://127.0.0.1:{port}/",
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            check=True,
        ).stdout
    finally:
        os.unlink(script)
    data = json.loads(out.strip().splitlines()[-1])
    return {
        "requests": data["requests"],
        "errors": data["errors"],
        "rps": data["requests"] / (data["duration_us"] / 1e6),
        "median_ms": data["p50"] / 1000,
        "p95_ms": data["p95"] / 1000,
        "p99_ms": data["p99"] / 1000,
        "kb": float("nan"),
    }


#: Events set running before the load: the home page's "live now", venue screens to poll.
LIVE_EVENTS = 20


def prepare_live_events() -> list[tuple[str, str]]:
    """The newest :data:`LIVE_EVENTS` events set running (their statuses only: every
    page still reads them, their games and results stay as they are)."""
    from league.models import Event

    newest = list(
        Event.objects.order_by("-starts_on", "-pk").values_list("pk", flat=True)[:LIVE_EVENTS]
    )
    Event.objects.filter(pk__in=newest).update(status=Event.Status.RUNNING)
    return list(Event.objects.filter(pk__in=newest).values_list("club__slug", "slug"))


def analytics_ready() -> dict[str, float]:
    """The analytics' figures computed once (timed) when the analytics exist in this
    checkout and the dataset's games are not all counted yet; {} otherwise."""
    import importlib

    try:
        pipeline = importlib.import_module("results.pipeline.analytics")
        models = importlib.import_module("results.models")
    except ImportError:
        return {}
    games_model = importlib.import_module("games.models").Game
    released = games_model.objects.filter(status="released").count()
    if models.AnalyticsGame.objects.count() >= released:  # computed already
        return {}
    t0 = time.perf_counter()
    games = pipeline.rebuild()
    return {"analytics_rebuild_s": time.perf_counter() - t0, "analytics_games": games}


def analytics_path() -> str | None:
    """``/analytics/`` if the analytics page exists in this checkout, else None."""
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse("results:analytics")
    except NoReverseMatch:
        return None


def page_paths() -> dict[str, Callable[[random.Random], str]]:
    from league.models import Club, Event, Player, Season
    from results.models import PlayerRating

    live = prepare_live_events()
    events = list(Event.objects.values_list("club__slug", "slug"))
    handles = list(Player.objects.values_list("handle", flat=True))
    clubs = list(Club.objects.values_list("slug", flat=True))
    pages = max(1, PlayerRating.objects.count() // 50)

    def leaderboard(rng: random.Random) -> str:
        kind = rng.random()
        if kind < 0.5:
            return f"/rankings/?page={rng.randint(1, min(pages, 20))}"
        if kind < 0.7:
            return f"/rankings/?club={rng.choice(clubs)}"
        if kind < 0.85:
            role = rng.choice(["killer", "police", "civilian"])
            return f"/rankings/?role={role}&min_games=20&page={rng.randint(1, 5)}"
        return f"/rankings/?season=1&min_games=50&page={rng.randint(1, pages // 2 or 1)}"

    def player(rng: random.Random) -> str:
        return f"/players/{rng.choice(handles)}/"

    def standings(rng: random.Random) -> str:
        club, slug = rng.choice(events)
        return f"/clubs/{club}/{slug}/standings/"

    def home(rng: random.Random) -> str:
        return "/"

    def venue(rng: random.Random) -> str:
        club, slug = rng.choice(live if rng.random() < 0.5 else events)
        return f"/clubs/{club}/{slug}/venue/"

    def venue_poll(rng: random.Random) -> str:
        club, slug = rng.choice(live)  # the screens at today's events
        return f"/clubs/{club}/{slug}/venue.json"

    out: dict[str, Callable[[random.Random], str]] = {
        "leaderboard": leaderboard,
        "player page": player,
        "event standings": standings,
        "home": home,
        "venue": venue,
        "venue-poll": venue_poll,
    }
    where = analytics_path()
    if where is None:
        print("analytics: results:analytics does not resolve here; page skipped", flush=True)
    else:
        seasons = [str(pk) for pk in Season.objects.values_list("pk", flat=True)]

        def analytics(rng: random.Random) -> str:
            kind = rng.random()
            if kind < 0.4:
                return where
            if kind < 0.7:
                return f"{where}?club={rng.choice(clubs)}"
            if kind < 0.85 and seasons:
                return f"{where}?season={rng.choice(seasons)}"
            return f"{where}?ruleset=classic"

        out["analytics"] = analytics
    return out


def baseline_path(rng: random.Random) -> str:
    """The baseline: a request that renders nothing (one ``SELECT 1``)."""
    return "/healthz"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--db", default=DEFAULT_DB, help="PostgreSQL URL (127.0.0.1 only)")
    ap.add_argument("--reuse", action="store_true", help="keep the existing dataset")
    ap.add_argument(
        "--redis", default="redis://127.0.0.1:6379/14", help="cache (127.0.0.1; '' for none)"
    )
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--clubs", type=int, default=300)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--events", type=int, default=2_000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--pool", type=int, default=2_000, help="simulated records to reuse")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="processes computing standings")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=20.0, help="load per page")
    ap.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument(
        "--client",
        choices=["python", "wrk"],
        default="python",
        help="load generator: this file's threads, or wrk (apt-get install wrk)",
    )
    ap.add_argument(
        "--pages",
        default="",
        help="comma-separated pages to measure (default: all), e.g. home,venue,venue-poll",
    )
    ap.add_argument("--server-log", default="", help="file for gunicorn's output (tracebacks)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if urlparse(args.db).hostname not in LOCAL:
        ap.error("the benchmark only runs against a database on 127.0.0.1")
    if args.redis and urlparse(args.redis).hostname not in LOCAL:
        ap.error("the benchmark only uses a cache on 127.0.0.1")
    args.seconds = min(args.seconds, 120.0)

    figures: dict[str, Any] = {"args": {k: v for k, v in vars(args).items() if k != "db"}}
    if not args.reuse:
        recreate_database(args.db)
    tune_database(args.db)
    setup_django(args.db, args.redis)
    if not args.reuse:
        figures["build"] = build(args)
        print("built", json.dumps(figures["build"]), flush=True)
        figures["compute"] = compute(args)
        print("computed", json.dumps(figures["compute"]), flush=True)
        figures["pipeline"] = pipeline_latency()
        print("pipeline", json.dumps(figures["pipeline"]), flush=True)
    from django.db import connections

    if args.reuse:  # the checkout may have new migrations since the dataset was built
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    ready = analytics_ready()
    if ready:
        figures["analytics"] = ready
        print("analytics", json.dumps(ready), flush=True)
    paths = page_paths()
    wanted = [p.strip() for p in args.pages.split(",") if p.strip()]
    unknown = set(wanted) - set(paths)
    if unknown:
        ap.error(f"unknown pages {sorted(unknown)}; choose from {sorted(paths)}")
    if wanted:
        paths = {name: pick for name, pick in paths.items() if name in wanted}
    connections.close_all()
    server = start_server(args, args.server_log or None)
    try:
        figures["load"] = {}
        base = None
        for name, pick in {"baseline /healthz": baseline_path, **paths}.items():
            if args.client == "wrk":
                result = load_wrk(args.port, pick, args.clients, args.seconds)
            else:
                result = load(args.port, pick, args.clients, args.seconds)
            if base is None:
                base = result["p95_ms"]
            result["p95_ratio"] = result["p95_ms"] / base if base else float("nan")
            figures["load"][name] = result
            print(
                f"{name:17s} median {result['median_ms']:6.1f} ms  p95 {result['p95_ms']:6.1f} ms"
                f" ({result['p95_ratio']:4.1f}× baseline)"
                f"  p99 {result['p99_ms']:6.1f} ms  {result['rps']:6.1f} req/s"
                f"  {result['requests']} requests, {result['errors']} errors"
                + (f", {result['kb']:.0f} KiB" if result["kb"] == result["kb"] else ""),
                flush=True,
            )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    if args.json:
        print(json.dumps(figures, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
