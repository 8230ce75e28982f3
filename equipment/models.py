"""What a character carries: its inventory, one :class:`Item` a row, for every system.

The shared part of an item is the same everywhere (a name, a quantity, a note, its place in
the list); what a system adds to it (Maelstrom: a weapon of the seed's tables with the rounds
it holds, armor's dice) is the system's JSON in :attr:`Item.details`, in the shape its
sheet layer reads and checks (:class:`systems.equipment.EquipmentPart`). Items are changed
only through ``equipment.services``, under the character's row lock.
"""

from __future__ import annotations

from django.db import models

QUANTITY_MAX = 9_999
"""The most of one item an inventory row counts (a form's bound, and an import's)."""

NAME_MAX = 80
NOTE_MAX = 200

ITEMS_MAX = 500
"""The most items one character carries (the add form's bound, and an import's)."""


class Item(models.Model):
    """One line of a character's inventory: ``quantity`` of ``name`` (at least 1), with a
    ``note`` (one line), at ``position`` in the list (then by id), and the system's own data
    in ``details`` (a JSON object, ``{}`` for plain gear)."""

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="items")
    name = models.CharField(max_length=NAME_MAX)
    quantity = models.PositiveIntegerField(default=1)
    note = models.CharField(max_length=NOTE_MAX, blank=True)
    position = models.PositiveIntegerField(default=0)
    # The system's own: systems.equipment.EquipmentPart reads and writes it, checks it on import.
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(quantity__gte=1),
                                   name="item_quantity_at_least_one"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ×{self.quantity}" if self.quantity != 1 else self.name
