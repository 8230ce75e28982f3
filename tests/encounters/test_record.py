"""Ending an encounter leaves a record: who took part, the rounds, and the rolls made while it
ran (a GM-only roll for the GM alone), linked from the session it happened in and listed on
the campaign's encounters page (docs/encounters.md, "The record")."""

from __future__ import annotations

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from encounters import services
from encounters.models import Encounter
from rolls import services as roll_services
from rolls.models import Roll
from table.services import session_create
from tests.encounters.helpers import shown
from tests.helpers import text_of

pytestmark = pytest.mark.django_db


def quick_roll(campaign, gm, *, gm_only: bool = False) -> Roll:  # type: ignore[no-untyped-def]
    return roll_services.npc_roll_create(campaign=campaign, text="3d10 diff 6", gm_only=gm_only,
                                         by=gm, rng=random.Random(4))


def test_the_record_lists_who_took_part_the_rounds_and_the_rolls_made_in_it(
        campaign, alice, bob, fight, client_for):
    before = quick_roll(campaign, alice)
    # The log is append-only: the encounter's clock moves, not the roll's.
    Encounter.objects.filter(pk=fight.pk).update(
        started_at=before.created_at + datetime.timedelta(microseconds=1))
    fight.refresh_from_db()
    during = quick_roll(campaign, alice)
    secret = quick_roll(campaign, alice, gm_only=True)
    for _ in range(3):
        services.turn_next(encounter=fight, shown=shown(fight), by=alice)
    services.encounter_end(encounter=fight, by=alice)
    after = quick_roll(campaign, alice)

    gm_page = client_for(alice).get(fight.get_absolute_url())
    player_page = client_for(bob).get(fight.get_absolute_url())

    assert "2 rounds" in text_of(gm_page) and "Rook" in text_of(player_page)
    gm_rolls = gm_page.content.decode()
    assert during.get_absolute_url() in gm_rolls and secret.get_absolute_url() in gm_rolls
    assert before.get_absolute_url() not in gm_rolls
    assert after.get_absolute_url() not in gm_rolls
    assert during.get_absolute_url() in player_page.content.decode()
    assert secret.get_absolute_url() not in player_page.content.decode()


def test_the_session_page_links_its_encounters(campaign, alice, bob, rook, client_for):
    session = session_create(campaign=campaign, date=timezone.localdate(), title="Dockside")
    encounter = services.encounter_start(campaign=campaign, by=alice)  # today's session
    assert encounter.session == session

    page = client_for(bob).get(session.get_absolute_url()).content.decode()

    assert f'href="{encounter.get_absolute_url()}"' in page


def test_the_encounters_page_lists_the_past_ones_and_starts_one(campaign, alice, bob, rook,
                                                                  client_for):
    first = services.encounter_start(campaign=campaign, by=alice, name="Warehouse")
    services.encounter_end(encounter=first, by=alice)
    session = session_create(campaign=campaign, date=datetime.date(2026, 1, 3), title="Earlier")
    listing = reverse("encounters:encounter-list", args=[campaign.pk])

    assert "Warehouse" in text_of(client_for(bob).get(listing))
    assert client_for(bob).post(listing, {"name": "Mine"}).status_code == 404

    started = client_for(alice).post(listing, {"name": "Rooftops", "session": str(session.pk)})

    assert started.status_code == 302
    assert Encounter.objects.get(campaign=campaign, ended_at__isnull=True).session == session
    assert "Start an encounter" not in text_of(client_for(alice).get(listing))
