"""The repros of Sheetkeeper issue 31's first finding, "A backup that cannot be restored": a
form that took a character the importer refuses made the group's backup unrestorable. Each
form now refuses it, names it, keeps the input, and saves nothing; what it takes, the
campaign's export and the player's own character export carry back in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from tests.helpers import fresh, text_of
from transfer.export import document_json, export_campaign, export_character
from transfer.imports import import_campaign, import_character

HOSTILE = [("line\x07bell", "U+0007 (a bell)"), ("Rook\x1b[31m", "U+001B (an escape code)"),
           ("a\x85b", "U+0085 (a next-line control)"), ("kooR\u202e", "the direction mark U+202E"),
           ("page one\x0cpage two", "U+000C (a form feed)")]


def _edit(client: Any, character: Character, **fields: str) -> Any:
    data = {"name": character.name, "concept": character.concept,
            "backstory": character.backstory, "notes": character.notes, **fields}
    return client.post(reverse("characters:character-edit", args=[character.pk]), data)


@pytest.mark.parametrize(("value", "named"), HOSTILE)
@pytest.mark.parametrize("field", ["backstory", "name"])
def test_a_character_form_refuses_what_an_import_would_and_saves_nothing(
        client_for, bob, bobs_character, field, value, named):
    before = Character.objects.values().get(pk=bobs_character.pk)

    response = _edit(client_for(bob), bobs_character, **{field: value})

    assert response.status_code == 400  # the page's answer to a form it refused
    assert named in text_of(response)
    assert value in response.content.decode() or field == "name"
    assert Character.objects.values().get(pk=bobs_character.pk) == before


@pytest.mark.parametrize("field", ["name", "description"])
def test_the_campaign_settings_refuse_a_direction_mark_and_save_nothing(
        client_for, alice, campaign, field):
    data = {"name": campaign.name, "description": campaign.description,
            "starting_xp": campaign.starting_xp, field: "The \u202etfirD"}

    response = client_for(alice).post(reverse("campaigns:campaign-settings",
                                              args=[campaign.pk]), data)

    assert response.status_code == 200
    assert "the direction mark U+202E" in text_of(response)
    assert (fresh(campaign).name, fresh(campaign).description) == (campaign.name,
                                                                   campaign.description)


def test_what_the_forms_take_exports_and_imports_back(client_for, alice, bob, campaign,
                                                     bobs_character):
    story = "Born\tat sea,\r\nraised — 龍の娘 — in مرحبا 😀\n\n- Zoë (e\u0301)"
    response = _edit(client_for(bob), bobs_character, backstory=story, name="Rook ✦ Zoë")
    assert response.status_code == 302

    campaign_file = json.loads(document_json(export_campaign(Campaign.objects.get(
        pk=campaign.pk))))
    character_file = json.loads(document_json(export_character(fresh(bobs_character),
                                                                for_gm=False)))
    copy = import_campaign(campaign_file, alice, keep_users=True)
    own = import_character(character_file, copy, bob)

    imported = Character.objects.filter(campaign=copy, name="Rook ✦ Zoë")
    assert imported.count() == 2  # the campaign's Rook, and the player's own file's
    assert {c.backstory for c in imported} == {story.replace("\r\n", "\n")}
    assert own in imported
