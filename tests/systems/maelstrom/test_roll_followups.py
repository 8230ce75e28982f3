"""What a player may do after a roll: add the experience die, or spend willpower to succeed
on a Willpower roll (Maelstrom rules.md, Adding Experience Dice, Rolling Willpower). Each is
a new follow-up row; the roll itself is never edited. Who sees a roll: every member of the
campaign (the table's log); who may act on it: the character's owner and the GM.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from characters.ledger import banked_xp
from characters.models import Character, XpEntry
from rolls.models import Roll
from rulesets.maelstrom.storage import LedgerKind, RollKind
from tests.factories import CharacterFactory
from tests.helpers import fresh, text_of
from tests.systems.maelstrom.sheets import current_willpower, set_tracks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]

EXPERIENCE_BUTTON = "Add an experience die"
WILLPOWER_BUTTON = "Spend a willpower dot to succeed"



def experience_url(roll: Roll) -> str:
    return reverse("rolls:roll-act", args=[roll.code, "experience-die"])


def willpower_url(roll: Roll) -> str:
    return reverse("rolls:roll-act", args=[roll.code, "willpower-spend"])


@pytest.fixture
def rider(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """The seed's motorcycle rider: Precision 3, Driving 2, 30 XP, willpower 3."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Rider",
                            attributes={"Precision": 3}, abilities={"Driving": 2},
                            specialties=[("Driving", "Motorcycles", True)])


@pytest.fixture
def roll_for(client_for, bob, scripted_dice):  # type: ignore[no-untyped-def]
    """``roll_for(character, faces, **fields)``: Bob rolls on the sheet; returns the Roll."""

    def make(character: Character, faces: list[int], **fields: object) -> Roll:
        data = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
                "threshold": "0", **fields}
        scripted_dice(faces)
        response = client_for(bob).post(reverse("rolls:roll-create", args=[character.pk]), data)
        assert response.status_code == 302, response.content.decode()
        return Roll.objects.filter(parent__isnull=True).first()

    return make


@pytest.fixture
def one_success(roll_for, rider) -> Roll:  # type: ignore[no-untyped-def]
    """The seed's motorcycle roll: 1, 3, 4, 6, 7 at difficulty 6 is 1 success."""
    return roll_for(rider, [1, 3, 4, 6, 7])


def willpower_roll(roll_for, character: Character, faces: list[int]) -> Roll:  # type: ignore[no-untyped-def]
    return roll_for(character, faces, kind="willpower", trait=[])


# --- Who sees a roll, who acts on it ------------------------------------------------------


def test_another_player_sees_bobs_roll_in_the_log_but_without_the_buttons(
    client_for, dave, one_success
):
    detail = client_for(dave).get(one_success.get_absolute_url())
    log = client_for(dave).get(reverse("rolls:roll-list", args=[one_success.campaign_id]))

    assert detail.status_code == 200
    assert "1 success" in text_of(detail)
    assert EXPERIENCE_BUTTON not in text_of(detail)
    assert "Rider's sheet" not in text_of(detail)
    assert log.status_code == 200
    assert one_success.get_absolute_url() in log.content.decode()


def test_another_player_does_not_see_the_willpower_button_on_bobs_willpower_roll(
    client_for, dave, roll_for, rider
):
    roll = willpower_roll(roll_for, rider, [2, 3, 4])

    detail = client_for(dave).get(roll.get_absolute_url())

    assert detail.status_code == 200
    assert WILLPOWER_BUTTON not in text_of(detail)
    assert EXPERIENCE_BUTTON not in text_of(detail)


@pytest.mark.parametrize("user_name", ["bob", "alice"])
def test_the_owner_and_the_gm_see_the_buttons(user_name, request, client_for, roll_for, rider):
    roll = willpower_roll(roll_for, rider, [2, 3, 4])

    detail = client_for(request.getfixturevalue(user_name)).get(roll.get_absolute_url())

    assert EXPERIENCE_BUTTON in text_of(detail)
    assert WILLPOWER_BUTTON in text_of(detail)


def test_a_stranger_gets_404_for_a_roll(client_for, carol, one_success):
    assert client_for(carol).get(one_success.get_absolute_url()).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in_to_see_a_roll(one_success):
    response = Client().get(one_success.get_absolute_url())

    assert response.status_code == 302
    assert response.url.startswith(f"{reverse('login')}?next=")


@pytest.mark.parametrize("user_name", ["carol", "dave"])
@pytest.mark.parametrize("followup", ["experience die", "willpower spend"])
def test_a_stranger_or_another_player_cannot_act_on_bobs_roll(
    followup, user_name, request, client_for, scripted_dice, roll_for, rider
):
    roll = willpower_roll(roll_for, rider, [2, 3, 4])
    scripted_dice([8])
    path = experience_url(roll) if followup == "experience die" else willpower_url(roll)

    response = client_for(request.getfixturevalue(user_name)).post(path, {"key": "willpower"})

    assert response.status_code == 404
    assert not Roll.objects.filter(parent=roll).exists()
    assert (fresh(rider).xp_available, current_willpower(rider)) == (30, 3)


@pytest.mark.parametrize("followup", ["experience die", "willpower spend"])
def test_an_anonymous_visitor_is_sent_to_log_in_before_acting_on_a_roll(
    followup, roll_for, rider
):
    roll = willpower_roll(roll_for, rider, [2, 3, 4])
    path = experience_url(roll) if followup == "experience die" else willpower_url(roll)

    response = Client().post(path, {"key": "willpower"})

    assert response.status_code == 302
    assert response.url.startswith(f"{reverse('login')}?next=")
    assert not Roll.objects.filter(parent=roll).exists()


def test_the_gm_can_add_an_experience_die_for_a_players_roll(
    client_for, alice, scripted_dice, one_success, rider
):
    scripted_dice([8])

    client_for(alice).post(experience_url(one_success), {"key": "ability:Driving"})

    followup = Roll.objects.get(parent=one_success)
    assert followup.rolled_by == alice
    assert fresh(rider).xp_available == 29


# --- The experience die -------------------------------------------------------------------


def test_the_experience_die_banks_one_xp_in_the_chosen_trait(
    client_for, bob, scripted_dice, one_success, rider
):
    scripted_dice([8])

    client_for(bob).post(experience_url(one_success), {"key": "ability:Driving"})

    assert fresh(rider).xp_available == 29
    assert fresh(rider).xp_total == 30
    bank = XpEntry.objects.get(character=rider, kind=LedgerKind.BANK)
    assert (bank.available_delta, bank.banked_delta) == (-1, 1)
    assert (bank.trait_key, bank.bank_key) == ("ability:Driving", "ability:Driving")
    assert f"roll #{one_success.label}" in bank.reason
    assert banked_xp(rider) == {"ability:Driving": 1}
    sheet = client_for(bob).get(rider.get_absolute_url())
    assert "Driving ●●○○○ 1 banked" in text_of(sheet)


def test_the_experience_die_may_bank_in_the_attribute_rolled(
    client_for, bob, scripted_dice, one_success, rider
):
    scripted_dice([8])

    client_for(bob).post(experience_url(one_success), {"key": "attribute:Precision"})

    assert banked_xp(rider) == {"attribute:Precision": 1}


def test_the_experience_die_adds_one_die_and_the_roll_is_resolved_again(
    client_for, bob, scripted_dice, one_success
):
    scripted_dice([8])

    response = client_for(bob, htmx=True).post(experience_url(one_success),
                                               {"key": "ability:Driving"})

    followup = Roll.objects.get(parent=one_success)
    assert followup.kind == "experience_die"
    assert followup.result["dice"] == [1, 3, 4, 6, 7]
    assert followup.result["experience_die"] == [8]
    assert (followup.outcome, followup.net, followup.summary) == ("success", 2, "2 successes")
    assert "Now: 2 successes" in text_of(response)
    assert Roll.objects.get(pk=one_success.pk).net == 1  # the original is never edited


def test_the_experience_die_can_turn_a_failure_into_a_success(
    client_for, bob, scripted_dice, roll_for, rider
):
    roll = roll_for(rider, [2, 3, 4, 5, 5])
    scripted_dice([9])

    client_for(bob).post(experience_url(roll), {"key": "ability:Driving"})

    assert roll.outcome == "failure"
    assert Roll.objects.get(parent=roll).outcome == "success"


def test_a_one_on_the_experience_die_is_not_a_botch(client_for, bob, scripted_dice, one_success):
    scripted_dice([1])

    client_for(bob).post(experience_url(one_success), {"key": "ability:Driving"})

    followup = Roll.objects.get(parent=one_success)
    assert followup.result["experience_die"] == [1]
    assert (followup.outcome, followup.net, followup.result["resolution"]["botches"]) == (
        "success", 1, 1)


def test_the_experience_die_is_allowed_once_per_roll(
    client_for, bob, scripted_dice, one_success, rider
):
    client = client_for(bob)
    scripted_dice([8])
    client.post(experience_url(one_success), {"key": "ability:Driving"})
    scripted_dice([9])

    response = client.post(experience_url(one_success), {"key": "ability:Driving"}, follow=True)

    assert "This roll already has its experience die (once per roll)." in text_of(response)
    assert Roll.objects.filter(parent=one_success).count() == 1
    assert fresh(rider).xp_available == 29
    assert EXPERIENCE_BUTTON not in text_of(response)


def test_the_experience_die_is_refused_on_a_botch(client_for, bob, scripted_dice, roll_for, rider):
    botch = roll_for(rider, [1, 1, 3, 4, 6])
    scripted_dice([8])

    response = client_for(bob).post(experience_url(botch), {"key": "ability:Driving"},
                                    follow=True)

    assert botch.outcome == "botch"
    assert "an experience die cannot be added to a botched roll" in text_of(response)
    assert not Roll.objects.filter(parent=botch).exists()
    assert fresh(rider).xp_available == 30
    assert EXPERIENCE_BUTTON not in text_of(response)


def test_the_experience_die_is_refused_on_a_soak(client_for, bob, scripted_dice, roll_for, rider):
    soak = roll_for(rider, [6, 2], kind="soak", trait=[], damage_kind="bashing", armor="0")
    scripted_dice([8])

    response = client_for(bob, htmx=True).post(experience_url(soak),
                                               {"key": "attribute:Strength"})

    assert "an experience die cannot be added to a soak roll" in text_of(response)
    assert not Roll.objects.filter(parent=soak).exists()
    assert fresh(rider).xp_available == 30


def test_the_experience_die_is_refused_without_available_xp(
    client_for, bob, campaign, scripted_dice, roll_for
):
    broke = CharacterFactory(campaign=campaign, owner=bob, attributes={"Precision": 3},
                             abilities={"Driving": 2}, starting_xp=0)
    roll = roll_for(broke, [1, 3, 4, 6, 7])
    scripted_dice([8])

    response = client_for(bob, htmx=True).post(experience_url(roll), {"key": "ability:Driving"})

    assert "An experience die needs 1 available XP to bank; you have none." in text_of(response)
    assert not Roll.objects.filter(parent=roll).exists()
    assert not XpEntry.objects.filter(kind=LedgerKind.BANK).exists()


def test_the_experience_die_must_bank_in_a_trait_the_roll_used(
    client_for, bob, scripted_dice, one_success, rider
):
    scripted_dice([8])

    response = client_for(bob, htmx=True).post(experience_url(one_success),
                                               {"key": "ability:Firearms"})

    assert "Bank the XP in a trait this roll used." in text_of(response)
    assert fresh(rider).xp_available == 30


def test_the_experience_die_does_not_explode_without_a_specialty(
    client_for, bob, scripted_dice, one_success
):
    scripted_dice([10])

    client_for(bob).post(experience_url(one_success), {"key": "ability:Driving"})

    assert Roll.objects.get(parent=one_success).result["experience_die"] == [10]


def test_the_experience_die_explodes_when_a_specialty_was_used(
    client_for, bob, scripted_dice, roll_for, rider
):
    roll = roll_for(rider, [1, 3, 4, 6, 7], specialty=["Driving: Motorcycles"])
    scripted_dice([10, 3, 8])

    client_for(bob).post(experience_url(roll), {"key": "ability:Driving"})

    followup = Roll.objects.get(parent=roll)
    assert followup.result["experience_die"] == [10, 3, 8]
    assert followup.net == 3  # 6, 7, then the experience die's 10 and 8, less the botch


def test_the_experience_die_goes_on_the_original_roll_not_on_a_follow_up(
    client_for, bob, scripted_dice, one_success, rider
):
    scripted_dice([8])
    client_for(bob).post(experience_url(one_success), {"key": "ability:Driving"})
    followup = Roll.objects.get(parent=one_success)
    scripted_dice([8])

    response = client_for(bob, htmx=True).post(experience_url(followup),
                                               {"key": "ability:Driving"})

    assert "Add the experience die to the original roll." in text_of(response)
    assert fresh(rider).xp_available == 29


def test_an_htmx_experience_die_answers_with_the_result_partial_and_a_roll_made_event(
    client_for, bob, scripted_dice, one_success
):
    scripted_dice([8])

    response = client_for(bob, htmx=True).post(experience_url(one_success),
                                               {"key": "ability:Driving"})

    content = response.content.decode()
    assert "<html" not in content
    assert 'class="roll-result"' in content
    # trackChanged: the sheet's roll dialog asks for its odds again (a follow-up may spend
    # what its pool counts).
    assert json.loads(response["HX-Trigger"]) == {"rollMade": {"id": str(one_success.code)},
                                                  "trackChanged": {}}


def test_a_plain_experience_die_redirects_to_the_roll_which_shows_it(
    client_for, bob, scripted_dice, one_success
):
    scripted_dice([8])
    client = client_for(bob)

    response = client.post(experience_url(one_success), {"key": "ability:Driving"})
    page = client.get(response.url)

    assert response.status_code == 302
    assert response.url == one_success.get_absolute_url()
    assert "Experience die (bob banked 1 XP)" in text_of(page)
    assert "Now: 2 successes" in text_of(page)


def test_a_refused_experience_die_without_htmx_redirects_with_the_reason(
    client_for, bob, scripted_dice, roll_for, rider
):
    botch = roll_for(rider, [1, 1, 3, 4, 6])
    scripted_dice([8])
    client = client_for(bob)

    response = client.post(experience_url(botch), {"key": "ability:Driving"})
    page = client.get(response.url)

    assert response.status_code == 302
    assert 'class="message error"' in page.content.decode()
    assert "cannot be added to a botched roll" in text_of(page)


# --- Spending willpower to succeed on a Willpower roll ------------------------------------


def test_spending_willpower_after_a_willpower_roll_succeeds_with_the_dots_left(
    client_for, bob, roll_for, rider
):
    roll = willpower_roll(roll_for, rider, [2, 3, 4])

    response = client_for(bob, htmx=True).post(willpower_url(roll))

    followup = Roll.objects.get(parent=roll)
    assert followup.kind == "willpower_spend"
    assert (followup.outcome, followup.net) == ("success", 2)
    assert followup.summary == "2 successes (willpower spent)"
    assert current_willpower(rider) == 2
    assert "Now: 2 successes (willpower spent)" in text_of(response)
    # The willpower spent changes the dialog's pool: it asks for its odds again.
    assert json.loads(response["HX-Trigger"]) == {"rollMade": {"id": str(roll.code)},
                                                  "trackChanged": {}}


def test_a_plain_willpower_spend_redirects_to_the_roll_which_shows_it(
    client_for, bob, roll_for, rider
):
    roll = willpower_roll(roll_for, rider, [2, 3, 4])
    client = client_for(bob)

    response = client.post(willpower_url(roll))
    page = client.get(response.url)

    assert response.status_code == 302
    assert response.url == roll.get_absolute_url()
    assert "Willpower spent to succeed" in text_of(page)
    assert WILLPOWER_BUTTON not in text_of(page)


def test_willpower_cannot_be_spent_to_cancel_a_botched_willpower_roll(
    client_for, bob, roll_for, rider
):
    botch = willpower_roll(roll_for, rider, [1, 2, 3])
    assert current_willpower(rider) == 2  # the botch itself cost a dot

    response = client_for(bob).post(willpower_url(botch), follow=True)

    assert "you cannot spend Willpower to cancel a botched roll" in text_of(response)
    assert not Roll.objects.filter(parent=botch).exists()
    assert current_willpower(rider) == 2


def test_the_final_willpower_dot_cannot_be_spent_to_succeed(client_for, bob, roll_for, rider):
    set_tracks(rider, willpower_current=1)
    roll = willpower_roll(roll_for, rider, [5])

    response = client_for(bob, htmx=True).post(willpower_url(roll))

    assert "you may not spend your final Willpower dot to succeed" in text_of(response)
    assert not Roll.objects.filter(parent=roll).exists()
    assert current_willpower(rider) == 1


def test_willpower_is_spent_once_per_roll(client_for, bob, roll_for, rider):
    roll = willpower_roll(roll_for, rider, [2, 3, 4])
    client = client_for(bob, htmx=True)
    client.post(willpower_url(roll))

    response = client.post(willpower_url(roll))

    assert "Willpower was already spent on this roll." in text_of(response)
    assert Roll.objects.filter(parent=roll).count() == 1
    assert current_willpower(rider) == 2


def test_only_a_willpower_roll_can_be_cancelled_by_spending_willpower(
    client_for, bob, one_success, rider
):
    response = client_for(bob, htmx=True).post(willpower_url(one_success))

    assert "Only a Willpower roll can be cancelled by spending willpower." in text_of(response)
    assert current_willpower(rider) == 3
    assert not Roll.objects.filter(parent=one_success).exists()


def test_an_experience_die_on_a_willpower_roll_banks_in_willpower(
    client_for, bob, scripted_dice, roll_for, rider
):
    roll = willpower_roll(roll_for, rider, [2, 3, 7])
    scripted_dice([9])

    client_for(bob).post(experience_url(roll), {"key": "willpower"})

    assert Roll.objects.get(parent=roll).net == 2
    assert banked_xp(rider) == {"willpower": 1}


def test_an_experience_die_cannot_be_added_once_willpower_has_cancelled_the_roll(
    client_for, bob, scripted_dice, roll_for, rider
):
    # The roll was replaced by an automatic success; the sheet offers no experience die
    # any more, and the server must not take XP for one either.
    roll = willpower_roll(roll_for, rider, [2, 3, 4])
    client = client_for(bob, htmx=True)
    client.post(willpower_url(roll))
    scripted_dice([8])

    response = client.post(experience_url(roll), {"key": "willpower"})

    assert 'role="alert"' in response.content.decode()
    assert not Roll.objects.filter(parent=roll, kind=RollKind.EXPERIENCE_DIE).exists()
    assert fresh(rider).xp_available == 30
