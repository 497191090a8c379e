"""The engine's stages keys in the reader's language (see :mod:`league.engine_text`),
one entry per key of :mod:`engine.texts.stages`; our own English msgids."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

TEXT: dict[str, Promise] = {
    "formats.entry": gettext_lazy(
        'an entry must be "all", {"top": N} with N >= 1 or {"players": [...]} with distinct '
        "names, got %(value)s"
    ),
    "formats.entry/stage": gettext_lazy(
        'stage %(stage)s: the entry must be "all", {"top": N} with N >= 1 or '
        '{"players": [...]} with distinct names, got %(value)s'
    ),
    "formats.stage_type": gettext_lazy("a stage must be a JSON object, got %(value)s"),
    "formats.stage_name": gettext_lazy("a stage needs a name (a non-empty string), got %(value)s"),
    "formats.stage_keys": gettext_lazy(
        "stage %(stage)s: unknown field(s) %(keys)s; allowed: %(allowed)s"
    ),
    "formats.decimal": gettext_lazy(
        'stage %(stage)s: %(key)s must be a decimal written as a string ("1.5"), got %(value)s'
    ),
    "formats.multiplier": gettext_lazy(
        "stage %(stage)s: the multiplier must be greater than 0, got %(value)s"
    ),
    "formats.carry": gettext_lazy("stage %(stage)s: carry must not be negative, got %(value)s"),
    "formats.hidden": gettext_lazy("stage %(stage)s: hidden must be true or false, got %(value)s"),
    "formats.profile": gettext_lazy(
        "stage %(stage)s: %(value)s is not a usable scoring profile (built-in: %(profiles)s)"
    ),
    "formats.no_stages": gettext_lazy("an event needs at least one stage"),
    "formats.duplicate_stage": gettext_lazy("stage name %(stage)s is used twice"),
    "formats.first_top": gettext_lazy(
        "stage %(stage)s: the first stage cannot take the top %(count)s: there is no standing "
        "before it"
    ),
    "formats.not_entitled": gettext_lazy(
        "%(player)s played game %(game)s (%(label)s) of stage %(stage)s without having entered "
        "stage %(stage)s"
    ),
    "formats.event_type": gettext_lazy("an event must be a JSON object, got %(value)s"),
    "formats.event_format": gettext_lazy('an event\'s format must be "kge/1", got %(value)s'),
    "formats.event_keys": gettext_lazy("unknown event field(s) %(keys)s; allowed: %(allowed)s"),
    "formats.seed": gettext_lazy("the event's seed must be an integer, got %(value)s"),
    "formats.event_profile": gettext_lazy(
        "%(value)s is not a built-in scoring profile (built-in: %(profiles)s)"
    ),
    "formats.precedence_type": gettext_lazy(
        "the event's precedence must be a list of metric keys, got %(value)s"
    ),
    "formats.stages_type": gettext_lazy(
        "the event's stages must be a non-empty list, got %(value)s"
    ),
    "formats.games": gettext_lazy(
        "stage %(stage)s: games must be a list of file paths, got %(value)s"
    ),
    "stages.no_games": gettext_lazy(
        "stage %(stage)s has no scored game: its standing is the one carried in"
    ),
}

WORDS: dict[str, Promise] = {}
