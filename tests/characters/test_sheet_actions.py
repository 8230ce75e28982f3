"""The sheet's ways to manage a character (templates/systems/_sheet.html, partial
``character-actions``): play comes first, so the managing links (export, edit, retire, move,
delete) sit together in a card of their own after the sheet and what was written about it,
never between the name and the sheet; Delete is the last of them and drawn apart. The live
region that redraws them alone (``?live=character-actions``) draws the same links."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.helpers import text_of

pytestmark = pytest.mark.django_db


def action_links(html: str) -> list[tuple[str, str, str]]:
    """The links of the ``character-actions`` nav in ``html``: ``(class, href, text)`` each,
    in order."""
    nav = re.search(r'<nav class="actions" id="character-actions"[^>]*>(.*?)</nav>', html,
                    re.S)
    assert nav is not None, "no character-actions nav"
    return [(cls, href, " ".join(text.split()))
            for cls, href, text in re.findall(r'<a class="([^"]*)" href="([^"]*)"[^>]*>(.*?)</a>',
                                              nav.group(1), re.S)]


def urls(character) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {
        "Export as JSON": reverse("transfer:character-export", args=[character.pk]),
        "Edit": reverse("characters:character-edit", args=[character.pk]),
        "Retire": reverse("characters:character-retire", args=[character.pk]),
        "Move to another player": reverse("characters:character-move", args=[character.pk]),
        "Delete": reverse("characters:character-delete", args=[character.pk]),
    }


@pytest.mark.parametrize(("who", "names"), [
    ("bob", ["Export as JSON", "Edit", "Retire", "Delete"]),
    ("alice", ["Export as JSON", "Edit", "Retire", "Move to another player", "Delete"]),
])
def test_the_managing_links_follow_the_sheet_with_delete_last_and_apart(
        client_for, alice, bob, bobs_character, who, names) -> None:  # type: ignore[no-untyped-def]
    page = client_for({"alice": alice, "bob": bob}[who]).get(
        bobs_character.get_absolute_url()).content.decode()

    links = action_links(page)
    assert [text for _, _, text in links] == names
    assert [href for _, href, _ in links] == [urls(bobs_character)[name] for name in names]
    # Delete alone is drawn as a destructive action; the others as everyday ones.
    assert links[-1][0] == "button danger"
    assert {cls for cls, _, _ in links[:-1]} == {"button secondary"}
    # Between the name and the sheet: nothing but the title and the XP line.
    head = page[page.index('<div class="sheet-head">'):page.index('id="character-status"')]
    assert urls(bobs_character)["Export as JSON"] not in head
    assert urls(bobs_character)["Delete"] not in head
    # After the sheet and what was written about the character, in a card named for it.
    assert page.index('id="character-actions"') > page.index('id="character-writing"')
    assert page.index('id="character-actions"') > page.index('id="notes"')
    manage = page[page.index('id="character-manage"'):]
    assert 'id="manage-heading">Manage Rook</h2>' in manage[:manage.index("</section>")]


def test_the_live_region_draws_the_same_links_alone(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    url = f"{bobs_character.get_absolute_url()}?live=character-actions"
    response = client_for(alice, htmx=True).get(url)

    assert response.status_code == 200
    region = response.content.decode()
    assert region.lstrip().startswith('<nav class="actions" id="character-actions"')
    assert [text for _, _, text in action_links(region)] == [
        "Export as JSON", "Edit", "Retire", "Move to another player", "Delete"]
    assert "Manage Rook" not in text_of(response)  # the card's heading stays on the page
