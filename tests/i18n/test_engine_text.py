"""The engine's codes in three languages, by code: ``league.engine_text``.

Every key of the engine's catalogue (``engine.messages.CATALOGUE``, not its source text)
is rendered with sample params made from the kinds the engine declares
(``engine.messages.PARAMS``) in English, 简体中文 and Español; the table's placeholders
are exactly the engine template's; rewording the engine's English changes no rendered
translation; and what the engine really emits (``engine_corpus``) renders whole.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import messages
from engine.messages import CATALOGUE, PARAMS, ParamKind, message_key, placeholders, render
from engine.record import Violation
from league import engine_text as et
from tests.i18n.engine_corpus import corpus, sheet_texts

LANGS = ("zh-hans", "es")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")

#: A plausible token for each enumerated word the catalogue uses (``word``/``words``).
WORD_SAMPLES: dict[str, str] = {
    "role": "killer",
    "winner": "killers",
    "declared": "good",
    "rule": "lot",
    "step": "night",
    "kind": "bonus",
    "status": "finished",
    "got": "a list",
    "roles": "police",
    "winners": "draw",
}
SAMPLES: dict[ParamKind, Any] = {
    ParamKind.INT: 3,
    ParamKind.SEAT: 5,
    ParamKind.SEATS: [1, 7],
    ParamKind.INTS: [8, 9],
    ParamKind.PHASE: "night 2",
    ParamKind.TEXT: "ann",
    ParamKind.TEXTS: ["ann", "bob"],
    ParamKind.DECIMAL: "1.5",
}


def sample_params(key: str) -> dict[str, Any]:
    """Params for ``key`` from the kinds the engine declares, with its variant."""
    variant = key.partition("/")[2]
    params: dict[str, Any] = {"variant": variant} if variant else {}
    for name in placeholders(CATALOGUE[key]):
        kind = PARAMS[name]
        if kind is ParamKind.WORD:
            params[name] = WORD_SAMPLES.get(name, "x")
        elif kind is ParamKind.WORDS:
            params[name] = [WORD_SAMPLES.get(name, "x"), "civilian"]
        else:
            params[name] = SAMPLES[kind]
    return params


def _code(key: str) -> str:
    return key.partition("/")[0]


def _render_all(lang: str) -> dict[str, str]:
    with translation.override(lang):
        return {key: et.engine_text(_code(key), sample_params(key)) for key in CATALOGUE}


def test_every_catalogue_key_has_a_table_entry_with_the_engines_placeholders() -> None:
    assert len(CATALOGUE) > 250
    missing = sorted(set(CATALOGUE) - set(et.TEXT))
    assert not missing, missing
    with translation.override("en"):
        wrong = {
            key: (sorted(set(PLACEHOLDER.findall(str(et.TEXT[key])))), placeholders(template))
            for key, template in CATALOGUE.items()
            if set(PLACEHOLDER.findall(str(et.TEXT[key]))) != set(placeholders(template))
        }
    assert not wrong, wrong


def test_the_sample_params_are_the_catalogues_own() -> None:
    """The sample params select the key and render the engine's English (no KeyError)."""
    for key in CATALOGUE:
        params = sample_params(key)
        assert message_key(_code(key), params) == key
        assert render(_code(key), params)


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_every_key_renders_whole_in_every_language(lang: str) -> None:
    rendered = _render_all(lang)
    leftovers = {k: v for k, v in rendered.items() if "%(" in v or not v.strip()}
    assert not leftovers, leftovers
    fallbacks = {k: v for k, v in rendered.items() if v == _code(k)}
    assert not fallbacks, fallbacks  # a key the table could not render falls back to its code


@pytest.mark.parametrize("lang", LANGS)
def test_every_sentence_is_translated(lang: str) -> None:
    english, other = _render_all("en"), _render_all(lang)
    same = sorted(k for k in CATALOGUE if other[k] == english[k])
    assert not same, same


def test_rewording_the_engine_changes_no_translation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table keys by code: the engine's English is no msgid and no input."""
    before = {lang: _render_all(lang) for lang in ("en", *LANGS)}
    for key, template in list(CATALOGUE.items()):
        monkeypatch.setitem(messages._CATALOGUE, key, "reworded: " + template)
    key = "vote.self_vote"
    assert render(key, {"voter": 3}).startswith("reworded: ")  # the engine did change
    after = {lang: _render_all(lang) for lang in ("en", *LANGS)}
    assert after == before


@pytest.fixture(scope="module")
def emitted() -> list[Violation]:
    unique: dict[str, Violation] = {}
    for v in corpus():
        unique.setdefault(message_key(v.code, v.params), v)
    return list(unique.values())


def test_what_the_engine_emits_has_an_entry(emitted: list[Violation]) -> None:
    assert len(emitted) > 100
    assert all(message_key(v.code, v.params) in et.TEXT for v in emitted)


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_what_the_engine_emits_renders_whole(emitted: list[Violation], lang: str) -> None:
    with translation.override(lang):
        for v in emitted:
            text = et.violation_text(v.code, v.where, v.params)
            assert "%(" not in text and text != v.code, (v, text)
            if lang != "en":
                assert text != v.message, (v, text)


def test_ties_and_endings_of_live_games_render_in_every_language() -> None:
    ties, reasons = sheet_texts()
    assert ties and reasons
    for lang in ("en", *LANGS):
        with translation.override(lang):
            for tie in ties:
                text = et.message_text(tie)
                assert "%(" not in text and text != tie.code
                assert text != str(tie) or lang == "en"
            for ending in reasons:
                text = et.message_text(ending)
                assert "%(" not in text and text != ending.code
                assert text != str(ending) or lang == "en"


def test_a_violation_says_where_in_the_readers_language() -> None:
    params = {"voter": 3}
    with translation.override("zh-hans"):
        assert et.violation_text("vote.self_vote", "day 2 ballot 1", params) == (
            "第2天第1轮投票：3号投了自己"
        )
        assert et.violation_text("setup.seats", "setup", {"n": 8}).startswith("设置：")
        path = {"path": "log[2].ballots[0]", "key": "x"}
        assert et.violation_text("record.unknown_key", "day 1", path).startswith(
            "log[2].ballots[0]："
        )
    with translation.override("es"):
        assert et.violation_text("vote.self_vote", "day 2 ballot 1", params) == (
            "día 2, votación 1: el asiento 3 se votó a sí mismo"
        )


def test_a_phase_said_as_a_moment() -> None:
    params = {"variant": "kill", "target": 4, "on": "night 1"}
    with translation.override("es"):
        assert et.engine_text("kill.dead_target", params).endswith("asesinado la noche 1")
        assert et.param_text("phase", "night 1") == "noche 1"
    with translation.override("zh-hans"):
        assert et.engine_text("kill.dead_target", params).endswith("已于第1夜被杀")


def test_one_token_two_words_by_parameter() -> None:
    with translation.override("zh-hans"):
        assert et.word_text("killers", "winner") == "杀手胜"
        assert et.word_text("killers", "rule") == "判杀手胜"
        assert et.word_text("lot", "step") == "抽签"
        assert et.word_text("lot", "rule") == "抽签决定"
        assert et.word_text("not-a-token", "rule") == "not-a-token"


def test_a_stored_violation_without_params_is_shown_as_stored() -> None:
    old = {"code": "vote.self_vote", "where": "day 1", "params": None, "message": "day 1: x"}
    new = {**old, "params": {"voter": 3}}
    with translation.override("es"):
        assert et.stored_violation_text(old) == "day 1: x"
        assert et.stored_violation_text(new) == "día 1: el asiento 3 se votó a sí mismo"


def test_a_stored_point_line_without_params_is_shown_as_stored() -> None:
    old = {"game": 1, "kind": "bonus", "points": "1", "reason": "referee bonus: kind"}
    new = {"game": 1, "kind": "bonus", "points": "1", "code": "points.bonus", "params": {}}
    with translation.override("zh-hans"):
        assert et.stored_reason_text({**old, "params": None}) == "referee bonus: kind"
        assert et.stored_reason_text(new) == "法官加分"


def test_params_of_another_engine_version_fall_back_to_its_english() -> None:
    """A key the table knows with params it does not (a newer engine) still says something."""
    with translation.override("zh-hans"):
        assert et.engine_text("no.such_code", {}) == "no.such_code"
        assert et.engine_text("vote.self_vote", {}) == "vote.self_vote"


# --- a property: any values of the declared kinds render, texts shown as written ----------

_KEYS = sorted(CATALOGUE)
_TEXT = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=12)


def _value(kind: ParamKind, name: str) -> st.SearchStrategy[Any]:
    if kind in (ParamKind.INT, ParamKind.SEAT):
        return st.integers(-5, 10_000)
    if kind in (ParamKind.SEATS, ParamKind.INTS):
        return st.lists(st.integers(-5, 200), min_size=1, max_size=5)
    if kind is ParamKind.PHASE:
        nights = st.integers(1, 30).map(lambda n: f"night {n}")
        days = st.integers(1, 30).map(lambda n: f"day {n}")
        ballots = st.tuples(st.integers(1, 30), st.integers(1, 5)).map(
            lambda nk: f"day {nk[0]} ballot {nk[1]}"
        )
        return nights | days | ballots
    if kind is ParamKind.TEXTS:
        return st.lists(_TEXT, min_size=1, max_size=3)
    if kind is ParamKind.WORD:
        return st.sampled_from([WORD_SAMPLES.get(name, "x"), "unknown-token"])
    if kind is ParamKind.WORDS:
        return st.lists(st.sampled_from(["killer", "good", "draw", "zzz"]), min_size=1)
    if kind is ParamKind.DECIMAL:
        return st.decimals(-100, 100, places=2, allow_nan=False).map(str)
    return _TEXT


@st.composite
def keyed_params(draw: Any) -> tuple[str, dict[str, Any]]:
    key = draw(st.sampled_from(_KEYS))
    params: dict[str, Any] = {}
    if "/" in key:
        params["variant"] = key.partition("/")[2]
    for name in placeholders(CATALOGUE[key]):
        params[name] = draw(_value(PARAMS[name], name))
    return key, params


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(keyed_params(), st.sampled_from(("en", *LANGS)))
def test_any_params_of_the_declared_kinds_render(
    case: tuple[str, dict[str, Any]], lang: str
) -> None:
    key, params = case
    with translation.override(lang):
        text = et.engine_text(_code(key), params)
    assert text != _code(key)
    for name, value in params.items():
        if name != "variant" and PARAMS[name] is ParamKind.TEXT:
            assert value in text  # free text is shown as written, "%" and "{" included
