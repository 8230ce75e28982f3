"""History cannot be forged by an import (Sheetkeeper issue 14, part 3): a player's imported
character awaits the GM, who reviews what it brings and accepts or refuses it; every roll
that arrives in a file stays marked as imported and never counts as rolled here."""

from __future__ import annotations

import copy
import datetime
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Campaign, Membership
from characters import services as character_services
from characters.models import Character, CharacterImport, XpEntry
from rolls import services as roll_services
from rolls.models import RequestedRoll, Roll
from rulesets.errors import RuleError
from table.services import session_award, session_create
from tests.factories import UserFactory
from tests.system_fixtures import fixtures_for
from tests.systems.shahquest.fixtures import SEED_POOL as SHAHQUEST_SEED_POOL
from tests.transfer.rich_demo import spend_cheapest
from transfer.export import document_json, export_campaign, export_character
from transfer.imports import import_campaign, import_character
from transfer.validate import TransferError

FORGED_REASON = "Found it in the file"


def upload(document: dict[str, Any]) -> SimpleUploadedFile:
    return SimpleUploadedFile("forged.sheetkeeper.json", document_json(document).encode(),
                              content_type="application/json")


def forged(character: Character, *, roll_dated: str) -> dict[str, Any]:
    """The owner's export of ``character`` with an award of 500 XP and one more roll (a copy
    of its first roll, dated ``roll_dated``) written into the file by hand."""
    document = json.loads(document_json(export_character(character)))
    sheet = document["character"]
    entries = sheet["xp_entries"]
    entries.append({**entries[-1], "id": max(e["id"] for e in entries) + 1, "reverses": None,
                    "session": None, "kind": "award", "available_delta": 500,
                    "total_delta": 500, "banked_delta": 0, "trait_key": "", "bank_key": "",
                    "rank_from": None, "rank_to": None, "reason": FORGED_REASON,
                    "created_at": "2025-06-01T20:00:00+00:00"})
    sheet["xp_available"] += 500
    sheet["xp_total"] += 500
    first = next(r for r in document["rolls"] if r["parent"] is None)
    roll = copy.deepcopy(first)
    roll.update(id=max(r["id"] for r in document["rolls"]) + 1, created_at=roll_dated,
                description="The roll the file made up")
    document["rolls"].append(roll)
    return document


def the_players_character(campaign: Campaign) -> Character:
    character = campaign.characters.exclude(owner=campaign.created_by).order_by("pk").first()
    assert character is not None
    return character


def dialog(character: Character, data: dict[str, Any]) -> dict[str, Any]:
    """The roll dialog's cleaned data for ``data`` as the sheet posts it."""
    form = systems.for_campaign(character.campaign).roll_form(character, data)
    assert form.is_valid(), form.errors
    return form.cleaned_data


def try_to_roll(character: Character) -> Roll:
    """Roll once for ``character`` through the service its sheet uses (its system's pool of
    the shared suites)."""
    character = Character.objects.select_related("campaign").get(pk=character.pk)
    data = dialog(character, dict(fixtures_for(character.campaign.ruleset).roll_pool))
    return roll_services.roll_create(character=character, data=data, by=character.owner,
                                     rng=random.Random(3))


WILLPOWER = {"kind": "willpower", "difficulty": "8", "threshold": "0"}
"""A Maelstrom Willpower roll, as the roll dialog posts it."""


def review_url(character: Character) -> str:
    return reverse("transfer:import-review", args=[character.pk])


# --- the forgery --------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_forged_award_and_roll_arrive_awaiting_the_gm_and_marked_in_every_system(
        demo: list[Campaign], client_for: Callable[..., Client]) -> None:
    """The issue's forgery: a player adds 500 XP and a roll to their own export and imports
    it. The new character rolls nothing and spends nothing until the GM accepts it, its
    rolls show as imported, and the GM's review page shows the award."""
    for campaign in demo:
        source = the_players_character(campaign)
        player = client_for(source.owner)
        response = player.post(reverse("transfer:character-import", args=[campaign.pk]),
                               {"file": upload(forged(source, roll_dated="2025-06-02T21:00:00"
                                                                         "+00:00"))})
        assert response.status_code == 302, campaign.ruleset
        imported = Character.objects.order_by("-pk").first()
        assert imported is not None and imported.pk != source.pk
        with pytest.raises(RuleError, match="awaiting the GM"):
            try_to_roll(imported)
        assert imported.review == Character.Review.PENDING, campaign.ruleset
        assert imported.xp_available == source.xp_available + 500  # the file's word, held
        with pytest.raises(RuleError, match="awaiting the GM"):
            spend_cheapest(imported, by=imported.owner)
        with pytest.raises(RuleError, match="awaiting the GM"):
            character_services.xp_award(character=imported, amount=1, reason="More",
                                        by=campaign.created_by)
        assert imported.rolls.count() == source.rolls.count() + 1
        assert not imported.rolls.filter(imported=False).exists(), campaign.ruleset

        sheet = player.get(imported.get_absolute_url()).content.decode()
        assert "Awaiting the GM" in sheet
        assert "imported · not rolled here · dated Jun 2, 2025 in the file" in sheet
        log = player.get(reverse("rolls:roll-list", args=[campaign.pk])).content.decode()
        assert log.count("The roll the file made up") == 1
        assert "imported · not rolled here · dated Jun 2, 2025 in the file" in log

        review = client_for(campaign.created_by).get(review_url(imported)).content.decode()
        assert FORGED_REASON in review and "+500" in review, campaign.ruleset
        assert "The roll the file made up" in review
        # Every source of XP is named by its kind's label, a system's own kinds too
        # (Maelstrom's merits and flaws).
        for kind in set(imported.xp_entries.values_list("kind", flat=True)):
            assert f'<th scope="row">{XpEntry.KINDS[kind]}</th>' in review, kind


@pytest.mark.django_db
def test_a_roll_dated_2099_never_shows_as_rolled_here(
        demo: list[Campaign], client_for: Callable[..., Client]) -> None:
    """Either the file is refused for its date, or the roll is kept marked as imported: never
    shown as a roll this server made."""
    for campaign in demo:
        source = the_players_character(campaign)
        document = forged(source, roll_dated="2099-01-01T20:00:00+00:00")
        try:
            imported = import_character(document, campaign, source.owner)
        except TransferError:
            assert not Roll.objects.filter(created_at__year=2099).exists()
            continue
        roll = imported.rolls.get(created_at__year=2099)
        assert roll.imported
        page = client_for(source.owner).get(roll.get_absolute_url()).content.decode()
        assert "dated Jan 1, 2099 in the file" in page
        assert "rolled by" not in page


# --- the GM's review and decision -----------------------------------------------------------


@pytest.fixture
def pending(campaign: Campaign, bobs_character: Character) -> Character:
    """Bob imports a copy of Rook (with a roll) into The Drift: it awaits Alice."""
    roll_services.roll_create(character=bobs_character, data=dialog(bobs_character, WILLPOWER),
                              by=bobs_character.owner, rng=random.Random(1))
    return import_character(json.loads(document_json(export_character(bobs_character))),
                            campaign, bobs_character.owner)


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.django_db
def test_the_gm_accepts_with_a_confirmation_and_the_decision_is_recorded(
        pending: Character, alice: Any, client_for: Callable[..., Client], htmx: bool) -> None:
    client = client_for(alice, htmx=htmx)
    response = client.post(review_url(pending), {"decision": "accept"})
    assert "Tick the box to confirm your decision." in response.content.decode()
    pending.refresh_from_db()
    assert pending.review == Character.Review.PENDING

    response = client.post(review_url(pending), {"decision": "accept", "confirm": "on"})
    if htmx:
        assert response.status_code == 200
        assert 'id="import-decision"' in response.content.decode()
        assert "Rook is accepted: it plays from now on." in response.content.decode()
    else:
        assert response.status_code == 302 and response["Location"] == review_url(pending)
    pending.refresh_from_db()
    record = CharacterImport.objects.get(character=pending)
    assert pending.review == Character.Review.ACCEPTED
    assert (record.decided_by, record.imported_by) == (alice, pending.owner)
    assert record.decided_at is not None
    page = client_for(alice).get(review_url(pending)).content.decode()
    assert "Accepted by the GM</strong>: alice" in page
    assert try_to_roll(pending).imported is False  # rolled here, once accepted
    spend_cheapest(pending, by=pending.owner)
    # Its imported rolls keep their mark after it is accepted.
    assert pending.rolls.filter(imported=True).count() == 1


@pytest.mark.django_db
def test_a_refused_character_stays_as_a_record_its_owner_can_still_export(
        pending: Character, alice: Any, bob: Any, client_for: Callable[..., Client]) -> None:
    client_for(alice).post(review_url(pending), {"decision": "refuse", "confirm": "on"})
    pending.refresh_from_db()
    assert pending.review == Character.Review.REFUSED
    assert CharacterImport.objects.get(character=pending).decided_by == alice
    with pytest.raises(RuleError, match="refused"):
        try_to_roll(pending)
    with pytest.raises(RuleError, match="refused"):
        spend_cheapest(pending, by=bob)
    sheet = client_for(bob).get(pending.get_absolute_url()).content.decode()
    assert "Refused by the GM" in sheet and "alice refused this import" in sheet
    export = client_for(bob).get(reverse("transfer:character-export", args=[pending.pk]))
    assert export.status_code == 200
    # The decision is final: a second one is refused with a word, nothing changes.
    response = client_for(alice).post(review_url(pending),
                                      {"decision": "accept", "confirm": "on"})
    assert "Rook was already refused by the GM: there is nothing to decide." in (
        response.content.decode())
    pending.refresh_from_db()
    assert pending.review == Character.Review.REFUSED


GM_SECRET = "The informant is her brother"


@pytest.mark.django_db
def test_the_review_shows_what_the_player_wrote_formatted_and_never_gm_notes(
        campaign: Campaign, bobs_character: Character, alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    """The GM reads the backstory and the notes the import brought, as the sheet shows
    them (Markdown); GM notes written into the player's file (here, copied from a GM's
    export) are not the player's to bring, and appear nowhere on the page."""
    written = character_services.character_update(character=bobs_character, by=bob,
                                                  backstory="Grew up on a *barge*.",
                                                  notes="- owes Kestrel\n- fears water")
    document = json.loads(document_json(export_character(written, for_gm=True)))
    document["character"]["gm_notes"] = GM_SECRET
    imported = import_character(document, campaign, bob)

    page = client_for(alice).get(review_url(imported)).content.decode()

    backstory = page[page.index('id="import-backstory"'):]
    assert backstory.index("Grew up on a <em>barge</em>.") < backstory.index("</div>")
    notes = page[page.index('id="import-notes"'):]
    assert notes.index("<li>owes Kestrel</li>") < notes.index("</div>")
    assert GM_SECRET not in page and "informant" not in page


@pytest.mark.django_db
def test_the_review_says_when_nothing_was_written(
        pending: Character, alice: Any, client_for: Callable[..., Client]) -> None:
    response = client_for(alice).get(review_url(pending))

    assert "Backstory and notes" in response.content.decode()
    assert "Backstory No backstory. Notes No notes." in " ".join(
        re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.mark.parametrize("person", ["bob", "carol", "dan"])
@pytest.mark.django_db
def test_only_the_gm_sees_the_review_page_or_decides(
        pending: Character, bob: Any, carol: Any, client_for: Callable[..., Client],
        person: str) -> None:
    dan = UserFactory(username="dan")
    Membership.objects.create(campaign=pending.campaign, user=dan)
    who = {"bob": bob, "carol": carol, "dan": dan}[person]
    client = client_for(who)
    assert client.get(review_url(pending)).status_code == 404
    response = client.post(review_url(pending), {"decision": "accept", "confirm": "on"})
    assert response.status_code == 404
    pending.refresh_from_db()
    assert pending.review == Character.Review.PENDING


@pytest.mark.django_db
def test_a_character_made_here_has_no_review_page(
        bobs_character: Character, alice: Any, client_for: Callable[..., Client]) -> None:
    assert client_for(alice).get(review_url(bobs_character)).status_code == 404


@pytest.mark.django_db
def test_the_campaign_page_lists_the_pending_import_with_a_link_for_the_gm(
        pending: Character, alice: Any, bob: Any, client_for: Callable[..., Client]) -> None:
    gm_page = client_for(alice).get(pending.campaign.get_absolute_url()).content.decode()
    assert "awaiting the GM" in gm_page and review_url(pending) in gm_page
    player_page = client_for(bob).get(pending.campaign.get_absolute_url()).content.decode()
    assert "awaiting the GM" in player_page and review_url(pending) not in player_page


@pytest.mark.django_db
def test_the_gms_own_import_is_accepted_at_once_and_recorded(
        campaign: Campaign, bobs_character: Character, alice: Any) -> None:
    imported = import_character(json.loads(document_json(export_character(bobs_character))),
                                campaign, alice)
    assert imported.review == Character.Review.ACCEPTED and imported.in_play
    record = CharacterImport.objects.get(character=imported)
    assert record.decided_by == alice and record.imported_by == alice


@pytest.mark.django_db
def test_a_gms_campaign_import_plays_at_once_but_its_rolls_stay_imported(
        rich_demo: list[Campaign]) -> None:
    dana = UserFactory(username="dana")
    for source in rich_demo:
        imported = import_campaign(json.loads(document_json(export_campaign(source))), dana)
        assert all(c.review == Character.Review.NONE for c in imported.characters.all())
        assert not CharacterImport.objects.filter(character__campaign=imported).exists()
        assert imported.rolls.exists()
        assert not imported.rolls.filter(imported=False).exists(), source.ruleset
        assert try_to_roll(imported.characters.order_by("pk").first()).imported is False


@pytest.mark.django_db
def test_an_imported_roll_keeps_its_mark_through_another_export_and_import(
        pending: Character, campaign: Campaign, bob: Any) -> None:
    document = json.loads(document_json(export_character(pending)))
    assert [r["imported"] for r in document["rolls"]] == [True]
    again = import_character(document, campaign, bob)
    assert list(again.rolls.values_list("imported", flat=True)) == [True]


# --- never counted as rolled here -----------------------------------------------------------


@pytest.mark.django_db
def test_an_imported_roll_takes_no_follow_up(
        campaign: Campaign, bobs_character: Character, alice: Any) -> None:
    """Alice's own import is in play at once; its imported willpower roll still takes no
    willpower spend and no experience die."""
    roll_services.roll_create(
        character=bobs_character, data=dialog(bobs_character, {**WILLPOWER, "difficulty": "10"}),
        by=bobs_character.owner, rng=random.Random(2))
    imported = import_character(json.loads(document_json(export_character(bobs_character))),
                                campaign, alice)
    roll = imported.rolls.get()
    actions = systems.for_campaign(campaign).roll_actions
    for name, data in (("willpower-spend", {}), ("experience-die", {"key": "willpower"})):
        form = actions[name].form(data)
        assert form.is_valid(), form.errors
        with pytest.raises(RuleError, match="imported, not rolled here"):
            roll_services.roll_act(roll=roll, action=actions[name], data=form.cleaned_data,
                                   by=alice, rng=random.Random(1))
    assert not roll.followups.exists()


@pytest.mark.django_db
def test_a_shahquest_imported_roll_offers_no_choice_of_dice(
        demo: list[Campaign], client_for: Callable[..., Client]) -> None:
    campaign = next(c for c in demo if c.ruleset == "shahquest")
    source = campaign.characters.get()
    system = systems.for_campaign(campaign)
    form = system.roll_form(source, SHAHQUEST_SEED_POOL)
    assert form.is_valid(), form.errors
    roll_services.roll_create(character=source, data=form.cleaned_data, by=source.owner,
                              rng=random.Random(4))
    gm = campaign.created_by
    imported = import_character(json.loads(document_json(export_character(source))),
                                campaign, gm)
    roll = imported.rolls.filter(parent__isnull=True, kind="action").order_by("-pk").first()
    assert roll is not None and roll.imported
    action = system.roll_actions["choose"]
    with pytest.raises(RuleError, match="imported, not rolled here"):
        roll_services.roll_act(roll=roll, action=action,
                               data={"effort": [0, 1], "effect": [2]}, by=gm,
                               rng=random.Random(1))
    page = client_for(gm).get(roll.get_absolute_url()).content.decode()
    assert reverse("rolls:roll-act", args=[roll.code, "choose"]) not in page


@pytest.mark.django_db
def test_a_pending_character_is_asked_for_no_roll(
        pending: Character, alice: Any, bobs_character: Character,
        client_for: Callable[..., Client]) -> None:
    system = systems.for_campaign(pending.campaign)
    what = system.request_form(pending.campaign, {"kind": "action",
                                                  "traits": "Precision, Driving",
                                                  "difficulty": "6", "threshold": "0"})
    assert what is not None and what.is_valid(), what
    with pytest.raises(RuleError, match="awaiting the GM"):
        roll_services.requested_roll_create(characters=[pending], system=system,
                                            what=what.cleaned_data, note="", by=alice)
    # Asking everyone asks the characters in play and skips the import.
    response = client_for(alice).post(
        reverse("rolls:requested-roll-create", args=[pending.campaign_id]),
        {"character": "all", "kind": "action", "traits": "Precision, Driving",
         "difficulty": "6", "threshold": "0", "note": ""})
    assert response.status_code == 302
    assert list(RequestedRoll.objects.values_list("character", flat=True)) == [
        bobs_character.pk]


@pytest.mark.django_db
def test_session_awards_skip_a_pending_import_for_everyone_and_refuse_it_by_name(
        pending: Character, alice: Any, bobs_character: Character) -> None:
    session = session_create(campaign=pending.campaign, date=datetime.date(2025, 5, 1))
    with pytest.raises(RuleError, match="Rook was imported and is awaiting the GM"):
        session_award(session=session, custom={pending.pk: (3, "Heroics")}, by=alice)
    assert not session.xp_entries.exists()
    entries = session_award(session=session, custom_for_all=(2, "Showing up"), by=alice)
    assert [e.character_id for e in entries] == [bobs_character.pk]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.django_db
def test_a_decision_that_is_neither_accept_nor_refuse_is_explained(
        pending: Character, alice: Any, client_for: Callable[..., Client], htmx: bool) -> None:
    """Found by tests/fuzz: a POST without a decision re-rendered the page without a word."""
    for data in ({"confirm": "on"}, {"decision": "maybe", "confirm": "on"}):
        response = client_for(alice, htmx=htmx).post(review_url(pending), data)
        assert response.status_code == 200
        assert "Accept or refuse:" in response.content.decode()
    pending.refresh_from_db()
    assert pending.review == Character.Review.PENDING


@pytest.mark.django_db
def test_the_session_award_grid_offers_no_row_for_a_pending_import(
        pending: Character, alice: Any, bobs_character: Character,
        client_for: Callable[..., Client]) -> None:
    session = session_create(campaign=pending.campaign, date=datetime.date(2025, 5, 1))
    page = client_for(alice).get(session.get_absolute_url()).content.decode()
    assert f'name="amount-{bobs_character.pk}"' in page
    assert f'name="amount-{pending.pk}"' not in page
