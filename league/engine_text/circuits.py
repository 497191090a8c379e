"""The engine's circuits keys in the reader's language (see :mod:`league.engine_text`),
one entry per key of :mod:`engine.texts.circuits`; our own English msgids."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

TEXT: dict[str, Promise] = {
    "circuit.profile/type": gettext_lazy("circuit profile: %(fields)s must be a JSON object"),
    "circuit.profile/unknown": gettext_lazy("circuit profile: unknown field(s) %(fields)s"),
    "circuit.profile/missing": gettext_lazy("circuit profile: %(fields)s missing"),
    "circuit.profile/empty": gettext_lazy("circuit profile: %(fields)s must not be empty"),
    "circuit.profile/too_many": gettext_lazy(
        "circuit profile: too many entries in %(fields)s (at most 500 places and 50 categories)"
    ),
    "circuit.profile/name": gettext_lazy(
        "circuit profile: category names must be non-empty text of at most 100 characters: "
        "%(fields)s"
    ),
    "circuit.profile/not_decimal": gettext_lazy(
        "circuit profile: %(fields)s must be decimal numbers written as text or integers"
    ),
    "circuit.profile/negative": gettext_lazy("circuit profile: %(fields)s must not be negative"),
    "circuit.profile/too_large": gettext_lazy(
        "circuit profile: %(fields)s too large or too precise (places at most 10000, weights "
        "and field bounds at most 10, the field's reference at most 100000, at most 6 decimal"
        " places)"
    ),
    "circuit.profile/order": gettext_lazy(
        "circuit profile: the field's min must not exceed its max (%(fields)s)"
    ),
    "circuit.profile/not_integer": gettext_lazy(
        "circuit profile: %(fields)s must be whole numbers"
    ),
    "circuit.profile/too_small": gettext_lazy(
        "circuit profile: %(fields)s too small (best and field.reference at least 1, "
        "min_events at least 0)"
    ),
    "circuit.event_name": gettext_lazy(
        "an event's name must be 1 to 200 characters, got '%(event)s'"
    ),
    "circuit.event_twice": gettext_lazy("two events are named '%(event)s'"),
    "circuit.too_many_events": gettext_lazy(
        "a circuit holds at most %(limit)s events, got %(count)s"
    ),
    "circuit.category": gettext_lazy(
        "event '%(event)s': unknown category '%(category)s'; known: %(categories)s"
    ),
    "circuit.field_size": gettext_lazy(
        "event '%(event)s': the number of players must be between 1 and %(limit)s, got "
        "%(field_size)s"
    ),
    "circuit.ranks_over": gettext_lazy(
        "event '%(event)s': %(count)s players ranked but only %(field_size)s played"
    ),
    "circuit.player_name": gettext_lazy(
        "event '%(event)s': a player's name must be 1 to 200 characters"
    ),
    "circuit.player_twice": gettext_lazy("event '%(event)s': player '%(player)s' is ranked twice"),
    "circuit.rank/low": gettext_lazy(
        "event '%(event)s': player '%(player)s' has rank %(rank)s; ranks start at 1"
    ),
    "circuit.rank/high": gettext_lazy(
        "event '%(event)s': rank %(rank)s is beyond the %(field_size)s players"
    ),
    "circuit.rank/shared_high": gettext_lazy(
        "event '%(event)s': the %(count)s players tied at rank %(rank)s would share places "
        "beyond the %(field_size)s players"
    ),
    "circuit.rank/inside": gettext_lazy(
        "event '%(event)s': rank %(rank)s is one of the places shared by the %(count)s "
        "players tied at rank %(tie_rank)s (after a tie the next rank skips them)"
    ),
    "circuit.no_player": gettext_lazy("player '%(player)s' has no event in this circuit"),
    "circuit.document/format": gettext_lazy(
        'a circuit document needs "format": "kgc/1", got %(value)s'
    ),
    "circuit.document/object": gettext_lazy("%(path)s must be a JSON object, got %(value)s"),
    "circuit.document/list": gettext_lazy("%(path)s must be a JSON list, got %(value)s"),
    "circuit.document/text": gettext_lazy("%(path)s must be text, got %(value)s"),
    "circuit.document/integer": gettext_lazy("%(path)s must be a whole number, got %(value)s"),
    "circuit.document/missing": gettext_lazy("%(path)s is missing"),
    "circuit.document/unknown": gettext_lazy(
        "%(path)s: unknown key(s) %(keys)s; allowed: %(allowed)s"
    ),
    "circuit.result/all": gettext_lazy(
        "%(event)s: place %(rank)s, %(points)s points, counted (every event counts)"
    ),
    "circuit.result/best": gettext_lazy(
        "%(event)s: place %(rank)s, %(points)s points, counted (among the best %(best)s events)"
    ),
    "circuit.result/beyond_best": gettext_lazy(
        "%(event)s: place %(rank)s, %(points)s points, dropped (not among the best %(best)s events)"
    ),
    "circuit.explain/ranked": gettext_lazy(
        "%(higher)s ranks above %(lower)s: %(lower)s played %(lower_events)s event(s), fewer "
        "than the %(min_events)s needed to be ranked"
    ),
    "circuit.explain/points": gettext_lazy(
        "%(higher)s ranks above %(lower)s on points (%(higher_points)s vs %(lower_points)s)"
    ),
    "circuit.explain/best_place": gettext_lazy(
        "%(higher)s ranks above %(lower)s on the best place in a counted event "
        "(%(higher_place)s vs %(lower_place)s), level on points"
    ),
    "circuit.explain/events": gettext_lazy(
        "%(higher)s ranks above %(lower)s on counted events (%(higher_events)s vs "
        "%(lower_events)s), level on points and best place"
    ),
    "circuit.explain/lots": gettext_lazy(
        "%(higher)s ranks above %(lower)s by the drawing of lots (lot %(higher_lot)s vs "
        "%(lower_lot)s, seed %(seed)s), level on points, best place and counted events"
    ),
    "circuit.explain/tied": gettext_lazy("%(higher)s and %(lower)s are tied"),
}

WORDS: dict[str, Promise] = {}
