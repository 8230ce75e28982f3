"""The XP ledger, whatever the system (``characters.services``: ``xp_award``,
``xp_award_many``, ``xp_undo``; the XP page's award form and undo): the GM's awards, checked
and all or nothing; undoing a spend with a reversing entry, the player their own latest, the
GM any that no later purchase stands on, never twice; and a ledger that is append-only. What a
system's own awards and banks do is in its tests (Maelstrom's in
tests/systems/maelstrom/test_xp.py and test_services.py); spending is in test_xp_spend.py.

The ledger's rules are the same for every system: these run once, on the shared cast's
character (tests/conftest.py: Bob's Rook, a Maelstrom character with Driving 3, Firearms 3
and 30 XP).

After every test the ledger must balance: each character's available and total XP equal the
sums of its ledger entries, and no bank is overdrawn.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from characters import services
from characters.models import Character, XpEntry
from core.appendonly import AppendOnlyError
from rulesets.errors import RuleError
from tests.factories import CharacterFactory
from tests.helpers import fresh, rank, spend_url, text_of, xp_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]


def award_url(character: Character) -> str:
    return reverse("characters:character-xp-award", args=[character.pk])


def undo_url(character: Character, entry_id: int) -> str:
    return reverse("characters:character-xp-undo", args=[character.pk, entry_id])


def spend(client: Client, character: Character, trait: str, cost: int) -> XpEntry | None:
    """Confirm the purchase of ``trait`` at ``cost`` on the XP page; the newest spend."""
    client.post(spend_url(character), {"trait": trait, "expected_cost": str(cost)})
    return XpEntry.objects.filter(character=character, kind=XpEntry.Kind.SPEND).first()


# --- Awards -------------------------------------------------------------------------------


def test_an_award_raises_available_and_total_xp_alike(bobs_character, alice):
    entry = services.xp_award(character=bobs_character, amount=4, reason="Heroism", by=alice)

    assert (entry.kind, entry.available_delta, entry.total_delta) == ("award", 4, 4)
    assert (fresh(bobs_character).xp_available, fresh(bobs_character).xp_total) == (34, 34)


@pytest.mark.parametrize(("amount", "reason", "message"), [
    (0, "Heroism", "between 1 and 100"),
    (101, "Heroism", "between 1 and 100"),
    (5, "   ", "Give the award a reason"),
])
def test_an_award_outside_1_to_100_xp_or_without_a_reason_is_refused(
    amount, reason, message, bobs_character, alice
):
    with pytest.raises(RuleError, match=message):
        services.xp_award(character=bobs_character, amount=amount, reason=reason, by=alice)

    assert not XpEntry.objects.filter(kind=XpEntry.Kind.AWARD).exists()


def test_an_award_of_several_amounts_is_all_or_nothing(bobs_character, alice):
    with pytest.raises(RuleError, match="between 1 and 100"):
        services.xp_award_many(character=bobs_character, by=alice,
                               awards=[(1, "Participation award"), (500, "Typo")])

    assert fresh(bobs_character).xp_total == 30
    assert not bobs_character.xp_entries.filter(kind="award").exists()


def test_the_gm_awards_a_custom_amount_with_its_reason(client_for, alice, bobs_character):
    client_for(alice).post(award_url(bobs_character),
                           {"awards": ["Victory"], "amount": "5", "reason": "Saved the ship"})

    assert fresh(bobs_character).xp_available == 36
    entry = XpEntry.objects.get(character=bobs_character, reason="Saved the ship")
    assert (entry.available_delta, entry.total_delta) == (5, 5)


def test_a_custom_amount_without_a_reason_is_refused_and_awards_nothing(
    client_for, alice, bobs_character
):
    response = client_for(alice).post(award_url(bobs_character),
                                      {"awards": ["Victory"], "amount": "5", "reason": " "})

    assert response.status_code == 200
    assert "Give a reason for the custom award." in text_of(response)
    assert fresh(bobs_character).xp_available == 30
    assert not XpEntry.objects.filter(kind=XpEntry.Kind.AWARD).exists()


def test_an_award_with_nothing_ticked_is_refused(client_for, alice, bobs_character):
    response = client_for(alice, htmx=True).post(award_url(bobs_character), {})

    assert 'id="xp-panel"' in response.content.decode()
    assert "Tick at least one award or enter an amount of XP." in text_of(response)
    assert fresh(bobs_character).xp_available == 30


def test_an_htmx_award_answers_with_the_xp_panel_showing_the_new_balance(
    client_for, alice, bobs_character
):
    response = client_for(alice, htmx=True).post(award_url(bobs_character),
                                                 {"awards": ["Creativity"]})

    content = response.content.decode()
    assert "<html" not in content
    assert 'id="xp-panel"' in content
    assert "31 XP available" in text_of(response)
    assert "Awarded 1 XP to Rook." in text_of(response)


@pytest.mark.parametrize("player", ["bob", "dave"])
def test_players_cannot_award_xp(player, request, client_for, bobs_character):
    user = request.getfixturevalue(player)

    response = client_for(user).post(award_url(bobs_character), {"awards": ["Heroism"]})

    assert response.status_code == 404
    assert fresh(bobs_character).xp_available == 30
    assert not XpEntry.objects.filter(kind=XpEntry.Kind.AWARD).exists()


def test_a_stranger_cannot_award_xp(client_for, carol, bobs_character):
    response = client_for(carol).post(award_url(bobs_character), {"awards": ["Heroism"]})

    assert response.status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in_before_awarding(client, bobs_character):
    response = client.post(award_url(bobs_character), {"awards": ["Heroism"]})

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_only_the_gm_sees_the_award_form(client_for, alice, bob, bobs_character):
    page = xp_url(bobs_character)

    assert "Award XP (GM)" in client_for(alice).get(page).content.decode()
    assert "Award XP (GM)" not in client_for(bob).get(page).content.decode()


# --- Undo ---------------------------------------------------------------------------------


def test_a_player_undoes_once_and_leaves_older_spends_to_the_gm(bobs_character, bob, alice):
    first = services.xp_spend(character=bobs_character, key="ability:Driving", by=bob)
    second = services.xp_spend(character=bobs_character, key="ability:Firearms", by=bob)
    services.xp_undo(entry=second, by=bob, as_gm=False)

    with pytest.raises(RuleError, match="only your own latest spend, once"):
        services.xp_undo(entry=first, by=bob, as_gm=False)
    services.xp_undo(entry=first, by=alice, as_gm=True)

    assert (rank(bobs_character, "ability:Driving"),
            rank(bobs_character, "ability:Firearms")) == (3, 3)
    assert fresh(bobs_character).xp_available == 30


def test_a_new_spend_after_an_undo_can_be_undone_by_the_player(bobs_character, bob):
    mistaken = services.xp_spend(character=bobs_character, key="ability:Driving", by=bob)
    services.xp_undo(entry=mistaken, by=bob, as_gm=False)
    meant = services.xp_spend(character=bobs_character, key="ability:Firearms", by=bob)

    services.xp_undo(entry=meant, by=bob, as_gm=False)

    assert fresh(bobs_character).xp_available == 30


def test_the_gm_may_undo_a_spend_after_the_later_one_on_the_same_trait_is_undone(
    bobs_character, bob, alice
):
    first = services.xp_spend(character=bobs_character, key="ability:Driving", by=bob)
    second = services.xp_spend(character=bobs_character, key="ability:Driving", by=bob)
    with pytest.raises(RuleError, match="undo the later purchase first"):
        services.xp_undo(entry=first, by=alice, as_gm=True)

    services.xp_undo(entry=second, by=alice, as_gm=True)
    services.xp_undo(entry=first, by=alice, as_gm=True)

    assert rank(bobs_character, "ability:Driving") == 3
    assert fresh(bobs_character).xp_available == 30


def test_undo_asks_to_confirm_first(client_for, bob, bobs_character):
    client = client_for(bob)
    entry = spend(client, bobs_character, "ability:Driving", 8)

    response = client.get(undo_url(bobs_character, entry.pk))

    assert "Undo this spend?" in text_of(response)
    assert "Driving 3 → 4 (8 XP" in text_of(response)
    assert rank(bobs_character, "ability:Driving") == 4


def test_a_player_undoes_their_latest_spend_with_a_reversing_entry(
    client_for, bob, bobs_character
):
    client = client_for(bob)
    entry = spend(client, bobs_character, "ability:Driving", 8)

    response = client.post(undo_url(bobs_character, entry.pk), follow=True)

    assert "Undone: Driving 3 → 4; 8 XP refunded." in text_of(response)
    assert rank(bobs_character, "ability:Driving") == 3
    assert fresh(bobs_character).xp_available == 30
    reversal = XpEntry.objects.get(kind=XpEntry.Kind.REVERSAL)
    assert reversal.reverses == entry
    assert (reversal.available_delta, reversal.rank_from, reversal.rank_to) == (8, 4, 3)
    assert XpEntry.objects.filter(pk=entry.pk).exists()


def test_an_htmx_undo_answers_with_the_xp_panel(client_for, bob, bobs_character):
    entry = spend(client_for(bob), bobs_character, "ability:Driving", 8)

    response = client_for(bob, htmx=True).post(undo_url(bobs_character, entry.pk))

    assert "<html" not in response.content.decode()
    assert "30 XP available" in text_of(response)
    assert "undone" in text_of(response)


def test_a_player_cannot_undo_an_older_spend(client_for, bob, bobs_character):
    client = client_for(bob)
    older = spend(client, bobs_character, "ability:Driving", 8)
    spend(client, bobs_character, "ability:Firearms", 8)

    response = client.post(undo_url(bobs_character, older.pk), follow=True)

    assert "You can undo only your own latest spend, once; ask the GM to undo an older one." \
        in text_of(response)
    assert rank(bobs_character, "ability:Driving") == 4
    assert fresh(bobs_character).xp_available == 14
    assert not XpEntry.objects.filter(kind=XpEntry.Kind.REVERSAL).exists()


def test_a_player_cannot_undo_the_gms_spend(client_for, alice, bob, bobs_character):
    gms = spend(client_for(alice), bobs_character, "ability:Driving", 8)

    response = client_for(bob).post(undo_url(bobs_character, gms.pk), follow=True)

    assert "You can undo only your own latest spend" in text_of(response)
    assert rank(bobs_character, "ability:Driving") == 4


def test_the_xp_page_offers_undo_only_where_it_is_allowed(client_for, alice, bob, bobs_character):
    client = client_for(bob)
    older = spend(client, bobs_character, "ability:Driving", 8)
    latest = spend(client, bobs_character, "ability:Firearms", 8)
    page = xp_url(bobs_character)

    bobs_page = client.get(page).content.decode()
    alices_page = client_for(alice).get(page).content.decode()

    assert undo_url(bobs_character, latest.pk) in bobs_page
    assert undo_url(bobs_character, older.pk) not in bobs_page
    assert undo_url(bobs_character, older.pk) in alices_page


def test_the_gm_can_undo_an_older_spend(client_for, alice, bob, bobs_character):
    client = client_for(bob)
    older = spend(client, bobs_character, "ability:Driving", 8)
    spend(client, bobs_character, "ability:Firearms", 8)

    client_for(alice).post(undo_url(bobs_character, older.pk))

    assert rank(bobs_character, "ability:Driving") == 3
    assert rank(bobs_character, "ability:Firearms") == 4
    assert fresh(bobs_character).xp_available == 22
    reversal = XpEntry.objects.get(kind=XpEntry.Kind.REVERSAL)
    assert reversal.created_by == alice


def test_the_gm_cannot_undo_a_spend_a_later_purchase_stands_on(
    client_for, alice, bob, bobs_character
):
    client = client_for(bob)
    first = spend(client, bobs_character, "ability:Driving", 8)
    spend(client, bobs_character, "ability:Driving", 10)

    response = client_for(alice).post(undo_url(bobs_character, first.pk), follow=True)

    assert "Driving has been changed since this spend; undo the later purchase first." in \
        text_of(response)
    assert rank(bobs_character, "ability:Driving") == 5
    assert fresh(bobs_character).xp_available == 12


def test_undoing_the_same_spend_twice_is_refused(client_for, alice, bob, bobs_character):
    entry = spend(client_for(bob), bobs_character, "ability:Driving", 8)
    client_for(alice).post(undo_url(bobs_character, entry.pk))

    response = client_for(alice).post(undo_url(bobs_character, entry.pk), follow=True)

    assert "That spend has already been undone." in text_of(response)
    assert rank(bobs_character, "ability:Driving") == 3
    assert fresh(bobs_character).xp_available == 30
    assert XpEntry.objects.filter(kind=XpEntry.Kind.REVERSAL).count() == 1


def test_an_award_cannot_be_undone(client_for, alice, bobs_character):
    starting = XpEntry.objects.get(character=bobs_character, kind=XpEntry.Kind.STARTING)

    response = client_for(alice).post(undo_url(bobs_character, starting.pk), follow=True)

    assert "Only a spend can be undone." in text_of(response)
    assert fresh(bobs_character).xp_available == 30


def test_an_entry_of_another_character_cannot_be_undone_through_this_one(
    client_for, campaign, alice, bob, bobs_character
):
    other = CharacterFactory(campaign=campaign, owner=bob, name="Other")
    entry = spend(client_for(bob), other, "ability:Driving", 8)

    response = client_for(alice).post(undo_url(bobs_character, entry.pk))

    assert response.status_code == 404
    assert rank(other, "ability:Driving") == 4


# --- The ledger is append-only ------------------------------------------------------------


def test_a_ledger_entry_cannot_be_edited(bobs_character):
    entry = XpEntry.objects.get(character=bobs_character)
    entry.available_delta = 1000

    with pytest.raises(AppendOnlyError):
        entry.save()

    assert XpEntry.objects.get(pk=entry.pk).available_delta == 30


def test_a_ledger_entry_cannot_be_deleted(bobs_character):
    entry = XpEntry.objects.get(character=bobs_character)

    with pytest.raises(AppendOnlyError):
        entry.delete()

    assert XpEntry.objects.filter(pk=entry.pk).exists()


def test_the_ledger_cannot_be_bulk_updated_or_bulk_deleted(bobs_character):
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.filter(character=bobs_character).update(available_delta=0)
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.update(available_delta=0)
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.filter(character=bobs_character).delete()
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.all().delete()

    assert XpEntry.objects.get(character=bobs_character).available_delta == 30


# --- The ledger as the XP page shows it -----------------------------------------------------

LEDGER_COLUMNS = ["When", "What", "Change", "Available after", "Banked", "By", "Actions"]


def plain(html_text: str) -> str:
    """``html_text`` as read: tags dropped, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_text)).split())


def ledger(page: str) -> tuple[list[str], list[list[tuple[str, str, str]]]]:
    """The XP page's ledger table: its column headers, and each row's cells, each as
    ``(its visible label, its value as read, its raw HTML)``."""
    table = re.search(r'<table class="ledger"[^>]*>(.*?)</table>', page, re.S)
    assert table is not None, "no ledger table"
    head, body = table.group(1).split("</thead>")
    headers = [plain(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = []
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S):
            labelled = re.match(r'<span class="cell-label" aria-hidden="true">(.*?)</span>(.*)',
                                cell, re.S)
            label, value = (labelled.group(1), labelled.group(2)) if labelled else ("", cell)
            cells.append((label, plain(value), cell))
        rows.append(cells)
    return headers, rows


def test_each_ledger_line_carries_its_columns_labels_for_a_phone(client_for, alice, bob,
                                                                 bobs_character):
    services.xp_award(character=bobs_character, amount=4, reason="Heroism", by=alice)

    headers, rows = ledger(client_for(bob).get(xp_url(bobs_character)).content.decode())

    assert headers == LEDGER_COLUMNS
    award, starting = rows
    assert [(label, value) for label, value, _ in award[:6]] == [
        ("When", award[0][1]), ("What", "Award Heroism"), ("Change", "+4 XP"),
        ("Available after", "34 XP"), ("", ""), ("By", "alice")]
    assert starting[3][:2] == ("Available after", "30 XP")
    # A cell with nothing to say is empty, so that a phone leaves its line out.
    assert award[4][2] == "" and award[6][2] == ""
    for row in rows:
        for column, (label, value, _) in enumerate(row[:6]):
            assert label == (headers[column] if value else ""), (column, label, value)


def test_the_balance_after_each_line_counts_the_whole_ledger_on_every_page(
        client_for, alice, bob, bobs_character):
    for n in range(26):
        services.xp_award(character=bobs_character, amount=1, reason=f"Session {n + 1}",
                          by=alice)
    client = client_for(bob)

    _, newest = ledger(client.get(xp_url(bobs_character)).content.decode())
    _, oldest = ledger(client.get(f"{xp_url(bobs_character)}?page=2").content.decode())

    assert newest[0][3][1] == f"{fresh(bobs_character).xp_available} XP" == "56 XP"
    assert len(newest) == 25 and newest[-1][3][1] == "32 XP"
    assert [(row[2][1], row[3][1]) for row in oldest] == [("+1 XP", "31 XP"),
                                                          ("+30 XP", "30 XP")]
