"""The GM's settings page: name, description, starting XP and the system's own options."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

import systems
from campaigns.models import Campaign
from campaigns.services import MembershipError, campaign_update
from rulesets import registry
from tests.factories import CampaignFactory
from tests.helpers import fresh, settings_url, text_of

pytestmark = pytest.mark.django_db


VALID = {"name": "The Drift: Season Two", "description": "Smugglers on a drowned coast.",
         "starting_xp": "45"}


def test_the_gm_sees_the_settings_form_filled_in(client_for, alice, campaign):
    response = client_for(alice).get(settings_url(campaign))

    content = response.content.decode()
    assert response.status_code == 200
    assert 'value="The Drift"' in content
    assert 'name="description"' in content
    assert 'value="30"' in content
    assert "Characters already made keep the XP they have." in text_of(response)


def test_the_gm_renames_the_campaign_and_changes_its_starting_xp(client_for, alice, campaign):
    response = client_for(alice).post(settings_url(campaign), VALID, follow=True)

    assert response.redirect_chain == [(settings_url(campaign), 302)]
    assert "Settings saved." in text_of(response)
    stored = fresh(campaign)
    assert (stored.name, stored.description, stored.starting_xp) == (
        "The Drift: Season Two", "Smugglers on a drowned coast.", 45)


def test_characters_already_made_keep_their_xp_when_the_starting_xp_changes(
    client_for, alice, campaign, bobs_character
):
    client_for(alice).post(settings_url(campaign), VALID)

    assert fresh(campaign).starting_xp == 45
    assert fresh(bobs_character).xp_available == 30
    assert fresh(bobs_character).xp_entries.count() == 1


@pytest.mark.parametrize(("change", "reason"), [
    ({"name": ""}, "This field is required."),
    ({"name": "x" * 121}, "Keep the name to 120 characters (it has 121)."),
    ({"starting_xp": "-1"}, "Starting XP is between 0 and 1000. Nothing was saved."),
    ({"starting_xp": "1001"}, "Starting XP is between 0 and 1000. Nothing was saved."),
    ({"starting_xp": "lots"}, "Enter a whole number of XP."),
    ({"description": "d" * 501}, "Ensure this value has at most 500 characters (it has 501)."),
])
def test_bad_settings_are_shown_again_with_the_reason_and_nothing_changes(
    client_for, alice, campaign, change, reason
):
    data = {**VALID, **change}

    response = client_for(alice).post(settings_url(campaign), data)

    assert response.status_code == 200
    assert reason in text_of(response)
    # The user's input comes back, and the page still names the campaign as it is.
    assert f'value="{data["starting_xp"]}"' in response.content.decode()
    assert "Settings of The Drift" in text_of(response)
    stored = fresh(campaign)
    assert (stored.name, stored.description, stored.starting_xp) == ("The Drift", "", 30)


def test_the_settings_check_starting_xp_as_campaign_creation_does(client_for, alice, campaign):
    create = client_for(alice).post(reverse("campaigns:campaign-create"),
                                    {"name": "New", "ruleset": "maelstrom",
                                     "starting_xp": "1001"})
    settings = client_for(alice).post(settings_url(campaign), {**VALID, "starting_xp": "1001"})

    reason = "Starting XP is between 0 and 1000. Nothing was saved."
    assert reason in text_of(create) and reason in text_of(settings)


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_and_a_stranger_get_404_and_change_nothing(
    client_for, campaign, bob, carol, method
):
    for user in (bob, carol):
        response = getattr(client_for(user), method)(settings_url(campaign), VALID)
        assert response.status_code == 404
    assert fresh(campaign).name == "The Drift"


def test_an_anonymous_visitor_is_sent_to_log_in(client, campaign):
    response = client.get(settings_url(campaign))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_the_page_offers_the_systems_own_options_and_every_way_out(client_for, alice):
    genesys = CampaignFactory(name="Edge of Night", ruleset="genesys", created_by=alice,
                              system_data=systems.for_ruleset("genesys").default_system_data())

    response = client_for(alice).get(settings_url(genesys))

    content = response.content.decode()
    assert "Genesys options" in text_of(response)
    assert 'id="system-panel"' in content
    assert reverse("table:campaign-system-action", args=[genesys.pk, "skill-set"]) in content
    for name in ("campaigns:campaign-handover", "campaigns:campaign-archive",
                 "campaigns:campaign-delete", "transfer:campaign-export"):
        assert reverse(name, args=[genesys.pk]) in content


def test_the_campaign_page_links_the_gm_to_the_settings_and_not_a_player(
    client_for, alice, bob, campaign
):
    url = settings_url(campaign)

    assert url in client_for(alice).get(campaign.get_absolute_url()).content.decode()
    assert url not in client_for(bob).get(campaign.get_absolute_url()).content.decode()


def test_an_archived_campaigns_settings_are_read_only_with_the_restore_button(
    client_for, alice, campaign
):
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())

    response = client_for(alice).get(settings_url(campaign))

    content = response.content.decode()
    assert "Save settings" not in content
    assert 'name="name"' in content and "disabled" in content.split('name="name"')[1][:200]
    assert reverse("campaigns:campaign-restore", args=[campaign.pk]) in content
    assert "read-only" in text_of(response)


def test_the_service_refuses_someone_who_no_longer_holds_the_gm_seat(campaign, bob):
    with pytest.raises(MembershipError):
        campaign_update(campaign=campaign, name="Mine now", description="", starting_xp=0,
                        by=bob)
    assert fresh(campaign).name == "The Drift"


@pytest.mark.parametrize("slug", [r.slug for r in registry.RULESETS.values() if r.selectable])
def test_every_systems_settings_page_draws_its_options(client_for, alice, slug):
    campaign = CampaignFactory(name="Anywhere", ruleset=slug, created_by=alice,
                               system_data=systems.for_ruleset(slug).default_system_data())
    name = registry.get(slug).name

    for archived in (False, True):
        response = client_for(alice).get(settings_url(campaign))

        assert response.status_code == 200
        assert f"{name} options" in text_of(response)
        assert ("<fieldset disabled>" in response.content.decode()) is archived
        Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())


def test_the_service_refuses_a_change_that_arrives_after_the_archive(alice, campaign):
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())

    with pytest.raises(MembershipError):
        campaign_update(campaign=campaign, name="Too late", description="", starting_xp=0,
                        by=alice)
    assert fresh(campaign).name == "The Drift"


# --- The description's line ends -----------------------------------------------------------


def test_a_description_at_the_limit_counted_as_the_browser_counts_it_is_saved(
    client_for, alice, campaign
):
    # 250 lines of one letter: 499 characters with "\n" as the browser counts them against
    # maxlength, 748 as it sends them ("\r\n").
    lines = ["d"] * 250
    sent = "\r\n".join(lines)

    response = client_for(alice).post(settings_url(campaign), {**VALID, "description": sent})

    assert response.status_code == 302
    assert fresh(campaign).description == "\n".join(lines)


def test_a_description_over_the_limit_with_line_ends_is_still_refused(
    client_for, alice, campaign
):
    sent = "\r\n".join(["dd"] * 168)  # 336 letters and 167 line ends: 503 characters

    response = client_for(alice).post(settings_url(campaign), {**VALID, "description": sent})

    assert response.status_code == 200
    assert "Ensure this value has at most 500 characters (it has 503)." in text_of(response)
    assert fresh(campaign).description == ""


def test_a_lone_carriage_return_is_stored_as_a_line_end(client_for, alice, campaign):
    client_for(alice).post(settings_url(campaign),
                           {**VALID, "description": "Smugglers.\rOn a drowned coast."})

    assert fresh(campaign).description == "Smugglers.\nOn a drowned coast."


@pytest.fixture
def described(alice, campaign) -> Campaign:  # type: ignore[no-untyped-def]
    """The Drift, with a description of two lines, one holding markup."""
    return campaign_update(campaign=campaign, name="The Drift",
                           description="Smugglers on a drowned coast.\n<b>Season two</b>",
                           starting_xp=30, by=alice)


SHOWN = "Smugglers on a drowned coast.<br>&lt;b&gt;Season two&lt;/b&gt;"


def test_the_campaign_list_shows_the_descriptions_lines(client_for, bob, described):
    page = client_for(bob).get(reverse("campaigns:campaign-list")).content.decode()

    assert SHOWN in page


def test_the_campaign_page_shows_the_descriptions_lines(client_for, bob, described):
    page = client_for(bob).get(described.get_absolute_url()).content.decode()

    assert SHOWN in page


def test_the_invite_page_shows_the_descriptions_lines(client_for, carol, described):
    described.refresh_from_db()
    assert described.invite_token
    url = reverse("campaigns:campaign-join", args=[described.invite_token])

    page = client_for(carol).get(url).content.decode()

    assert SHOWN in page


# --- The way out to a new GM ---------------------------------------------------------------


def test_handing_the_seat_over_warns_that_the_new_gm_reads_every_gm_note(
    client_for, alice, campaign
):
    response = client_for(alice).get(reverse("campaigns:campaign-handover", args=[campaign.pk]))

    assert ("The new GM reads every GM note, on every character of the campaign, including "
            "the notes you wrote about their own characters.") in text_of(response)
