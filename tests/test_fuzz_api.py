"""No 500 from any input (issue 15): schemathesis fuzzes every operation of /api/schema/.

Each operation runs anonymously and as the event's organiser (a session: writes pass the
permission checks and reach the validators), with data that fits the schema and data that
does not, on random and on real path parameters (the event, its game, round 1, a
registration, the club, the league, a player). The only check is schemathesis'
``not_a_server_error``: any 5xx fails, with the server's traceback and a curl line. Then
a sweep puts each value that once caused a 500 (:data:`NASTY_TEXT`, :data:`NASTY_JSON`)
into each parameter, the If-Match header and each body field of a valid case.

``FUZZ_EXAMPLES`` (default 5) is the number of examples per operation, identity and
kind of data: CI runs the default, in about two minutes on two cores.

Below the fuzzer: one regression test for each 500 an earlier probe found.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.handlers.wsgi import WSGIRequest
from django.core.signals import got_request_exception
from django.test import Client
from django.test.client import ClientHandler
from drf_spectacular.generators import SchemaGenerator

from games.models import Game
from league.models import DrawJob, League, Registration, Season
from tests.results.factories import Played, played_event

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, Phase, find, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.generation import GenerationMode  # noqa: E402

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "5"))


def _operations() -> list[tuple[str, str]]:
    """(METHOD, path) of every operation, from the same generator /api/schema/ uses."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    )


OPERATIONS = _operations()


class FuzzApp:
    """A WSGI application over Django's test handler: the test's database connection (no
    close at request start or end) and CSRF checks off, as for ``django.test.Client``.
    The last uncaught exception is kept, to report a 500 with its traceback."""

    def __init__(self) -> None:
        self.handler = ClientHandler(enforce_csrf_checks=False)
        self.errors: list[str] = []
        got_request_exception.connect(self._record, dispatch_uid="fuzz-record")

    def _record(self, sender: Any, request: WSGIRequest | None = None, **kwargs: Any) -> None:
        self.errors.append("".join(traceback.format_exception(*sys.exc_info())))

    def close(self) -> None:
        got_request_exception.disconnect(dispatch_uid="fuzz-record")

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        response = self.handler(environ)
        headers = list(response.items())
        headers += [("Set-Cookie", c.output(header="").strip()) for c in response.cookies.values()]
        start_response(f"{response.status_code} {response.reason_phrase}", headers)
        if getattr(response, "streaming", False):
            return (b"".join(response.streaming_content),)  # type: ignore[attr-defined]
        return [response.content]


@pytest.fixture
def app(settings: Any) -> Iterator[FuzzApp]:
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    application = FuzzApp()
    yield application
    application.close()


@dataclass
class World:
    """A running event with a released game, registrations, a league and a season."""

    played: Played
    game: Game
    params: dict[str, dict[str, Any]] = field(default_factory=dict)

    def path_parameters(self, path: str) -> dict[str, Any]:
        for prefix, values in self.params.items():
            if path.startswith(prefix):
                return {k: v for k, v in values.items() if "{" + k + "}" in path}
        return {}


@pytest.fixture
def world(db: None, app: FuzzApp) -> World:
    ev = played_event(n_players=12, rounds=2)
    game = ev.play(1, 1, ev.players[:12], seed=5)
    regs = Registration.objects.bulk_create(
        Registration(event=ev.event, player=p) for p in ev.players
    )
    league = League.objects.create(name="Fuzz League", slug="fuzz-league", club=ev.club)
    season = Season.objects.create(
        league=league, name="2026", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 31)
    )
    job = DrawJob.objects.create(
        event=ev.event, from_round=2, to_round=2, status=DrawJob.Status.DONE, progress=1
    )
    handle = ev.players[0].handle
    event_params = {"id": ev.event.pk, "number": 1, "reg_pk": regs[0].pk}
    return World(
        ev,
        game,
        {
            "/api/v1/events/": event_params,
            "/api/v1/results/events/": event_params,
            "/api/v1/games/": {"id": game.pk},
            "/api/v1/results/games/": {"id": game.pk},
            "/api/v1/draw-jobs/": {"id": job.pk},
            "/api/v1/clubs/": {"slug": ev.club.slug},
            "/api/v1/rankings/clubs/": {"slug": ev.club.slug},
            "/api/v1/leagues/": {"slug": league.slug},
            "/api/v1/rankings/leagues/": {"slug": league.slug},
            "/api/v1/rankings/seasons/": {"id": season.pk},
            "/api/v1/seasons/": {"id": season.pk},
            "/api/v1/players/": {"handle": handle},
            "/api/v1/rankings/players/": {"handle": handle},
        },
    )


def session_cookie(user: Any) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {
        django_settings.SESSION_COOKIE_NAME: client.cookies[
            django_settings.SESSION_COOKIE_NAME
        ].value
    }


#: Texts that broke integer parsing before (issue 15) and their neighbours, for path and
#: query parameters and the If-Match header.
NASTY_TEXT = ["²", "٣", "99999999999999999999999", "-1", "0", "null", "1.5", "1e3", "x" * 300]
NASTY_TEXT += ["", "a\x00b"]  # PostgreSQL refuses NUL in text
#: Values for a body's fields (NaN and Infinity cannot pass through the JSON serializer of
#: schemathesis' transport: test_nan_in_a_record_is_a_client_error sends them as text).
NASTY_JSON: list[Any] = [10**30, -(10**30), 2**63, -1, 1.5, "²", "99999999999999999999999"]
NASTY_JSON += [None, True, [], {}, [[[[[[[]]]]]]], "x" * 5000]


def sweep(operation: Any, params: dict[str, Any] | None, check: Callable[[Any], None]) -> None:
    """Every once-fatal value in every path and query parameter, the If-Match header and
    every field of the JSON body of a valid case (the simplest one), one at a time:
    schemathesis' negative mode rarely draws "²" or 10**30 by itself."""
    json_bodies = [b for b in operation.body if b.media_type == "application/json"]
    case = find(
        operation.as_strategy(
            path_parameters=params, media_type="application/json" if json_bodies else None
        ),
        lambda case: True,
        settings=settings(database=None, suppress_health_check=list(HealthCheck)),
    )
    slots: list[tuple[str, str, list[Any]]] = [
        ("path_parameters", name, NASTY_TEXT) for name in case.path_parameters or {}
    ]
    slots += [("query", parameter.name, NASTY_TEXT) for parameter in operation.query]
    slots.append(("headers", "If-Match", [f'"{text}"' for text in NASTY_TEXT]))
    if json_bodies and isinstance(case.body, dict):
        fields = json_bodies[0].definition.get("schema", {}).get("properties", {})
        slots += [("body", name, NASTY_JSON) for name in fields]
    for where, name, values in slots:
        original = getattr(case, where)
        for value in values:
            setattr(case, where, {**(original or {}), name: value})
            check(case)
        setattr(case, where, original)


def fuzz(world: World, app: FuzzApp, identity: str, method: str, path: str, examples: int) -> None:
    """``examples`` random cases of each kind, then the sweep, against one operation; any
    5xx raises with the server's traceback."""
    schema = schemathesis.openapi.from_wsgi("/api/schema/", app)
    operation = schema[path][method]
    cookies = session_cookie(world.played.organiser) if identity == "organiser" else {}
    real = world.path_parameters(path)

    def check(case: Any) -> None:
        app.errors.clear()
        response = case.call(cookies=cookies)
        if response.status_code >= 500:
            detail = app.errors[-1] if app.errors else response.text[:2000]
            raise AssertionError(f"{response.status_code} from {case.as_curl_command()}\n{detail}")

    strategies = [
        operation.as_strategy(mode, path_parameters=params)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
        for params in ([None, real] if real else [None])
    ]

    @settings(
        max_examples=examples * len(strategies),
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=st.one_of(strategies))
    def run(case: Any) -> None:
        check(case)

    run()
    sweep(operation, real or None, check)


@pytest.mark.parametrize("identity", ["anonymous", "organiser"])
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_no_server_error(world: World, app: FuzzApp, identity: str, method: str, path: str) -> None:
    fuzz(world, app, identity, method, path, EXAMPLES)


def test_the_fuzzer_finds_the_old_500s(
    world: World, app: FuzzApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games list's parser before "bounded input" (``str.isdigit()`` then ``int()``)
    put back: the fuzzer reports the 500 of ``?event=²``."""
    import games.api

    def old_parser(value: Any, **kwargs: Any) -> int | None:
        return int(value) if isinstance(value, str) and value.isdigit() else None

    monkeypatch.setattr(games.api, "strict_int", old_parser)
    with pytest.raises(AssertionError, match="500 from"):
        fuzz(world, app, "anonymous", "GET", "/api/v1/games/", EXAMPLES)


def test_the_fuzzed_schema_is_the_served_one(db: None, app: FuzzApp) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/", app)
    served = sorted((op.ok().method.upper(), op.ok().path) for op in schema.get_all_operations())
    assert served == OPERATIONS and len(OPERATIONS) > 40


# --- regressions: the 500s of the probe (issue 15), each failed before "bounded input" ---------


@pytest.fixture
def org_client(world: World) -> Client:
    client = Client()
    client.force_login(world.played.organiser)
    return client


@pytest.mark.parametrize(
    "query", ["event=²", "version=²", "event=٣", "event=99999999999999999999999"]
)
def test_a_non_ascii_number_in_the_games_list_is_a_client_error(
    world: World, org_client: Client, query: str
) -> None:
    response = org_client.get(f"/api/v1/games/?{query}")
    assert response.status_code in (200, 400, 404), response.content


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/players/a%00b/",
        "/api/v1/clubs/a%00b/",
        "/api/v1/leagues/a%00b/",
        "/api/v1/rankings/players/a%00b/",
        "/api/v1/players/?q=a%00b",
        "/rankings/?q=a%00b&club=a%00b",
        "/players/a%00b/",
    ],
)
def test_nul_in_a_url_is_not_a_server_error(world: World, org_client: Client, url: str) -> None:
    """Found by the fuzzer on PostgreSQL (text cannot hold NUL): /api/v1/players/%00/."""
    assert org_client.get(url).status_code in (200, 400, 404), url


@pytest.mark.parametrize("version", ["²", "٣", "99999999999999999999999", "-1"])
def test_an_odd_version_of_a_record_download_is_not_found(
    world: World, org_client: Client, version: str
) -> None:
    response = org_client.get(f"/games/{world.game.pk}/record.json?version={version}")
    assert response.status_code in (200, 404), response.content


@pytest.mark.parametrize("revision", ["²", "٣", "99999999999999999999999"])
def test_an_odd_revision_in_a_form_is_a_client_error(
    world: World, org_client: Client, revision: str
) -> None:
    response = org_client.post(f"/games/{world.game.pk}/release/", {"revision": revision})
    assert response.status_code < 500, response.content


@pytest.mark.parametrize("rnd", ["²", "٣", "99999999999999999999999"])
def test_an_odd_round_in_the_event_games_form_is_a_client_error(
    world: World, org_client: Client, rnd: str
) -> None:
    event = world.played.event
    response = org_client.post(f"/games/events/{event.pk}/", {"verb": "create", "round": rnd})
    assert response.status_code < 500, response.content


@pytest.mark.parametrize("tag", ['"²"', '"٣"', '"99999999999999999999999"', '"-1"', 'W/"x"'])
def test_a_non_ascii_if_match_is_a_client_error(world: World, org_client: Client, tag: str) -> None:
    response = org_client.post(
        f"/api/v1/games/{world.game.pk}/release/",
        HTTP_IF_MATCH=tag,
        content_type="application/json",
    )
    assert 400 <= response.status_code < 500, response.content


@pytest.mark.parametrize("revision", ["²", "1e3", 10**30, -1, None, [1], {"a": 1}])
def test_an_odd_revision_in_a_body_is_a_client_error(
    world: World, org_client: Client, revision: Any
) -> None:
    response = org_client.post(
        f"/api/v1/games/{world.game.pk}/release/",
        json.dumps({"revision": revision}),
        content_type="application/json",
    )
    assert 400 <= response.status_code < 500, response.content


@pytest.mark.parametrize("job", ["null", "²", "1.5", "99999999999999999999999", "-1"])
def test_an_odd_draw_job_id_is_not_found(world: World, org_client: Client, job: str) -> None:
    response = org_client.get(f"/api/v1/draw-jobs/{job}/")
    assert response.status_code == 404, response.content


@pytest.mark.parametrize("rnd", ["²", "99999999999999999999", "0"])
def test_an_odd_round_number_is_not_found(world: World, org_client: Client, rnd: str) -> None:
    event = world.played.event
    response = org_client.get(f"/api/v1/events/{event.pk}/rounds/{rnd}/")
    assert response.status_code in (400, 404), response.content


@pytest.mark.parametrize("seed", [10**30, -(10**30), 2**31, "²", 1.5, "nan"])
def test_a_huge_or_odd_seed_is_a_client_error(world: World, org_client: Client, seed: Any) -> None:
    event = world.played.event
    response = org_client.post(
        f"/api/v1/events/{event.pk}/draws/",
        json.dumps({"from_round": 2, "seed": seed}),
        content_type="application/json",
    )
    assert 400 <= response.status_code < 500, response.content


def test_deeply_nested_json_is_a_client_error(world: World, org_client: Client) -> None:
    body = "[" * 100_000 + "]" * 100_000
    response = org_client.post(
        f"/api/v1/games/{world.game.pk}/versions/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_nan_in_a_record_is_a_client_error(world: World, number: str) -> None:
    referee = Client()
    referee.force_login(world.played.referee.user)
    record = world.played.record(world.played.players[:12], 9)
    text = json.dumps({"record": record, "revision": world.game.revision})
    text = text.replace('"format": "kgr/1"', f'"format": "kgr/1", "x": {number}', 1)
    assert number in text
    response = referee.post(
        f"/api/v1/games/{world.game.pk}/versions/", text, content_type="application/json"
    )
    assert response.status_code == 400, response.content
