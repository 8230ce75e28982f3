"""Editing a character: its name, concept, backstory and its player's notes
(characters:character-edit), by its owner or the GM, never anyone else."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from characters import services
from core.markdown import MAX_LENGTH
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

EDITED = {"name": "Rook Varga", "concept": "Retired wheelman",
          "backstory": "Grew up in the **Drift**.", "notes": "Owes Kestrel a favour."}


def edit_url(character) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:character-edit", args=[character.pk])


def test_the_owner_sees_the_form_filled_with_what_is_written(client_for, bob,
                                                             bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.character_update(character=bobs_character, by=bob, backstory="Born on a barge.")

    response = client_for(bob).get(edit_url(bobs_character))

    assert response.status_code == 200
    page = response.content.decode()
    assert 'value="Rook"' in page and "Born on a barge." in page
    assert 'name="gm_notes"' not in page


def test_the_owner_saves_a_new_name_concept_backstory_and_notes(client_for, bob,
                                                                bobs_character) -> None:  # type: ignore[no-untyped-def]
    client = client_for(bob)
    response = client.post(edit_url(bobs_character), EDITED)

    assert response.status_code == 302
    assert response["Location"] == bobs_character.get_absolute_url()
    stored = fresh(bobs_character)
    assert (stored.name, stored.concept, stored.backstory, stored.notes) == tuple(EDITED.values())
    sheet = text_of(client.get(bobs_character.get_absolute_url()))
    assert "Rook Varga is saved." in sheet and "Grew up in the Drift." in sheet


def test_an_htmx_save_sends_the_browser_to_the_sheet(client_for, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=True).post(edit_url(bobs_character), EDITED)

    assert response.status_code == 200
    assert response["HX-Redirect"] == bobs_character.get_absolute_url()
    assert fresh(bobs_character).name == "Rook Varga"


def test_the_gm_edits_a_players_character_too(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).post(edit_url(bobs_character), EDITED)

    assert response.status_code == 302
    assert fresh(bobs_character).backstory == EDITED["backstory"]


@pytest.mark.parametrize("who", ["dave", "carol"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_fellow_player_and_a_stranger_get_404_and_change_nothing(
    client_for, bobs_character, dave, carol, who, method,
) -> None:  # type: ignore[no-untyped-def]
    user = {"dave": dave, "carol": carol}[who]

    response = getattr(client_for(user), method)(edit_url(bobs_character), EDITED)

    assert response.status_code == 404
    assert fresh(bobs_character).name == "Rook"


def test_an_empty_name_is_refused_and_what_was_typed_stays(client_for, bob,
                                                           bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).post(edit_url(bobs_character), {**EDITED, "name": "   "})

    assert response.status_code == 400
    text = text_of(response)
    assert "Give the character a name." in text
    assert "Owes Kestrel a favour." in response.content.decode()
    assert fresh(bobs_character).name == "Rook"
    assert fresh(bobs_character).notes == ""


def test_an_htmx_refusal_answers_the_form_alone_so_htmx_swaps_it(client_for, bob,
                                                                 bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=True).post(edit_url(bobs_character), {**EDITED, "name": ""})

    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<form method="post"') and "<html" not in page
    assert 'id="edit-form"' in page and "Give the character a name." in page


def test_a_backstory_over_the_limit_is_refused_saying_by_how_much(client_for, bob,
                                                                  bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).post(edit_url(bobs_character),
                                    {**EDITED, "backstory": "x" * (MAX_LENGTH + 1)})

    assert response.status_code == 400
    assert (f"Keep it to {MAX_LENGTH} characters at most (this text has {MAX_LENGTH + 1})"
            in text_of(response))
    assert fresh(bobs_character).backstory == ""


def test_a_backstory_of_exactly_the_limit_is_kept(client_for, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    client_for(bob).post(edit_url(bobs_character), {**EDITED, "backstory": "x" * MAX_LENGTH})

    assert len(fresh(bobs_character).backstory) == MAX_LENGTH


def test_a_line_end_the_browser_sends_counts_once(client_for, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    # A browser counts a textarea's line end as one character and sends it as two.
    typed = ("x" * 9 + "\r\n") * (MAX_LENGTH // 10)

    response = client_for(bob).post(edit_url(bobs_character), {**EDITED, "backstory": typed})

    assert response.status_code == 302
    assert fresh(bobs_character).backstory == typed.replace("\r\n", "\n").strip()


def test_a_change_is_announced_with_ids_only(client_for, bob, bobs_character, heard) -> None:  # type: ignore[no-untyped-def]
    client_for(bob).post(edit_url(bobs_character), EDITED)

    # A new name and concept: the lists that show them hear partyChanged too
    # (tests/core/test_no_stale_page.py).
    assert heard == [(bobs_character.campaign_id, "trackChanged", bobs_character.pk),
                     (bobs_character.campaign_id, "partyChanged", bobs_character.pk)]


def test_saving_the_same_text_writes_and_announces_nothing(client_for, bob, bobs_character,
                                                           heard) -> None:  # type: ignore[no-untyped-def]
    before = fresh(bobs_character).updated_at
    client_for(bob).post(edit_url(bobs_character),
                         {"name": "Rook", "concept": bobs_character.concept})

    assert heard == []
    assert fresh(bobs_character).updated_at == before


def test_an_archived_campaigns_character_cannot_be_edited(client_for, bob, campaign,
                                                          bobs_character) -> None:  # type: ignore[no-untyped-def]
    campaign.archived_at = timezone.now()
    campaign.save(update_fields=["archived_at"])

    response = client_for(bob).post(edit_url(bobs_character), EDITED)

    assert response.status_code == 403
    assert fresh(bobs_character).name == "Rook"
    sheet = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()
    assert edit_url(bobs_character) not in sheet


def test_the_service_refuses_a_field_it_does_not_edit(bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="sheet"):
        services.character_update(character=bobs_character, by=bob, sheet="{}")
    with pytest.raises(ValueError, match="needs a name"):
        services.character_update(character=bobs_character, by=bob, name="  ")
    assert fresh(bobs_character).name == "Rook"
