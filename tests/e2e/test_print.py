"""A character sheet printed from a real browser (static/css/print.css): one page, black on
white, with the traits, health and willpower and none of the screen's controls."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import systems
from characters.models import Character
from characters.services import sheet_change
from tests.e2e.conftest import PASSWORD, screenshot
from tests.factories import CampaignFactory, CharacterFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ana(db) -> Character:  # type: ignore[no-untyped-def]
    """Like the demo's Ana Reyes (manage.py load_demo), a little fuller: every attribute and
    ability row, specialties, a merit and a flaw, and two levels of damage marked."""
    gm = UserFactory(username="gwen", password=PASSWORD)
    player = UserFactory(username="ana", password=PASSWORD)
    campaign = CampaignFactory(name="The Drift", created_by=gm)
    character = CharacterFactory(
        campaign=campaign, owner=player, name="Ana Reyes",
        concept="Smuggler pilot who owes the wrong people",
        attributes={"Strength": 2, "Precision": 4, "Reflexes": 3,
                    "Perception": 3, "Intelligence": 2, "Wits": 2},
        abilities={"Piloting": 3, "Driving": 3, "Firearms": 2, "Alertness": 2,
                   "Streetwise": 2, "Athletics": 2, "Stealth": 1, "Technology": 1,
                   "Engineering": 1, "Navigation": 1, "Melee": 1, "Tradecraft": 1},
        specialties=[("Piloting", "Close Quarters", True), ("Driving", "Motorcycles", True),
                     ("Firearms", "Pistols", False), ("Firearms", "Extreme Range", True)],
        merits_flaws=[{"kind": "merit", "name": "Ambidexterous", "points": 1, "detail": ""},
                      {"kind": "flaw", "name": "Hunted", "points": 4,
                       "detail": "by the Sable Syndicate"}],
    )
    damage = systems.for_campaign(campaign).actions["damage"]
    marked, _ = sheet_change(character=character, action=damage,
                             data={"kind": "lethal", "levels": 2}, by=player)
    return marked


def log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def pdf_pages(path: Path) -> int:
    """Pages in a PDF Chromium wrote: its page objects (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_printed_sheet_fits_on_one_page(new_page, ana, tmp_path, paper) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    log_in(page, "ana")
    page.goto(ana.get_absolute_url())
    expect(page.locator("h1")).to_have_text("Ana Reyes")

    pdf = tmp_path / f"sheet-{paper}.pdf"
    page.pdf(path=str(pdf), format=paper)

    assert pdf_pages(pdf) == 1


def test_on_paper_the_roll_controls_go_and_the_tracks_stay(new_page, ana) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    log_in(page, "ana")
    page.goto(ana.get_absolute_url())
    expect(page.locator("#roll-dialog-top")).to_be_visible()

    page.emulate_media(media="print")

    for gone in ("#roll-dialog-top", ".site-header", ".skip-link", ".roll-bar",
                 "#health-track form >> nth=0", "#willpower-track form",
                 "input[name=trait] >> nth=0"):
        expect(page.locator(gone)).to_be_hidden()
    expect(page.locator("#health-track")).to_be_visible()
    expect(page.locator("#health-track .box.filled")).to_have_count(2)
    expect(page.locator("#willpower-track")).to_be_visible()
    expect(page.locator(".dots[aria-label='Precision: 4 dots']")).to_be_visible()
    expect(page.locator(".sheet-head")).to_contain_text("XP: 30 available")
    filled = page.evaluate(
        "getComputedStyle(document.querySelector('.box.filled')).backgroundColor")
    assert filled == "rgb(255, 255, 255)"  # black on white, no tinted fills
    page.set_viewport_size({"width": 703, "height": 1032})  # A4 less 12 mm margins, at 96 dpi
    screenshot(page, "sheet-print")
