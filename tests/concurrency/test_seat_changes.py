"""Changes that race a change of the seats, on PostgreSQL: a seat changing (a player leaving,
the GM seat handed over) holds the campaign row, uncommitted, when the other change starts,
so that change waits for it and then judges by the seats as they now are.

Deleting an account being handed the GM seat refuses, rather than deleting that seat and
leaving the campaign without a GM; moving a character to a player whose seat is changing
refuses, rather than giving it to someone who has just left the table."""

from __future__ import annotations

import pytest

from accounts.services import AccountError, account_delete
from campaigns.models import Membership
from campaigns.services import campaign_handover, membership_leave
from characters import services
from characters.models import Character
from rulesets.errors import RuleError
from tests.concurrency import storm
from tests.concurrency.held import behind
from tests.helpers import fresh

pytestmark = storm.POSTGRES_ONLY


def test_deleting_an_account_being_handed_the_gm_seat_waits_and_refuses(alice, bob, campaign):
    bobs_seat = Membership.objects.get(campaign=campaign, user=bob)

    deletion = behind(
        lambda: campaign_handover(campaign=campaign, to_membership=bobs_seat, by=alice),
        lambda: account_delete(user=fresh(bob)))

    assert isinstance(deletion.error, AccountError), deletion.error
    assert "You are the GM of The Drift, where others play." in str(deletion.error)
    gm = Membership.objects.get(campaign=campaign, role=Membership.Role.GM)
    assert gm.user == bob
    assert fresh(bob).is_active and fresh(bob).username == "bob"


@pytest.mark.parametrize("change", ["leave", "handover"])
def test_a_move_to_a_player_whose_seat_is_changing_right_now_waits_and_is_refused(
    alice, bob, dave, bobs_character, change,
) -> None:  # type: ignore[no-untyped-def]
    """Dave's leave (or the GM seat handed to him) holds the campaign row, uncommitted, as
    the move starts: the move waits for it, then finds him no player of the campaign, and
    Rook stays Bob's rather than going to someone who has just left the table."""
    daves_seat = Membership.objects.get(user=dave)
    held = {"leave": lambda: membership_leave(membership=daves_seat),
            "handover": lambda: campaign_handover(campaign=bobs_character.campaign,
                                                  to_membership=daves_seat, by=alice)}[change]

    move = behind(held, lambda: services.character_move(
        character=Character.objects.get(pk=bobs_character.pk), to_user=dave, by=alice))

    assert isinstance(move.error, RuleError), move.error
    assert "not a player of this campaign" in str(move.error)
    assert fresh(bobs_character).owner == bob
