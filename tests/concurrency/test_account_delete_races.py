"""Deleting an account while its player rolls, on PostgreSQL (Sheetkeeper issue 31, "What
the database does not guard").

A roll locks its character, rolls, then stores the roll, whose foreign key on the player's
user row takes a share lock on it. The deletion once locked the user row first and the
characters after: a roll caught between its dice and its insert waited on the user row
while the deletion waited on the character, and PostgreSQL ended one of them as a
deadlock. Both now take the character before the user row: the deletion waits for the roll,
the roll is stored, and the deletion then retires the character and anonymises the account.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import systems
from accounts.services import account_delete
from characters.models import Character
from rolls import services as roll_services
from rolls.models import Roll
from tests.concurrency import storm
from tests.concurrency.held import Background, waiting_for_locks
from tests.helpers import fresh
from tests.system_fixtures import fixtures_for

pytestmark = storm.POSTGRES_ONLY


class PausingDice:
    """Scripted faces that stop the roll at its first die, its locks held, until told to
    go on: the moment between the roll's lock and its insert."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = iter(faces)
        self.rolling, self.go = threading.Event(), threading.Event()

    def randint(self, a: int, b: int) -> int:
        if not self.rolling.is_set():
            self.rolling.set()
            assert self.go.wait(storm.ROUND_TIMEOUT)
        return next(self.faces)


def test_an_account_deleted_while_its_player_rolls_waits_for_the_roll(bob, bobs_character):
    data, faces = fixtures_for(bobs_character.campaign.ruleset).matrix_roll
    form = systems.for_campaign(bobs_character.campaign).roll_form(bobs_character, data)
    assert form.is_valid(), form.errors
    dice = PausingDice(faces)
    roll = Background(lambda: roll_services.roll_create(
        character=Character.objects.select_related("campaign").get(pk=bobs_character.pk),
        data=form.cleaned_data, by=bob, rng=dice))
    assert dice.rolling.wait(storm.ROUND_TIMEOUT)

    deletion = Background(lambda: account_delete(user=fresh(bob)))
    storm.wait_until(lambda: waiting_for_locks() >= 1, "the deletion waits for a lock")
    dice.go.set()
    roll.join()
    deletion.join()

    assert roll.error is None, roll.error
    assert deletion.error is None, deletion.error
    assert Roll.objects.filter(pk=roll.result.pk, character=bobs_character).exists()
    assert fresh(bobs_character).status == Character.Status.RETIRED
    assert not fresh(bob).is_active
