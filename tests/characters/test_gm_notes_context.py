"""The GM's notes never enter a player's context (DESIGN.md rule 7): the character a page is
given for anyone but the GM (characters.permissions.get_character) carries none, and what
the player then changes never writes that blank back over the GM's notes."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.urls import reverse

from characters import services
from characters.models import Character
from characters.permissions import get_character
from tests.helpers import fresh

pytestmark = pytest.mark.django_db

SECRET = "The informant is her brother"


@pytest.fixture
def noted(alice, bobs_character) -> Character:  # type: ignore[no-untyped-def]
    """Rook, with the GM's note :data:`SECRET`."""
    return services.character_update(character=bobs_character, by=alice, gm_notes=SECRET)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_players_sheet_context_carries_a_character_without_the_gm_notes(
        client_for, bob, noted, htmx) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=htmx).get(noted.get_absolute_url())

    assert response.status_code == 200
    assert response.context["character"].gm_notes == ""


@pytest.mark.parametrize("page", ["character-xp", "character-edit", "character-retire"])
def test_no_other_page_of_the_player_carries_them_either(client_for, bob, noted,
                                                          page) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).get(reverse(f"characters:{page}", args=[noted.pk]))

    assert response.status_code == 200
    assert response.context["character"].gm_notes == ""


def test_the_gms_sheet_context_keeps_them(client_for, alice, noted) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).get(noted.get_absolute_url())

    assert response.context["character"].gm_notes == SECRET


def test_the_loader_blanks_them_for_the_owner_only(alice, bob, carol, noted) -> None:  # type: ignore[no-untyped-def]
    assert get_character(bob, noted.pk).gm_notes == ""
    assert get_character(alice, noted.pk).gm_notes == SECRET
    with pytest.raises(Http404):
        get_character(carol, noted.pk)


def test_the_players_edit_keeps_the_gm_notes_in_the_row(client_for, bob, noted) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).post(reverse("characters:character-edit", args=[noted.pk]),
                                    {"name": "Rook", "concept": "Courier",
                                     "backstory": "Grew up on a barge.", "notes": "Owes Vex"})

    assert response.status_code == 302
    stored = fresh(noted)
    assert (stored.concept, stored.notes, stored.gm_notes) == ("Courier", "Owes Vex", SECRET)


def test_the_players_retirement_keeps_the_gm_notes_in_the_row(client_for, bob, noted) -> None:  # type: ignore[no-untyped-def]
    client_for(bob).post(reverse("characters:character-retire", args=[noted.pk]),
                         {"status": "retired"})

    stored = fresh(noted)
    assert stored.status == Character.Status.RETIRED
    assert stored.gm_notes == SECRET


def test_the_xp_panel_a_players_spend_and_undo_answer_with_carries_none_either(
        client_for, bob, noted) -> None:  # type: ignore[no-untyped-def]
    # The htmx answers re-read the character after the change: all of it but the GM's notes.
    client = client_for(bob, htmx=True)
    spend = reverse("characters:character-xp-spend", args=[noted.pk])
    quote = client.get(spend, {"key": "ability:Stealth"})
    cost = quote.context["quote"].cost

    spent = client.post(spend, {"key": "ability:Stealth", "expected_cost": str(cost)})

    assert spent.status_code == 200
    assert spent.context["character"].gm_notes == ""
    entry = fresh(noted).xp_entries.filter(kind="spend").latest("pk")
    undone = client.post(reverse("characters:character-xp-undo", args=[noted.pk, entry.pk]))
    assert undone.context["character"].gm_notes == ""
    assert fresh(noted).gm_notes == SECRET
