"""axe-core on the pages the journeys pass through only briefly or not at all, at phone and
desktop width: no serious or critical violation, no sideways scrolling on the phone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters.services import xp_spend
from rolls.models import Roll
from tests.e2e.conftest import audit, no_horizontal_scroll
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_every_other_page_passes_axe(new_page, table, phone) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    vex = table["character"]
    campaign = vex.campaign
    spend = xp_spend(character=vex, key="ability:Stealth", by=table["player"])
    anonymous = new_page(phone=phone)
    for url in ("/", "/login/", "/signup/", reverse("campaigns:campaign-join",
                                                    args=["not-a-real-token"])):
        anonymous.goto(url)
        audit(anonymous)
        if phone:
            no_horizontal_scroll(anonymous)

    player = new_page(phone=phone)
    log_in(player, "pax")
    player.goto(vex.get_absolute_url())
    player.check("input[name=trait][value=Precision]")
    player.locator("#roll-form .actions button").first.click()
    player.wait_for_selector("#roll-result .dice")
    roll = Roll.objects.get(character=vex)
    membership = Membership.objects.get(user=table["player"])
    pages = [
        reverse("home"),
        reverse("campaigns:campaign-list"),
        campaign.get_absolute_url(),
        reverse("rolls:roll-detail", args=[roll.pk]),
        reverse("rolls:roll-create", args=[vex.pk]),
        reverse("rolls:roll-odds", args=[vex.pk]) + "?kind=action&trait=Precision&difficulty=6"
        "&threshold=0",
        reverse("characters:character-xp-undo", args=[vex.pk, spend.pk]),
        "/no-such-page/",
    ]
    for url in pages:
        player.goto(url)
        audit(player)
        if phone:
            no_horizontal_scroll(player)

    gm = new_page(phone=phone)
    log_in(gm, "gwen")
    for url in (campaign.get_absolute_url(),
                reverse("campaigns:membership-remove", args=[campaign.pk, membership.pk]),
                reverse("rolls:roll-list", args=[campaign.pk])):
        gm.goto(url)
        audit(gm)
        if phone:
            no_horizontal_scroll(gm)
