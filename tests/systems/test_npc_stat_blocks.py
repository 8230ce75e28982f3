"""Each system's NPC stat block (issue 33; docs/npcs.md): the GM makes an NPC with the
system's own sheet and rules checks, without a creation budget, and the players see of a
revealed one its tracks in words.

Crossed with the five systems, as every answer here is the system's own: its fields and their
opening values (a name alone makes a valid, average NPC whose sheet opens, rolls and shows its
odds for the GM), the rule a value out of range breaks, what a player's creation refuses and a
stat block accepts, and how a damaged NPC's tracks read.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from django import forms
from django.urls import reverse

import systems
from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters import npcs
from characters.models import Character
from rolls.models import Roll
from systems.npcs import TrackLine
from tests.conftest import TEST_ONLY_SYSTEMS
from tests.system_fixtures import selectable_systems

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Case:
    """What one system's stat block is asked.

    Attributes:
        roll: roll dialog data the name-only NPC can roll.
        out_of_range: ``(field, value, words)``: a value the rules refuse, and words of the
            refusal (the rule as a player reads it).
        beyond_creation: fields a player's creation refuses (a budget spent over, a creation
            cap) that a stat block takes.
        holds: what the NPC's sheet then holds, as a check of the sheet.
        damage: ``(track action, form data)``: the GM damages the NPC from its sheet.
        damaged: a line of :meth:`track_lines` after that damage.
    """

    roll: Mapping[str, Any]
    out_of_range: tuple[str, str, str]
    beyond_creation: Mapping[str, Any]
    holds: Callable[[dict[str, Any]], bool]
    damage: tuple[str, Mapping[str, str]]
    damaged: TrackLine


MAELSTROM_TRAITS = ("strength", "precision", "reflexes", "perception", "intelligence", "wits",
                    "firearms", "melee", "athletics", "computer_science")

CASES: dict[str, Case] = {
    "maelstrom": Case(
        roll={"trait": ["Strength", "Athletics"], "kind": "action", "difficulty": "6",
              "threshold": "0"},
        out_of_range=("strength", "6", "an attribute has 1 to 5 dots (Maelstrom rules, "
                                       "Traits)"),
        # Every attribute and these abilities at 5 dots, Willpower 10: far past 7/5/3 and
        # the 3/3/2/2/2/2/1... allotments and 30 starting XP.
        beyond_creation={**dict.fromkeys(MAELSTROM_TRAITS, "5"), "willpower": "10",
                         "huge_size": "on", "specialties": "Firearms: extreme range\n"
                                                          "Driving: Motorcycles"},
        holds=lambda sheet: (sheet["attributes"]["Strength"] == 5
                             and sheet["abilities"]["Computer Science"] == 5
                             and sheet["willpower"] == {"permanent": 10, "current": 10}
                             and sheet["health"]["huge_size"]
                             and {"ability": "Firearms", "name": "Extreme Range",
                                  "advanced": True} in sheet["specialties"]),
        damage=("damage", {"kind": "lethal", "levels": "2"}),
        damaged=TrackLine("Health", "Scratched: 2 of 8 levels (2 lethal), wound penalty "
                                    "−1 die"),
    ),
    "genesys": Case(
        roll={"skill": "Athletics", "difficulty": "Average"},
        out_of_range=("brawn", "6", "a characteristic is rated 1 to 5 (Genesys rules, Skill "
                                    "and Characteristic)"),
        # Five ranks (creation stops at two) and a threshold set past 10 + Brawn.
        beyond_creation={"skill_0": "5", "brawn": "5", "wounds_threshold": "30"},
        holds=lambda sheet: (sheet["skills"] == {"Athletics": 5}
                             and sheet["wounds"] == {"current": 0, "threshold": 30}
                             and sheet["strain"] == {"current": 0, "threshold": 12}
                             and not sheet["creation"]),
        damage=("wounds", {"amount": "3", "direction": "suffer"}),
        damaged=TrackLine("Wounds", "3 / 12"),
    ),
    "shahquest": Case(
        roll={"feature": ["0"]},
        out_of_range=("solo", "7", "7 is not a step die: the dice are d4, d6, d8, d10, d12 "
                                   "(Shahquest wiki, Dice, Step Up"),
        # No attribute at all (creation asks for one), a titanic spread Solo of d12s.
        beyond_creation={"solo": "12", "solo_count": "3", "partner": "4", "gang": "8",
                         "skill_1_name": "Crush", "skill_1_die": "12"},
        holds=lambda sheet: (sheet["features"][0] == {"type": "affiliation", "name": "Solo",
                                                      "die": 12, "count": 3}
                             and not any(f["type"] == "attribute" for f in sheet["features"])),
        damage=("stress-take", {"kind": "physical", "die": "8"}),
        damaged=TrackLine("Stress: Physical", "d8"),
    ),
    "shattered_world": Case(
        roll={"die": "ad", "target": "5", "modifiers": "", "multipliers": "", "action": ""},
        out_of_range=("stat_PF", "31", "Physical Fitness 31 is outside 1 to 30: a statistic "
                                       "above 30 needs the Exceptional Ability buy-in "
                                       "(Sheetkeeper's ruling for Shattered World, "
                                       "Statistics)"),
        # Every ability proficient (creation names two), the last die step and a UAM, which
        # a player buys with XP.
        beyond_creation={"proficiencies": ["PF", "MA", "EN", "PR", "SP", "EM"],
                         "die_step": "5", "uam": "3", "hit_points": "60"},
        holds=lambda sheet: (len(sheet["proficiencies"]) == 6
                             and sheet["action_die_level"] == 5
                             and sheet["buy_ins"] == {"Increase UAM": 3}
                             and sheet["hit_points"] == {"current": 60, "max": 60}),
        damage=("pool", {"pool": "HP", "amount": "5", "direction": "lose"}),
        damaged=TrackLine("Hit points", "15 / 20"),
    ),
    "three_d6": Case(
        roll={"mode": "test", "target": "t0", "td": "12", "situational": "0", "favor": "0",
              "disfavor": "0"},
        out_of_range=("t0", "6", "Power 6: a trait's modifier is 0 to 5 (Sheetkeeper's "
                                 "ruling for 3d6, Advancement)"),
        # Traits summing to 30 and subtraits to 60, past both budgets of six.
        beyond_creation={**{f"t{i}": "5" for i in range(6)}, **{f"s{i}": "5" for i in range(12)},
                         "level": "8", "health": "40"},
        holds=lambda sheet: (sum(sheet["modifiers"].values()) == 90
                             and sheet["level"] == 8
                             and sheet["health"] == {"current": 40, "max": 40}),
        damage=("health", {"change": "damage", "amount": "3"}),
        damaged=TrackLine("Health", "7 / 10"),
    ),
}


def test_every_system_has_its_case() -> None:
    assert set(CASES) == set(selectable_systems()) - set(TEST_ONLY_SYSTEMS)


@pytest.fixture(params=sorted(CASES))
def table(request: pytest.FixtureRequest, alice: Any, bob: Any) -> Campaign:
    """A campaign of each system, Alice its GM, Bob a player."""
    campaign = campaign_create(name="Stat Blocks", ruleset=request.param, starting_xp=30,
                               gm=alice)
    Membership.objects.create(campaign=campaign, user=bob)
    return campaign


def case_of(campaign: Campaign) -> Case:
    return CASES[campaign.ruleset]


def as_posted(form: forms.Form, **changes: Any) -> dict[str, Any]:
    """What a browser posts of the unbound ``form`` as drawn (each field's opening value; an
    unticked box and an empty choice sent as nothing), with ``changes`` typed in."""
    data: dict[str, Any] = {}
    for field in form:
        value = field.value()
        if value is None or value is False or value == "":
            continue
        data[field.html_name] = ([str(v) for v in value] if isinstance(value, list | tuple)
                                 else "on" if value is True else str(value))
    return {**data, **changes}


def stat_block(campaign: Campaign, **changes: Any) -> forms.Form:
    """The campaign's stat block, posted as drawn with ``changes``."""
    system = systems.for_campaign(campaign)
    return system.npc_form(campaign, as_posted(system.npc_form(campaign), **changes))


def make_npc(campaign: Campaign, gm: Any, **changes: Any) -> Character:
    form = stat_block(campaign, **changes)
    assert form.is_valid(), form.errors
    return npcs.npc_create(campaign=campaign, by=gm, data=form.cleaned_data)


def test_the_stat_block_groups_every_field_once(table: Campaign) -> None:
    form = systems.for_campaign(table).npc_form(table)

    grouped = [name for _, names in form.fieldsets for name in names]  # type: ignore[attr-defined]  # each system's stat block sets it
    assert sorted(grouped) == sorted(form.fields)
    assert grouped[:2] == ["name", "concept"]


def test_a_name_alone_makes_an_npc_whose_sheet_the_gm_opens_and_rolls(
        table: Campaign, alice: Any, client_for: Any, seeded_rng: Any) -> None:
    case = case_of(table)
    npc = make_npc(table, alice, name="Nameless Guard")
    client = client_for(alice)

    sheet = client.get(reverse("characters:character-detail", args=[npc.pk]))
    dialog = client.get(reverse("rolls:roll-create", args=[npc.pk]))
    odds = client_for(alice, htmx=True).get(reverse("rolls:roll-odds", args=[npc.pk]),
                                            case.roll)
    rolled = client.post(reverse("rolls:roll-create", args=[npc.pk]), case.roll)

    assert npc.is_npc and npc.npc_shown == Character.Shown.HIDDEN
    assert sheet.status_code == 200 and "Nameless Guard" in sheet.content.decode()
    assert dialog.status_code == 200
    assert odds.status_code == 200 and "%" in odds.content.decode()
    assert rolled.status_code == 302, html.unescape(rolled.content.decode())[:2000]
    assert Roll.objects.filter(character=npc).count() == 1


def test_a_value_out_of_range_is_refused_naming_the_rule_and_nothing_is_made(
        table: Campaign, alice: Any, client_for: Any) -> None:
    field, value, words = case_of(table).out_of_range
    data = as_posted(systems.for_campaign(table).npc_form(table), name="Brute",
                     **{field: value})

    response = client_for(alice).post(reverse("characters:npc-create", args=[table.pk]),
                                      data)

    assert response.status_code == 400
    assert words in html.unescape(response.content.decode())
    assert not Character.all_objects.filter(campaign=table).exists()


def test_values_a_players_creation_refuses_make_a_valid_npc(table: Campaign,
                                                            alice: Any) -> None:
    case = case_of(table)

    npc = make_npc(table, alice, name="Boss", **case.beyond_creation)

    assert case.holds(npc.sheet), npc.sheet


def test_a_damaged_npc_shows_its_damage_in_its_track_lines(
        table: Campaign, alice: Any, client_for: Any) -> None:
    case = case_of(table)
    system = systems.for_campaign(table)
    npc = make_npc(table, alice, name="Target")
    before = system.track_lines(npc)
    action, data = case.damage

    response = client_for(alice).post(
        reverse("characters:character-action", args=[npc.pk, action]), data)
    npc = Character.all_objects.select_related("campaign").get(pk=npc.pk)

    assert response.status_code == 302
    assert case.damaged not in before
    assert case.damaged in system.track_lines(npc)
    assert [line.label for line in system.track_lines(npc)] == [line.label for line in before]


def test_the_gms_new_npc_page_shows_the_stat_block_and_makes_the_npc(
        table: Campaign, alice: Any, client_for: Any) -> None:
    client = client_for(alice)
    url = reverse("characters:npc-create", args=[table.pk])
    form = systems.for_campaign(table).npc_form(table)

    page = client.get(url)
    made = client.post(url, as_posted(form, name="Sentry", concept="Bored at the gate"))

    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert all(f"<legend>{legend}</legend>" in text for legend, _ in form.fieldsets)  # type: ignore[attr-defined]  # each system's stat block sets it
    npc = Character.all_objects.get(campaign=table)
    assert made.status_code == 302 and made["Location"] == npc.get_absolute_url()
    assert (npc.name, npc.concept, npc.is_npc) == ("Sentry", "Bored at the gate", True)
