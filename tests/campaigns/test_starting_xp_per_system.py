"""A campaign's starting XP applies only in the systems whose new characters start with it
(``SheetSystem.uses_starting_xp``): there a new character starts with it, elsewhere with none,
and the settings page leaves the field out."""

from __future__ import annotations

import random

import pytest
from django.db.models import Sum
from django.urls import reverse

import systems
from campaigns.forms import CampaignForm
from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters.models import Character, XpEntry
from characters.services import character_create_from_data
from rulesets import registry
from systems import demos
from tests.helpers import fresh, settings_url, text_of
from tests.system_fixtures import fixtures_for, selectable_systems

pytestmark = pytest.mark.django_db

STARTING_XP = 37
"""A starting XP no system's own default has, so a character that shows it got it from the
campaign."""


def new_character(slug: str, *, gm, player) -> Character:  # type: ignore[no-untyped-def]
    """A player's new character in a fresh campaign of ``slug``: made from the one-form
    creation page's data, or, for a system with creation pages of its own, by its demo (which
    spends the demo's starting XP, so the campaign has that)."""
    campaign = campaign_create(name=f"{slug} table", ruleset=slug, starting_xp=STARTING_XP,
                               gm=gm)
    Membership.objects.create(campaign=campaign, user=player)
    if systems.for_campaign(campaign).creation_url(campaign) is None:
        return character_create_from_data(campaign=campaign, owner=player,
                                          data=fixtures_for(slug).new_character)
    demo = demos.demo_for(slug)
    assert demo is not None
    Campaign.objects.filter(pk=campaign.pk).update(starting_xp=demo.starting_xp)
    demo.build(campaign=fresh(campaign), gm=gm, players=[player], rng=random.Random(17))
    character = Character.objects.filter(campaign=campaign, owner=player).first()
    assert character is not None
    return character


@pytest.mark.parametrize("slug", selectable_systems())
def test_a_new_character_starts_with_the_campaigns_starting_xp_only_where_the_system_uses_it(
        alice, bob, slug):
    character = new_character(slug, gm=alice, player=bob)

    starting = character.xp_entries.filter(kind=XpEntry.Kind.STARTING).aggregate(
        xp=Sum("total_delta"))["xp"] or 0
    if systems.for_ruleset(slug).uses_starting_xp:
        assert starting == character.campaign.starting_xp > 0
    else:
        assert (starting, character.xp_total, character.xp_available) == (0, 0, 0)


@pytest.mark.parametrize("slug", selectable_systems())
def test_the_one_form_creation_gives_exactly_the_starting_xp_where_the_system_uses_it(
        alice, bob, slug):
    campaign = campaign_create(name="Fresh", ruleset=slug, starting_xp=STARTING_XP, gm=alice)
    system = systems.for_campaign(campaign)
    if system.creation_url(campaign) is not None:
        pytest.skip("creation pages of its own (the test above covers it)")

    character = character_create_from_data(campaign=campaign, owner=bob,
                                           data=fixtures_for(slug).new_character)

    expected = STARTING_XP if system.uses_starting_xp else 0
    assert (character.xp_total, character.xp_available) == (expected, expected)


@pytest.mark.parametrize("slug", selectable_systems())
def test_the_settings_page_shows_the_starting_xp_only_where_the_system_uses_it(
        client_for, alice, slug):
    campaign = campaign_create(name="Fresh", ruleset=slug, starting_xp=STARTING_XP, gm=alice)

    response = client_for(alice).get(settings_url(campaign))

    assert response.status_code == 200
    shown = 'name="starting_xp"' in response.content.decode()
    assert shown == systems.for_ruleset(slug).uses_starting_xp
    says_none = f"{campaign.ruleset_name} characters start with no XP" in text_of(response)
    assert says_none == (not shown)


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("slug", [s for s in selectable_systems()
                                  if not systems.for_ruleset(s).uses_starting_xp])
def test_saving_the_settings_of_a_system_without_starting_xp_keeps_it_as_it_was(
        client_for, alice, slug, htmx):
    campaign = campaign_create(name="Fresh", ruleset=slug, starting_xp=STARTING_XP, gm=alice)

    response = client_for(alice, htmx=htmx).post(settings_url(campaign), {
        "name": "Renamed", "description": "", "starting_xp": "999"})

    assert response.status_code == 302
    stored = fresh(campaign)
    assert (stored.name, stored.starting_xp) == ("Renamed", STARTING_XP)


def test_the_creation_form_names_the_systems_whose_characters_start_with_it(
        client_for, carol):
    using = [name for slug, name in registry.choices()
             if systems.for_ruleset(slug).uses_starting_xp]
    not_using = [name for slug, name in registry.choices()
                 if not systems.for_ruleset(slug).uses_starting_xp]
    assert using and not_using  # else the help need not name any

    response = client_for(carol).get(reverse("campaigns:campaign-create"))

    help_text = str(CampaignForm().fields["starting_xp"].help_text)
    assert help_text in text_of(response)
    assert all(name in help_text for name in using + not_using)
    assert help_text.index(using[-1]) < help_text.index("only") < help_text.index(
        not_using[0])
    assert "start with no XP" in help_text
