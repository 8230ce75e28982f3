"""Maelstrom's weapons as the seed's tables print them (Maelstrom rules.md, Ranged Weapons and
Melee Weapons), and the rounds a ranged weapon holds: "7+1" is eight rounds, one shot uses
one, a reload fills it, an empty weapon refuses to fire."""

from __future__ import annotations

import pytest

from rulesets.errors import RuleError
from rulesets.maelstrom import weapons

# The seed's ranged weapons table, as printed: "Weapon Damage Range Rate Capacity".
SEED_RANGED = """
Revolver, Light 4 12 3 6
Revolver, Heavy 6 35 2 6
Pistol, Light 4 20 4 17+1
Pistol, Heavy 5 30 3 7+1
Hunting Rifle 8 200 1 5+1
Battle Rifle 7 150 3 42+1
Sniper Rifle 8 250 1 10+1
Shotgun, Pump 8 20 1 5+1
Shotgun, Auto 8 20 3 8+1
"""

# The seed's melee weapons table: "Weapon Damage Damage Type".
SEED_MELEE = """
Sap Strength + 1 Bashing
Club Strength + 1 Bashing
Staff Strength + 2 Bashing
Knife Strength + 1 Lethal
Sword, Light Strength + 2 Lethal
Sword, Heavy Strength + 3 Lethal
Axe Strength + 3 Lethal
"""


def _ranged_rows() -> list[tuple[str, int, int, int, str]]:
    rows = []
    for line in SEED_RANGED.strip().splitlines():
        *name, damage, range_, rate, capacity = line.split()
        rows.append((" ".join(name), int(damage), int(range_), int(rate), capacity))
    return rows


def _melee_rows() -> list[tuple[str, int, str]]:
    rows = []
    for line in SEED_MELEE.strip().splitlines():
        name, _, rest = line.partition(" Strength + ")
        bonus, kind = rest.split()
        rows.append((name, int(bonus), kind.lower()))
    return rows


def test_the_ranged_catalogue_is_the_seeds_table_row_by_row_in_its_order() -> None:
    catalogue = [(w.name, w.damage, w.range, w.rate, w.capacity_text)
                 for w in weapons.RANGED.values()]

    assert catalogue == _ranged_rows()


def test_the_melee_catalogue_is_the_seeds_table_row_by_row_in_its_order() -> None:
    catalogue = [(w.name, w.strength_bonus, w.damage_kind) for w in weapons.MELEE.values()]

    assert catalogue == _melee_rows()


@pytest.mark.parametrize(("key", "figures"), [
    ("pistol-heavy", ("Pistol, Heavy", 5, 30, 3, "7+1", 8)),
    ("sniper-rifle", ("Sniper Rifle", 8, 250, 1, "10+1", 11)),
    ("revolver-light", ("Revolver, Light", 4, 12, 3, "6", 6)),
    ("battle-rifle", ("Battle Rifle", 7, 150, 3, "42+1", 43)),
])
def test_a_capacity_of_7_plus_1_holds_the_magazine_and_one_in_the_chamber(key, figures) -> None:  # type: ignore[no-untyped-def]
    weapon = weapons.RANGED[key]

    assert (weapon.name, weapon.damage, weapon.range, weapon.rate, weapon.capacity_text,
            weapon.capacity) == figures


def test_a_melee_weapons_damage_is_the_wielders_strength_plus_its_bonus() -> None:
    knife, heavy_sword = weapons.MELEE["knife"], weapons.MELEE["sword-heavy"]

    assert (knife.damage_text, knife.damage(2), knife.damage_kind) == (
        "Strength + 1", 3, "lethal")
    assert (heavy_sword.damage_text, heavy_sword.damage(4)) == ("Strength + 3", 7)


def test_a_heavy_pistol_fires_eight_times_then_is_out_of_rounds() -> None:
    pistol = weapons.RANGED["pistol-heavy"]
    rounds = pistol.capacity
    left = []
    for _ in range(8):
        rounds = weapons.fire(pistol, rounds)
        left.append(rounds)

    assert left == [7, 6, 5, 4, 3, 2, 1, 0]
    with pytest.raises(RuleError, match="Out of rounds: reload") as refused:
        weapons.fire(pistol, rounds)
    assert refused.value.rule == "Maelstrom rules.md, Ranged Weapons"


def test_one_shot_uses_one_round_whatever_the_rate() -> None:
    light_pistol = weapons.RANGED["pistol-light"]  # rate 4

    assert weapons.fire(light_pistol, 18) == 17


def test_a_reload_fills_the_weapon_to_its_capacity() -> None:
    assert weapons.reload(weapons.RANGED["pistol-heavy"], 0) == 8
    assert weapons.reload(weapons.RANGED["revolver-heavy"], 2) == 6
    assert weapons.reload(weapons.RANGED["sniper-rifle"], 10) == 11


def test_a_full_weapon_is_not_reloaded() -> None:
    with pytest.raises(RuleError, match=r"already full: 8 rounds \(7\+1\)"):
        weapons.reload(weapons.RANGED["pistol-heavy"], 8)


@pytest.mark.parametrize("rounds", [-1, 9])
def test_a_weapon_never_holds_more_than_its_capacity_nor_fewer_than_none(rounds: int) -> None:
    with pytest.raises(RuleError, match="holds 0 to 8 rounds"):
        weapons.fire(weapons.RANGED["pistol-heavy"], rounds)


def test_a_weapon_of_the_tables_own_making_takes_the_tables_columns() -> None:
    carbine = weapons.custom_ranged(name="Carbine", damage=6, range=100, rate=2, magazine=20,
                                    chambered=True)
    bat = weapons.custom_melee(name="Bat", strength_bonus=1, damage_kind="bashing")

    assert (carbine.capacity_text, carbine.capacity) == ("20+1", 21)
    assert (bat.damage_text, bat.damage_kind) == ("Strength + 1", "bashing")


@pytest.mark.parametrize("figures", [
    {"damage": 21}, {"range": -1}, {"rate": 0}, {"magazine": 0}, {"magazine": 501},
])
def test_a_weapon_of_the_tables_own_making_is_refused_out_of_bounds(figures) -> None:  # type: ignore[no-untyped-def]
    made = {"name": "Odd", "damage": 5, "range": 30, "rate": 3, "magazine": 7,
            "chambered": True, **figures}
    with pytest.raises(RuleError, match="A weapon's"):
        weapons.custom_ranged(**made)


def test_a_melee_weapon_deals_one_of_the_seeds_damage_types() -> None:
    with pytest.raises(RuleError, match="bashing, lethal or aggravated"):
        weapons.custom_melee(name="Odd", strength_bonus=1, damage_kind="psychic")


def test_a_key_outside_the_tables_is_no_weapon() -> None:
    with pytest.raises(RuleError, match="not a weapon of the seed's tables"):
        weapons.catalogue_weapon("laser-sword")
