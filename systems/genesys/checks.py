"""Genesys's checks of stored data it did not make itself (an import writes rows as they
were): :func:`check_sheet`, :func:`check_system_data` and :func:`check_roll`, behind the
``SheetSystem`` methods of the same names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rolls.models import Roll
from rulesets import genesys
from systems import require, stored_int, stored_names, stored_object
from systems.claims import claimed_by, listed, require_claims, require_follow_up, verdict
from systems.genesys.destiny import DESTINY_KEY
from systems.genesys.sheet import RULE_SKILLS, SKILL_LIST_MAX

# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) ---------------------


def check_sheet(sheet: Mapping[str, Any]) -> None:
    """:meth:`GenesysSystem.check_sheet`: exactly the six characteristics, each
    :data:`~rulesets.genesys.CHARACTERISTIC_MIN` to ``CHARACTERISTIC_MAX``, and skills of 0
    to :data:`~rulesets.genesys.SKILL_RANKS_MAX` ranks (Genesys dice pool, Skill and
    Characteristic); career skills a list of names, the career a name, ``creation`` true or
    false; wounds and strain each a current value 0 to :data:`~rulesets.genesys.TRACK_MAX`
    and a threshold 1 to it (the track actions' guard).

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    characteristics = stored_object(sheet, "characteristics", "The characteristics")
    require(set(characteristics) == set(genesys.CHARACTERISTICS),
            f"the characteristics must be exactly {', '.join(genesys.CHARACTERISTICS)}",
            RULE_SKILLS)
    for name, rating in characteristics.items():
        stored_int(rating, name, genesys.CHARACTERISTIC_MIN, genesys.CHARACTERISTIC_MAX,
                   RULE_SKILLS)
    for name, rank in stored_object(sheet, "skills", "The skills").items():
        stored_int(rank, f"The skill {name}", 0, genesys.SKILL_RANKS_MAX, RULE_SKILLS)
    stored_names(sheet.get("career_skills", []), "The career skills")
    require(isinstance(sheet.get("career", ""), str), "the career must be a name")
    require(isinstance(sheet.get("creation", False), bool),
            "'creation' must be true or false")
    for track in ("wounds", "strain"):
        values = stored_object(sheet, track, f"The {track}")
        stored_int(values.get("current"), f"Current {track}", 0, genesys.TRACK_MAX)
        stored_int(values.get("threshold"), f"The {track} threshold", 1, genesys.TRACK_MAX)


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`GenesysSystem.check_system_data`: the skill list is a list of at most
    :data:`SKILL_LIST_MAX` objects, each a skill the GM could have added
    (:func:`rulesets.genesys.check_skill`, as the ``skill-set`` action checks it), no name
    twice (ignoring case); the Destiny pool, if any, is one the GM's moves and the checks'
    flips could have left (:class:`rulesets.genesys.DestinyPool`: no negative side, at most
    :data:`~rulesets.genesys.DESTINY_MAX` points, and a rolled pool holds its Force dice's
    pips).

    Raises:
        RuleError: the first skill refused (Genesys dice pool, Skill and Characteristic), or
            the pool refused (Sheetkeeper's decision, Destiny pool).
    """
    if DESTINY_KEY in data:
        require(isinstance(data[DESTINY_KEY], dict), "the Destiny pool must be an object",
                genesys.RULE_DESTINY)
        genesys.DestinyPool.from_dict(data[DESTINY_KEY])
    skills = data.get("skills", [])
    require(isinstance(skills, list), "the campaign's skill list must be a list")
    require(len(skills) <= SKILL_LIST_MAX,
            f"The list holds at most {SKILL_LIST_MAX} skills, not {len(skills)}.", RULE_SKILLS)
    seen: set[str] = set()
    for skill in skills:
        require(isinstance(skill, dict), f"a skill of the list is not an object: {skill!r}")
        checked = genesys.check_skill(str(skill.get("name", "")),
                                      str(skill.get("characteristic", "")))
        # The skill-add action links a second entry of the same name instead of listing it.
        require(checked.name.casefold() not in seen,
                f"{checked.name} is on the skill list twice.", RULE_SKILLS)
        seen.add(checked.name.casefold())


# --- A stored roll's check (SheetSystem.check_roll) ------------------------------------------

_RULE_POOL = f"{genesys.SOURCE}, Basic Dice Pool"
_RULE_SYMBOLS = f"{genesys.SOURCE}, Interpreting the Pool"

_CLAIMS = {
    "result.dice.*.symbols": "its die {n} claims the symbols {claimed}; its face shows "
                             "{derived}",
    "result.outcome.successes": "it claims {claimed} successes; {dice} give {derived}",
    "result.outcome.failures": "it claims {claimed} failures; {dice} give {derived}",
    "result.outcome.advantages": "it claims {claimed} advantages; {dice} give {derived}",
    "result.outcome.threats": "it claims {claimed} threats; {dice} give {derived}",
    "result.outcome.triumphs": "it claims {claimed} triumphs; {dice} give {derived}",
    "result.outcome.despairs": "it claims {claimed} despairs; {dice} give {derived}",
    "result.outcome.net_successes": "it claims {claimed} net successes; {dice} give "
                                    "{derived}",
    "result.outcome.net_advantage": "it claims a net advantage of {claimed}; {dice} give "
                                    "{derived}",
    "result.outcome.success": "it claims success is {claimed}; {dice} give {derived}",
    "result.summary": "it reads {claimed}; {dice} give {derived}",
    "outcome": "the log shows the outcome {claimed}; {dice} give {derived}",
    "net": "the log shows {claimed} net successes; {dice} give {derived}",
    "summary": "the log reads {claimed}; {dice} give {derived}",
}
"""How a roll's claims that its dice do not bear out read (:func:`systems.claims.
require_claims`)."""


def verdict_of_check(result: genesys.RollResult) -> tuple[str, int, str]:
    """What the roll log keeps of a check beside its result (``GenesysSystem.roll``):
    ``(outcome, net, summary)``: a success with at least one net success, else a failure;
    the net successes (negative for net failures); the result's summary."""
    return ("success" if result.succeeded else "failure", result.tally.net_successes,
            result.summary())


def check_roll(roll: Roll, parent: Roll | None) -> None:
    """:meth:`GenesysSystem.check_roll`: a check (or an NPC's quick roll) holds one die of
    each type its pool counts, in the pool's order (Genesys dice pool, Basic Dice Pool); the
    symbols of each face, the tally and the summary are the ones the face table gives, and
    the log's verdict is the check's (:func:`verdict_of_check`) or the quick roll's (Genesys
    dice pool, Interpreting the Pool). No Genesys roll follows up another.

    Raises:
        RuleError: the first disagreement: "5 dice were rolled for a pool of 3 (2A 1D)",
            "its die 2 is a challenge die where its pool rolls a difficulty die", "it claims
            9 successes; its dice (ability 1, difficulty 2) give 0".
    """
    require_follow_up(roll, parent, of=None, rule=_RULE_SYMBOLS)
    pool = genesys.DicePool.from_dict(roll.result["pool"])
    dice = roll.result["dice"]
    held = len(dice)
    require(held == pool.total, f"{held} {'die was' if held == 1 else 'dice were'} rolled "
                                f"for a pool of {pool.total} ({pool.notation() or 'no dice'})",
            _RULE_POOL)
    for n, (die, rolled) in enumerate(zip(pool.dice(), dice, strict=True), start=1):
        require(rolled["die"] == die, f"its die {n} is a {rolled['die']} die where its pool "
                                      f"rolls a {die} die", _RULE_POOL)
    result = genesys.RollResult.from_dict(roll.result)
    outcome, net, summary = ((*result.verdict(), result.summary())
                             if roll.kind == Roll.Kind.NPC else verdict_of_check(result))
    faces = listed([f"{d.die} {d.face}" for d in result.dice])
    derived = result.as_dict()
    if "destiny_flips" not in roll.result["pool"]:
        # A roll stored before Destiny flips were recorded: it made none and says nothing.
        derived["pool"] = {k: v for k, v in result.pool.as_dict().items()
                           if k != "destiny_flips"}
    require_claims(claimed_by(roll), {"result": derived,
                                      **verdict(outcome, net, summary)},
                   words=_CLAIMS, dice=f"its dice ({faces or 'none'})", rule=_RULE_SYMBOLS)
