"""Deleting an account while the GM seat is being handed to that account, on PostgreSQL: the
handover holds the campaign row (and has changed the seats) when the deletion starts, so the
deletion waits for it and then sees the GM seat it was given. It refuses, rather than
deleting that seat and leaving the campaign without a GM."""

from __future__ import annotations

from accounts.services import AccountError, account_delete
from campaigns.models import Membership
from campaigns.services import campaign_handover
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
