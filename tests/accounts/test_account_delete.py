"""Deleting one's own account: refused while the user is GM of a campaign where others play;
otherwise their characters stay with their tables as a former player's retired characters
(in an archived campaign, seat and character stay as archived), their rolls and ledger stay,
their solo campaigns go, and the login is gone for good."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session as LoginSession
from django.test import Client
from django.urls import reverse

from accounts.services import AccountError, account_delete
from campaigns.models import Campaign, Membership, Session
from characters.models import Character, XpEntry
from rolls.models import Roll
from table.services import session_award, session_create
from tests.factories import PASSWORD, CampaignFactory, CharacterFactory
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

DELETE = reverse("account-delete")
CAMPAIGNS = reverse("campaigns:campaign-list")


def make_roll(character: Character, description: str = "Drive through the storm") -> Roll:
    return Roll.objects.create(
        campaign=character.campaign, character=character, rolled_by=character.owner,
        ruleset="maelstrom", kind=Roll.Kind.ACTION, description=description,
        outcome=Roll.Outcome.SUCCESS, net=2, summary="2 successes")


def delete(client: Client, password: str = PASSWORD):  # type: ignore[no-untyped-def]
    return client.post(DELETE, {"password": password})


@pytest.fixture
def solo(alice) -> Campaign:  # type: ignore[no-untyped-def]
    """Alice's solo test campaign: she is its only member, with a character, a roll and a
    session that gave an award."""
    campaign = CampaignFactory(name="Alice's sandbox", created_by=alice)
    character = CharacterFactory(campaign=campaign, owner=alice, name="Test dummy")
    make_roll(character)
    session = session_create(campaign=campaign, date=character.created_at.date())
    session_award(session=session, custom={character.pk: (3, "Testing")}, by=alice)
    return campaign


# --- The page ------------------------------------------------------------------------------------


def test_the_account_page_links_to_deleting_the_account(client_for, bob):
    assert f'href="{DELETE}"' in client_for(bob).get(reverse("account")).content.decode()


def test_a_player_is_told_what_happens_and_asked_for_the_password(
        client_for, bob, bobs_character):
    response = client_for(bob).get(DELETE)

    assert response.status_code == 200
    text = text_of(response)
    assert "retired characters of a “Former player”" in text
    assert "Rook in The Drift" in text
    assert "Your rolls and XP ledger entries stay" in text
    page = response.content.decode()
    assert 'type="password"' in page
    assert 'class="danger"' in page


def test_the_gm_of_a_campaign_with_players_is_sent_to_hand_it_over_or_delete_it_first(
        client_for, alice, campaign):
    response = client_for(alice).get(DELETE)

    assert response.status_code == 200
    page = response.content.decode()
    assert reverse("campaigns:campaign-handover", args=[campaign.pk]) in page
    assert reverse("campaigns:campaign-delete", args=[campaign.pk]) in page
    assert "hand the GM seat to another member, or delete the campaign" in text_of(response)
    assert 'type="password"' not in page
    assert 'class="danger"' not in page


def test_a_gm_alone_is_told_the_campaign_goes_and_offered_its_export(client_for, alice, solo):
    response = client_for(alice).get(DELETE)

    text = text_of(response)
    assert "where you are the only member is deleted with everything in it" in text
    assert "Alice's sandbox" in text
    assert reverse("transfer:campaign-export", args=[solo.pk]) in response.content.decode()
    assert 'type="password"' in response.content.decode()


def test_an_anonymous_visitor_is_sent_to_log_in():
    for response in (Client().get(DELETE), Client().post(DELETE, {"password": PASSWORD})):
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


# --- Refused -------------------------------------------------------------------------------------


def test_the_gm_of_a_campaign_with_players_cannot_delete_the_account_and_nothing_changes(
        client_for, alice, bob, campaign, bobs_character):
    response = delete(client_for(alice))

    assert response.status_code == 409
    assert "cannot be deleted yet" in text_of(response)
    stored = fresh(alice)
    assert stored.username == "alice"
    assert stored.is_active
    assert stored.check_password(PASSWORD)
    assert Membership.objects.filter(campaign=campaign).count() == 2
    assert fresh(bobs_character).status == Character.Status.ACTIVE


def test_the_service_refuses_the_gm_of_a_campaign_with_players_naming_it(alice, campaign, solo):
    with pytest.raises(AccountError, match="You are the GM of The Drift, where others play"):
        account_delete(user=alice)

    assert Campaign.objects.filter(pk=solo.pk).exists()  # nothing was deleted first
    assert fresh(alice).username == "alice"


@pytest.mark.parametrize("password", ["wrong-password", ""])
def test_a_wrong_password_refuses_with_the_reason_and_nothing_changes(
        client_for, bob, bobs_character, password):
    client = client_for(bob)

    response = delete(client, password)

    assert response.status_code == 200
    text = text_of(response)
    assert ("That is not your password" in text
            or "Enter your password to delete your account." in text)
    assert fresh(bob).username == "bob"
    assert fresh(bobs_character).status == Character.Status.ACTIVE
    assert client.get(CAMPAIGNS).status_code == 200  # still logged in


def test_the_delete_url_takes_only_get_and_post(client_for, bob):
    assert client_for(bob).put(DELETE).status_code == 405


# --- Deleted -------------------------------------------------------------------------------------


def test_deleting_logs_out_and_lands_on_the_login_page_with_a_message(client_for, bob):
    client = client_for(bob)

    response = delete(client)

    assert response.status_code == 302
    assert response.url == reverse("login")
    assert "Your account was deleted" in text_of(client.get(response.url))
    assert client.get(CAMPAIGNS).status_code == 302


def test_every_other_device_is_logged_out_too(client_for, bob):
    phone = client_for(bob)
    assert phone.get(CAMPAIGNS).status_code == 200

    delete(client_for(bob))

    assert phone.get(CAMPAIGNS).status_code == 302
    assert not any(s.get_decoded().get("_auth_user_id") == str(bob.pk)
                   for s in LoginSession.objects.all())


def test_the_players_characters_stay_retired_in_the_campaign_with_their_rolls_and_ledger(
        client_for, alice, bob, campaign, bobs_character):
    roll = make_roll(bobs_character)
    entries = set(XpEntry.objects.filter(character=bobs_character).values_list("pk", flat=True))

    delete(client_for(bob))

    rook = fresh(bobs_character)
    assert rook.campaign_id == campaign.pk
    assert rook.status == Character.Status.RETIRED
    assert rook.owner_id == bob.pk
    assert Roll.objects.filter(pk=roll.pk, rolled_by=bob).exists()
    assert set(XpEntry.objects.filter(character=rook).values_list("pk", flat=True)) == entries
    assert not Membership.objects.filter(user=bob).exists()


def test_the_table_s_history_says_the_player_left_and_their_character_retired(
        client_for, alice, bob, campaign, bobs_character):
    """The seat taken away is a change of the campaign like any leaving (issue 35, the
    activity log), written under the name the table knew, before it is anonymised."""
    from history.models import Activity

    delete(client_for(bob))

    entries = Activity.objects.filter(campaign=campaign)
    assert entries.filter(kind=Activity.Kind.MEMBER, action="leave",
                          text="bob left the table: their account was deleted.").count() == 1
    assert entries.filter(kind=Activity.Kind.CHARACTER, action="retire",
                          character=bobs_character).count() == 1


def test_a_dead_character_stays_dead(client_for, alice, bob, campaign):
    fallen = CharacterFactory(campaign=campaign, owner=bob, name="Fallen",
                              status=Character.Status.DEAD)

    delete(client_for(bob))

    assert fresh(fallen).status == Character.Status.DEAD


def test_an_archived_campaign_stays_as_archived_with_the_former_players_seat_and_character(
        client_for, alice, bob, campaign, bobs_character):
    """An archived campaign is read-only for everyone (docs/security.md): deleting the
    account anonymises the player there but neither retires the character nor takes the
    seat, as leaving an archived campaign is refused."""
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=bobs_character.created_at)
    assert "stay exactly as they were archived" in text_of(client_for(bob).get(DELETE))
    assert "The Drift" in text_of(client_for(bob).get(DELETE))

    delete(client_for(bob))

    assert fresh(bobs_character).status == Character.Status.ACTIVE
    assert Membership.objects.filter(user=bob, campaign=campaign).exists()
    assert fresh(bob).get_username().startswith("former-player-")
    assert "played by Former player" in text_of(
        client_for(alice).get(bobs_character.get_absolute_url()))


def test_a_former_players_kept_seat_is_offered_neither_the_gm_seat_nor_a_character(
        client_for, alice, bob, dave, campaign, bobs_character):
    """Once the archive is restored, the former player's seat is still there, but the
    account can never log in: the GM cannot hand them the GM seat or move a character to
    them, and the GM may still delete their own account as if alone with them."""
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=bobs_character.created_at)
    delete(client_for(bob))
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=None)
    seat = Membership.objects.get(user=bob, campaign=campaign)
    wren = Character.objects.get(owner=dave)

    handover = reverse("campaigns:campaign-handover", args=[campaign.pk])
    assert "Former player" not in text_of(client_for(alice).get(handover))
    refused = client_for(alice).post(handover, {"membership": str(seat.pk)})
    assert refused.status_code in (200, 400)
    assert Membership.objects.get(pk=seat.pk).role == Membership.Role.PLAYER
    move = reverse("characters:character-move", args=[wren.pk])
    assert "Former player" not in text_of(client_for(alice).get(move))
    client_for(alice).post(move, {"to_user": str(bob.pk)})
    assert fresh(wren).owner_id == dave.pk


def test_a_gm_alone_with_former_players_deletes_the_campaign_with_the_account(
        client_for, alice, bob, campaign, bobs_character):
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=bobs_character.created_at)
    delete(client_for(bob))

    response = delete(client_for(alice))

    assert response.status_code == 302
    assert not Campaign.objects.filter(pk=campaign.pk).exists()


def test_the_table_reads_former_player_where_the_player_was(client_for, alice, bob,
                                                            bobs_character):
    delete(client_for(bob))

    response = client_for(alice).get(bobs_character.get_absolute_url())

    assert "played by Former player" in text_of(response)
    assert "bob" not in text_of(response).split()


def test_the_account_row_is_anonymised_not_deleted(client_for, bob):
    bob.first_name, bob.last_name, bob.email = "Robert", "Bold", "bob@example.org"
    bob.save()

    delete(client_for(bob))

    row = get_user_model().objects.get(pk=bob.pk)
    assert row.username == f"former-player-{bob.pk}"
    assert (row.first_name, row.last_name, row.email) == ("Former player", "", "")
    assert not row.has_usable_password()
    assert not row.is_active


def test_the_deleted_account_cannot_log_in_again(client_for, bob):
    delete(client_for(bob))

    for username in ("bob", f"former-player-{bob.pk}"):
        client = Client()
        response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
        assert response.status_code == 200
        assert client.get(CAMPAIGNS).status_code == 302


def test_the_old_login_name_and_email_are_free_to_sign_up_again(client_for, bob):
    bob.email = "bob@example.org"
    bob.save(update_fields=["email"])
    delete(client_for(bob))

    response = Client().post(reverse("signup"), {
        "username": "bob", "email": "bob@example.org",
        "password1": "lantern-quarry-mosaic-41", "password2": "lantern-quarry-mosaic-41"})

    assert response.status_code == 302
    newcomer = get_user_model().objects.get(username="bob")
    assert newcomer.pk != bob.pk
    assert not Membership.objects.filter(user=newcomer).exists()


def test_a_gm_alone_deletes_the_account_and_the_solo_campaign_goes_with_everything(
        client_for, alice, solo):
    response = delete(client_for(alice))

    assert response.status_code == 302
    assert not Campaign.objects.filter(pk=solo.pk).exists()
    assert not Character.objects.filter(name="Test dummy").exists()
    assert not Roll.objects.filter(campaign_id=solo.pk).exists()
    assert not Session.objects.filter(campaign_id=solo.pk).exists()
    assert not get_user_model().objects.filter(username="alice").exists()


def test_a_gm_who_handed_the_seat_over_may_delete_and_plays_on_as_a_former_player(
        client_for, alice, bob, campaign):
    Membership.objects.filter(campaign=campaign, user=alice).update(role=Membership.Role.PLAYER)
    Membership.objects.filter(campaign=campaign, user=bob).update(role=Membership.Role.GM)
    own = CharacterFactory(campaign=campaign, owner=alice, name="Alice's hero")

    delete(client_for(alice))

    assert Campaign.objects.filter(pk=campaign.pk).exists()
    assert fresh(own).status == Character.Status.RETIRED
    assert fresh(campaign).created_by_id == alice.pk  # history: who founded it


def test_the_login_records_of_the_old_name_are_cleared(client_for, bob):
    attempt = apps.get_model("axes", "AccessAttempt")
    attempt.objects.create(username="bob", ip_address="203.0.113.9", user_agent="test",
                           failures_since_start=2, get_data="", post_data="", http_accept="",
                           path_info="/login/")

    delete(client_for(bob))

    assert not attempt.objects.filter(username="bob").exists()


def test_sign_up_refuses_a_login_name_kept_for_deleted_accounts():
    response = Client().post(reverse("signup"), {
        "username": "Former-Player-12", "email": "x@example.org",
        "password1": "lantern-quarry-mosaic-41", "password2": "lantern-quarry-mosaic-41"})

    assert response.status_code == 200
    assert "are kept for deleted accounts" in text_of(response)
    assert not get_user_model().objects.filter(username="Former-Player-12").exists()
