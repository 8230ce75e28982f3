"""axe-core on the pages the journeys pass through only briefly or not at all, at phone and
desktop width: no serious or critical violation, no sideways scrolling on the phone.

A campaign's and a character's life are here too, as the player and as the GM see them: the
settings, handover, leave, archive and delete pages, a character's edit, GM notes, retire,
delete (with and without a history) and move pages, a session with a recap, the account and
its deletion, and an archived campaign's page and settings.
"""

from __future__ import annotations

from typing import cast

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page

from campaigns.models import Campaign, Membership, Session
from characters.models import Character
from characters.services import xp_spend
from rolls.models import Roll
from tests.e2e.conftest import PASSWORD, audit, no_horizontal_scroll
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]

RECAP = "# The ambush\n\nThe **convoy** burned at the ford.\n\n- Vex got away\n- the cargo did not"


def audit_each(page: Page, urls: list[str], *, phone: bool) -> None:
    """Open each URL in turn and audit it (and its width, on a phone)."""
    for url in urls:
        response = page.goto(url)
        assert response is not None and response.status == 200, f"{url}: {response}"
        audit(page)
        if phone:
            no_horizontal_scroll(page)


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
        reverse("rolls:roll-detail", args=[roll.code]),
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


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_pages_of_a_campaigns_and_a_characters_life_pass_axe(  # type: ignore[no-untyped-def]
    new_page, table, phone,  # noqa: F811
) -> None:
    vex = table["character"]
    campaign = vex.campaign
    gwen, pax = table["gm"], table["player"]
    # (factory_boy ships no type hints: its calls are untyped, its objects cast.)
    spare = cast(Character, CharacterFactory(  # type: ignore[no-untyped-call]
        campaign=campaign, owner=pax, name="Spare"))
    # A second player, so that the move page has someone to offer.
    quill = UserFactory(username="quill", password=PASSWORD)  # type: ignore[no-untyped-call]
    MembershipFactory(campaign=campaign, user=quill)  # type: ignore[no-untyped-call]
    session = Session.objects.create(campaign=campaign, date=timezone.localdate(),
                                     title="The ford", recap=RECAP)
    archived = cast(Campaign, CampaignFactory(  # type: ignore[no-untyped-call]
        name="Old Static", created_by=gwen, archived_at=timezone.now()))

    player = new_page(phone=phone)
    log_in(player, "pax")
    # Vex gets a history (a roll, on the session's date): its delete page explains and offers
    # retiring instead; Spare has none, so its delete page asks to confirm.
    player.goto(vex.get_absolute_url())
    player.check("input[name=trait][value=Precision]")
    player.locator("#roll-form .actions button").first.click()
    player.wait_for_selector("#roll-result .dice")
    audit_each(player, [
        reverse("campaigns:campaign-leave", args=[campaign.pk]),
        reverse("characters:character-edit", args=[vex.pk]),
        reverse("characters:character-retire", args=[vex.pk]),
        reverse("characters:character-delete", args=[vex.pk]),
        reverse("characters:character-delete", args=[spare.pk]),
        session.get_absolute_url(),
        reverse("account"),
        reverse("account-delete"),
    ], phone=phone)

    gm = new_page(phone=phone)
    log_in(gm, "gwen")
    audit_each(gm, [
        reverse("campaigns:campaign-settings", args=[campaign.pk]),
        reverse("campaigns:campaign-handover", args=[campaign.pk]),
        reverse("campaigns:campaign-leave", args=[campaign.pk]),
        reverse("campaigns:campaign-archive", args=[campaign.pk]),
        reverse("campaigns:campaign-delete", args=[campaign.pk]),
        reverse("characters:character-edit", args=[vex.pk]),
        reverse("characters:character-gm-notes", args=[vex.pk]),
        reverse("characters:character-retire", args=[vex.pk]),
        reverse("characters:character-move", args=[vex.pk]),
        session.get_absolute_url(),
        reverse("account-delete"),
        archived.get_absolute_url(),
        reverse("campaigns:campaign-settings", args=[archived.pk]),
    ], phone=phone)
