"""The GM's side of the table, in a real browser, once per system: the GM builds two NPCs from
the stat block (a name alone), starts an encounter with the party, adds both NPCs and advances
the turns while the player's phone (never reloaded) follows them to "Your turn"; the player
taps Done; the GM damages an NPC from its dashboard card and rolls for it from its sheet, a
roll the phone never learns of. In Genesys the GM also sets the Destiny pool and the player
flips a light point to upgrade a check: the phone's pool shows one light point fewer.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from characters.models import Character
from tests.e2e.conftest import PASSWORD
from tests.e2e.test_maelstrom_at_the_table import log_in
from tests.system_fixtures import demo_campaign

pytestmark = [pytest.mark.django_db(transaction=True)]

SYSTEMS = ("maelstrom", "shahquest", "shattered_world", "genesys", "three_d6")
NPCS = ("Ash Warden", "Grey Courier")


def _open_details(card: Locator) -> Locator:
    """Shattered World folds its statistic change under "Change a statistic"."""
    card.locator("summary", has_text="Change a statistic").click()
    return card


# What the GM presses on an NPC's party card (systems/<slug>/_card.html) to hurt it.
DAMAGE: dict[str, Callable[[Locator, int], Locator]] = {
    "maelstrom": lambda card, pk: card.locator(f"#card-{pk}-damage"),
    "shahquest": lambda card, pk: card.locator(f"#card-{pk}-stress"),
    "shattered_world": lambda card, pk: _open_details(card).locator(f"#card-{pk}-stat-lose"),
    "genesys": lambda card, pk: card.locator("button[name=direction][value=suffer]").first,
    "three_d6": lambda card, pk: card.locator(f"#card-{pk}-damage"),
}


def pick_roll(page: Page, slug: str) -> None:
    """Fill the roll dialog of a name-only NPC with a pool it can roll: Maelstrom's Willpower
    roll, Shahquest's first feature, Genesys' Agility alone; Shattered World's action die and
    3d6's power test are rollable as the dialog opens."""
    form = page.locator("#roll-form")
    if slug == "maelstrom":
        form.locator("input[name=kind][value=willpower]").check()
    elif slug == "shahquest":
        form.locator("input[name=feature]").first.check()
    elif slug == "genesys":
        form.locator("select[name=characteristic]").select_option("Agility")


def new_npc(gm: Page, campaign_url: str, name: str) -> None:
    """The GM follows the dashboard's "New NPC" link and types only a name."""
    gm.goto(campaign_url)
    gm.locator("#npcs").get_by_role("link", name="New NPC").click()
    gm.fill("input[name=name]", name)
    gm.get_by_role("button", name="Create the NPC").click()
    expect(gm.locator("h1")).to_contain_text(name)


# The GM card's place in the fight: the round and turn its "Next turn" form posts.
PLACE = ("[...document.querySelectorAll('#turn-order form input[name=round], "
         "#turn-order form input[name=turn]')].map(e => e.value).join('/')")


def next_turn(gm: Page) -> None:
    """Press "Begin round 1" / "Next turn" and wait for the card to move on."""
    before = gm.evaluate(f"() => {PLACE}")
    gm.click("#turn-next")
    gm.wait_for_function(f"(before) => {PLACE} !== before", arg=before)


@pytest.mark.parametrize("slug", SYSTEMS)
def test_the_gm_runs_npcs_through_an_encounter(new_page, slug: str) -> None:  # type: ignore[no-untyped-def]
    gwen = User.objects.create_user("gwen", password=PASSWORD)
    pax = User.objects.create_user("pax", password=PASSWORD)
    campaign = demo_campaign(slug, name="Night Market", gm=gwen, players=[pax],
                             rng=random.Random(7))
    hero = campaign.characters.get(owner=pax)
    gm, phone = new_page(), new_page(phone=True)
    log_in(gm, "gwen")
    log_in(phone, "pax")
    phone.goto(hero.get_absolute_url())
    url = campaign.get_absolute_url()
    for name in NPCS:
        new_npc(gm, url, name)
    npc = Character.all_objects.get(campaign=campaign, name=NPCS[0])
    assert npc.is_npc

    # The encounter: the party is in it from the start; both NPCs join, then round 1 begins.
    gm.goto(url)
    gm.fill("#encounter-name", "Ambush in the market")
    gm.click("#encounter-start")
    turn_order = gm.locator("#turn-order")
    expect(turn_order.locator("h2")).to_contain_text("Ambush in the market")
    expect(turn_order.locator(".turn-list")).to_contain_text(hero.name)
    for name in NPCS:
        gm.get_by_label(f"{name} (NPC)").check()
    gm.click("#combatant-add")
    for name in NPCS:
        expect(turn_order.locator(".turn-list")).to_contain_text(name)
    for _ in range(len(NPCS) + 2):
        next_turn(gm)
        if hero.name in turn_order.locator(".turn-now").inner_text():
            break
    expect(turn_order.locator(".turn-now")).to_contain_text(hero.name)
    expect(phone.locator("#turn-order h2")).to_contain_text("Your turn")
    phone.click("#turn-done")
    expect(turn_order.locator(".turn-now")).not_to_contain_text(hero.name)
    expect(phone.locator("#turn-order h2")).not_to_contain_text("Your turn")

    # The GM hurts the first NPC from its card on the dashboard.
    card = gm.locator(f"#npcs #card-{npc.pk}")
    before_card, before_sheet = card.inner_text(), copy.deepcopy(npc.sheet)
    with gm.expect_response(lambda r: r.request.method == "POST") as answer:
        DAMAGE[slug](card, npc.pk).click()
    assert answer.value.ok
    expect(card).not_to_have_text(before_card)
    expect(card.locator(".errorlist")).to_have_count(0)
    npc.refresh_from_db()
    assert npc.sheet != before_sheet, card.inner_text()

    # ...and rolls for it from its sheet: the result shows, and the roll is the GM's alone.
    gm.goto(npc.get_absolute_url())
    pick_roll(gm, slug)
    gm.click("#roll-button")
    expect(gm.locator("#roll-result")).not_to_be_empty()
    assert npc.rolls.count() == 1
    assert_no_npc(phone)

    if slug == "genesys":
        destiny_flip(gm, phone, url)
    # Neither the live sheet nor the campaign page (its latest rolls) names a hidden NPC.
    assert_no_npc(phone)
    phone.goto(url)
    expect(phone.locator("h1")).to_have_text("Night Market")
    assert_no_npc(phone)


def assert_no_npc(phone: Page) -> None:
    """The player's page names neither hidden NPC."""
    html = phone.content()
    for name in NPCS:
        assert name not in html, f"{name} reached the player's page {phone.url}"


def destiny_flip(gm: Page, phone: Page, url: str) -> None:
    """Genesys: the GM sets the pool to 2 light, 1 dark; the phone's sheet follows; the player
    ticks the light flip in the check dialog and rolls; the pool shows 1 light, 2 dark."""
    gm.goto(url)
    panel = gm.locator("#gx-destiny")
    start = panel.locator("details.gx-destiny-start")
    if start.get_attribute("open") is None:
        start.locator("summary").click()
    panel.locator("input[name=light]").fill("2")
    panel.locator("input[name=dark]").fill("1")
    gm.click("#gx-destiny-set")
    expect(gm.locator("#gx-destiny")).to_contain_text("2 light side · 1 dark side")
    pool = phone.locator("#gx-destiny")
    expect(pool).to_contain_text("2 light side · 1 dark side")

    phone.locator("#roll-form select[name=characteristic]").select_option("Agility")
    phone.get_by_label("Flip a light Destiny point", exact=False).check()
    phone.click("#roll-button")
    expect(phone.locator("#roll-result")).not_to_be_empty()
    expect(pool).to_contain_text("1 light side · 2 dark side")
