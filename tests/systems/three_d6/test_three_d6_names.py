"""The GM names a 3d6 campaign's six traits and twelve subtraits on the dashboard (3d6 Rolls
and Tests, Rolls and Tests: "one of 6 traits or one of 12 Subtraits", names not given)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services import campaign_create
from systems.three_d6 import sheet
from tests import three_d6_cast as cast
from tests.three_d6_cast import text_of

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/three_d6_cast.py).
table = cast.table

RENAMED = {
    "t0": "Brawn", "t1": "Grace", "t2": "Wits", "t3": "Lore", "t4": "Charm", "t5": "Grit",
    "s0": "Lift", "s1": "Stamina", "s2": "Aim", "s3": "Sprint", "s4": "Notice", "s5": "Read",
    "s6": "History", "s7": "Craft", "s8": "Sway", "s9": "Bluff", "s10": "Nerve", "s11": "Calm",
}


def names_url(campaign: Campaign, action: str = "names") -> str:
    return reverse("table:campaign-system-action", args=[campaign.pk, action])


def test_a_new_campaign_starts_with_the_default_names(alice):
    campaign = campaign_create(name="Fresh", ruleset="three_d6", starting_xp=0, gm=alice)

    assert campaign.system_data == {"traits": list(sheet.DEFAULT_TRAITS),
                                    "subtraits": list(sheet.DEFAULT_SUBTRAITS)}


def test_a_campaign_with_no_data_reads_the_defaults(table):
    assert table.system_data == {}
    assert sheet.names(table)["t0"] == "Power" and sheet.names(table)["s11"] == "Composure"


def test_the_gm_sees_the_names_panel_filled_in(client_for, alice, table):
    """On the settings page: the names are configuration, the dashboard is play."""
    assert 'id="system-panel"' not in client_for(alice).get(
        table.get_absolute_url()).content.decode()
    response = client_for(alice).get(reverse("campaigns:campaign-settings", args=[table.pk]))

    content = response.content.decode()
    assert 'id="system-panel"' in content
    assert 'value="Power"' in content and 'value="Composure"' in content


def test_a_player_does_not_see_the_names_panel(client_for, bob, table):
    assert 'id="system-panel"' not in client_for(bob).get(table.get_absolute_url()).content.decode()


def test_the_gm_renames_in_place_and_gets_the_panel_back(client_for, alice, table):
    response = client_for(alice, htmx=True).post(names_url(table), RENAMED)

    assert response.content.decode().lstrip().startswith('<section class="card" id="system-panel"')
    assert "Trait and subtrait names saved." in text_of(response)
    assert 'value="Brawn"' in response.content.decode()
    table.refresh_from_db()
    assert table.system_data["traits"][0] == "Brawn"
    assert table.system_data["subtraits"][11] == "Calm"


def test_a_plain_post_renames_and_redirects_to_the_dashboard(client_for, alice, table):
    response = client_for(alice).post(names_url(table), RENAMED)

    assert response.status_code == 302 and response.url == table.get_absolute_url()
    table.refresh_from_db()
    assert sheet.names(table)["t5"] == "Grit"


def test_a_name_used_twice_is_refused_and_nothing_is_written(client_for, alice, table):
    response = client_for(alice, htmx=True).post(names_url(table), {**RENAMED, "s0": "brawn"})

    assert "'brawn' is used twice; each trait and subtrait needs its own name." in text_of(
        response)
    table.refresh_from_db()
    assert table.system_data == {}


def test_an_empty_name_is_refused(client_for, alice, table):
    response = client_for(alice, htmx=True).post(names_url(table), {**RENAMED, "t2": ""})

    assert "This field is required." in text_of(response)


def test_the_defaults_can_be_restored(client_for, alice, table):
    client = client_for(alice, htmx=True)
    client.post(names_url(table), RENAMED)

    response = client.post(names_url(table, "names-reset"))

    assert "The default names are back." in text_of(response)
    table.refresh_from_db()
    assert table.system_data == sheet.default_names()


@pytest.mark.parametrize("who", ["anonymous", "bob", "carol"])
def test_only_the_gm_may_rename(client, client_for, bob, carol, table, who):
    poster = {"anonymous": client, "bob": client_for(bob), "carol": client_for(carol)}[who]

    response = poster.post(names_url(table), RENAMED)

    assert response.status_code == (302 if who == "anonymous" else 404)
    table.refresh_from_db()
    assert table.system_data == {}
