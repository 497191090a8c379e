"""What a stage list must be: every field of every stage checked at once (one refusal
with every problem's code), and the rule that protects recorded play (a drawn stage keeps
its rounds and seating, a cut stage its entry). Used by
:func:`league.stages.services.set_stages`; no writes here."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.errors import EngineError
from engine.scoring import get_profile
from league.errors import EngineRefusal, UserError, every_problem
from league.events.models import Event, Registration, Round
from league.stages.models import EntryKind, Stage, StageSeating
from league.stages.selectors import StagePlan

#: Bounds of the stage list.
MAX_STAGES = 10
MAX_ROUNDS = 30
MAX_NAME = 60
MAX_LISTED = 2000
MAX_MULTIPLIER = Decimal(100)
MAX_CARRY = Decimal(10)

#: The fields of one stage in :func:`set_stages`.
STAGE_FIELDS = (
    "name",
    "rounds",
    "scoring_profile",
    "multiplier",
    "carry",
    "entry",
    "hidden",
    "seating",
)


def _problem(message: Any, code: str, index: int, **params: Any) -> UserError:
    return UserError(message, code=code, params={"stage": index + 1, **params})


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal | float):
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    if not number.is_finite() or number.as_tuple().exponent < -3:  # type: ignore[operator]
        return None
    return number


def _entry(value: Any) -> tuple[str, int | None, list[int]] | None:
    """``"all"``, ``{"top": N}``, ``{"players": [ids]}`` as (kind, top, players)."""
    if value == "all" or value == {"kind": "all"}:
        return EntryKind.ALL, None, []
    if isinstance(value, Mapping) and len(value) == 1:
        top = value.get("top")
        if isinstance(top, int) and not isinstance(top, bool):
            return EntryKind.TOP, top, []
        listed = value.get("players")
        if isinstance(listed, list) and all(
            isinstance(p, int) and not isinstance(p, bool) for p in listed
        ):
            return EntryKind.PLAYERS, None, list(listed)
    return None


def _clean_stage(
    event: Event, index: int, data: Any, problems: list[UserError]
) -> dict[str, Any] | None:
    """One stage's fields checked and normalised; its problems appended."""
    if not isinstance(data, Mapping):
        problems.append(_problem(_("Stage %(stage)s is not a stage."), "stage_type", index))
        return None
    unknown = sorted(str(k) for k in data if k not in STAGE_FIELDS)
    if unknown:
        problems.append(
            _problem(
                _("Stage %(stage)s: unknown fields %(fields)s."),
                "unknown_fields",
                index,
                fields=unknown,
            )
        )
    before = len(problems)
    name = data.get("name")
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name.strip()) > MAX_NAME
        or any(unicodedata.category(c) == "Cc" for c in name)  # no control characters
    ):
        problems.append(
            _problem(
                _("Stage %(stage)s needs a name of 1 to %(n)s characters."),
                "name",
                index,
                n=MAX_NAME,
            )
        )
        name = ""
    rounds = data.get("rounds")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        problems.append(
            _problem(
                _("Stage %(stage)s: the rounds must be a whole number from 1 to %(n)s."),
                "rounds",
                index,
                n=MAX_ROUNDS,
            )
        )
    profile = data.get("scoring_profile") or ""
    if not isinstance(profile, str) or len(profile) > 40:
        problems.append(_problem(_("Stage %(stage)s: unknown scoring profile."), "profile", index))
        profile = ""
    elif profile:
        try:
            get_profile(profile)
        except EngineError as exc:
            problems.append(
                EngineRefusal(_("Scoring profile: %(error)s"), code="scoring_profile", error=exc)
            )
    multiplier = _decimal(data.get("multiplier", 1))
    if multiplier is None or not 0 < multiplier <= MAX_MULTIPLIER:
        problems.append(
            _problem(
                _(
                    "Stage %(stage)s: the multiplier must be above 0 and at most %(n)s "
                    "(three decimals at most)."
                ),
                "multiplier",
                index,
                n=str(MAX_MULTIPLIER),
            )
        )
    carry = _decimal(data.get("carry", 1))
    if carry is None or not 0 <= carry <= MAX_CARRY:
        problems.append(
            _problem(
                _(
                    "Stage %(stage)s: the carry-over must be from 0 to %(n)s "
                    "(three decimals at most)."
                ),
                "carry",
                index,
                n=str(MAX_CARRY),
            )
        )
    entry = _entry(data.get("entry", "all"))
    if entry is None:
        problems.append(
            _problem(
                _("Stage %(stage)s: who enters is “all”, the top N or a list of players."),
                "entry",
                index,
            )
        )
    else:
        kind, top, listed = entry
        if index == 0 and kind == EntryKind.TOP:
            problems.append(
                _problem(
                    _(
                        "The first stage takes every registered player or listed players, "
                        "not the top of a standing."
                    ),
                    "first_entry",
                    index,
                )
            )
        if kind == EntryKind.TOP and not 2 <= (top or 0) <= MAX_LISTED:
            problems.append(
                _problem(
                    _("Stage %(stage)s: the top must take from 2 to %(n)s players."),
                    "entry_top",
                    index,
                    n=MAX_LISTED,
                )
            )
        if kind == EntryKind.PLAYERS and not 1 <= len(listed) <= MAX_LISTED:
            problems.append(
                _problem(
                    _("Stage %(stage)s: list from 1 to %(n)s players."),
                    "entry_players",
                    index,
                    n=MAX_LISTED,
                )
            )
        elif kind == EntryKind.PLAYERS and len(set(listed)) != len(listed):
            problems.append(
                _problem(_("Stage %(stage)s lists a player twice."), "entry_players", index)
            )
    hidden = data.get("hidden", False)
    if not isinstance(hidden, bool):
        problems.append(_problem(_("Stage %(stage)s: hidden is yes or no."), "hidden", index))
    seating = data.get("seating", StageSeating.DRAW)
    if seating not in StageSeating.values:
        problems.append(
            _problem(
                _("Stage %(stage)s: the seating is drawn tables or a final table."),
                "seating",
                index,
            )
        )
    elif seating == StageSeating.FINAL and entry is not None:
        kind, top, listed = entry
        size = top if kind == EntryKind.TOP else len(listed) if kind == EntryKind.PLAYERS else None
        if size is not None and not event.min_table <= size <= event.max_table:
            problems.append(
                _problem(
                    _(
                        "Stage %(stage)s is one final table: it must take from %(lo)s to "
                        "%(hi)s players, the event's table sizes."
                    ),
                    "final_size",
                    index,
                    lo=event.min_table,
                    hi=event.max_table,
                )
            )
    if len(problems) != before:
        return None
    kind, top, listed = entry  # type: ignore[misc]
    return {
        "name": name.strip(),
        "rounds": rounds,
        "scoring_profile": profile,
        "multiplier": multiplier,
        "carry": carry,
        "entry_kind": kind,
        "entry_top": top,
        "entry_players": listed,
        "hidden": hidden,
        "seating": seating,
    }


def check_list(event: Event, stages: Any) -> list[dict[str, Any]]:
    """Every problem with the list at once (``stages``), or the cleaned stages."""
    if not isinstance(stages, list | tuple) or not 1 <= len(stages) <= MAX_STAGES:
        raise UserError(
            _("Give from 1 to %(n)s stages."), code="stages_count", params={"n": MAX_STAGES}
        )
    problems: list[UserError] = []
    cleaned = [_clean_stage(event, i, data, problems) for i, data in enumerate(stages)]
    good = [c for c in cleaned if c is not None]
    names = [c["name"].casefold() for c in good]
    twice = sorted({c["name"] for c in good if names.count(c["name"].casefold()) > 1})
    if twice:
        problems.append(
            UserError(
                _("Stage names must differ: %(names)s."),
                code="names_unique",
                params={"names": twice},
            )
        )
    total = sum(c["rounds"] for c in good)
    if total > MAX_ROUNDS:
        problems.append(
            UserError(
                _("The stages play %(total)s rounds; an event has at most %(n)s."),
                code="rounds_total",
                params={"total": total, "n": MAX_ROUNDS},
            )
        )
    listed = {p for c in good for p in c["entry_players"]}
    if listed:
        known = set(
            Registration.objects.filter(event=event, player_id__in=listed).values_list(
                "player_id", flat=True
            )
        )
        strangers = sorted(listed - known)
        if strangers:
            problems.append(
                UserError(
                    _("Listed players must be registered for the event: %(players)s."),
                    code="entry_unknown",
                    params={"players": strangers[:20]},
                )
            )
    if problems:
        raise every_problem(problems, code="stages")
    return [c for c in cleaned if c is not None]


def protect_recorded_play(
    old: Sequence[StagePlan], new: Sequence[dict[str, Any]], statuses: Mapping[int, str]
) -> None:
    """Refuse (409) a list that would rewrite what was drawn or cut."""
    starts, first = [], 1
    for stage in new:
        starts.append((first, first + stage["rounds"] - 1))
        first += stage["rounds"]
    explicit = any(p.pk is not None for p in old)
    for plan in old:
        drawn = [n for n in plan.round_numbers if statuses.get(n, Round.Status.NONE) != "none"]
        cut = plan.entrants is not None
        if not drawn and not cut:
            continue
        if plan.position >= len(new):
            raise UserError(
                _("“%(stage)s” is drawn or cut and cannot be removed."),
                code="stage_kept",
                params={"stage": plan.name},
                status=409,
            )
        stage, (lo, hi) = new[plan.position], starts[plan.position]
        if drawn:
            same = (lo, hi) == (plan.first_round, plan.last_round)
            covers = lo == plan.first_round and hi >= max(drawn)
            if (explicit and not same) or not covers:
                raise UserError(
                    _("“%(stage)s” is drawn: its rounds (%(first)s–%(last)s) cannot change."),
                    code="stage_rounds",
                    params={"stage": plan.name, "first": plan.first_round, "last": plan.last_round},
                    status=409,
                )
            if explicit and stage["seating"] != plan.seating:
                raise UserError(
                    _("“%(stage)s” is drawn: its seating cannot change."),
                    code="stage_seating",
                    params={"stage": plan.name},
                    status=409,
                )
        if cut and (
            stage["entry_kind"] != plan.entry_kind
            or stage["entry_top"] != plan.entry_top
            or tuple(stage["entry_players"]) != plan.entry_players
        ):
            raise UserError(
                _("The cut before “%(stage)s” is confirmed: reopen it before changing who enters."),
                code="stage_entry",
                params={"stage": plan.name},
                status=409,
            )


def entry_json(stage: Stage | StagePlan) -> Any:
    """A stage's entry in its JSON form (``"all"``, ``{"top": N}``, ``{"players": [...]}``)."""
    if stage.entry_kind == EntryKind.TOP:
        return {"top": stage.entry_top}
    if stage.entry_kind == EntryKind.PLAYERS:
        return {"players": list(stage.entry_players)}
    return "all"
