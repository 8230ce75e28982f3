"""Maelstrom's character creation wizard (``maelstrom:character-create``) and its last step's
write, ``finished_character`` + ``character_create`` (Maelstrom rules.md, Character
Creation, Merits and Flaws, Spending Experience)."""

from __future__ import annotations

import html as html_module
import re
from collections.abc import Iterable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters import services
from characters.models import Character, XpEntry
from rulesets import maelstrom
from rulesets.maelstrom import MeritFlawChoice, Specialty
from systems.maelstrom import creation_forms
from systems.maelstrom import sheet as maelstrom_sheet
from systems.maelstrom.creation import Draft, finished_character, xp_breakdown
from tests.factories import DEFAULT_ABILITIES, DEFAULT_ATTRIBUTES, CampaignFactory
from tests.helpers import text_of

pytestmark = pytest.mark.django_db


# --- helpers --------------------------------------------------------------------------------


def slug(name: str) -> str:
    return name.lower().replace(" ", "_")


def wizard_url(campaign: Any, step: str | None = None) -> str:
    url = reverse("maelstrom:character-create", args=[campaign.pk])
    return f"{url}?step={step}" if step else url


def concept_data(name: str = "Vesna Kale", concept: str = "Salvage pilot") -> dict[str, Any]:
    return {"step": "concept", "name": name, "concept": concept}


def attributes_data(primary: str = "Physical", **ranks: int) -> dict[str, Any]:
    data: dict[str, Any] = {"step": "attributes", "primary": primary}
    for name in maelstrom.ATTRIBUTES:
        data[slug(name)] = ranks.get(slug(name), DEFAULT_ATTRIBUTES[name])
    return data


def abilities_data(ranks: dict[str, int] | None = None) -> dict[str, Any]:
    chosen = DEFAULT_ABILITIES if ranks is None else ranks
    data: dict[str, Any] = {"step": "abilities"}
    for name in maelstrom.ABILITIES:
        data[slug(name)] = chosen.get(name, 0)
    return data


def xp_data(
    *,
    willpower: int = 3,
    attributes: dict[str, int] | None = None,
    abilities: dict[str, int] | None = None,
    specialties: Iterable[tuple[str, str, str]] = (),
    merits_flaws: Iterable[tuple[str, str]] = (),
    action: str = "next",
) -> dict[str, Any]:
    """The step 4 form: final ranks (default: the starting ones), specialty rows
    (ability, name, "" / "general" / "advanced") and merit/flaw rows ("Addict|1", detail)."""
    data: dict[str, Any] = {"step": "xp", "action": action, "willpower": willpower}
    for name in maelstrom.ATTRIBUTES:
        data[f"attribute_{slug(name)}"] = (attributes or {}).get(name, DEFAULT_ATTRIBUTES[name])
    for name in maelstrom.ABILITIES:
        data[f"ability_{slug(name)}"] = (abilities or {}).get(
            name, DEFAULT_ABILITIES.get(name, 0)
        )
    rows = [*specialties, ("", "", "")]  # one blank row, as the page has
    data.update({"sp-TOTAL_FORMS": len(rows), "sp-INITIAL_FORMS": 0,
                 "sp-MIN_NUM_FORMS": 0, "sp-MAX_NUM_FORMS": 1000})
    for index, (ability, name, classification) in enumerate(rows):
        data[f"sp-{index}-ability"] = ability
        data[f"sp-{index}-name"] = name
        data[f"sp-{index}-classification"] = classification
    choices = [*merits_flaws, ("", "")]
    data.update({"mf-TOTAL_FORMS": len(choices), "mf-INITIAL_FORMS": 0,
                 "mf-MIN_NUM_FORMS": 0, "mf-MAX_NUM_FORMS": 1000})
    for index, (choice, detail) in enumerate(choices):
        data[f"mf-{index}-choice"] = choice
        data[f"mf-{index}-detail"] = detail
    return data


def input_value(html: str, name: str) -> str | None:
    match = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', html)
    return match.group(1) if match else None


def walk_to_xp_step(client: Client, campaign: Any) -> None:
    for data in (concept_data(), attributes_data(), abilities_data()):
        response = client.post(wizard_url(campaign), data)
        assert response.status_code == 302, response.content.decode()


@pytest.fixture
def bobs_client(campaign, bob, client_for) -> Client:  # type: ignore[no-untyped-def]
    return client_for(bob)


@pytest.fixture
def at_xp_step(campaign, bobs_client) -> Client:  # type: ignore[no-untyped-def]
    walk_to_xp_step(bobs_client, campaign)
    return bobs_client


def character_create(*, campaign: Campaign, owner: Any, draft: Draft) -> Character:
    """What the wizard's last step writes for ``draft``."""
    finished = finished_character(draft, campaign.starting_xp)
    return services.character_create(
        campaign=campaign, owner=owner, name=finished.name, concept=finished.concept,
        sheet=finished.sheet, entries=finished.entries,
    )


def finished_draft(**changes: Any) -> Draft:
    draft = Draft(
        name="Vesna Kale",
        concept="Salvage pilot",
        primary="Physical",
        attributes=dict(DEFAULT_ATTRIBUTES),
        abilities={name: DEFAULT_ABILITIES.get(name, 0) for name in maelstrom.ABILITIES},
        completed=["concept", "attributes", "abilities", "xp"],
    )
    for key, value in changes.items():
        setattr(draft, key, value)
    return draft


# --- the whole walk -------------------------------------------------------------------------


def test_bob_walks_through_every_step_and_creates_a_complete_character(
    campaign, bob, bobs_client
):
    client = bobs_client
    response = client.get(wizard_url(campaign))
    assert response.status_code == 200
    assert 'aria-current="step"' in response.content.decode()

    response = client.post(wizard_url(campaign), concept_data())
    assert response["Location"] == wizard_url(campaign, "attributes")
    response = client.post(wizard_url(campaign), attributes_data())
    assert response["Location"] == wizard_url(campaign, "abilities")
    response = client.post(wizard_url(campaign), abilities_data())
    assert response["Location"] == wizard_url(campaign, "xp")

    response = client.post(
        wizard_url(campaign),
        xp_data(
            willpower=4,
            abilities={"Driving": 4},
            specialties=[("Driving", "motorcycles", ""), ("Firearms", "Pistols", "")],
            merits_flaws=[("Huge Size|4", ""), ("Addict|1", "nicotine")],
        ),
    )
    assert response["Location"] == wizard_url(campaign, "review")
    review = client.get(wizard_url(campaign, "review"))
    html = review.content.decode()
    assert "Vesna Kale" in html and "Motorcycles" in html and "Create character" in html
    assert Character.objects.count() == 0

    response = client.post(wizard_url(campaign), {"step": "review"})

    character = Character.objects.get()
    assert response.status_code == 302
    assert response["Location"] == character.get_absolute_url()
    assert (character.campaign, character.owner) == (campaign, bob)
    assert (character.name, character.concept) == ("Vesna Kale", "Salvage pilot")
    sheet = character.sheet
    assert maelstrom_sheet.willpower(sheet) == (4, 4)
    assert maelstrom_sheet.health(sheet).huge_size is True

    # Every attribute and ability is stored, 0 dots included; the layout order (and each
    # trait's group) comes from the catalogue.
    assert set(sheet["attributes"]) == set(maelstrom.ATTRIBUTES)
    assert set(sheet["abilities"]) == set(maelstrom.ABILITIES)
    refs = list(maelstrom_sheet.trait_refs(sheet).values())
    attributes = [r for r in refs if r.kind == "attribute"]
    assert [(t.name, t.group, t.dots, position) for position, t in enumerate(attributes)] == [
        ("Strength", "Physical", 2, 0), ("Precision", "Physical", 4, 1),
        ("Reflexes", "Physical", 3, 2), ("Perception", "Mental", 3, 3),
        ("Intelligence", "Mental", 2, 4), ("Wits", "Mental", 2, 5),
    ]
    abilities = [r for r in refs if r.kind == "ability"]
    expected_abilities = [
        (name, group) for group, names in maelstrom.ABILITY_GROUPS.items() for name in names
    ]
    assert [(t.name, t.group) for t in abilities] == expected_abilities
    assert [refs.index(t) for t in abilities] == list(range(6, 30))
    dots = {t.name: t.dots for t in abilities}
    assert dots == {**dict.fromkeys(maelstrom.ABILITIES, 0), **DEFAULT_ABILITIES, "Driving": 4}
    specialties = {
        (s.ability, s.name, s.advanced)
        for s in maelstrom_sheet.specialty_refs(sheet).values()
    }
    assert specialties == {("Driving", "Motorcycles", True), ("Firearms", "Pistols", False)}
    assert [(s["ability"], s["name"]) for s in sheet["specialties"]] == [
        ("Driving", "Motorcycles"), ("Firearms", "Pistols")]  # in the order bought

    assert {(m["kind"], m["name"], m["points"], m["detail"])
            for m in sheet["merits_flaws"]} == {
        ("merit", "Huge Size", 4, ""), ("flaw", "Addict", 1, "nicotine"),
    }

    ledger = {
        (e.kind, e.available_delta, e.total_delta, e.trait_key, e.rank_from, e.rank_to, e.reason)
        for e in character.xp_entries.all()
    }
    assert ledger == {
        ("starting", 30, 30, "", None, None, "Starting XP"),
        ("flaw", 1, 1, "", None, None, "Flaw: Addict (nicotine)"),
        ("merit", -4, 0, "", None, None, "Merit: Huge Size"),
        ("spend", -4, 0, "willpower", 3, 4, "Creation: Willpower 3 → 4"),
        ("spend", -8, 0, "ability:Driving", 3, 4, "Creation: Driving 3 → 4"),
        ("spend", -3, 0, "specialty:Driving:Motorcycles", 0, 1,
         "Creation: Driving: Motorcycles 0 → 1"),
        ("spend", -2, 0, "specialty:Firearms:Pistols", 0, 1, "Creation: Firearms: Pistols 0 → 1"),
    }
    assert character.xp_entries.count() == 7
    # In ledger order, so the running balance never dips below zero.
    assert [e.kind for e in character.xp_entries.order_by("pk")] == [
        "starting", "flaw", "merit", "spend", "spend", "spend", "spend"]
    assert all(e.created_by == bob for e in character.xp_entries.all())
    entries = list(character.xp_entries.all())
    assert character.xp_available == sum(e.available_delta for e in entries) == 10
    assert character.xp_total == sum(e.total_delta for e in entries) == 31

    assert f"character_draft:{campaign.pk}" not in client.session


def test_nothing_is_saved_before_the_final_step(campaign, bobs_client):
    walk_to_xp_step(bobs_client, campaign)
    bobs_client.post(wizard_url(campaign), xp_data(merits_flaws=[("Huge Size|4", "")]))
    bobs_client.get(wizard_url(campaign, "review"))

    assert Character.objects.count() == 0
    assert Character.objects.count() == XpEntry.objects.count() == 0


def test_the_gm_may_create_a_character_of_her_own(campaign, alice, client_for):
    client = client_for(alice)
    walk_to_xp_step(client, campaign)
    client.post(wizard_url(campaign), xp_data())
    client.post(wizard_url(campaign), {"step": "review"})

    assert Character.objects.get().owner == alice


# --- step 1 ---------------------------------------------------------------------------------


def test_a_character_without_a_name_is_refused_and_the_concept_kept(campaign, bobs_client):
    response = bobs_client.post(wizard_url(campaign), concept_data(name="", concept="Medic"))

    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert input_value(response.content.decode(), "concept") == "Medic"


# --- step 2: attributes ---------------------------------------------------------------------


def test_a_primary_group_with_five_extra_dots_is_refused_with_the_rule(campaign, bobs_client):
    bobs_client.post(wizard_url(campaign), concept_data())

    response = bobs_client.post(
        wizard_url(campaign), attributes_data(precision=3, perception=4)  # Physical +5, Mental +5
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "Physical is the primary group: allocate 6 dots on top of the 1 in each; "
        "you allocated 5 (Maelstrom rules, Starting Attributes)"
    ) in html
    assert input_value(html, "precision") == "3"
    assert input_value(html, "perception") == "4"
    assert 'value="Physical" id="id_primary_0" required checked' in html


@pytest.mark.parametrize(
    ("primary", "ranks", "accepted"),
    [
        ("Physical", {"strength": 3, "precision": 3, "reflexes": 3,
                      "perception": 3, "intelligence": 2, "wits": 2}, True),   # +6 / +4
        ("Mental", {"strength": 2, "precision": 2, "reflexes": 3,
                    "perception": 3, "intelligence": 3, "wits": 3}, True),     # +4 / +6
        ("Mental", {"strength": 3, "precision": 3, "reflexes": 3,
                    "perception": 3, "intelligence": 2, "wits": 2}, False),    # +6 / +4 swapped
        ("Physical", {"strength": 3, "precision": 3, "reflexes": 2,
                      "perception": 3, "intelligence": 3, "wits": 2}, False),  # +5 / +5
        ("Physical", {"strength": 1, "precision": 5, "reflexes": 3,
                      "perception": 3, "intelligence": 2, "wits": 2}, True),   # 5 dots is fine
    ],
)
def test_the_attribute_allotment_is_six_extra_dots_in_the_primary_group_and_four_in_the_other(
    campaign, bobs_client, primary, ranks, accepted
):
    bobs_client.post(wizard_url(campaign), concept_data())

    response = bobs_client.post(wizard_url(campaign), attributes_data(primary, **ranks))

    assert (response.status_code == 302) is accepted


def test_an_attribute_above_five_dots_is_refused(campaign, bobs_client):
    bobs_client.post(wizard_url(campaign), concept_data())

    response = bobs_client.post(
        wizard_url(campaign), attributes_data(strength=6, precision=1, reflexes=2)
    )

    assert response.status_code == 200
    assert "Strength has 6 dots; a new character&#x27;s attributes are 1 to 5" in (
        response.content.decode()
    )


# --- step 3: abilities ----------------------------------------------------------------------


def test_three_abilities_at_three_dots_are_refused_and_the_input_kept(campaign, bobs_client):
    bobs_client.post(wizard_url(campaign), concept_data())
    bobs_client.post(wizard_url(campaign), attributes_data())

    response = bobs_client.post(
        wizard_url(campaign), abilities_data({**DEFAULT_ABILITIES, "Alertness": 3})
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "2 abilities at 3 dots are required; you have 3 (Maelstrom rules, Starting Abilities)"
        in html
    )
    assert input_value(html, "alertness") == "3"
    assert input_value(html, "driving") == "3"


def test_thirteen_abilities_are_refused(campaign, bobs_client):
    bobs_client.post(wizard_url(campaign), concept_data())
    bobs_client.post(wizard_url(campaign), attributes_data())

    response = bobs_client.post(
        wizard_url(campaign), abilities_data({**DEFAULT_ABILITIES, "Science": 1})
    )

    assert response.status_code == 200
    assert "6 abilities at 1 dot are required; you have 7" in response.content.decode()
    assert input_value(response.content.decode(), "science") == "1"


@pytest.mark.parametrize(
    ("counts", "accepted"),
    [
        ((2, 4, 6), True),   # the seed: two at 3, four at 2, six at 1
        ((1, 5, 6), False),
        ((2, 3, 7), False),
        ((3, 4, 5), False),
        ((2, 4, 5), False),
    ],
)
def test_the_ability_allotment_is_two_at_three_four_at_two_and_six_at_one(
    campaign, bobs_client, counts, accepted
):
    bobs_client.post(wizard_url(campaign), concept_data())
    bobs_client.post(wizard_url(campaign), attributes_data())
    names = iter(maelstrom.ABILITIES)
    ranks = {}
    for rank, count in zip((3, 2, 1), counts, strict=True):
        for _ in range(count):
            ranks[next(names)] = rank

    response = bobs_client.post(wizard_url(campaign), abilities_data(ranks))

    assert (response.status_code == 302) is accepted


def test_an_ability_above_three_dots_at_creation_is_refused(campaign, bobs_client):
    bobs_client.post(wizard_url(campaign), concept_data())
    bobs_client.post(wizard_url(campaign), attributes_data())

    response = bobs_client.post(
        wizard_url(campaign), abilities_data({**DEFAULT_ABILITIES, "Driving": 4})
    )

    assert response.status_code == 200
    assert "Driving has 4 dots; at creation an ability has 0 to 3 dots" in (
        response.content.decode()
    )


# --- moving between steps -------------------------------------------------------------------


def test_a_later_step_redirects_back_to_the_first_step_not_yet_done(campaign, bobs_client):
    assert bobs_client.get(wizard_url(campaign, "abilities"))["Location"] == wizard_url(
        campaign, "concept"
    )
    bobs_client.post(wizard_url(campaign), concept_data())
    assert bobs_client.get(wizard_url(campaign, "review"))["Location"] == wizard_url(
        campaign, "attributes"
    )
    response = bobs_client.post(wizard_url(campaign), xp_data())
    assert response["Location"] == wizard_url(campaign, "attributes")
    assert bobs_client.get(wizard_url(campaign, "nonsense"))["Location"] == wizard_url(
        campaign, "attributes"
    )


def test_the_review_is_closed_until_the_starting_xp_step_is_submitted(campaign, at_xp_step):
    response = at_xp_step.get(wizard_url(campaign, "review"))

    assert response["Location"] == wizard_url(campaign, "xp")


def test_a_change_to_an_earlier_step_that_breaks_a_later_one_closes_the_review(
    campaign, at_xp_step
):
    at_xp_step.post(wizard_url(campaign), xp_data(abilities={"Melee": 4}))  # 4 + 6 + 8 XP
    assert at_xp_step.get(wizard_url(campaign, "review")).status_code == 200

    # Melee now starts at 3: its three extra dots would make 6.
    response = at_xp_step.post(
        wizard_url(campaign), abilities_data({**DEFAULT_ABILITIES, "Driving": 1, "Melee": 3})
    )
    assert response["Location"] == wizard_url(campaign, "xp")
    response = at_xp_step.get(wizard_url(campaign, "review"))
    assert response.status_code == 302 and response["Location"] == wizard_url(campaign, "xp")
    page = at_xp_step.get(wizard_url(campaign, "xp")).content.decode()
    assert input_value(page, "ability_melee") == "6"
    response = at_xp_step.post(wizard_url(campaign), xp_data(abilities={"Melee": 6}))
    assert "Melee can have at most 5 dots, not 6" in response.content.decode()


def test_going_back_keeps_what_was_entered(campaign, at_xp_step):
    concept = at_xp_step.get(wizard_url(campaign, "concept")).content.decode()
    attributes = at_xp_step.get(wizard_url(campaign, "attributes")).content.decode()
    abilities = at_xp_step.get(wizard_url(campaign, "abilities")).content.decode()

    assert input_value(concept, "name") == "Vesna Kale"
    assert input_value(attributes, "precision") == "4"
    assert input_value(abilities, "firearms") == "3"
    assert input_value(abilities, "science") == "0"
    xp_page = at_xp_step.get(wizard_url(campaign, "xp")).content.decode()
    assert f'href="{wizard_url(campaign, "abilities")}"' in xp_page


def test_the_step_list_marks_the_current_step(campaign, at_xp_step):
    html = at_xp_step.get(wizard_url(campaign, "xp")).content.decode()

    assert re.search(r'<li aria-current="step">\s*4\. Starting XP', html)
    assert html.count('aria-current="step"') == 1


# --- step 4: starting XP --------------------------------------------------------------------


def test_spending_more_xp_than_available_is_refused_with_cost_and_balance(
    campaign, at_xp_step
):
    response = at_xp_step.post(
        wizard_url(campaign),
        xp_data(attributes={"Strength": 3, "Precision": 5}, abilities={"Driving": 4}),
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "These choices cost 38 XP but only 30 XP are available; you are 8 XP short "
        "(Maelstrom rules, Starting Experience)"
    ) in html
    assert input_value(html, "attribute_precision") == "5"
    assert 'class="xp-remaining negative"' in html
    assert at_xp_step.get(wizard_url(campaign, "review"))["Location"] == wizard_url(
        campaign, "xp"
    )


def test_flaws_add_to_the_xp_that_can_be_spent(campaign, at_xp_step):
    data = xp_data(attributes={"Strength": 3, "Precision": 5},
                   merits_flaws=[("Hunted|4", "")])
    response = at_xp_step.post(wizard_url(campaign), data)
    assert response["Location"] == wizard_url(campaign, "review")

    data = xp_data(attributes={"Strength": 3, "Precision": 5}, abilities={"Driving": 4},
                   merits_flaws=[("Hunted|4", "")])
    response = at_xp_step.post(wizard_url(campaign), data)
    assert "cost 38 XP but only 34 XP are available (30 starting + 4 from flaws); " \
           "you are 4 XP short" in response.content.decode()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"willpower": 11}, "Willpower can have at most 10 dots, not 11"),
        ({"abilities": {"Driving": 6}}, "Driving can have at most 5 dots, not 6"),
        ({"attributes": {"Precision": 6}}, "Precision can have at most 5 dots, not 6"),
        ({"abilities": {"Driving": 2}},
         "Driving starts at 3 dots; starting XP can raise it, not lower it to 2"),
        ({"willpower": 2}, "Willpower starts at 3 dots"),
    ],
)
def test_ranks_out_of_bounds_are_refused_with_a_clear_message(
    campaign, at_xp_step, overrides, message
):
    response = at_xp_step.post(wizard_url(campaign), xp_data(**overrides))

    assert response.status_code == 200
    assert message in response.content.decode()
    assert "Maelstrom rules, Spending Experience" in response.content.decode()


def test_a_duplicate_specialty_is_refused(campaign, at_xp_step):
    response = at_xp_step.post(
        wizard_url(campaign),
        xp_data(specialties=[("Driving", "Cars", ""), ("Driving", "cars", "")]),
    )

    assert response.status_code == 200
    assert "The specialty Driving: Cars is listed twice" in response.content.decode()


def test_the_same_specialty_name_under_two_abilities_is_two_specialties(campaign, at_xp_step):
    response = at_xp_step.post(
        wizard_url(campaign),
        xp_data(specialties=[("Melee", "Power Armor", ""), ("Firearms", "Power Armor", "")]),
    )

    assert response["Location"] == wizard_url(campaign, "review")


def test_a_suggested_specialty_takes_its_seed_classification_unless_chosen(campaign, at_xp_step):
    at_xp_step.post(
        wizard_url(campaign),
        xp_data(specialties=[
            ("Driving", "Motorcycles", ""),         # advanced in the seed
            ("Firearms", "pistols", ""),            # general in the seed
            ("Melee", "Knife Fighting", ""),        # own: general unless chosen
            ("Stealth", "Rooftops", "advanced"),
        ]),
    )
    at_xp_step.post(wizard_url(campaign), {"step": "review"})

    assert {
        (s["ability"], s["name"], s["advanced"])
        for s in Character.objects.get().sheet["specialties"]
    } == {
        ("Driving", "Motorcycles", True), ("Firearms", "Pistols", False),
        ("Melee", "Knife Fighting", False), ("Stealth", "Rooftops", True),
    }
    assert Character.objects.get().xp_available == 30 - 3 - 2 - 2 - 3


def test_a_specialty_needs_its_ability(campaign, at_xp_step):
    response = at_xp_step.post(wizard_url(campaign), xp_data(specialties=[("", "Cars", "")]))

    assert response.status_code == 200
    assert "Choose the ability the specialty Cars belongs to" in response.content.decode()


@pytest.mark.parametrize(
    ("name", "points", "accepted"),
    [
        ("Acute Sense", 2, True), ("Acute Sense", 5, True), ("Acute Sense", 3, False),
        ("Addict", 1, True), ("Addict", 3, True), ("Addict", 2, False),
        ("Paraplegic", 8, True), ("Paraplegic", 10, True), ("Paraplegic", 9, False),
        ("Huge Size", 4, True), ("Huge Size", 2, False),
    ],
)
def test_merits_and_flaws_accept_only_their_listed_prices(
    campaign, at_xp_step, name, points, accepted
):
    response = at_xp_step.post(
        wizard_url(campaign), xp_data(merits_flaws=[(f"{name}|{points}", "")])
    )

    if accepted:
        assert response["Location"] == wizard_url(campaign, "review")
    else:
        assert response.status_code == 200
        assert f"{name} is worth" in response.content.decode()
        assert f"not {points}" in response.content.decode()


def test_a_merit_or_flaw_not_in_the_seed_is_refused(campaign, at_xp_step):
    response = at_xp_step.post(wizard_url(campaign), xp_data(merits_flaws=[("Telepathy|3", "")]))

    assert response.status_code == 200
    assert "Telepathy” is not on the seed&#x27;s lists of merits and flaws" in (
        response.content.decode()
    )


def test_acute_and_defective_sense_in_the_same_sense_are_refused(campaign, at_xp_step):
    response = at_xp_step.post(
        wizard_url(campaign),
        xp_data(merits_flaws=[("Acute Sense|2", "Hearing"), ("Defective Sense|2", "hearing")]),
    )

    assert response.status_code == 200
    assert "Defective Sense cannot be taken with Acute Sense in the same sense (hearing)" in (
        response.content.decode()
    )


def test_the_xp_step_refuses_inept_in_an_ability_with_no_dots_and_blind_with_impaired_sight(
    campaign, at_xp_step
):
    response = at_xp_step.post(
        wizard_url(campaign),
        xp_data(merits_flaws=[("Inept|2", "Science"), ("Blind|8", ""),
                              ("Visually Impaired|4", "")]),
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert "Inept is taken in an ability with at least one dot; Science has none" in page
    assert "Blind cannot be taken with Visually Impaired" in page
    assert "Maelstrom rules, Flaws" in page


def test_acute_and_defective_sense_in_different_senses_are_accepted(campaign, at_xp_step):
    response = at_xp_step.post(
        wizard_url(campaign),
        xp_data(merits_flaws=[("Acute Sense|2", "smell"), ("Defective Sense|2", "vision")]),
    )

    assert response["Location"] == wizard_url(campaign, "review")


def test_acute_sense_can_be_taken_again_for_another_sense_but_not_the_same_one(
    campaign, at_xp_step
):
    other_sense = at_xp_step.post(
        wizard_url(campaign),
        xp_data(merits_flaws=[("Acute Sense|2", "vision"), ("Acute Sense|2", "hearing")]),
    )
    same_sense = at_xp_step.post(
        wizard_url(campaign),
        xp_data(merits_flaws=[("Acute Sense|2", "vision"), ("Acute Sense|2", "Vision")]),
    )

    assert other_sense["Location"] == wizard_url(campaign, "review")
    assert same_sense.status_code == 200
    assert "Acute Sense (Vision) is taken twice" in same_sense.content.decode()


@pytest.mark.parametrize(
    "twice",
    [
        [("Addict|1", "nicotine"), ("Addict|3", "stims")],
        [("Mute|6", "a"), ("Mute|6", "b")],
        [("Huge Size|4", ""), ("Huge Size|4", "really")],
        [("Acute Sense|5", ""), ("Acute Sense|5", "again")],
    ],
)
def test_other_merits_and_flaws_are_taken_once_so_flaws_cannot_be_farmed_for_xp(
    campaign, at_xp_step, twice
):
    response = at_xp_step.post(wizard_url(campaign), xp_data(merits_flaws=twice))

    assert response.status_code == 200
    assert "can be taken only once" in response.content.decode()


def test_huge_size_gives_the_character_its_extra_health_box(campaign, bob):
    big = character_create(
        campaign=campaign, owner=bob,
        draft=finished_draft(merits_flaws=[MeritFlawChoice("Huge Size", "merit", 4)]),
    )
    small = character_create(campaign=campaign, owner=bob, draft=finished_draft(name="Wren"))

    big_health, small_health = (maelstrom_sheet.health(c.sheet) for c in (big, small))
    assert big_health.huge_size is True and big_health.boxes == 9
    assert small_health.huge_size is False and small_health.boxes == 8
    assert big.xp_available == 26


# --- the live total -------------------------------------------------------------------------


def test_the_htmx_preview_returns_only_the_xp_summary(campaign, bob, client_for):
    client = client_for(bob, htmx=True)
    walk_to_xp_step(client, campaign)

    response = client.post(
        wizard_url(campaign),
        {**xp_data(abilities={"Driving": 4}, merits_flaws=[("Addict|1", "nicotine")]),
         "action": "", "preview": "1"},
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.strip().startswith('<section id="xp-summary"')
    assert 'aria-live="polite"' in html
    assert "23 XP remaining" in html
    assert "Creation: Driving 3 → 4" in html and "−8" in html
    assert "Flaw: Addict (nicotine)" in html
    # a preview changes nothing: the saved draft still has no purchases
    assert client.session[f"character_draft:{campaign.pk}"]["ability_xp"] == {}
    assert client.session[f"character_draft:{campaign.pk}"]["merits_flaws"] == []


def test_the_htmx_preview_lists_problems_and_totals_the_valid_entries(
    campaign, bob, client_for
):
    client = client_for(bob, htmx=True)
    walk_to_xp_step(client, campaign)

    response = client.post(
        wizard_url(campaign),
        {**xp_data(attributes={"Strength": 3}, willpower=11), "preview": "1"},
    )

    html = response.content.decode()
    assert "Willpower can have at most 10 dots, not 11" in html
    assert "15 XP remaining" in html
    assert "negative" not in html


def test_the_htmx_preview_shows_a_negative_total_in_red(campaign, bob, client_for):
    client = client_for(bob, htmx=True)
    walk_to_xp_step(client, campaign)

    response = client.post(
        wizard_url(campaign),
        {**xp_data(attributes={"Strength": 4}, abilities={"Driving": 4}), "preview": "1"},
    )

    html = response.content.decode()
    assert "-8 XP remaining" in html
    assert "You are spending 38 XP but have only 30 XP: 8 XP too many" in html


def test_the_update_total_button_works_without_javascript(campaign, at_xp_step):
    response = at_xp_step.post(
        wizard_url(campaign),
        xp_data(willpower=5, specialties=[("Driving", "Cars", "")], action="update"),
        follow=True,
    )

    html = response.content.decode()
    assert response.redirect_chain[-1][0] == wizard_url(campaign, "xp")
    assert "19 XP remaining" in html  # 30 - (4 + 5) - 2
    assert input_value(html, "willpower") == "5"
    assert input_value(html, "sp-0-name") == "Cars"
    assert 'name="sp-3-name"' in html  # three empty rows after the saved one
    assert Character.objects.count() == 0


def test_the_xp_page_offers_the_seed_suggestions_and_prices(campaign, at_xp_step):
    html = at_xp_step.get(wizard_url(campaign, "xp")).content.decode()

    assert '<datalist id="specialty-suggestions">' in html
    assert '<option value="Motorcycles" label="Driving, advanced">' in html
    assert 'value="Acute Sense|2"' in html and 'value="Acute Sense|5"' in html
    assert 'value="Paraplegic|8"' in html and 'value="Paraplegic|10"' in html
    assert 'hx-trigger="change, input delay:300ms"' in html
    assert 'hx-target="#xp-summary"' in html


def test_the_merit_and_flaw_choices_say_which_cost_xp_and_which_give_it(campaign, at_xp_step):
    """A chosen option shows without its group's heading, so each says which way its points
    go: a merit costs XP, a flaw gives XP (Maelstrom rules.md, Merits and Flaws)."""
    html = html_module.unescape(at_xp_step.get(wizard_url(campaign, "xp")).content.decode())

    assert '<optgroup label="Merits (cost XP)">' in html
    assert '<optgroup label="Flaws (give XP)">' in html
    assert '<option value="Acute Sense|2">Acute Sense, costs 2 XP</option>' in html
    assert '<option value="Addict|1">Addict, gives 1 XP</option>' in html
    assert "Addict, 1 XP" not in html
    assert "Acute Sense (costs 2 or 5 XP)" in html  # what each one does
    assert "Addict (gives 1 or 3 XP)" in html


def test_the_review_says_which_choices_cost_xp_and_which_give_it(campaign, at_xp_step):
    at_xp_step.post(wizard_url(campaign), xp_data(
        merits_flaws=[("Huge Size|4", ""), ("Addict|1", "nicotine")]))

    text = text_of(at_xp_step.get(wizard_url(campaign, "review")))

    assert "Huge Size, costs 4 XP" in text
    assert "Addict (nicotine), gives 1 XP" in text


def test_the_xp_step_keeps_a_running_total_bar_that_the_preview_refreshes(
    campaign, at_xp_step
):
    """On a phone the summary is below every list: the bar at the top of the step shows the
    XP remaining (kept in view by maelstrom.css), and each preview replaces it out of band."""
    page = at_xp_step.get(wizard_url(campaign, "xp")).content.decode()
    bar = re.search(r'<p id="xp-bar" class="xp-bar">(.*?)</p>', page, re.S)
    assert bar is not None and "30 XP remaining" in bar.group(1)
    assert 'href="#xp-summary-title"' in bar.group(1)

    preview = at_xp_step.post(wizard_url(campaign), {
        **xp_data(abilities={"Driving": 4}, merits_flaws=[("Addict|1", "nicotine")]),
        "action": "", "preview": "1"}, headers={"HX-Request": "true"}).content.decode()
    bar = re.search(r'<p id="xp-bar" class="xp-bar" hx-swap-oob="true">(.*?)</p>', preview,
                    re.S)
    assert bar is not None and "23 XP remaining" in bar.group(1)


# --- the service ----------------------------------------------------------------------------


def test_xp_breakdown_prices_every_purchase_through_the_rules(campaign):
    draft = finished_draft(
        willpower=5,
        attribute_xp={"Wits": 1},
        ability_xp={"Science": 3},
        specialties=[Specialty("Science", "Physics", False)],
        merits_flaws=[MeritFlawChoice("Acute Sense", "merit", 5),
                      MeritFlawChoice("Phobia", "flaw", 2, "spiders")],
    )

    lines, remaining = xp_breakdown(draft, 60)

    assert [(line.label, line.delta) for line in lines] == [
        ("Starting XP", 60),
        ("Flaw: Phobia (spiders)", 2),
        ("Merit: Acute Sense", -5),
        ("Creation: Willpower 3 → 5", -9),
        ("Creation: Wits 2 → 3", -15),
        ("Creation: Science 0 → 3", -12),
        ("Creation: Science: Physics 0 → 1", -2),
    ]
    assert remaining == 60 + 2 - 5 - 9 - 15 - 12 - 2


def test_character_create_revalidates_and_saves_nothing_on_a_broken_rule(campaign, bob):
    overspent = finished_draft(attribute_xp={"Wits": 1, "Strength": 1}, willpower=4)
    bad_allotment = finished_draft(attributes={**DEFAULT_ATTRIBUTES, "Wits": 3})

    for draft in (overspent, bad_allotment):
        with pytest.raises(maelstrom.RuleError):
            character_create(campaign=campaign, owner=bob, draft=draft)

    assert Character.objects.count() == 0 and XpEntry.objects.count() == 0


def test_the_draft_survives_a_round_trip_through_the_session_format():
    draft = finished_draft(
        specialties=[Specialty("Driving", "Cars", False)],
        merits_flaws=[MeritFlawChoice("Addict", "flaw", 3, "stims")],
        ability_xp={"Driving": 1},
    )

    assert Draft.from_session(draft.to_session()) == draft
    assert Draft.from_session({"attributes": "garbage"}) == Draft()


# --- who may create -------------------------------------------------------------------------


def test_carol_who_is_not_a_member_gets_404(campaign, carol, client_for):
    client = client_for(carol)

    assert client.get(wizard_url(campaign)).status_code == 404
    assert client.post(wizard_url(campaign), concept_data()).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(campaign):
    response = Client().get(wizard_url(campaign))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def generic_create_url(campaign: Any) -> str:
    return reverse("characters:character-create", args=[campaign.pk])


def test_a_campaign_of_an_unknown_rule_system_has_no_creation_page(bob, client_for):
    other = CampaignFactory(ruleset="dnd5e")
    Membership.objects.create(campaign=other, user=bob)

    assert client_for(bob).get(generic_create_url(other)).status_code == 404
    assert client_for(bob).get(wizard_url(other)).status_code == 404


def test_a_campaign_of_another_system_gets_that_systems_creation_page(bob, client_for):
    other = CampaignFactory(ruleset="shahquest")
    Membership.objects.create(campaign=other, user=bob)

    response = client_for(bob).get(generic_create_url(other))

    assert response.status_code == 200
    assert "systems/shahquest/create.html" in [t.name for t in response.templates]


def test_the_wizard_is_only_for_maelstrom_campaigns(bob, client_for):
    other = CampaignFactory(ruleset="shahquest")
    Membership.objects.create(campaign=other, user=bob)
    client = client_for(bob)

    assert client.get(wizard_url(other)).status_code == 404
    assert client.post(wizard_url(other), concept_data()).status_code == 404
    assert f"character_draft:{other.pk}" not in client.session


def test_the_generic_creation_page_sends_a_maelstrom_campaign_to_the_wizard(
    campaign, bobs_client
):
    response = bobs_client.get(generic_create_url(campaign))

    assert response.status_code == 302
    assert response["Location"].startswith(wizard_url(campaign))
    assert bobs_client.get(response["Location"]).status_code == 200


def test_the_wizard_uses_the_maelstrom_template_and_stylesheet(campaign, bobs_client):
    response = bobs_client.get(wizard_url(campaign))

    assert "systems/maelstrom/create.html" in [t.name for t in response.templates]
    assert "css/systems/maelstrom.css" in response.content.decode()


def test_a_saved_specialty_keeps_following_the_rules_classification_when_renamed(
    campaign, at_xp_step
):
    at_xp_step.post(
        wizard_url(campaign), xp_data(specialties=[("Driving", "Cars", "")], action="update")
    )
    page = at_xp_step.get(wizard_url(campaign, "xp")).content.decode()
    row = page[page.index('name="sp-0-classification"'):]
    assert re.match(r'[^<]*>\s*<option value="" selected>', row)

    at_xp_step.post(wizard_url(campaign), xp_data(specialties=[("Driving", "Motorcycles", "")]))

    assert at_xp_step.session[f"character_draft:{campaign.pk}"]["specialties"] == [
        {"ability": "Driving", "name": "Motorcycles", "advanced": True}
    ]


def test_a_posted_row_count_past_the_limit_is_refused_without_building_the_rows(
        at_xp_step, campaign, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Found by tests/fuzz: sp-TOTAL_FORMS=99999 made Django build 2,000 specialty forms
    # (its default absolute_max), 5.7 s of the processor for one request.
    built = []
    real_init = creation_forms.SpecialtyForm.__init__

    def counting_init(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(creation_forms.SpecialtyForm, "__init__", counting_init)
    data = xp_data()
    data["sp-TOTAL_FORMS"] = 99999

    response = at_xp_step.post(wizard_url(campaign), data)

    assert response.status_code == 200
    assert "Please submit at most 100 forms." in response.content.decode()
    assert len(built) <= creation_forms.MAX_SPECIALTY_ROWS + 1  # the rows, and the empty form
    assert not Character.objects.filter(campaign=campaign).exists()


def test_a_preview_posted_to_another_step_keeps_nothing_and_makes_nothing(
        campaign, bobs_client):  # type: ignore[no-untyped-def]
    """Only the XP step previews (its running total): a preview posted to another step, as a
    stale or hostile request would, neither saves the draft nor makes the character."""
    client: Client = bobs_client
    preview = {"HTTP_HX_REQUEST": "true"}
    client.post(wizard_url(campaign), {**concept_data(), "preview": "1"}, **preview)
    # The concept was not kept: the next step is still closed.
    response = client.post(wizard_url(campaign), attributes_data())
    assert response["Location"] == wizard_url(campaign, "concept")

    client.post(wizard_url(campaign), concept_data())
    client.post(wizard_url(campaign), attributes_data())
    client.post(wizard_url(campaign), abilities_data())
    client.post(wizard_url(campaign), xp_data())
    client.post(wizard_url(campaign), {"step": "review", "preview": "1"}, **preview)
    assert Character.objects.count() == 0
    client.post(wizard_url(campaign), {"step": "review"})
    assert Character.objects.count() == 1
