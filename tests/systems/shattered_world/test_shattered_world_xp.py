"""Shattered World achievements and buy-ins: the GM logs milestones (once) and feats (again
and again), each 1 XP and 1 achievement; XP buys levels of the catalogue's buy-ins at the
price shown before confirming, with the multipliers and prerequisites of the seed; undo is a
reversing entry (Shattered World Core Engine, Achievements and Buy-Ins; Universal
Achievements; Universal Buy-Ins)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character, XpEntry
from characters.services import sheet_change, xp_spend, xp_undo
from rulesets.errors import RuleError
from systems.shattered_world.actions import ACTIONS
from systems.shattered_world.system import SYSTEM
from tests import shattered_world_cast as sheet_tests
from tests.helpers import action_url, sheet_of, spend_url, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]
kaelin = sheet_tests.kaelin  # the fixture, shared
sw_campaign = sheet_tests.sw_campaign  # the fixture, shared


def log(client, character: Character, name: str, kind: str = "feat"):  # type: ignore[no-untyped-def]
    return client.post(action_url(character, "achievement"),
                       {"kind": kind, "name": name, "category": "universal"})


def award(character: Character, count: int, by) -> Character:  # type: ignore[no-untyped-def]
    """``count`` feats logged through the service, as the GM's form does."""
    for n in range(count):
        character, _ = sheet_change(character=character, action=ACTIONS["achievement"],
                                    data={"kind": "feat", "name": f"Feat {n}",
                                          "category": "universal"}, by=by)
    return Character.objects.get(pk=character.pk)


def set_custom(campaign: Campaign, *rows: dict) -> None:  # type: ignore[type-arg]
    campaign.system_data = {**SYSTEM.default_system_data(), "custom_buy_ins": list(rows)}
    campaign.save(update_fields=["system_data"])


SPELL = {"name": "Fireball", "cost": "3/e", "effect": "A ball of fire", "field_role": "Mage",
         "subrole": "", "ability": "", "hit_points": 0, "min_achievements": 0, "requires": ""}
LANCE = {"name": "Lance Charge", "cost": "2/x", "effect": "", "field_role": "Warrior",
         "subrole": "Cavalier", "ability": "PF", "hit_points": 0, "min_achievements": 0,
         "requires": ""}
TOUGH = {"name": "Toughness", "cost": "2/e", "effect": "+5 HP", "field_role": "Mage",
         "subrole": "", "ability": "", "hit_points": 5, "min_achievements": 0, "requires": ""}


# --- Achievements -----------------------------------------------------------------------------


def test_the_gm_logs_a_milestone_for_one_xp_and_one_achievement(client_for, alice, kaelin):
    response = log(client_for(alice, htmx=True), kaelin, "Talk to strangers at the inn",
                   "milestone")

    assert "Milestone: Talk to strangers at the inn logged: +1 XP" in text_of(response)
    assert 'id="sheet-xp" hx-swap-oob="true"' in response.content.decode()
    kaelin.refresh_from_db()
    assert (kaelin.xp_available, kaelin.xp_total) == (1, 1)
    assert kaelin.sheet["achievements"]["total"] == 1
    entry = kaelin.xp_entries.get()
    assert (entry.kind, entry.trait_key) == ("award", "milestone:Talk to strangers at the inn")


def test_the_gms_answer_keeps_the_log_form_for_the_next_achievement(client_for, alice, kaelin):
    response = log(client_for(alice, htmx=True), kaelin, "Accept a quest")

    assert response.content.decode().lstrip().startswith('<div id="sheet-achievements">')
    assert "Log an achievement (GM)" in text_of(response)


def test_a_milestone_logged_twice_is_refused_with_the_reason(client_for, alice, kaelin):
    client = client_for(alice, htmx=True)
    log(client, kaelin, "Surrender", "milestone")

    response = log(client, kaelin, "Surrender", "milestone")

    assert "was already earned: milestones are collected once per lifetime" in text_of(response)
    assert kaelin.xp_entries.count() == 1
    assert sheet_of(kaelin)["achievements"]["total"] == 1


def test_a_feat_is_repeatable(client_for, alice, kaelin):
    client = client_for(alice, htmx=True)
    log(client, kaelin, "Defeat any enemy")
    response = log(client, kaelin, "Defeat any enemy")

    assert "Defeat any enemy ×2" in text_of(response)
    kaelin.refresh_from_db()
    assert kaelin.xp_available == 2
    assert kaelin.sheet["achievements"]["feats"] == {"Defeat any enemy": 2}


def test_a_custom_achievement_is_accepted(client_for, alice, kaelin):
    log(client_for(alice), kaelin, "Slay the tide-wyrm", "milestone")

    assert sheet_of(kaelin)["achievements"]["milestones"] == ["Slay the tide-wyrm"]


def test_a_player_cannot_log_an_achievement(client_for, bob, kaelin):
    response = log(client_for(bob), kaelin, "Surrender", "milestone")

    assert response.status_code == 404
    assert not kaelin.xp_entries.exists()


def test_the_player_does_not_see_the_log_form(client_for, bob, alice, kaelin):
    assert "Log an achievement" not in text_of(client_for(bob).get(kaelin.get_absolute_url()))
    assert "Log an achievement" in text_of(client_for(alice).get(kaelin.get_absolute_url()))


def test_the_gm_undoes_a_milestone_with_a_reversing_entry_and_may_log_it_again(
    client_for, alice, kaelin
):
    client = client_for(alice)
    log(client, kaelin, "Surrender", "milestone")
    entry = kaelin.xp_entries.get()

    response = client.post(action_url(kaelin, "achievement_undo"), {"entry": entry.pk},
                           follow=True)

    assert "Undone: Milestone: Surrender (universal)." in text_of(response)
    kaelin.refresh_from_db()
    assert (kaelin.xp_available, kaelin.sheet["achievements"]["total"]) == (0, 0)
    assert kaelin.xp_entries.filter(kind="reversal", reverses=entry).exists()
    log(client, kaelin, "Surrender", "milestone")
    assert sheet_of(kaelin)["achievements"]["milestones"] == ["Surrender"]


def test_an_achievement_is_undone_only_once(client_for, alice, kaelin):
    client = client_for(alice, htmx=True)
    log(client, kaelin, "Accept a quest")
    entry = kaelin.xp_entries.get()
    client.post(action_url(kaelin, "achievement_undo"), {"entry": entry.pk})

    response = client.post(action_url(kaelin, "achievement_undo"), {"entry": entry.pk})

    assert "That achievement has already been undone." in text_of(response)
    assert kaelin.xp_entries.count() == 2


def test_total_achievements_are_kept_when_xp_is_spent(alice, bob, kaelin):
    kaelin = award(kaelin, 3, alice)

    xp_spend(character=kaelin, key="buy_in:Increase UAM", by=bob)

    kaelin.refresh_from_db()
    assert kaelin.xp_available == 2
    assert kaelin.sheet["achievements"]["total"] == 3


# --- Buy-ins: prices --------------------------------------------------------------------------


def test_the_xp_page_lists_the_buy_ins_with_their_next_price(client_for, alice, bob, kaelin):
    award(kaelin, 1, alice)

    response = client_for(bob).get(reverse("characters:character-xp", args=[kaelin.pk]))

    text = text_of(response)
    assert "Increase UAM 0 → 1: 1 XP" in text
    assert "Exceptional Ability, Each (Physical Fitness) 0 → 1: 5 XP" in text
    assert "Action die d4 → d6 (field role die d8 → d10): 10 XP" in text
    assert "Buy Into Adjacent Field Subrole ×2" in text


def test_the_price_is_shown_before_confirming(client_for, alice, bob, kaelin):
    award(kaelin, 1, alice)

    response = client_for(bob).get(spend_url(kaelin), {"key": "buy_in:Increase UAM"})

    assert "Increase UAM 0 → 1 costs 1 XP. 1/e: purchase 1 costs 1 XP." in text_of(response)
    assert 'name="expected_cost" value="1"' in response.content.decode()
    assert not kaelin.xp_entries.filter(kind="spend").exists()


def test_buying_a_level_is_one_ledger_entry_and_the_next_level_costs_more(
    client_for, alice, bob, kaelin
):
    award(kaelin, 3, alice)
    client = client_for(bob)

    client.post(spend_url(kaelin), {"key": "buy_in:Increase UAM", "expected_cost": "1"})
    response = client.get(spend_url(kaelin), {"key": "buy_in:Increase UAM"})

    spend = kaelin.xp_entries.get(kind="spend")
    assert (spend.available_delta, spend.rank_from, spend.rank_to) == (-1, 0, 1)
    assert sheet_of(kaelin)["buy_ins"] == {"Increase UAM": 1}
    assert "Increase UAM 1 → 2 costs 2 XP." in text_of(response)


def test_the_htmx_purchase_answers_with_the_xp_panel(client_for, alice, bob, kaelin):
    award(kaelin, 1, alice)

    response = client_for(bob, htmx=True).post(
        spend_url(kaelin), {"key": "buy_in:Increase UAM", "expected_cost": "1"})

    assert response.content.decode().lstrip().startswith('<div id="xp-panel">')
    assert sheet_of(kaelin)["buy_ins"] == {"Increase UAM": 1}


def test_a_purchase_the_balance_cannot_cover_is_refused_and_writes_nothing(
    client_for, alice, bob, kaelin
):
    award(kaelin, 4, alice)

    response = client_for(bob).post(spend_url(kaelin), {
        "key": "buy_in:Exceptional Ability, Each:PF", "expected_cost": "5"})

    assert response.status_code == 400
    assert "costs 5 XP; you have 4 XP available (1 short)" in text_of(response)
    assert sheet_of(kaelin)["buy_ins"] == {}


def test_exceptional_ability_adds_two_to_the_statistic_and_grows_as_5_x2(alice, bob, kaelin):
    kaelin = award(kaelin, 15, alice)
    key = "buy_in:Exceptional Ability, Each:PF"

    first = xp_spend(character=kaelin, key=key, by=bob)
    kaelin.refresh_from_db()
    second = SYSTEM.quote(kaelin, key)

    assert first.available_delta == -5
    assert second.cost == 10
    assert kaelin.sheet["statistics"]["PF"] == {"current": 20, "max": 20}


def test_uncanny_needs_exceptional_first_naming_it(alice, kaelin):
    kaelin = award(kaelin, 10, alice)

    with pytest.raises(RuleError, match=r"needs Exceptional Ability, Each \(Mental Acuity\) "
                                        "first"):
        SYSTEM.quote(kaelin, "buy_in:Uncanny Ability, Each:MA")


def test_super_ability_needs_proficiency_in_that_statistic(alice, kaelin):
    with pytest.raises(RuleError, match="needs proficiency in Spirit"):
        SYSTEM.quote(kaelin, "buy_in:Super Ability, Each:SP")


def test_a_statistic_cannot_pass_its_tiers_cap(alice, bob, kaelin):
    kaelin.sheet["statistics"]["PF"] = {"current": 40, "max": 40}
    kaelin.save()

    with pytest.raises(RuleError, match="would pass this tier's cap of 40"):
        SYSTEM.quote(kaelin, "buy_in:Exceptional Ability, Each:PF")


def test_the_action_die_steps_up_and_the_field_role_die_with_it(alice, bob, kaelin):
    kaelin = award(kaelin, 10, alice)

    xp_spend(character=kaelin, key="buy_in:Action Die", by=bob)

    kaelin.refresh_from_db()
    context = SYSTEM.sheet_context(kaelin, is_gm=False)
    assert (context["action_die"], context["field_role_die"]) == (6, 10)


def test_the_undo_page_says_what_a_buy_in_level_took_back(client_for, alice, bob, kaelin):
    kaelin = award(kaelin, 10, alice)
    entry = xp_spend(character=kaelin, key="buy_in:Action Die", by=bob)

    text = text_of(client_for(bob).get(
        reverse("characters:character-xp-undo", args=[kaelin.pk, entry.pk])))

    assert ("The action die steps back down from d6 to d4, and the field role die from d10 "
            "to d8. The XP comes back.") in text
    assert SYSTEM.undo_description(kaelin, XpEntry(
        trait_key="buy_in:Exceptional Ability, Each:PF", rank_from=0, rank_to=1)) == (
        "Exceptional Ability, Each (Physical Fitness) goes back from 1 level to none: "
        "Physical Fitness loses 2 points of its maximum and current.")
    assert SYSTEM.undo_description(kaelin, XpEntry(
        trait_key="buy_in:Increase UAM", rank_from=1, rank_to=2)) == (
        "Increase UAM goes back from 2 levels to 1: the UAM goes back from +2 to +1.")


def test_the_action_die_at_the_last_step_is_refused(kaelin):
    kaelin.sheet["action_die_level"] = 5
    kaelin.save()

    with pytest.raises(RuleError, match="last step of the chart"):
        SYSTEM.quote(kaelin, "buy_in:Action Die")


def test_an_unknown_buy_in_is_refused(kaelin):
    with pytest.raises(RuleError, match="is not in this campaign's buy-in catalogue"):
        SYSTEM.quote(kaelin, "buy_in:Flight")


# --- Buy-ins: multipliers and prerequisites ---------------------------------------------------


def test_an_adjacent_subrole_costs_double_once_its_prerequisites_are_met(alice, kaelin):
    set_custom(kaelin.campaign, LANCE)
    kaelin = award(kaelin, 25, alice)
    kaelin.sheet["foible"] = "Reckless honour"
    kaelin.save()

    advance = SYSTEM.quote(kaelin, "buy_in:Lance Charge")

    assert advance.cost == 4
    assert "×2: bought from Warrior / Cavalier, your adjacent subrole." in advance.notes


def test_an_adjacent_subrole_needs_25_achievements_and_a_foible(kaelin):
    set_custom(kaelin.campaign, LANCE)
    kaelin.refresh_from_db()

    with pytest.raises(RuleError) as refused:
        SYSTEM.quote(kaelin, "buy_in:Lance Charge")

    assert "needs min. 25 achievements (has 0) (Buy Into Adjacent Field Subrole)" in str(
        refused.value)
    assert "must accept a foible" in str(refused.value)


def test_a_first_additional_field_role_costs_double_and_a_second_triple(alice, bob, kaelin):
    shield = {**SPELL, "name": "Holy Shield", "field_role": "Priest", "cost": "4"}
    set_custom(kaelin.campaign, SPELL, shield)
    kaelin = award(kaelin, 60, alice)

    assert SYSTEM.quote(kaelin, "buy_in:Fireball").cost == 6
    xp_spend(character=kaelin, key="buy_in:Fireball", by=bob)
    kaelin.refresh_from_db()

    assert kaelin.sheet["additional_field_roles"] == ["Mage"]
    assert SYSTEM.quote(kaelin, "buy_in:Fireball").cost == 12
    assert SYSTEM.quote(kaelin, "buy_in:Holy Shield").cost == 12


def test_a_first_additional_field_role_needs_25_achievements(alice, kaelin):
    set_custom(kaelin.campaign, SPELL)
    kaelin = award(kaelin, 12, alice)

    with pytest.raises(RuleError, match=r"needs min. 25 achievements \(has 12\)"):
        SYSTEM.quote(kaelin, "buy_in:Fireball")


def test_hit_points_from_another_field_role_have_no_multiplier(alice, bob, kaelin):
    set_custom(kaelin.campaign, TOUGH)
    kaelin = award(kaelin, 30, alice)

    advance = SYSTEM.quote(kaelin, "buy_in:Toughness")
    xp_spend(character=kaelin, key="buy_in:Toughness", by=bob)

    assert advance.cost == 2
    assert sheet_of(kaelin)["hit_points"] == {"current": 29, "max": 29}


def test_a_refused_buy_in_shows_the_reason_on_the_xp_page(client_for, bob, kaelin):
    response = client_for(bob).get(spend_url(kaelin),
                                   {"key": "buy_in:Super Ability, Each:SP"})

    assert response.status_code == 400
    assert "needs Uncanny Ability, Each (Spirit) first" in text_of(response)


# --- Undo -------------------------------------------------------------------------------------


def test_undo_is_a_reversing_entry_that_takes_the_level_and_its_effect_back(
    alice, bob, kaelin
):
    set_custom(kaelin.campaign, TOUGH)
    kaelin = award(kaelin, 30, alice)
    spend = xp_spend(character=kaelin, key="buy_in:Toughness", by=bob)

    xp_undo(entry=spend, by=bob, as_gm=False)

    kaelin.refresh_from_db()
    assert kaelin.xp_available == 30
    assert kaelin.sheet["buy_ins"] == {}
    assert kaelin.sheet["hit_points"] == {"current": 24, "max": 24}
    assert kaelin.sheet["additional_field_roles"] == []
    assert XpEntry.objects.filter(reverses=spend).exists()


def test_undo_through_the_page(client_for, alice, bob, kaelin):
    kaelin = award(kaelin, 10, alice)
    spend = xp_spend(character=kaelin, key="buy_in:Action Die", by=bob)

    client_for(bob).post(reverse("characters:character-xp-undo", args=[kaelin.pk, spend.pk]))

    assert sheet_of(kaelin)["action_die_level"] == 0


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_nobody_else_sees_or_buys(client, client_for, carol, kaelin, who):
    visitor = client if who == "anonymous" else client_for(carol)

    page = visitor.get(reverse("characters:character-xp", args=[kaelin.pk]))
    buy = visitor.post(spend_url(kaelin), {"key": "buy_in:Increase UAM", "expected_cost": "1"})

    assert page.status_code == buy.status_code == (302 if who == "anonymous" else 404)
