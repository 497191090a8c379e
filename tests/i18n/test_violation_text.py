"""The engine's English, translated at the edge: every code, every message shape.

The corpus (``engine_corpus``) drives the engine into every violation code it can emit;
for each message a rule of ``games.violation_text`` must take its parameters back out.
In English the rule must give back the engine's very words; in 简体中文 and Español a
translated sentence without the English template words.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from engine.record import Violation, parse_record
from engine.scoring import score_game, summarize
from engine.simulate import simulate_game
from engine.standings import compute_standings
from games import violation_text as vt
from tests.i18n.engine_corpus import corpus, emitted_codes, sheet_texts

LANGS = ("zh-hans", "es")


@pytest.fixture(scope="module")
def violations() -> list[Violation]:
    unique: dict[tuple[str, str], Violation] = {}
    for v in corpus():
        unique.setdefault((v.code, v.message), v)
    return list(unique.values())


@pytest.fixture(scope="module")
def ties_and_reasons() -> tuple[set[str], set[str]]:
    return sheet_texts()


def test_the_corpus_reaches_every_code_the_engine_emits(violations: list[Violation]) -> None:
    codes = emitted_codes()
    assert len(codes) > 50
    assert codes <= {v.code for v in violations}, sorted(codes - {v.code for v in violations})


def test_every_code_has_a_rule_and_a_description() -> None:
    ruled = {c for r in vt.VIOLATIONS + vt.WHOLE for c in r.codes}
    assert emitted_codes() <= ruled
    assert emitted_codes() <= set(vt.CODES)


def test_english_gives_back_the_engines_words(violations: list[Violation]) -> None:
    with translation.override("en"):
        wrong = [
            (v.code, v.message)
            for v in violations
            if vt.render_violation(v.code, v.message) != v.message
        ]
    assert not wrong, wrong[:5]


# English template words that must not survive translation
_ENGLISH = re.compile(
    r"\b(seat|seats|voted|ballot|night|day|killers?|police|civilian|but|declared|expected|"
    r"already|tied|between|the|who|was|out|ended|next|nobody|last words)\b"
)


def _english_left(text: str) -> list[str]:
    # JSON paths, quoted values and ruleset ids stay as written; p12 are player handles
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\b[a-z_]+\[\d+\][\w.\[\]]*|\bp\d+\b|\b\w+=", "", text)
    for ruleset in ("classic", "mainstream", "civilian-draw", "majority", "KGR/1", "kgr/1"):
        text = text.replace(ruleset, "")
    return _ENGLISH.findall(text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated(lang: str, violations: list[Violation]) -> None:
    shapes: dict[str, Violation] = {}
    with translation.override(lang):
        for v in violations:
            text = vt.render_violation(v.code, v.message)
            assert text is not None, (v.code, v.message)
            assert text != v.message, (lang, v.message)
            left = _english_left(text)
            assert not left, (lang, v.message, text, left)
            shapes.setdefault(v.code, v)
    assert len(shapes) == len({v.code for v in violations})


@pytest.mark.parametrize("lang", LANGS)
def test_ties_and_ends_of_games_are_translated(
    lang: str, ties_and_reasons: tuple[set[str], set[str]]
) -> None:
    ties, reasons = ties_and_reasons
    assert any("tie-break" in t for t in ties) and any("off-site PK" in t for t in ties)
    assert len(reasons) >= 5
    with translation.override("en"):
        assert all(vt.tie_text(t) == t for t in ties)
        assert all(vt.reason_text(r) == r for r in reasons)
    with translation.override(lang):
        for text in ties | reasons:
            out = vt.tie_text(text) if text in ties else vt.reason_text(text)
            assert out != text and not _english_left(out), (text, out)


def test_phases_and_small_words() -> None:
    with translation.override("zh-hans"):
        assert vt.phase_text("night 2") == "第2夜"
        assert vt.phase_text("day 3 ballot 2") == "第3天第2轮投票"
        assert vt.seats_text("seats 1, 7") == "1、7号"
        assert vt.tie_text("ballot 1 tied between seats 1, 7: tie-break") == (
            "第1轮投票1、7号平票：平票PK"
        )
    with translation.override("es"):
        assert vt.phase_text("night 2") == "noche 2"
        assert vt.gone_text("killed on night 2") == "asesinado la noche 2"
        assert vt.role_text("civilian") == "civil"
    with translation.override("en"):
        assert vt.phase_text("night 2") == "night 2"


def test_an_unknown_message_falls_back_to_its_codes_description() -> None:
    with translation.override("zh-hans"):
        text = vt.violation_text("vote.self_vote", "day 1: something new", "day 1")
        assert text == "第1天：有玩家投了自己"
        assert vt.violation_text("x.y", "day 1: new") == "day 1: new"  # not the engine's
    with translation.override("en"):
        assert vt.violation_text("vote.self_vote", "day 1: something new") == (
            "day 1: something new"
        )


def _point_items() -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    summaries = []
    for seed in range(40):
        rec = simulate_game("classic", 12, seed, players=[f"p{i}" for i in range(12)])
        rec["awards"] = [
            {"seat": 1, "kind": "bonus", "points": 0.5, "reason": "great read"},
            {"seat": 1, "kind": "bonus", "points": 1.5},
            {"seat": 2, "kind": "penalty", "points": 1, "reason": "talked at night"},
            {"seat": 2, "kind": "penalty", "points": 1},
            {"seat": 3, "kind": "warning"},
            {"seat": 3, "kind": "warning", "reason": "peeked"},
            {"seat": 3, "kind": "warning"},
            {"seat": 3, "kind": "warning"},
        ]
        summaries.append(summarize(parse_record(rec), str(seed)))
    for game in map(score_game, summaries):
        for p in game.players:
            items += [(i.kind, i.reason) for i in p.items]
    for row in compute_standings(summaries).rows:
        items += [(i.kind, i.reason) for i in row.items]
    return items


def test_point_reasons_in_three_languages() -> None:
    items = set(_point_items())
    kinds = {k for k, _ in items}
    assert {"result", "bonus", "bonus-cap", "penalty", "warning", "warnings", "ci"} <= kinds
    with translation.override("en"):
        assert all(vt.point_reason_text(k, r) == r for k, r in items)
    for lang in LANGS:
        with translation.override(lang):
            for kind, reason in items:
                found = vt._render(vt.POINT_REASONS, reason, kind)
                assert found is not None and found != reason, (kind, reason)
    with translation.override("es"):
        assert vt.point_reason_text("bonus-cap", "referee bonuses capped at +1.5 per game") == (
            "bonificaciones del árbitro limitadas a +1,5 por partida"
        )
