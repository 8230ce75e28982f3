"""The loader of the GM-only character pages (characters.permissions.get_character_as_gm): the
campaign's GM gets the character, GM notes and all; everyone else gets 404, the owner
included, so a player never learns that a GM-only page exists. The views that use it (the
XP award, the GM's notes, restoring, moving, an import's review) answer alike; the
authorization matrix (tests/security) checks every one of them for every role."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.urls import reverse

from characters import services
from characters.permissions import get_character_as_gm
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_gm_gets_the_character_with_their_notes(alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.character_update(character=bobs_character, by=alice, gm_notes="Owes the guild")

    character = get_character_as_gm(alice, bobs_character.pk)

    assert character.pk == bobs_character.pk and character.gm_notes == "Owes the guild"


@pytest.mark.parametrize("who", ["owner", "another player", "stranger", "anonymous"])
def test_anyone_else_gets_404(campaign, bob, carol, bobs_character, who) -> None:  # type: ignore[no-untyped-def]
    dave = UserFactory(username="dave")
    campaign.memberships.create(user=dave)
    user = {"owner": bob, "another player": dave, "stranger": carol,
            "anonymous": AnonymousUser()}[who]

    with pytest.raises(Http404):
        get_character_as_gm(user, bobs_character.pk)


@pytest.mark.parametrize("name", ["character-gm-notes", "character-move"])
def test_its_pages_answer_the_owner_as_a_page_that_does_not_exist(
        client_for, bob, bobs_character, name) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).get(reverse(f"characters:{name}", args=[bobs_character.pk]))

    assert response.status_code == 404
