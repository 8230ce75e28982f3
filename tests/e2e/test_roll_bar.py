"""The phone's roll bar and the odds, on every system's sheet (issue 32): the bar is there on
every phone sheet, says what to pick and then the odds' headline the server sent, whole at
390 px (its words wrap, none is cut); and the odds are asked for again when the character's
tracks or XP change on another page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from characters.models import Character
from tests.e2e.test_roll_form_console import PICK, player_character, settled
from tests.e2e.test_shahquest_live_table import open_live
from tests.system_fixtures import fixtures_for

pytestmark = [pytest.mark.django_db(transaction=True)]

HEADLINE = re.compile(r"\d+(\.\d+)? %")

CUT_WORDS = """(selector) => {
  // Each word of the element that is cut: broken across lines, or past the screen's edge.
  const element = document.querySelector(selector);
  const width = document.documentElement.clientWidth;
  const cut = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const boxes = [...range.getClientRects()];
      if (boxes.length !== 1 || boxes[0].left < 0 || boxes[0].right > width) cut.push(word[0]);
    }
  }
  if (element.scrollWidth > element.clientWidth) cut.push("(overflows its box)");
  return cut;
}"""
"""A script: the words of an element (a selector) that a reader cannot read whole."""


def assert_whole(page: Page) -> None:
    """The roll bar's words and its button's read whole."""
    for selector in ("#roll-bar-odds", ".roll-bar button"):
        assert page.evaluate(CUT_WORDS, selector) == [], selector


@pytest.mark.parametrize("slug", list(PICK))
def test_every_phone_sheet_has_the_roll_bar_with_the_servers_headline(new_page, slug: str
                                                                      ) -> None:  # type: ignore[no-untyped-def]
    character = player_character(slug)
    page = new_page(phone=True)
    open_live(page, f"pat-{slug}", character.get_absolute_url())
    bar = page.locator(".roll-bar")
    expect(bar).to_be_visible()
    settled(page)
    assert_whole(page)  # what to pick, or the odds of the first choices

    PICK[slug](page)
    expect(page.locator("#roll-bar-odds")).to_have_text(HEADLINE)
    settled(page)
    assert_whole(page)
    bar.locator("button").click()
    expect(page.locator("#roll-result .roll-result")).to_be_visible()
    settled(page)
    # The answer brought the odds of the same pool, and their headline.
    expect(page.locator("#roll-bar-odds")).to_have_text(HEADLINE)


def post_from(page: Page, url: str, data: dict[str, str]) -> None:
    """POST ``data`` to ``url`` as the page's own htmx forms do (its session, its CSRF
    token), and check it was taken."""
    status = page.evaluate(
        """async ([url, data]) => {
          const body = new URLSearchParams(data);
          body.append("csrfmiddlewaretoken",
                      document.querySelector("[name=csrfmiddlewaretoken]").value);
          const answer = await fetch(url, {method: "POST", body, headers: {"HX-Request": "true"}});
          return answer.status;
        }""", [url, data])
    assert status == 200, url


@pytest.mark.parametrize("slug", list(PICK))
def test_the_odds_are_asked_again_when_the_gm_changes_a_track_or_the_xp(new_page, slug: str
                                                                       ) -> None:  # type: ignore[no-untyped-def]
    character: Character = player_character(slug)
    player, gm = new_page(phone=True), new_page()
    open_live(player, f"pat-{slug}", character.get_absolute_url())
    open_live(gm, f"gm-{slug}", character.get_absolute_url())
    settled(player)
    action, data = next(iter(fixtures_for(slug).sheet_actions.items()))
    assert isinstance(data, dict)
    changes = [
        (reverse("characters:character-action", args=[character.pk, action]), data),
        (reverse("characters:character-xp-award", args=[character.pk]),
         {"amount": "1", "reason": "Saved the ship"}),
    ]

    for url, change in changes:
        with player.expect_request(lambda request: "/roll/odds/" in request.url,
                                   timeout=10_000):
            post_from(gm, url, change)
        settled(player)


def test_a_wound_marked_by_the_gm_shows_in_the_odds_at_once(new_page) -> None:  # type: ignore[no-untyped-def]
    character: Character = player_character("maelstrom")
    player, gm = new_page(phone=True), new_page()
    open_live(player, "pat-maelstrom", character.get_absolute_url())
    open_live(gm, "gm-maelstrom", character.get_absolute_url())
    PICK["maelstrom"](player)  # Precision + Driving: 7 dice
    headline = player.locator("#roll-bar-odds").text_content()

    post_from(gm, reverse("characters:character-action", args=[character.pk, "damage"]),
              {"kind": "lethal", "levels": "2"})

    # Two levels: Scratched, -1 die on actions (Maelstrom rules.md, Wound Penalties).
    expect(player.locator("#roll-odds")).to_contain_text("Precision + Driving: 6 dice")
    expect(player.locator("#roll-bar-odds")).not_to_have_text(headline or "")
