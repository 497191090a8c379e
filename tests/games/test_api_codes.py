"""The games API says what the engine found as data and as a sentence: every violation
and every refused sheet step carries ``code``, ``params`` (plain JSON) and ``message`` in
the requester's language; stored versions keep code and params, never only a sentence."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games import services
from games.models import GameVersion
from league.engine_text import violation_text
from league.errors import UserError
from tests.games.conftest import World

pytestmark = pytest.mark.django_db


def client_for(user: Any, lang: str = "en") -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    c.force_authenticate(user)
    return c


def url(name: str, world: World) -> str:
    return reverse(f"games-api:{name}", args=[world.game.pk])


def _submit_bad(world: World) -> dict[str, Any]:
    rec = world.record()
    rec["log"][0]["kill"] = 99
    rec["ruleset"] = "mainstream"  # not this game's: the platform's own check too
    r = client_for(world.user("referee")).post(
        url("versions", world), {"record": rec, "revision": 1}, format="json"
    )
    assert r.status_code == 201, r.content
    return r.json()


@pytest.mark.parametrize("lang", ["en", "zh-hans", "es"])
def test_violations_carry_code_params_and_a_message_in_the_readers_language(
    world: World, lang: str
) -> None:
    _submit_bad(world)
    versions = client_for(world.user("organiser"), lang).get(url("versions", world)).json()
    violations = versions[0]["violations"]
    assert violations and all(set(v) == {"code", "where", "params", "message"} for v in violations)
    kill = next(v for v in violations if v["code"] == "kill.unknown_seat")
    assert kill["params"] == {"seat": 99, "n": 12} and kill["where"] == "night 1"
    platform = next(v for v in violations if v["code"] == "platform.ruleset")
    assert platform["params"] == {"ruleset": '"classic"'}
    with translation.override(lang):
        for v in violations:
            assert v["message"] == violation_text(v["code"], v["where"], v["params"])
    assert ("杀手选了99号" in kill["message"]) == (lang == "zh-hans")
    assert ("los asesinos eligieron el asiento 99" in kill["message"]) == (lang == "es")


def test_a_version_stores_codes_and_params_with_the_english(world: World) -> None:
    with translation.override("zh-hans"):  # the submitter's language changes nothing stored
        _submit_bad(world)
    stored = GameVersion.objects.get(game=world.game).violations
    kill = next(v for v in stored if v["code"] == "kill.unknown_seat")
    assert kill == {
        "code": "kill.unknown_seat",
        "where": "night 1",
        "params": {"seat": 99, "n": 12},
        "message": "night 1: the killers chose seat 99, but seats are 1..12",
    }
    platform = next(v for v in stored if v["code"] == "platform.ruleset")
    assert platform["message"] == "setup: the record's ruleset is not this game's (\"classic\")"


@pytest.mark.parametrize("lang", ["en", "zh-hans", "es"])
def test_a_refused_sheet_step_says_code_params_and_why(world: World, lang: str) -> None:
    ref = client_for(world.user("referee"), lang)
    roles = {str(i): "civilian" for i in range(1, 13)}
    roles.update({"1": "killer", "2": "killer", "3": "killer", "4": "police", "5": "police"})
    roles["6"] = "police"
    dealt = ref.post(
        url("sheet-step", world),
        {"step": {"type": "deal", "roles": roles, "id": "a"}, "revision": 0},
        format="json",
    )
    assert dealt.status_code == 200
    bad = ref.post(
        url("sheet-step", world),
        {"step": {"type": "night", "kill": 40, "check": None, "id": "b"}, "revision": 1},
        format="json",
    )
    body = bad.json()
    assert bad.status_code == 400 and body["code"] == "kill.unknown_seat"
    assert body["params"] == {"seat": 40, "n": 12} and body["where"] == "night 1"
    with translation.override(lang):
        assert body["detail"] == violation_text(body["code"], body["where"], body["params"])
    assert ("40" in body["detail"]) and (("号" in body["detail"]) == (lang == "zh-hans"))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "unknown ruleset 'nonesuch'"),
        ("zh-hans", "未知的规则“nonesuch”"),
        ("es", "reglamento desconocido «nonesuch»"),
    ],
)
def test_an_unknown_ruleset_is_refused_by_code_in_the_readers_language(
    db: None, lang: str, said: str
) -> None:
    from tests.league.factories import ClubOrganiserFactory

    org = ClubOrganiserFactory()
    with pytest.raises(UserError) as refused:
        services.create_club_game(org.user, org.club, "nonesuch")
    assert refused.value.code == "ruleset.unknown" and refused.value.status == 400
    with translation.override(lang):  # said in the language of whoever reads it
        assert refused.value.message.startswith(said)
