"""Maelstrom's rolls on the shared layer: the roll dialog, the pool built from the sheet, the
roll (with the willpower it spends or loses), its exact odds, the GM's requests, and the two
follow-ups on a stored roll (Maelstrom rules.md, Dice Pool, Difficulty, Threshold, Using
Specialties, Wound Penalties, Spending Willpower, Rolling Willpower, Soaking Damage, Adding
Experience Dice).

The generic services (``rolls.services``) lock the character, call these functions, save a
changed ``Character.sheet`` and store the roll (``rolls.log.roll_store``); the sheet is read
and written only through :mod:`systems.maelstrom.sheet`. A stored Maelstrom roll keeps
:meth:`rulesets.maelstrom.RollResult.as_dict` in ``Roll.result``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from characters.ledger import ledger_append
from rolls.log import roll_store
from rolls.models import Roll
from rulesets import maelstrom
from rulesets.errors import RuleError
from rulesets.maelstrom.storage import LedgerKind, RollKind
from systems import RollAction, RolledResult, percent_text
from systems.initiative import ENCOUNTER_TURN
from systems.maelstrom import sheet
from systems.maelstrom.roll_forms import (
    ExperienceDieForm,
    RequestForm,
    RollForm,
    WillpowerSpendForm,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character
    from rulesets.dice import Rng

__all__ = [
    "ROLL_ACTIONS",
    "RollForm",
    "RollRequest",
    "build_pool",
    "experience_die_keys",
    "odds",
    "request_data",
    "request_form",
    "roll",
    "roll_form",
    "willpower_spend_summary",
]

RULE_DICE_POOL = "Maelstrom rules.md, Dice Pool"
RULE_SPECIALTIES = "Maelstrom rules.md, Using Specialties"
RULE_DEATH = "Maelstrom rules.md, Incapacitation and Death"
RULE_ZERO_WILLPOWER = "Maelstrom rules.md, Zero Willpower"
RULE_SPENDING_WILLPOWER = "Maelstrom rules.md, Spending Willpower"
RULE_ROLLING_WILLPOWER = "Maelstrom rules.md, Rolling Willpower"
RULE_EXPERIENCE_DICE = "Maelstrom rules.md, Adding Experience Dice"
RULE_SOAKING = "Maelstrom rules.md, Soaking Damage"

STRONG_BOND = "Strong Bond"
"""The merit that gives one automatic success on every Willpower roll."""


@dataclass(frozen=True)
class RollRequest:
    """What the player asked for in the roll dialog (Maelstrom rules.md, Dice Pool).

    ``kind`` is ``action``, ``willpower`` or ``soak``. For an action, ``traits`` names one
    or two attributes/abilities and ``specialties`` the specialties used, as
    ``"Ability: Name"``; ``required_specialties`` names advanced specialties the GM
    requires (each not used adds +1 threshold); ``ignore_wound_penalty`` spends a willpower
    dot to roll without the wound penalty. For a soak, ``damage_kind`` and ``armor`` (dice),
    and ``incoming``: the levels of damage soaked against (0: none given, the player marks
    by hand), already on the health chart when ``incoming_marked``.
    """

    kind: str = "action"
    traits: tuple[str, ...] = ()
    specialties: tuple[str, ...] = ()
    difficulty: int = maelstrom.DEFAULT_DIFFICULTY
    threshold: int = 0
    required_specialties: tuple[str, ...] = ()
    ignore_wound_penalty: bool = False
    damage_kind: str = "bashing"
    armor: int = 0
    incoming: int = 0
    incoming_marked: bool = False


def _number(value: object, default: int) -> int:
    """A whole number of the dialog's data: ``default`` when absent or empty; a number
    typed as text ("7", as the dialog posts it) is read as one."""
    if value is None or value == "":
        return default
    if isinstance(value, (int, str)):
        return int(value)
    raise ValueError(f"{value!r} is not a whole number")


def request_from(cleaned_data: Mapping[str, Any]) -> RollRequest:
    """The roll dialog's cleaned data (:class:`RollForm`) as a :class:`RollRequest`: the
    required specialties split on commas, a missing difficulty the default (6), a missing
    threshold or armor 0, a missing kind an action. Raises ValueError for a number that is
    not one (the form has refused it before)."""
    required = tuple(
        name.strip() for name in (cleaned_data.get("required_specialties") or "").split(",")
        if name.strip()
    )
    return RollRequest(
        kind=cleaned_data.get("kind") or "action",
        traits=tuple(cleaned_data.get("trait") or ()),
        specialties=tuple(cleaned_data.get("specialty") or ()),
        difficulty=_number(cleaned_data.get("difficulty"), maelstrom.DEFAULT_DIFFICULTY),
        threshold=_number(cleaned_data.get("threshold"), 0),
        required_specialties=required,
        ignore_wound_penalty=bool(cleaned_data.get("ignore_wound_penalty")),
        damage_kind=cleaned_data.get("damage_kind") or "bashing",
        armor=_number(cleaned_data.get("armor"), 0),
        incoming=_number(cleaned_data.get("incoming"), 0),
        incoming_marked=bool(cleaned_data.get("incoming_marked")),
    )


# --- the pool ------------------------------------------------------------------------------


def readings_of(character: Character) -> maelstrom.MaelstromReadings:
    """The table readings of the character's campaign (loaded with the character, as every
    caller here has it: no query), as the engine takes them (docs/systems/maelstrom.md, Table
    readings)."""
    return maelstrom.MaelstromReadings.from_values(character.campaign.readings, strict=False)


def build_pool(character: Character, request: RollRequest) -> maelstrom.ActionPool:
    """Build the character's pool for ``request`` from its sheet through the rules engine,
    under its campaign's table readings (:func:`readings_of`).

    Args:
        character: the character (its ``name`` and ``sheet``, and its loaded campaign's
            ``readings``; no queries).
        request: what the dialog asked for.

    Returns:
        The engine's :class:`rulesets.maelstrom.ActionPool`.

    Raises:
        RuleError: naming the rule, for an illegal pool: a dead character (Incapacitation
            and Death), an unknown trait (Dice Pool) or specialty (Using Specialties), zero
            willpower with the incapacitation not resolved (Zero Willpower), and whatever
            the engine refuses (more than two traits, too many specialties, a knowledge at
            zero dots, no dice left...).
    """
    data = character.sheet
    if sheet.is_dead(data):
        raise RuleError(f"{character.name} is dead: no more rolls.", RULE_DEATH)
    if request.kind == "willpower":
        return maelstrom.build_willpower_pool(
            current=sheet.willpower(data)[1], difficulty=request.difficulty,
            threshold=request.threshold,
            automatic_successes=1 if sheet.has_merit(data, STRONG_BOND) else 0,
            readings=readings_of(character),
        )
    by_name = sheet.trait_refs(data)
    if request.kind == "soak":
        strength = by_name["Strength"].dots if "Strength" in by_name else 0
        return maelstrom.build_soak_pool(
            damage_kind=request.damage_kind, strength=strength, armor=request.armor
        )
    refs = []
    for name in request.traits:
        trait = by_name.get(name)
        if trait is None:
            raise RuleError(f"{name!r} is not one of this character's attributes or abilities.",
                            RULE_DICE_POOL)
        refs.append(trait)
    owned = sheet.specialty_refs(data)
    specialties = []
    for label in request.specialties:
        specialty = owned.get(label)
        if specialty is None:
            raise RuleError(f"{label!r} is not one of this character's specialties.",
                            RULE_SPECIALTIES)
        specialties.append(specialty)
    if (sheet.willpower(data)[1] == 0 and not request.ignore_wound_penalty
            and not sheet.incapacitation_resolved(data)):
        # Spending the last dot to ignore wounds still allows that one action (seed, Spending
        # Willpower); a character out of danger for a turn resolves the incapacitation without
        # a dot (Zero Willpower); otherwise zero willpower means no actions at all.
        raise RuleError(f"{character.name} has no willpower left: incapacitated, no actions "
                        "until a dot is recovered or the incapacitation is resolved out of "
                        "combat.", RULE_ZERO_WILLPOWER)
    health = sheet.health(data)
    penalty = 0 if request.ignore_wound_penalty else health.wound_penalty
    return maelstrom.build_action_pool(
        traits=refs, specialties=specialties, difficulty=request.difficulty,
        threshold=request.threshold, required_specialties=request.required_specialties,
        wound_penalty=penalty, incapacitated=health.incapacitated or health.dead,
        wound_level=health.level_name, readings=readings_of(character),
    )


def _with_note(pool: maelstrom.ActionPool, note: str) -> maelstrom.ActionPool:
    return replace(pool, notes=(*pool.notes, note))


def _set_current_willpower(character: Character, current: int) -> None:
    """Write current Willpower into a copy of the sheet (the generic service compares the
    sheet before and after to know whether to save it, so the stored dict is not changed in
    place)."""
    updated = copy.deepcopy(character.sheet)
    sheet.set_willpower(updated, sheet.willpower(updated)[0], current)
    character.sheet = updated


# --- the roll dialog -----------------------------------------------------------------------


def roll_form(character: Character, data: Mapping[str, Any] | None = None) -> RollForm:
    """The roll dialog for ``character``: its attributes and abilities, and the specialties
    it owns ("Ability: Name"), as the choices. No queries."""
    refs = sheet.trait_refs(character.sheet)
    # Abilities before attributes, each in the catalogue's order: the order of the XP page's
    # lists (systems.maelstrom.forms.trait_choices).
    names = ([name for name, ref in refs.items() if ref.kind == sheet.ABILITY]
             + [name for name, ref in refs.items() if ref.kind == sheet.ATTRIBUTE])
    return RollForm(data, traits=names, specialties=list(sheet.specialty_refs(character.sheet)))


def roll(character: Character, cleaned_data: dict[str, Any], rng: Rng) -> RolledResult:
    """Build the pool from the sheet and roll it (Maelstrom rules.md, Dice Pool).

    Runs with the character locked inside the transaction (``rolls.services.roll_create``),
    which saves a changed sheet and stores the roll. Ignoring the wound penalty spends one
    current willpower dot first (Spending Willpower: nothing is charged when there is no
    penalty to ignore; under the table reading "once per turn", a second dot in the same round
    of a running encounter is refused); a botched Willpower roll loses a current dot per
    uncancelled botch (Rolling Willpower). A soak roll given its incoming damage marks what
    gets through, or takes the soaked levels off damage already marked (Soaking Damage). Each
    is noted on the pool.

    Args:
        character: the locked character; its ``sheet`` may be replaced.
        cleaned_data: the valid :class:`RollForm`'s data, with the generic service's
            ``systems.initiative.ENCOUNTER_TURN``.
        rng: the server's dice.

    Returns:
        A :class:`systems.RolledResult` of the request's kind, whose ``result`` is the
        engine's :class:`rulesets.maelstrom.RollResult`.

    Raises:
        RuleError: an illegal pool (:func:`build_pool`), ignoring the wound penalty with no
            willpower left or a second time in a round "once per turn" (Spending Willpower),
            or soaking more damage "already marked" than the chart holds of its kind
            (Soaking Damage); nothing is written then.
    """
    request = request_from(cleaned_data)
    spend_for_wounds = _spends_for_wounds(character, request)
    if request.ignore_wound_penalty and not spend_for_wounds:
        # Nothing to ignore: don't charge a dot for a box ticked out of habit.
        request = replace(request, ignore_wound_penalty=False)
    if spend_for_wounds:
        current = sheet.willpower(character.sheet)[1]
        if current < 1:
            raise RuleError("Ignoring the wound penalty costs a willpower dot; none is left.",
                            RULE_SPENDING_WILLPOWER)
        turn = _once_per_turn(character, cleaned_data)
        _set_current_willpower(character, current - 1)
        if turn:
            sheet.mark_wounds_ignored(character.sheet, str(turn))
    pool = build_pool(character, request)
    if spend_for_wounds:
        pool = _with_note(pool, "Willpower spent: wound penalty ignored")
    soaking = request.kind == "soak" and request.incoming > 0
    if soaking and request.incoming_marked:
        _check_marked(character, request)
    result = maelstrom.roll(pool, rng)
    loss = maelstrom.willpower_botch_loss(result)
    if loss:
        _set_current_willpower(character, max(0, sheet.willpower(character.sheet)[1] - loss))
        note = f"Botched Willpower roll: lost {loss} current willpower"
        result = replace(result, pool=_with_note(result.pool, note))
    if soaking:
        # What the soak did to the chart is a note of the roll (the log's summary stays the
        # engine's, which an import checks the dice against).
        note = _soak_damage(character, request, maelstrom.soaked_levels(result, request.incoming))
        result = replace(result, pool=_with_note(result.pool, note))
    return RolledResult(kind=request.kind, description=result.pool.describe(), result=result,
                        outcome=result.outcome, net=result.net, summary=result.summary())


def _spends_for_wounds(character: Character, request: RollRequest) -> bool:
    """Whether the roll spends a Willpower dot to ignore the wound penalty: an action that
    asks to, with a penalty to ignore (a box ticked out of habit charges nothing)."""
    return (request.kind == "action" and request.ignore_wound_penalty
            and sheet.health(character.sheet).wound_penalty > 0)


def _once_per_turn(character: Character, cleaned_data: Mapping[str, Any]) -> str | None:
    """The encounter turn a dot spent now to ignore the wound penalty counts in, under the
    table reading "once per turn" (None under the seed's reading as the engine keeps it, or
    outside an encounter); refuses a second dot in that turn (Maelstrom rules.md, Spending
    Willpower: "Once per turn")."""
    asked = cleaned_data.get(ENCOUNTER_TURN)
    if not callable(asked) or readings_of(character).wounds_ignored != "per_turn":
        return None
    turn = asked()
    if turn and sheet.wounds_ignored_in(character.sheet) == turn:
        raise RuleError(f"{character.name} already spent a dot to ignore the wound penalty "
                        "this round: once per turn.", RULE_SPENDING_WILLPOWER)
    return str(turn) if turn else None


def _check_marked(character: Character, request: RollRequest) -> None:
    """Refuse, before anything is rolled, a soak against damage said to be marked that the
    chart does not hold (so a refused soak cannot be rolled again for a better result)."""
    marked = getattr(sheet.health(character.sheet), request.damage_kind)
    if marked < request.incoming:
        raise RuleError(f"Soaking {request.incoming} {request.damage_kind} already marked: the "
                        f"health chart holds {marked} {request.damage_kind}.", RULE_SOAKING)


def _soak_damage(character: Character, request: RollRequest, soaked: int) -> str:
    """Apply a soak's outcome to the health chart (Maelstrom rules.md, Soaking Damage,
    Marking Damage): damage already marked loses the ``soaked`` levels; incoming damage
    marks what gets through. Returns the note for the roll, e.g. "3 lethal incoming: 1
    soaked, 2 marked (Hurt, wound penalty -1)"."""
    kind, incoming = request.damage_kind, request.incoming
    chart = sheet.health(character.sheet)
    if request.incoming_marked:
        if soaked:
            chart = maelstrom.heal(chart, kind, soaked)
        done = f"{soaked} taken off the chart" if soaked else "nothing taken off the chart"
        head = f"{incoming} {kind} already marked: {done}"
    else:
        through = incoming - soaked
        if through:
            chart = maelstrom.take_damage(chart, kind, through, readings=readings_of(character))
        head = (f"{incoming} {kind} incoming: {soaked} soaked, "
                + (f"{through} marked" if through else "nothing gets through"))
    updated = copy.deepcopy(character.sheet)
    sheet.set_health(updated, chart)
    character.sheet = updated
    penalty = f", wound penalty -{chart.wound_penalty}" if chart.wound_penalty else ""
    return f"{head} ({chart.level_name}{penalty})"


def odds(character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
    """The exact odds of the dialog's pool, as ``rolls/_odds.html``'s context (nothing is
    rolled or stored; Maelstrom rules.md, Dice Pool).

    Returns:
        ``{"odds", "pool", "pool_text", "odds_rows": [(label, probability, text,
        more_is_better)] for success, failure and botch, "odds_lines": [the chance of each
        number of net successes, up to 4 then "5+"], "odds_headline": "Success 84.4 %, botch
        5.2 %"}``.

    Raises:
        RuleError: an illegal pool (:func:`build_pool`); the box shows it instead.
    """
    request = request_from(cleaned_data)
    if _spends_for_wounds(character, request):
        _once_per_turn(character, cleaned_data)  # the roll would refuse a second dot a turn
    pool = build_pool(character, request)
    chances = maelstrom.pool_odds(pool)
    successes = list(chances.successes.items())
    shown = [f"{net}: {percent_text(p)}" for net, p in successes[:4]]
    rest = sum(p for _, p in successes[4:])
    if rest:
        shown.append(f"{successes[4][0]}+: {percent_text(rest)}")
    rows = [
        ("Success", chances.success, percent_text(chances.success), True),
        ("Failure", chances.failure, percent_text(chances.failure), False),
        ("Botch", chances.botch, percent_text(chances.botch), False),
    ]
    lines = [f"Chance of each number of net successes: {' · '.join(shown)}"] if shown else []
    return {
        "odds": chances,
        "pool": pool,
        "pool_text": pool.describe(),
        "odds_rows": rows,
        "odds_lines": lines,
        "odds_headline": f"Success {rows[0][2]}, botch {rows[2][2]}",
    }


# --- the GM's requests ---------------------------------------------------------------------


def request_form(campaign: Campaign, data: Mapping[str, Any] | None = None) -> RequestForm:
    """The GM's "Ask for a roll": :class:`RequestForm` (an action's traits by name, or
    Willpower; difficulty and threshold)."""
    return RequestForm(data)


def request_data(character: Character, cleaned_data: dict[str, Any]
                 ) -> tuple[dict[str, Any], str]:
    """The roll dialog's data that answers the GM's request for ``character``, and the
    request in words.

    Args:
        character: a character in play (only ``name`` and ``sheet`` are read).
        cleaned_data: the valid :class:`RequestForm`'s data.

    Returns:
        ``({"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "7",
        "threshold": "0"}, "Precision + Driving, difficulty 7")``: the values as the dialog
        posts them (strings, a list for the traits); the threshold is named only when set,
        a Willpower roll reads "Willpower, difficulty 8".

    Raises:
        RuleError: the pool this character could not roll (:func:`build_pool`'s refusals,
            the rule cited), so the GM's request asks no one.
    """
    kind = cleaned_data["kind"]
    names = tuple(cleaned_data.get("trait_names") or ())
    difficulty, threshold = cleaned_data["difficulty"], cleaned_data["threshold"]
    # The pool the player would roll, built now: what the rules refuse is refused in their
    # words before anyone is asked (the dialog's form would only say "not a valid choice").
    build_pool(character, RollRequest(kind=kind, traits=names, difficulty=difficulty,
                                      threshold=threshold))
    data = {"kind": kind, "trait": list(names), "difficulty": str(difficulty),
            "threshold": str(threshold)}
    what = " + ".join(names) if kind == "action" else kind.capitalize()
    text = f"{what}, difficulty {difficulty}"
    return data, text + (f", threshold {threshold}" if threshold else "")


# --- follow-ups on a stored roll -----------------------------------------------------------


def experience_die_keys(roll: Roll) -> list[tuple[str, str]]:
    """The traits a roll used that can take the banked XP of an experience die, as
    ``(ledger key, label)`` pairs, e.g. ``[("attribute:Precision", "Precision"),
    ("ability:Driving", "Driving")]``; a Willpower roll's is ``("willpower", "Willpower")``
    (Maelstrom rules.md, Adding Experience Dice: "a trait that you used for the action"; XP
    for a specialty is banked in its ability)."""
    keys = []
    for name in roll.pool.get("traits", []):
        if name in maelstrom.ATTRIBUTES:
            keys.append((sheet.trait_key(sheet.ATTRIBUTE, name), name))
        elif name in maelstrom.ABILITIES:
            keys.append((sheet.trait_key(sheet.ABILITY, name), name))
    if roll.kind == RollKind.WILLPOWER:
        keys.append((sheet.WILLPOWER_KEY, "Willpower"))
    return keys


def _followup(roll: Roll, character: Character, kind: str, result: maelstrom.RollResult,
              by: User, **verdict: Any) -> Roll:
    """Store ``result`` as the follow-up ``kind`` of ``roll`` (``verdict``: ``outcome``,
    ``net``, ``summary`` where they differ from the result's own)."""
    rolled = RolledResult(
        kind=kind, description=result.pool.describe(), result=result,
        outcome=verdict.get("outcome", result.outcome), net=verdict.get("net", result.net),
        summary=verdict.get("summary", result.summary()),
    )
    return roll_store(campaign_id=roll.campaign_id, character=character, ruleset=sheet.SLUG,
                      rolled=rolled, by=by, parent=roll)


def _experience_die(roll: Roll, character: Character, data: dict[str, Any], by: User,
                    rng: Rng) -> Roll:
    """Add an experience die to ``roll``: bank 1 available XP in a trait the roll used
    (``data["key"]``, one of :func:`experience_die_keys`), roll one bonus die (exploding
    when a specialty was used), and store the new total as a follow-up roll (Maelstrom
    rules.md, Adding Experience Dice). Runs with the character locked.

    Raises:
        RuleError: on a follow-up, when the roll already has one or was cancelled by
            willpower, the key is not a trait the roll used, the roll botched or forbids one
            (soak), or no XP is available.
    """
    if roll.parent_id is not None:
        raise RuleError("Add the experience die to the original roll.", RULE_EXPERIENCE_DICE)
    kinds = set(roll.followups.values_list("kind", flat=True))
    if RollKind.EXPERIENCE_DIE in kinds:
        raise RuleError("This roll already has its experience die (once per roll).",
                        RULE_EXPERIENCE_DICE)
    if RollKind.WILLPOWER_SPEND in kinds:
        raise RuleError("Willpower already turned this roll into an automatic success.",
                        RULE_ROLLING_WILLPOWER)
    allowed = dict(experience_die_keys(roll))
    key = data.get("key") or ""
    if key not in allowed:
        raise RuleError("Bank the XP in a trait this roll used.", RULE_EXPERIENCE_DICE)
    result = maelstrom.add_experience_die(maelstrom.RollResult.from_dict(roll.result), rng)
    if character.xp_available < 1:
        raise RuleError("An experience die needs 1 available XP to bank; you have none.",
                        RULE_EXPERIENCE_DICE)
    ledger_append(character, kind=LedgerKind.BANK, available_delta=-1, banked_delta=1,
                  bank_key=key, trait_key=key, created_by=by,
                  reason=f"Experience die on roll #{roll.label}: banked in {allowed[key]}")
    return _followup(roll, character, RollKind.EXPERIENCE_DIE, result, by)


def _willpower_spend(roll: Roll, character: Character, data: dict[str, Any], by: User,
                     rng: Rng) -> Roll:
    """Cancel a Willpower roll by spending a current willpower dot: it succeeds with
    successes equal to the dots left (Maelstrom rules.md, Rolling Willpower). Stored as a
    follow-up roll holding the roll's own result. Runs with the character locked.

    Raises:
        RuleError: a roll that is not a Willpower roll, one already cancelled, a botched
            one, or only the final dot left.
    """
    if roll.kind != RollKind.WILLPOWER:
        raise RuleError("Only a Willpower roll can be cancelled by spending willpower.",
                        RULE_ROLLING_WILLPOWER)
    if roll.followups.filter(kind=RollKind.WILLPOWER_SPEND).exists():
        raise RuleError("Willpower was already spent on this roll.", RULE_ROLLING_WILLPOWER)
    current = sheet.willpower(character.sheet)[1]
    successes = maelstrom.willpower_spend_successes(
        current, botched=roll.outcome == Roll.Outcome.BOTCH)
    _set_current_willpower(character, current - 1)
    return _followup(roll, character, RollKind.WILLPOWER_SPEND,
                     maelstrom.RollResult.from_dict(roll.result), by,
                     outcome=Roll.Outcome.SUCCESS, net=successes,
                     summary=willpower_spend_summary(successes))


def willpower_spend_summary(successes: int) -> str:
    """The log's summary of a Willpower roll cancelled by a dot: "4 successes (willpower
    spent)"; ``successes`` is what the dot gave (Maelstrom rules.md, Rolling Willpower)."""
    return f"{successes} success{'es' if successes != 1 else ''} (willpower spent)"


ROLL_ACTIONS: dict[str, RollAction] = {
    "experience-die": RollAction(form=ExperienceDieForm, apply=_experience_die),
    "willpower-spend": RollAction(form=WillpowerSpendForm, apply=_willpower_spend),
}
"""The follow-ups on a stored roll, by the ``action`` of ``rolls:roll-act``: add the
experience die (the trait's ledger key posted as ``key``), spend willpower to succeed."""
