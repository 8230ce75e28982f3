"""Retiring a character, marking it dead, and bringing it back (characters:character-retire,
characters:character-restore): out of the party it has no card and no roll dialog, and cannot
roll, spend or receive XP or be asked for a roll; its history stays readable; the GM brings it
back."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from characters import services
from characters.models import Character
from rolls.models import RequestedRoll, Roll
from rulesets.errors import RuleError
from tests.helpers import fresh, redrawn_by, text_of

pytestmark = pytest.mark.django_db

POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
        "threshold": "0"}
ASK = {"kind": "action", "traits": "Precision + Driving", "difficulty": "7", "threshold": "0",
       "note": ""}


def retire_url(character) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:character-retire", args=[character.pk])


def restore_url(character) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:character-restore", args=[character.pk])


def retired(character: Character, status: str = Character.Status.RETIRED) -> Character:
    Character.objects.filter(pk=character.pk).update(status=status)
    return fresh(character)


# --- Retiring ------------------------------------------------------------------------------


def test_the_owner_is_offered_retiring_only(client_for, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    page = client_for(bob).get(retire_url(bobs_character)).content.decode()

    assert 'value="retired"' in page
    assert 'value="dead"' not in page
    assert "Only the GM can mark a character dead." in page


def test_the_gm_is_offered_retired_or_dead(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    page = client_for(alice).get(retire_url(bobs_character)).content.decode()

    assert 'value="retired"' in page and 'value="dead"' in page


def test_the_owner_retires_their_character(client_for, bob, bobs_character, heard) -> None:  # type: ignore[no-untyped-def]
    client = client_for(bob)
    response = client.post(retire_url(bobs_character), {"status": "retired"})

    assert response.status_code == 302
    assert response["Location"] == bobs_character.get_absolute_url()
    assert fresh(bobs_character).status == Character.Status.RETIRED
    text = text_of(client.get(response["Location"]))
    assert "Rook is retired: out of the party. The GM can bring it back." in text
    assert "Retired: out of the party; the GM can bring it back." in text
    assert heard == [(bobs_character.campaign_id, "partyChanged", bobs_character.pk)]


def test_an_htmx_retirement_sends_the_browser_to_the_sheet(client_for, bob,
                                                           bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=True).post(retire_url(bobs_character), {"status": "retired"})

    assert response["HX-Redirect"] == bobs_character.get_absolute_url()
    assert fresh(bobs_character).status == Character.Status.RETIRED


@pytest.mark.parametrize("htmx", [False, True])
def test_a_player_cannot_mark_their_character_dead(client_for, bob, bobs_character,
                                                   htmx) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=htmx).post(retire_url(bobs_character), {"status": "dead"})

    assert response.status_code == (200 if htmx else 400)
    assert "only the GM can mark it dead" in text_of(response)
    assert ("<html" in response.content.decode()) is not htmx
    assert fresh(bobs_character).status == Character.Status.ACTIVE


def test_the_gm_marks_a_character_dead(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice)
    response = client.post(retire_url(bobs_character), {"status": "dead"})

    assert response.status_code == 302
    assert fresh(bobs_character).status == Character.Status.DEAD
    text = text_of(client.get(bobs_character.get_absolute_url()))
    assert "Dead: out of the party; you can bring it back." in text


def test_the_gm_marks_a_retired_character_dead(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)

    page = client_for(alice).get(retire_url(rook)).content.decode()
    assert 'value="dead"' in page and 'value="retired"' not in page
    client_for(alice).post(retire_url(rook), {"status": "dead"})

    assert fresh(rook).status == Character.Status.DEAD


def test_a_retired_characters_owner_has_nothing_more_to_choose(client_for, bob,
                                                               bobs_character) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)
    client = client_for(bob)

    text = text_of(client.get(retire_url(rook)))
    assert "Rook is retired already." in text and "Only the GM can bring it back" in text
    assert client.post(retire_url(rook), {"status": "retired"}).status_code == 400


def test_the_owner_cannot_undo_the_gms_death(client_for, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character, Character.Status.DEAD)

    text = text_of(client_for(bob).get(retire_url(rook)))
    assert "The GM marked Rook dead: only the GM can change that" in text
    with pytest.raises(RuleError, match="only the GM can change that"):
        services.character_retire(character=rook, status=Character.Status.RETIRED, by=rook.owner)
    assert fresh(rook).status == Character.Status.DEAD


def test_the_service_refuses_a_status_that_is_not_out_of_the_party(bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError, match="retired or dead"):
        services.character_retire(character=bobs_character, status="", by=bob, as_gm=True)
    with pytest.raises(RuleError, match="Only the GM can mark a character dead"):
        services.character_retire(character=bobs_character, status="dead", by=bob)


@pytest.mark.parametrize("who", ["dave", "carol"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_fellow_player_and_a_stranger_get_404(client_for, bobs_character, dave, carol, who,
                                                method) -> None:  # type: ignore[no-untyped-def]
    user = {"dave": dave, "carol": carol}[who]

    response = getattr(client_for(user), method)(retire_url(bobs_character),
                                                 {"status": "retired"})

    assert response.status_code == 404
    assert fresh(bobs_character).status == Character.Status.ACTIVE


def test_an_archived_campaigns_character_cannot_be_retired(client_for, bob, campaign,
                                                           bobs_character) -> None:  # type: ignore[no-untyped-def]
    campaign.archived_at = timezone.now()
    campaign.save(update_fields=["archived_at"])

    response = client_for(bob).post(retire_url(bobs_character), {"status": "retired"})

    assert response.status_code == 403
    assert fresh(bobs_character).status == Character.Status.ACTIVE


# --- Out of the party ----------------------------------------------------------------------


def test_a_retired_character_leaves_the_party_cards_and_is_listed_apart(
    client_for, alice, bob, dave, campaign, bobs_character,
) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)
    wren = Character.objects.get(name="Wren")

    gm_page = client_for(alice).get(campaign.get_absolute_url())
    page = gm_page.content.decode()
    assert f'id="card-{rook.pk}"' not in page and f'id="card-{wren.pk}"' in page
    assert [c.pk for c in gm_page.context["own_retired"]] == [rook.pk]
    assert "Out of the party" in page and f'href="{rook.get_absolute_url()}"' in page
    assert f'<option value="{rook.pk}"' not in page  # nor in "Ask for a roll"

    owner_page = client_for(bob).get(campaign.get_absolute_url()).content.decode()
    assert "Out of the party" in owner_page and f'href="{rook.get_absolute_url()}"' in owner_page
    fellow_page = client_for(dave).get(campaign.get_absolute_url()).content.decode()
    assert "Out of the party" in fellow_page and "Rook" in fellow_page
    # Linked to read, as every party-mate's sheet is by default (Campaign.party_sheets).
    assert f'href="{rook.get_absolute_url()}"' in fellow_page


def test_a_retired_character_cannot_roll_and_its_sheet_shows_no_roll_dialog(
    client_for, bob, bobs_character, seeded_rng,
) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)
    client = client_for(bob, htmx=True)

    answer = client.post(reverse("rolls:roll-create", args=[rook.pk]), POOL)

    assert "Rook is retired: out of the party" in text_of(answer)
    assert not Roll.objects.exists()
    sheet = client_for(bob).get(rook.get_absolute_url()).content.decode()
    assert "css/out-of-play.css" in sheet


def test_a_character_in_play_has_its_roll_dialog(client_for, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    sheet = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()

    assert "css/out-of-play.css" not in sheet
    assert "Retired: out of the party" not in sheet


def test_a_retired_character_cannot_spend_or_receive_xp_and_the_xp_page_says_why(
    client_for, alice, bob, bobs_character,
) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)

    with pytest.raises(RuleError, match="retired"):
        services.xp_spend(character=rook, key="ability:Stealth", by=bob)
    award = client_for(alice).post(reverse("characters:character-xp-award", args=[rook.pk]),
                                   {"amount": "3", "reason": "Heroics"})
    assert "Rook is retired" in text_of(award)
    assert fresh(rook).xp_available == 30

    xp_page = client_for(alice).get(reverse("characters:character-xp", args=[rook.pk]))
    page = xp_page.content.decode()
    assert 'id="spend-closed"' in page and 'id="award-closed"' in page
    assert reverse("characters:character-xp-award", args=[rook.pk]) not in page
    assert "Starting XP" in page  # the ledger stays readable


def test_a_character_in_play_has_its_spend_and_award_forms(client_for, alice,
                                                           bobs_character) -> None:  # type: ignore[no-untyped-def]
    page = client_for(alice).get(
        reverse("characters:character-xp", args=[bobs_character.pk])).content.decode()

    assert 'id="spend-closed"' not in page
    assert reverse("characters:character-xp-award", args=[bobs_character.pk]) in page


def test_the_gm_cannot_ask_a_retired_character_for_a_roll(client_for, alice, campaign,
                                                          bobs_character, dave) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)
    asks = reverse("rolls:requested-roll-create", args=[campaign.pk])

    client_for(alice).post(asks, {**ASK, "character": str(rook.pk)})
    client_for(alice).post(asks, {**ASK, "character": "all"})

    assert list(RequestedRoll.objects.values_list("character__name", flat=True)) == ["Wren"]


def test_a_retired_characters_history_stays_readable(client_for, bob, bobs_character,
                                                     seeded_rng) -> None:  # type: ignore[no-untyped-def]
    client_for(bob).post(reverse("rolls:roll-create", args=[bobs_character.pk]), POOL)
    rook = retired(bobs_character)

    sheet = text_of(client_for(bob).get(rook.get_absolute_url()))
    log = client_for(bob).get(reverse("rolls:roll-list", args=[rook.campaign_id]))

    assert "Precision + Driving" in sheet
    assert "Precision + Driving" in text_of(log)


# --- Bringing it back ----------------------------------------------------------------------


def test_the_gm_brings_a_retired_character_back(client_for, alice, bobs_character,
                                                heard) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character, Character.Status.DEAD)
    client = client_for(alice)
    sheet = client.get(rook.get_absolute_url()).content.decode()
    assert f'action="{restore_url(rook)}"' in sheet

    response = client.post(restore_url(rook))

    assert response.status_code == 302 and response["Location"] == rook.get_absolute_url()
    assert fresh(rook).status == Character.Status.ACTIVE
    assert "Rook is back in the party." in text_of(client.get(response["Location"]))
    assert heard == [(rook.campaign_id, "partyChanged", rook.pk)]


def test_an_htmx_restore_sends_the_browser_to_the_sheet(client_for, alice,
                                                        bobs_character) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)

    response = client_for(alice, htmx=True).post(restore_url(rook))

    assert response["HX-Redirect"] == rook.get_absolute_url()
    assert fresh(rook).in_play


def test_restoring_a_character_in_the_party_says_so(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice)
    client.post(restore_url(bobs_character))

    assert "Rook is already in the party." in text_of(client.get(bobs_character.get_absolute_url()))


@pytest.mark.parametrize("who", ["bob", "dave", "carol"])
def test_only_the_gm_brings_a_character_back(client_for, bob, dave, carol, bobs_character,
                                             who) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)
    user = {"bob": bob, "dave": dave, "carol": carol}[who]

    response = client_for(user).post(restore_url(rook))

    assert response.status_code == 404
    assert fresh(rook).status == Character.Status.RETIRED
    if who == "bob":
        sheet = client_for(bob).get(rook.get_absolute_url()).content.decode()
        assert restore_url(rook) not in sheet


def test_restoring_answers_only_a_post(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)

    assert client_for(alice).get(restore_url(rook)).status_code == 405
    assert fresh(rook).status == Character.Status.RETIRED


def test_a_restored_character_rolls_again(client_for, alice, bob, bobs_character,
                                          seeded_rng) -> None:  # type: ignore[no-untyped-def]
    rook = retired(bobs_character)
    client_for(alice).post(restore_url(rook))

    client_for(bob).post(reverse("rolls:roll-create", args=[rook.pk]), POOL)

    assert Roll.objects.filter(character=rook).count() == 1


def test_the_dashboard_and_the_sheet_redraw_when_the_party_changes(
    client_for, alice, bob, campaign, bobs_character,
) -> None:  # type: ignore[no-untyped-def]
    gm_page = client_for(alice).get(campaign.get_absolute_url())
    player_page = client_for(bob).get(campaign.get_absolute_url())
    sheet = client_for(bob).get(bobs_character.get_absolute_url())

    assert {"party", "campaign-characters"} <= redrawn_by(gm_page.context["live"],
                                                          "partyChanged")
    assert 'id="party"' in gm_page.content.decode()
    assert 'id="campaign-characters"' in gm_page.content.decode()
    assert "campaign-characters" in redrawn_by(player_page.context["live"], "partyChanged")
    assert {"character-status", "character-actions"} <= redrawn_by(
        sheet.context["live"], f"partyChanged-{bobs_character.pk}")
