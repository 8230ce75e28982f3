"""Maelstrom's equipment: weapons of the seed's tables or of the table's own making, the
rounds a ranged weapon holds (fire, reload), and armor offered to the soak roll (Maelstrom
rules.md, Ranged Weapons, Melee Weapons, Soaking Damage; docs/systems/maelstrom.md,
"Equipment").

An item's ``details`` (``equipment.models.Item.details``), one of::

    {}                                               # gear
    {"weapon": "pistol-heavy", "loaded": 8}          # a ranged weapon of the seed's table
    {"weapon": "knife"}                              # a melee weapon of the seed's table
    {"ranged": {"damage": 6, "range": 40, "rate": 2, "magazine": 10, "chambered": true},
     "loaded": 11}                                   # a ranged weapon of the table's making
    {"melee": {"strength_bonus": 2, "damage_kind": "lethal"}}   # a melee one
    {"armor": 3}                                     # armor: its soak dice

``loaded`` is the rounds in the weapon, 0 to its capacity (:mod:`rulesets.maelstrom.weapons`).
The seed writes no attack and no armor (its Attacking and Armor sections are unwritten), so
nothing here rolls: a weapon shows its figures, armor its dice, which the soak roll's dialog
offers as its armor dice (Maelstrom rules.md, Soaking Damage: "Strength attribute plus any
bonus from their armor"; "only the armor's rating" against lethal and aggravated).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms

from core.forms import Form
from rulesets.errors import RuleError
from rulesets.maelstrom import weapons
from rulesets.maelstrom.weapons import MeleeWeapon, RangedWeapon
from systems.equipment import EquipmentPart, ItemAction
from systems.maelstrom.sheet import trait_refs
from systems.stored import require, stored_int

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character
    from equipment.models import Item

RULE_SOAK = "Maelstrom rules.md, Soaking Damage"

ARMOR_DICE_MAX = 20
"""The most armor dice an item records: what the soak roll's armor field takes
(``systems.maelstrom.roll_forms.RollForm.armor``)."""

GEAR, WEAPON, RANGED, MELEE, ARMOR = "gear", "weapon", "ranged", "melee", "armor"
KINDS = {GEAR: "gear", WEAPON: "a weapon of the seed's tables",
         RANGED: "a ranged weapon of your own", MELEE: "a melee weapon of your own",
         ARMOR: "armor"}
"""What an item is, in words."""

WEAPON_PREFIX = "weapon:"
"""How the form names a weapon of the seed's tables: ``weapon:pistol-heavy``."""

WHAT_CHOICES: list[tuple[str, Any]] = [
    (GEAR, "Gear"),
    ("The seed's ranged weapons",
     [(WEAPON_PREFIX + key, w.name) for key, w in weapons.RANGED.items()]),
    ("The seed's melee weapons",
     [(WEAPON_PREFIX + key, w.name) for key, w in weapons.MELEE.items()]),
    ("Of your own", [(RANGED, "A ranged weapon of your own"),
                     (MELEE, "A melee weapon of your own"), (ARMOR, "Armor")]),
]
"""What an item is, as the add form and the item's page ask it: gear, one of the seed's
weapons by table, in its order (Maelstrom rules.md, Ranged Weapons, Melee Weapons), or one
of the table's own making, or armor."""


def _number(low: int, high: int, label: str) -> forms.IntegerField:
    return forms.IntegerField(required=False, min_value=low, max_value=high, label=label)


class ItemForm(Form):
    """What a Maelstrom item is, beside its shared name, quantity and note: gear, a weapon
    of the seed's tables, a ranged or melee weapon of the table's own making (its figures
    in the tables' columns), or armor (its soak dice). ``what`` left empty leaves the item
    as it was (the card's quick change posts none of these fields).

    ``cleaned_data``: ``what`` ("" or a key of :data:`KINDS`), ``weapon`` (a catalogue key,
    for a weapon of the seed's tables), and the fields the kind needs: ``damage``,
    ``range``, ``rate``, ``magazine``, ``chambered``; ``strength_bonus``, ``damage_kind``;
    ``armor`` (dice).
    """

    what = forms.ChoiceField(choices=WHAT_CHOICES, required=False, label="What it is")
    damage = _number(0, weapons.DAMAGE_MAX, "Damage")
    range = _number(0, weapons.RANGE_MAX, "Range")
    rate = _number(1, weapons.RATE_MAX, "Rate")
    magazine = _number(1, weapons.MAGAZINE_MAX, "Magazine (rounds)")
    chambered = forms.BooleanField(required=False, label="+1 in the chamber")
    strength_bonus = _number(0, weapons.STRENGTH_BONUS_MAX, "Damage: Strength +")
    damage_kind = forms.ChoiceField(
        choices=[("", "Damage type"), *((k, k.capitalize()) for k in weapons.MELEE_DAMAGE_KINDS)],
        required=False, label="Damage type")
    armor = _number(1, ARMOR_DICE_MAX, "Armor dice")

    NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        RANGED: ("damage", "range", "rate", "magazine"),
        MELEE: ("strength_bonus", "damage_kind"), ARMOR: ("armor",)}
    """The fields each kind of item needs."""

    def clean(self) -> dict[str, Any]:
        """A weapon of the seed's tables split into ``what`` and ``weapon``; each field the
        chosen kind needs is filled, each named where it is missing."""
        data = super().clean() or {}
        what = data.get("what") or ""
        if what.startswith(WEAPON_PREFIX):
            data["what"], data["weapon"] = WEAPON, what.removeprefix(WEAPON_PREFIX)
        for name in self.NEEDS.get(what, ()):
            if data.get(name) in (None, ""):
                self.add_error(name, f"Needed for {KINDS[what]}.")
        return data


def _figures_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """A custom ranged weapon's figures as stored, from the form's ``cleaned_data``."""
    return {"damage": data["damage"], "range": data["range"], "rate": data["rate"],
            "magazine": data["magazine"], "chambered": bool(data.get("chambered"))}


def weapon_of(details: Mapping[str, Any], name: str) -> RangedWeapon | MeleeWeapon | None:
    """The weapon an item's ``details`` record (a custom one named ``name``, the item's
    name), or None for gear and armor. Raises RuleError for details no form writes."""
    if "weapon" in details:
        return weapons.catalogue_weapon(details["weapon"])
    if "ranged" in details:
        r = details["ranged"]
        return weapons.custom_ranged(name=name, damage=r["damage"], range=r["range"],
                                     rate=r["rate"], magazine=r["magazine"],
                                     chambered=r["chambered"])
    if "melee" in details:
        m = details["melee"]
        return weapons.custom_melee(name=name, strength_bonus=m["strength_bonus"],
                                    damage_kind=m["damage_kind"])
    return None


def ranged_of(item: Item) -> RangedWeapon:
    """The ranged weapon ``item`` is. Raises RuleError when it is not one."""
    weapon = weapon_of(item.details, item.name)
    if not isinstance(weapon, RangedWeapon):
        raise RuleError(f"{item.name} is not a ranged weapon: it holds no rounds.",
                        weapons.RULE_RANGED)
    return weapon


def _kind(details: Mapping[str, Any]) -> str:
    """What an item is (a key of :data:`KINDS`), from its details."""
    for key, kind in (("weapon", WEAPON), ("ranged", RANGED), ("melee", MELEE),
                      ("armor", ARMOR)):
        if key in details:
            return kind
    return GEAR


def item_initial(item: Item) -> dict[str, Any]:
    """The item form's fields as ``item`` fills them (its page shows what it is)."""
    details = item.details
    kind = _kind(details)
    initial: dict[str, Any] = {
        "what": WEAPON_PREFIX + details["weapon"] if kind == WEAPON else kind}
    for key in ("ranged", "melee"):
        initial.update(details.get(key, {}))
    if "armor" in details:
        initial["armor"] = details["armor"]
    return initial


def new_details(data: Mapping[str, Any], item: Item | None) -> dict[str, Any]:
    """``Item.details`` from the valid :class:`ItemForm`'s ``data`` (see the module
    docstring): ``what`` empty keeps ``item``'s (``{}`` for a new item); a new ranged weapon
    comes loaded to its capacity, a changed one keeps the rounds it holds, at most the new
    capacity. Raises RuleError for figures the rules refuse."""
    what = data.get("what") or ""
    if not what:
        return dict(item.details) if item is not None else {}
    details: dict[str, Any] = {}
    if what == WEAPON:
        details = {"weapon": data["weapon"]}
    elif what == RANGED:
        details = {"ranged": _figures_of(data)}
    elif what == MELEE:
        details = {"melee": {"strength_bonus": data["strength_bonus"],
                             "damage_kind": data["damage_kind"]}}
    elif what == ARMOR:
        details = {"armor": data["armor"]}
    weapon = weapon_of(details, item.name if item is not None else "")
    if isinstance(weapon, RangedWeapon):
        held = item.details.get("loaded") if item is not None else None
        details["loaded"] = (weapon.capacity if not isinstance(held, int)
                             else min(held, weapon.capacity))
    return details


def check_details(details: Any) -> None:
    """Refuse an item's ``details`` that no form of Maelstrom's writes (an import's: see the
    module docstring for the shapes). Raises RuleError naming the first value refused."""
    require(isinstance(details, dict), f"an item's details must be an object, not {details!r}")
    kinds = [key for key in ("weapon", "ranged", "melee", "armor") if key in details]
    require(len(kinds) <= 1, f"an item is one thing at most, not {' and '.join(kinds)}")
    kind = kinds[0] if kinds else ""
    allowed = {kind, "loaded"} if kind in ("ranged", "weapon") else {kind}
    unknown = sorted(set(details) - allowed)
    require(not unknown, f"an item's details hold no {unknown[0]!r}" if unknown else "")
    if kind == "weapon":
        require(isinstance(details["weapon"], str), "an item's weapon must be a key of the "
                "seed's tables")
    elif kind == "ranged":
        figures = details["ranged"]
        require(isinstance(figures, dict) and set(figures) == {
            "damage", "range", "rate", "magazine", "chambered"},
            "a ranged weapon's figures are its damage, range, rate, magazine and chambered")
        for key in ("damage", "range", "rate", "magazine"):
            stored_int(figures[key], f"a ranged weapon's {key}", 0, weapons.RANGE_MAX)
        require(isinstance(figures["chambered"], bool), "'chambered' must be true or false")
    elif kind == "melee":
        figures = details["melee"]
        require(isinstance(figures, dict) and set(figures) == {"strength_bonus", "damage_kind"},
                "a melee weapon's figures are its strength_bonus and damage_kind")
        stored_int(figures["strength_bonus"], "a melee weapon's strength_bonus", 0,
                   weapons.STRENGTH_BONUS_MAX)
        require(isinstance(figures["damage_kind"], str), "'damage_kind' must be text")
    elif kind == "armor":
        stored_int(details["armor"], "an item's armor dice", 1, ARMOR_DICE_MAX, RULE_SOAK)
    weapon = weapon_of(details, "The weapon")  # the rules' own bounds and catalogue
    if isinstance(weapon, RangedWeapon):
        require("loaded" in details, f"{weapon.name} must say how many rounds it holds "
                "('loaded')")
        weapons.check_rounds(weapon, stored_int(details["loaded"], "'loaded'", 0,
                                                weapons.MAGAZINE_MAX + 1))
    else:
        require("loaded" not in details, "only a ranged weapon holds rounds ('loaded')")


# --- fire and reload ------------------------------------------------------------------------


def _rounds(item: Item) -> int:
    """The rounds ``item``, a ranged weapon, holds (0 when its details say none)."""
    held = item.details.get("loaded", 0)
    return held if isinstance(held, int) else 0


def fire(item: Item, character: Character, data: dict[str, Any], by: User) -> str:
    """One shot of the ranged weapon ``item``: one round used (Maelstrom rules.md, Ranged
    Weapons; :func:`rulesets.maelstrom.weapons.fire`). Needs the character's and the item's
    row locks.

    Returns "Fired the Pistol, Heavy: 7 of 8 rounds left." Raises RuleError: "Out of
    rounds: reload." for an empty weapon, or an item that is not a ranged weapon.
    """
    weapon = ranged_of(item)
    left = weapons.fire(weapon, _rounds(item))
    item.details = {**item.details, "loaded": left}
    return f"Fired the {item.name}: {left} of {weapon.capacity} rounds left."


def reload(item: Item, character: Character, data: dict[str, Any], by: User) -> str:
    """Reload the ranged weapon ``item`` to its capacity (:func:`rulesets.maelstrom.weapons.
    reload`: a "7+1" pistol to 8). Needs the character's and the item's row locks.

    Returns "Reloaded the Pistol, Heavy: 8 rounds." Raises RuleError for a full weapon, or
    an item that is not a ranged weapon.
    """
    weapon = ranged_of(item)
    full = weapons.reload(weapon, _rounds(item))
    item.details = {**item.details, "loaded": full}
    return f"Reloaded the {item.name}: {full} rounds."


class NoInput(Form):
    """Firing and reloading take no input: the item is in the URL."""


ITEM_ACTIONS = {
    "fire": ItemAction(form=NoInput, apply=fire, label="Fire"),
    "reload": ItemAction(form=NoInput, apply=reload, label="Reload"),
}
"""What a ranged weapon does in place on the sheet, by ``equipment:item-act``'s action."""


# --- the part of the contract ---------------------------------------------------------------


def _strength(character: Character) -> int | None:
    ref = trait_refs(character.sheet).get("Strength")
    return ref.dots if ref is not None else None


class MaelstromEquipment(EquipmentPart):
    """Maelstrom's hooks of :class:`systems.equipment.EquipmentPart` (see the module
    docstring), which the system's class takes as a base."""

    item_template: ClassVar[str] = "systems/maelstrom/_item.html"
    item_form_template: ClassVar[str] = "systems/maelstrom/_item_form.html"
    inventory_template: ClassVar[str] = "systems/maelstrom/_equipment.html"

    def item_form(self, character: Character, data: Mapping[str, Any] | None = None, *,
                  item: Item | None = None, auto_id: str = "id_%s") -> forms.Form | None:
        """:class:`ItemForm`, filled from ``item`` when it is given."""
        initial = item_initial(item) if item is not None else {"what": GEAR}
        return ItemForm(data, initial=initial, auto_id=auto_id)

    def item_details(self, cleaned_data: Mapping[str, Any], *, item: Item | None = None
                     ) -> dict[str, Any]:
        """:func:`new_details`."""
        return new_details(cleaned_data, item)

    def item_label(self, details: Mapping[str, Any]) -> str:
        """The seed's weapon's name ("Pistol, Heavy") for one of its tables, else ``""``."""
        key = details.get("weapon")
        if not isinstance(key, str):
            return ""
        weapon = weapons.RANGED.get(key) or weapons.MELEE.get(key)
        return weapon.name if weapon is not None else ""

    def item_figures(self, character: Character, item: Item) -> dict[str, Any]:
        """``kind`` (``"ranged"``, ``"melee"``, ``"armor"`` or ``"gear"``) and, for a weapon,
        ``weapon`` (its figures), ``table`` (the seed's row it is, or ``""``); for a ranged
        one ``loaded`` and ``empty``; for a melee one ``damage`` (Strength + the bonus, with
        the character's Strength); for armor ``dice``. No queries."""
        details = item.details
        weapon = weapon_of(details, item.name)
        table = weapon.name if "weapon" in details and weapon is not None else ""
        if isinstance(weapon, RangedWeapon):
            loaded = _rounds(item)
            return {"kind": "ranged", "weapon": weapon, "table": table, "loaded": loaded,
                    "empty": loaded == 0, "full": loaded >= weapon.capacity}
        if isinstance(weapon, MeleeWeapon):
            strength = _strength(character)
            return {"kind": "melee", "weapon": weapon, "table": table,
                    "damage": weapon.damage(strength) if strength is not None else None}
        if "armor" in details:
            return {"kind": "armor", "dice": details["armor"]}
        return {"kind": "gear"}

    def inventory_context(self, character: Character, items: Sequence[Item]
                          ) -> dict[str, Any]:
        """``armor_worn``: each armor item as ``(name, dice)`` in the inventory's order, and
        ``soak_armor``, the first one's dice: the soak roll's armor dice, prefilled (the
        others offered beside it). No queries."""
        worn = [(item.name, item.details["armor"]) for item in items
                if isinstance(item.details.get("armor"), int)]
        return {"armor_worn": worn, "soak_armor": worn[0][1] if worn else 0}

    def check_item(self, details: Any) -> None:
        """:func:`check_details`."""
        check_details(details)

