"""Table readings on a campaign (docs/rules.md, Table readings): the GM (or a co-GM) chooses
how the table reads a rule on the settings page; the roll, its odds, the NPC quick roll and
the ``odds`` command follow, each change is recorded, and a roll keeps the readings it was
made under after the GM switches back. Shown on a Maelstrom campaign (the fixture's), whose
house rule "tens explode without a specialty" is the one tables ask for most; what differs by
system is the engine's, tested in tests/rulesets/<system>/."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign, Membership, ReadingChange
from rolls.models import Roll
from rulesets.maelstrom.readings import MaelstromReadings
from tests.helpers import fresh, odds_url, roll_url, settings_url, text_of
from transfer import export as transfer_export

pytestmark = pytest.mark.django_db

SEED = {reading.key: reading.default for reading in MaelstromReadings.READINGS}
"""The settings form's data of the seed's readings (every reading at its first choice)."""
ALWAYS = {**SEED, "tens_explode": "always"}
POOL = {"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
        "threshold": "0"}


def readings_url(campaign: Campaign) -> str:
    return reverse("campaigns:campaign-readings", args=[campaign.pk])


def test_the_gm_switches_exploding_tens_on_and_the_odds_the_roll_and_the_log_follow(
    client_for, alice, bob, campaign, bobs_character, scripted_dice
):
    gm, player = client_for(alice), client_for(bob)
    page = text_of(gm.get(settings_url(campaign)))
    assert "Table readings" in page and "Tens explode only when a specialty is used" in page
    assert "No reading has changed" in page
    # The seed's words name the book as a player knows it, never a file of ours.
    assert "(Maelstrom rules, Using Specialties)" in page and "Sheetkeeper's ruling" in page
    assert ".md" not in page
    before = text_of(player.get(odds_url(bobs_character), POOL))

    saved = gm.post(readings_url(campaign), ALWAYS, follow=True)

    assert "From now on: Exploding tens: Tens explode on every action roll" in text_of(saved)
    assert fresh(campaign).readings == {"tens_explode": "always"}
    change = ReadingChange.objects.get()
    assert (change.key, change.before, change.after, change.changed_by) == (
        "tens_explode", "with_specialty", "always", alice)
    assert "Tens explode only when a specialty is used (the seed) → Tens explode on every" \
        in text_of(gm.get(settings_url(campaign)))
    # The odds next to the Roll button change with it...
    after = text_of(player.get(odds_url(bobs_character), POOL))
    assert "exploding tens" in after and after != before
    # ... and the roll: a 10 brings two bonus dice, with no specialty used.
    scripted_dice([10, 3, 4, 6, 7, 2, 2, 9, 8])
    player.post(roll_url(bobs_character), POOL)
    exploded = Roll.objects.get()
    assert exploded.readings == {"tens_explode": "always"}
    assert exploded.result["bonus_dice"] == [9, 8] and exploded.net == 5

    # Switching back leaves that roll as it was made; the next roll is the seed's.
    gm.post(readings_url(campaign), SEED)
    assert fresh(campaign).readings == {}
    scripted_dice([10, 3, 4, 6, 7, 2, 2])
    player.post(roll_url(bobs_character), POOL)
    plain = Roll.objects.exclude(pk=exploded.pk).get()
    assert (plain.readings, plain.result["bonus_dice"], plain.net) == ({}, [], 3)
    shown = text_of(player.get(fresh(exploded).get_absolute_url()))
    assert "Made under this table's readings: Exploding tens: Tens explode on every" in shown
    assert "Made under" not in text_of(player.get(plain.get_absolute_url()))
    assert ReadingChange.objects.count() == 2


def test_the_npc_quick_roll_follows_the_readings(client_for, alice, campaign, scripted_dice):
    client_for(alice).post(readings_url(campaign), ALWAYS)
    scripted_dice([10, 2, 9, 1])

    client_for(alice).post(reverse("rolls:npc-roll-create", args=[campaign.pk]),
                           {"text": "2 dice diff 7"})

    roll = Roll.objects.get()
    assert (roll.readings, roll.result["bonus_dice"]) == ({"tens_explode": "always"}, [9, 1])


def test_a_co_gm_changes_a_reading_and_a_refused_choice_changes_nothing(
    client_for, bob, campaign
):
    Membership.objects.filter(campaign=campaign, user=bob).update(role=Membership.Role.CO_GM)

    refused = client_for(bob).post(readings_url(campaign), {**ALWAYS, "strong_bond": "never"})

    assert refused.status_code == 400
    assert "Select a valid choice. never is not one of the available choices." \
        in text_of(refused)
    # The choices made are kept on the page, with the reason.
    assert re.search(r'value="always"[^>]* checked', refused.content.decode())
    assert fresh(campaign).readings == {} and not ReadingChange.objects.exists()
    client_for(bob).post(readings_url(campaign), {**ALWAYS, "strong_bond": "kept"})
    assert fresh(campaign).readings == {"tens_explode": "always", "strong_bond": "kept"}


def test_an_archived_campaign_shows_its_readings_read_only(client_for, alice, campaign):
    client_for(alice).post(readings_url(campaign), ALWAYS)
    Campaign.objects.filter(pk=campaign.pk).update(archived_at="2026-12-01T00:00Z")

    page = client_for(alice).get(settings_url(campaign)).content.decode()
    refused = client_for(alice).post(readings_url(campaign), SEED, follow=True)

    inputs = re.findall(r'<input type="radio" name="tens_explode"[^>]*>', page)
    assert len(inputs) == 2 and all(" disabled" in tag for tag in inputs)
    assert "Save readings" not in page
    assert "archived" in text_of(refused)
    assert fresh(campaign).readings == {"tens_explode": "always"}


def test_the_readings_travel_with_the_export_and_a_forged_one_is_refused(
    client_for, alice, bob, campaign, bobs_character, scripted_dice
):
    client_for(alice).post(readings_url(campaign), ALWAYS)
    scripted_dice([10, 3, 4, 6, 7, 2, 2, 9, 8])
    client_for(bob).post(roll_url(bobs_character), POOL)
    document = transfer_export.export_campaign(fresh(campaign))
    assert document["campaign"]["readings"] == {"tens_explode": "always"}
    assert document["rolls"][0]["readings"] == {"tens_explode": "always"}

    imported = _import(client_for(alice), document, campaign)
    assert imported.readings == {"tens_explode": "always"}
    assert imported.rolls.get().readings == {"tens_explode": "always"}

    forged = json.loads(json.dumps(document))
    forged["rolls"][0]["readings"] = {}  # a roll that exploded with no specialty, "by the seed"
    refused = client_for(alice).post(reverse("transfer:campaign-import"), {"file": _file(forged)})
    assert "its pool and its table readings disagree on exploding tens" in text_of(refused)
    document["campaign"]["readings"] = {"tens_explode": "sometimes"}
    refused = client_for(alice).post(reverse("transfer:campaign-import"), {"file": _file(document)})
    assert "'sometimes' is not one of with_specialty, always" in text_of(refused)
    document["campaign"]["readings"] = {"tens_explode": "with_specialty"}
    refused = client_for(alice).post(reverse("transfer:campaign-import"), {"file": _file(document)})
    assert "name the seed's reading, which is never stored" in text_of(refused)
    assert Campaign.objects.count() == 2


def test_the_odds_command_takes_the_readings_as_flags_and_batch_keys() -> None:
    def odds(*args: str, stdin: str = "") -> dict[str, object]:
        out = io.StringIO()
        if stdin:
            import sys
            old, sys.stdin = sys.stdin, io.StringIO(stdin)
            try:
                call_command("odds", *args, stdout=out)
            finally:
                sys.stdin = old
        else:
            call_command("odds", *args, stdout=out)
        return json.loads(out.getvalue())  # type: ignore[no-any-return]

    seed = odds("maelstrom", "--dice", "3")
    flag = odds("maelstrom", "--dice", "3", "--tens-explode", "always")
    batch = odds("--batch", stdin=json.dumps({"system": "maelstrom", "dice": 3,
                                              "tens_explode": "always"}))
    assert flag == batch != seed
    assert flag == odds("maelstrom", "--dice", "3", "--specialty")


def _file(document: dict[str, object]) -> io.BytesIO:
    data = io.BytesIO(json.dumps(document).encode())
    data.name = "campaign.json"
    return data


def _import(client, document: dict[str, object], exported: Campaign  # type: ignore[no-untyped-def]
            ) -> Campaign:
    response = client.post(reverse("transfer:campaign-import"), {"file": _file(document)})
    assert response.status_code == 302, text_of(response)
    return Campaign.objects.exclude(pk=exported.pk).get()


def test_a_willpower_roll_offers_no_experience_die_when_willpower_is_not_an_action(
    client_for, alice, bob, campaign, bobs_character, scripted_dice
):
    willpower = {"kind": "willpower", "difficulty": "6", "threshold": "0"}
    scripted_dice([7, 8, 3, 4, 5])
    seed = client_for(bob, htmx=True).post(roll_url(bobs_character), willpower)
    assert "Add an experience die" in seed.content.decode()
    client_for(alice).post(readings_url(campaign), {**SEED,
                                                    "willpower_experience_die": "not_allowed"})
    scripted_dice([7, 8, 3, 4, 5])

    answer = client_for(bob, htmx=True).post(roll_url(bobs_character), willpower)

    assert "Add an experience die" not in answer.content.decode()
    assert "Willpower is not an action: no experience die (table reading)" in text_of(answer)
    roll = Roll.objects.latest("id")
    refused = client_for(bob, htmx=True).post(
        reverse("rolls:roll-act", args=[roll.code, "experience-die"]), {"key": "willpower"})
    assert "cannot be added to a willpower roll" in text_of(refused)
    assert fresh(bobs_character).xp_available == bobs_character.xp_available


def test_marked_damage_follows_the_full_chart_reading(client_for, alice, campaign,
                                                      bobs_character):
    gm = client_for(alice)
    damage = reverse("characters:character-action", args=[bobs_character.pk, "damage"])
    gm.post(damage, {"kind": "bashing", "levels": "8"})  # every box of Rook's chart
    gm.post(readings_url(campaign), {**SEED, "full_chart": "fatal"})

    answer = gm.post(damage, {"kind": "lethal", "levels": "1"}, follow=True)

    assert "Marked 1 lethal: Dead." in text_of(answer)


def test_a_page_drawn_before_a_reading_was_added_still_saves_and_keeps_the_rest(
    client_for, alice, campaign
):
    gm = client_for(alice)
    gm.post(readings_url(campaign), {**SEED, "strong_bond": "kept"})

    gm.post(readings_url(campaign), {"tens_explode": "always"})  # the other readings not sent

    assert fresh(campaign).readings == {"tens_explode": "always", "strong_bond": "kept"}


def test_a_roll_names_only_the_readings_that_can_change_it(
    client_for, alice, bob, campaign, bobs_character, seeded_rng
):
    client_for(alice).post(readings_url(campaign), {**ALWAYS,
                                                    "willpower_experience_die": "not_allowed"})

    client_for(bob).post(roll_url(bobs_character), {"kind": "willpower", "difficulty": "6",
                                                    "threshold": "0"})

    roll = Roll.objects.get()
    assert roll.readings == {"tens_explode": "always", "willpower_experience_die": "not_allowed"}
    shown = text_of(client_for(bob).get(roll.get_absolute_url()))
    assert "Made under this table's readings: Experience die on a Willpower roll" in shown
    assert "Exploding tens" not in shown  # a Willpower roll never explodes
