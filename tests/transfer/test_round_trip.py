"""Export, import, export again: the same document, for every demo character and campaign,
and the same rows in the database (Sheetkeeper issue 7, "No lost data")."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.db.models import Sum

import systems
from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters.ledger import banked_xp
from characters.models import Character, XpEntry
from characters.services import xp_undo
from rolls.models import RequestedRoll, Roll
from rulesets import registry
from tests.factories import UserFactory
from tests.system_fixtures import fixtures_for
from tests.transfer.rich_demo import spend_cheapest
from transfer.export import document_json, export_campaign, export_character
from transfer.format import FIELDS, LINKS
from transfer.imports import import_campaign, import_character, import_decide

USER_KEYS = ("owner", "created_by", "rolled_by", "requested_by", "actor")


def through_a_file(document: dict[str, Any]) -> Any:
    """The document as a file holds it and an upload reads it back."""
    return json.loads(document_json(document))


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """The document without the moment it was made."""
    return {key: value for key, value in document.items() if key != "exported_at"}


def as_imported(document: dict[str, Any]) -> dict[str, Any]:
    """The document an import should give back, users aside: every roll and activity entry
    marked imported (the server that imports a file rolled and saw none of them)."""
    result = copy.deepcopy(comparable(document))
    for row in (*result.get("rolls", []), *result.get("activity", [])):
        row["imported"] = True
    return result


def as_imported_by(document: dict[str, Any], username: str) -> dict[str, Any]:
    """The document an import by ``username`` should give back: every recorded username is
    theirs (users do not travel), and a campaign seats them alone, as GM, on the GM seat's
    date; every roll is marked imported."""
    result = as_imported(document)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                if key in USER_KEYS:
                    # An activity entry's actor may be none: the server's own change.
                    node[key] = username if node[key] is not None else None
                else:
                    walk(node[key])
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for key in ("character", "characters", "rolls", "requested_rolls", "activity"):
        walk(result.get(key))
    if "campaign" in result:
        result["campaign"]["created_by"] = username
        gm_seat = next(m for m in result["campaign"]["members"] if m["role"] == "gm")
        result["campaign"]["members"] = [{**gm_seat, "username": username}]
    return result


def with_a_players_creation_marks(document: dict[str, Any]) -> dict[str, Any]:
    """A character document as a player's import gives it back: a ledger entry keeps its
    creation mark only when its kind is one its system's creation alone writes (a player's
    file cannot make a purchase or an award the creation's)."""
    result = copy.deepcopy(document)
    kinds = systems.for_ruleset(result["system"]).creation_entry_kinds
    for entry in result["character"]["xp_entries"]:
        entry["at_creation"] = entry["at_creation"] and entry["kind"] in kinds
    return result


def rows(queryset: Any, model: type) -> list[tuple[Any, ...]]:
    """The rows' exported columns, but a roll's ``imported`` mark, which an import sets
    (checked on its own: :func:`assert_all_imported`)."""
    return list(queryset.order_by("pk").values_list(
        *(name for name in FIELDS[model] if name != "imported")))


def assert_all_imported(rolls: Any) -> None:
    assert not rolls.filter(imported=False).exists()


def assert_same_character(imported: Character, source: Character, *, by_gm: bool = True
                          ) -> None:
    """Row by row: the columns and sheet (a Maelstrom character's traits, merits and flaws and
    tracks among it), balances and ledger sums, the ledger's links, and every roll with its
    whole result. Imported ``by_gm`` it keeps the GM's notes and the ledger's creation marks;
    otherwise it has no GM notes and only the creation's kinds keep their marks."""
    imported = Character.objects.get(pk=imported.pk)
    source = Character.objects.get(pk=source.pk)
    for name in FIELDS[Character]:
        if name == "gm_notes" and not by_gm:
            assert imported.gm_notes == "", "a player's import brings no GM notes"
            continue
        assert getattr(imported, name) == getattr(source, name), name
    sums = ("available_delta", "total_delta", "banked_delta")
    assert (imported.xp_entries.aggregate(*(Sum(s) for s in sums))
            == source.xp_entries.aggregate(*(Sum(s) for s in sums)))
    assert banked_xp(imported) == banked_xp(source)
    if by_gm:
        assert rows(imported.xp_entries, XpEntry) == rows(source.xp_entries, XpEntry)
    else:
        kinds = systems.for_campaign(source.campaign).creation_entry_kinds
        marked = [{**row, "at_creation": row["at_creation"] and row["kind"] in kinds}
                  for row in source.xp_entries.order_by("pk").values(*FIELDS[XpEntry])]
        assert list(imported.xp_entries.order_by("pk").values(*FIELDS[XpEntry])) == marked, (
            "a player's import keeps the creation marks of the creation's kinds only")

    def reversals(character: Character) -> list[int | None]:
        ids = list(character.xp_entries.order_by("pk").values_list("pk", flat=True))
        return [None if r is None else ids.index(r) for r in
                character.xp_entries.order_by("pk").values_list("reverses", flat=True)]

    assert reversals(imported) == reversals(source)
    assert rows(imported.rolls, Roll) == rows(source.rolls, Roll)
    assert_all_imported(imported.rolls)
    assert (list(imported.rolls.order_by("pk").values_list("parent__kind", "parent__net"))
            == list(source.rolls.order_by("pk").values_list("parent__kind", "parent__net")))
    assert rows(imported.requested_rolls, RequestedRoll) == rows(source.requested_rolls,
                                                                  RequestedRoll)
    assert (list(imported.requested_rolls.order_by("pk").values_list("answer__result"))
            == list(source.requested_rolls.order_by("pk").values_list("answer__result")))


@pytest.fixture(params=["demo", "rich_demo"])
def campaigns(request: pytest.FixtureRequest) -> list[Campaign]:
    """The demo as loaded, and the demo with every kind of link."""
    return request.getfixturevalue(request.param)


@pytest.mark.django_db
def test_every_model_column_is_exported_or_said_how_it_travels() -> None:
    for model, names in FIELDS.items():
        columns = {column.name for column in model._meta.concrete_fields}
        assert columns == set(names) | set(LINKS[model]), model.__name__
        assert not set(names) & set(LINKS[model]), model.__name__


@pytest.mark.django_db
def test_the_rich_demo_has_every_kind_of_link_in_every_campaign(rich_demo: list[Campaign]
                                                                 ) -> None:
    """The fixture the round trips use really holds what they claim to carry."""
    for campaign in rich_demo:
        entries = XpEntry.objects.filter(character__campaign=campaign)
        assert entries.filter(reverses__isnull=False).exists(), campaign.ruleset
        assert entries.filter(session__isnull=False).exists(), campaign.ruleset
        assert campaign.rolls.filter(gm_only=True, character__isnull=True).exists()
        assert campaign.requested_rolls.filter(answer__isnull=False).exists()
        assert campaign.requested_rolls.filter(answer__isnull=True).exists()
        if fixtures_for(campaign.ruleset).rich_demo_follow_up is not None:
            assert campaign.rolls.filter(parent__isnull=False).exists(), campaign.ruleset
    shahquest = next(c for c in rich_demo if c.ruleset == "shahquest")
    assert shahquest.system_data["last_danger"]["roll_id"]


@pytest.mark.django_db
def test_every_demo_campaign_comes_back_the_same_under_its_new_gm(
        campaigns: list[Campaign]) -> None:
    dana = UserFactory(username="dana")
    assert sorted(c.ruleset for c in campaigns) == sorted(registry.RULESETS)  # one each
    for source in campaigns:
        document = export_campaign(source)
        imported = import_campaign(through_a_file(document), dana)
        again = export_campaign(imported)
        assert comparable(again) == as_imported_by(document, "dana"), source.ruleset
        assert imported.pk != source.pk
        assert imported.created_by == dana
        assert list(imported.memberships.values_list("user__username", "role")) == [
            ("dana", "gm")]
        assert imported.invite_token and imported.invite_token != source.invite_token
        pairs = zip(imported.characters.order_by("pk"), source.characters.order_by("pk"),
                    strict=True)
        for new, old in pairs:
            assert new.owner == dana
            assert_same_character(new, old)
        assert rows(imported.rolls, Roll) == rows(source.rolls, Roll)
        assert rows(imported.sessions, type(source.sessions.model())) == rows(
            source.sessions, type(source.sessions.model()))


@pytest.mark.django_db
@pytest.mark.parametrize("by", ["owner", "gm"])
def test_every_demo_character_comes_back_the_same_in_its_own_campaign(
        campaigns: list[Campaign], by: str) -> None:
    """Exported and imported by its owner (no GM notes in either file) or by its GM (GM notes
    and GM-only rolls in both)."""
    characters = Character.objects.order_by("pk")
    # Two Maelstrom characters, one in each other system.
    assert characters.count() == len(registry.RULESETS) + 1
    for source in list(characters):
        by_gm = by == "gm"
        person = source.campaign.created_by if by_gm else source.owner
        document = export_character(source, for_gm=by_gm)
        assert ("gm_notes" in document["character"]) is by_gm
        imported = import_character(through_a_file(document), source.campaign, person)
        again = export_character(imported, for_gm=by_gm)
        expected = as_imported_by(document, person.username)
        if not by_gm:
            expected = with_a_players_creation_marks(expected)
        assert comparable(again) == expected, source
        assert imported.unlinked_awards == 0
        assert_same_character(imported, source, by_gm=by_gm)


@pytest.mark.django_db
def test_the_administrators_import_keeps_the_recorded_users_on_the_same_installation(
        rich_demo: list[Campaign]) -> None:
    """``import_campaign --keep-users``: the document comes back whole, usernames too."""
    for source in rich_demo:
        document = export_campaign(source)
        imported = import_campaign(through_a_file(document), source.created_by,
                                   keep_users=True)
        assert comparable(export_campaign(imported)) == as_imported(document), source.ruleset
        assert (sorted(imported.memberships.values_list("user__username", "role"))
                == sorted(source.memberships.values_list("user__username", "role")))


@pytest.mark.django_db
def test_a_character_joins_another_campaign_of_its_system_with_everything_but_the_session(
        rich_demo: list[Campaign]) -> None:
    dana, erin = UserFactory(username="dana"), UserFactory(username="erin")
    for source_campaign in rich_demo:
        source = source_campaign.characters.order_by("pk").first()
        target = campaign_create(name="Elsewhere", ruleset=source_campaign.ruleset,
                                 starting_xp=0, gm=dana)
        Membership.objects.create(campaign=target, user=erin)
        document = export_character(source)  # a GM's file: GM notes and all
        imported = import_character(through_a_file(document), target, erin)
        assert imported.campaign == target and imported.owner == erin
        assert imported.gm_notes == "", "erin is not the GM here: the notes stay out"
        # The session was the other campaign's: the award keeps its XP and reason.
        assert imported.unlinked_awards == 1
        assert not target.sessions.exists()
        expected = with_a_players_creation_marks(as_imported_by(document, "erin"))
        expected["sessions"] = []
        expected["character"]["gm_notes"] = ""
        for entry in expected["character"]["xp_entries"]:
            entry["session"] = None
        assert comparable(export_character(imported)) == expected, source_campaign.ruleset


@pytest.mark.django_db
def test_an_award_links_to_the_target_campaigns_session_of_the_same_date_and_title(
        rich_demo: list[Campaign]) -> None:
    source_campaign = rich_demo[0]
    source = source_campaign.characters.order_by("pk").first()
    session = source_campaign.sessions.get(title="Night one")  # the rich demo's, with the award
    document = export_character(source)
    dana = UserFactory(username="dana")
    target = import_campaign(export_campaign(source_campaign), dana)
    imported = import_character(through_a_file(document), target, dana)
    assert imported.unlinked_awards == 0
    award = imported.xp_entries.get(session__isnull=False)
    assert award.session.campaign == target
    assert (award.session.date, award.session.title) == (session.date, session.title)


@pytest.mark.django_db
def test_shahquests_last_general_danger_still_links_its_own_roll(
        rich_demo: list[Campaign]) -> None:
    source = next(c for c in rich_demo if c.ruleset == "shahquest")
    imported = import_campaign(through_a_file(export_campaign(source)),
                               UserFactory(username="dana"))
    old_roll = Roll.objects.get(pk=source.system_data["last_danger"]["roll_id"])
    new_roll = Roll.objects.get(pk=imported.system_data["last_danger"]["roll_id"])
    assert new_roll.campaign == imported
    assert (new_roll.result, new_roll.created_at) == (old_roll.result, old_roll.created_at)


@pytest.mark.django_db
def test_an_imported_ledger_can_still_be_undone_by_its_new_owner(
        rich_demo: list[Campaign]) -> None:
    """The copy is a working ledger, not a picture of one: the owner's latest spend undoes."""
    source = next(c for c in rich_demo if c.ruleset == "genesys").characters.get()
    imported = import_character(through_a_file(export_character(source)), source.campaign,
                                source.owner)
    imported = import_decide(character=imported, accept=True, by=source.campaign.created_by)
    spend = spend_cheapest(imported, by=imported.owner)
    xp_undo(entry=spend, by=imported.owner, as_gm=False)
    imported.refresh_from_db()
    assert imported.xp_available == source.xp_available
