"""The roll form as htmx drives it, on each system's sheet (issue 17, items 2, 10, 11, 15):
no error in the browser's console while a player ticks, types and rolls; a tap on the phone's
roll bar right after typing rolls at once; the result's top comes into view on a phone; and
the roll bar's words follow the form after a roll."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from characters.models import Character
from rolls.models import Roll
from rolls.services import requested_roll_create
from systems import for_campaign
from tests.e2e.conftest import PASSWORD, audit
from tests.e2e.test_maelstrom_at_the_table import log_in
from tests.e2e.test_shahquest_live_table import open_live
from tests.factories import UserFactory
from tests.system_fixtures import demo_campaign

pytestmark = [pytest.mark.django_db(transaction=True)]


def player_character(slug: str) -> Character:
    """A campaign of system ``slug`` filled by its demo, with ``pat`` (password
    :data:`PASSWORD`) playing its first character; returns that character."""
    gm = UserFactory(username=f"gm-{slug}", password=PASSWORD)
    pat = UserFactory(username=f"pat-{slug}", password=PASSWORD)
    campaign = demo_campaign(slug, name=f"Table {slug}", gm=gm, players=[pat],
                             rng=random.Random(7))
    return Character.objects.get(campaign=campaign, owner=pat)


def open_sheet(new_page, slug: str) -> tuple[Character, Page, int]:  # type: ignore[no-untyped-def]
    """Pat's character of system ``slug``, its sheet open on a phone, and how many rolls it
    has so far."""
    character = player_character(slug)
    page = new_page(phone=True)
    log_in(page, f"pat-{slug}")
    page.goto(character.get_absolute_url())
    return character, page, Roll.objects.filter(character=character).count()


def settled(page: Page) -> None:
    """Wait until no htmx request of the page is under way (htmx marks the element that
    sent one with the class htmx-request until its answer is in)."""
    expect(page.locator(".htmx-request")).to_have_count(0)


def type_into(page: Page, selector: str, text: str) -> None:
    """Replace a field's value key by key, as a thumb does (each key is a keyup)."""
    field = page.locator(selector)
    field.fill("")
    field.press_sequentially(text)


# What a player does in each system's roll form before pressing Roll: pick the pool, then
# type into a field (the typing starts an odds refresh that is still under way at the press).
def _maelstrom(page: Page) -> None:
    page.check("input[name=trait][value=Precision]")
    expect(page.locator("#roll-odds")).to_contain_text("Precision: 4 dice")
    page.check("input[name=trait][value=Driving]")
    expect(page.locator("#roll-odds")).to_contain_text("Precision + Driving: 7 dice")


def _genesys(page: Page) -> None:
    page.select_option("#roll-form select[name=skill]", "Ranged")
    expect(page.locator("#roll-odds")).to_contain_text("Ranged")


def _shahquest(page: Page) -> None:
    page.locator("#roll-form .sq-pick input[type=checkbox]").first.check()


def _shattered_world(page: Page) -> None:
    page.check("#roll-form input[name=die][value=ad]")


def _three_d6(page: Page) -> None:
    page.select_option("#roll-form select[name=target]", index=1)


PICK: dict[str, Callable[[Page], None]] = {
    "maelstrom": _maelstrom, "genesys": _genesys, "shahquest": _shahquest,
    "shattered_world": _shattered_world, "three_d6": _three_d6,
}
"""Each system's way to pick a pool in its roll form."""

TYPE: dict[str, tuple[str, str, str]] = {
    "maelstrom": ("#id_difficulty", "7", "8"),
    "genesys": ("#roll-form input[name=boost]", "1", "2"),
    "shahquest": ("#roll-form input[name=asset_name]", "Rope", "Ladder"),
    "shattered_world": ("#roll-form input[name=target]", "7", "8"),
    "three_d6": ("#roll-form input[name=situational]", "1", "2"),
}
"""Each system's roll form: a field a player types into, and two values it takes."""


def pick_and_type(page: Page, slug: str) -> None:
    """Pick the pool in ``slug``'s roll form and type into one of its fields."""
    PICK[slug](page)
    selector, value, _ = TYPE[slug]
    type_into(page, selector, value)


@pytest.mark.parametrize("slug", list(PICK))
def test_ticking_typing_and_rolling_leave_the_console_clean(new_page, slug: str) -> None:  # type: ignore[no-untyped-def]
    character, page, before = open_sheet(new_page, slug)

    pick_and_type(page, slug)
    page.locator("#roll-form .actions button[type=submit]").first.click()
    expect(page.locator("#roll-result .roll-result")).to_be_visible()
    # Changing the field twice at once: the first odds asked for are overtaken by the
    # second, which is no error.
    selector, first_value, second_value = TYPE[slug]
    for value in (second_value, first_value):
        type_into(page, selector, value)
        page.keyboard.press("Tab")
    settled(page)

    assert Roll.objects.filter(character=character).count() == before + 1
    audit(page, label=f"{slug} sheet after ticking, typing and rolling (phone)")


@pytest.mark.parametrize("slug", ["maelstrom", "three_d6"])
def test_a_tap_on_the_roll_bar_right_after_typing_rolls(new_page, slug: str) -> None:  # type: ignore[no-untyped-def]
    character, page, before = open_sheet(new_page, slug)

    pick_and_type(page, slug)
    # The thumb leaves the field for the bar: the field's change asks for the odds, and the
    # same tap must still roll.
    page.locator(".roll-bar button").tap()
    expect(page.locator("#roll-result .roll-result")).to_be_visible()
    settled(page)
    assert Roll.objects.filter(character=character).count() == before + 1


@pytest.mark.parametrize("slug", list(PICK))
def test_the_result_comes_into_view_on_a_phone(new_page, slug: str) -> None:  # type: ignore[no-untyped-def]
    character = player_character(slug)
    page = new_page(phone=True)
    log_in(page, f"pat-{slug}")
    page.goto(character.get_absolute_url())

    pick_and_type(page, slug)
    page.locator("#roll-form .actions button[type=submit]").first.click()
    # Its top (the outcome) is on the screen, not below it.
    expect(page.locator("#roll-result .roll-result > *").first).to_be_in_viewport()
    settled(page)


def test_roll_it_on_the_gms_request_brings_the_result_into_view(new_page) -> None:  # type: ignore[no-untyped-def]
    character = player_character("maelstrom")
    system = for_campaign(character.campaign)
    what = system.request_form(character.campaign, {
        "kind": "action", "traits": "Perception + Alertness", "difficulty": "6",
        "threshold": "0"})
    assert what.is_valid(), what.errors
    requested_roll_create(characters=[character], system=system, what=what.cleaned_data,
                          note="Listen at the door", by=character.campaign.created_by)
    page = new_page(phone=True)
    log_in(page, "pat-maelstrom")
    page.goto(character.get_absolute_url())
    # The player was picking a pool of their own (its odds fill the dialog) when asked.
    PICK["maelstrom"](page)

    page.get_by_role("button", name="Roll it").click()
    expect(page.locator("#roll-result .roll-result > *").first).to_be_in_viewport()
    settled(page)
    assert Roll.objects.filter(character=character, answers__isnull=False).count() == 1


@pytest.mark.parametrize(("slug", "pick"), [
    ("maelstrom", lambda page: page.check("input[name=trait][value=Precision]")),
    ("three_d6", lambda page: page.select_option("#roll-form select[name=target]", index=1)),
    ("genesys", lambda page: page.select_option("#roll-form select[name=skill]", "Ranged")),
])
def test_after_a_roll_the_roll_bar_still_shows_the_pools_odds(new_page, slug: str, pick) -> None:  # type: ignore[no-untyped-def]
    character = player_character(slug)
    page = new_page(phone=True)
    open_live(page, f"pat-{slug}", character.get_absolute_url())

    pick(page)
    headline = page.locator("#roll-bar-odds")
    expect(headline).to_have_text(re.compile(r"\d+(\.\d+)? %"))
    page.locator(".roll-bar button").click()
    expect(page.locator("#roll-result .roll-result")).to_be_visible()
    # The sheet's live refresh after the roll (its recent rolls) has come and gone.
    roll = Roll.objects.filter(character=character).latest("pk")
    expect(page.locator("#recent-rolls li a").first).to_have_attribute(
        "href", roll.get_absolute_url())
    settled(page)
    # The pool is still picked: the bar keeps its odds, not the words for an empty form.
    expect(headline).to_have_text(re.compile(r"\d+(\.\d+)? %"))


@pytest.mark.parametrize(("slug", "prompt", "pick", "drop"), [
    ("maelstrom", "Tick traits, then",
     lambda page: page.check("input[name=trait][value=Precision]"),
     lambda page: page.uncheck("input[name=trait][value=Precision]")),
    ("genesys", "Pick a skill, then",
     lambda page: page.select_option("#roll-form select[name=skill]", "Ranged"),
     lambda page: page.select_option("#roll-form select[name=skill]", "")),
])
def test_the_roll_bar_says_what_to_do_when_nothing_is_picked_again(  # type: ignore[no-untyped-def]
        new_page, slug: str, prompt: str, pick, drop) -> None:
    character = player_character(slug)
    page = new_page(phone=True)
    log_in(page, f"pat-{slug}")
    page.goto(character.get_absolute_url())
    bar = page.locator("#roll-bar-odds")
    expect(bar).to_have_text(prompt)

    pick(page)
    expect(bar).to_have_text(re.compile(r"^Success \d+(\.\d+)? %"))
    drop(page)
    expect(page.locator("#roll-odds")).not_to_contain_text("%")
    expect(bar).to_have_text(prompt)
    settled(page)
    audit(page, label=f"{slug} sheet, a pool picked and dropped (phone)")


@pytest.mark.parametrize("slug", ["genesys", "shahquest", "shattered_world", "three_d6"])
def test_the_roll_page_of_its_own_leaves_the_console_clean(new_page, slug: str) -> None:  # type: ignore[no-untyped-def]
    """The roll dialog on its own page (rolls:roll-create; the sheet's partial without the
    sheet and its roll bar), where the same htmx drives it."""
    character = player_character(slug)
    page = new_page(phone=True)
    log_in(page, f"pat-{slug}")
    page.goto(f"/characters/{character.pk}/roll/")
    before = Roll.objects.filter(character=character).count()

    pick_and_type(page, slug)
    page.locator("#roll-form .actions button[type=submit]").first.click()
    expect(page.locator(".roll-result")).to_be_visible()
    settled(page)

    assert Roll.objects.filter(character=character).count() == before + 1
    audit(page, label=f"{slug} roll page after picking, typing and rolling (phone)")
