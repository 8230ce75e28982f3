"""The sheet's Equipment card: what it draws (``characters/_inventory.html``, its
``sheet-inventory`` partial), for the sheet's page, its live region and the answers of the
inventory's own changes.

The card reads the character's items in one query and asks the campaign's system for what
it adds (:class:`systems.equipment.EquipmentPart`): each item's figures, the card's extras
and the soak's armor, the fields of the add form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from characters.permissions import viewer_reads_only
from equipment.forms import ItemForm
from equipment.models import Item

if TYPE_CHECKING:
    from django import forms

    import systems
    from characters.models import Character

INVENTORY_REGION = "sheet-inventory"
"""The card's DOM id, the name of its partial and its live region (characters.views)."""

INVENTORY_TEMPLATE = "characters/_inventory.html"
"""The template that draws the card (each system's ``sheet.html`` includes it)."""

ADD_IDS = "item-add-%s"
"""The add form's field ids (the card holds a change form per item too)."""


@dataclass
class Refused:
    """A change of the card that was refused, drawn again with what was typed.

    Attributes:
        form: the bound shared form; system_form: the bound system's form (or None).
        item: the item whose change was refused, or None for the add form.
    """

    form: ItemForm
    system_form: forms.Form | None
    item: Item | None = None

    def errors(self) -> list[str]:
        """Every error of both forms, each a sentence (a change of the card shows them
        together above its fields)."""
        found: list[str] = []
        for form in (self.form, self.system_form):
            if form is None:
                continue
            for name, errors in form.errors.items():
                field = form.fields.get(name)
                label = f"{field.label}: " if field is not None and field.label else ""
                found += [f"{label}{error}" for error in errors]
        return found


def inventory_context(character: Character, system: systems.SheetSystem, *,
                      refused: Refused | None = None, error: str = "", success: str = ""
                      ) -> dict[str, Any]:
    """The card's context, in one query (the items, in the inventory's order).

    Args:
        character: the character whose inventory it is (as ``get_character`` loaded it).
        system: the campaign's system.
        refused: a refused add or change, drawn again with the input and its errors (the
            add form, or that item's change form opened).
        error, success: the message of the change just made (or refused).

    Returns:
        ``inventory`` (a row per item: ``item``, ``figures`` as the system draws them,
        ``change`` the values and errors of its change form and whether it is open),
        ``item_form`` and ``item_system_form`` (the add form), ``inventory_error``,
        ``inventory_success``, and what the system adds (``SheetSystem.inventory_context``).
    """
    items = list(Item.objects.filter(character=character))
    if viewer_reads_only(character):
        # A party-mate reads what lies on the table, not what the player wrote (docs/
        # decisions.md, "What a party-mate reads of a sheet"): blanked before any template.
        for item in items:
            item.note = ""
    failed = refused.item.pk if refused is not None and refused.item is not None else None
    rows = []
    for item in items:
        change: dict[str, Any] = {"name": item.name, "quantity": item.quantity,
                                  "note": item.note, "open": False, "errors": []}
        if refused is not None and item.pk == failed:
            data = refused.form.data
            change = {"name": data.get("name", ""), "quantity": data.get("quantity", ""),
                      "note": data.get("note", ""), "open": True, "errors": refused.errors()}
        rows.append({"item": item, "figures": system.item_figures(character, item),
                     "change": change})
    adding = refused is not None and refused.item is None
    return {
        "inventory": rows,
        "item_form": refused.form if adding and refused else ItemForm(auto_id=ADD_IDS),
        "item_system_form": (refused.system_form if adding and refused
                             else system.item_form(character, auto_id=ADD_IDS)),
        "item_adding": adding,
        "inventory_error": error,
        "inventory_success": success,
        **system.inventory_context(character, items),
    }
