"""Maelstrom's character sheet, and who may open it and the endpoints behind it.

Permissions (docs: "Who sees what"): the owner and the campaign's GM see and change a
character; another player of the same campaign, a stranger and an anonymous visitor do not.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters import services
from characters.models import Character
from rolls.models import Roll
from rulesets.maelstrom.storage import RollKind
from systems.maelstrom.system import SYSTEM
from tests.factories import CharacterFactory
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db


# session, user, character (+campaign, owner, the viewer's role), banks, the GM's open roll
# requests, recent rolls (the traits, merits and flaws are the character's sheet). Measured
# once; pinned so that a per-trait query shows up. And the Equipment card's items
# (equipment.inventory), one query whatever their number; and the running encounter
# (encounters: none here); and the last session ("Since last session", history.between: none
# here, so no activity read).
SHEET_QUERIES = 9


def sheet_url(character: Character) -> str:
    return reverse("characters:character-detail", args=[character.pk])


@pytest.fixture
def bobs_spend(bobs_character, bob):  # type: ignore[no-untyped-def]
    """Bob's only (so latest) spend: Firearms 3 -> 4 for 8 XP."""
    return services.xp_spend(character=bobs_character, key="ability:Firearms", by=bob)


def endpoint(name: str, character: Character, spend) -> tuple[str, str, dict[str, str]]:  # type: ignore[no-untyped-def]
    """(method, path, data) of each endpoint of characters/urls.py but character-create, with
    Maelstrom's sheet actions (damage, heal, willpower, bank)."""
    pk = character.pk
    table: dict[str, tuple[str, str, list[object], dict[str, str]]] = {
        "sheet": ("get", "characters:character-detail", [], {}),
        "damage": ("post", "characters:character-action", ["damage"],
                   {"kind": "bashing", "levels": "1"}),
        "heal": ("post", "characters:character-action", ["heal"], {"kind": ""}),
        "willpower": ("post", "characters:character-action", ["willpower"],
                      {"action": "spend"}),
        "xp page": ("get", "characters:character-xp", [], {}),
        "xp quote": ("get", "characters:character-xp-spend", [], {"trait": "ability:Driving"}),
        "xp spend": ("post", "characters:character-xp-spend", [],
                     {"trait": "ability:Driving", "expected_cost": "8"}),
        "xp bank": ("post", "characters:character-action", ["bank"],
                    {"trait": "ability:Driving", "amount": "1"}),
        "undo confirm": ("get", "characters:character-xp-undo", [spend.pk], {}),
        "undo": ("post", "characters:character-xp-undo", [spend.pk], {}),
    }
    method, url_name, args, data = table[name]
    return method, reverse(url_name, args=[pk, *args]), data


# What each endpoint shows when it works (a POST: the page it redirects to).
SHOWN = {
    "sheet": "<h1>Rook</h1>", "damage": "Marked 1 bashing: Bruised.",
    "heal": "there are only 0 levels of damage to heal, not 1",
    "willpower": "Spent a willpower dot.", "xp page": "<h1>Rook: experience</h1>",
    "xp quote": "Confirm: spend 8 XP", "xp spend": "Spent 8 XP: Driving 3 → 4.",
    "xp bank": "1 XP banked in", "undo confirm": "Undo this spend?",
    "undo": "Undone: Firearms 3 → 4",
}
ENDPOINTS = ["sheet", "damage", "heal", "willpower", "xp page", "xp quote", "xp spend",
             "xp bank", "undo confirm", "undo"]


# --- Who may open what --------------------------------------------------------------------


@pytest.mark.parametrize("name", ENDPOINTS)
def test_an_anonymous_visitor_is_sent_to_log_in(name, bobs_character, bobs_spend):
    method, path, data = endpoint(name, bobs_character, bobs_spend)

    response = getattr(Client(), method)(path, data)

    assert response.status_code == 302
    assert response.url.startswith(f"{reverse('login')}?next=")


@pytest.mark.parametrize("name", ENDPOINTS)
def test_a_stranger_gets_404_so_the_character_does_not_leak(
    name, client_for, carol, bobs_character, bobs_spend
):
    method, path, data = endpoint(name, bobs_character, bobs_spend)

    assert getattr(client_for(carol), method)(path, data).status_code == 404


@pytest.mark.parametrize("name", ENDPOINTS)
def test_another_player_of_the_campaign_cannot_open_bobs_character(
    name, client_for, dave, bobs_character, bobs_spend
):
    method, path, data = endpoint(name, bobs_character, bobs_spend)
    before = Character.objects.get(pk=bobs_character.pk)
    # The sheet itself a party-mate may read (tests/campaigns/test_party_sheets.py) unless
    # the GM turns that off; every other endpoint is the owner's and the GM's alone.
    Campaign.objects.filter(pk=bobs_character.campaign_id).update(party_sheets=False)

    assert getattr(client_for(dave), method)(path, data).status_code == 404
    after = Character.objects.get(pk=bobs_character.pk)
    assert (after.sheet, after.xp_available) == (before.sheet, before.xp_available)


@pytest.mark.parametrize("user_name", ["bob", "alice"])
@pytest.mark.parametrize("name", ENDPOINTS)
def test_the_owner_and_the_gm_can_use_every_endpoint_of_the_character(
    name, user_name, request, client_for, bobs_character, bobs_spend
):
    user = request.getfixturevalue(user_name)
    method, path, data = endpoint(name, bobs_character, bobs_spend)

    response = getattr(client_for(user), method)(path, data, follow=method == "post")

    assert response.status_code == 200
    assert SHOWN[name] in html.unescape(response.content.decode())
    if method == "post":
        assert response.redirect_chain[0][1] == 302
        # An undamaged character has nothing to heal: the endpoint answers, and refuses.
        outcome = "error" if name == "heal" else "success"
        assert f'class="message {outcome}"' in response.content.decode()


def test_a_player_removed_from_the_campaign_can_no_longer_open_his_character(
    client_for, bob, bobs_character
):
    Membership.objects.filter(campaign=bobs_character.campaign, user=bob).delete()

    assert client_for(bob).get(sheet_url(bobs_character)).status_code == 404


def test_a_missing_character_is_404(client_for, alice):
    assert client_for(alice).get(reverse("characters:character-detail", args=[999])).status_code \
        == 404


# --- What the sheet shows -----------------------------------------------------------------


def test_the_sheet_groups_attributes_and_abilities_as_the_seed_does(
    client_for, bob, bobs_character
):
    text = text_of(client_for(bob).get(sheet_url(bobs_character)))

    headings = ["Attributes", "Physical", "Strength", "Precision", "Reflexes", "Mental",
                "Perception", "Intelligence", "Wits", "Abilities", "Talents", "Alertness",
                "Skills", "Artistry", "Driving", "Firearms", "Knowledges", "Computer Science",
                "Navigation"]
    positions = [text.index(heading) for heading in headings]
    assert positions == sorted(positions)


def test_each_trait_shows_its_rank_as_dots(client_for, bob, bobs_character):
    content = client_for(bob).get(sheet_url(bobs_character)).content.decode()

    assert 'aria-label="Precision: 4 dots">●●●●○<' in content
    assert 'aria-label="Driving: 3 dots">●●●○○<' in content
    assert 'aria-label="Melee: 1 dot">●○○○○<' in content
    assert 'aria-label="Science: 0 dots">○○○○○<' in content


def test_each_attribute_and_ability_can_join_the_roll_pool(client_for, bob, bobs_character):
    content = client_for(bob).get(sheet_url(bobs_character)).content.decode()

    assert 'name="trait" value="Precision" form="roll-form"' in content
    assert 'name="trait" value="Driving" form="roll-form"' in content


def test_specialties_are_listed_under_their_ability_marked_general_or_advanced(
    client_for, campaign, bob
):
    character = CharacterFactory(
        campaign=campaign, owner=bob,
        specialties=[("Driving", "Motorcycles", True), ("Driving", "Cars", False),
                     ("Firearms", "Pistols", False)],
    )

    content = client_for(bob).get(sheet_url(character)).content.decode()

    driving = re.search(r'aria-label="Driving specialties">(.*?)</ul>', content, re.S)
    assert driving is not None
    items = " ".join(re.sub(r"<[^>]+>", " ", driving.group(1)).split())
    assert items == "Cars general Motorcycles advanced"
    firearms = re.search(r'aria-label="Firearms specialties">(.*?)</ul>', content, re.S)
    assert firearms is not None
    assert "Pistols" in firearms.group(1)
    assert "Motorcycles" not in firearms.group(1)
    assert content.index('aria-label="Driving specialties"') < content.index("Firearms: 3 dots")
    assert 'name="specialty" value="Driving: Motorcycles" form="roll-form"' in content


def test_the_sheet_shows_permanent_and_current_willpower(client_for, bob, bobs_character):
    stored = fresh(bobs_character).sheet
    stored["willpower"] = {"permanent": 5, "current": 2}
    Character.objects.filter(pk=bobs_character.pk).update(sheet=stored)

    response = client_for(bob).get(sheet_url(bobs_character))

    text = text_of(response)
    assert "Permanent 5 of 10:" in text
    assert "Current 2 of 5:" in text
    assert "●●●●●○○○○○" in text
    assert "■■□□□□□□□□" in text


def test_the_health_chart_has_eight_boxes_from_bruised_to_incapacitated(
    client_for, bob, bobs_character
):
    response = client_for(bob).get(sheet_url(bobs_character))

    boxes = re.findall(r'aria-label="([A-Za-z ]+): empty"', response.content.decode())
    assert boxes == ["Bruised", "Scratched", "Hurt", "Injured", "Wounded", "Mauled", "Crippled",
                     "Incapacitated"]
    assert "Healthy" in text_of(response)


def test_huge_size_adds_a_ninth_box_at_the_top(client_for, campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, huge_size=True)

    content = client_for(bob).get(sheet_url(character)).content.decode()

    boxes = re.findall(r'aria-label="([A-Za-z ]+): empty"', content)
    assert len(boxes) == 9
    assert boxes[:2] == ["Huge Size", "Bruised"]


def test_the_sheet_lists_merits_with_their_cost_and_flaws_with_their_award(
    client_for, bob, bobs_character
):
    stored = fresh(bobs_character).sheet
    stored["merits_flaws"] = [
        {"kind": "flaw", "name": "Dark Secret", "points": 1, "detail": ""},
        {"kind": "merit", "name": "Acute Sense", "points": 2, "detail": "hearing"},
    ]
    Character.objects.filter(pk=bobs_character.pk).update(sheet=stored)

    text = text_of(client_for(bob).get(sheet_url(bobs_character)))

    assert "Acute Sense (hearing) — merit, 2 XP" in text
    assert "Dark Secret — flaw, +1 XP" in text
    assert "No merits or flaws." not in text


def test_a_character_without_merits_or_flaws_says_so(client_for, bob, bobs_character):
    assert "No merits or flaws." in text_of(client_for(bob).get(sheet_url(bobs_character)))


def test_the_sheet_shows_available_total_and_banked_xp(client_for, bob, bobs_character):
    services.sheet_change(character=bobs_character, action=SYSTEM.actions["bank"],
                          data={"trait": "ability:Driving", "amount": 3}, by=bob)

    text = text_of(client_for(bob).get(sheet_url(bobs_character)))

    assert "XP: 27 available, 30 total, 3 banked" in text
    assert "Driving ●●●○○ 3 banked" in text


def test_the_sheet_lists_the_characters_recent_rolls(client_for, bob, bobs_character):
    Roll.objects.create(campaign=bobs_character.campaign, character=bobs_character, rolled_by=bob,
                        ruleset="maelstrom", kind=Roll.Kind.ACTION,
                        description="Precision + Driving: 5 dice, difficulty 6, threshold 0",
                        outcome=Roll.Outcome.SUCCESS, net=1, summary="1 success")

    text = text_of(client_for(bob).get(sheet_url(bobs_character)))

    # The pool's short header (SheetSystem.roll_header): the threshold is on the roll's page.
    assert "Precision + Driving · 5 dice · diff 6 — 1 success" in text
    assert "No rolls yet." not in text


# --- Query counts -------------------------------------------------------------------------


def many_specialties() -> list[tuple[str, str, bool]]:
    return [
        ("Driving", "Cars", False), ("Driving", "Trucks", False), ("Driving", "Buses", False),
        ("Driving", "Motorcycles", True), ("Firearms", "Pistols", False),
        ("Firearms", "Shotguns", False), ("Firearms", "Sniper Rifles", False),
        ("Firearms", "Extreme Range", True), ("Athletics", "Run", False),
        ("Athletics", "Jump", False), ("Athletics", "Parkour", True),
        ("Stealth", "Surveillance", False), ("Medicine", "First Aid", False),
        ("Medicine", "Surgery", True), ("Piloting", "Shuttles", False),
    ]


@pytest.mark.parametrize("specialties", [[("Driving", "Cars", False)], many_specialties()],
                         ids=["1 specialty", "15 specialties"])
def test_the_sheet_costs_the_same_queries_whatever_the_number_of_specialties(
    specialties, client_for, campaign, bob, django_assert_num_queries
):
    character = CharacterFactory(campaign=campaign, owner=bob, specialties=specialties)
    client = client_for(bob)

    with django_assert_num_queries(SHEET_QUERIES):
        response = client.get(sheet_url(character))

    assert response.status_code == 200
    assert response.content.decode().count('name="specialty"') == len(specialties)


@pytest.mark.parametrize("rolls", [1, 5])
def test_the_sheets_recent_rolls_cost_one_more_query_whatever_their_number(
    rolls, client_for, campaign, bob, django_assert_num_queries
):
    character = CharacterFactory(campaign=campaign, owner=bob)
    for n in range(rolls):
        parent = Roll.objects.create(
            campaign=campaign, character=character, rolled_by=bob, ruleset="maelstrom",
            kind=Roll.Kind.ACTION, description=f"roll {n}", outcome=Roll.Outcome.SUCCESS,
            net=1, summary="1 success",
        )
        Roll.objects.create(
            campaign=campaign, character=character, rolled_by=bob, ruleset="maelstrom",
            kind=RollKind.EXPERIENCE_DIE, parent=parent, description=f"roll {n}",
            outcome=Roll.Outcome.SUCCESS, net=2, summary="2 successes",
        )
    client = client_for(bob)

    with django_assert_num_queries(SHEET_QUERIES + 1):  # + the follow-ups, prefetched
        response = client.get(sheet_url(character))

    assert response.content.decode().count("then experience die: 2 successes") == rolls
