"""Deleting a character (characters:character-delete): only one with no history (no roll, no
roll request, no ledger entry but its creation's); one with history is offered retiring
instead, and a refused POST deletes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from characters import services
from characters.models import Character, XpEntry
from characters.services import DeleteBlockers
from rolls.models import RequestedRoll, Roll
from rulesets.errors import RuleError
from systems.genesys.system import SYSTEM as GENESYS
from tests.helpers import text_of
from tests.systems.genesys import test_genesys_cast as genesys_cast

pytestmark = pytest.mark.django_db

POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
        "threshold": "0"}


def delete_url(character) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:character-delete", args=[character.pk])


def roll_for(client, character) -> None:  # type: ignore[no-untyped-def]
    client.post(reverse("rolls:roll-create", args=[character.pk]), POOL)


def test_a_character_fresh_from_creation_may_be_deleted(client_for, bob,
                                                        fresh_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).get(delete_url(fresh_character))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Delete Finch?" in page and 'class="danger"' in page
    assert f'action="{delete_url(fresh_character)}"' in page


def test_the_owner_deletes_it_and_lands_on_the_campaign(client_for, bob, campaign,
                                                        fresh_character, heard) -> None:  # type: ignore[no-untyped-def]
    client = client_for(bob)
    response = client.post(delete_url(fresh_character))

    assert response.status_code == 302 and response["Location"] == campaign.get_absolute_url()
    assert not Character.objects.filter(pk=fresh_character.pk).exists()
    assert not XpEntry.objects.filter(character_id=fresh_character.pk).exists()
    assert "Finch was deleted." in text_of(client.get(response["Location"]))
    assert heard == [(campaign.pk, "partyChanged", fresh_character.pk)]


def test_an_htmx_delete_sends_the_browser_to_the_campaign(client_for, bob, campaign,
                                                          fresh_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=True).post(delete_url(fresh_character))

    assert response["HX-Redirect"] == campaign.get_absolute_url()
    assert not Character.objects.filter(pk=fresh_character.pk).exists()


def test_the_gm_deletes_a_players_fresh_character_and_nobody_elses(client_for, alice, dave,
                                                                   fresh_character) -> None:  # type: ignore[no-untyped-def]
    client_for(alice).post(delete_url(fresh_character))

    assert list(Character.objects.values_list("name", flat=True)) == ["Wren"]


@pytest.mark.parametrize("who", ["dave", "carol"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_fellow_player_and_a_stranger_get_404(client_for, dave, carol, fresh_character, who,
                                                method) -> None:  # type: ignore[no-untyped-def]
    user = {"dave": dave, "carol": carol}[who]

    response = getattr(client_for(user), method)(delete_url(fresh_character))

    assert response.status_code == 404
    assert Character.objects.filter(pk=fresh_character.pk).exists()


def test_a_character_that_rolled_is_offered_retiring_instead(client_for, bob, fresh_character,
                                                             seeded_rng) -> None:  # type: ignore[no-untyped-def]
    roll_for(client_for(bob), fresh_character)

    response = client_for(bob).get(delete_url(fresh_character))

    assert response.status_code == 200
    text = text_of(response)
    assert ("Finch has 1 roll since its creation: retire it instead, which keeps its history."
            in text)
    page = response.content.decode()
    assert 'class="danger"' not in page and "<form" not in page.split("<main")[1]
    assert reverse("characters:character-retire", args=[fresh_character.pk]) in page


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_delete_deletes_nothing_and_says_why(client_for, bob, fresh_character,
                                                       seeded_rng, htmx) -> None:  # type: ignore[no-untyped-def]
    roll_for(client_for(bob), fresh_character)

    response = client_for(bob, htmx=htmx).post(delete_url(fresh_character))

    assert response.status_code == (200 if htmx else 409)
    text = text_of(response)
    assert "Nothing was deleted." in text and "Finch has 1 roll since its creation" in text
    assert ("<html" in response.content.decode()) is not htmx
    assert Character.objects.filter(pk=fresh_character.pk).exists()
    assert Roll.objects.filter(character=fresh_character).count() == 1


def test_a_roll_made_after_the_confirmation_page_refuses_the_delete(client_for, bob,
                                                                    fresh_character,
                                                                    seeded_rng) -> None:  # type: ignore[no-untyped-def]
    client = client_for(bob)
    assert 'class="danger"' in client.get(delete_url(fresh_character)).content.decode()
    roll_for(client, fresh_character)

    assert client.post(delete_url(fresh_character)).status_code == 409
    assert Character.objects.filter(pk=fresh_character.pk).exists()


def test_an_award_since_creation_keeps_it(client_for, alice, fresh_character) -> None:  # type: ignore[no-untyped-def]
    services.xp_award(character=fresh_character, amount=2, reason="Heroics", by=alice)

    response = client_for(alice).post(delete_url(fresh_character))

    assert response.status_code == 409
    assert "Finch has 1 ledger entry since its creation" in text_of(response)
    assert fresh_character.xp_entries.count() == 2


def test_a_roll_request_keeps_it(client_for, alice, campaign, fresh_character) -> None:  # type: ignore[no-untyped-def]
    RequestedRoll.objects.create(campaign=campaign, character=fresh_character,
                                 requested_by=alice, data={}, description="Driving")

    response = client_for(alice).post(delete_url(fresh_character))

    assert response.status_code == 409
    assert "Finch has 1 roll request since its creation" in text_of(response)


def test_a_starting_entry_not_written_by_creation_keeps_it(client_for, bob,
                                                           bobs_character) -> None:  # type: ignore[no-untyped-def]
    # The factory writes its starting XP as any award is written, not as creation does.
    response = client_for(bob).get(delete_url(bobs_character))

    assert "Rook cannot be deleted" in text_of(response)


def test_a_retired_characters_page_does_not_offer_retiring_it_again(client_for, bob,
                                                                    bobs_character) -> None:  # type: ignore[no-untyped-def]
    Character.objects.filter(pk=bobs_character.pk).update(status=Character.Status.RETIRED)

    page = client_for(bob).get(delete_url(bobs_character)).content.decode()

    assert reverse("characters:character-retire", args=[bobs_character.pk]) not in page


def test_an_archived_campaigns_character_cannot_be_deleted(client_for, bob, campaign,
                                                           fresh_character) -> None:  # type: ignore[no-untyped-def]
    campaign.archived_at = timezone.now()
    campaign.save(update_fields=["archived_at"])

    assert client_for(bob).post(delete_url(fresh_character)).status_code == 403
    assert Character.objects.filter(pk=fresh_character.pk).exists()


def test_the_service_checks_again_and_refuses(bob, fresh_character, alice) -> None:  # type: ignore[no-untyped-def]
    services.xp_award(character=fresh_character, amount=1, reason="A line", by=alice)

    with pytest.raises(RuleError, match="retire it instead"):
        services.character_delete(character=fresh_character, by=bob)
    assert Character.objects.filter(pk=fresh_character.pk).exists()


@pytest.mark.parametrize(("blockers", "sentence"), [
    (DeleteBlockers(rolls=12, entries=3),
     "Rook has 12 rolls and 3 ledger entries since its creation: retire it instead, which "
     "keeps its history."),
    (DeleteBlockers(rolls=1, requests=2, entries=1),
     "Rook has 1 roll, 2 roll requests and 1 ledger entry since its creation: retire it "
     "instead, which keeps its history."),
    (DeleteBlockers(), ""),
])
def test_the_explanation_counts_what_it_has(blockers, sentence) -> None:  # type: ignore[no-untyped-def]
    assert blockers.explain("Rook") == sentence
    assert bool(blockers) is bool(sentence)


# --- A character built over several steps --------------------------------------------------
# Genesys spends its starting XP on the XP page while the sheet says it is in creation; those
# purchases and their undos are the creation's, not history (SheetSystem.in_creation).

gx_campaign, kes = genesys_cast.gx_campaign, genesys_cast.kes


def spend_during_creation(character: Character, by) -> None:  # type: ignore[no-untyped-def]
    """Agility, Ranged and Perception bought with the starting XP, the last one undone."""
    for key in ("characteristic:Agility", "skill:Ranged", "skill:Perception"):
        spend = services.xp_spend(character=character, key=key, by=by)
    services.xp_undo(entry=spend, by=by, as_gm=False)


def finish_creation(character: Character, by) -> None:  # type: ignore[no-untyped-def]
    services.sheet_change(character=character, action=GENESYS.actions["finish-creation"],
                          data={}, by=by)


def test_what_is_bought_and_undone_during_creation_is_the_creations(bob, kes) -> None:  # type: ignore[no-untyped-def]
    spend_during_creation(kes, bob)

    marks = list(kes.xp_entries.order_by("pk").values_list("kind", "at_creation"))
    assert marks == [("starting", True), ("spend", True), ("spend", True), ("spend", True),
                     ("reversal", True)]
    assert not services.delete_blockers(kes)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_character_whose_starting_xp_was_spent_during_creation_may_be_deleted(
        client_for, bob, gx_campaign, kes, htmx) -> None:  # type: ignore[no-untyped-def]
    spend_during_creation(kes, bob)
    client = client_for(bob, htmx=htmx)
    assert 'class="danger"' in client_for(bob).get(delete_url(kes)).content.decode()

    response = client.post(delete_url(kes))

    location = response["HX-Redirect"] if htmx else response["Location"]
    assert location == gx_campaign.get_absolute_url()
    assert not Character.objects.filter(pk=kes.pk).exists()
    assert not XpEntry.objects.filter(character_id=kes.pk).exists()


def test_a_spend_after_creation_is_finished_keeps_it(client_for, bob, kes) -> None:  # type: ignore[no-untyped-def]
    spend_during_creation(kes, bob)
    finish_creation(kes, bob)
    assert not services.delete_blockers(kes), "finishing creation writes no ledger entry"

    services.xp_spend(character=kes, key="skill:Stealth", by=bob)

    assert services.delete_blockers(kes) == DeleteBlockers(entries=1)
    response = client_for(bob).post(delete_url(kes))
    assert response.status_code == 409
    assert "Kestrel has 1 ledger entry since its creation" in text_of(response)
    assert Character.objects.filter(pk=kes.pk).exists()


def test_undoing_a_creation_purchase_after_creation_is_finished_keeps_it(alice, bob,
                                                                         kes) -> None:  # type: ignore[no-untyped-def]
    services.xp_spend(character=kes, key="skill:Ranged", by=bob)
    finish_creation(kes, bob)
    spend = kes.xp_entries.get(kind=XpEntry.Kind.SPEND)

    undo = services.xp_undo(entry=spend, by=alice, as_gm=True)

    assert spend.at_creation and not undo.at_creation
    with pytest.raises(RuleError, match="Kestrel has 1 ledger entry since its creation"):
        services.character_delete(character=kes, by=bob)
