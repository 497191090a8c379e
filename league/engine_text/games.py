"""The engine's play keys in the reader's language (see :mod:`league.engine_text`):
violations of play and validation, why a game ended (``end.*``), ties (``tie.*``) and the
simulator's refusals, one entry per key of :mod:`engine.texts.games`; the words of a
game (roles, winners, the next step, final-tie and last-words rules, award kinds, a
record's completeness) in :data:`WORDS`.

Our own English msgids, not the engine's templates: rewording the engine changes no
translation key.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

TEXT: dict[str, Promise] = {
    "setup.seats/deal": gettext_lazy("seats must be 1..%(n)s, each once"),
    "setup.duplicate_player/deal": gettext_lazy("a player holds two seats"),
    "setup.players": gettext_lazy("%(n)s seat(s), but %(ruleset)s seats %(lo)s–%(hi)s"),
    "setup.role_counts": gettext_lazy(
        "%(n)s players under %(ruleset)s deal %(killers)s killers, %(police)s police, "
        "%(civilians)s civilians; the seats hold %(held)s"
    ),
    "phase.order/log": gettext_lazy("%(phase)s out of order; expected %(next_phase)s"),
    "phase.order/live": gettext_lazy("out of order; %(next_phase)s is next"),
    "phase.after_end": gettext_lazy("the game already ended on %(ended)s"),
    "kill.unknown_seat": gettext_lazy("the killers chose seat %(seat)s, but seats are 1..%(n)s"),
    "check.unknown_seat": gettext_lazy("the police checked seat %(seat)s, but seats are 1..%(n)s"),
    "check.no_police": gettext_lazy("seat %(target)s was checked, but no police officer is alive"),
    "eject.unknown_seat": gettext_lazy("the referee ejected seat %(seat)s, but seats are 1..%(n)s"),
    "surrender.not_allowed": gettext_lazy(
        "seat %(seat)s surrendered, but %(ruleset)s has no surrender"
    ),
    "surrender.unknown_seat": gettext_lazy("surrender by seat %(seat)s, but seats are 1..%(n)s"),
    "surrender.civilian": gettext_lazy("seat %(seat)s is a civilian and may not surrender"),
    "surrender.teammate_alive/one": gettext_lazy(
        "seat %(seat)s surrendered while seat %(seats)s (%(role)s) still alive"
    ),
    "surrender.teammate_alive/many": gettext_lazy(
        "seat %(seat)s surrendered while seats %(seats)s (%(role)s) still alive"
    ),
    "ballot.extra/decided": gettext_lazy(
        "one ballot too many: ballot %(k)s already decided the day"
    ),
    "ballot.extra/over": gettext_lazy("one ballot too many: the day is over"),
    "vote.unknown_seat/voter": gettext_lazy("seat %(voter)s voted, but seats are 1..%(n)s"),
    "vote.unknown_seat/target": gettext_lazy(
        "seat %(voter)s voted for seat %(target)s, but seats are 1..%(n)s"
    ),
    "vote.duplicate_voter": gettext_lazy("seat %(voter)s voted twice"),
    "vote.abstain_forbidden": gettext_lazy(
        "seat %(voter)s abstained, but every voter must vote here"
    ),
    "vote.self_vote": gettext_lazy("seat %(voter)s voted for themself"),
    "vote.not_candidate": gettext_lazy(
        "seat %(voter)s voted for seat %(target)s, but this ballot is between seats %(seats)s"
    ),
    "vote.missing_voter": gettext_lazy("seat %(voter)s did not vote"),
    "day.missing_ballots": gettext_lazy("no ballot was held"),
    "day.missing_eliminated": gettext_lazy("nobody was declared out"),
    "day.wrong_elimination/seat_seat": gettext_lazy(
        "seat %(seat)s declared out, but the ballots put seat %(target)s out"
    ),
    "day.wrong_elimination/seat_nobody": gettext_lazy(
        "seat %(seat)s declared out, but the ballots put nobody out"
    ),
    "day.wrong_elimination/nobody_seat": gettext_lazy(
        "nobody declared out, but the ballots put seat %(target)s out"
    ),
    "lot.unexpected/no_lots": gettext_lazy("seat %(seat)s was drawn, but %(ruleset)s has no lots"),
    "lot.unexpected/no_tie": gettext_lazy("seat %(seat)s was drawn, but no third tied ballot"),
    "lot.not_tied": gettext_lazy(
        "seat %(seat)s was drawn, but the tie was between seats %(seats)s"
    ),
    "lot.missing": gettext_lazy(
        "ballot %(k)s tied between seats %(seats)s: final tie (%(rule)s), but no lot was drawn"
    ),
    "last_words.unknown_seat": gettext_lazy("last words by seat %(seat)s, but seats are 1..%(n)s"),
    "last_words.duplicate": gettext_lazy("seat %(seat)s gave last words twice"),
    "last_words.not_entitled/alive": gettext_lazy("seat %(seat)s gave last words but is alive"),
    "last_words.too_many_suspects": gettext_lazy(
        "seat %(seat)s named %(count)s suspects; at most %(max)s"
    ),
    "last_words.bad_suspect": gettext_lazy(
        "seat %(seat)s named [%(seats)s]: suspects must be distinct seats 1..%(n)s other than the "
        "speaker"
    ),
    "result.unfinished": gettext_lazy(
        "%(declared)s declared, but the game has not ended (next: %(step)s on %(phase)s)"
    ),
    "result.impossible": gettext_lazy(
        "%(declared)s declared, but no game under %(ruleset)s can end in a draw"
    ),
    "awards.unknown_seat": gettext_lazy("seat %(seat)s is not at the table (1..%(n)s)"),
    "awards.points/warning": gettext_lazy("a warning to seat %(seat)s carries no points"),
    "awards.points/positive": gettext_lazy(
        "a %(kind)s for seat %(seat)s needs a positive number of points"
    ),
    "series.repeat_night1_victim": gettext_lazy(
        "%(player)s (seat %(seat)s) is the night-1 victim again; they were the night-1 victim of "
        "their previous game (game %(game)s)"
    ),
    "simulate.table_size": gettext_lazy("%(ruleset)s does not seat %(n)s players"),
    "simulate.player_names": gettext_lazy("%(count)s player names for %(n)s seats"),
    "kill.dead_target/kill": gettext_lazy(
        "the killers chose seat %(target)s, who was killed on %(on)s"
    ),
    "check.dead_target/kill": gettext_lazy(
        "the police checked seat %(target)s, who was killed on %(on)s"
    ),
    "eject.dead_seat/kill": gettext_lazy("seat %(seat)s was ejected, but was killed on %(on)s"),
    "surrender.dead_seat/kill": gettext_lazy("seat %(seat)s surrendered, but was killed on %(on)s"),
    "vote.dead_voter/kill": gettext_lazy("seat %(voter)s voted but was killed on %(on)s"),
    "vote.dead_target/kill": gettext_lazy(
        "seat %(voter)s voted for seat %(target)s, who was killed on %(on)s"
    ),
    "last_words.not_entitled/none_kill": gettext_lazy(
        "seat %(seat)s gave last words but was killed on %(on)s and has none under %(rule)s"
    ),
    "last_words.not_entitled/late_kill": gettext_lazy(
        "seat %(seat)s gave last words but was killed on %(on)s; last words belong to that round's "
        "day"
    ),
    "kill.dead_target/vote": gettext_lazy(
        "the killers chose seat %(target)s, who was voted out on %(on)s"
    ),
    "check.dead_target/vote": gettext_lazy(
        "the police checked seat %(target)s, who was voted out on %(on)s"
    ),
    "eject.dead_seat/vote": gettext_lazy("seat %(seat)s was ejected, but was voted out on %(on)s"),
    "surrender.dead_seat/vote": gettext_lazy(
        "seat %(seat)s surrendered, but was voted out on %(on)s"
    ),
    "vote.dead_voter/vote": gettext_lazy("seat %(voter)s voted but was voted out on %(on)s"),
    "vote.dead_target/vote": gettext_lazy(
        "seat %(voter)s voted for seat %(target)s, who was voted out on %(on)s"
    ),
    "last_words.not_entitled/none_vote": gettext_lazy(
        "seat %(seat)s gave last words but was voted out on %(on)s and has none under %(rule)s"
    ),
    "last_words.not_entitled/late_vote": gettext_lazy(
        "seat %(seat)s gave last words but was voted out on %(on)s; last words belong to that "
        "round's day"
    ),
    "kill.dead_target/lot": gettext_lazy(
        "the killers chose seat %(target)s, who was drawn out by lot on %(on)s"
    ),
    "check.dead_target/lot": gettext_lazy(
        "the police checked seat %(target)s, who was drawn out by lot on %(on)s"
    ),
    "eject.dead_seat/lot": gettext_lazy(
        "seat %(seat)s was ejected, but was drawn out by lot on %(on)s"
    ),
    "surrender.dead_seat/lot": gettext_lazy(
        "seat %(seat)s surrendered, but was drawn out by lot on %(on)s"
    ),
    "vote.dead_voter/lot": gettext_lazy("seat %(voter)s voted but was drawn out by lot on %(on)s"),
    "vote.dead_target/lot": gettext_lazy(
        "seat %(voter)s voted for seat %(target)s, who was drawn out by lot on %(on)s"
    ),
    "last_words.not_entitled/none_lot": gettext_lazy(
        "seat %(seat)s gave last words but was drawn out by lot on %(on)s and has none under "
        "%(rule)s"
    ),
    "last_words.not_entitled/late_lot": gettext_lazy(
        "seat %(seat)s gave last words but was drawn out by lot on %(on)s; last words belong to "
        "that round's day"
    ),
    "kill.dead_target/eject": gettext_lazy(
        "the killers chose seat %(target)s, who was ejected on %(on)s"
    ),
    "check.dead_target/eject": gettext_lazy(
        "the police checked seat %(target)s, who was ejected on %(on)s"
    ),
    "eject.dead_seat/eject": gettext_lazy("seat %(seat)s was ejected, but was ejected on %(on)s"),
    "surrender.dead_seat/eject": gettext_lazy(
        "seat %(seat)s surrendered, but was ejected on %(on)s"
    ),
    "vote.dead_voter/eject": gettext_lazy("seat %(voter)s voted but was ejected on %(on)s"),
    "vote.dead_target/eject": gettext_lazy(
        "seat %(voter)s voted for seat %(target)s, who was ejected on %(on)s"
    ),
    "last_words.not_entitled/none_eject": gettext_lazy(
        "seat %(seat)s gave last words but was ejected on %(on)s and has none under %(rule)s"
    ),
    "end.killers_out": gettext_lazy("every killer is out"),
    "result.missing/killers_out": gettext_lazy(
        "the game ended on %(ended)s (every killer is out), but no result is recorded"
    ),
    "result.wrong_winner/killers_out": gettext_lazy(
        "%(declared)s declared, but %(winner)s won on %(ended)s (every killer is out)"
    ),
    "end.good_out": gettext_lazy("every good player is out"),
    "result.missing/good_out": gettext_lazy(
        "the game ended on %(ended)s (every good player is out), but no result is recorded"
    ),
    "result.wrong_winner/good_out": gettext_lazy(
        "%(declared)s declared, but %(winner)s won on %(ended)s (every good player is out)"
    ),
    "end.police_out": gettext_lazy("every police officer is out"),
    "result.missing/police_out": gettext_lazy(
        "the game ended on %(ended)s (every police officer is out), but no result is recorded"
    ),
    "result.wrong_winner/police_out": gettext_lazy(
        "%(declared)s declared, but %(winner)s won on %(ended)s (every police officer is out)"
    ),
    "end.civilians_out": gettext_lazy("every civilian is out"),
    "result.missing/civilians_out": gettext_lazy(
        "the game ended on %(ended)s (every civilian is out), but no result is recorded"
    ),
    "result.wrong_winner/civilians_out": gettext_lazy(
        "%(declared)s declared, but %(winner)s won on %(ended)s (every civilian is out)"
    ),
    "end.final_tie_killers": gettext_lazy("a third tied ballot goes to the killers"),
    "result.missing/final_tie_killers": gettext_lazy(
        "the game ended on %(ended)s (a third tied ballot goes to the killers), but no result is "
        "recorded"
    ),
    "result.wrong_winner/final_tie_killers": gettext_lazy(
        "%(declared)s declared, but %(winner)s won on %(ended)s (a third tied ballot goes to the "
        "killers)"
    ),
    "end.final_tie_draw": gettext_lazy("a third tied ballot draws the game"),
    "result.missing/final_tie_draw": gettext_lazy(
        "the game ended on %(ended)s (a third tied ballot draws the game), but no result is "
        "recorded"
    ),
    "result.wrong_winner/final_tie_draw": gettext_lazy(
        "%(declared)s declared, but %(winner)s won on %(ended)s (a third tied ballot draws the "
        "game)"
    ),
    "end.surrender": gettext_lazy("seat %(seat)s (%(role)s) surrendered"),
    "result.missing/surrender": gettext_lazy(
        "the game ended on %(ended)s (seat %(seat)s (%(role)s) surrendered), but no result is "
        "recorded"
    ),
    "result.wrong_winner/surrender": gettext_lazy(
        "%(declared)s declared, but %(winner)s won on %(ended)s (seat %(seat)s (%(role)s) "
        "surrendered)"
    ),
    "tie.tie_break": gettext_lazy("ballot %(k)s tied between seats %(seats)s: tie-break"),
    "ballot.missing/tie_break": gettext_lazy(
        "ballot %(k)s tied between seats %(seats)s: tie-break, but no ballot %(next_ballot)s"
    ),
    "tie.off_site_pk": gettext_lazy("ballot %(k)s tied between seats %(seats)s: off-site PK"),
    "ballot.missing/off_site_pk": gettext_lazy(
        "ballot %(k)s tied between seats %(seats)s: off-site PK, but no ballot %(next_ballot)s"
    ),
    "tie.final": gettext_lazy("ballot %(k)s tied between seats %(seats)s: final tie (%(rule)s)"),
    "tie.runoff": gettext_lazy("no majority in ballot %(k)s: runoff between seats %(seats)s"),
    "ballot.missing/runoff": gettext_lazy(
        "no majority in ballot %(k)s: runoff between seats %(seats)s, but no ballot %(next_ballot)s"
    ),
    "event.unexpected/ballot_at_night": gettext_lazy("ballots are held by day now; next: %(step)s"),
    "event.unexpected/eject_at_night": gettext_lazy(
        "an ejection is recorded by day now; next: %(step)s"
    ),
    "event.unexpected/eject_after_ballot": gettext_lazy(
        "ejections come before the day's first ballot now; next: %(step)s"
    ),
    "event.unexpected/surrender_at_night": gettext_lazy(
        "a surrender is recorded by day now; next: %(step)s"
    ),
    "event.unexpected/surrender_after_ballot": gettext_lazy(
        "a surrender comes before the day's first ballot now; next: %(step)s"
    ),
    "event.unexpected/lot_at_night": gettext_lazy("lots are drawn by day now; next: %(step)s"),
    "event.unexpected/eliminate_at_night": gettext_lazy(
        "eliminations are declared by day now; next: %(step)s"
    ),
    "event.unexpected/eliminate_twice": gettext_lazy(
        "the day's elimination is already declared now; next: %(step)s"
    ),
    "event.unexpected/last_words_at_night": gettext_lazy(
        "last words are recorded by day now; next: %(step)s"
    ),
}

WORDS: dict[str, Promise] = {
    # roles (``role``, ``roles``)
    "killer": pgettext_lazy("role", "killer"),
    "police": pgettext_lazy("role", "police"),
    "civilian": pgettext_lazy("role", "civilian"),
    # winners (``winner``, ``declared``, ``winners``)
    "good": pgettext_lazy("winner", "good"),
    "killers": pgettext_lazy("winner", "killers"),
    "draw": pgettext_lazy("winner", "draw"),
    # what comes next in a live game (``step``)
    "step:night": pgettext_lazy("next step", "night"),
    "step:day": pgettext_lazy("next step", "day"),
    "step:ballot": pgettext_lazy("next step", "ballot"),
    "step:lot": pgettext_lazy("next step", "lot"),
    "step:declare": pgettext_lazy("next step", "declare"),
    "step:over": pgettext_lazy("next step", "over"),
    # a ruleset's final tie and last-words rules (``rule``)
    "rule:lot": pgettext_lazy("final tie", "lot"),
    "rule:killers": pgettext_lazy("final tie", "killers"),
    "rule:draw": pgettext_lazy("final tie", "draw"),
    "rule:first-round": pgettext_lazy("last words rule", "first-round"),
    "rule:first-deaths": pgettext_lazy("last words rule", "first-deaths"),
    "rule:all-but-killers-voted-out": pgettext_lazy("last words rule", "all-but-killers-voted-out"),
    # award kinds (``kind``)
    "bonus": pgettext_lazy("award", "bonus"),
    "penalty": pgettext_lazy("award", "penalty"),
    "warning": pgettext_lazy("award", "warning"),
    # a record's completeness (``status``)
    "finished": pgettext_lazy("record", "finished"),
    "result-only": pgettext_lazy("record", "result only"),
    "in-progress": pgettext_lazy("record", "in progress"),
}
