"""Maelstrom's checks of a stored sheet it did not make itself (an import writes
``Character.sheet`` as the file holds it: docs/backup.md): every value must be one the rules
could have produced, else the sheet would open with seven dots or a chart no damage can
reach (Maelstrom rules.md, Traits / Specialties / Merits and Flaws / Willpower / Marking
Damage). Each refusal names the first value refused and cites its rule; a value of the
wrong shape cites :data:`systems.RULE_STORED`.

And of a stored roll (:func:`check_roll`): its d10s, bonus dice and experience die must be
the ones its pool rolls, and its successes, botches, outcome and summary what they give
(Maelstrom rules.md, Dice Pool / Using Specialties / Adding Experience Dice / Resolving the
Result / Rolling Willpower)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rolls.models import Roll
from rulesets import maelstrom
from rulesets.errors import RuleError
from rulesets.maelstrom.storage import RollKind
from systems import RULE_STORED, require, stored_int, stored_object
from systems.claims import claimed_by, require_claims, require_follow_up, shown, verdict
from systems.maelstrom.rolling import willpower_spend_summary
from systems.maelstrom.sheet import INCAPACITATION_RESOLVED, WOUNDS_IGNORED_IN

if TYPE_CHECKING:
    from campaigns.models import Campaign


def _rule(section: str) -> str:
    return f"{maelstrom.SOURCE}, {section}"


def _stored_list(sheet: Mapping[str, Any], key: str, what: str) -> list[Any]:
    value = sheet.get(key)
    if isinstance(value, list):
        return value
    raise RuleError(f"{what} ({key!r}) must be a list, not {value!r}", RULE_STORED)


def _stored_text(value: object, what: str) -> str:
    if isinstance(value, str):
        return value
    raise RuleError(f"{what} must be text, not {value!r}", RULE_STORED)


def _stored_flag(value: object, what: str) -> bool:
    if isinstance(value, bool):
        return value
    raise RuleError(f"{what} must be true or false, not {value!r}", RULE_STORED)


SPECIALTY_NAME_MAX = 80
"""The longest specialty name, in characters: what the creation step and the XP page's name
box take, and what an export's schema reads back (systems/maelstrom/schema.py)."""


def check_specialty(ability: str, name: str) -> None:
    """A specialty of a known ability, with a name of one line, at most
    :data:`SPECIALTY_NAME_MAX` characters and without a colon (the ledger key
    ``specialty:<ability>:<name>`` is split on colons) (Maelstrom rules.md, Specialties).

    Raises:
        RuleError: "<ability> is not an ability; a specialty belongs to one ability",
            "Name the <ability> specialty", or the name's length or colon refused.
    """
    if ability not in maelstrom.ABILITIES:
        raise RuleError(f"{ability or 'That'} is not an ability; a specialty belongs to one "
                        "ability", _rule("Specialties"))
    if not name.strip():
        raise RuleError(f"Name the {ability} specialty", _rule("Specialties"))
    if len(name) > SPECIALTY_NAME_MAX or ":" in name or "\n" in name:
        raise RuleError(f"A specialty's name is one line of at most {SPECIALTY_NAME_MAX} "
                        "characters, without a colon", _rule("Specialties"))


def check_merit_flaw(kind: str, name: str, points: int) -> None:
    """A merit or flaw from the seed's lists at one of its listed prices (Maelstrom rules.md,
    Merits and Flaws).

    Raises:
        RuleError: "<name> is not on the seed's lists of merits and flaws", or "<name> is
            worth <prices> points, not <points>" (citing Merits or Flaws).
    """
    entry = maelstrom.MERITS.get(name) or maelstrom.FLAWS.get(name)
    if entry is None or entry.kind != kind:
        raise RuleError(f"{name} is not on the seed's lists of merits and flaws",
                        _rule("Merits and Flaws"))
    if points not in entry.points:
        prices = " or ".join(str(p) for p in entry.points)
        raise RuleError(f"{entry.name} is worth {prices} points, not {points}",
                        _rule("Merits" if entry.kind == "merit" else "Flaws"))


def _check_tracks(sheet: Mapping[str, Any]) -> None:
    health = stored_object(sheet, "health", "The health chart")
    counts = {kind: stored_int(health.get(kind), f"{kind.capitalize()} damage", 0, 100)
              for kind in maelstrom.DAMAGE_KINDS}
    maelstrom.HealthChart(  # raises RuleError for damage that does not fit the boxes
        **counts, huge_size=_stored_flag(health.get("huge_size"), "Huge Size"),
        dead=_stored_flag(health.get("dead"), "Dead"))
    track = stored_object(sheet, "willpower", "Willpower")
    rule = _rule("Willpower")
    permanent = stored_int(track.get("permanent"), "Permanent willpower", 1,
                           maelstrom.WILLPOWER_MAX, rule)
    current = stored_int(track.get("current"), "Current willpower", 0, permanent, rule)
    resolved = _stored_flag(track.get(INCAPACITATION_RESOLVED, False),
                            "The incapacitation resolved")
    # Only zero willpower incapacitates; any change of willpower clears the mark.
    require(not resolved or current == 0,
            f"the sheet marks zero willpower's incapacitation resolved at {current} current "
            "willpower", _rule("Zero Willpower"))
    turn = track.get(WOUNDS_IGNORED_IN, "")
    require(isinstance(turn, str) and len(turn) <= 40,
            "the turn Willpower last ignored the wound penalty is not one",
            _rule("Spending Willpower"))


def _check_traits(sheet: Mapping[str, Any]) -> None:
    rule = _rule("Traits")
    attributes = stored_object(sheet, "attributes", "The attributes")
    for name, dots in attributes.items():
        require(name in maelstrom.ATTRIBUTES, f"{name!r} is not a Maelstrom attribute", rule)
        stored_int(dots, name, 1, maelstrom.DOTS_MAX, rule)
    missing = [name for name in maelstrom.ATTRIBUTES if name not in attributes]
    require(not missing, f"the sheet lacks the attributes {', '.join(missing)}", rule)
    for name, dots in stored_object(sheet, "abilities", "The abilities").items():
        require(name in maelstrom.ABILITIES, f"{name!r} is not a Maelstrom ability", rule)
        stored_int(dots, name, 0, maelstrom.DOTS_MAX, rule)
    seen: set[tuple[str, str]] = set()
    for row in _stored_list(sheet, "specialties", "The specialties"):
        require(isinstance(row, dict), f"A specialty must be an object, not {row!r}")
        ability = _stored_text(row.get("ability"), "A specialty's ability")
        name = _stored_text(row.get("name"), "A specialty's name")
        check_specialty(ability, name)
        _stored_flag(row.get("advanced"), f"The specialty {row['name']}'s advanced")
        # One of each: buying a specialty the character has is refused the same way.
        require((ability, name.casefold()) not in seen,
                f"the sheet lists the specialty {ability}: {name} twice", _rule("Specialties"))
        seen.add((ability, name.casefold()))


def _check_merits_flaws(sheet: Mapping[str, Any]) -> None:
    taken: list[maelstrom.MeritFlawChoice] = []
    for row in _stored_list(sheet, "merits_flaws", "The merits and flaws"):
        require(isinstance(row, dict), f"A merit or flaw must be an object, not {row!r}")
        name = _stored_text(row.get("name"), "A merit's or flaw's name")
        detail = _stored_text(row.get("detail", ""), f"{name}'s detail")
        kind = _stored_text(row.get("kind"), f"{name}'s kind")
        points = stored_int(row.get("points"), f"{name}'s points", 0, 100)
        check_merit_flaw(kind, name, points)
        taken.append(maelstrom.MeritFlawChoice(name, kind, points, detail))
    # Together, and against the abilities (checked before): a merit or flaw twice, the
    # senses' conditions, Inept in an ability with a dot (Maelstrom rules.md, Merits and Flaws).
    problems = maelstrom.check_combinations([], taken, abilities=sheet["abilities"])
    if problems:
        raise problems[0]


def check_sheet(sheet: Mapping[str, Any], campaign: Campaign | None = None) -> None:
    """Refuse a stored Maelstrom sheet the rules could never have produced.

    Checks the health chart (counts that fit its 8 boxes, 9 with Huge Size), Willpower
    (permanent 1-10, current 0 to permanent, a resolved incapacitation only at 0), all six
    attributes at 1-5 dots, abilities of the catalogue at 0-5, specialties of known abilities
    with a name, merits and flaws from the seed's lists at a listed price and as they may be
    taken together (:func:`rulesets.maelstrom.check_combinations`: once each but the senses,
    Visually Impaired and Blind instead of a Defective Sense of sight, Inept in an ability
    with a dot); in that order, the first value refused named.

    Args:
        sheet: the would-be ``Character.sheet`` (module docstring of
            :mod:`systems.maelstrom.sheet`); not changed.
        campaign: unused (Maelstrom's sheet does not depend on its campaign).

    Raises:
        RuleError: the first value refused, with its rule ("Maelstrom rules.md, Traits"),
            or :data:`systems.RULE_STORED` for a value of the wrong shape.
    """
    _check_tracks(sheet)
    _check_traits(sheet)
    _check_merits_flaws(sheet)


# --- a stored roll's check (SheetSystem.check_roll) ---------------------------------------------

_FOLLOWS_UP: dict[str, tuple[str, ...]] = {
    RollKind.EXPERIENCE_DIE: (Roll.Kind.ACTION, RollKind.WILLPOWER),
    RollKind.WILLPOWER_SPEND: (RollKind.WILLPOWER,),
}
"""Each follow-up kind -> the kinds of roll it is made on (``systems.maelstrom.rolling``: an
experience die on a roll whose pool allows one, willpower spent on a Willpower roll)."""

_POOL_KINDS = (Roll.Kind.ACTION, RollKind.WILLPOWER, RollKind.SOAK)
"""The kinds of roll a character's roll dialog makes, each rolling a pool of its own kind."""

_CLAIMS = {
    "result.resolution.successes": "it claims {claimed} successes; {dice} give {derived}",
    "result.resolution.removed_by_threshold": ("it claims its threshold removed {claimed} "
                                               "successes; {dice} give {derived}"),
    "result.resolution.botches": "it claims {claimed} botches; {dice} give {derived}",
    "result.resolution.net": "it claims {claimed} net successes; {dice} give {derived}",
    "result.resolution.outcome": "it claims the outcome {claimed}; {dice} give {derived}",
    "result.summary": "it reads {claimed}; {dice} give {derived}",
    "outcome": "the log shows the outcome {claimed}; {dice} give {derived}",
    "net": "the log shows {claimed} net successes; {dice} give {derived}",
    "summary": "the log reads {claimed}; {dice} give {derived}",
}
"""How a roll's claims that its dice do not bear out read (:func:`systems.claims.
require_claims`)."""


def _dice_text(result: maelstrom.RollResult) -> str:
    text = f"its dice {shown(list(result.dice))}"
    if result.bonus_dice:
        text += f" and bonus dice {shown(list(result.bonus_dice))}"
    if result.experience_die:
        text += f" and experience die {shown(list(result.experience_die))}"
    return text


def check_roll(roll: Roll, parent: Roll | None) -> None:
    """Refuse a stored Maelstrom roll its dice do not bear out (``SheetSystem.check_roll``).

    The roll is rebuilt from its pool and dice (:meth:`rulesets.maelstrom.RollResult.
    from_dict`, which works out the resolution again); its dice must be the ones the pool
    rolls (:func:`rulesets.maelstrom.check_dice`: the d10s of the pool, the bonus dice its
    10s call for, an experience die only where one may be added); an action, Willpower or
    soak roll rolls a pool of its kind and holds no experience die (its follow-up does); and
    the result and the log's verdict are the ones the app stores: the engine's for a roll
    and an experience die, the quick roll's for an NPC, and for willpower spent to succeed
    a success of 1 to 9 successes (the dots left, of at most 10) on a copy of the Willpower
    roll it cancels, which did not botch. An experience die keeps its roll's pool and dice.

    Raises:
        RuleError: the first disagreement, in a GM's words, citing its rule.
    """
    rule = _rule("Resolving the Result")
    require_follow_up(roll, parent, of=_FOLLOWS_UP.get(roll.kind), rule=rule)
    result = maelstrom.RollResult.from_dict(roll.result)
    pool = result.pool
    if roll.kind in _POOL_KINDS:
        require(pool.kind == roll.kind, f"a roll of kind {roll.get_kind_display()!r} rolls "
                                        f"a pool of kind {roll.kind!r}, not {pool.kind!r}",
                _rule("Dice Pool"))
    if roll.kind != RollKind.EXPERIENCE_DIE:
        require(not result.experience_die, "it holds an experience die, which only an "
                                           "experience die roll adds",
                _rule("Adding Experience Dice"))
    maelstrom.check_dice(result)
    _check_readings(roll, pool)
    if roll.kind == Roll.Kind.NPC:
        outcome, net, summary = (*result.verdict(), result.summary())
    elif roll.kind == RollKind.WILLPOWER_SPEND:
        outcome, net, summary = (Roll.Outcome.SUCCESS.value, roll.net,
                                 willpower_spend_summary(roll.net))
    else:
        outcome, net, summary = result.outcome, result.net, result.summary()
    require_claims(claimed_by(roll), {"result": result.as_dict(),
                                      **verdict(outcome, net, summary)},
                   words=_CLAIMS, dice=_dice_text(result), rule=rule)
    if parent is not None:
        _check_follow_up(roll, result, maelstrom.RollResult.from_dict(parent.result))


def _check_readings(roll: Roll, pool: maelstrom.ActionPool) -> None:
    """The pool was built as the roll's table readings build one (docs/systems/maelstrom.md,
    Table readings): a specialty's roll that cannot botch, Strong Bond's success after the
    threshold, a Willpower roll without an experience die, and an action's tens exploding
    with no specialty each need the reading that does it, and each reading its mark."""
    readings = maelstrom.MaelstromReadings.from_values(roll.readings, strict=False)
    rule = _rule("Resolving the Result")
    disagree = "its pool and its table readings disagree on "
    # An NPC's quick roll names no specialty, only that it used one (its notes).
    no_botch = readings.specialty_botch == "no_botch"
    require(pool.botches or no_botch if roll.kind == Roll.Kind.NPC
            else pool.botches == (not (pool.specialties and no_botch)),
            disagree + "whether a specialty's 1s botch", rule)
    if pool.automatic_successes:
        require(pool.automatic_at == readings.strong_bond,
                disagree + "where Strong Bond's success counts", rule)
    if pool.kind == "willpower":
        require(pool.experience_die_allowed == (readings.willpower_experience_die == "allowed"),
                disagree + "the experience die", rule)
    if pool.kind == "action" and roll.kind != Roll.Kind.NPC and not pool.specialties:
        require(pool.exploding == (readings.tens_explode == "always"),
                disagree + "exploding tens", rule)


def _check_follow_up(roll: Roll, result: maelstrom.RollResult,
                     before: maelstrom.RollResult) -> None:
    """A follow-up's dice are its roll's (its own experience die aside)."""
    if roll.kind == RollKind.EXPERIENCE_DIE:
        rule = _rule("Adding Experience Dice")
        require(bool(result.experience_die), "an experience die roll holds no experience "
                                             "die", rule)
        require((result.pool, result.dice, result.bonus_dice)
                == (before.pool, before.dice, before.bonus_dice),
                "its pool and dice are not those of the roll it adds an experience die to",
                rule)
        return
    rule = _rule("Rolling Willpower")
    require(result.as_dict() == before.as_dict(), "it is not the Willpower roll it cancels",
            rule)
    maelstrom.willpower_spend_successes(roll.net + 1, botched=before.outcome == "botch")
    require(roll.net < maelstrom.WILLPOWER_MAX,
            f"it claims {roll.net} successes for a willpower dot; willpower is at most "
            f"{maelstrom.WILLPOWER_MAX} dots, so a dot spent gives at most "
            f"{maelstrom.WILLPOWER_MAX - 1}", rule)
