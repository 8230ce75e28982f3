"""An imported roll is checked against itself (Sheetkeeper issue 31, finding 6): its dice
against its pool, and what it claims (successes, totals, symbols, the log's outcome and
summary) against what its rules make of those dice. A roll that disagrees refuses the file,
naming the roll, so the GM's review page never shows a forged claim; every roll the app
makes, of every kind, passes."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Campaign
from characters import services as character_services
from characters.models import Character, CharacterImport
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import registry
from rulesets.maelstrom.storage import RollKind
from systems.maelstrom.rolling import experience_die_keys
from systems.schema import import_schema
from systems.three_d6.forms import NPC
from table.services import campaign_system_change
from tests.conftest import ScriptedRng
from tests.factories import UserFactory
from tests.system_fixtures import demo_campaign, fixtures_for
from tests.transfer.conftest import refused
from transfer import checks
from transfer.export import document_json, export_character
from transfer.imports import import_character

SYSTEMS = ("maelstrom", "shahquest", "shattered_world", "genesys", "three_d6")
"""Every system whose rolls are checked (the tests' made-up tally keeps the default check,
which accepts every roll)."""

pytestmark = pytest.mark.django_db


# --- the forgeries ------------------------------------------------------------------------------


def world(slug: str) -> tuple[Campaign, Character]:
    """A demo campaign of ``slug`` with its player's character, who made rolls."""
    gm, player = UserFactory(username="gm"), UserFactory(username="player")
    campaign = demo_campaign(slug, name=f"Table {slug}", gm=gm, players=[player],
                             rng=random.Random(7))
    return campaign, campaign.characters.get(owner=player)


def the_roll(document: dict[str, Any], kind: str) -> tuple[int, dict[str, Any]]:
    """The place (from 1, as refusals count) and row of the file's first roll of ``kind``."""
    return next((i, roll) for i, roll in enumerate(document["rolls"], start=1)
                if roll["kind"] == kind and roll["parent"] is None)


def forged(character: Character, kind: str, change: Callable[[dict[str, Any]], None]
           ) -> tuple[dict[str, Any], int]:
    """The owner's export of ``character`` with its first roll of ``kind`` changed by hand,
    and that roll's place in the file."""
    document = json.loads(document_json(export_character(character)))
    place, roll = the_roll(document, kind)
    change(roll)
    return document, place


def more_dice(die: Any) -> Callable[[dict[str, Any]], None]:
    def change(roll: dict[str, Any]) -> None:
        roll["result"]["dice"].append(die)
    return change


def claim(*path: str, by: Callable[[Any], Any]) -> Callable[[dict[str, Any]], None]:
    def change(roll: dict[str, Any]) -> None:
        node = roll["result"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = by(node[path[-1]])
    return change


MORE_DICE: dict[str, tuple[str, Callable[[dict[str, Any]], None], tuple[str, ...]]] = {
    "maelstrom": ("action", more_dice(5), ("dice were rolled for a pool of",
                                           "(Maelstrom rules, Dice Pool)")),
    "shahquest": ("action", more_dice({"size": 6, "face": 2}),
                  ("dice were rolled for a pool of", "Shahquest wiki, Dice Pools")),
    # One die is all a Shattered World result holds: the schema refuses a second, naming
    # the roll by its place.
    "shattered_world": ("action", more_dice(3), ("result.dice", "at most 1 item")),
    "genesys": ("check", more_dice({"die": "boost", "face": 3, "symbols": ["success"]}),
                ("dice were rolled for a pool of", "Genesys rules, Basic Dice Pool")),
    "three_d6": ("test", more_dice(4), ("5 dice were rolled for a pool of 4 (3d6 with 1 "
                                        "favor)", "3d6 rules, Favor and Disfavor")),
}
"""Each system's roll with one die more than its pool rolls, and what its refusal says."""

WRONG_CLAIM: dict[str, tuple[str, Callable[[dict[str, Any]], None], tuple[str, ...]]] = {
    "maelstrom": ("action", claim("resolution", "successes", by=lambda n: n + 7),
                  ("successes; its dice [", "(Maelstrom rules, Resolving the Result)")),
    "shahquest": ("action", claim("effort", by=lambda n: (n + 1) % 25),
                  ("it claims an effort total of", "Shahquest wiki, Dice Pools")),
    "shattered_world": ("action", claim("total", by=lambda n: n + 50),
                        ("it claims a total of", "Shattered World Core Engine")),
    "genesys": ("check", claim("outcome", "successes", by=lambda n: n + 5),
                ("successes; its dice (", "Genesys rules, Interpreting the Pool")),
    "three_d6": ("test", claim("total", by=lambda n: n + 20),
                 ("it claims a total of", "; its dice [", "3d6 rules, Rolls and Tests")),
}
"""Each system's roll claiming more than its dice give, and what its refusal says."""


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_roll_with_more_dice_than_its_pool_is_refused_naming_it(slug: str) -> None:
    campaign, source = world(slug)
    kind, change, words = MORE_DICE[slug]
    document, place = forged(source, kind, change)
    before = Roll.objects.count()
    named = f"rolls[{place - 1}]" if slug == "shattered_world" else f"Roll {place} ("
    refused(lambda: import_character(document, campaign, source.owner), named, *words)
    assert Roll.objects.count() == before


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_roll_claiming_what_its_dice_do_not_give_is_refused_naming_it(slug: str) -> None:
    campaign, source = world(slug)
    kind, change, words = WRONG_CLAIM[slug]
    document, place = forged(source, kind, change)
    description = document["rolls"][place - 1]["description"]
    refused(lambda: import_character(document, campaign, source.owner),
            f"Roll {place} ({repr(description)[:40]}", "is refused: ", *words)


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_roll_whose_log_line_claims_another_outcome_is_refused(slug: str) -> None:
    """The log's own verdict (the outcome and summary the review page and the logs show)
    is held against the dice too, whatever the result says."""
    campaign, source = world(slug)
    kind = MORE_DICE[slug][0]

    def boast(roll: dict[str, Any]) -> None:
        roll["summary"] = "9 successes"
    document, place = forged(source, kind, boast)
    refused(lambda: import_character(document, campaign, source.owner),
            f"Roll {place} (", "the log reads '9 successes'; its ")


def willpower_rolled(character: Character) -> Roll:
    """A Willpower roll of ``character`` against 8, every die a 5: it fails without
    botching, so it takes a willpower dot or an experience die."""
    form = systems.for_campaign(character.campaign).roll_form(
        character, {"kind": "willpower", "difficulty": "8", "threshold": "0"})
    assert form.is_valid(), form.errors
    return roll_services.roll_create(character=character, data=form.cleaned_data,
                                     by=character.owner, rng=ScriptedRng((5,) * 10))


def test_the_issues_forgeries_are_refused_in_a_gms_words() -> None:
    """Seven dice in a five-dice pool; dice [1, 1] claimed as "9 successes"."""
    campaign, source = world("maelstrom")
    willpower_rolled(source)

    def seven_of_five(roll: dict[str, Any]) -> None:
        roll["pool"]["dice"] = roll["result"]["pool"]["dice"] = 5
        roll["result"]["dice"] = [5] * 7
    document, place = forged(source, "willpower", seven_of_five)
    refused(lambda: import_character(document, campaign, source.owner),
            f"Roll {place} ('Willpower", "is refused: 7 dice were rolled for a pool of 5")

    def nine_successes(roll: dict[str, Any]) -> None:
        for pool in (roll["pool"], roll["result"]["pool"]):
            pool.update(dice=2, automatic_successes=0)
        roll["result"]["dice"] = [1, 1]
        roll["result"]["bonus_dice"] = []
        roll["result"]["resolution"] = {"successes": 9, "removed_by_threshold": 0,
                                        "botches": 0, "net": 9, "outcome": "success"}
        roll["result"]["summary"] = "9 successes"
        roll.update(outcome="success", net=9, summary="9 successes")
    document, place = forged(source, "willpower", nine_successes)
    refused(lambda: import_character(document, campaign, source.owner),
            f"Roll {place} ('Willpower", "it claims 9 successes; its dice [1, 1] give 0",
            "(Maelstrom rules, Resolving the Result)")


def test_a_follow_up_on_a_roll_it_cannot_follow_is_refused() -> None:
    """Willpower spent to succeed follows up a Willpower roll that did not botch, holding
    that roll's dice; an experience die follows up an action or Willpower roll."""
    campaign, source = world("maelstrom")
    gm = campaign.created_by
    roll = willpower_rolled(source)
    action = systems.for_campaign(campaign).roll_actions["willpower-spend"]
    roll_services.roll_act(roll=roll, action=action, data={}, by=gm, rng=random.Random(1))
    document = json.loads(document_json(export_character(source)))
    spend_place = next(i for i, r in enumerate(document["rolls"], start=1)
                       if r["kind"] == "willpower_spend")
    action_roll = next(r for r in document["rolls"] if r["kind"] == "action")

    onto_an_action = copy.deepcopy(document)
    onto_an_action["rolls"][spend_place - 1]["parent"] = action_roll["id"]
    refused(lambda: import_character(onto_an_action, campaign, source.owner),
            "follows up a roll of kind 'Willpower', not 'Action'")

    another_roll = copy.deepcopy(document)
    forged_spend = another_roll["rolls"][spend_place - 1]
    forged_spend["result"] = copy.deepcopy(action_roll["result"])
    forged_spend["pool"] = copy.deepcopy(action_roll["pool"])
    refused(lambda: import_character(another_roll, campaign, source.owner),
            f"Roll {spend_place}", "it is not the Willpower roll it cancels")


# --- the review page never shows a forged claim -------------------------------------------------


def upload(document: dict[str, Any]) -> SimpleUploadedFile:
    return SimpleUploadedFile("forged.sheetkeeper.json", document_json(document).encode(),
                              content_type="application/json")


def test_a_players_forged_roll_never_reaches_the_gms_review(
        client_for: Callable[..., Client]) -> None:
    """Before, the file imported awaiting the GM and the review page listed "9 successes"
    for two dice showing 1; now the player is told which roll is refused, and nothing is
    written: no character, no review, no roll."""
    campaign, source = world("maelstrom")
    willpower_rolled(source)

    def boast(roll: dict[str, Any]) -> None:
        roll["summary"] = "9 successes"
        roll["outcome"] = "success"
    document, place = forged(source, "willpower", boast)
    characters, rolls = Character.objects.count(), Roll.objects.count()

    response = client_for(source.owner).post(
        reverse("transfer:character-import", args=[campaign.pk]), {"file": upload(document)})

    assert response.status_code == 200
    page = response.content.decode()
    assert f"Roll {place} (&#x27;Willpower" in page
    assert "the log shows the outcome &#x27;success&#x27;" in page
    assert (Character.objects.count(), Roll.objects.count()) == (characters, rolls)
    assert not CharacterImport.objects.exists()
    assert not Roll.objects.filter(summary="9 successes").exists()


# --- every roll the app makes passes ------------------------------------------------------------


class LoadedDice(random.Random):
    """Dice that land on their highest face (and on their lowest) far more often than fair
    ones, so that a few dozen rolls bring exploding tens in chains, an experience die's
    chain, criticals, standard successes, opportunities and botches."""

    def randint(self, a: int, b: int) -> int:
        draw = self.random()
        if draw < 0.35:
            return b
        if draw < 0.5:
            return a
        return super().randint(a, b)


ROUNDS = 12
"""Rolls of each kind (and of each variant of a kind) a system makes below."""


def dialog_rolls(character: Character, data: dict[str, Any], rng: random.Random) -> None:
    """:data:`ROUNDS` rolls of the dialog's ``data``, each from the character's sheet as it
    was (a roll may spend what the next one needs: plot points, willpower)."""
    sheet = copy.deepcopy(character.sheet)
    for _ in range(ROUNDS):
        Character.objects.filter(pk=character.pk).update(sheet=sheet)
        fresh = Character.objects.select_related("campaign").get(pk=character.pk)
        form = systems.for_campaign(fresh.campaign).roll_form(fresh, data)
        assert form.is_valid(), form.errors
        roll_services.roll_create(character=fresh, data=form.cleaned_data, by=fresh.owner,
                                  rng=rng)
    Character.objects.filter(pk=character.pk).update(sheet=sheet)


def follow_ups(character: Character, of: str, action: str,
               data: Callable[[Roll], dict[str, Any] | None], rng: random.Random) -> None:
    """The follow-up ``action`` on each roll of kind ``of`` that takes it (``data`` gives
    its form's data, or ``None`` for a roll that does not take it), each from the sheet as
    it was."""
    sheet = copy.deepcopy(character.sheet)
    roll_action = systems.for_campaign(character.campaign).roll_actions[action]
    for roll in character.rolls.filter(kind=of, parent__isnull=True, followups__isnull=True):
        values = data(roll)
        if values is None:
            continue
        Character.objects.filter(pk=character.pk).update(sheet=sheet)
        form = roll_action.form(values)
        assert form.is_valid(), form.errors
        roll_services.roll_act(roll=roll, action=roll_action, data=form.cleaned_data,
                               by=character.owner, rng=rng)
    Character.objects.filter(pk=character.pk).update(sheet=sheet)


def maelstrom_rolls(campaign: Campaign, character: Character, rng: random.Random) -> None:
    """Actions with and without a specialty (exploding tens), Willpower and soak rolls, an
    experience die on actions and Willpower rolls, willpower spent on others."""
    form = systems.for_campaign(campaign).roll_form(character)
    specialty = str(form.fields["specialty"].choices[0][0])
    dialog_rolls(character, {"kind": "action", "trait": [specialty.split(":")[0], "Precision"],
                             "specialty": [specialty], "difficulty": "6", "threshold": "0"},
                 rng)
    dialog_rolls(character, {"kind": "action", "trait": ["Precision", "Driving"],
                             "difficulty": "7", "threshold": "1"}, rng)
    dialog_rolls(character, {"kind": "willpower", "difficulty": "6", "threshold": "0"}, rng)
    dialog_rolls(character, {"kind": "soak", "damage_kind": "lethal", "armor": "2",
                             "difficulty": "6", "threshold": "0"}, rng)
    character_services.xp_award(character=character, amount=100, reason="For the dice",
                                by=campaign.created_by)
    character.refresh_from_db()

    def spend(roll: Roll) -> dict[str, Any] | None:
        return {} if roll.outcome != "botch" and roll.pk % 2 else None

    def experience(roll: Roll) -> dict[str, Any] | None:
        return {"key": experience_die_keys(roll)[0][0]} if roll.outcome != "botch" else None
    follow_ups(character, RollKind.WILLPOWER, "willpower-spend", spend, rng)
    for kind in (Roll.Kind.ACTION, RollKind.WILLPOWER):
        follow_ups(character, kind, "experience-die", experience, rng)


def shahquest_rolls(campaign: Campaign, character: Character, rng: random.Random) -> None:
    """Rolls from the sheet, each followed by a choice of dice other than the preselected
    one where the dice allow it, and the GM's general danger with and without a setting
    die and complications."""
    dialog_rolls(character, dict(fixtures_for("shahquest").roll_pool), rng)

    def choice(roll: Roll) -> dict[str, Any] | None:
        effort, effect = roll.result["effort_dice"], roll.result["effect_dice"]
        if len(effort) == 2 and effect:  # the effect die for effort, an effort die for effect
            effort, effect = [effort[0], effect[0]], [effort[1]]
        return {"effort": [str(i) for i in effort], "effect": [str(i) for i in effect]}
    follow_ups(character, Roll.Kind.ACTION, "choose", choice, rng)
    system = systems.for_campaign(campaign)
    for data in ({"setting_die": None, "complications": "", "note": "", "gm_only": False},
                 {"setting_die": 8, "complications": "d6 d4", "note": "", "gm_only": True}):
        for _ in range(ROUNDS):
            campaign, _, _ = campaign_system_change(
                campaign=campaign, action=system.campaign_actions["tension-danger"],
                data=dict(data), by=campaign.created_by, rng=rng)


def three_d6_rolls(campaign: Campaign, character: Character, rng: random.Random) -> None:
    """Tests with favor and disfavor, and contests against an NPC."""
    dialog_rolls(character, dict(fixtures_for("three_d6").roll_pool), rng)
    dialog_rolls(character, {"mode": "test", "target": "t1", "td": "10", "situational": "2",
                             "favor": "2", "disfavor": "0"}, rng)
    dialog_rolls(character, {"mode": "test", "target": "t0", "td": "8", "situational": "0",
                             "favor": "0", "disfavor": "3"}, rng)
    dialog_rolls(character, {
        "mode": "contest", "target": "t0", "td": "", "situational": "0", "favor": "0",
        "disfavor": "0", "opponent": NPC, "npc_name": "Dock guard", "npc_modifier": "3",
        "npc_rating": "1", "opponent_favor": "1", "opponent_disfavor": "0",
        "defender": "opponent", "opponent_target": ""}, rng)


def dialog_only(slug: str) -> Callable[[Campaign, Character, random.Random], None]:
    """The system's roll dialog's pool of the shared suites, rolled again and again."""
    def make(campaign: Campaign, character: Character, rng: random.Random) -> None:
        dialog_rolls(character, dict(fixtures_for(slug).roll_pool), rng)
    return make


ROLLS: dict[str, Callable[[Campaign, Character, random.Random], None]] = {
    "maelstrom": maelstrom_rolls,
    "shahquest": shahquest_rolls,
    "shattered_world": dialog_only("shattered_world"),
    "genesys": dialog_only("genesys"),
    "three_d6": three_d6_rolls,
}
"""How each system's rolls are made here, through the services its pages call; the NPC quick
roll is every system's."""


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_roll_the_app_makes_passes_its_own_check(slug: str) -> None:
    campaign, character = world(slug)
    rng = LoadedDice(31)
    ROLLS[slug](campaign, character, rng)
    module = registry.get(slug).module
    assert module is not None
    for text in module.QUICK_ROLL_EXAMPLES:
        for _ in range(ROUNDS):
            roll_services.npc_roll_create(campaign=campaign, text=text, gm_only=False,
                                          by=campaign.created_by, rng=rng)
    rolls = list(Roll.objects.filter(campaign=campaign).select_related("parent"))
    # Every kind the system's rolls come in (its import schema lists them all).
    assert {roll.kind for roll in rolls} == set(import_schema(slug).rolls)
    for roll in rolls:
        checks.check_roll(roll, roll.parent)
    if slug == "maelstrom":  # the loaded dice brought chains of tens, checked above
        assert any(len(r.result["bonus_dice"]) > 2 for r in rolls)
        assert any(len(r.result["experience_die"]) > 1 for r in rolls)
