"""A character's life in two real browsers: the player on a phone, the GM at a desktop.

In a Shattered World campaign the player builds two characters on the phone. On the first
one's edit page the player writes a backstory in Markdown (a heading, bold, a list, and a
``<script>`` that must show as text and never run) and sees it rendered on the sheet. The GM
writes a private note on the character; the player's sheet never holds its text. The player
rolls once, so the character has a history: deleting it is refused with the reason and
retiring offered instead, which the player confirms. The retired character leaves the GM's
party cards and the "Ask for a roll" choices and stays readable; the GM brings it back and
its card returns. Last, the player deletes the second character, which has no history. axe
audits every page; the phone never scrolls sideways.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

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

pytestmark = [pytest.mark.django_db(transaction=True)]

CAMPAIGN = "Glass Harbour"
STATS = {"stat_PF": 18, "stat_MA": 12, "stat_EN": 16, "stat_PR": 14, "stat_SP": 10,
         "stat_EM": 11}
SCRIPT = "<script>window.backstoryRan = true</script>"
BACKSTORY = f"""# Born at sea

Raised by **smugglers** on the reef.

- a cracked compass
- a debt to the harbour guild

{SCRIPT}
"""
GM_NOTE = "Her sister informs for the **harbour master**."


def on_the_phone(page: Page, label: str) -> None:
    """axe, no sideways scroll and no button too small for a thumb."""
    audit(page, label=label)
    no_horizontal_scroll(page)
    assert small_buttons(page) == [], f"{label}: buttons too small to touch"


def player_builds(player: Page, campaign_url: str, name: str) -> Character:
    """The player creates a Shattered World character from the campaign's page."""
    player.goto(campaign_url)
    player.click("a:has-text('Create a character')")
    expect(player.locator("h1")).to_have_text("New Shattered World character")
    player.fill("input[name=name]", name)
    player.fill("input[name=species]", "Elf")
    player.fill("input[name=field_role]", "Warrior")
    player.fill("input[name=subrole]", "Knight")
    player.fill("input[name=hit_points]", "24")
    for field, value in STATS.items():
        player.fill(f"input[name={field}]", str(value))
    player.check("input[name=proficiencies][value=PF]")
    player.click("button:has-text('Create the character')")
    expect(player.locator("h1")).to_have_text(name)
    return Character.objects.get(name=name)


def ask_choices(gm: Page) -> list[str]:
    """The names the GM's "Ask for a roll" form offers (none when it is not shown)."""
    select = gm.locator("#request-form select[name=character]")
    if select.count() == 0:
        return []
    return [text.strip() for text in select.locator("option").all_inner_texts()]


def test_a_character_gets_a_backstory_a_gm_note_is_retired_and_brought_back(  # type: ignore[no-untyped-def]
    new_page,
) -> None:
    gm = new_page()
    player = new_page(phone=True)

    sign_up(gm, "odile")
    invite = create_campaign(gm, name=CAMPAIGN, ruleset="shattered_world")
    join_by_invite(player, invite, username="tamsin", campaign=CAMPAIGN)
    campaign_url = player.url
    nell = player_builds(player, campaign_url, "Nell")
    spare = player_builds(player, campaign_url, "Spare")

    # The backstory, written on the phone in Markdown.
    player.goto(nell.get_absolute_url())
    expect(player.locator("#backstory")).to_contain_text("No backstory yet.")
    player.locator("#character-actions").get_by_role("link", name="Edit").click()
    expect(player.locator("h1")).to_have_text("Edit Nell")
    on_the_phone(player, "character edit page (phone)")
    player.get_by_label("Backstory").fill(BACKSTORY)
    player.get_by_role("button", name="Save").click()
    expect(player.locator("h1")).to_have_text("Nell")
    expect(player.locator(".messages")).to_contain_text("Nell is saved.")
    backstory = player.locator("#backstory .written")
    expect(backstory.locator("h3")).to_have_text("Born at sea")
    expect(backstory.locator("strong")).to_have_text("smugglers")
    expect(backstory.locator("li")).to_have_text(["a cracked compass",
                                                  "a debt to the harbour guild"])
    # The script is shown as the text that was typed, and never ran.
    expect(backstory).to_contain_text(SCRIPT)
    expect(backstory.locator("script")).to_have_count(0)
    assert player.evaluate("window.backstoryRan") is None
    on_the_phone(player, "sheet with a backstory (phone)")
    nell.refresh_from_db()
    assert nell.backstory == BACKSTORY.strip()

    # The GM writes a private note; it is on the GM's sheet only.
    gm.goto(nell.get_absolute_url())
    expect(gm.locator("#backstory .written h3")).to_have_text("Born at sea")
    gm.locator("#gm-notes").get_by_role("link", name="Write some").click()
    expect(gm.locator("h1")).to_have_text("GM notes on Nell")
    audit(gm, label="GM notes page")
    gm.get_by_label("GM notes").fill(GM_NOTE)
    gm.get_by_role("button", name="Save the notes").click()
    expect(gm.locator(".messages")).to_contain_text("Your notes on Nell are saved.")
    expect(gm.locator("#gm-notes .written strong")).to_have_text("harbour master")
    audit(gm, label="sheet with GM notes (GM)")

    player.reload()
    expect(player.locator("#backstory .written h3")).to_have_text("Born at sea")
    expect(player.locator("#gm-notes")).to_have_count(0)
    content = player.content()
    assert "harbour master" not in content and "informs for" not in content
    assert "GM notes" not in player.locator("main").inner_text()
    response = player.goto(reverse("characters:character-gm-notes", args=[nell.pk]))
    assert response is not None and response.status == 404

    # One roll gives Nell a history.
    player.goto(nell.get_absolute_url())
    player.locator("#roll-form button[type=submit]").first.click()
    expect(player.locator("#roll-result")).to_contain_text(
        re.compile(r"Success|Failure|success", re.I))
    assert Roll.objects.filter(character=nell).count() == 1

    # So deleting Nell is refused with the reason, and retiring offered instead.
    player.locator("#character-actions").get_by_role("link", name="Delete").click()
    expect(player.locator("h1")).to_have_text("Nell cannot be deleted")
    expect(player.get_by_role("button", name=re.compile("Delete"))).to_have_count(0)
    on_the_phone(player, "character with a history: delete refused (phone)")
    player.get_by_role("link", name="Retire Nell instead").click()
    expect(player.locator("h1")).to_have_text("Take Nell out of the party?")
    on_the_phone(player, "retire confirmation (phone)")
    nell.refresh_from_db()
    assert nell.in_play  # asking is not doing
    expect(player.get_by_role("radio", name=re.compile("^Retired"))).to_be_checked()
    expect(player.locator("main")).to_contain_text("Only the GM can mark a character dead.")
    player.get_by_role("button", name="Take Nell out of the party").click()
    expect(player.locator("h1")).to_have_text("Nell")
    expect(player.locator(".messages")).to_contain_text("Nell is retired: out of the party.")
    expect(player.locator("#character-status")).to_contain_text(
        "Retired: out of the party; the GM can bring it back.")
    # Still readable, and nothing offered that it can no longer do.
    expect(player.locator("#backstory .written h3")).to_have_text("Born at sea")
    expect(player.locator(".roll-dialog")).to_be_hidden()
    expect(player.locator("#character-restore")).to_have_count(0)  # the GM's to do
    on_the_phone(player, "retired character's sheet (phone)")
    nell.refresh_from_db()
    assert nell.status == Character.Status.RETIRED

    # The GM's dashboard: no card, not among those asked for a roll; listed apart.
    gm.goto(nell.campaign.get_absolute_url())
    expect(gm.locator(f"#card-{spare.pk}")).to_be_visible()
    expect(gm.locator(f"#card-{nell.pk}")).to_have_count(0)
    assert ask_choices(gm) == ["Everyone", "Spare"]
    expect(gm.locator("#out-of-party")).to_contain_text("Nell")
    expect(gm.locator("#out-of-party")).to_contain_text("Retired")
    audit(gm, label="dashboard with a retired character")

    # The GM brings Nell back from the sheet; the card and the choice return.
    gm.locator("#out-of-party").get_by_role("link", name="Nell").click()
    expect(gm.locator("#character-status")).to_contain_text("you can bring it back")
    audit(gm, label="retired character's sheet (GM)")
    gm.get_by_role("button", name="Bring Nell back into the party").click()
    expect(gm.locator(".messages")).to_contain_text("Nell is back in the party.")
    expect(gm.locator("#character-status")).not_to_contain_text("Retired")
    nell.refresh_from_db()
    assert nell.in_play
    gm.goto(nell.campaign.get_absolute_url())
    expect(gm.locator(f"#card-{nell.pk}")).to_contain_text("Nell")
    assert ask_choices(gm) == ["Everyone", "Nell", "Spare"]
    expect(gm.locator("#out-of-party")).to_have_count(0)

    player.goto(nell.get_absolute_url())
    expect(player.locator(".roll-dialog")).to_be_visible()
    expect(player.locator("#character-status")).not_to_contain_text("Retired")

    # A character without a history is deleted by its player, after a confirmation.
    player.goto(spare.get_absolute_url())
    player.locator("#character-actions").get_by_role("link", name="Delete").click()
    expect(player.locator("h1")).to_have_text("Delete Spare?")
    on_the_phone(player, "delete confirmation (phone)")
    assert Character.objects.filter(pk=spare.pk).exists()
    player.get_by_role("button", name="Delete Spare").click()
    expect(player.locator(".messages")).to_contain_text("Spare was deleted.")
    expect(player.locator("h1")).to_have_text(CAMPAIGN)
    expect(player.locator("#campaign-characters")).not_to_contain_text("Spare")
    on_the_phone(player, "campaign page after a deletion (phone)")
    assert not Character.objects.filter(pk=spare.pk).exists()
    assert Character.objects.filter(pk=nell.pk).exists()
