"""The draw's keys in the reader's language (see league.engine_text): the engine's
(:mod:`engine.texts.draws`: seating and referee warnings and refusals) and the league's
own notes on a draw job (``league.draw.*``), which a job stores beside the engine's as
``{"code", "params"}`` and :func:`league.i18n.draw_note_text` renders.

The league's params: ``round``/``table`` numbers; ``tables`` the tables a redraw kept,
``[{"round", "table", "why"}]`` (``why``: ``played`` or ``pinned``); ``error`` a nested
note (the engine's refusal of the referees).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

#: The league's own notes on a draw job (warnings and failures).
LEAGUE: dict[str, Promise] = {
    "league.draw.kept": gettext_lazy("Kept as they were: %(tables)s."),
    "league.draw.no_referee_history": gettext_lazy(
        "Earlier rounds have tables without a listed referee; referee history from them is "
        "not taken into account."
    ),
    "league.draw.referees_not_assigned": gettext_lazy("Referees were not assigned: %(error)s"),
    "league.draw.no_referees": gettext_lazy("The event lists no referees; tables have none."),
    "league.draw.referee_dropped": gettext_lazy(
        "Round %(round)s table %(table)s has no referee: its referee stays at a table kept "
        "as it was. Assign referees again."
    ),
    "league.draw.order": gettext_lazy("Earlier rounds must be drawn first."),
    "league.draw.no_checked_in": gettext_lazy(
        "Nobody is checked in yet: check players in, or draw all registered players."
    ),
    "league.draw.no_players": gettext_lazy("Nobody is registered for this event."),
    "league.draw.released": gettext_lazy("A round in this draw was released meanwhile."),
    "league.draw.kept_changed": gettext_lazy(
        "Tables of these rounds were played or changed by hand while the draw ran; draw again."
    ),
    "league.draw.problems": gettext_lazy("The draw was asked wrongly: %(problems)s"),
    "league.draw.failed": gettext_lazy(
        "The draw failed because of an internal error; it has been logged."
    ),
    "league.draw.queue_down": gettext_lazy(
        "The task queue is unavailable; start the draw again in a minute."
    ),
    "league.draw.stale": gettext_lazy("The draw stopped without finishing; start it again."),
}

#: The engine's draw keys (every key of :mod:`engine.texts.draws`).
ENGINE: dict[str, Promise] = {
    "draw.option": gettext_lazy("option %(key)s must be a non-negative integer"),
    "draw.option_unknown": gettext_lazy("unknown option '%(key)s'"),
    "draw.players_not_unique": gettext_lazy("player ids are not unique"),
    "draw.no_players": gettext_lazy("no players"),
    "draw.no_rounds": gettext_lazy("rounds must be at least 1"),
    "draw.table_range": gettext_lazy("table sizes [%(min)s, %(max)s] are not a valid range"),
    "draw.no_tables": gettext_lazy("tables must be at least 1 when given"),
    "draw.club_apart_rounds": gettext_lazy("club_apart_rounds must not be negative"),
    "draw.no_allowed_size": gettext_lazy("no allowed table size lies in [%(min)s, %(max)s]"),
    "draw.avoid_self": gettext_lazy("player %(player)s cannot avoid themselves"),
    "draw.unknown_player/avoid": gettext_lazy("avoid names unknown player %(player)s"),
    "draw.unknown_player/absent": gettext_lazy("absent names unknown player %(player)s"),
    "draw.unknown_player/clubs": gettext_lazy("clubs names unknown player %(player)s"),
    "draw.absent_rounds": gettext_lazy(
        "player %(player)s absent from rounds [%(outside)s] outside 1..%(rounds)s"
    ),
    "draw.fixed_rounds": gettext_lazy("more fixed rounds than rounds"),
    "draw.fixed_unknown": gettext_lazy("fixed round %(round)s names unknown players %(names)s"),
    "draw.fixed_twice": gettext_lazy("fixed round %(round)s seats a player twice"),
    "draw.previous_rounds": gettext_lazy("the previous draw has more rounds than are left to draw"),
    "draw.previous_twice": gettext_lazy("the previous draw's round %(round)s seats a player twice"),
    "draw.previous_none": gettext_lazy(
        "the previous draw's round %(round)s names none of the players"
    ),
    "draw.too_few_players": gettext_lazy(
        "round %(round)s: %(count)s players present, fewer than the minimum table size %(min)s"
    ),
    "draw.table_count/range": gettext_lazy(
        "round %(round)s: %(count)s players present cannot sit at exactly %(tables)s tables "
        "with sizes %(min)s–%(max)s"
    ),
    "draw.table_count/list": gettext_lazy(
        "round %(round)s: %(count)s players present cannot sit at exactly %(tables)s tables "
        "with sizes %(sizes)s"
    ),
    "draw.table_count/one_range": gettext_lazy(
        "round %(round)s: %(count)s players present cannot sit at exactly %(tables)s table with"
        " sizes %(min)s–%(max)s"
    ),
    "draw.table_count/one_list": gettext_lazy(
        "round %(round)s: %(count)s players present cannot sit at exactly %(tables)s table with"
        " sizes %(sizes)s"
    ),
    "draw.table_sizes/range": gettext_lazy(
        "round %(round)s: %(count)s players present cannot be split into tables of sizes "
        "%(min)s–%(max)s"
    ),
    "draw.table_sizes/list": gettext_lazy(
        "round %(round)s: %(count)s players present cannot be split into tables of sizes %(sizes)s"
    ),
    "draw.avoid_too_many": gettext_lazy(
        "player %(player)s must not meet %(count)s of the %(n)s players present in round "
        "%(round)s, leaving %(mates)s possible table-mates where a table of %(min)s needs "
        "%(need)s"
    ),
    "draw.avoid_one_table": gettext_lazy(
        "players %(player)s and %(other)s must not meet but round %(round)s seats everyone "
        "present at a single table"
    ),
    "draw.avoid_unmet": gettext_lazy(
        "players %(player)s and %(other)s must not meet but no draw found keeps them apart in "
        "round %(round)s; too many avoid pairs for the tables available"
    ),
    "draw.fixed_avoid": gettext_lazy(
        "fixed round %(round)s already seats %(player)s with %(other)s"
    ),
    "draw.cap_relief": gettext_lazy(
        "some pairs meet %(max)s times, above the bound of %(bound)s on the most meetings of "
        "one pair, because that cuts repeat meetings from %(hi)s to %(lo)s"
    ),
    "draw.club_meetings": gettext_lazy(
        "%(count)s club-mate meetings in rounds 1–%(rounds)s could not be avoided"
    ),
    "draw.seat_excess": gettext_lazy(
        "a player holds one seat number %(max)s times, above the ideal %(ideal)s"
    ),
    "draw.cut_short": gettext_lazy(
        "the time limit cut the search short; a longer limit may be fairer"
    ),
    "referees.none": gettext_lazy("no referees"),
    "referees.not_unique": gettext_lazy("referee ids are not unique"),
    "referees.conflict_unknown": gettext_lazy("conflict names unknown referee %(referee)s"),
    "referees.fixed_rounds": gettext_lazy("more fixed referee rounds than rounds"),
    "referees.fixed_tables": gettext_lazy(
        "fixed referees of round %(round)s do not match its tables"
    ),
    "referees.fixed_unknown": gettext_lazy(
        "fixed round %(round)s names unknown referees %(referees)s"
    ),
    "referees.too_few": gettext_lazy(
        "round %(round)s: %(tables)s tables but only %(count)s referees"
    ),
    "referees.all_conflict": gettext_lazy(
        "round %(round)s, table %(table)s: every referee has a conflict there (%(referees)s "
        "with %(names)s)"
    ),
    "referees.all_conflict/several": gettext_lazy(
        "round %(round)s, table %(table)s: every referee has a conflict there (%(referees)s "
        "with %(names)s respectively)"
    ),
    "referees.stuck": gettext_lazy(
        "round %(round)s: conflicts leave tables [%(table_numbers)s] without a referee; the "
        "%(tables)s tables can only share referees %(referees)s"
    ),
    "referees.repeats": gettext_lazy(
        "players meet the same referee %(count)s extra times; the lower bound is %(bound)s"
    ),
    "referees.loads": gettext_lazy("referee loads range from %(lo)s to %(hi)s tables"),
}

TEXT: dict[str, Promise] = {**ENGINE, **LEAGUE}
WORDS: dict[str, Promise] = {}
