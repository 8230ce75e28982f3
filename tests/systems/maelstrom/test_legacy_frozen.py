"""The Maelstrom upgrade's frozen conversions against the live ones: on the same old rows,
characters 0005 and rolls 0009 (their copies in characters/migrations/_maelstrom_0005.py and
rolls/migrations/_maelstrom_0009.py, reached through the migrations that run them) give what
systems/maelstrom/legacy.py gives, byte for byte as a JSON column stores it (key order
included), and refuse the same rows with the same error and message (the live engine's
``RuleError``, the frozen ``Unreadable``). And the live Maelstrom sheet reads a converted
character as its old rows held it.

The rows: every fixture of tests/migrations/maelstrom_rows.py (the upgrade's demo campaign and
its long campaign of 10,000 rolls among them), every way to damage a stored roll, and seeded
sweeps of old rows of every shape.

The migrations never change with the live code; this test ties the two together as they are,
so a change to the live conversion (which the version-1 import of old export files still
runs) fails here, where it is decided whether old files may read differently from databases
already upgraded.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rulesets import maelstrom
from rulesets.errors import RuleError
from systems.maelstrom import legacy
from systems.maelstrom import sheet as maelstrom_sheet
from tests.migrations.maelstrom_rows import (
    BEN,
    COLUMNS,
    DAMAGED_ROLL,
    DEMO_CHARACTERS,
    DEMO_REQUESTS,
    GHOST,
    MERITS_FLAWS,
    REQUESTS,
    ROLL,
    TRAITS,
    TRAITS_OFF_CATALOGUE,
    WILLPOWER_POOL,
    WILLPOWER_SPENT,
    demo_results,
    long_campaign_results,
    merit_rows,
    roll_columns,
    trait_rows,
)

SHEET = importlib.import_module("characters.migrations.0005_maelstrom_sheet")
RESULTS = importlib.import_module("rolls.migrations.0009_maelstrom_results")

SWEEP = 500
"""Old rows of each kind drawn at random, seeded."""


def _converted(convert: Callable[..., Any], *row: Any) -> tuple[Any, ...]:
    """What ``convert`` makes of ``row``: ``("value", the JSON text stored, the value)``, or
    ``("refused", message, rule)`` for the engine's refusal, or ``(error type, args)``."""
    try:
        value = convert(*row)
    except (RuleError, RESULTS.Unreadable) as error:
        return "refused", error.message, error.rule
    except (KeyError, ValueError) as error:
        return type(error).__name__, error.args
    return "value", json.dumps(value), value


def _assert_same(frozen: Callable[..., Any], live: Callable[..., Any], *row: Any) -> None:
    assert _converted(frozen, *row) == _converted(live, *row), row


# --- Sheets ----------------------------------------------------------------------------------


def _sheet_rows() -> Iterator[tuple[Any, ...]]:
    """``(columns, traits, merits and flaws)``: the fixtures, then a seeded sweep (catalogue
    and unknown names, specialties owned or refunded, details NULL, now and then a value
    that is not a whole number or a missing field)."""
    yield COLUMNS, TRAITS, MERITS_FLAWS
    yield COLUMNS, TRAITS_OFF_CATALOGUE, []
    yield {**COLUMNS, "willpower_current": "2"}, [], []
    yield {}, [], []
    for spec in DEMO_CHARACTERS:
        yield spec["columns"], trait_rows(spec), merit_rows(spec)
    rng = random.Random(5)
    attributes = [*maelstrom.ATTRIBUTES, "Charm"]
    abilities = [*maelstrom.ABILITIES, "Basket Weaving"]
    odd: list[Any] = [True, "3", None, 2.0]

    def number(high: int) -> Any:
        return rng.choice(odd) if rng.random() < 0.005 else rng.randint(0, high)

    for _ in range(SWEEP):
        columns: dict[str, Any] = {
            "willpower_permanent": number(10), "willpower_current": number(10),
            "health_bashing": number(9), "health_lethal": number(9),
            "health_aggravated": number(9), "dead": rng.choice([True, False, 0, 1]),
            "huge_size": rng.choice([True, False, 0, 1]),
        }
        if rng.random() < 0.02:
            del columns[rng.choice(sorted(columns))]
        traits: list[dict[str, Any]] = []
        for name in rng.sample(attributes, rng.randint(0, len(attributes))):
            traits.append({"kind": "attribute", "name": name, "group": "", "ability": "",
                           "advanced": False, "dots": number(5), "position": len(traits)})
        for name in rng.sample(abilities, rng.randint(0, len(abilities))):
            traits.append({"kind": "ability", "name": name, "group": "", "ability": "",
                           "advanced": False, "dots": number(5), "position": len(traits)})
        for n in range(rng.randint(0, 5)):
            traits.append({"kind": "specialty", "name": f"Specialty {n}",
                           "group": "", "ability": rng.choice(abilities),
                           "advanced": rng.choice([True, False]), "dots": number(1),
                           "position": 0})
        rng.shuffle(traits)
        merits = [{"kind": rng.choice(["merit", "flaw"]),
                   "name": rng.choice(["Huge Size", "Hunted", "Addict", "Acute Sense"]),
                   "points": number(8), "detail": rng.choice([None, "", "stims", "sight"])}
                  for _ in range(rng.randint(0, 4))]
        if merits and rng.random() < 0.02:
            del merits[0]["detail"]
        yield columns, traits, merits


def test_every_sheet_is_converted_as_the_live_code_converts_it() -> None:
    rows = list(_sheet_rows())
    assert len(rows) > SWEEP
    for row in rows:
        _assert_same(SHEET.sheet_from_rows, legacy.sheet_from_rows, *row)
    # Both ways are taken: the comparison is not of refusals alone, nor of none.
    outcomes = [_converted(legacy.sheet_from_rows, *row)[0] for row in rows]
    assert {"value", "ValueError", "KeyError"} <= set(outcomes)
    assert outcomes.count("value") > len(rows) // 2


def test_the_sheet_reads_the_same_columns() -> None:
    assert SHEET.CHARACTER_COLUMNS == legacy.CHARACTER_COLUMNS


def _as_the_live_sheet_reads_it(sheet: dict[str, Any]) -> dict[str, Any]:
    refs = maelstrom_sheet.trait_refs(sheet)
    chart = maelstrom_sheet.health(sheet)
    return {
        "attributes": {name: ref.dots for name, ref in refs.items() if ref.kind == "attribute"},
        "abilities": {name: ref.dots for name, ref in refs.items() if ref.kind == "ability"},
        "specialties": [(ref.ability, ref.name, ref.advanced)
                        for ref in maelstrom_sheet.specialty_refs(sheet).values()],
        "merits_flaws": [(m["kind"], m["name"], m["points"], m["detail"])
                         for m in sheet["merits_flaws"]],
        "willpower": maelstrom_sheet.willpower(sheet),
        "health": (chart.bashing, chart.lethal, chart.aggravated, chart.dead, chart.huge_size),
    }


def _as_the_rows_held_it(spec: dict[str, Any]) -> dict[str, Any]:
    traits, columns = trait_rows(spec), spec["columns"]
    return {
        "attributes": {t["name"]: t["dots"] for t in traits if t["kind"] == "attribute"},
        "abilities": {t["name"]: t["dots"] for t in traits if t["kind"] == "ability"},
        "specialties": [(t["ability"], t["name"], t["advanced"]) for t in traits
                        if t["kind"] == "specialty" and t["dots"] > 0],
        "merits_flaws": sorted((m["kind"], m["name"], m["points"], m["detail"])
                               for m in merit_rows(spec)),
        "willpower": (columns["willpower_permanent"], columns["willpower_current"]),
        "health": (columns["health_bashing"], columns["health_lethal"],
                   columns["health_aggravated"], columns["dead"], columns["huge_size"]),
    }


def _upgraded(spec: dict[str, Any]) -> dict[str, Any]:
    sheet: dict[str, Any] = SHEET.sheet_from_rows(spec["columns"], trait_rows(spec),
                                                  merit_rows(spec))
    return sheet


@pytest.mark.parametrize("spec", DEMO_CHARACTERS, ids=lambda spec: spec["name"])
def test_the_live_sheet_reads_an_upgraded_character_as_its_rows_held_it(
        spec: dict[str, Any]) -> None:
    sheet = _upgraded(spec)

    assert _as_the_live_sheet_reads_it(sheet) == _as_the_rows_held_it(spec)
    assert set(sheet["abilities"]) == set(maelstrom.ABILITIES)


def test_the_live_sheet_reads_the_upgraded_merits_and_death() -> None:
    ben, ghost = _upgraded(BEN), _upgraded(GHOST)

    assert maelstrom_sheet.has_merit(ben, "Huge Size")
    assert maelstrom_sheet.health(ben).boxes == 9
    assert maelstrom_sheet.is_dead(ghost)
    assert not maelstrom_sheet.is_dead(ben)


# --- Roll results ----------------------------------------------------------------------------


def _damaged_rolls() -> Iterator[dict[str, Any]]:
    """:data:`ROLL` damaged every way a stored roll can be: each pool field missing or of
    the wrong type, an unknown pool kind, a difficulty, threshold or automatic successes out
    of range, a face outside 1-10 among the dice, bonus dice or experience die, a column not a
    list, the pool not a mapping, a column missing."""
    pool: dict[str, Any] = dict(WILLPOWER_POOL)
    wrong: dict[str, list[Any]] = {
        "kind": [7, None, "attack"], "dice": [True, "4", None, 4.0],
        "difficulty": [1, 11, True, "7"], "threshold": [-1, None],
        "exploding": [1, None], "wound_penalty": [False, "0"],
        "traits": ["Willpower", [1], None], "specialties": [(), [None]],
        "automatic_successes": [-1, 1.5], "experience_die_allowed": [0, "yes"],
        "notes": [None, [2]],
    }
    for key, values in wrong.items():
        yield {**ROLL, "pool": {k: v for k, v in pool.items() if k != key}}
        for value in values:
            yield {**ROLL, "pool": {**pool, key: value}}
    for column in ("dice", "bonus_dice", "experience_die"):
        for value in ([0], [11], [True], ["7"], "7", None, (7, 8)):
            yield {**ROLL, column: value}
    for value in (None, [], "pool"):
        yield {**ROLL, "pool": value}
    for column in ("pool", "dice", "bonus_dice", "experience_die"):
        yield {k: v for k, v in ROLL.items() if k != column}
    yield DAMAGED_ROLL


def _swept_rolls() -> Iterator[dict[str, Any]]:
    """Old roll rows of every pool kind, difficulty, threshold and automatic successes, with
    any number of dice, bonus dice and experience dice, now and then a face out of range."""
    rng = random.Random(9)

    def faces(most: int, high: int) -> list[int]:
        return [rng.randint(1, high) for _ in range(rng.randint(0, most))]

    for _ in range(SWEEP * 4):
        kind = rng.choice(maelstrom.POOL_KINDS)
        pool = {
            "kind": kind, "dice": rng.randint(0, 12), "difficulty": rng.randint(2, 10),
            "threshold": rng.randint(0, 3), "exploding": rng.choice([True, False]),
            "wound_penalty": rng.randint(0, 5),
            "traits": rng.sample(["Precision", "Driving", "Willpower", "Armor"],
                                 rng.randint(0, 2)),
            "specialties": rng.sample(["Motorcycles", "Cars"], rng.randint(0, 2)),
            "automatic_successes": rng.randint(0, 2),
            "experience_die_allowed": rng.choice([True, False]),
            "notes": rng.sample(["Wound penalty -1", "Specialty used"], rng.randint(0, 2)),
        }
        high = 11 if rng.random() < 0.1 else 10
        yield {"pool": pool, "dice": faces(12, high), "bonus_dice": faces(4, high),
               "experience_die": faces(2, high)}


def _roll_rows() -> Iterator[dict[str, Any]]:
    """Every old roll row compared: the fixtures, the upgrade's demo and long campaigns, the
    damaged rows and the sweep; each with verdict columns, for ``result_as_stored``."""
    willpower = maelstrom.build_willpower_pool(current=4, difficulty=7, threshold=1)
    yield ROLL
    yield {**ROLL, "pool": willpower.as_dict()}
    results = demo_results()
    for name, result in results.items():
        yield roll_columns(result)
        if name == "ben_willpower":
            yield roll_columns(result, **WILLPOWER_SPENT)
    for result in long_campaign_results(10_000):
        yield roll_columns(result)
    yield from _damaged_rolls()
    yield from _swept_rolls()


VERDICT = {"net": 0, "botches": 1, "outcome": "botch", "summary": "Botch (1 botch)"}


def test_every_roll_is_converted_as_the_live_code_converts_it() -> None:
    # One test, not one per row: 12,000 rows, each compared whole.
    rows = list(_roll_rows())
    assert len(rows) > 12_000
    refused = 0
    for row in rows:
        _assert_same(RESULTS.result_from_columns, legacy.result_from_columns, row)
        whole = {**VERDICT, **row}
        _assert_same(RESULTS.result_as_stored, legacy.result_as_stored, whole)
        converted = _converted(legacy.result_from_columns, row)
        refused += converted[0] == "refused"
        if converted[0] == "value":
            assert RESULTS.is_full_result(converted[2]) and legacy.is_full_result(converted[2])
    # Both ways are taken often: the comparison is not of refusals alone, nor of none.
    assert 100 < refused < len(rows) // 2


NPC = demo_results()["npc"].as_dict()
"""An NPC's quick roll, stored whole."""


@pytest.mark.parametrize("stored", [
    {}, None, [], "maelstrom", {"system": "maelstrom"}, NPC, {**NPC, "system": "genesys"},
    *({k: v for k, v in NPC.items() if k != key}
      for key in ("pool", "dice", "bonus_dice", "experience_die", "resolution", "summary")),
])
def test_a_result_is_whole_for_both_alike(stored: object) -> None:
    assert RESULTS.is_full_result(stored) == legacy.is_full_result(stored)


# --- Requests --------------------------------------------------------------------------------


def _request_rows() -> Iterator[dict[str, Any]]:
    yield from (row for row, _, _ in REQUESTS)
    yield from DEMO_REQUESTS.values()
    action = DEMO_REQUESTS["outrun"]
    yield {**action, "difficulty": "7"}
    yield {**action, "threshold": True}
    yield {**action, "threshold": None}
    yield {**action, "traits": ("Precision", "Driving")}
    yield {**action, "data": {}, "description": None}
    yield {**action, "data": {"skill": "Melee"}, "description": None}
    yield {k: v for k, v in action.items() if k != "kind"}
    yield {"kind": "willpower", "traits": ["Willpower"], "difficulty": 8, "threshold": 2}
    rng = random.Random(11)
    for _ in range(SWEEP):
        kind = rng.choice(["action", "willpower"])
        traits = (rng.sample(["Precision", "Driving", "Wits", "Medicine"], rng.randint(1, 2))
                  if kind == "action" else [])
        yield {"kind": kind, "traits": traits, "difficulty": rng.randint(2, 10),
               "threshold": rng.randint(0, 3)}


def test_every_request_is_converted_as_the_live_code_converts_it() -> None:
    rows = list(_request_rows())
    assert len(rows) > SWEEP
    for row in rows:
        _assert_same(RESULTS.request_from_columns, legacy.request_from_columns, row)
    outcomes = {_converted(legacy.request_from_columns, row)[0] for row in rows}
    assert outcomes == {"value", "ValueError", "KeyError"}
