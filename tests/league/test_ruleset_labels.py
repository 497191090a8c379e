"""Ruleset labels for selects: the stored id with its description in the reader's language
(moved here from tests/i18n/test_draw_text.py with the regex half of league.i18n gone)."""

from __future__ import annotations

from django.utils import translation

from league.i18n import ruleset_choices, ruleset_label


def test_ruleset_labels() -> None:
    with translation.override("zh-hans"):
        assert ruleset_label("classic").startswith("classic — 经典规则")
        assert dict(ruleset_choices())["majority"] == "majority — 过半数票才出局；10人局"
    with translation.override("en"):
        english = ruleset_label("mainstream")
    with translation.override("es"):
        spanish = ruleset_label("mainstream")
    assert spanish.startswith("mainstream — ") and spanish != english
    with translation.override("en"):
        assert ruleset_label("nonesuch") == "nonesuch"
