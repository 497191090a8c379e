"""Templates: games — play and validation (:mod:`engine.state`, :mod:`engine.validate`).

Keys are violation codes (``vote.dead_voter``), end reasons (``end.killers_out``), ties
(``tie.tie_break``) and the simulator's errors, each with ``/variant`` where one code has
several sentences. A sentence that names how a player left the game has one variant per
cause (``kill``, ``vote``, ``lot``, ``eject``); one that names why the game ended has one
variant per end reason. Plain data: the variants are spelled out by the loops below.
"""

# How a player left the game (engine.state.Cause), as "… was killed on night 2".
_GONE = {
    "kill": "killed on {on}",
    "vote": "voted out on {on}",
    "lot": "drawn out by lot on {on}",
    "eject": "ejected on {on}",
}

# Why the game ended (engine.state.EndReason).
_END = {
    "killers_out": "every killer is out",
    "good_out": "every good player is out",
    "police_out": "every police officer is out",
    "civilians_out": "every civilian is out",
    "final_tie_killers": "a third tied ballot goes to the killers",
    "final_tie_draw": "a third tied ballot draws the game",
    "surrender": "seat {seat} ({role}) surrendered",
}

# Why a day goes on to another ballot or to lots (engine.state.TieKind).
_TIE = {
    "tie_break": "ballot {k} tied between seats {seats}: tie-break",
    "off_site_pk": "ballot {k} tied between seats {seats}: off-site PK",
    "final": "ballot {k} tied between seats {seats}: final tie ({rule})",
    "runoff": "no majority in ballot {k}: runoff between seats {seats}",
}

# Something with no place at this point of a live game (event.unexpected).
_UNEXPECTED = {
    "ballot_at_night": "ballots are held by day",
    "eject_at_night": "an ejection is recorded by day",
    "eject_after_ballot": "ejections come before the day's first ballot",
    "surrender_at_night": "a surrender is recorded by day",
    "surrender_after_ballot": "a surrender comes before the day's first ballot",
    "lot_at_night": "lots are drawn by day",
    "eliminate_at_night": "eliminations are declared by day",
    "eliminate_twice": "the day's elimination is already declared",
    "last_words_at_night": "last words are recorded by day",
}

TEMPLATES: dict[str, str] = {
    # the deal
    "setup.seats/deal": "seats must be 1..{n}, each once",
    "setup.duplicate_player/deal": "a player holds two seats",
    "setup.players": "{n} seat(s), but {ruleset} seats {lo}–{hi}",
    "setup.role_counts": (
        "{n} players under {ruleset} deal {killers} killers, {police} police, {civilians} "
        "civilians; the seats hold {held}"
    ),
    # the order of play
    "phase.order/log": "{phase} out of order; expected {next_phase}",
    "phase.order/live": "out of order; {next_phase} is next",
    "phase.after_end": "the game already ended on {ended}",
    # night
    "kill.unknown_seat": "the killers chose seat {seat}, but seats are 1..{n}",
    "check.unknown_seat": "the police checked seat {seat}, but seats are 1..{n}",
    "check.no_police": "seat {target} was checked, but no police officer is alive",
    # day: ejections and surrender
    "eject.unknown_seat": "the referee ejected seat {seat}, but seats are 1..{n}",
    "surrender.not_allowed": "seat {seat} surrendered, but {ruleset} has no surrender",
    "surrender.unknown_seat": "surrender by seat {seat}, but seats are 1..{n}",
    "surrender.civilian": "seat {seat} is a civilian and may not surrender",
    "surrender.teammate_alive/one": (
        "seat {seat} surrendered while seat {seats} ({role}) still alive"
    ),
    "surrender.teammate_alive/many": (
        "seat {seat} surrendered while seats {seats} ({role}) still alive"
    ),
    # day: ballots
    "ballot.extra/decided": "one ballot too many: ballot {k} already decided the day",
    "ballot.extra/over": "one ballot too many: the day is over",
    "vote.unknown_seat/voter": "seat {voter} voted, but seats are 1..{n}",
    "vote.unknown_seat/target": "seat {voter} voted for seat {target}, but seats are 1..{n}",
    "vote.duplicate_voter": "seat {voter} voted twice",
    "vote.abstain_forbidden": "seat {voter} abstained, but every voter must vote here",
    "vote.self_vote": "seat {voter} voted for themself",
    "vote.not_candidate": (
        "seat {voter} voted for seat {target}, but this ballot is between seats {seats}"
    ),
    "vote.missing_voter": "seat {voter} did not vote",
    # day: the end of the day
    "day.missing_ballots": "no ballot was held",
    "day.missing_eliminated": "nobody was declared out",
    "day.wrong_elimination/seat_seat": (
        "seat {seat} declared out, but the ballots put seat {target} out"
    ),
    "day.wrong_elimination/seat_nobody": "seat {seat} declared out, but the ballots put nobody out",
    "day.wrong_elimination/nobody_seat": (
        "nobody declared out, but the ballots put seat {target} out"
    ),
    "lot.unexpected/no_lots": "seat {seat} was drawn, but {ruleset} has no lots",
    "lot.unexpected/no_tie": "seat {seat} was drawn, but no third tied ballot",
    "lot.not_tied": "seat {seat} was drawn, but the tie was between seats {seats}",
    "lot.missing": (
        "ballot {k} tied between seats {seats}: final tie ({rule}), but no lot was drawn"
    ),
    # last words
    "last_words.unknown_seat": "last words by seat {seat}, but seats are 1..{n}",
    "last_words.duplicate": "seat {seat} gave last words twice",
    "last_words.not_entitled/alive": "seat {seat} gave last words but is alive",
    "last_words.too_many_suspects": "seat {seat} named {count} suspects; at most {max}",
    "last_words.bad_suspect": (
        "seat {seat} named [{seats}]: suspects must be distinct seats 1..{n} other than the speaker"
    ),
    # the result
    "result.unfinished": (
        "{declared} declared, but the game has not ended (next: {step} on {phase})"
    ),
    "result.impossible": "{declared} declared, but no game under {ruleset} can end in a draw",
    # awards
    "awards.unknown_seat": "seat {seat} is not at the table (1..{n})",
    "awards.points/warning": "a warning to seat {seat} carries no points",
    "awards.points/positive": "a {kind} for seat {seat} needs a positive number of points",
    # across games
    "series.repeat_night1_victim": (
        "{player} (seat {seat}) is the night-1 victim again; they were the night-1 victim of "
        "their previous game (game {game})"
    ),
    # the simulator
    "simulate.table_size": "{ruleset} does not seat {n} players",
    "simulate.player_names": "{count} player names for {n} seats",
}

for _cause, _gone in _GONE.items():
    TEMPLATES[f"kill.dead_target/{_cause}"] = f"the killers chose seat {{target}}, who was {_gone}"
    TEMPLATES[f"check.dead_target/{_cause}"] = (
        f"the police checked seat {{target}}, who was {_gone}"
    )
    TEMPLATES[f"eject.dead_seat/{_cause}"] = f"seat {{seat}} was ejected, but was {_gone}"
    TEMPLATES[f"surrender.dead_seat/{_cause}"] = f"seat {{seat}} surrendered, but was {_gone}"
    TEMPLATES[f"vote.dead_voter/{_cause}"] = f"seat {{voter}} voted but was {_gone}"
    TEMPLATES[f"vote.dead_target/{_cause}"] = (
        f"seat {{voter}} voted for seat {{target}}, who was {_gone}"
    )
    TEMPLATES[f"last_words.not_entitled/none_{_cause}"] = (
        f"seat {{seat}} gave last words but was {_gone} and has none under {{rule}}"
    )
    if _cause != "eject":  # an ejected player is never entitled, so never late
        TEMPLATES[f"last_words.not_entitled/late_{_cause}"] = (
            f"seat {{seat}} gave last words but was {_gone}; last words belong to that round's day"
        )

for _reason, _why in _END.items():
    TEMPLATES[f"end.{_reason}"] = _why
    TEMPLATES[f"result.missing/{_reason}"] = (
        f"the game ended on {{ended}} ({_why}), but no result is recorded"
    )
    TEMPLATES[f"result.wrong_winner/{_reason}"] = (
        f"{{declared}} declared, but {{winner}} won on {{ended}} ({_why})"
    )

for _kind, _tie in _TIE.items():
    TEMPLATES[f"tie.{_kind}"] = _tie
    if _kind != "final":  # a final tie goes to lots, the killers or a draw: no ballot is due
        TEMPLATES[f"ballot.missing/{_kind}"] = f"{_tie}, but no ballot {{next_ballot}}"

for _what, _sentence in _UNEXPECTED.items():
    TEMPLATES[f"event.unexpected/{_what}"] = f"{_sentence} now; next: {{step}}"

PARAMS: dict[str, str] = {
    "n": "int",
    "lo": "int",
    "hi": "int",
    "k": "int",
    "count": "int",
    "max": "int",
    "game": "int",
    "killers": "int",
    "police": "int",
    "civilians": "int",
    "next_ballot": "int",
    "held": "ints",
    "seat": "seat",
    "voter": "seat",
    "target": "seat",
    "seats": "seats",
    "phase": "phase",
    "ended": "phase",
    "on": "phase",
    "next_phase": "phase",
    "ruleset": "text",
    "player": "text",
    "path": "text",
    "role": "word",
    "rule": "word",
    "step": "word",
    "kind": "word",
    "winner": "word",
    "declared": "word",
    "cause": "word",
    "end": "word",
    "what": "word",
    "variant": "text",
}
