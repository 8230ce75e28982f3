"""Maelstrom's XP page: its chapter and story awards, what XP buys and costs (dots,
Willpower, specialties general and advanced), banking (the sheet action "bank") and undoing
what a bank paid for or a specialty bought (Maelstrom rules.md, Earning Experience, Spending
Experience, Banking Experience). The XP page's quote-then-confirm, awards and undo for any
system are in tests/characters/test_xp_spend.py and test_xp_ledger.py.

After every test the ledger must balance: each character's available and total XP equal the
sums of its ledger entries, and no bank is overdrawn.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from characters.ledger import banked_xp
from characters.models import Character, XpEntry
from systems.maelstrom import sheet
from systems.maelstrom.system import SYSTEM as MAELSTROM
from tests.factories import CharacterFactory
from tests.helpers import action_url, fresh, spends, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]


def url(name: str, character: Character, *args: int) -> str:
    if name == "bank":
        return action_url(character, "bank")
    return reverse(f"characters:character-xp-{name}", args=[character.pk, *args])


def dots(character: Character, name: str) -> int:
    return sheet.trait_refs(fresh(character).sheet)[name].dots


def specialties(character: Character) -> list[dict[str, object]]:
    return list(fresh(character).sheet["specialties"])


# --- Awards -------------------------------------------------------------------------------


def test_the_gm_awards_one_xp_for_each_award_ticked(client_for, alice, bobs_character):
    response = client_for(alice).post(url("award", bobs_character),
                                      {"awards": ["Participation", "Heroism"]}, follow=True)

    xp_page = reverse("characters:character-xp", args=[bobs_character.pk])
    assert response.redirect_chain == [(xp_page, 302)]
    assert "Awarded 2 XP to Rook." in text_of(response)
    assert (fresh(bobs_character).xp_available, fresh(bobs_character).xp_total) == (32, 32)
    reasons = set(XpEntry.objects.filter(character=bobs_character, kind=XpEntry.Kind.AWARD)
                  .values_list("reason", flat=True))
    assert reasons == {"Participation award", "Heroism award"}


# --- What XP buys and costs ---------------------------------------------------------------


@pytest.mark.parametrize(("advanced", "cost"), [(False, 2), (True, 3)],
                         ids=["general", "advanced"])
def test_a_new_specialty_costs_2_xp_general_or_3_xp_advanced(
    advanced, cost, client_for, bob, bobs_character
):
    data = {"trait": "specialty", "ability": "Driving", "specialty_name": "Hovercycles",
            "expected_cost": str(cost)}
    if advanced:
        data["advanced"] = "on"
    client = client_for(bob)

    quote = client.get(url("spend", bobs_character), data)
    client.post(url("spend", bobs_character), data)

    kind = "advanced" if advanced else "general"
    assert f"Driving: Hovercycles ({kind}) 0 → 1 costs {cost} XP" in text_of(quote)
    assert specialties(bobs_character) == [
        {"ability": "Driving", "name": "Hovercycles", "advanced": advanced}]
    assert fresh(bobs_character).xp_available == 30 - cost
    [entry] = spends(bobs_character)
    assert entry.trait_key == "specialty:Driving:Hovercycles"


def confirm_form(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The hidden fields of the quote's "Confirm" form, as the browser would post them."""
    form = re.search(r'<form method="post" action="[^"]*/xp/spend/".*?</form>',
                     response.content.decode(), re.S)
    assert form is not None, "the quote has no confirm form"
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(0))
    return {name: html.unescape(value) for name, value in fields
            if name != "csrfmiddlewaretoken"}


def test_posting_the_quotes_confirm_form_buys_exactly_what_was_quoted(
    client_for, bob, bobs_character
):
    client = client_for(bob)
    quote = client.get(url("spend", bobs_character), {
        "trait": "specialty", "ability": "Firearms", "specialty_name": "Extreme Range",
        "advanced": "on",
    })

    client.post(url("spend", bobs_character), confirm_form(quote))

    assert specialties(bobs_character) == [
        {"ability": "Firearms", "name": "Extreme Range", "advanced": True}]
    assert fresh(bobs_character).xp_available == 27


def test_a_specialty_the_character_already_has_is_refused(client_for, campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob,
                                 specialties=[("Driving", "Motorcycles", True)])

    response = client_for(bob).post(url("spend", character), {
        "trait": "specialty", "ability": "Driving", "specialty_name": "motorcycles",
        "advanced": "on", "expected_cost": "3",
    })

    assert "Driving: motorcycles is already a specialty of this character." in text_of(response)
    assert len(specialties(character)) == 1
    assert fresh(character).xp_available == 30


def test_a_specialty_needs_an_ability_and_a_name(client_for, bob, bobs_character):
    response = client_for(bob).get(url("spend", bobs_character), {"trait": "specialty"})

    text = text_of(response)
    assert "Choose the ability the specialty belongs to." in text
    assert "Name the specialty." in text


def test_buying_willpower_raises_permanent_and_current_for_the_new_rank(
    client_for, bob, bobs_character
):
    stored = fresh(bobs_character).sheet
    stored["willpower"]["current"] = 2
    Character.objects.filter(pk=bobs_character.pk).update(sheet=stored)

    client_for(bob).post(url("spend", bobs_character),
                         {"trait": "willpower", "expected_cost": "4"})

    character = fresh(bobs_character)
    assert sheet.willpower(character.sheet) == (4, 3)
    assert character.xp_available == 26


def test_an_attribute_dot_costs_a_flat_15_xp(client_for, bob, bobs_character):
    client = client_for(bob)

    quote = client.get(url("spend", bobs_character), {"trait": "attribute:Strength"})
    client.post(url("spend", bobs_character), {"trait": "attribute:Strength",
                                               "expected_cost": "15"})

    assert "Strength 2 → 3 costs 15 XP" in text_of(quote)
    assert dots(bobs_character, "Strength") == 3
    assert fresh(bobs_character).xp_available == 15


def test_an_ability_at_five_dots_cannot_be_raised(client_for, campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, abilities={"Driving": 5})

    quote = client_for(bob).get(url("spend", character), {"trait": "ability:Driving"})
    response = client_for(bob).post(url("spend", character), {"trait": "ability:Driving"})

    assert "Confirm: spend" not in text_of(quote)
    assert "can only be bought up to rank 5, not rank 6" in text_of(response)
    assert dots(character, "Driving") == 5
    assert fresh(character).xp_available == 30
    assert "an ability can only be bought up to rank 5, not rank 6" in text_of(quote)


# --- Banking ------------------------------------------------------------------------------


def test_banking_moves_available_xp_into_the_trait(client_for, bob, bobs_character):
    client = client_for(bob)

    response = client.post(url("bank", bobs_character), {"trait": "ability:Driving",
                                                         "amount": "3"})
    page = client.get(response.url)

    assert response.status_code == 302
    assert fresh(bobs_character).xp_available == 27
    assert fresh(bobs_character).xp_total == 30
    assert banked_xp(bobs_character) == {"ability:Driving": 3}
    assert "Driving: 3 XP" in text_of(page)


def test_the_bank_message_names_the_trait_as_the_sheet_spells_it(client_for, bob, bobs_character):
    client = client_for(bob)

    response = client.post(url("bank", bobs_character), {"trait": "ability:Heavy Weapons",
                                                         "amount": "3"}, follow=True)

    assert "3 XP banked in Heavy Weapons." in text_of(response)


def test_an_htmx_bank_answers_with_the_xp_panel(client_for, bob, bobs_character):
    response = client_for(bob, htmx=True).post(url("bank", bobs_character),
                                               {"trait": "ability:Driving", "amount": "3"})

    assert "<html" not in response.content.decode()
    assert "27 XP available" in text_of(response)
    assert "Driving: 3 XP" in text_of(response)


def test_buying_a_banked_trait_uses_the_bank_first_then_available_xp(
    client_for, bob, bobs_character
):
    client = client_for(bob)
    client.post(url("bank", bobs_character), {"trait": "ability:Driving", "amount": "3"})

    quote = client.get(url("spend", bobs_character), {"trait": "ability:Driving"})
    client.post(url("spend", bobs_character), {"trait": "ability:Driving", "expected_cost": "8"})

    assert "Driving 3 → 4 costs 8 XP: 3 from the bank, 5 from available XP." in text_of(quote)
    assert dots(bobs_character, "Driving") == 4
    assert fresh(bobs_character).xp_available == 22
    assert banked_xp(bobs_character) == {}
    [entry] = spends(bobs_character)
    assert (entry.available_delta, entry.banked_delta, entry.bank_key) == (-5, -3,
                                                                          "ability:Driving")


def test_an_abilitys_bank_pays_for_its_specialty(client_for, bob, bobs_character):
    client = client_for(bob)
    client.post(url("bank", bobs_character), {"trait": "ability:Driving", "amount": "2"})

    client.post(url("spend", bobs_character), {"trait": "specialty", "ability": "Driving",
                                               "specialty_name": "Cars",
                                               "expected_cost": "2"})

    assert [s["name"] for s in specialties(bobs_character)] == ["Cars"]
    assert fresh(bobs_character).xp_available == 28
    assert banked_xp(bobs_character) == {}


def test_another_traits_bank_does_not_pay_for_a_purchase(client_for, bob, bobs_character):
    client = client_for(bob)
    client.post(url("bank", bobs_character), {"trait": "ability:Firearms", "amount": "3"})

    client.post(url("spend", bobs_character), {"trait": "ability:Driving", "expected_cost": "8"})

    assert fresh(bobs_character).xp_available == 19
    assert banked_xp(bobs_character) == {"ability:Firearms": 3}


def test_banking_more_than_is_available_is_refused(client_for, bob, bobs_character):
    response = client_for(bob).post(url("bank", bobs_character),
                                    {"trait": "ability:Driving", "amount": "31"}, follow=True)

    assert response.redirect_chain == [(reverse("characters:character-xp",
                                                 args=[bobs_character.pk]), 302)]
    assert "Banking 31 XP needs 31 available; you have 30 XP available." in text_of(response)
    assert 'class="message error"' in response.content.decode()
    assert fresh(bobs_character).xp_available == 30
    assert banked_xp(bobs_character) == {}


# --- Undo ---------------------------------------------------------------------------------


def test_undoing_a_spend_paid_from_the_bank_puts_that_part_back_in_the_bank(
    client_for, bob, bobs_character
):
    client = client_for(bob)
    client.post(url("bank", bobs_character), {"trait": "ability:Driving", "amount": "3"})
    client.post(url("spend", bobs_character), {"trait": "ability:Driving", "expected_cost": "8"})
    [entry] = spends(bobs_character)

    client.post(url("undo", bobs_character, entry.pk))

    assert fresh(bobs_character).xp_available == 27
    assert banked_xp(bobs_character) == {"ability:Driving": 3}
    assert dots(bobs_character, "Driving") == 3


def test_undoing_a_specialty_purchase_removes_the_specialty(client_for, bob, bobs_character):
    client = client_for(bob)
    client.post(url("spend", bobs_character), {"trait": "specialty", "ability": "Driving",
                                               "specialty_name": "Cars", "expected_cost": "2"})
    entry = spends(bobs_character)[0]

    client.post(url("undo", bobs_character, entry.pk))

    assert specialties(bobs_character) == []
    assert fresh(bobs_character).xp_available == 30


def test_the_undo_page_says_what_goes_back_in_dots(client_for, bob, bobs_character):
    client = client_for(bob)
    client.post(url("bank", bobs_character), {"trait": "ability:Driving", "amount": "3"})
    client.post(url("spend", bobs_character), {"trait": "ability:Driving", "expected_cost": "8"})
    [entry] = spends(bobs_character)

    text = text_of(client.get(url("undo", bobs_character, entry.pk)))

    assert "Driving goes back from 4 to 3 dots. The XP comes back (3 of it to the bank)." in text
    # "they gain a dot in both their current and maximum ranks" (Maelstrom rules.md, Willpower)
    assert MAELSTROM.undo_description(bobs_character, XpEntry(
        trait_key="willpower", rank_from=3, rank_to=4)) == (
        "Permanent Willpower goes back from 4 to 3 dots, and current Willpower loses a dot "
        "with it.")
    assert MAELSTROM.undo_description(bobs_character, XpEntry(
        trait_key="specialty:Driving:Cars", rank_from=0, rank_to=1)) == (
        "The specialty Driving: Cars is removed.")


# --- Specialty names, and the rule a refusal cites ----------------------------------------


def test_a_suggested_advanced_specialty_is_sold_at_the_advanced_price_whatever_the_box_says(
    client_for, bob, bobs_character
):
    data = {"trait": "specialty", "ability": "Firearms", "specialty_name": "extreme range"}
    client = client_for(bob)

    quote = client.get(url("spend", bobs_character), data)
    client.post(url("spend", bobs_character), {**data, "expected_cost": "3"})

    assert "Firearms: Extreme Range (advanced) 0 → 1 costs 3 XP" in text_of(quote)
    assert [(s["name"], s["advanced"]) for s in specialties(bobs_character)] == [
        ("Extreme Range", True)]
    assert fresh(bobs_character).xp_available == 27


@pytest.mark.parametrize("name", ["x" * 81, "Cars: Racing"], ids=["too long", "a colon"])
def test_a_specialty_name_the_sheet_cannot_keep_is_refused_however_it_is_posted(
    client_for, bob, bobs_character, name
):
    """The name box takes 80 characters, but the purchase's ``key`` is posted too: a name
    longer than an export can carry back, or with the colon that separates the ledger key's
    parts, is refused by the rules whichever way it comes (Maelstrom rules.md, Specialties)."""
    response = client_for(bob).post(url("spend", bobs_character), {
        "key": f"specialty:Driving:{name}", "expected_cost": "2"})

    assert response.status_code == 400
    assert ("A specialty's name is one line of at most 80 characters, without a colon."
            in text_of(response))
    assert "(Maelstrom rules, Specialties)" in text_of(response)
    assert specialties(bobs_character) == []
    assert fresh(bobs_character).xp_available == 30


def test_a_refused_spend_cites_maelstroms_rule_for_spending(client_for, bob, campaign):
    poor = CharacterFactory(campaign=campaign, owner=bob, starting_xp=5)

    response = client_for(bob).post(url("spend", poor), {
        "trait": "ability:Driving", "expected_cost": "8"})

    assert ("Driving 3 → 4 costs 8 XP; you have 5 XP available (3 short). "
            "(Maelstrom rules, Spending Experience)") in text_of(response)
