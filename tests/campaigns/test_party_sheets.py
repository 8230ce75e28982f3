"""The party's sheets (docs/decisions.md, "The party's sheets"): a player reads a
party-mate's sheet, read-only, where the campaign allows it (``Campaign.party_sheets``, on by
default): no control that writes, no roll dialog, no link to the XP page, nothing its player
wrote and never the GM's notes; every write stays 404; an NPC's sheet and an import the GM
has not accepted stay 404; the GM turns it off on the settings page."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters.models import Character
from equipment.services import item_add
from tests.factories import UserFactory
from tests.helpers import action_url, fresh, odds_url, roll_url, settings_url, text_of, xp_url
from tests.system_fixtures import demo_campaign, selectable_systems

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()

WRITES = ('method="post"', "hx-post=", 'id="roll-form"', 'class="roll-bar"')
"""What a page that writes holds: a posting form, an htmx write, the roll dialog, its bar."""


def writes_in(content: str) -> list[str]:
    """Which of :data:`WRITES` the page's own content holds (its <main>: the site's header
    keeps its log-out form on every page)."""
    main = content.split("<main", 1)[-1].split("</main>", 1)[0]
    return [w for w in WRITES if w in main]


@pytest.fixture
def dave(campaign):  # type: ignore[no-untyped-def]
    """A second player of The Drift (no character needed: he reads Bob's)."""
    user = UserFactory(username="dave")
    Membership.objects.create(campaign=campaign, user=user)
    return user


@pytest.fixture
def rook(bobs_character: Character) -> Character:
    """Bob's Rook, with what only Bob and the GM may read written on him."""
    Character.objects.filter(pk=bobs_character.pk).update(
        backstory="Grew up in *the Sink*", notes="Owes Vex a favour",
        gm_notes="The Syndicate is hunting him")
    return fresh(bobs_character)


def test_a_party_mate_reads_the_sheet_and_nothing_on_it_writes(client_for, dave, rook):
    page = client_for(dave).get(rook.get_absolute_url())

    content = page.content.decode()
    assert page.status_code == 200
    assert "bob's sheet, to read: only they and the GM change it." in text_of(page)
    assert "Rook" in content and "Precision" in content  # the sheet itself
    assert not writes_in(content)
    assert "css/out-of-play.css" in content  # no trait ticked into a pool
    assert xp_url(rook) not in content
    assert reverse("characters:character-edit", args=[rook.pk]) not in content
    for private in ("the Sink", "Owes Vex a favour", "The Syndicate is hunting him"):
        assert private not in content, private
    assert page.context["character"].notes == "" == page.context["character"].backstory


def test_a_party_mate_reads_the_items_but_not_their_notes(client_for, alice, bob, dave, rook):
    """The Equipment card lies on the table; what the player wrote on an item is theirs."""
    item_add(character=rook, name="Grappling hook", quantity=1, note="Stolen from Vex",
             details={}, by=bob)
    sheet = rook.get_absolute_url()

    read = client_for(dave).get(sheet)
    region = client_for(dave).get(sheet, {"live": "sheet-inventory"})

    assert "Grappling hook" in read.content.decode()
    assert "Stolen from Vex" not in read.content.decode()
    assert "Grappling hook" in region.content.decode()
    assert "Stolen from Vex" not in region.content.decode()
    for writer in (bob, alice):
        assert "Stolen from Vex" in client_for(writer).get(sheet).content.decode()


def test_its_live_regions_write_nothing_and_leave_out_the_owners(client_for, dave, rook):
    client = client_for(dave)
    sheet = rook.get_absolute_url()
    ids = client.get(sheet).context["live"].ids

    regions = client.get(sheet, {"live": list(ids)})
    actions = client.get(sheet, {"live": "character-actions"})

    assert "sheet-title" in ids
    assert not {"character-actions", "sheet-xp", "roll-requests"} & set(ids)
    assert regions.status_code == 200 and "Rook" in regions.content.decode()
    assert not [w for w in WRITES if w in regions.content.decode()]
    assert actions.status_code == 404  # not a region of the reader's copy


def test_every_write_and_the_owners_pages_stay_404_for_a_party_mate(client_for, dave, rook):
    client = client_for(dave)
    before = (rook.sheet, rook.xp_available, rook.name)

    asked = {
        "edit": client.post(reverse("characters:character-edit", args=[rook.pk]),
                            {"name": "Mine", "concept": "", "backstory": "", "notes": ""}),
        "retire": client.post(reverse("characters:character-retire", args=[rook.pk]),
                              {"status": "retired"}),
        "damage": client.post(action_url(rook, "damage"), {"kind": "bashing", "levels": "1"}),
        "roll": client.post(roll_url(rook), {"traits": ["precision"]}),
        "odds": client.get(odds_url(rook)),
        "xp page": client.get(xp_url(rook)),
        "export": client.get(reverse("transfer:character-export", args=[rook.pk])),
        "gm notes": client.get(reverse("characters:character-gm-notes", args=[rook.pk])),
    }

    assert {name: r.status_code for name, r in asked.items()} == dict.fromkeys(asked, 404)
    assert (fresh(rook).sheet, fresh(rook).xp_available, fresh(rook).name) == before


def test_the_dashboard_links_the_party_mates_sheets(client_for, campaign, dave, rook):
    content = client_for(dave).get(campaign.get_absolute_url()).content.decode()

    assert f'<a href="{rook.get_absolute_url()}">Rook</a>' in content
    assert "· played by bob" in content


def test_the_gm_turns_the_party_sheets_off_and_they_are_404_again(
        client_for, campaign, alice, dave, rook):
    saved = client_for(alice).post(settings_url(campaign), {
        "name": "The Drift", "description": "", "starting_xp": "30"})  # the box left unticked

    assert saved.status_code == 302
    assert fresh(campaign).party_sheets is False
    assert client_for(dave).get(rook.get_absolute_url()).status_code == 404
    dashboard = client_for(dave).get(campaign.get_absolute_url()).content.decode()
    assert "Rook" in dashboard and rook.get_absolute_url() not in dashboard
    assert client_for(rook.owner).get(rook.get_absolute_url()).status_code == 200


def test_the_settings_page_offers_the_choice_ticked_by_default(client_for, campaign, alice):
    content = client_for(alice).get(settings_url(campaign)).content.decode()

    assert 'name="party_sheets"' in content
    assert "Players see the party&#x27;s sheets" in content
    assert 'id="id_party_sheets" checked' in content


def test_an_npc_and_an_import_awaiting_the_gm_stay_404(client_for, campaign, alice, dave,
                                                      rook):
    npc = Character.all_objects.create(
        campaign=campaign, owner=alice, name="Vex", sheet=rook.sheet, is_npc=True,
        npc_shown=Character.Shown.TRACKS)
    Character.objects.filter(pk=rook.pk).update(review=Character.Review.PENDING)

    assert client_for(dave).get(npc.get_absolute_url()).status_code == 404
    assert client_for(dave).get(rook.get_absolute_url()).status_code == 404


def test_a_stranger_still_gets_404(client_for, carol, rook):
    assert client_for(carol).get(rook.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_systems_sheet_is_read_only_for_a_party_mate(client_for, alice, bob, slug):
    """Each system draws its own sheet (its track controls, its roll dialog): none of its
    controls that write reaches a party-mate."""
    dave = UserFactory(username="dave")
    campaign = demo_campaign(slug, name="Table", gm=alice, players=[bob, dave],
                             rng=random.Random(7))
    bobs = campaign.characters.filter(owner=bob).first()
    assert bobs is not None

    page = client_for(dave).get(bobs.get_absolute_url())

    content = page.content.decode()
    assert page.status_code == 200 and 'id="read-only-sheet"' in content
    assert not writes_in(content), slug
    assert Campaign.objects.get(pk=campaign.pk).party_sheets


def test_the_owner_still_writes_on_their_own_sheet(client_for, bob, rook):
    content = client_for(bob).get(rook.get_absolute_url()).content.decode()

    assert 'id="roll-form"' in content and 'id="read-only-sheet"' not in content
    assert "the Sink" in content and "Owes Vex a favour" in content
    assert "The Syndicate is hunting him" not in content


def test_the_gms_view_is_unchanged(client_for, alice, rook):
    content = client_for(alice).get(rook.get_absolute_url()).content.decode()

    assert "The Syndicate is hunting him" in content and 'id="roll-form"' in content
