"""A refusal as a player sees it on the page cites the rule in words a player reads: the book
and its section for a book's rule, "Sheetkeeper's ruling" for a decision of ours; never a file
name or an internal tag (rulesets.errors.citation, docs/rules.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from tests import three_d6_cast as cast
from tests.factories import CharacterFactory
from tests.helpers import action_url, text_of
from tests.three_d6_cast import SPREAD

pytestmark = pytest.mark.django_db

table = cast.table  # the 3d6 campaign, shared
mara = cast.mara


def test_an_impossible_maelstrom_purchase_cites_the_rules_without_a_file_name(
    client_for, bob, campaign: Campaign
) -> None:
    poor = CharacterFactory(campaign=campaign, owner=bob, starting_xp=5)

    response = client_for(bob).post(
        reverse("characters:character-xp-spend", args=[poor.pk]),
        {"trait": "ability:Driving", "expected_cost": "8"})

    text = text_of(response)
    assert "(Maelstrom rules, Spending Experience)" in text
    assert "rules.md" not in text


def test_a_3d6_health_refusal_is_labelled_as_our_ruling(client_for, bob, mara: Character) -> None:
    client = client_for(bob, htmx=True)
    client.post(action_url(mara, "health"), {"change": "damage", "amount": "50"})

    response = client.post(action_url(mara, "health"), {"change": "damage", "amount": "1"})

    text = text_of(response)
    assert "Mara is already at 0 health. (Sheetkeeper's ruling for 3d6, Health)" in text
    assert "sheet decision" not in text


def test_a_3d6_creation_overspend_is_labelled_as_our_ruling(client_for, bob, table) -> None:
    response = client_for(bob).post(reverse("characters:character-create", args=[table.pk]),
                                    {"name": "Mara Quill", **SPREAD, "t4": "1"})

    text = text_of(response)
    assert "(1 too many). (Sheetkeeper's ruling for 3d6, Character Creation)" in text
    assert "sheet decision" not in text
