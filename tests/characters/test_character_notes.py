"""What people write about a character on its sheet: the backstory and the player's notes
(read by the owner and the GM), and the GM's private notes (characters:character-gm-notes),
which never reach a player: no page, no fragment, no live event."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from characters import services
from core.markdown import MAX_LENGTH
from tests.helpers import action_url, fresh, text_of

pytestmark = pytest.mark.django_db

SECRET = "Kestrel-sold-him-out"
"""The GM's note: a word no page a player gets may contain."""

POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
        "threshold": "0"}


def notes_url(character) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:character-gm-notes", args=[character.pk])


@pytest.fixture
def noted(alice, bobs_character):  # type: ignore[no-untyped-def]
    """Rook, with the GM's note :data:`SECRET` and a backstory of Bob's."""
    return services.character_update(character=bobs_character, by=alice,
                                     gm_notes=f"**{SECRET}** in the first act.",
                                     backstory="Grew up on a *barge*.")


# --- The sheet's cards -------------------------------------------------------------------


def test_the_backstory_and_notes_show_on_the_sheet_as_formatted_text(client_for, bob,
                                                                     bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.character_update(character=bobs_character, by=bob, backstory="Grew up on a *barge*.",
                              notes="- owes Kestrel\n- fears water")

    page = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()

    assert "Grew up on a <em>barge</em>." in page
    assert "<li>owes Kestrel</li>" in page and "<li>fears water</li>" in page


def test_an_empty_backstory_and_notes_invite_the_owner_to_write_them(client_for, bob,
                                                                     bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).get(bobs_character.get_absolute_url())

    text = text_of(response)
    assert "No backstory yet. Write where Rook comes from." in text
    assert "No notes yet. Write some: contacts, debts, plans." in text
    edit = reverse("characters:character-edit", args=[bobs_character.pk])
    assert f'href="{edit}#id_backstory"' in response.content.decode()


def test_the_gm_sees_their_notes_on_the_sheet_in_a_card_of_their_own(client_for, alice,
                                                                     noted) -> None:  # type: ignore[no-untyped-def]
    for htmx in (False, True):
        page = client_for(alice, htmx=htmx).get(noted.get_absolute_url()).content.decode()

        assert f"<strong>{SECRET}</strong> in the first act." in page
        assert 'id="gm-notes"' in page and notes_url(noted) in page


def test_the_gm_is_invited_to_write_notes_when_there_are_none(client_for, alice,
                                                              bobs_character) -> None:  # type: ignore[no-untyped-def]
    text = text_of(client_for(alice).get(bobs_character.get_absolute_url()))

    assert "No GM notes yet. Write some: secrets, hooks, what bob does not know." in text


# --- Writing them --------------------------------------------------------------------------


def test_the_gm_writes_notes_and_goes_back_to_them_on_the_sheet(client_for, alice,
                                                                bobs_character) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice)
    assert client.get(notes_url(bobs_character)).status_code == 200

    response = client.post(notes_url(bobs_character), {"gm_notes": SECRET})

    assert response.status_code == 302
    assert response["Location"] == f"{bobs_character.get_absolute_url()}#gm-notes"
    assert fresh(bobs_character).gm_notes == SECRET
    assert "Your notes on Rook are saved." in text_of(client.get(response["Location"]))


def test_an_htmx_save_of_the_notes_sends_the_browser_to_the_sheet(client_for, alice,
                                                                  bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(notes_url(bobs_character), {"gm_notes": SECRET})

    assert response["HX-Redirect"] == f"{bobs_character.get_absolute_url()}#gm-notes"
    assert fresh(bobs_character).gm_notes == SECRET


@pytest.mark.parametrize("htmx", [False, True])
def test_notes_over_the_limit_are_refused_and_nothing_is_saved(client_for, alice, noted,
                                                               htmx) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=htmx).post(notes_url(noted),
                                                 {"gm_notes": "y" * (MAX_LENGTH + 5)})

    assert response.status_code == (200 if htmx else 400)
    assert f"this text has {MAX_LENGTH + 5}" in text_of(response)
    assert ("<html" in response.content.decode()) is not htmx
    assert SECRET in fresh(noted).gm_notes


@pytest.mark.parametrize("who", ["bob", "dave", "carol"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_anyone_but_the_gm_gets_404_the_owner_too(client_for, bob, dave, carol, noted, who,
                                                  method) -> None:  # type: ignore[no-untyped-def]
    user = {"bob": bob, "dave": dave, "carol": carol}[who]

    response = getattr(client_for(user), method)(notes_url(noted), {"gm_notes": "overwritten"})

    assert response.status_code == 404
    assert SECRET not in response.content.decode()
    assert SECRET in fresh(noted).gm_notes


def test_writing_gm_notes_is_announced_to_nobody(client_for, alice, bobs_character,
                                                 heard) -> None:  # type: ignore[no-untyped-def]
    client_for(alice).post(notes_url(bobs_character), {"gm_notes": SECRET})

    assert fresh(bobs_character).gm_notes == SECRET
    assert heard == []


# --- Never to a player -------------------------------------------------------------------


def test_the_players_sheet_shows_no_trace_of_the_gm_notes(client_for, bob, noted) -> None:  # type: ignore[no-untyped-def]
    for htmx in (False, True):
        response = client_for(bob, htmx=htmx).get(noted.get_absolute_url())

        page = response.content.decode()
        assert response.status_code == 200
        assert "Grew up on a <em>barge</em>." in page
        assert SECRET not in page
        assert 'id="gm-notes"' not in page and notes_url(noted) not in page
        assert "gm_notes" not in response.context


def test_no_fragment_or_page_a_player_gets_carries_the_gm_notes(client_for, bob, noted,
                                                                 seeded_rng) -> None:  # type: ignore[no-untyped-def]
    plain, htmx = client_for(bob), client_for(bob, htmx=True)
    pk = noted.pk
    answers = [
        htmx.post(action_url(noted, "damage"), {"kind": "lethal", "levels": "1"}),
        htmx.post(action_url(noted, "heal"), {"kind": "lethal", "levels": "1"}),
        htmx.post(action_url(noted, "willpower"), {"direction": "spend"}),
        htmx.get(reverse("rolls:roll-odds", args=[pk]) + "?" + urlencode(POOL, doseq=True)),
        htmx.post(reverse("rolls:roll-create", args=[pk]), POOL),
        plain.get(reverse("rolls:roll-create", args=[pk])),
        plain.get(reverse("characters:character-xp", args=[pk])),
        htmx.get(reverse("characters:character-xp-spend", args=[pk]), {"key": "ability:Stealth"}),
        plain.get(reverse("characters:character-edit", args=[pk])),
        plain.get(reverse("characters:character-retire", args=[pk])),
        plain.get(reverse("characters:character-delete", args=[pk])),
        plain.get(reverse("rolls:roll-list", args=[noted.campaign_id]) + f"?character={pk}"),
        plain.get(noted.campaign.get_absolute_url()),
    ]

    for answer in answers:
        assert answer.status_code == 200, answer.request["PATH_INFO"]
        assert SECRET not in answer.content.decode(), answer.request["PATH_INFO"]
