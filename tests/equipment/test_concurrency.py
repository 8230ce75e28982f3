"""A weapon's rounds under concurrency (PostgreSQL only, as every storm: tests/concurrency):
Bob's sheet in two tabs and the GM's in two fire the same heavy pistol at once. Every shot the
pages confirmed used one round, no round was used twice, and no shot was confirmed from an
empty weapon (Maelstrom rules.md, Ranged Weapons; equipment.services locks the character,
then the item)."""

from __future__ import annotations

from django.urls import reverse

from equipment.models import Item
from equipment.services import item_add
from tests.concurrency import storm
from tests.concurrency.storm import made, refused

pytestmark = storm.POSTGRES_ONLY


def test_four_tabs_firing_one_pistol_use_each_round_once(client_for, alice, bob,  # type: ignore[no-untyped-def]
                                                          bobs_character):
    pistol = item_add(character=bobs_character, name="Pistol, Heavy", quantity=1, note="",
                      details={"weapon": "pistol-heavy", "loaded": 8}, by=bob)
    sessions = storm.sheet_and_card(client_for, player=bob, gm=alice)
    fire = ("fire", reverse("equipment:item-act",
                            args=[bobs_character.pk, pistol.pk, "fire"]), {})

    attempts = storm.storm(storm.taking_turns(sessions, [fire]), rounds=3)

    assert len(attempts) == 12
    assert len(made(attempts)) == 8
    assert all("Out of rounds: reload." in a.message for a in refused(attempts))
    assert Item.objects.get(pk=pistol.pk).details["loaded"] == 0

