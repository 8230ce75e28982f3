"""The table's memory in real browsers (issue 35): an evening of play (a roll on the player's
phone, damage and an award by the GM at a desktop), then the player's "Since last session" on
the sheet, the table's history saying who changed what, the luck page with its charts drawn
under the Content Security Policy, and the group's chat, a channel on this machine, holding
the evening's posts."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from campaigns.models import Session
from characters.models import Character
from history.models import Activity
from rolls.models import Roll
from tests.chat.receiver import Receiver, receiver
from tests.e2e.conftest import PASSWORD, audit, no_horizontal_scroll
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

__all__ = ["receiver"]

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):  # type: ignore[no-untyped-def]
    """Gwen the GM and Pax her player, whose Vex has played since last week; their last
    session was three days ago."""
    gwen = UserFactory(username="gwen", password=PASSWORD)
    pax = UserFactory(username="pax", password=PASSWORD)
    campaign = CampaignFactory(name="Rust and Static", created_by=gwen)
    MembershipFactory(campaign=campaign, user=pax)
    vex = CharacterFactory(campaign=campaign, owner=pax, name="Vex",
                           attributes={"Precision": 4}, abilities={"Driving": 3})
    week_ago = timezone.now() - datetime.timedelta(days=7)
    Character.objects.filter(pk=vex.pk).update(created_at=week_ago)
    Session.objects.create(campaign=campaign, title="The ambush",
                           date=timezone.localdate() - datetime.timedelta(days=3))
    return {"campaign": campaign, "character": Character.objects.get(pk=vex.pk)}


def log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def test_an_evening_remembered(new_page, table, receiver: Receiver) -> None:  # type: ignore[no-untyped-def]
    campaign, vex = table["campaign"], table["character"]
    gm, player = new_page(), new_page(phone=True)
    log_in(gm, "gwen")
    log_in(player, "pax")

    # The GM connects the table to the group's channel.
    gm.goto(f"/campaigns/{campaign.pk}/chat/")
    gm.get_by_label("Webhook URL").fill(receiver.url)
    gm.locator("main button[type=submit]:has-text('Connect')").click()
    expect(gm.locator("#chat-hook")).to_contain_text("…")
    assert receiver.url not in gm.locator("#chat-hook").inner_text()  # shown masked

    # The evening: Pax rolls on the phone, Gwen marks damage and awards XP.
    player.goto(vex.get_absolute_url())
    player.check("input[name=trait][value=Precision]")
    player.check("input[name=trait][value=Driving]")
    expect(player.locator("#roll-odds")).to_contain_text("Precision + Driving: 7 dice")
    player.locator(".roll-bar button").click()
    expect(player.locator("#roll-result")).to_contain_text(
        re.compile(r"success|failure|botch", re.I))
    gm.goto(vex.get_absolute_url())
    gm.select_option("#damage-kind", "lethal")
    gm.fill("#damage-levels", "2")
    gm.locator("#health-track button[value=damage]").click()
    expect(gm.locator("#wound-penalty-note")).to_contain_text("Scratched")
    gm.goto(f"/characters/{vex.pk}/xp/")
    award = gm.locator("form[action$='/xp/award/']")
    award.locator("input[name=amount]").fill("3")
    award.locator("input[name=reason]").fill("Got the convoy through")
    award.locator("button[type=submit]").click()
    expect(gm.locator("#xp-panel")).to_contain_text("Got the convoy through")

    # Pax opens the sheet the next day: "Since last session" says what changed.
    player.goto(vex.get_absolute_url())
    since = player.locator("#since-last-session")
    expect(since).to_contain_text("since The ambush")
    since.locator("summary").click()
    expect(since).to_contain_text("Health")
    expect(since).to_contain_text("XP available")
    no_horizontal_scroll(player)

    # The table's history answers who marked that lethal.
    player.goto(f"/campaigns/{campaign.pk}/history/")
    damage = player.locator(".history-entry", has_text="Marked 2 lethal")
    expect(damage).to_contain_text("gwen")
    expect(damage).to_contain_text("Vex")
    expect(damage.locator(".history-changes")).to_contain_text("Health")
    expect(player.locator(".history-entry", has_text="Awarded 3 XP")).to_be_visible()
    audit(player, label="the table's history (phone)")
    no_horizontal_scroll(player)

    # The luck page: the roll against its exact odds, with charts drawn as images.
    player.goto(f"/campaigns/{campaign.pk}/luck/")
    expect(player.locator("main")).to_contain_text("percentile")
    charts = player.locator("img.chart, .chart-image img")
    expect(charts.first).to_be_visible()
    for index in range(charts.count()):
        drawn = charts.nth(index).evaluate("(img) => img.complete && img.naturalWidth > 0")
        assert drawn, f"chart {index} did not draw"
    audit(player, label="luck page (phone)")
    no_horizontal_scroll(player)

    # The channel got the roll and the award, and never the URL's secret in a player's page.
    roll = Roll.objects.get(character=vex)
    bodies = [str(post.body) for post in receiver.posts]
    assert any(roll.summary in body and roll.code.hex[:8] in body for body in bodies), bodies
    assert any("Got the convoy through" in body for body in bodies), bodies
    assert not any("lethal" in body for body in bodies)  # damage is not posted
    assert Activity.objects.filter(campaign=campaign, actor__username="gwen",
                                   action="damage").exists()
