"""Shattered World's checks of stored data it did not make itself (an import):
:meth:`SheetSystem.check_sheet <systems.SheetSystem.check_sheet>`,
:meth:`~systems.SheetSystem.check_system_data` and :meth:`~systems.SheetSystem.check_roll`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rolls.models import Roll
from rulesets import shattered_world as sw
from systems import is_whole_number, require, stored_int, stored_names, stored_object
from systems.claims import claimed_by, require_claims, require_follow_up, shown, verdict
from systems.shattered_world.catalogue import die_steps
from systems.shattered_world.sheet import (
    RULE_ACHIEVEMENTS,
    RULE_BUY_INS,
    RULE_DICE,
    RULE_STATISTICS,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign


# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) --------------------------


def check_sheet(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    """:meth:`ShatteredWorld.check_sheet`: exactly the six statistics, each and the hit
    points a pool with its current value 0 to its maximum (:class:`rulesets.shattered_world.
    Statistic`; Mechanical (Non-Roleplay) Actions), proficiencies among the statistics; the
    action die level a row of the campaign's :func:`die_steps` (Action Dice and Field Role
    Dice); buy-in levels and achievements whole numbers (Universal Buy-Ins; Achievements and
    Buy-Ins); the text fields text and ``human`` true or false.

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    statistics = stored_object(sheet, "statistics", "The statistics")
    require(set(statistics) == set(sw.STATISTICS),
            f"the statistics must be exactly {', '.join(sw.STATISTICS)}", RULE_STATISTICS)
    pools = {**statistics, sw.HIT_POINTS: stored_object(sheet, "hit_points", "Hit points")}
    for code, pool in pools.items():
        require(isinstance(pool, dict) and is_whole_number(pool.get("current"))
                and is_whole_number(pool.get("max")),
                f"{code} needs a current and a maximum", RULE_STATISTICS)
        sw.Statistic(code, pool["current"], pool["max"])  # RuleError: out of 0..maximum
    steps = die_steps(campaign)
    stored_int(sheet.get("action_die_level", 0), "The action die step", 0, len(steps) - 1,
               RULE_DICE)
    for name, level in stored_object(sheet, "buy_ins", "The buy-ins").items():
        stored_int(level, f"The buy-in {name}", 0, 999, RULE_BUY_INS)
    proficiencies = stored_names(sheet.get("proficiencies", []), "The proficiencies")
    require(all(code in sw.STATISTICS for code in proficiencies),
            f"proficiencies are statistics ({', '.join(sw.STATISTICS)})", RULE_STATISTICS)
    achievements = sheet.get("achievements") or {}
    require(isinstance(achievements, dict), "the achievements must be an object")
    stored_int(achievements.get("total", 0), "Total Achievements", 0, 99_999,
               RULE_ACHIEVEMENTS)
    stored_names(achievements.get("milestones", []), "The milestones")
    feats = achievements.get("feats", {})
    require(isinstance(feats, dict), "the feats must be an object")
    for name, times in feats.items():
        stored_int(times, f"The feat {name}", 1, 99_999, RULE_ACHIEVEMENTS)
    require(isinstance(sheet.get("human", False), bool), "'human' must be true or false")
    for key in ("species", "field_role", "subrole", "foible"):
        require(isinstance(sheet.get(key, ""), str), f"{key!r} must be text")
    stored_names(sheet.get("additional_field_roles", []), "The additional field roles")


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`ShatteredWorld.check_system_data`: the die steps table, when it has rows, is
    one the GM's table form takes (:func:`rulesets.shattered_world.check_die_steps`, as
    :func:`~rulesets.shattered_world.parse_die_steps` checks the form's); each custom buy-in
    has a name and a cost in the seed's notation (:func:`rulesets.shattered_world.parse_cost`,
    as :class:`BuyInForm` checks it).

    Raises:
        RuleError: the first row refused (Shattered World Core Engine, Action Dice and Field
            Role Dice; Universal Buy-Ins).
    """
    rows = data.get("die_steps") or []
    require(isinstance(rows, list) and all(isinstance(r, dict) for r in rows),
            "the die steps must be a list of rows")
    if rows:
        steps = []
        for row in rows:
            for key in ("action_die", "field_role_die", "cost"):
                require(is_whole_number(row.get(key)),
                        f"a die step needs a whole-number {key!r}")
            steps.append(sw.DieStep(row["action_die"], row["field_role_die"], row["cost"],
                                    str(row.get("notes", ""))))
        sw.check_die_steps(steps)
    custom = data.get("custom_buy_ins", [])
    require(isinstance(custom, list), "the custom buy-ins must be a list")
    for entry in custom:
        require(isinstance(entry, dict) and isinstance(entry.get("name"), str)
                and isinstance(entry.get("cost"), str),
                f"a custom buy-in needs a name and a cost: {entry!r}")
        sw.parse_cost(entry["cost"])


# --- A stored roll's check (SheetSystem.check_roll) ---------------------------------------------

_RULE_CORE = f"{sw.SOURCE}, The Core Mechanic"

_CLAIMS = {
    "result.total": "it claims a total of {claimed}; {dice} gives {derived}",
    "result.outcome": "it claims the outcome {claimed}; {dice} gives {derived}",
    "result.success": "it claims success is {claimed}; {dice} gives {derived}",
    "result.degree": "it claims a degree of success of {claimed}; {dice} gives {derived}",
    "result.automatic": "it claims its face decided it regardless of the total ({claimed}); "
                        "{dice} gives {derived}",
    "result.summary": "it reads {claimed}; {dice} gives {derived}",
    "outcome": "the log shows the outcome {claimed}; {dice} gives {derived}",
    "net": "the log shows a degree of success of {claimed}; {dice} gives {derived}",
    "summary": "the log reads {claimed}; {dice} gives {derived}",
}
"""How a roll's claims that its die does not bear out read (:func:`systems.claims.
require_claims`)."""


def verdict_of_action(result: sw.RollResult) -> tuple[str, int, str]:
    """What the roll log keeps of an action beside its result (``ShatteredWorld.roll``):
    ``(outcome, net, summary)``: a success (a standard success too) or a failure, the degree
    of success, the result's summary."""
    return "success" if result.success else "failure", result.degree, result.summary()


def check_roll(roll: Roll, parent: Roll | None) -> None:
    """:meth:`ShatteredWorld.check_roll`: an action (or an NPC's quick roll) rolls its pool's
    one die, and its total, outcome, degree and summary are what that face gives against
    the target with its modifiers and multipliers (Shattered World Core Engine, The Core
    Mechanic; Standard Success); the log's verdict is the action's (:func:`verdict_of_action`)
    or the quick roll's. No Shattered World roll follows up another.

    Raises:
        RuleError: the first disagreement: "2 dice were rolled for a pool of 1 (a d8)", "it
            claims the outcome 'success'; its die [3] on a d8 gives 'failure'".
    """
    require_follow_up(roll, parent, of=None, rule=_RULE_CORE)
    pool = sw.ActionPool.from_dict(roll.result["pool"])
    dice = roll.result["dice"]
    require(len(dice) == 1, f"{len(dice)} {'die was' if len(dice) == 1 else 'dice were'} "
                            f"rolled for a pool of 1 (a d{pool.die})", _RULE_CORE)
    result = sw.RollResult.from_dict(roll.result)
    outcome, net, summary = ((*result.verdict(), result.summary())
                             if roll.kind == Roll.Kind.NPC else verdict_of_action(result))
    require_claims(claimed_by(roll), {"result": result.as_dict(),
                                      **verdict(outcome, net, summary)},
                   words=_CLAIMS, dice=f"its die {shown([result.face])} on a d{pool.die}",
                   rule=_RULE_CORE)
