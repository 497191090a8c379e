"""Paper entry (issue #20 item 4, #22 item 4): the form keeps everything typed when the
engine refuses it and puts each violation, in the reader's language, beside the field it
concerns; a refused record is stored only as a draft, marked on the paper page and the
game page; the notation mode and notation uploads, with parse errors by line and column."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.notation import print_notation
from engine.simulate import simulate_games
from games import paper, services
from games.forms import PaperForm
from games.models import GameVersion
from tests.games.conftest import World

pytestmark = pytest.mark.django_db

ROLES = ["killer"] * 3 + ["police"] * 3 + ["civilian"] * 6


def client(world: World, role: str = "referee", lang: str = "en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_login(world.user(role))
    return c


def visible_text(html: str) -> str:
    """What a reader sees: the page without its tags and attributes."""
    return re.sub(r"<[^>]*>", " ", html)


def section(html: str, marker: str) -> str:
    """The HTML of the element that starts at ``marker`` up to the next fieldset/div end."""
    start = html.index(marker)
    return html[start : start + 3000]


def paper_data(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {f"role_{i}": r for i, r in enumerate(ROLES, 1)}
    data.update({"winner": "good", "mode": "form"})
    data.update(extra)
    return data


def test_wrong_cards_keep_everything_and_are_only_a_draft(world: World) -> None:
    c = client(world)
    path = reverse("games:paper", args=[world.game.pk])
    data = paper_data(role_12="killer", night_1_kill="5", night_1_check="2", awards="warning 4")
    data["day_1"] = "lw5 v 1>2 2>1 3>2 4>2 6>2 7>2 8>2 9>2 10>2 11>2 12>2 out2"
    r = c.post(path, data)
    assert r.status_code == 200  # the page again, not a redirect and not an empty form
    html = r.content.decode()
    # everything typed is still there
    assert re.search(r'name="role_12"[^>]*>.*?<option value="killer" selected>', html, re.S)
    assert re.search(r'name="night_1_kill"[^>]*>.*?<option value="5" selected>', html, re.S)
    assert "lw5 v 1&gt;2 2&gt;1" in html
    assert "warning 4</textarea>" in html
    assert re.search(r'<option value="good" selected>', html)
    # the violation in words, beside the role cards, never as a raw code
    roles = section(html, 'data-for="roles"')
    assert "12 players under classic deal 3 killers, 3 police, 6 civilians" in roles
    assert "setup.role_counts" not in visible_text(html)
    # stored as a draft, and said so
    v = world.game.versions.get()
    assert v.status == GameVersion.Status.DRAFT and v.source == "paper"
    world.game.refresh_from_db()
    assert world.game.status == "draft"
    assert "Draft — not submitted: 1 problem" in html
    game_page = client(world).get(reverse("games:game", args=[world.game.pk])).content.decode()
    assert "Draft — not submitted: 1 problem" in game_page
    # the next visit starts from the draft
    again = c.get(path).content.decode()
    assert re.search(r'name="role_12"[^>]*>.*?<option value="killer" selected>', again, re.S)
    assert "lw5 v 1&gt;2" in again and 'data-for="roles"' in again


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-hans", "规则 classic 下12人局应发3张杀手、3张警察、6张平民"),
        ("es", "el reglamento classic reparte 3 asesinos, 3 policías y 6 civiles"),
    ],
)
def test_violations_in_the_readers_language(world: World, lang: str, words: str) -> None:
    r = client(world, lang=lang).post(
        reverse("games:paper", args=[world.game.pk]), paper_data(role_12="killer")
    )
    html = r.content.decode()
    assert words in section(html, 'data-for="roles"')
    assert "setup.role_counts" not in visible_text(html)


def test_violations_of_a_night_a_day_and_the_result_sit_beside_them(world: World) -> None:
    c = client(world)
    # night 1 checks nobody's card: fine; day 1: a voter twice is a notation error of
    # the field itself; nothing stored for it
    bad = c.post(
        reverse("games:paper", args=[world.game.pk]),
        paper_data(night_1_kill="4", day_1="v 1>2 1>3"),
    )
    html = bad.content.decode()
    assert bad.status_code == 200 and world.game.versions.count() == 0
    assert "column 7: 1&gt;3 is given twice" in section(html, 'id="day-1"')
    assert "v 1&gt;2 1&gt;3" in html
    # a kill of a seat that is a killer's teammate on night 2 after a day nobody voted
    rec = world.record(5)
    killers = [s["seat"] for s in rec["seats"] if s["role"] == "killer"]
    police = [s["seat"] for s in rec["seats"] if s["role"] == "police"]
    data = {f"role_{s['seat']}": s["role"] for s in rec["seats"]}
    data |= {"mode": "form", "winner": "killers", "night_1_kill": str(police[0])}
    data["night_1_check"] = str(killers[0])
    data["night_2_kill"] = str(police[1])
    r = c.post(reverse("games:paper", args=[world.game.pk]), data)
    html = r.content.decode()
    v = world.game.versions.get()
    assert v.status == GameVersion.Status.DRAFT
    places = {x["where"] for x in v.violations}
    assert "day 1" in places  # day 1 is missing between the two nights
    assert 'data-for="day_1"' in html
    if "result" in places:
        assert 'data-for="winner"' in html
    assert "day.missing" not in visible_text(html)


def test_a_valid_paper_game_with_its_log_is_submitted(world: World) -> None:
    rec = world.record(7)
    data: dict[str, Any] = {f"role_{s['seat']}": s["role"] for s in rec["seats"]}
    data |= {"mode": "form", "winner": rec["result"]["winner"]}
    text = print_notation(rec).splitlines()
    days: dict[int, str] = {}
    current = 0
    for p in rec["log"]:
        if p["phase"] == "night":
            data[f"night_{p['n']}_kill"] = str(p["kill"] or "")
            data[f"night_{p['n']}_check"] = str(p.get("check") or "")
    for line in text:
        head = line.split()[0]
        if head.startswith("D") and head[1:].isdigit():
            current = int(head[1:])
            days[current] = line[len(head) :].strip()
        elif line.startswith(" ") and current:
            days[current] += " " + line.strip()
        else:
            current = 0
    data |= {f"day_{n}": t for n, t in days.items()}
    if any(
        p["phase"] == "night" and p.get("kill") is None and p.get("check") is None
        for p in rec["log"]
    ):
        pytest.skip("an empty night cannot be told apart from no night in the form")
    r = client(world).post(reverse("games:paper", args=[world.game.pk]), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    v = world.game.versions.get()
    assert v.status == GameVersion.Status.SUBMITTED, v.violations
    assert v.record["log"] == rec["log"]


def test_notation_mode_valid(world: World) -> None:
    rec = world.record(11)
    rec.pop("meta", None)
    c = client(world)
    path = reverse("games:paper", args=[world.game.pk])
    page = c.get(path + "?mode=notation").content.decode()
    assert 'name="text"' in page and "? " + world.handles[0] in page  # seats to fill in
    r = c.post(path, {"mode": "notation", "text": print_notation(rec).replace("\n", "\r\n")})
    assert r.status_code == 302
    v = world.game.versions.get()
    assert v.status == GameVersion.Status.SUBMITTED and v.record["log"] == rec["log"]


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_notation_mode_parse_error_names_line_and_column(world: World, lang: str) -> None:
    rec = world.record(12)
    lines = print_notation(rec).splitlines()
    lines[2] = lines[2].replace(" k ", " x ").replace(" p ", " x ").replace(" c ", " x ")
    text = "\n".join(lines)
    r = client(world, lang=lang).post(
        reverse("games:paper", args=[world.game.pk]), {"mode": "notation", "text": text}
    )
    html = r.content.decode()
    assert r.status_code == 200 and world.game.versions.count() == 0
    assert 'data-line="3" data-column="' in html
    err = re.search(r'class="error notation-error"[^>]*>([^<]*)<', html)
    assert err is not None
    said = err.group(1)
    if lang == "zh-hans":
        assert "第3行第" in said and "列" in said
        assert "应为身份 k、p 或 c" in said
    else:
        assert "line 3, column" in said
        assert "expected a role, k, p or c, got x" in said
    assert lines[2].split()[0] + " x " in html  # the text is kept


def test_notation_mode_violations_point_to_their_line(world: World) -> None:
    rec = world.record(13)
    rec["result"] = {"winner": "draw" if rec["result"]["winner"] != "draw" else "good"}
    text = print_notation(rec)
    r = client(world).post(
        reverse("games:paper", args=[world.game.pk]), {"mode": "notation", "text": text}
    )
    html = r.content.decode()
    v = world.game.versions.get()
    assert v.status == GameVersion.Status.DRAFT
    result_line = (
        text.splitlines().index(next(x for x in text.splitlines() if x.startswith("result"))) + 1
    )
    assert f'data-line="{result_line}"' in html
    assert "Draft — not submitted" in html
    assert text.splitlines()[-1] in html


def test_upload_of_notation_files(world: World) -> None:
    rec = world.record(14)
    good = SimpleUploadedFile("game.txt", print_notation(rec).encode(), "text/plain")
    lines = print_notation(world.record(15)).splitlines()
    lines[4] = lines[4] + " extra"
    bad = SimpleUploadedFile("typo.txt", "\n".join(lines).encode(), "text/plain")
    latin = SimpleUploadedFile("latin.txt", "ruleset classic\n1 k caf\xe9".encode("latin-1"))
    r = client(world).post(
        reverse("games:upload", args=[world.game.pk]), {"records": [good, bad, latin]}
    )
    report = {x["file"]: x for x in r.context["reports"]}
    assert report["game.txt"]["ok"], report["game.txt"]
    assert not report["typo.txt"]["ok"]
    assert report["typo.txt"]["line"] == 5 and report["typo.txt"]["column"] > 1
    assert "line 5, column" in report["typo.txt"]["message"]
    assert "not UTF-8" in report["latin.txt"]["message"]
    html = r.content.decode()
    assert 'data-line="5"' in html
    assert world.game.versions.get().record["log"] == rec["log"]


def test_upload_of_a_too_large_notation_file_is_refused(world: World, settings: Any) -> None:
    settings.RECORD_MAX_BYTES = 1024
    big = SimpleUploadedFile("big.txt", b"# " + b"x" * 4000)
    r = client(world).post(reverse("games:upload", args=[world.game.pk]), {"records": [big]})
    report = r.context["reports"][0]
    assert not report["ok"] and "too large" in report["message"]
    assert world.game.versions.count() == 0


def test_paper_page_is_for_officials_only(world: World) -> None:
    path = reverse("games:paper", args=[world.game.pk])
    for role in ("player_at_table", "other_referee", "event_staff"):
        assert client(world, role).get(path).status_code == 404
    assert client(world, "organiser").get(path + "?mode=notation").status_code == 200


def test_the_notation_page_starts_from_the_draft_with_its_problems(world: World) -> None:
    rec = world.record(16)
    rec["result"] = {"winner": "draw" if rec["result"]["winner"] != "draw" else "good"}
    c = client(world)
    path = reverse("games:paper", args=[world.game.pk])
    c.post(path, {"mode": "notation", "text": print_notation(rec)})
    page = c.get(path + "?mode=notation").content.decode()
    assert "Draft — not submitted" in page
    result_line = print_notation(rec).splitlines().index(f"result {rec['result']['winner']}") + 1
    assert f'data-line="{result_line}"' in page
    # the form mode starts from it too
    form_page = c.get(path).content.decode()
    night = next(p for p in rec["log"] if p["phase"] == "night")
    if night.get("kill"):
        pattern = rf'name="night_1_kill"[^>]*>.*?<option value="{night["kill"]}" selected>'
        assert re.search(pattern, form_page, re.S)


def test_a_correction_starts_from_the_confirmed_record(world: World) -> None:
    rec = world.record(17)
    services.submit_record(world.user("referee"), world.game, rec, "api")
    services.confirm_version(world.user("organiser"), world.game, 1)
    page = client(world).get(reverse("games:paper", args=[world.game.pk]) + "?mode=notation")
    html = page.content.decode()
    assert "Draft — not submitted" not in html
    assert f"result {rec['result']['winner']}" in html


def test_a_refused_correction_keeps_everything_typed(world: World) -> None:
    services.submit_record(world.user("referee"), world.game, world.record(18), "api")
    services.confirm_version(world.user("organiser"), world.game, 1)
    data = paper_data(role_12="killer", role_1="police", day_2="v 1>2 out2")
    r = client(world).post(reverse("games:paper", args=[world.game.pk]), data)
    html = r.content.decode()
    assert r.status_code == 200 and "a correction needs a reason" in html
    assert "v 1&gt;2 out2" in html
    assert re.search(r'name="role_1"[^>]*>.*?<option value="police" selected>', html, re.S)
    assert world.game.versions.count() == 1


@pytest.mark.parametrize(
    "data",
    [
        {"mode": "form", "role_1": "queen"},
        {"mode": "form", "night_1_kill": "99"},
        {"mode": "form", "day_1": "x" * 5000},
        {"mode": "form", "awards": "result good"},
        {"mode": "notation", "text": ""},
        {"mode": "notation", "text": "ruleset classic\n1 k a\nN1 k99999999"},
        {"mode": "sideways", "winner": "nobody"},
    ],
)
def test_bad_input_is_a_page_with_errors_and_nothing_stored(
    world: World, data: dict[str, Any]
) -> None:
    r = client(world).post(reverse("games:paper", args=[world.game.pk]), data)
    assert r.status_code == 200
    assert 'class="errorlist' in r.content.decode() or "notation-error" in r.content.decode()
    assert world.game.versions.count() == 0


# --- properties of the form's reading ------------------------------------------------------


@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["finished", "in-progress"]))
@hsettings(max_examples=80, deadline=None)
def test_any_simulated_game_goes_through_the_paper_form_unchanged(seed: int, variant: str) -> None:
    """A game read back from the form's fields (as the page fills them from a draft) is the
    game: roles, every night and day (ballots, last words, ejections, lots …), awards and
    the winner — whatever the ruleset and table size."""
    rec = next(simulate_games(1, seed, variants=[variant]))
    log = rec.get("log") or []
    # a last night where nobody was killed or checked cannot be told from no night
    assume(not log or log[-1]["phase"] == "day" or log[-1]["kill"] or log[-1]["check"])
    seats = [{"seat": s["seat"], "player": s["player"], "name": s["player"]} for s in rec["seats"]]
    initial = paper.form_initial(rec)
    form = PaperForm(
        {k: str(v) for k, v in initial.items()},
        seats=seats,
        phases=paper.phase_count(len(seats), rec),
    )
    assert form.is_valid(), form.errors
    back = form.record(rec["ruleset"], rec.get("meta") or {})
    expected = {k: v for k, v in rec.items() if not (k == "awards" and not v)}
    if not log:
        expected.pop("log", None)
    assert back == expected


@given(text=st.text(max_size=80), n=st.integers(1, 30))
@hsettings(max_examples=300, deadline=None)
def test_a_days_field_is_read_or_refused_with_a_column(text: str, n: int) -> None:
    try:
        day = paper.parse_day(n, text)
    except paper.TextProblem as e:
        assert e.line is None and 1 <= e.column <= len(text) + 10
        assert e.message.startswith("column ")
    else:
        assert day["phase"] == "day" and day["n"] == n
