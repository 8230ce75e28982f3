"""Shahquest's checks of stored data: a character's sheet (:func:`check_sheet`), the
campaign's tension pool (:func:`check_system_data`) and a roll's dice and what they give
(:func:`check_roll`), as an import or a hand-edited row may bring them; the system's
``check_sheet``, ``check_system_data`` and ``check_roll`` call them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rolls.models import Roll
from rulesets import shahquest as sq
from rulesets.dice import format_dice
from rulesets.errors import RuleError
from rulesets.shahquest.storage import RollKind
from systems import require, stored_int
from systems.claims import (
    claimed_by,
    listed,
    require_claims,
    require_follow_up,
    shown,
    verdict,
)
from systems.shahquest.sheet import (
    MAX_PLOT_POINTS,
    RULE_PLOT_POINTS,
    TEXT_TYPES,
    _stress_of,
    next_roll_push_die,
    stress_taken,
    trauma_recovery,
)
from systems.shahquest.tension import _TENSION, MAX_TENSION_DICE, tension_state

# --- a stored sheet's check (SheetSystem.check_sheet) -------------------------------------------


def _stored_feature(entry: Mapping[str, Any], **extra: Any) -> sq.Feature:
    # Unlike _engine_feature, nothing is coerced: a stored count of "2" or a missing type
    # reaches the engine's check as it is and is refused there, not read as 2.
    # Stored JSON, unchecked on purpose (Any): a missing type or die (None) reaches the
    # engine's check, which refuses it.
    kind: Any = entry.get("type")
    die: Any = entry.get("die")
    return sq.Feature(type=kind, name=entry["name"], die=die,
                      count=entry.get("count") or 1, **extra)


def check_sheet(sheet: Mapping[str, Any]) -> None:
    """:meth:`~systems.shahquest.system.Shahquest.check_sheet`: every feature named (no
    colon, which separates the XP ledger's keys; so is a renamed one's ``ledger_name``,
    :func:`~systems.shahquest.sheet.ledger_name`) and checked by the engine's
    :func:`rulesets.shahquest.check_feature` with each of its specializations (Shahquest
    wiki, Feature Types; Dice, Step Up, Step Down, and Spreads); special effects and limits
    (text) each in a power set; plot points 0 to
    :data:`~systems.shahquest.sheet.MAX_PLOT_POINTS` (Shahquest wiki, Plot Points); the
    stress track as :func:`~systems.shahquest.sheet.stress_track` reads it (Shahquest wiki,
    Stress and Trauma) with the stress just taken (:func:`~systems.shahquest.sheet.
    stress_taken`), the rewards waiting for the next roll (:func:`~systems.shahquest.sheet.
    next_roll_push_die`, :func:`~systems.shahquest.sheet.next_roll_step_up`), and the days
    of the next trauma recoveries as :func:`~systems.shahquest.sheet.trauma_recovery` reads
    them (Stressing Out and Trauma).

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    features: Any = sheet.get("features")  # stored JSON: require() refuses a non-list
    require(isinstance(features, list), "the sheet's features must be a list")
    for entry in features:
        require(isinstance(entry, dict) and isinstance(entry.get("name"), str)
                and entry["name"].strip() != "" and ":" not in entry["name"],
                f"a feature needs a name without a colon: {entry!r}")
        if "ledger_name" in entry:  # the name its XP ledger keys spell, once renamed
            require(isinstance(entry["ledger_name"], str) and entry["ledger_name"].strip() != ""
                    and ":" not in entry["ledger_name"],
                    f"a feature's ledger name needs to be a name without a colon: {entry!r}")
        kind = entry.get("type")
        if kind in TEXT_TYPES:  # power-set text, no die
            require(isinstance(entry.get("power_set"), str),
                    f"the {kind} {entry['name']!r} belongs to a power set")
            continue
        sq.check_feature(_stored_feature(entry))
        specializations = entry.get("specializations", [])
        require(isinstance(specializations, list),
                f"the specializations of {entry['name']!r} must be a list")
        for spec in specializations:
            require(isinstance(spec, dict) and isinstance(spec.get("name"), str),
                    f"a specialization of {entry['name']!r} needs a name")
            sq.check_feature(_stored_feature(entry, specialization=spec["name"],
                                             specialization_use=spec.get("use", "")))
    stored_int(sheet.get("plot_points", 0), "Plot points", 0, MAX_PLOT_POINTS,
               RULE_PLOT_POINTS)
    _stress_of(sheet)
    stress_taken(sheet)
    next_roll_push_die(sheet)
    trauma_recovery(sheet)


# --- the campaign's stored tension pool (SheetSystem.check_system_data) ------------------------


def check_system_data(system_data: Mapping[str, Any]) -> None:
    """Refuse stored tension-pool data the moves of :mod:`systems.shahquest.actions` could
    never leave (the sheet layer's ``check_system_data``): it must read as
    :func:`~systems.shahquest.tension.tension_state` reads it.

    Args:
        system_data: a would-be ``Campaign.system_data`` (missing keys read as the defaults).

    Raises:
        RuleError: a pool, starting pool or dice set aside that is not a list of step dice,
            or a starting pool of more than
            :data:`~systems.shahquest.tension.MAX_TENSION_DICE` dice (Shahquest wiki, Tension
            Pool; Using the Tension Pool).
    """
    state = tension_state(system_data)
    # The starting pool passes through tension-start, which caps it; the pool itself may grow
    # past it one opportunity at a time, as at the table.
    if len(state["starting"]) > MAX_TENSION_DICE:
        raise RuleError(f"a starting tension pool of {len(state['starting'])} dice is more "
                        f"than the {MAX_TENSION_DICE} Sheetkeeper allows", _TENSION)


# --- a stored roll's check (SheetSystem.check_roll) ---------------------------------------------

_RULE_POOLS = f"{sq.SOURCE}, Dice Pools"

_CLAIMS = {
    "result.effort_dice": "it claims the effort dice {claimed} (by place in the roll, from "
                          "0); {dice} give the best two, {derived}",
    "result.effect_dice": "it claims the effect dice {claimed} (by place in the roll, from "
                          "0); {dice} give {derived}",
    "result.effort": "it claims an effort total of {claimed}; {dice} give {derived}",
    "result.effect_die": "it claims an effect die of {claimed} sides; {dice} give {derived}",
    "result.extra_effect_dice": "it claims the extra effect dice {claimed}; {dice} give "
                                "{derived}",
    "result.opportunities": "it claims opportunities at {claimed}; {dice} give {derived}",
    "result.opportunity_dice": "it claims the opportunity dice {claimed}; {dice} give "
                               "{derived}",
    "result.plot_points_after_roll": "it claims {claimed} plot points spent after the roll; "
                                     "{dice} give {derived}",
    "result.stress_step_up": "it claims the stress stepped up {claimed}; its pool gives "
                             "{derived}",
    "result.summary": "it reads {claimed}; {dice} give {derived}",
    "outcome": "the log shows the outcome {claimed}; {dice} give {derived}",
    "net": "the log shows an effort total of {claimed}; {dice} give {derived}",
    "summary": "the log reads {claimed}; {dice} give {derived}",
}
"""How a roll's claims that its dice do not bear out read (:func:`systems.claims.
require_claims`)."""

_FOLLOWS_UP: dict[str, tuple[str, ...]] = {RollKind.CHOICE: (Roll.Kind.ACTION,)}
"""A choice of dice follows up a roll from the sheet (``systems.shahquest.actions``)."""


def verdict_of_effort(result: sq.RollResult) -> tuple[str, int, str]:
    """What the roll log keeps of a roll from the sheet or the GM's general danger beside its
    result: ``(outcome, net, summary)``: "rolled" (an effort total has no pass or fail),
    the effort total, the result's summary."""
    return Roll.Outcome.ROLLED.value, result.effort, result.summary()


def verdict_of_choice(chosen: sq.RollResult) -> tuple[str, int, str]:
    """What the roll log keeps of the player's choice of dice beside its result: "rolled",
    the effort total, and the summary with the plot points the choice spent ("Effort 11,
    effect d8; 1 plot point spent")."""
    spent = chosen.plot_points_after_roll
    note = f"; {spent} plot point{'s' if spent != 1 else ''} spent" if spent else ""
    return Roll.Outcome.ROLLED.value, chosen.effort, chosen.summary() + note


def check_roll(roll: Roll, parent: Roll | None) -> None:
    """Refuse a stored Shahquest roll its dice do not bear out (``SheetSystem.check_roll``).

    Every roll holds one die of each size its pool rolls, in the pool's order; a roll from
    the sheet, the GM's general danger and an NPC's quick roll keep the best effort total
    and effect die the dice give (:func:`rulesets.shahquest.best_selection`, Shahquest wiki,
    Dice Pools), and the player's choice of dice follows up a roll from the sheet with its
    pool and dice, choosing as the rules allow (:func:`rulesets.shahquest.check_selection`;
    Add to Effort total; Extra Effect die). The effort, effect dice, opportunities, summary
    and the log's verdict (:func:`verdict_of_effort`, :func:`verdict_of_choice`, the quick
    roll's) are what those dice and that choice give.

    Raises:
        RuleError: the first disagreement: "5 dice were rolled for a pool of 3 (d10 2d8)",
            "its die 2 is a d12 where its pool rolls a d8", "it claims an effort total of
            20; its dice (d10 7, d8 2, d8 1) give 9".
    """
    require_follow_up(roll, parent, of=_FOLLOWS_UP.get(roll.kind), rule=_RULE_POOLS)
    pool = sq.DicePool.from_dict(roll.result["pool"])
    # A pool rolled with no effect die to fall back on holds the table reading that says so.
    require(("no_effect_die" in roll.result["pool"])
            == (roll.readings.get("effect_die_default") == "no_effect"),
            "its pool and its table readings disagree on the effect die when no die is left",
            _RULE_POOLS)
    dice = roll.result["dice"]
    held, sizes = len(dice), pool.sizes
    require(held == len(sizes), f"{held} {'die was' if held == 1 else 'dice were'} rolled for "
                                f"a pool of {len(sizes)} ({format_dice(sizes) or 'no dice'})",
            _RULE_POOLS)
    for n, (size, die) in enumerate(zip(sizes, dice, strict=True), start=1):
        require(die["size"] == size, f"its die {n} is a d{die['size']} where its pool rolls "
                                     f"a d{size}", _RULE_POOLS)
    stored = sq.RollResult.from_dict(roll.result)
    if roll.kind == RollKind.CHOICE:
        result = stored  # the player's own choice, which from_dict checked
        outcome, net, summary = verdict_of_choice(result)
    else:
        result = sq.RollResult(pool=stored.pool, faces=stored.faces,
                               selection=sq.best_selection(sizes, stored.faces))
        outcome, net, summary = ((*result.verdict(), result.summary())
                                 if roll.kind == Roll.Kind.NPC else verdict_of_effort(result))
    faces = listed([f"d{size} {face}" for size, face in zip(sizes, result.faces,
                                                             strict=True)])
    require_claims(claimed_by(roll), {"result": result.as_dict(),
                                      **verdict(outcome, net, summary)},
                   words=_CLAIMS, dice=f"its dice ({faces or 'none'})", rule=_RULE_POOLS)
    if parent is not None:
        before = sq.RollResult.from_dict(parent.result)
        require((before.pool, before.faces) == (result.pool, result.faces),
                f"its dice {shown(list(result.faces))} are not those of the roll it chooses "
                f"from, {shown(list(before.faces))}", _RULE_POOLS)
