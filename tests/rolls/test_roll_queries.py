"""The roll POST is the table's hottest write: it reads the character once for the permission
check and once under its lock, and writes the roll; a plain roll writes nothing else, and
showing the roll just made asks nothing more (no follow-ups, no request it answers, no second
permission check). Every system's sheet is one JSON column, so a Maelstrom roll costs what a
Shahquest one does (docs/performance.md, "Serving under load")."""

from __future__ import annotations

import pytest

import systems
from characters.models import Character
from rolls.models import RequestedRoll, Roll
from rulesets.maelstrom.storage import RollKind
from tests import shahquest_cast as cast
from tests.factories import CharacterFactory
from tests.helpers import roll_url

pytestmark = pytest.mark.django_db

sq_campaign, demetri = cast.sq_campaign, cast.demetri

ACTION = {"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
          "threshold": "0"}

MAELSTROM_ROLL_QUERIES = 9
"""Session, user, whether the campaign is archived (campaigns/archive.py: one query for any
write inside a campaign), the character with the viewer's role (its sheet: the dialog's
choices); then
in the transaction (a savepoint and its release here, BEGIN/COMMIT in production): the
character locked (its sheet: the pool), the roll inserted, its activity entry inserted
(docs/history.md)."""


@pytest.fixture
def rider(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    return CharacterFactory(campaign=campaign, owner=bob, name="Rider",
                            specialties=[("Driving", "Cars", False)])


def test_a_plain_roll_takes_nine_queries_and_leaves_the_character_row_alone(
    rider, bob, client_for, seeded_rng, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    before = Character.objects.values().get(pk=rider.pk)
    client = client_for(bob, htmx=True)
    with django_assert_num_queries(MAELSTROM_ROLL_QUERIES) as queries:
        response = client.post(roll_url(rider), ACTION)
    roll = Roll.objects.get(character=rider)
    assert response.headers["HX-Trigger"] == f'{{"rollMade": {{"id": "{roll.code}"}}}}'
    assert str(systems.for_ruleset(roll.ruleset).roll_header(roll)) in response.content.decode()
    # The result offers the experience die: the player may act on a roll just made.
    assert "Add an experience die" in response.content.decode()
    assert not any(q["sql"].startswith("UPDATE") for q in queries.captured_queries)
    assert Character.objects.values().get(pk=rider.pk) == before


def test_the_gms_roll_for_a_character_takes_as_few(
    rider, alice, client_for, seeded_rng, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice, htmx=True)
    with django_assert_num_queries(MAELSTROM_ROLL_QUERIES):
        response = client.post(roll_url(rider), ACTION)
    assert "Add an experience die" in response.content.decode()


@pytest.mark.parametrize("merits", [(), ({"kind": "merit", "name": "Strong Bond",
                                           "points": 2},)], ids=["no merit", "Strong Bond"])
def test_a_willpower_roll_reads_the_merits_from_the_sheet_in_as_few(
    merits, campaign, bob, client_for, scripted_dice, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    bonded = CharacterFactory(campaign=campaign, owner=bob, merits_flaws=merits)
    scripted_dice([7, 8, 9])  # no botch: willpower stays, the character row too
    client = client_for(bob, htmx=True)
    with django_assert_num_queries(MAELSTROM_ROLL_QUERIES) as queries:
        client.post(
            roll_url(bonded), {"kind": "willpower", "difficulty": "6", "threshold": "0"})
    roll = Roll.objects.get(character=bonded)
    assert roll.kind == RollKind.WILLPOWER
    # A Strong Bond adds a success to a Willpower roll (Maelstrom rules.md, Merits).
    assert (roll.pool["automatic_successes"], roll.net) == (len(merits), 3 + len(merits))
    assert not any(q["sql"].startswith("UPDATE") for q in queries.captured_queries)


def test_answering_the_gms_request_shows_it_without_asking_again(
    rider, alice, bob, client_for, seeded_rng, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    requested = RequestedRoll.objects.create(
        campaign=rider.campaign, character=rider, requested_by=alice,
        data={"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
              "threshold": "0"}, description="Precision + Driving, difficulty 6")
    client = client_for(bob, htmx=True)
    # + the request locked, + its answer written
    with django_assert_num_queries(MAELSTROM_ROLL_QUERIES + 2):
        response = client.post(
            roll_url(rider), {**ACTION, "answers": str(requested.pk)})
    assert "answers the GM's request" in response.content.decode()
    requested.refresh_from_db()
    assert requested.answer == Roll.objects.get(character=rider)


def test_a_shared_layer_roll_takes_nine_queries(
    demetri, bob, client_for, seeded_rng, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    # Session, user, the archive's check, the character with the viewer's role; savepoint,
    # the character locked, the roll inserted, its activity entry inserted, release. The
    # campaign is the one the permission check loaded.
    client = client_for(bob, htmx=True)
    with django_assert_num_queries(9):
        response = client.post(roll_url(demetri), {"feature": ["3"]})
    roll = Roll.objects.get(character=demetri)
    assert roll.ruleset == "shahquest"
    assert "Pick your dice" in response.content.decode()  # the player may choose at once
