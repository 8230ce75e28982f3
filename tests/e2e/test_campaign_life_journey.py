"""A campaign's life in two real browsers: the GM at a desktop, the player on a phone.

The GM signs up and creates a 3d6 campaign; the player joins and builds a character. The GM
opens the settings, renames the campaign and changes its starting XP (a value out of range is
refused first, naming the range, with what was typed kept) and writes a description. The GM
archives the campaign from a confirmation page; both campaign lists show it under "Archived";
the player's sheet offers no way to change the character, and a write the player still
attempts is refused, saying the campaign is archived, with nothing written. The GM restores
it and the player rolls again. The GM hands the GM seat to the player: the player now has the
dashboard and the settings, the old GM neither. Last, a throwaway campaign is deleted once its
name is typed (a wrong name first: refused, nothing deleted), with the export offered on the
way. axe-core audits every page; the phone never scrolls sideways.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from campaigns.models import Campaign, Membership
from characters.models import Character
from rolls.models import Roll
from tests.e2e.conftest import (
    audit,
    create_campaign,
    join_by_invite,
    no_horizontal_scroll,
    sign_up,
    small_buttons,
)
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]

NAME = "Lanterns of Vell"
NEW_NAME = "Lanterns over Vell"
DESCRIPTION = "A river city lit by bargained fire. Thursdays, fortnightly."


def on_the_phone(page: Page, label: str) -> None:
    """axe, no sideways scroll and no button too small for a thumb."""
    audit(page, label=label)
    no_horizontal_scroll(page)
    assert small_buttons(page) == [], f"{label}: buttons too small to touch"


def player_builds_a_character(player: Page) -> Character:
    player.click("a:has-text('Create a character')")
    expect(player.locator("h1")).to_have_text("New 3d6 character")
    player.fill("input[name=name]", "Osk")
    player.fill("input[name=concept]", "Lamplighter")
    player.click("button:has-text('Create the character')")
    expect(player.locator("h1")).to_have_text("Osk")
    return Character.objects.get(name="Osk")


def roll_brawn(player: Page) -> None:
    """Ask for a test of the first trait against TD 10 from the sheet's roll dialog."""
    player.select_option("select[name=target]", "t0")
    player.fill("input[name=td]", "10")
    expect(player.locator("#roll-odds")).to_contain_text("vs TD 10")
    player.locator("#roll-button").click()


def gm_changes_the_settings(gm: Page, campaign: Campaign) -> None:
    gm.goto(campaign.get_absolute_url())
    gm.get_by_role("link", name="Settings").click()
    expect(gm.locator("h1")).to_have_text(f"Settings of {NAME}")
    audit(gm, label="campaign settings")

    # Out of range: refused with the reason; what was typed stays in the form.
    gm.get_by_label("Campaign name").fill(NEW_NAME)
    gm.get_by_label("Description").fill(DESCRIPTION)
    gm.get_by_label("Starting XP").fill("5000")
    gm.click("button:has-text('Save settings')")
    expect(gm.locator("main")).to_contain_text(
        "Starting XP is between 0 and 1000. Nothing was saved.")
    expect(gm.get_by_label("Campaign name")).to_have_value(NEW_NAME)
    expect(gm.get_by_label("Description")).to_have_value(DESCRIPTION)
    expect(gm.get_by_label("Starting XP")).to_have_value("5000")
    audit(gm, label="campaign settings refused")
    campaign.refresh_from_db()
    assert (campaign.name, campaign.starting_xp, campaign.description) == (NAME, 30, "")

    gm.get_by_label("Starting XP").fill("12")
    gm.click("button:has-text('Save settings')")
    expect(gm.locator(".messages")).to_contain_text("Settings saved.")
    expect(gm.locator("h1")).to_have_text(f"Settings of {NEW_NAME}")
    campaign.refresh_from_db()
    assert (campaign.name, campaign.starting_xp, campaign.description) == (
        NEW_NAME, 12, DESCRIPTION)

    gm.goto(campaign.get_absolute_url())
    expect(gm.locator("h1")).to_have_text(NEW_NAME)
    expect(gm.locator("main")).to_contain_text("Starting XP 12")
    expect(gm.locator("main")).to_contain_text(DESCRIPTION)


def gm_archives_the_campaign(gm: Page, campaign: Campaign) -> None:
    gm.goto(reverse("campaigns:campaign-settings", args=[campaign.pk]))
    gm.get_by_role("link", name=f"Archive {NEW_NAME}…").click()
    expect(gm.locator("h1")).to_have_text(f"Archive {NEW_NAME}?")
    audit(gm, label="archive confirmation")
    campaign.refresh_from_db()
    assert not campaign.is_archived  # asking is not doing
    gm.get_by_role("button", name=f"Archive {NEW_NAME}").click()
    expect(gm.locator(".messages")).to_contain_text(f"{NEW_NAME} is archived")
    expect(gm.locator("#archived-banner")).to_contain_text("read-only")
    audit(gm, label="archived campaign (GM)")
    campaign.refresh_from_db()
    assert campaign.is_archived


def archived_section(page: Page) -> Locator:
    """The campaign list's "Archived" section."""
    return page.locator("section[aria-labelledby=archived-heading]")


def test_a_campaign_is_set_up_archived_restored_handed_over_and_a_spare_one_deleted(  # type: ignore[no-untyped-def]
    new_page,
) -> None:
    gm = new_page()
    player = new_page(phone=True)

    sign_up(gm, "maren")
    invite = create_campaign(gm, name=NAME, ruleset="three_d6")
    campaign = Campaign.objects.get(name=NAME)
    join_by_invite(player, invite, username="ivo", campaign=NAME)
    osk = player_builds_a_character(player)
    on_the_phone(player, "3d6 sheet (player, phone)")

    gm_changes_the_settings(gm, campaign)
    gm_archives_the_campaign(gm, campaign)

    # Both campaign lists show it apart, under "Archived".
    gm.goto("/campaigns/")
    expect(archived_section(gm)).to_contain_text(NEW_NAME)
    expect(archived_section(gm)).to_contain_text("Archived")
    audit(gm, label="campaign list with an archived campaign (GM)")
    player.goto("/campaigns/")
    expect(archived_section(player)).to_contain_text(NEW_NAME)
    expect(player.locator("main")).to_contain_text("None of your campaigns is in play")
    on_the_phone(player, "campaign list with an archived campaign (phone)")

    # The player's page of the campaign says it is archived and offers nothing to change.
    player.get_by_role("link", name=NEW_NAME).click()
    expect(player.locator("#archived-banner")).to_contain_text("read-only")
    expect(player.locator("#archived-banner button")).to_have_count(0)  # only the GM restores
    expect(player.get_by_role("link", name="Create a character")).to_have_count(0)
    expect(player.get_by_role("link", name="Leave this campaign")).to_have_count(0)
    on_the_phone(player, "archived campaign (player, phone)")

    # The sheet stays readable; its ways to change the character are gone.
    player.goto(osk.get_absolute_url())
    expect(player.locator("h1")).to_have_text("Osk")
    actions = player.locator("#character-actions")
    expect(actions.get_by_role("link", name="Export as JSON")).to_be_visible()
    for gone in ("Edit", "Retire", "Delete"):
        expect(actions.get_by_role("link", name=gone)).to_have_count(0)
    on_the_phone(player, "sheet in an archived campaign (phone)")
    # The sheet says the campaign is archived and offers no roll (a sheet opened before the
    # archive still does: the roll is refused, test_a_roll_refused_in_an_archived_...).
    expect(player.locator("#archived-banner")).to_contain_text("read-only")
    expect(player.locator(".roll-dialog")).to_be_hidden()
    expect(player.locator("#roll-button")).to_be_hidden()
    assert Roll.objects.filter(character=osk).count() == 0

    # The edit form, opened from a bookmark and sent as a browser without JavaScript sends
    # it (form.submit() fires no submit event, so htmx stays out of it): refused with the
    # reason, nothing written.
    player.goto(reverse("characters:character-edit", args=[osk.pk]))
    player.get_by_label("Backstory").fill("Written while the campaign was archived.")
    with player.expect_navigation():
        player.evaluate("document.getElementById('edit-form').submit()")
    expect(player.locator("h1")).to_have_text(f"{NEW_NAME} is archived")
    expect(player.locator(".messages")).to_contain_text(
        f"{NEW_NAME} is archived: it is read-only, and nothing was changed. Its GM can "
        "restore it.")
    expect(player.locator("main")).to_contain_text("Its GM can restore it.")
    on_the_phone(player, "write refused in an archived campaign (phone)")
    osk.refresh_from_db()
    assert osk.backstory == ""

    # The GM restores it from the banner; the player rolls again.
    gm.goto(campaign.get_absolute_url())
    gm.locator("#archived-banner").get_by_role("button", name=f"Restore {NEW_NAME}").click()
    expect(gm.locator(".messages")).to_contain_text(f"{NEW_NAME} is restored")
    expect(gm.locator("#archived-banner")).to_have_count(0)
    campaign.refresh_from_db()
    assert not campaign.is_archived
    gm.goto("/campaigns/")
    expect(archived_section(gm)).to_have_count(0)
    expect(gm.locator("main")).to_contain_text(NEW_NAME)

    player.goto(osk.get_absolute_url())
    expect(player.locator("#character-actions").get_by_role("link", name="Edit")).to_be_visible()
    roll_brawn(player)
    expect(player.locator("#roll-result")).to_contain_text(re.compile(r"Success|Failure"))
    assert Roll.objects.filter(character=osk).count() == 1
    on_the_phone(player, "sheet after restoring (phone)")

    # The GM hands the seat to the player and stays at the table as a player.
    gm.goto(reverse("campaigns:campaign-settings", args=[campaign.pk]))
    gm.get_by_role("link", name="Hand the GM seat over…").click()
    expect(gm.locator("h1")).to_have_text(f"Hand the GM seat of {NEW_NAME} over")
    audit(gm, label="handover page")
    gm.get_by_label("New GM").select_option(label="ivo")
    gm.get_by_role("button", name="Hand the GM seat over").click()
    expect(gm.locator(".messages")).to_contain_text(f"ivo is now the GM of {NEW_NAME}")
    expect(gm.locator("main")).to_contain_text("You are a player")
    expect(gm.locator("#party")).to_have_count(0)
    expect(gm.get_by_role("link", name="Settings")).to_have_count(0)
    audit(gm, label="campaign page of the former GM")
    response = gm.goto(reverse("campaigns:campaign-settings", args=[campaign.pk]))
    assert response is not None and response.status == 404
    roles = dict(Membership.objects.filter(campaign=campaign)
                 .values_list("user__username", "role"))
    assert roles == {"maren": Membership.Role.PLAYER, "ivo": Membership.Role.GM}

    player.goto(campaign.get_absolute_url())
    expect(player.locator("main")).to_contain_text("You are the GM")
    expect(player.locator(f"#card-{osk.pk}")).to_be_visible()
    player.get_by_role("link", name="Settings").click()
    expect(player.locator("h1")).to_have_text(f"Settings of {NEW_NAME}")
    expect(player.get_by_label("Starting XP")).to_have_value("12")
    on_the_phone(player, "settings of the new GM (phone)")

    # A throwaway campaign: deleted only once its name is typed exactly.
    create_campaign(gm, name="Scratch table", ruleset="three_d6")
    scratch = Campaign.objects.get(name="Scratch table")
    gm.goto(reverse("campaigns:campaign-settings", args=[scratch.pk]))
    gm.get_by_role("link", name="Delete Scratch table…").click()
    expect(gm.locator("h1")).to_have_text("Delete Scratch table?")
    export = gm.get_by_role("link", name="Download the export first")
    expect(export).to_have_attribute(
        "href", reverse("transfer:campaign-export", args=[scratch.pk]))
    audit(gm, label="delete confirmation")
    gm.get_by_label("Campaign name").fill("Scratch")
    gm.get_by_role("button", name="Delete Scratch table for good").click()
    expect(gm.locator("main")).to_contain_text("Type the campaign's name exactly: Scratch table")
    expect(gm.get_by_label("Campaign name")).to_have_value("Scratch")
    audit(gm, label="delete refused")
    assert Campaign.objects.filter(pk=scratch.pk).exists()
    gm.get_by_label("Campaign name").fill("Scratch table")
    gm.get_by_role("button", name="Delete Scratch table for good").click()
    expect(gm.locator(".messages")).to_contain_text("Deleted Scratch table.")
    expect(gm.locator("h1")).to_have_text("Your campaigns")
    expect(gm.locator("main article")).to_have_count(1)
    expect(gm.locator("main article")).to_contain_text(NEW_NAME)
    assert not Campaign.objects.filter(pk=scratch.pk).exists()
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_a_roll_refused_in_an_archived_campaign_says_why_on_the_page_it_lands_on(  # type: ignore[no-untyped-def]
    new_page, table,  # noqa: F811 (the fixture imported above)
) -> None:
    """A sheet opened before the GM archived the campaign still shows its roll dialog (a
    sheet opened after shows none): the roll is refused, and the page it lands on says why."""
    vex: Character = table["character"]
    campaign = vex.campaign
    player = new_page(phone=True)
    log_in(player, "pax")
    player.goto(vex.get_absolute_url())
    campaign.archived_at = timezone.now()
    campaign.save(update_fields=["archived_at"])
    player.check("input[name=trait][value=Precision]")
    player.locator("#roll-form .actions button").first.click()
    expect(player).to_have_url(re.compile(re.escape(campaign.get_absolute_url()) + "$"))
    assert Roll.objects.filter(character=vex).count() == 0
    expect(player.locator(".messages")).to_contain_text(
        f"{campaign.name} is archived: it is read-only, and nothing was changed.",
        timeout=3_000)
