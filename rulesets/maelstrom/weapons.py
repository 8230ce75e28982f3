"""Maelstrom's weapons: the seed's ranged and melee tables as a catalogue, weapons of the
table's own making, and the rounds a ranged weapon holds (Maelstrom rules.md, Equipment:
Ranged Weapons, Melee Weapons).

The seed gives figures and no rule for using them: its Weapons, Armor, Combat, Attacking and
Evading sections say "This section isn't ready yet". So this module keeps the figures as the
tables print them and the one thing they say of themselves, how many rounds a ranged weapon
holds; it rolls no attack and no damage, and gives no unit the seed does not (a range is
the table's number, as printed).

What the columns mean, as far as the seed lets them:

- **Damage**: a ranged weapon's is a number (Pistol, Heavy: 5); a melee weapon's is the
  wielder's Strength plus a bonus (Knife: "Strength + 1"), of a damage type (bashing or
  lethal; Maelstrom rules.md, Types of Damage).
- **Range** and **Rate**: numbers, shown as they are. The seed defines neither (rate reads as
  shots a turn, but Turns and Attacking are unwritten), so nothing here spends or limits by
  them: one shot uses one round, whatever the rate.
- **Capacity**: "7+1" is a magazine of 7 rounds plus one in the chamber, 8 rounds in the
  weapon when it is full; a revolver's "6" is its cylinder, with no chamber to add. A
  reload fills the weapon to its whole capacity (the seed writes no rule on chambering a
  round, so none is invented).

Units: rounds (cartridges in the weapon), dice nowhere. Every refusal raises
:class:`~rulesets.errors.RuleError` citing the table it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import _rule

RULE_RANGED = _rule("Ranged Weapons")
"""The seed's ranged weapons table (Maelstrom rules.md, Equipment, Ranged Weapons)."""
RULE_MELEE = _rule("Melee Weapons")
"""The seed's melee weapons table (Maelstrom rules.md, Equipment, Melee Weapons)."""

MELEE_DAMAGE_KINDS: tuple[str, ...] = ("bashing", "lethal", "aggravated")
"""The damage types a melee weapon deals (Maelstrom rules.md, Types of Damage); the table's
own are bashing and lethal, a weapon of the table's making may burn (aggravated)."""

# Bounds of a weapon of the table's own making: the seed's largest figures with room to spare
# (its largest magazine is the Battle Rifle's 42), so a typo is refused, never a belt-fed gun.
DAMAGE_MAX = 20
RANGE_MAX = 10_000
RATE_MAX = 10
MAGAZINE_MAX = 500
STRENGTH_BONUS_MAX = 10


@dataclass(frozen=True)
class RangedWeapon:
    """A row of the seed's ranged weapons table, or a weapon of its shape.

    Attributes:
        name: as the table names it ("Pistol, Heavy").
        damage: the table's damage figure.
        range: the table's range figure (no unit in the seed).
        rate: the table's rate figure.
        magazine: rounds in the magazine or cylinder (the "7" of "7+1").
        chambered: whether one more round sits in the chamber (the "+1").
    """

    name: str
    damage: int
    range: int
    rate: int
    magazine: int
    chambered: bool

    @property
    def capacity(self) -> int:
        """Rounds the weapon holds when full: the magazine plus the chambered round ("7+1"
        holds 8)."""
        return self.magazine + int(self.chambered)

    @property
    def capacity_text(self) -> str:
        """The capacity as the table prints it: ``"7+1"``, or ``"6"`` for a revolver."""
        return f"{self.magazine}+1" if self.chambered else str(self.magazine)


@dataclass(frozen=True)
class MeleeWeapon:
    """A row of the seed's melee weapons table, or a weapon of its shape.

    Attributes:
        name: as the table names it ("Sword, Light").
        strength_bonus: what the weapon adds to the wielder's Strength (the "+ 2" of
            "Strength + 2").
        damage_kind: bashing, lethal or aggravated.
    """

    name: str
    strength_bonus: int
    damage_kind: str

    @property
    def damage_text(self) -> str:
        """The damage as the table prints it: ``"Strength + 2"``."""
        return f"Strength + {self.strength_bonus}"

    def damage(self, strength: int) -> int:
        """The damage figure for a wielder of ``strength`` dots: Strength plus the bonus
        (the table's "Strength + N" worked out; nothing is rolled)."""
        return strength + self.strength_bonus


RANGED: dict[str, RangedWeapon] = {
    "revolver-light": RangedWeapon("Revolver, Light", 4, 12, 3, 6, False),
    "revolver-heavy": RangedWeapon("Revolver, Heavy", 6, 35, 2, 6, False),
    "pistol-light": RangedWeapon("Pistol, Light", 4, 20, 4, 17, True),
    "pistol-heavy": RangedWeapon("Pistol, Heavy", 5, 30, 3, 7, True),
    "hunting-rifle": RangedWeapon("Hunting Rifle", 8, 200, 1, 5, True),
    "battle-rifle": RangedWeapon("Battle Rifle", 7, 150, 3, 42, True),
    "sniper-rifle": RangedWeapon("Sniper Rifle", 8, 250, 1, 10, True),
    "shotgun-pump": RangedWeapon("Shotgun, Pump", 8, 20, 1, 5, True),
    "shotgun-auto": RangedWeapon("Shotgun, Auto", 8, 20, 3, 8, True),
}
"""The seed's ranged weapons table, row by row in its order, by a key of our own
(Maelstrom rules.md, Ranged Weapons: "Weapon Damage Range Rate Capacity")."""

MELEE: dict[str, MeleeWeapon] = {
    "sap": MeleeWeapon("Sap", 1, "bashing"),
    "club": MeleeWeapon("Club", 1, "bashing"),
    "staff": MeleeWeapon("Staff", 2, "bashing"),
    "knife": MeleeWeapon("Knife", 1, "lethal"),
    "sword-light": MeleeWeapon("Sword, Light", 2, "lethal"),
    "sword-heavy": MeleeWeapon("Sword, Heavy", 3, "lethal"),
    "axe": MeleeWeapon("Axe", 3, "lethal"),
}
"""The seed's melee weapons table, row by row in its order, by a key of our own
(Maelstrom rules.md, Melee Weapons: "Weapon Damage Damage Type")."""


def catalogue_weapon(key: str) -> RangedWeapon | MeleeWeapon:
    """The seed's weapon ``key`` (a key of :data:`RANGED` or :data:`MELEE`).

    Raises:
        RuleError: no weapon of the seed's tables has that key.
    """
    weapon = RANGED.get(key) or MELEE.get(key)
    if weapon is None:
        raise RuleError(f"{key!r} is not a weapon of the seed's tables.", RULE_RANGED)
    return weapon


def _within(value: int, low: int, high: int, what: str, rule: str) -> None:
    if not low <= value <= high:
        raise RuleError(f"A weapon's {what} is between {low} and {high}, not {value}.", rule)


def custom_ranged(*, name: str, damage: int, range: int, rate: int, magazine: int,
                  chambered: bool) -> RangedWeapon:
    """A ranged weapon of the table's own making, in the shape of the seed's table (its
    figures as the table's columns: :class:`RangedWeapon`).

    Raises:
        RuleError: a figure out of bounds: damage 0-:data:`DAMAGE_MAX`, range
            0-:data:`RANGE_MAX`, rate 1-:data:`RATE_MAX`, magazine 1-:data:`MAGAZINE_MAX`.
    """
    _within(damage, 0, DAMAGE_MAX, "damage", RULE_RANGED)
    _within(range, 0, RANGE_MAX, "range", RULE_RANGED)
    _within(rate, 1, RATE_MAX, "rate", RULE_RANGED)
    _within(magazine, 1, MAGAZINE_MAX, "magazine", RULE_RANGED)
    return RangedWeapon(name, damage, range, rate, magazine, chambered)


def custom_melee(*, name: str, strength_bonus: int, damage_kind: str) -> MeleeWeapon:
    """A melee weapon of the table's own making, in the shape of the seed's table:
    "Strength + ``strength_bonus``" of ``damage_kind`` damage.

    Raises:
        RuleError: a bonus outside 0-:data:`STRENGTH_BONUS_MAX`, or a damage type that is
            not one of :data:`MELEE_DAMAGE_KINDS`.
    """
    _within(strength_bonus, 0, STRENGTH_BONUS_MAX, "Strength bonus", RULE_MELEE)
    if damage_kind not in MELEE_DAMAGE_KINDS:
        raise RuleError(f"A weapon deals bashing, lethal or aggravated damage, not "
                        f"{damage_kind!r}.", _rule("Types of Damage"))
    return MeleeWeapon(name, strength_bonus, damage_kind)


def check_rounds(weapon: RangedWeapon, rounds: int) -> None:
    """Refuse a count of rounds ``weapon`` cannot hold (fewer than none, more than its
    capacity: a "7+1" pistol holds at most 8).

    Raises:
        RuleError: naming the count and the capacity.
    """
    if not 0 <= rounds <= weapon.capacity:
        raise RuleError(f"{weapon.name} holds 0 to {weapon.capacity} rounds "
                        f"({weapon.capacity_text}), not {rounds}.", RULE_RANGED)


def fire(weapon: RangedWeapon, rounds: int) -> int:
    """One shot of ``weapon`` loaded with ``rounds``: one round used, whatever its rate.

    Returns:
        The rounds left in the weapon.

    Raises:
        RuleError: "Out of rounds: reload." when the weapon is empty; a count it cannot
            hold (:func:`check_rounds`).
    """
    check_rounds(weapon, rounds)
    if rounds == 0:
        raise RuleError("Out of rounds: reload.", RULE_RANGED)
    return rounds - 1


def reload(weapon: RangedWeapon, rounds: int) -> int:
    """Reload ``weapon``, which holds ``rounds``: it is filled to its capacity (a "7+1"
    pistol to 8 rounds).

    Returns:
        The rounds in the weapon after the reload: its capacity.

    Raises:
        RuleError: the weapon is already full; a count it cannot hold
            (:func:`check_rounds`).
    """
    check_rounds(weapon, rounds)
    if rounds == weapon.capacity:
        raise RuleError(f"{weapon.name} is already full: {rounds} rounds "
                        f"({weapon.capacity_text}).", RULE_RANGED)
    return weapon.capacity
