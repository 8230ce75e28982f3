"""A Shahquest sheet as facts (systems/shahquest/history.py), which the activity log diffs
before and after each change and the between-sessions page undoes: in the sheet's words and
order, and moved by every change the sheet's actions make."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

import systems
from characters.models import Character
from tests import shahquest_cast as cast
from tests.system_fixtures import demo_character, fixtures_for, form_data, sheet_change

pytestmark = pytest.mark.django_db

sq_campaign, demetri = cast.sq_campaign, cast.demetri

SYSTEM = systems.for_ruleset("shahquest")


def test_demetris_sheet_reads_in_the_sheets_words_and_order(demetri):
    assert list(SYSTEM.sheet_facts(demetri).items()) == [
        ("Plot points", "1"),
        ("Physical stress", "none"), ("Physical trauma", "none"),
        ("Mental stress", "none"), ("Mental trauma", "none"),
        ("Emotional stress", "none"), ("Emotional trauma", "none"),
        ("Affiliations · Solo", "d4"), ("Affiliations · Partner", "d6"),
        ("Affiliations · Gang", "d8"),
        ("Attributes · Coordination", "d10"), ("Attributes · Wits", "d8"),
        ("Attributes · Brawn", "d6"),
        ("Skills · Physical", "d8"), ("Skills · Physical · Athletics", "spreads"),
        ("Skills · Combat", "d6"),
        ("Quirks · I've got your back", "d8"),
        ("Resources · Grappling hook", "d6"),
        ("Power sets · Thief's luck · Shadow step", "d6"),
        ("Power sets · Thief's luck · SFX Vanish",
         "Spend a plot point to step out of sight after a success."),
        ("Power sets · Thief's luck · Limit Bright light",
         "Earn a plot point when bright light shuts the power down."),
    ]


def test_a_stressed_out_character_waiting_on_the_gms_opportunity(demetri):
    """What the tracks card says, fact by fact: stressed out at d12 with d6 trauma whose next
    recovery waits, a stepped up push die and a step up bought for the next roll, and the
    stress just taken whose type a plot point may still change."""
    sheet = copy.deepcopy(demetri.sheet)
    sheet["stress"]["emotional"] = {"stress": 12, "stressed_out": True, "trauma": 6,
                                    "taken_out": False}
    sheet["stress"]["physical"] = {"stress": None, "stressed_out": False, "trauma": 12,
                                   "taken_out": True}
    sheet["trauma_recovery"] = {"emotional": "2026-05-08"}
    sheet["next_roll"] = {"push_die": True, "step_up": True}
    sheet["stress_taken"] = {"kind": "emotional", "die": 6,
                             "before": copy.deepcopy(demetri.sheet["stress"])}

    facts = SYSTEM.sheet_facts(demetri, sheet)

    assert facts["Next roll"] == "a stepped up push die (d8) and a step up of one die"
    assert facts["Stress just taken"] == "d6 emotional"
    assert facts["Emotional stress"] == "d12, stressed out"
    assert facts["Emotional trauma"] == "d6, next recovery from 8 May 2026"
    assert facts["Physical trauma"] == "taken out (trauma past d12)"


def _each_field_changed(sheet: dict[str, Any]) -> dict[str, Callable[[dict[str, Any]], None]]:
    """One change of each value a stored sheet keeps, by what it changes."""
    def feature(index: int, **values: Any) -> Callable[[dict[str, Any]], None]:
        return lambda s: s["features"][index].update(values)

    def line(kind: str, **values: Any) -> Callable[[dict[str, Any]], None]:
        return lambda s: s["stress"][kind].update(values)

    return {
        "plot points": lambda s: s.update(plot_points=2),
        "a push die waiting": lambda s: s.update(next_roll={"push_die": True}),
        "a step up waiting": lambda s: s.update(next_roll={"step_up": True}),
        "stress just taken": lambda s: s.update(stress_taken={
            "kind": "mental", "die": 6, "before": copy.deepcopy(sheet["stress"])}),
        "physical stress": line("physical", stress=8),
        "mental stress": line("mental", stress=8),
        "emotional stress stressed out": line("emotional", stress=12, stressed_out=True,
                                              trauma=4),
        "emotional stress d12": line("emotional", stress=12, trauma=4),
        "physical trauma": line("physical", trauma=4),
        "physical taken out": line("physical", trauma=12, taken_out=True),
        "a trauma recovery day": lambda s: (line("physical", trauma=4)(s), s.update(
            trauma_recovery={"physical": "2026-05-08"})),
        "an affiliation's die": feature(0, die=6),
        "a spread Solo": feature(0, die=8, count=2),
        "an attribute's die": feature(3, die=12),
        "an attribute's name": feature(3, name="Grace"),
        "a specialization's use": lambda s: s["features"][6]["specializations"][0].update(
            use="step_up"),
        "a new specialization": lambda s: s["features"][7]["specializations"].append(
            {"name": "Knives", "use": "step_up"}),
        "a quirk's name": feature(8, name="Reckless"),
        "a resource gone": lambda s: s["features"].pop(9),
        "a power's die": feature(10, die=8),
        "a power's set": lambda s: [e.update(power_set="Shadow arts")
                                    for e in s["features"][10:]],
        "a special effect's text": feature(11, text="Vanish in a puff of smoke."),
        "a limit's text": feature(12, text="Earn a plot point in daylight."),
        "a new skill": lambda s: s["features"].append(
            {"type": "skill", "name": "Stealth", "die": 4, "count": 1,
             "specializations": []}),
    }


def test_two_different_sheets_never_give_the_same_facts(demetri):
    """Every stored value a change can move shows in the facts: each sheet below differs from
    Demetri's, and from every other, in one value, and so in its facts."""
    seen = {tuple(SYSTEM.sheet_facts(demetri).items()): "Demetri as made"}
    for what, change in _each_field_changed(demetri.sheet).items():
        sheet = copy.deepcopy(demetri.sheet)
        change(sheet)
        SYSTEM.check_sheet(sheet, demetri.campaign)  # a sheet the rules allow

        facts = tuple(SYSTEM.sheet_facts(demetri, sheet).items())

        assert facts not in seen, f"{what} reads as {seen.get(facts)}"
        seen[facts] = what


def test_each_sheet_action_of_the_cast_changes_a_fact(alice, bob):
    """The shared suites' data for each of the sheet's actions (tests/systems/shahquest/
    fixtures.py), made on the demo's Demetri as the GM: the sheet changes, and so do its
    facts."""
    character = demo_character("shahquest", gm=alice, player=bob)
    fixtures = fixtures_for("shahquest")
    unchanged = []
    for name, data in fixtures.sheet_actions.items():
        with transaction.atomic():
            for before, before_data in fixtures.matrix_before.get(name, ()):
                sheet_change(Character.objects.get(pk=character.pk), before, before_data,
                             by=alice)
            start = Character.objects.get(pk=character.pk)
            sheet, facts = copy.deepcopy(start.sheet), SYSTEM.sheet_facts(start)
            changed = sheet_change(start, name, form_data(data, start), by=alice)
            assert changed.sheet != sheet, name
            if SYSTEM.sheet_facts(changed) == facts:
                unchanged.append(name)
            transaction.set_rollback(True)
    assert unchanged == []
