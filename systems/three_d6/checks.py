"""3d6's checks of stored data it did not make itself (an import): the sheet and the
campaign's names (``SheetSystem.check_sheet``, ``check_system_data``), and a roll's dice and
what they give (``SheetSystem.check_roll``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rolls.models import Roll
from rulesets import three_d6
from rulesets.three_d6.storage import RollKind
from systems import require, stored_int, stored_names, stored_object
from systems.claims import claimed_by, require_claims, require_follow_up, shown, verdict
from systems.three_d6.sheet import (
    HEALTH_LIMIT,
    LEVEL_MAX,
    LEVEL_START,
    MODIFIER_CAP,
    NAME_MAX_LENGTH,
    RULE_ADVANCE,
    RULE_HEALTH,
    SLOTS,
    SUBTRAIT_SLOTS,
    TRAIT_SLOTS,
    names,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign


# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) ------------------------


def check_sheet(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    """:meth:`ThreeD6System.check_sheet`: modifiers only on the eighteen slots, each 0 to
    :data:`MODIFIER_CAP`, and a level :data:`LEVEL_START` to :data:`LEVEL_MAX` (3d6 sheet
    decision, Advancement); health 0 to its maximum, the maximum 1 to :data:`HEALTH_LIMIT`
    (3d6 sheet decision, Health). The campaign's :func:`names` name the modifiers.

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    modifiers = stored_object(sheet, "modifiers", "The modifiers")
    unknown = sorted(set(modifiers) - set(SLOTS))
    require(not unknown, f"unknown trait slots {', '.join(unknown)}", RULE_ADVANCE)
    named = names(campaign)
    for slot, value in modifiers.items():
        stored_int(value, f"The modifier of {named[slot]}", 0, MODIFIER_CAP, RULE_ADVANCE)
    stored_int(sheet.get("level", LEVEL_START), "The level", LEVEL_START, LEVEL_MAX,
               RULE_ADVANCE)
    track = stored_object(sheet, "health", "Health")
    maximum = stored_int(track.get("max"), "Maximum health", 1, HEALTH_LIMIT, RULE_HEALTH)
    stored_int(track.get("current"), "Health", 0, maximum, RULE_HEALTH)


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`ThreeD6System.check_system_data`: ``traits`` and ``subtraits``, where present,
    list six and twelve names of 1 to :data:`NAME_MAX_LENGTH` characters, no name twice
    (ignoring case), as the GM's names form takes them (a missing list reads as
    :func:`default_names`).

    Raises:
        RuleError: a list of another length or a name out of range (cited to the stored
            shape, :data:`systems.RULE_STORED`: the seed names no traits).
    """
    for key, count in (("traits", len(TRAIT_SLOTS)), ("subtraits", len(SUBTRAIT_SLOTS))):
        if key in data:
            listed = stored_names(data[key], f"The {key}' names")
            require(len(listed) == count and all(
                0 < len(n.strip()) <= NAME_MAX_LENGTH for n in listed),
                f"the campaign names {count} {key}, each 1 to {NAME_MAX_LENGTH} characters")
    # As the names form refuses it: one name for two slots would make a roll ambiguous.
    seen: set[str] = set()
    for name in [*data.get("traits", []), *data.get("subtraits", [])]:
        require(name.strip().casefold() not in seen,
                f"{name.strip()!r} is used twice; each trait and subtrait needs its own name")
        seen.add(name.strip().casefold())


# --- A stored roll's check (SheetSystem.check_roll) ---------------------------------------------

_RULE_TESTS = f"{three_d6.SOURCE}, Rolls and Tests"
_RULE_FAVOR = f"{three_d6.SOURCE}, Favor and Disfavor"
_RULE_CONTEST = f"{three_d6.SOURCE}, Contesting"

_TEST_CLAIMS = {
    "pool.dice": "its pool claims {claimed} dice; its favor and disfavor give {derived}",
    "value": "it claims a roll of {claimed} before modifiers; {dice} give {derived}",
    "total": "it claims a total of {claimed}; {dice} give {derived}",
    "critical_success": "it claims critical success is {claimed}; {dice} give {derived}",
    "critical_failure": "it claims critical failure is {claimed}; {dice} give {derived}",
    "automatic_failure": "it claims automatic failure is {claimed}; {dice} give {derived}",
    "outcome": "it claims the outcome {claimed}; {dice} give {derived}",
    "summary": "it reads {claimed}; {dice} give {derived}",
}
_LOG_CLAIMS = {
    "outcome": "the log shows the outcome {claimed}; {dice} give {derived}",
    "net": "the log shows {claimed} as its number; {dice} give {derived}",
    "summary": "the log reads {claimed}; {dice} give {derived}",
}
_CLAIMS = {
    **{f"result.{path}": words for path, words in _TEST_CLAIMS.items()},
    **{f"result.{side}.result.{path}": f"its {side} side: {words}"
       for side in ("first", "second") for path, words in _TEST_CLAIMS.items()},
    "result.winner": "it claims side {claimed} won; {dice} give side {derived}",
    "result.decided_by": "it claims {claimed} decided it; {dice} give {derived}",
    "result.random_die": "it claims a random draw of {claimed}; {dice} give {derived}",
    "result.summary": "it reads {claimed}; {dice} give {derived}",
    **_LOG_CLAIMS,
}
"""How a roll's claims that its dice do not bear out read (:func:`systems.claims.
require_claims`)."""


def verdict_of_test(result: three_d6.TestResult) -> tuple[str, int, str]:
    """What the roll log keeps of a test beside its result (``ThreeD6System.roll``):
    ``(outcome, net, summary)``: the test's outcome, its total, its summary."""
    return result.outcome, result.total, result.summary()


def verdict_of_contest(contest: three_d6.ContestResult) -> tuple[str, int, str]:
    """What the roll log keeps of a contest beside its result (``ThreeD6System.roll``): a
    success when the first side (the character rolling) wins, else a failure; the first
    side's total less the second's; the contest's summary."""
    return (*contest.verdict(), contest.summary())


def _check_dice(test: Mapping[str, Any], side: str = "") -> None:
    pool = three_d6.TestPool.from_dict(test["pool"])
    held = len(test["dice"])
    favor = [f"{n} {what}" for n, what in ((pool.favor, "favor"), (pool.disfavor, "disfavor"))
             if n]
    apart = ", disfavor counted apart" if pool.dropped else ""
    require(held == pool.dice, f"{side}{held} {'die was' if held == 1 else 'dice were'} "
                               f"rolled for a pool of {pool.dice} ({three_d6.BASE_DICE}d6"
                               f"{' with ' + ' and '.join(favor) if favor else ''}{apart})",
            _RULE_FAVOR)


def check_roll(roll: Roll, parent: Roll | None) -> None:
    """:meth:`ThreeD6System.check_roll`: a test (or an NPC's quick roll) holds 3d6 and one
    more per favor, one fewer per disfavor (3d6 Rolls and Tests, Favor and Disfavor; under the
    table reading "counted apart" the disfavor's dice are rolled and removed, so it holds 3d6
    and one more per favor); its
    value, total, criticals, outcome and summary are what those dice give (Rolls and Tests;
    Critical Successes and Failures; Test Difficulty). A contest holds both sides' tests,
    checked alike, and its winner, tie-breaker and summary are what their totals and facts
    give (Contesting; Tie Breakers). The log's verdict is the test's (:func:`verdict_of_test`),
    the contest's (:func:`verdict_of_contest`) or the quick roll's. No 3d6 roll follows up
    another.

    Raises:
        RuleError: the first disagreement: "5 dice were rolled for a pool of 4 (3d6 with 1
            favor)", "it claims a total of 30; its dice [1, 2, 3] give 8".
    """
    require_follow_up(roll, parent, of=None, rule=_RULE_TESTS)
    claimed = claimed_by(roll)
    if roll.kind == RollKind.CONTEST:
        first, second = roll.result["first"]["result"], roll.result["second"]["result"]
        _check_dice(first, "its first side: ")
        _check_dice(second, "its second side: ")
        contest = three_d6.ContestResult.from_dict(roll.result)
        require_claims(claimed, {"result": contest.as_dict(),
                                 **verdict(*verdict_of_contest(contest))},
                       words=_CLAIMS, rule=_RULE_CONTEST,
                       dice=f"its dice {shown(first['dice'])} against {shown(second['dice'])}")
        return
    _check_dice(roll.result)
    test = three_d6.TestResult.from_dict(roll.result)
    outcome, net, summary = ((*test.verdict(), test.summary())
                             if roll.kind == Roll.Kind.NPC else verdict_of_test(test))
    require_claims(claimed, {"result": test.as_dict(), **verdict(outcome, net, summary)},
                   words=_CLAIMS, dice=f"its dice {shown(list(test.dice))}", rule=_RULE_TESTS)
