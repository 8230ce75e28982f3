"""Rolling on the server, for every system: the campaign's system builds the pool from the
sheet and rolls it; these services lock, store, then announce.

The views pass the server's dice in (``core.dice.get_rng()``, the operating system's CSPRNG;
a seeded ``random.Random`` in tests, tests/conftest.py), so every function here takes ``rng``.
The roll log's one writer is :func:`rolls.log.roll_store` (re-exported here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

import systems
from campaigns.models import Campaign
from characters.ledger import lock_character
from characters.models import RULE_IMPORTS, Character
from core.live import announce
from encounters.models import turn_of
from history.facts import character_facts, record_change
from history.log import record
from history.models import Activity
from rolls.log import roll_store
from rolls.models import RequestedRoll, Roll
from rolls.rolled import NPC_PREFIX, RolledResult
from rulesets import registry
from rulesets.dice import Rng
from rulesets.errors import RuleError
from systems.initiative import ENCOUNTER_TURN

if TYPE_CHECKING:
    from django.contrib.auth.models import User


__all__ = ["npc_roll_create", "requested_roll_create", "roll_act", "roll_create", "roll_store"]


def _open_request(character: Character, pk: int) -> RequestedRoll:
    """The character's open requested roll ``pk``, locked; RuleError if it is not one."""
    requested = (RequestedRoll.objects.select_for_update()
                 .filter(pk=pk, character=character).first())
    if requested is None:
        raise RuleError("That is not a roll the GM asked of this character.", "Roll requests")
    if requested.answer_id is not None:
        raise RuleError("That request was already answered: see the roll log.", "Roll requests")
    return requested


def _require_rolled_here(roll: Roll) -> None:
    """Refuse a follow-up on an imported roll: this server did not roll it, so nothing may
    build on its dice (docs/backup.md, "What an import is trusted for"). Raises RuleError."""
    if roll.imported:
        raise RuleError("This roll was imported, not rolled here: it takes no follow-up.",
                        RULE_IMPORTS)


def _record_spent(character: Character, roll: Roll, *, before: dict[str, str], by: User
                  ) -> None:
    """The activity entry of what a roll changed on the sheet or the ledger (willpower
    spent, a plot point, XP banked), beside the roll's own entry; none when it changed
    nothing. GM-only with the roll."""
    record_change(character, before=before, kind=Activity.Kind.SHEET, action="roll",
                  text=f"With roll {roll.label}: {roll.summary}", by=by, roll=roll,
                  only_if_changed=True, gm_only=roll.gm_only)


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
    readings = module.READINGS.from_values(campaign.readings, strict=False)
    pool = module.quick_roll(text, readings)
    result = module.roll(pool, rng)
    outcome, net = result.verdict()
    with transaction.atomic():
        roll = roll_store(
            campaign_id=campaign.pk, character=None, ruleset=campaign.ruleset,
            rolled=RolledResult(kind=Roll.Kind.NPC, description=f"{NPC_PREFIX}{pool.describe()}",
                                result=result, outcome=outcome, net=net),
            by=by, gm_only=gm_only, readings=readings.changed(),
        )
    return roll


def roll_create(
    *, character: Character, data: dict[str, object], by: User, rng: Rng,
    answers: int | None = None, savepoint: bool = True, in_the_open: bool = False,
) -> Roll:
    """Roll the pool the roll dialog describes and store it before anyone sees it.

    In one transaction: lock the character, let its system build and roll the pool from
    the sheet (it may change the sheet: plot points, willpower spent to ignore wounds or
    lost to a botched Willpower roll), save a changed sheet (announced as ``trackChanged``),
    store the roll, and answer the GM's request ``answers`` if given. The system is handed the
    dialog's data with ``systems.initiative.ENCOUNTER_TURN``, which asks the character's
    encounter turn only if the system's rule needs it.

    Args:
        character: the character rolling (its ``campaign`` loaded: the dialog was checked
            against it).
        data: the valid roll dialog's ``cleaned_data`` (the system's ``roll_form``).
        by: who rolls (the owner or the GM).
        rng: the server's dice.
        answers: the id of the GM's :class:`RequestedRoll` this roll answers: it must be
            this character's and still open, and is answered by this roll in the same
            transaction.
        savepoint: as Django's ``transaction.atomic``. False where the caller's transaction
            is rolled back whole on any error (``core.submissions.submit_once``'s, which
            stores the form's token beside the roll): a savepoint inside it would only add
            two round trips to PostgreSQL to every roll.
        in_the_open: for an NPC the GM has revealed, show the roll to the players. An NPC's
            roll is GM-only otherwise (docs/npcs.md); a player character's never is.

    Returns:
        The stored Roll.

    Raises:
        RuleError: (nothing written) an illegal pool, a request that is not open, or a
            character not in play (an import awaiting the GM, or refused).
    """
    system = systems.for_ruleset(character.campaign.ruleset)
    with transaction.atomic(savepoint=savepoint):
        if system.roll_locks_campaign:
            # Campaign, then character: the order a player's leaving takes them.
            list(Campaign.objects.select_for_update(no_key=True).filter(
                pk=character.campaign_id).values_list("pk", flat=True))
        locked = lock_character(character.pk)
        locked.require_in_play()
        # The campaign the caller loaded (whose data the dialog was checked against) serves
        # the roll too: the lock is the character's, so reading the campaign row again here
        # would be no more current a view of it, only one query more.
        locked.campaign = character.campaign
        requested = _open_request(locked, answers) if answers is not None else None
        before = dict(locked.sheet)
        rolled = system.roll(locked, {**data, ENCOUNTER_TURN: lambda: turn_of(locked)}, rng)
        changed = locked.sheet != before
        if changed:
            locked.save(update_fields=["sheet", "updated_at"])
            announce(locked.campaign_id, "trackChanged", character_id=locked.pk,
                     gm_only=locked.changes_gm_only)
        hidden = locked.is_npc and not (in_the_open and locked.npc_shown)
        roll = roll_store(campaign_id=locked.campaign_id, character=locked,
                          ruleset=locked.campaign.ruleset, rolled=rolled, by=by,
                          gm_only=hidden,
                          readings=system.readings_of(locked.campaign).changed())
        if changed:
            # A roll changes the sheet alone (never the ledger: a follow-up may, roll_act),
            # so the facts before are the sheet's before; a plain roll computes none.
            _record_spent(locked, roll, by=by,
                          before=character_facts(locked, sheet=before, items=False))
        if requested is not None:
            requested.answer = roll
            requested.save(update_fields=["answer"])
            announce(locked.campaign_id, "rollRequested", character_id=locked.pk,
                     gm_only=locked.changes_gm_only)
        return roll


def roll_act(
    *, roll: Roll, action: systems.RollAction, data: dict[str, object], by: User,
    rng: Rng,
) -> Roll:
    """A follow-up on a stored roll (one of the system's ``roll_actions``: Maelstrom's
    experience die or willpower spent to succeed, Shahquest's choice of dice), with the
    character locked: the action stores a new Roll whose parent is ``roll`` (it may append
    to the XP ledger); a changed sheet is saved and announced. Returns the follow-up Roll.
    Raises RuleError (nothing written) to refuse, and for an imported roll (never a
    follow-up target) or a character not in play."""
    with transaction.atomic():
        # Follow-ups are offered on a character's roll only (the views check it first).
        assert roll.character_id is not None
        locked = lock_character(roll.character_id)
        locked.require_in_play()
        _require_rolled_here(roll)
        before = dict(locked.sheet)
        facts = character_facts(locked, items=False)
        followup = action.apply(roll, locked, data, by, rng)
        if locked.sheet != before:
            locked.save(update_fields=["sheet", "updated_at"])
            announce(locked.campaign_id, "trackChanged", character_id=locked.pk,
                     gm_only=locked.changes_gm_only)
        _record_spent(locked, followup, before=facts, by=by)
        return followup


def requested_roll_create(
    *, characters: list[Character], system: systems.SheetSystem, what: dict[str, object],
    note: str, by: User,
) -> list[RequestedRoll]:
    """The GM asks ``characters`` (one, or the whole party) for a roll: the system turns the
    request (``what``, its ``request_form``'s cleaned data) into each character's prefilled
    roll dialog, which is checked like a roll (the dialog's form, then the pool through the
    engine's odds) before anyone is asked. A character who could not make it refuses the
    whole request, naming that character and the rule; nothing is asked of anyone then.
    Each request shows on the character's sheet (announced live) and in the activity log.
    Returns the requests."""
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
            announce(character.campaign_id, "rollRequested", character_id=character.pk,
                     gm_only=character.changes_gm_only)
        for request in created:
            record(campaign_id=request.campaign_id, kind=Activity.Kind.REQUEST, action="ask",
                   text=f"Asked {request.character.name} for a roll: {request.description}"
                        + (f" ({note})" if note else ""),
                   by=by, character=request.character,
                   gm_only=request.character.changes_gm_only)
    return created
