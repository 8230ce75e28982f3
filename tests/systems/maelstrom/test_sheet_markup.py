"""What the Maelstrom sheet writes out by hand to stay cheap to serve (docs/performance.md):
the roll dialog's inputs are the roll form's own, and recent rolls without follow-ups read no
follow-ups."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import Character
from rolls.models import Roll
from systems.maelstrom.system import SYSTEM
from tests.systems.maelstrom.test_sheet import SHEET_QUERIES

pytestmark = pytest.mark.django_db


def between_tags(html: str) -> str:
    """``html`` without the whitespace between tags (a template's indentation)."""
    return re.sub(r">\s+<", "><", html.strip())


def sheet_html(client, character: Character) -> str:  # type: ignore[no-untyped-def]
    response = client.get(reverse("characters:character-detail", args=[character.pk]))
    assert response.status_code == 200
    return between_tags(response.content.decode())


def test_the_roll_dialog_offers_exactly_the_inputs_the_roll_form_renders(
    client_for, bob, bobs_character
):
    """Bounds, defaults, choices and labels: a change to RollForm shows on the sheet, or
    this fails."""
    page = sheet_html(client_for(bob), bobs_character)
    form = SYSTEM.roll_form(bobs_character)

    for radio in form["kind"]:
        assert f'<label class="check">{radio.tag()} {radio.choice_label}</label>' in page
    for name in ("difficulty", "threshold", "damage_kind", "armor"):
        field = form[name]
        assert between_tags(str(field)) in page, name
    checkbox = form["ignore_wound_penalty"]
    assert f'<label class="check">{checkbox} {checkbox.label}</label>' in page
    for name in ("required_specialties", "damage_kind", "armor"):
        assert f'<label for="id_{name}">{form[name].label}</label>' in page
    assert f'maxlength="{form.fields["required_specialties"].max_length}"' in page


def test_recent_rolls_without_follow_ups_cost_no_query_for_follow_ups(
    client_for, campaign, bob, bobs_character, django_assert_num_queries
):
    for n in range(3):
        Roll.objects.create(
            campaign=campaign, character=bobs_character, rolled_by=bob, ruleset="maelstrom",
            kind=Roll.Kind.ACTION, description=f"roll {n}", outcome=Roll.Outcome.SUCCESS,
            net=1, summary="1 success",
        )
    client = client_for(bob)

    with django_assert_num_queries(SHEET_QUERIES):
        response = client.get(reverse("characters:character-detail", args=[bobs_character.pk]))

    content = response.content.decode()
    assert content.count("— <span class=\"outcome-success\">1 success</span>") == 3
    assert '<span class="muted">then ' not in content
