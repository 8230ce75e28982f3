"""Undoing a Shahquest purchase, as the undo page says it: a die steps back down, a
specialization is lost with the step up or spread it gave (Shahquest wiki, Dice, Step Up,
Step Down, and Spreads; the advancement house rule, docs/systems/shahquest.md). Buying is in
test_shahquest_sheet.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import XpEntry
from characters.services import xp_award
from systems.shahquest.system import SYSTEM
from tests import shahquest_cast as cast
from tests.helpers import spend_url
from tests.shahquest_cast import text_of

pytestmark = pytest.mark.django_db
sq_campaign, demetri = cast.sq_campaign, cast.demetri  # the fixtures, shared


def test_the_undo_page_says_the_die_steps_back_down(demetri, alice, bob, client_for):
    xp_award(character=demetri, amount=20, reason="Heist", by=alice)
    client = client_for(bob)
    client.post(spend_url(demetri), {"key": "attribute:Wits", "expected_cost": "10"})
    entry = XpEntry.objects.get(character=demetri, kind=XpEntry.Kind.SPEND)

    text = text_of(client.get(reverse("characters:character-xp-undo",
                                      args=[demetri.pk, entry.pk])))

    assert "Wits steps back down from d10 to d8. The XP comes back." in text
    # Athletics spreads Physical on Demetri's sheet (the seed's Dice Pools example).
    assert SYSTEM.undo_description(demetri, XpEntry(
        trait_key="specialization:Physical:Athletics", rank_from=0, rank_to=1)) == (
        "Physical loses the specialization Athletics and the spread it gave.")
