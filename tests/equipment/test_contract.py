"""The contract's equipment part (systems/equipment.py): every system has it, its defaults add
nothing to the shared inventory, and every member says what it is."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest
from django import forms

import systems
from equipment.models import Item
from rulesets.errors import RuleError
from rulesets.registry import RULESETS
from systems.equipment import EquipmentPart


class Minimal(systems.SheetSystem):
    def roll_form(self, character: Any, data: Any = None) -> forms.Form:
        return forms.Form(data)

    def roll(self, character: Any, cleaned_data: Any, rng: Any) -> systems.RolledResult:
        raise NotImplementedError


def test_every_system_has_the_equipment_part() -> None:
    assert issubclass(systems.SheetSystem, EquipmentPart)
    for slug in RULESETS:
        assert isinstance(systems.for_ruleset(slug), EquipmentPart), slug


def test_a_system_without_equipment_rules_adds_nothing_to_the_inventory() -> None:
    system = Minimal(slug="minimal")
    rope = Item(name="Rope", details={})

    assert system.item_actions == {}
    assert (system.item_template, system.item_form_template, system.inventory_template) == (
        "", "", "")
    assert system.item_form(None) is None  # type: ignore[arg-type]  # the default reads nothing
    assert system.item_details({}) == {}
    assert system.item_details({}, item=Item(details={"kept": 1})) == {"kept": 1}
    assert system.item_label({}) == ""
    assert system.item_figures(None, rope) == {}  # type: ignore[arg-type]
    assert system.inventory_context(None, [rope]) == {}  # type: ignore[arg-type]
    system.check_item({})
    with pytest.raises(RuleError, match="holds nothing but its name, quantity and note"):
        system.check_item({"weapon": "knife"})


def test_the_part_needs_nothing_to_be_built() -> None:
    assert all(f.default is not dataclasses.MISSING or f.default_factory is not
               dataclasses.MISSING for f in dataclasses.fields(EquipmentPart) if f.name != "slug")


def test_every_member_of_the_part_says_what_it_is() -> None:
    source = inspect.getsource(EquipmentPart)
    for name in [*vars(EquipmentPart), *EquipmentPart.__annotations__]:
        if name.startswith("_"):
            continue
        member = inspect.getattr_static(EquipmentPart, name, None)
        if callable(member):
            assert inspect.getdoc(member), name
        else:
            line = next(ln for ln in source.splitlines() if ln.strip().startswith(f"{name}:"))
            assert source.split(line, 1)[1].lstrip().startswith('"""'), name
