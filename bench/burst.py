"""Burst benchmark: the end of a round, and the rating pages during a full rebuild.

On PostgreSQL, with gunicorn (DEBUG off) and a real Celery worker over Redis, both started
here as subprocesses:

1. **Burst.** An event's released round of 100 tables (12 players each); 100 clients
   (threads, one HTTP connection each) at once: each table's referee submits its record
   through the API, the organiser confirms it and releases it (only released games
   count for standings). Measured: the burst's wall time (goal: within 10 s), non-2xx
   answers (goal: none), that every game has exactly one confirmed version and one
   version in all (nothing lost or duplicated), and the time from the last confirmation
   (and the last release) until the event's standings include every game (goal: 5 s)
   and until the ratings do.
2. **Rating pages during a rebuild.** Clients read the leaderboard and player pages over
   HTTP, and the leaderboard's rows by SQL (uncached), first with nothing else running
   (the baseline), then while ``rebuild_ratings()`` runs (tables built aside and swapped),
   and — for comparison — while the previous rebuild runs (TRUNCATE inside the
   rebuild's transaction): p50, p95 and max of each.

    .venv/bin/python bench/burst.py                  # build 50k games, then measure
    .venv/bin/python bench/burst.py --reuse          # measure again on the same dataset

The league for the rebuild is ``bench/web.py``'s dataset (smaller by default: 50,000
games, 5,000 players, 500 events); the burst's event is added to it each run. Only ever
talks to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import web  # noqa: E402  (bench/web.py: dataset builder, server start-up, HTTP helper)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tianhei_burst"
TABLES = 100
#: The servers' output (a 500's traceback, a task's error), outside the checkout.
LOGS = {
    "web": os.path.join(tempfile.gettempdir(), "tianhei-burst-web.log"),
    "worker": os.path.join(tempfile.gettempdir(), "tianhei-burst-worker.log"),
}
#: Each API call's latency by kind ("POST confirm"…): where a slow burst spends its time.
STEPS: dict[str, list[float]] = {}


# --- processes -----------------------------------------------------------------------------


def start_worker(args: argparse.Namespace) -> subprocess.Popen[bytes]:
    """``celery -A config worker`` with this process's settings (database, broker)."""
    from config.celery import app

    app.control.purge()  # tasks left over from an earlier run
    log = open(LOGS["worker"], "wb")  # noqa: SIM115 - kept open
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel",
            "WARNING",
            "--concurrency",
            str(args.worker_concurrency),
            "--hostname",
            f"burst-{os.getpid()}@localhost",
        ],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the worker exited; see {LOGS['worker']}")
        if app.control.ping(timeout=1.0):
            return proc
    stop(proc)
    raise RuntimeError("the worker did not answer within 60 s")


def start_server(args: argparse.Namespace) -> subprocess.Popen[bytes]:
    """gunicorn as ``bench/web.py`` starts it, its log kept in ``LOGS["web"]``."""
    return web.start_server(args, log_path=LOGS["web"])


def stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


# --- the burst -----------------------------------------------------------------------------


def setup_round(seed: int) -> dict[str, Any]:
    """A running event of today with one released round of 100 tables of 12, a referee
    per table, the games created, and API tokens for the referees and the organiser."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from engine.simulate import simulate_game
    from games.models import Game
    from games.services import create_round_games
    from league.models import Club, ClubOrganiser, Event, Player, Referee, Round, Seat, Table

    User = get_user_model()
    stamp = f"{int(time.time())}"
    club = Club.objects.order_by("pk").first()
    assert club is not None
    organiser = User.objects.create_user(f"burst-org-{stamp}")
    ClubOrganiser.objects.create(club=club, user=organiser)
    today = timezone.localdate()
    event = Event.objects.create(
        club=club,
        name=f"Burst {stamp}",
        slug=f"burst-{stamp}",
        starts_on=today,
        ends_on=today,
        rounds_count=1,
        min_table=12,
        max_table=12,
        status=Event.Status.RUNNING,
    )
    now = timezone.now()
    rnd = Round.objects.create(
        event=event, number=1, status=Round.Status.RELEASED, starts_at=now, released_at=now
    )
    rng = random.Random(seed)
    handles = list(Player.objects.order_by("pk").values_list("pk", "handle")[: TABLES * 12 * 3])
    players = rng.sample(handles, TABLES * 12)
    referees = []
    for t in range(TABLES):
        user = User.objects.create_user(f"burst-ref-{stamp}-{t:03d}")
        referees.append(Referee.objects.create(user=user, grade=3))
    event.referees.add(*referees)
    tables = [
        Table.objects.create(round=rnd, number=t + 1, referee=referees[t]) for t in range(TABLES)
    ]
    seats = []
    seating: dict[int, list[str]] = {}
    for t, table in enumerate(tables):
        seated = players[t * 12 : (t + 1) * 12]
        seating[table.pk] = [h for _, h in seated]
        seats.extend(
            Seat(round=rnd, table=table, player_id=pk, number=i)
            for i, (pk, _h) in enumerate(seated, 1)
        )
    Seat.objects.bulk_create(seats)
    games = create_round_games(organiser, rnd)
    org_token = Token.objects.create(user=organiser).key
    jobs = []
    for game in Game.objects.filter(pk__in=[g.pk for g in games]).select_related("table"):
        assert game.table is not None
        table_no = game.table.number
        record = simulate_game(
            event.ruleset, 12, seed * 1000 + table_no, players=seating[game.table_id]
        )
        jobs.append(
            {
                "game": game.pk,
                "record": record,
                "referee": Token.objects.create(user=referees[table_no - 1].user).key,
                "organiser": org_token,
            }
        )
    return {"event": event.pk, "round": rnd.number, "jobs": jobs}


def call(
    conn: http.client.HTTPConnection, method: str, path: str, token: str, body: Any = None
) -> tuple[int, dict[str, Any], str]:
    """One API request on a kept-alive connection: (status, JSON body, ETag)."""
    headers = {"Host": "127.0.0.1", "Authorization": f"Token {token}"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    t0 = time.perf_counter()
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    raw = resp.read()
    last = path.rstrip("/").rsplit("/", 1)[-1]
    STEPS.setdefault(f"{method} {'game' if last.isdigit() else last}", []).append(
        time.perf_counter() - t0
    )
    try:
        payload = json.loads(raw) if raw else {}
    except ValueError:
        payload = {"raw": raw[:200].decode(errors="replace")}
    return resp.status, payload, resp.getheader("ETag", "").strip('"')


def client(
    port: int,
    job: dict[str, Any],
    barrier: threading.Barrier | None,
    out: dict[str, Any],
    release_each: bool = True,
) -> None:
    """A table's end of round: read the game, submit (referee), confirm and — with
    ``release_each`` — release (organiser), each with the revision it was given."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    gid = job["game"]
    statuses: list[int] = []
    out["statuses"] = statuses
    try:
        if barrier is not None:
            barrier.wait()
        out["start"] = time.perf_counter()
        status, _game, tag = call(conn, "GET", f"/api/v1/games/{gid}/", job["referee"])
        statuses.append(status)
        status, version, tag = call(
            conn,
            "POST",
            f"/api/v1/games/{gid}/versions/",
            job["referee"],
            {"record": job["record"], "revision": int(tag)},
        )
        statuses.append(status)
        if status != 201:
            out["error"] = version
            return
        status, body, tag = call(
            conn,
            "POST",
            f"/api/v1/games/{gid}/confirm/",
            job["organiser"],
            {"version": version["number"], "revision": int(tag)},
        )
        statuses.append(status)
        out["confirmed"] = time.perf_counter()
        if status != 200:
            out["error"] = body
            return
        if not release_each:
            return
        status, body, tag = call(
            conn, "POST", f"/api/v1/games/{gid}/release/", job["organiser"], {"revision": int(tag)}
        )
        statuses.append(status)
        out["released"] = time.perf_counter()
        if status != 200:
            out["error"] = body
    except (OSError, ValueError) as e:
        out["error"] = repr(e)
    finally:
        out["end"] = time.perf_counter()
        conn.close()


def burst(
    port: int, setup: dict[str, Any], timeout: float, clients: int, release: str = "round"
) -> dict[str, Any]:
    """The 100 tables' clients at once (``clients`` threads; 100: one per table), then
    the wait for the standings and the ratings.

    ``release="round"`` (the organiser's way at the end of a round): the clients submit
    and confirm, and the organiser releases the round's results in one request as soon
    as the last game is confirmed. ``"each"``: every client also releases its game."""
    from django.db import connection
    from django.db.models import Count

    from games.models import GameVersion
    from results.models import EventResults, EventStanding, ScoredGame

    jobs = setup["jobs"]
    barrier = threading.Barrier(min(clients, len(jobs)))
    outs: list[dict[str, Any]] = [{} for _ in jobs]
    pairs = list(zip(jobs, outs, strict=True))

    def run(mine: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
        for i, (job, out) in enumerate(mine):
            client(port, job, barrier if i == 0 else None, out, release_each=release == "each")

    threads = [threading.Thread(target=run, args=(pairs[i::clients],)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    start = min(o["start"] for o in outs if "start" in o)
    end = max(o["end"] for o in outs)
    last_confirmed = max(o.get("confirmed", 0.0) for o in outs)
    statuses = [s for o in outs for s in o.get("statuses", [])]
    if release == "round":
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        status, body, _tag = call(
            conn,
            "POST",
            f"/api/v1/events/{setup['event']}/rounds/{setup['round']}/release-games/",
            jobs[0]["organiser"],
        )
        conn.close()
        statuses.append(status)
        if status != 200:
            outs[0].setdefault("error", body)
        end = last_released = time.perf_counter()
    else:
        last_released = max(o.get("released", 0.0) for o in outs)
    games = [j["game"] for j in jobs]
    event_id = setup["event"]
    standings_at = ratings_at = None
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline and (standings_at is None or ratings_at is None):
        now = time.perf_counter()
        if standings_at is None:
            state = EventResults.objects.filter(pk=event_id).values_list("stale", "games").first()
            rows = EventStanding.objects.filter(event_id=event_id).count()
            if (
                state is not None
                and not state[0]
                and state[1] == len(games)
                and rows == 12 * len(games)
            ):
                standings_at = now
        if ratings_at is None and ScoredGame.objects.filter(game_id__in=games).count() == len(
            games
        ):
            ratings_at = now
        connection.close()  # a fresh snapshot each poll, and no idle transaction
        time.sleep(0.02)
    per_game = dict(
        GameVersion.objects.filter(game_id__in=games, status="confirmed")
        .values("game_id")
        .annotate(n=Count("id"))
        .values_list("game_id", "n")
    )
    versions = GameVersion.objects.filter(game_id__in=games).count()
    return {
        "release": release,
        "clients": clients,
        "games": len(jobs),
        "wall_s": end - start,
        "requests": len(statuses),
        "non_2xx": sum(1 for s in statuses if not 200 <= s < 300),
        "5xx": sum(1 for s in statuses if s >= 500),
        "errors": [o["error"] for o in outs if "error" in o][:5],
        "games_one_confirmed": sum(1 for g in games if per_game.get(g) == 1),
        "versions": versions,
        "standings_after_last_confirm_s": None
        if standings_at is None
        else standings_at - last_confirmed,
        "standings_after_last_release_s": None
        if standings_at is None
        else standings_at - last_released,
        "ratings_after_last_release_s": None if ratings_at is None else ratings_at - last_released,
        "step_p50_ms": {
            k: round(statistics.median(v) * 1000, 1) for k, v in sorted(STEPS.items()) if v
        },
        "step_max_ms": {k: round(max(v) * 1000, 1) for k, v in sorted(STEPS.items()) if v},
        "client_p95_s": _pct(sorted(o["end"] - o["start"] for o in outs if "start" in o), 0.95),
    }


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(p * len(values)))]


# --- rating pages during a rebuild ---------------------------------------------------------

HISTORY_SQL = (
    "SELECT played_on, game_id, rating, uncertainty FROM league_ratingpoint"
    " WHERE player_id = %s ORDER BY played_on, game_id"
)
LEADERBOARD_SQL = (
    "SELECT r.player_id, p.handle, r.rating, r.games FROM league_playerrating r"
    " JOIN league_player p ON p.id = r.player_id WHERE r.games >= %s"
    " ORDER BY r.rating DESC, r.player_id LIMIT 50 OFFSET %s"
)


def readers(
    port: int,
    db_url: str,
    players: list[tuple[int, str]],
    stop: threading.Event,
    clients: int,
) -> dict[str, list[float]]:
    """``clients`` threads per kind of read, until ``stop``: player page and leaderboard
    over HTTP; a leaderboard page's rows and a player's rating points by SQL, without
    the cache (each thread its own connection)."""
    import psycopg

    lat: dict[str, list[float]] = {
        "player page": [],
        "leaderboard page": [],
        "ratings rows (SQL)": [],
        "rating points (SQL)": [],
    }
    handles = [h for _, h in players]
    ids = [pk for pk, _ in players]
    errors: list[str] = []
    lock = threading.Lock()

    def http_reader(kind: str, n: int) -> None:
        rng = random.Random(n)
        mine: list[float] = []
        while not stop.is_set():
            if kind == "player page":
                path = f"/players/{rng.choice(handles)}/"
            else:
                role = rng.choice(["", "killer", "police", "civilian"])
                least, page = rng.randint(1, 60), rng.randint(1, 5)
                path = f"/rankings/?role={role}&min_games={least}&page={page}"
            t0 = time.perf_counter()
            try:
                status, _ = web.get(port, path)
            except OSError as e:
                status = 0
                errors.append(repr(e))
            mine.append(time.perf_counter() - t0)
            if status != 200:
                errors.append(f"{path}: {status}")
        with lock:
            lat[kind].extend(mine)

    def sql_reader(n: int) -> None:
        rng = random.Random(n)
        board: list[float] = []
        history: list[float] = []
        with psycopg.connect(db_url, autocommit=True) as conn:
            while not stop.is_set():
                t0 = time.perf_counter()
                least, offset = rng.randint(1, 60), 50 * rng.randint(0, 20)
                conn.execute(LEADERBOARD_SQL, [least, offset]).fetchall()
                t1 = time.perf_counter()
                conn.execute(HISTORY_SQL, [rng.choice(ids)]).fetchall()
                board.append(t1 - t0)
                history.append(time.perf_counter() - t1)
        with lock:
            lat["ratings rows (SQL)"].extend(board)
            lat["rating points (SQL)"].extend(history)

    threads = []
    for i in range(clients):
        threads.append(threading.Thread(target=http_reader, args=("player page", i)))
        threads.append(threading.Thread(target=http_reader, args=("leaderboard page", 100 + i)))
        threads.append(threading.Thread(target=sql_reader, args=(200 + i,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        lat["errors"] = [float(len(errors))]
    return lat


def measure_reads(
    port: int, db_url: str, clients: int, during: Callable[[], Any] | None, seconds: float
) -> dict[str, Any]:
    """Latencies of the readers while ``during`` runs (None: for ``seconds``)."""
    from league.models import Player

    players = list(Player.objects.filter(rating__isnull=False).values_list("pk", "handle"))
    stop_reading = threading.Event()
    found: dict[str, Any] = {}

    def run() -> None:
        found.update(readers(port, db_url, players, stop_reading, clients))

    reader = threading.Thread(target=run)
    reader.start()
    time.sleep(0.5)  # every reader going
    t0 = time.perf_counter()
    if during is None:
        time.sleep(seconds)
    else:
        during()
    took = time.perf_counter() - t0
    time.sleep(0.5)
    stop_reading.set()
    reader.join()
    out: dict[str, Any] = {"seconds": took}
    for kind, values in found.items():
        if kind == "errors":
            out["errors"] = int(values[0])
            continue
        values.sort()
        out[kind] = {
            "n": len(values),
            "p50_ms": statistics.median(values) * 1000 if values else float("nan"),
            "p95_ms": _pct(values, 0.95) * 1000,
            "max_ms": values[-1] * 1000 if values else float("nan"),
        }
    return out


def rebuild_aside() -> None:
    from results.pipeline.ratings import rebuild_ratings

    rebuild_ratings()


def rebuild_truncating() -> None:
    """The rebuild as it was before the swap: TRUNCATE in the rebuild's transaction."""
    from django.db import transaction

    from results.models import RaterCheckpoint
    from results.pipeline import ratings

    with transaction.atomic():
        ratings._lock_ledger()
        games = ratings.load_rated_games()
        RaterCheckpoint.objects.all().delete()
        ratings._replay(None, dict(games.items()))


# --- main ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--db", default=DEFAULT_DB, help="PostgreSQL URL (127.0.0.1 only)")
    ap.add_argument("--broker", default="redis://127.0.0.1:6379/11", help="Celery broker")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/12", help="cache ('' for none)")
    ap.add_argument("--reuse", action="store_true", help="keep the existing dataset")
    ap.add_argument("--players", type=int, default=5_000)
    ap.add_argument("--clubs", type=int, default=150)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--events", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--pool", type=int, default=1_000, help="simulated records to reuse")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="processes computing standings")
    ap.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    ap.add_argument("--worker-concurrency", type=int, default=2, help="Celery processes")
    ap.add_argument("--port", type=int, default=8766)
    ap.add_argument("--clients", type=int, default=TABLES, help="burst threads (1: in turn)")
    ap.add_argument("--readers", type=int, default=2, help="reader threads per kind of read")
    ap.add_argument("--baseline-seconds", type=float, default=10.0)
    ap.add_argument(
        "--release",
        choices=["round", "each"],
        default="round",
        help="the organiser releases the round's results in one request, or each client its game",
    )
    ap.add_argument("--skip-burst", action="store_true")
    ap.add_argument("--skip-rebuild", action="store_true")
    ap.add_argument(
        "--no-truncate-compare", action="store_true", help="skip the old (TRUNCATE) rebuild"
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    for url in (args.db, args.broker, args.redis):
        if url and urlparse(url).hostname not in web.LOCAL:
            ap.error("the benchmark only talks to 127.0.0.1")

    figures: dict[str, Any] = {"args": {k: v for k, v in vars(args).items() if k != "db"}}
    if not args.reuse:
        web.recreate_database(args.db)
    web.tune_database(args.db)
    os.environ["CELERY_BROKER_URL"] = args.broker
    os.environ["CELERY_RESULT_BACKEND"] = ""
    web.setup_django(args.db, args.redis)
    if not args.reuse:
        figures["build"] = web.build(args)
        print("built", json.dumps(figures["build"]), flush=True)
        figures["compute"] = web.compute(args)
        print("computed", json.dumps(figures["compute"]), flush=True)
    else:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)  # the code may have moved on since the build
    from django.db import connections

    from games.models import Game

    print(f"dataset: {Game.objects.filter(status='released').count()} released games", flush=True)
    connections.close_all()
    server = start_server(args)
    worker = start_worker(args)
    try:
        if not args.skip_burst:
            setup = setup_round(args.seed + int(time.time()) % 1000)
            connections.close_all()
            time.sleep(1.0)
            result = burst(
                args.port, setup, timeout=120.0, clients=args.clients, release=args.release
            )
            figures["burst"] = result
            print("burst", json.dumps(result), flush=True)
        if not args.skip_rebuild:
            from django.db import connection

            with connection.cursor() as cursor:  # fresh statistics (a TRUNCATE drops them)
                cursor.execute("ANALYZE league_ratingpoint, league_playerrating, league_scoredgame")
            connections.close_all()
            runs: list[tuple[str, Callable[[], Any] | None]] = [
                ("baseline (no rebuild)", None),
                ("during rebuild_ratings (aside + swap)", rebuild_aside),
            ]
            if not args.no_truncate_compare:
                runs.append(("during the old rebuild (TRUNCATE)", rebuild_truncating))
            figures["reads"] = {}
            for name, during in runs:
                result = measure_reads(
                    args.port, args.db, args.readers, during, args.baseline_seconds
                )
                figures["reads"][name] = result
                print(f"{name}: {result['seconds']:.1f} s, errors {result.get('errors', 0)}")
                for kind, r in result.items():
                    if isinstance(r, dict):
                        print(
                            f"  {kind:20s} n {r['n']:6d}  p50 {r['p50_ms']:7.1f} ms"
                            f"  p95 {r['p95_ms']:7.1f} ms  max {r['max_ms']:8.1f} ms",
                            flush=True,
                        )
                connections.close_all()
    finally:
        stop(worker)
        stop(server)
    if args.json:
        print(json.dumps(figures, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
