"""Rolling on the server: build the pool through the rules engine, roll, store, then show.

The views pass the server's dice in (``core.dice.get_rng()``, the operating system's CSPRNG;
a seeded ``random.Random`` in tests, tests/conftest.py), so every function here takes ``rng``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from django.db import transaction

import systems
from characters.ledger import lock_character
from characters.models import RULE_IMPORTS, WILLPOWER_KEY, Character, Trait, trait_key
from characters.services import xp_bank_for_experience_die
from core.live import announce
from rolls.log import just_made, roll_store
from rolls.models import RequestedRoll, Roll
from rulesets import maelstrom, registry
from rulesets.dice import Rng
from rulesets.maelstrom import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign

@dataclass(frozen=True)
class RollRequest:
    """What the player asked for on the sheet (Maelstrom rules.md, Dice Pool).

    ``kind`` is ``action``, ``willpower`` or ``soak``. For an action, ``traits`` names one
    or two attributes/abilities and ``specialties`` the specialties used, as
    ``"Ability: Name"``; ``required_specialties`` names advanced specialties the GM
    requires (each not used adds +1 threshold); ``ignore_wound_penalty`` spends a willpower
    dot to roll without the wound penalty. For a soak, ``damage_kind`` and ``armor`` (dice).
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


def build_pool(
    character: Character, request: RollRequest, traits: list[Trait] | None = None
) -> maelstrom.ActionPool:
    """Build the character's pool for a request through the rules engine.

    ``traits`` may pass the character's already-loaded Trait rows (to save a query).
    Raises RuleError naming the rule for an illegal pool (unknown trait, more than two
    traits, too many specialties, a knowledge at zero dots, no dice left...).
    """
    if character.dead:
        raise RuleError(f"{character.name} is dead: no more rolls.",
                        "Maelstrom rules.md, Incapacitation and Death")
    if request.kind == "willpower":
        # Only a Willpower roll looks at the merits (Strong Bond), so only it reads them.
        has_strong_bond = any(m.name == "Strong Bond" for m in character.merits_flaws.all())
        return maelstrom.build_willpower_pool(
            current=character.willpower_current, difficulty=request.difficulty,
            threshold=request.threshold, automatic_successes=1 if has_strong_bond else 0,
        )
    rows = list(character.traits.all()) if traits is None else traits
    by_name = {t.name: t for t in rows if t.kind != Trait.Kind.SPECIALTY}
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
                            "Maelstrom rules.md, Dice Pool")
        refs.append(maelstrom.TraitRef(name=trait.name, kind=trait.kind, dots=trait.dots,
                                       group=trait.group))
    owned = {f"{t.ability}: {t.name}": t for t in rows if t.kind == Trait.Kind.SPECIALTY}
    specialties = []
    for label in request.specialties:
        specialty = owned.get(label)
        if specialty is None:
            raise RuleError(f"{label!r} is not one of this character's specialties.",
                            "Maelstrom rules.md, Using Specialties")
        specialties.append(maelstrom.SpecialtyRef(name=specialty.name,
                                                  ability=specialty.ability,
                                                  advanced=specialty.advanced))
    if character.willpower_current == 0 and not request.ignore_wound_penalty:
        # Spending the last dot to ignore wounds still allows that one action (seed, Spending
        # Willpower); otherwise zero willpower means no actions at all.
        raise RuleError(f"{character.name} has no willpower left: incapacitated, no actions "
                        "until a dot is recovered.", "Maelstrom rules.md, Zero Willpower")
    health = character.health
    penalty = 0 if request.ignore_wound_penalty else health.wound_penalty
    return maelstrom.build_action_pool(
        traits=refs, specialties=specialties, difficulty=request.difficulty,
        threshold=request.threshold, required_specialties=request.required_specialties,
        wound_penalty=penalty, incapacitated=health.incapacitated or health.dead,
        wound_level=health.level_name,
    )


def _store(
    *, character: Character, result: maelstrom.RollResult, kind: str, by: User,
    parent: Roll | None = None, outcome: str | None = None, net: int | None = None,
    summary: str | None = None,
) -> Roll:
    data = result.as_dict()
    announce(character.campaign_id, "rollMade", character_id=character.pk)
    return just_made(Roll.objects.create(
        campaign_id=character.campaign_id, character=character, rolled_by=by,
        ruleset="maelstrom", kind=kind, parent=parent, description=result.pool.describe(),
        pool=data["pool"], dice=data["dice"], bonus_dice=data["bonus_dice"],
        experience_die=data["experience_die"], outcome=outcome or result.outcome,
        net=result.net if net is None else net, botches=result.resolution.botches,
        summary=summary or result.summary(),
    ))


def roll_create(
    *, character: Character, request: RollRequest, by: User, rng: Rng,
    answers: int | None = None,
) -> Roll:
    """Roll a pool from the sheet and store it before anyone sees it.

    In one transaction: lock the character, build the pool (RuleError for an illegal
    one), spend a willpower dot when the wound penalty is ignored (Maelstrom rules.md,
    Spending Willpower: one dot a turn), roll with ``rng``, apply the willpower lost to a
    botched Willpower roll (Rolling Willpower), and append the Roll. Returns the Roll.

    ``answers`` is the id of the GM's :class:`RequestedRoll` this roll answers: it must be
    this character's and still open, and is answered by this roll in the same transaction
    (RuleError otherwise, before anything is rolled). A character not in play (an import
    awaiting the GM, or refused) makes no roll: RuleError, nothing written.
    """
    with transaction.atomic():
        locked = lock_character(character.pk)
        locked.require_in_play()
        requested = _open_request(locked, answers) if answers is not None else None
        spend_for_wounds = (request.kind == "action" and request.ignore_wound_penalty
                            and locked.health.wound_penalty > 0)
        if request.ignore_wound_penalty and not spend_for_wounds:
            # Nothing to ignore: don't charge a dot for a box ticked out of habit.
            request = replace(request, ignore_wound_penalty=False)
        if spend_for_wounds:
            if locked.willpower_current < 1:
                raise RuleError("Ignoring the wound penalty costs a willpower dot; none is left.",
                                "Maelstrom rules.md, Spending Willpower")
            locked.willpower_current -= 1
        pool = build_pool(locked, request)
        if spend_for_wounds:
            pool = _with_note(pool, "Willpower spent: wound penalty ignored")
        result = maelstrom.roll(pool, rng)
        loss = maelstrom.willpower_botch_loss(result)
        if loss:
            locked.willpower_current = max(0, locked.willpower_current - loss)
            note = f"Botched Willpower roll: lost {loss} current willpower"
            result = replace(result, pool=_with_note(result.pool, note))
        if spend_for_wounds or loss:
            # Only a roll that spends willpower changes the character row: a plain roll
            # writes nothing to it (nothing reads updated_at as "last rolled"; the roll
            # log's own rows say that).
            locked.save(update_fields=["willpower_current", "updated_at"])
            announce(locked.campaign_id, "trackChanged", character_id=locked.pk)
        roll = _store(character=locked, result=result, kind=request.kind, by=by)
        if requested is not None:
            requested.answer = roll
            requested.save(update_fields=["answer"])
            announce(locked.campaign_id, "rollRequested", character_id=locked.pk)
        return roll


def _open_request(character: Character, pk: int) -> RequestedRoll:
    """The character's open requested roll ``pk``, locked; RuleError if it is not one."""
    requested = (RequestedRoll.objects.select_for_update()
                 .filter(pk=pk, character=character).first())
    if requested is None:
        raise RuleError("That is not a roll the GM asked of this character.", "Roll requests")
    if requested.answer_id is not None:
        raise RuleError("That request was already answered: see the roll log.", "Roll requests")
    return requested


def requested_roll_create(
    *, characters: list[Character], kind: str, traits: tuple[str, ...], difficulty: int,
    threshold: int, note: str, by: User,
) -> list[RequestedRoll]:
    """The GM asks ``characters`` (one, or the whole party) for a roll with its pool preset.

    Each character's pool is built through the rules engine first, so a request no one
    could roll (a trait the character lacks, a knowledge at zero dots, no dice left after
    wounds, an import awaiting the GM) is refused with the rule, naming the character, and
    nothing is asked of anyone.
    Each request then shows on the character's sheet (announced live). Returns the requests.
    """
    request = RollRequest(kind=kind, traits=traits, difficulty=difficulty, threshold=threshold)
    for character in characters:
        try:
            character.require_in_play()
            build_pool(character, request)
        except RuleError as exc:
            raise RuleError(f"{character.name}: {exc.message}", exc.rule) from None
    with transaction.atomic():
        created = [
            RequestedRoll.objects.create(
                campaign_id=character.campaign_id, character=character, requested_by=by,
                kind=kind, traits=list(traits), difficulty=difficulty, threshold=threshold,
                note=note,
            )
            for character in characters
        ]
        for character in characters:
            announce(character.campaign_id, "rollRequested", character_id=character.pk)
    return created


def _with_note(pool: maelstrom.ActionPool, note: str) -> maelstrom.ActionPool:
    return replace(pool, notes=(*pool.notes, note))


def experience_die_keys(roll: Roll) -> list[tuple[str, str]]:
    """The traits a roll used that can take the banked XP of an experience die, as
    ``(ledger key, label)`` pairs (Maelstrom rules.md, Adding Experience Dice: "a trait
    that you used for the action"; XP for a specialty is banked in its ability)."""
    keys = []
    for name in roll.pool.get("traits", []):
        if name in maelstrom.ATTRIBUTES:
            keys.append((trait_key(Trait.Kind.ATTRIBUTE, name), name))
        elif name in maelstrom.ABILITIES:
            keys.append((trait_key(Trait.Kind.ABILITY, name), name))
    if roll.kind == Roll.Kind.WILLPOWER:
        keys.append((WILLPOWER_KEY, "Willpower"))
    return keys


def roll_experience_die(*, roll: Roll, key: str, by: User, rng: Rng) -> Roll:
    """Add an experience die to a roll: bank 1 available XP in a trait the roll used, add
    one bonus die (exploding when a specialty was used), and store the new total as a
    follow-up roll (Maelstrom rules.md, Adding Experience Dice).

    Raises RuleError when the roll botched, already has one, forbids one (soak), the key
    is not a trait the roll used, or no XP is available.
    """
    with transaction.atomic():
        # Follow-ups are offered on a character's roll only (the views check it first).
        assert roll.character_id is not None
        character = lock_character(roll.character_id)
        character.require_in_play()
        _require_rolled_here(roll)
        if roll.parent_id is not None:
            raise RuleError("Add the experience die to the original roll.",
                            "Maelstrom rules.md, Adding Experience Dice")
        kinds = set(roll.followups.values_list("kind", flat=True))
        if Roll.Kind.EXPERIENCE_DIE in kinds:
            raise RuleError("This roll already has its experience die (once per roll).",
                            "Maelstrom rules.md, Adding Experience Dice")
        if Roll.Kind.WILLPOWER_SPEND in kinds:
            raise RuleError("Willpower already turned this roll into an automatic success.",
                            "Maelstrom rules.md, Rolling Willpower")
        allowed = dict(experience_die_keys(roll))
        if key not in allowed:
            raise RuleError("Bank the XP in a trait this roll used.",
                            "Maelstrom rules.md, Adding Experience Dice")
        result = maelstrom.add_experience_die(_stored_result(roll), rng)
        xp_bank_for_experience_die(character=character, key=key, by=by,
                                   reason=f"Experience die on roll #{roll.pk}: banked in "
                                          f"{allowed[key]}")
        return _store(character=character, result=result, kind=Roll.Kind.EXPERIENCE_DIE,
                      by=by, parent=roll)


def roll_willpower_spend(*, roll: Roll, by: User) -> Roll:
    """Cancel a Willpower roll by spending a dot: it succeeds with successes equal to the
    remaining dots (Maelstrom rules.md, Rolling Willpower). Stored as a follow-up roll.

    Raises RuleError for a roll that is not a Willpower roll, botched, was already
    cancelled, or when only the final dot is left.
    """
    with transaction.atomic():
        # Follow-ups are offered on a character's roll only (the views check it first).
        assert roll.character_id is not None
        character = lock_character(roll.character_id)
        character.require_in_play()
        _require_rolled_here(roll)
        if roll.kind != Roll.Kind.WILLPOWER:
            raise RuleError("Only a Willpower roll can be cancelled by spending willpower.",
                            "Maelstrom rules.md, Rolling Willpower")
        if roll.followups.filter(kind=Roll.Kind.WILLPOWER_SPEND).exists():
            raise RuleError("Willpower was already spent on this roll.",
                            "Maelstrom rules.md, Rolling Willpower")
        successes = maelstrom.willpower_spend_successes(
            character.willpower_current, botched=roll.outcome == Roll.Outcome.BOTCH
        )
        character.willpower_current -= 1
        character.save(update_fields=["willpower_current", "updated_at"])
        announce(character.campaign_id, "trackChanged", character_id=character.pk)
        result = _stored_result(roll)
        summary = f"{successes} success{'es' if successes != 1 else ''} (willpower spent)"
        return _store(character=character, result=result, kind=Roll.Kind.WILLPOWER_SPEND,
                      by=by, parent=roll, outcome=Roll.Outcome.SUCCESS, net=successes,
                      summary=summary)


def _require_rolled_here(roll: Roll) -> None:
    """Refuse a follow-up on an imported roll: this server did not roll it, so nothing may
    build on its dice (docs/backup.md, "What an import is trusted for"). Raises RuleError."""
    if roll.imported:
        raise RuleError("This roll was imported, not rolled here: it takes no follow-up.",
                        RULE_IMPORTS)


def _stored_result(roll: Roll) -> maelstrom.RollResult:
    return maelstrom.RollResult.from_dict(
        {"pool": roll.pool, "dice": roll.dice, "bonus_dice": roll.bonus_dice,
         "experience_die": roll.experience_die}
    )


def _outcome(result: object) -> str:
    """A result's outcome in the roll log's terms, whatever the system: success, failure,
    botch, or "rolled" where the system has no pass or fail (a Shahquest effort total)."""
    value = getattr(result, "outcome", None)
    if value in Roll.Outcome.values:
        return str(value)
    if value == "standard success":  # Shattered World: a success of degree 1
        return Roll.Outcome.SUCCESS
    for flag in ("succeeded", "success"):
        passed = getattr(result, flag, None)
        if isinstance(passed, bool):
            return Roll.Outcome.SUCCESS if passed else Roll.Outcome.FAILURE
    return Roll.Outcome.ROLLED


def npc_roll_create(
    *, campaign: Campaign, text: str, gm_only: bool, by: User, rng: Rng
) -> Roll:
    """The GM's quick roll for an NPC, typed in the campaign's system's notation
    ("5 dice diff 7 threshold 1", "d10 2d8 d6", "2A 1P vs 3D 1C", "3d6+2 favor 1",
    "d8+1 vs 6"): parsed and rolled by the rules engine, stored, then announced (to the GM
    alone when ``gm_only``).

    Raises RuleError, naming the part not understood, for notation the system cannot read.
    Returns the Roll (no character; ``result`` holds the engine's whole result).
    """
    module = registry.get(campaign.ruleset).module
    if module is None:
        raise RuleError(f"{campaign.ruleset_name} has no rules engine yet.", "NPC quick roll")
    pool = module.quick_roll(text)
    result = module.roll(pool, rng)
    data = result.as_dict()
    with transaction.atomic():
        roll = Roll.objects.create(
            campaign=campaign, character=None, rolled_by=by, ruleset=campaign.ruleset,
            kind=Roll.Kind.NPC, description=f"NPC: {pool.describe()}",
            pool=data.get("pool", {}),
            # Maelstrom's d10s keep their own columns, so the log draws them like any roll.
            dice=data.get("dice", []) if campaign.ruleset == "maelstrom" else [],
            bonus_dice=data.get("bonus_dice", []) if campaign.ruleset == "maelstrom" else [],
            outcome=_outcome(result), net=int(getattr(result, "net", 0) or 0),
            summary=result.summary()[:200], result=data, gm_only=gm_only,
        )
        announce(campaign.pk, "rollMade", gm_only=gm_only)
    return roll



# --- Every other system: pools built and rolled by its sheet description ------------------


def system_roll_create(
    *, character: Character, data: dict[str, object], by: User, rng: Rng,
    answers: int | None = None,
) -> Roll:
    """Roll from a sheet described in ``systems/``: in one transaction, lock the
    character, let the system build and roll the pool (it may spend plot points on the
    sheet), save the sheet, store the roll, and answer the GM's request ``answers`` if given.

    Raises RuleError (nothing written) for an illegal pool, a request that is not open, or a
    character not in play (an import awaiting the GM, or refused).
    """
    system = systems.for_ruleset(character.campaign.ruleset)
    if system is None:
        raise RuleError("This sheet rolls through its own dialog.", "Rolls")
    with transaction.atomic():
        locked = lock_character(character.pk)
        locked.require_in_play()
        # The campaign the caller loaded (whose data the dialog was checked against) serves
        # the roll too: the lock is the character's, so reading the campaign row again here
        # would be no more current a view of it, only one query more.
        locked.campaign = character.campaign
        requested = _open_request(locked, answers) if answers is not None else None
        before = dict(locked.sheet)
        rolled = system.roll(locked, data, rng)
        if locked.sheet != before:
            locked.save(update_fields=["sheet", "updated_at"])
            announce(locked.campaign_id, "trackChanged", character_id=locked.pk)
        roll = roll_store(campaign_id=locked.campaign_id, character=locked,
                          ruleset=locked.campaign.ruleset, rolled=rolled, by=by)
        if requested is not None:
            requested.answer = roll
            requested.save(update_fields=["answer"])
            announce(locked.campaign_id, "rollRequested", character_id=locked.pk)
        return roll


def system_roll_act(
    *, roll: Roll, action: systems.RollAction, data: dict[str, object], by: User,
    rng: Rng,
) -> Roll:
    """A follow-up on a stored roll (the system's ``roll_actions``), with the character
    locked: the action stores a new Roll whose parent is ``roll``; a changed sheet is saved
    and announced. Raises RuleError (nothing written) to refuse, and for an imported roll
    (never a follow-up target) or a character not in play."""
    with transaction.atomic():
        # Follow-ups are offered on a character's roll only (the views check it first).
        assert roll.character_id is not None
        locked = lock_character(roll.character_id)
        locked.require_in_play()
        _require_rolled_here(roll)
        before = dict(locked.sheet)
        followup = action.apply(roll, locked, data, by, rng)
        if locked.sheet != before:
            locked.save(update_fields=["sheet", "updated_at"])
            announce(locked.campaign_id, "trackChanged", character_id=locked.pk)
        return followup


def system_requested_roll_create(
    *, characters: list[Character], system: systems.SheetSystem, what: dict[str, object],
    note: str, by: User,
) -> list[RequestedRoll]:
    """The GM asks ``characters`` of a described system for a roll: the system turns the
    request (``what``, its ``request_form``'s cleaned data) into each character's prefilled
    roll dialog, which is checked like a roll (the dialog's form, then the pool through the
    engine's odds) before anyone is asked. A character who could not make it refuses the
    whole request, naming that character and the rule; nothing is asked of anyone then.
    Each request shows on the character's sheet (announced live). Returns the requests."""
    prepared = []
    for character in characters:
        try:
            character.require_in_play()
            data, description = system.request_data(character, what)
            form = system.roll_form(character, data)
            if not form.is_valid():
                raise RuleError(systems.errors_text(form), "Roll requests")
            system.odds(character, form.cleaned_data)
        except RuleError as exc:
            raise RuleError(f"{character.name}: {exc.message}", exc.rule) from None
        prepared.append((character, data, description))
    with transaction.atomic():
        created = [
            RequestedRoll.objects.create(
                campaign_id=character.campaign_id, character=character, requested_by=by,
                data=data, description=description[:200], note=note,
            )
            for character, data, description in prepared
        ]
        for character, _, _ in prepared:
            announce(character.campaign_id, "rollRequested", character_id=character.pk)
    return created
