"""The contract's equipment part: what a system adds to the inventory every sheet has
(docs/equipment.md).

Every system's character carries items (``equipment.models.Item``: a name, a quantity, a
note, their order), added, changed and removed in place on the sheet's Equipment card
(``characters/_inventory.html``). What an item is beyond that is the system's: its own data
in ``Item.details`` (a JSON object; ``{}`` for plain gear), the fields that set it in the
add and change forms (:meth:`EquipmentPart.item_form`), the figures drawn beside the item
(:meth:`EquipmentPart.item_figures`, :attr:`EquipmentPart.item_template`), the things done
with it in play (:class:`ItemAction`: Maelstrom's fire and reload) and what an import may
bring (:meth:`EquipmentPart.check_item`). The defaults add nothing: a system without
equipment rules has the shared inventory alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from rulesets.errors import RuleError
from systems.part import SystemPart
from systems.stored import RULE_STORED

if TYPE_CHECKING:
    from django import forms
    from django.contrib.auth.models import User

    from characters.models import Character
    from equipment.models import Item


@dataclass(frozen=True)
class ItemAction:
    """One thing done with an item in play, in place on the sheet (Maelstrom: fire a
    ranged weapon, reload it).

    Attributes:
        form: the form class that validates the POST (built as ``form(data)``; a form
            without fields for an action that takes no input).
        apply: ``apply(item, character, cleaned_data, by) -> message``; runs with the
            character and the item locked inside the transaction and changes
            ``item.details`` in memory (the service saves it); the returned message is shown
            on success. Raises RuleError to refuse, and nothing is written.
        label: the action in words, for a refusal's and the fuzz's sake ("Fire").
    """

    form: type[forms.Form]
    apply: Callable[[Item, Character, dict[str, Any], User], str]
    label: str


@dataclass(kw_only=True)
class EquipmentPart(SystemPart):
    """What the system adds to the inventory every sheet has (the shared name, quantity,
    note and order are the same for every system). The defaults add nothing."""

    item_actions: Mapping[str, ItemAction] = field(default_factory=dict)
    """The things done with an item in play by name, the name being the URL's ``<action>``
    (``equipment:item-act``, ``/characters/<pk>/items/<item_id>/use/<action>/``); an unknown
    name is a 404. Empty by default."""

    item_template: ClassVar[str] = ""
    """A template of the system's drawn under each item on the Equipment card (its figures,
    the buttons of its :attr:`item_actions`), with ``item``, ``figures``
    (:meth:`item_figures`) and the card's context; ``""`` (the default) draws nothing."""

    item_form_template: ClassVar[str] = ""
    """A template of the system's that draws :meth:`item_form`'s fields inside the add form
    and the item's page (with ``system_form``); ``""`` draws them in the form's order."""

    inventory_template: ClassVar[str] = ""
    """A template of the system's drawn at the foot of the Equipment card, with the card's
    context (:meth:`inventory_context`); ``""`` (the default) draws nothing."""

    def item_form(self, character: Character, data: Mapping[str, Any] | None = None, *,
                  item: Item | None = None, auto_id: str = "id_%s") -> forms.Form | None:
        """The system's fields of an item, asked with the shared ones when an item is added
        or changed, bound to ``data`` or unbound (for ``item``'s page: its fields show what
        it is). A change that posts none of them (the card's quick change of the name,
        quantity and note) leaves ``details`` as they were (:meth:`item_details`). ``None``
        (the default): the system has nothing to ask."""
        return None

    def item_details(self, cleaned_data: Mapping[str, Any], *, item: Item | None = None
                     ) -> dict[str, Any]:
        """``Item.details`` from the valid :meth:`item_form`'s ``cleaned_data`` for a new item
        (``item`` None) or for ``item`` changed, keeping what the form does not set (the
        rounds a weapon holds). By default ``{}`` for a new item and ``item``'s as they were.
        Raises RuleError for details the rules refuse."""
        return dict(item.details) if item is not None else {}

    def item_label(self, details: Mapping[str, Any]) -> str:
        """The name an item takes when none is typed, from its details (Maelstrom: the
        seed's weapon's, "Pistol, Heavy"); ``""`` by default (a name is then needed)."""
        return ""

    def item_figures(self, character: Character, item: Item) -> dict[str, Any]:
        """What :attr:`item_template` draws of ``item`` (a weapon's figures, the rounds it
        holds, armor's dice), read from its details and the character's sheet without
        queries. ``{}`` by default."""
        return {}

    def inventory_context(self, character: Character, items: Sequence[Item]
                          ) -> dict[str, Any]:
        """What the system draws of the whole inventory, added to the sheet's context and
        the card's (:attr:`inventory_template`; Maelstrom: the armor offered to the soak
        roll), without queries. ``{}`` by default."""
        return {}

    def check_item(self, details: Any) -> None:
        """Refuse an item's ``details`` the system never writes, before an import stores it
        (docs/backup.md).

        Args:
            details: the would-be ``Item.details`` as the file holds it (any JSON value); it
                is not changed.

        Raises:
            RuleError: naming the first value refused and citing the rule. The default takes
                only an empty object: a system that keeps nothing in an item holds nothing
                there.
        """
        if details != {}:
            raise RuleError("an item of this system holds nothing but its name, quantity "
                            "and note", RULE_STORED)
