"""A character out of play shows no roll form at all, not only a refused roll
(docs/decisions.md, "The party's sheets" and "Rolling"): retired, dead by the GM's word, an
import awaiting the GM, or out of the story by its system's rules (Maelstrom: dead on its
health chart). Every system's dialog extends the shared one, which leaves itself out, so each
system is asked."""

from __future__ import annotations

import pytest

from characters.models import Character
from tests.factories import CharacterFactory
from tests.helpers import text_of
from tests.security.urlmap import make_pending_import
from tests.system_fixtures import demo_character, selectable_systems

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()


def dialog_parts(content: str) -> list[str]:
    """What of the roll dialog a page holds: its form, its bar, its button."""
    return [part for part in ('id="roll-form"', 'class="roll-bar"', 'id="roll-button"')
            if part in content]


@pytest.mark.parametrize("slug", SYSTEMS)
@pytest.mark.parametrize("status", [Character.Status.RETIRED, Character.Status.DEAD])
def test_a_character_out_of_the_party_has_no_roll_dialog_but_the_reason(
        client_for, alice, bob, slug, status):
    character = demo_character(slug, gm=alice, player=bob)
    assert dialog_parts(client_for(bob).get(character.get_absolute_url()).content.decode())
    Character.objects.filter(pk=character.pk).update(status=status)

    page = client_for(bob).get(character.get_absolute_url())

    assert dialog_parts(page.content.decode()) == [], slug
    assert f"{character.name} is {status.label.lower()}: out of the party" in text_of(page)


def test_an_import_awaiting_the_gm_has_no_roll_dialog(client_for, bob, bobs_character):
    make_pending_import(bobs_character)

    content = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()

    assert dialog_parts(content) == []
    assert 'id="roll-refused"' in content


def test_a_character_dead_by_its_systems_rules_has_no_roll_dialog(client_for, bob, campaign):
    """Maelstrom: a ninth lethal level kills (Maelstrom rules.md, Incapacitation and Death);
    the status stays active until the GM says otherwise, and still nothing rolls."""
    dead = CharacterFactory(campaign=campaign, owner=bob, name="Gone", dead=True)

    page = client_for(bob).get(dead.get_absolute_url())

    assert dialog_parts(page.content.decode()) == []
    assert "Gone is out of the story by the rules: it makes no rolls." in text_of(page)


def test_the_gm_sees_no_roll_dialog_on_it_either(client_for, alice, bobs_character):
    Character.objects.filter(pk=bobs_character.pk).update(status=Character.Status.RETIRED)

    content = client_for(alice).get(bobs_character.get_absolute_url()).content.decode()

    assert dialog_parts(content) == []
