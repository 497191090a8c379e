"""The draw's warnings and refusals (engine English, stored on the job) in three languages."""

from __future__ import annotations

import pytest
from django.utils import translation

from league.i18n import draw_message_text, ruleset_choices, ruleset_label

# One message of each shape, as engine/seating/draw.py and engine/referees.py write them.
SAMPLES = [
    "3 club-mate meetings in rounds 1–2 could not be avoided",
    "a player holds one seat number 3 times, above the ideal 2",
    "the time limit cut the search short; a longer limit may be fairer",
    "some pairs meet 3 times, above the bound of 2 on the most meetings of one pair, because "
    "that cuts repeat meetings from 350 to 308",
    "players meet the same referee 4 extra times; the lower bound is 1",
    "referee loads range from 1 to 3 tables",
    "round 2: 5 players present, fewer than the minimum table size 6",
    "round 1: 13 players present cannot sit at exactly 1 table with sizes 6–12",
    "round 1: 25 players present cannot sit at exactly 2 tables with sizes 8, 12",
    "round 3: 13 players present cannot be split into tables of sizes 8–9",
    "player ann must not meet 9 of the 12 players present in round 1, leaving 2 possible "
    "table-mates where a table of 8 needs 7",
    "players ann and bob must not meet but round 1 seats everyone present at a single table",
    "players ann and bob must not meet but no draw found keeps them apart in round 2; too "
    "many avoid pairs for the tables available",
    "round 1: 3 tables but only 2 referees",
    "round 1, table 2: every referee has a conflict there (rita with ann; rob with bob)",
    "round 1: conflicts leave tables [2, 3] without a referee; the 3 tables can only share "
    "referees ['rita']",
    "Referees were not assigned: round 1: 3 tables but only 2 referees",
    "Add referees to the event first.",
    "The draw failed because of an internal error; it has been logged.",
]


def test_english_is_left_as_the_engine_wrote_it() -> None:
    with translation.override("en"):
        assert [draw_message_text(s) for s in SAMPLES] == SAMPLES


@pytest.mark.parametrize("lang", ["zh-hans", "es"])
def test_every_draw_message_is_translated(lang: str) -> None:
    with translation.override(lang):
        for sample in SAMPLES:
            text = draw_message_text(sample)
            assert text != sample, sample
            assert " with " not in text and "round" not in text and "tables" not in text, text


def test_a_message_stored_in_another_language_is_shown_as_stored() -> None:
    with translation.override("es"):
        assert draw_message_text("第1轮：共3桌，但只有2名法官") == "第1轮：共3桌，但只有2名法官"
    with translation.override("zh-hans"):
        assert draw_message_text("round 1: 3 tables but only 2 referees") == (
            "第1轮：共3桌，但只有2名法官"
        )


def test_ruleset_labels() -> None:
    with translation.override("zh-hans"):
        assert ruleset_label("classic").startswith("classic — 经典规则")
        assert dict(ruleset_choices())["majority"] == "majority — 过半数票才出局；10人局"
    with translation.override("en"):
        assert ruleset_label("nonesuch") == "nonesuch"
