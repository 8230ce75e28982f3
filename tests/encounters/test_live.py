"""The order is live on every page of the table: the campaign page and every sheet declare the
turn-order region, which hears each encounter step; a change's own answer brings the region
it redrew, labelled with the version the change brought (core.regions.drawn), so the page
that made it asks nothing more.

Transactional: the version is bumped when the change's transaction really commits, inside
the request, as in production."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from core.regions import DRAWN_HEADER
from encounters.context import TURN_REGION
from tests.encounters.helpers import turn, url
from tests.helpers import redrawn_by

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def test_every_page_of_the_table_redraws_the_order_on_an_encounter_step(
        fight, client_for, alice, bob, rook):
    for client, page in ((client_for(alice), fight.campaign.get_absolute_url()),
                         (client_for(bob), fight.campaign.get_absolute_url()),
                         (client_for(bob), rook.get_absolute_url()),
                         (client_for(alice), rook.get_absolute_url())):
        live = client.get(page).context["live"]
        assert TURN_REGION in redrawn_by(live, "encounterChanged"), page
        # An NPC shown or hidden changes what the players' order holds.
        assert TURN_REGION in redrawn_by(live, "npcsChanged"), page


def test_the_gms_next_answers_with_the_card_drawn_at_the_version_it_brought(
        fight, client_for, alice):
    answer = client_for(alice).post(url("turn-next", fight), turn(fight), headers=HTMX)

    campaign = Campaign.objects.get(pk=fight.campaign_id)
    assert answer[DRAWN_HEADER] == f"{campaign.page_version(is_gm=True)} {TURN_REGION}"


def test_a_players_done_answers_with_their_version(fight, client_for, alice, bob, rook):
    client_for(alice).post(url("turn-next", fight), turn(fight))  # Rook's turn

    answer = client_for(bob).post(url("turn-next", fight), {**turn(fight), "sheet": rook.pk},
                                  headers=HTMX)

    campaign = Campaign.objects.get(pk=fight.campaign_id)
    assert answer[DRAWN_HEADER] == f"{campaign.page_version(is_gm=False)} {TURN_REGION}"
