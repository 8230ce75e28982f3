"""State changes of a character's inventory, for every system: an item added, changed,
removed, or used in play (a system's :class:`systems.equipment.ItemAction`).

Every function is atomic: it locks the character row (:func:`characters.ledger.
lock_character`, as every change of a sheet does), then the item's, refuses a character out
of play, writes, and announces :data:`ITEMS_CHANGED` once committed, so every open page of
the sheet redraws its Equipment card. A refusal raises ``RuleError`` before anything is
written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Max

import systems
from characters.ledger import lock_character
from core.live import announce
from equipment.models import ITEMS_MAX, Item
from history.facts import character_facts, record_change
from history.models import Activity
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character
    from systems.equipment import ItemAction

ITEMS_CHANGED = "itemsChanged"
"""The event of an inventory changed (``itemsChanged-<character id>`` on its sheet)."""

RULE_EQUIPMENT = "docs/equipment.md, The inventory"
RULE_IN_PLAY = "docs/decisions.md, Retired and dead characters"


def _require_in_play(character: Character) -> None:
    """Refuse a change of the inventory of a character out of play (retired, dead, an import
    awaiting the GM or refused by the GM): its sheet stays as it was, to read, until the GM
    brings it back or accepts it. Read it on the locked row."""
    if character.in_play:
        return
    if character.is_retired:
        until = "until the GM brings it back into the party"
    elif character.awaiting_gm:
        until = "until the GM accepts its import"
    else:
        until = "as the GM refused its import"
    raise RuleError(f"{character.name} is out of play: its equipment stays as it was {until}.",
                    RULE_IN_PLAY)


def _locked_item(item: Item, character: Character) -> Item:
    """``item`` re-read under a row lock, as one of ``character``'s (who is locked first)."""
    try:
        return Item.objects.select_for_update().get(pk=item.pk, character=character)
    except Item.DoesNotExist:
        raise RuleError(f"{item.name} is no longer in {character.name}'s inventory.",
                        RULE_EQUIPMENT) from None


def _announce(character: Character) -> None:
    announce(character.campaign_id, ITEMS_CHANGED, character_id=character.pk,
             gm_only=character.changes_gm_only)


def item_add(*, character: Character, name: str, quantity: int, note: str,
             details: Mapping[str, Any], by: User) -> Item:
    """Add ``quantity`` of ``name`` (with ``note`` and the system's ``details``) at the end
    of ``character``'s inventory, and announce it.

    Raises:
        RuleError: the character is out of play, or already carries :data:`ITEMS_MAX`
            items.
    """
    with transaction.atomic():
        locked = lock_character(character.pk)
        _require_in_play(locked)
        items = Item.objects.filter(character=locked)
        if items.count() >= ITEMS_MAX:
            raise RuleError(f"{locked.name} already carries {ITEMS_MAX} items: remove some "
                            "first.", RULE_EQUIPMENT)
        last = items.aggregate(last=Max("position"))["last"]
        before = character_facts(locked)
        item = Item.objects.create(character=locked, name=name, quantity=quantity, note=note,
                                   details=dict(details),
                                   position=0 if last is None else last + 1)
        record_change(locked, before=before, kind=Activity.Kind.ITEM, action="add",
                      text=f"Added {item} to the inventory.", by=by, items=True)
        _announce(locked)
    return item


def item_change(*, item: Item, name: str, quantity: int, note: str,
                details: Mapping[str, Any], by: User) -> Item:
    """Change ``item``'s name, quantity, note and the system's ``details``, and announce it.
    Returns the item as saved.

    Raises:
        RuleError: the character is out of play, or the item is gone (removed in another
            tab).
    """
    with transaction.atomic():
        locked = lock_character(item.character_id)
        _require_in_play(locked)
        row = _locked_item(item, locked)
        before = character_facts(locked)
        row.name, row.quantity, row.note, row.details = name, quantity, note, dict(details)
        row.save(update_fields=["name", "quantity", "note", "details", "updated_at"])
        record_change(locked, before=before, kind=Activity.Kind.ITEM, action="change",
                      text=f"Changed {row.name} in the inventory.", by=by, items=True)
        _announce(locked)
    return row


def item_remove(*, item: Item, by: User) -> None:
    """Remove ``item`` from its character's inventory, and announce it.

    Raises:
        RuleError: the character is out of play, or the item is already gone.
    """
    with transaction.atomic():
        locked = lock_character(item.character_id)
        _require_in_play(locked)
        row = _locked_item(item, locked)
        before = character_facts(locked)
        row.delete()
        record_change(locked, before=before, kind=Activity.Kind.ITEM, action="remove",
                      text=f"Removed {row} from the inventory.", by=by, items=True)
        _announce(locked)


def item_act(*, item: Item, action: ItemAction, data: dict[str, Any], by: User
             ) -> tuple[Item, str]:
    """Use ``item`` in play as the system's ``action`` says (fire a weapon, reload it): lock
    the character and the item, let the action change the item's details (RuleError refuses
    it, and nothing is written), save, and announce it.

    Returns:
        The item as saved, and the action's message.

    Raises:
        RuleError: the action's refusal ("Out of rounds: reload."), a character out of play
            or out of the story by its system's rules (Maelstrom's dead), an item gone.
    """
    with transaction.atomic():
        locked = lock_character(item.character_id)
        _require_in_play(locked)
        if systems.for_campaign(locked.campaign).is_out_of_play(locked):
            raise RuleError(f"{locked.name} is out of the story: it does nothing in play.",
                            RULE_IN_PLAY)
        row = _locked_item(item, locked)
        before = character_facts(locked)
        message = action.apply(row, locked, data, by)
        row.save(update_fields=["details", "updated_at"])
        record_change(locked, before=before, kind=Activity.Kind.ITEM, action="use",
                      text=f"{row.name}: {message}", by=by, items=True)
        _announce(locked)
    return row, message
