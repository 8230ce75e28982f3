"""The Maelstrom upgrade (characters 0005, rolls 0009) as a host meets it.

The test database is taken back to the migrations just before the upgrade, filled through
the historical models with every shape of Maelstrom data the old storage held (the demo's
two characters with traits, specialties, merits and flaws, spent Willpower and damage, a dead
one, a full XP ledger; their rolls and follow-ups, an NPC's quick roll, open and answered
requests), a campaign of 10,000 rolls, and a campaign of another system that must stay as it
is; then migrated forward, and every value is compared with what it was.

It runs on whichever database the suite runs on (``DATABASE_URL``: SQLite by default,
PostgreSQL in CI's second run), and needs a real transaction (the migrations change the
schema), so it is a transactional test.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

from campaigns.models import Campaign
from characters.models import Character, XpEntry
from rolls.models import RequestedRoll, Roll
from rulesets import maelstrom
from tests.migrations.maelstrom_rows import (
    ANA,
    BEN,
    DEMO_REQUESTS,
    GHOST,
    WILLPOWER_SPENT,
    demo_results,
    long_campaign_results,
    merit_rows,
    roll_columns,
    trait_rows,
)

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("characters", "0004_character_review_and_import_record"),
          ("rolls", "0008_roll_imported")]
"""The last migrations of the two apps before the upgrade."""

UPGRADE = [("characters", "0005_maelstrom_sheet"), ("rolls", "0009_maelstrom_results")]

LONG_CAMPAIGN_ROLLS = 10_000
UPGRADE_SECONDS_MAX = 60
"""A guard against a migration that grows worse than linear, not a benchmark: 10,000 rolls
take a few seconds on either database."""


def _executor() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    return executor


def _migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets``; the historical models of everything applied then."""
    _executor().migrate(targets)
    loader = _executor().loader
    return loader.project_state(list(loader.applied_migrations)).apps


def _latest() -> list[tuple[str, str]]:
    return _executor().loader.graph.leaf_nodes()


@pytest.fixture
def old_apps() -> Iterator[Any]:
    """The historical models just before the upgrade; the database is always left at the
    latest migrations afterwards, whatever happened."""
    try:
        yield _migrate(BEFORE)
    finally:
        _executor().migrate(_latest())


# --- The old data ----------------------------------------------------------------------------

def _old_character(apps: Any, campaign: Any, owner: Any, spec: dict[str, Any]) -> Any:
    """A character as the old wizard wrote it: its columns, its Trait rows (one per attribute
    and ability, positions in catalogue order, 0 dots included; one per specialty; one
    refunded) and its MeritFlaw rows (tests/migrations/maelstrom_rows.py)."""
    Character = apps.get_model("characters", "Character")
    Trait = apps.get_model("characters", "Trait")
    MeritFlaw = apps.get_model("characters", "MeritFlaw")
    character = Character.objects.create(campaign=campaign, owner=owner, name=spec["name"],
                                         concept=spec["concept"], **spec["columns"])
    Trait.objects.bulk_create(Trait(character=character, **row) for row in trait_rows(spec))
    MeritFlaw.objects.bulk_create(MeritFlaw(character=character, **row)
                                  for row in merit_rows(spec))
    return character


def _old_ledger(apps: Any, character: Any, owner: Any, gm: Any, starting: int) -> None:
    """Starting XP, the merits' prices and flaws' awards, an award, a spend paid partly from
    the bank, a bank, a spend reversed; the row's sums kept in step as the old code did."""
    XpEntry = apps.get_model("characters", "XpEntry")
    MeritFlaw = apps.get_model("characters", "MeritFlaw")

    def add(**fields: Any) -> Any:
        return XpEntry.objects.create(character=character, created_by=fields.pop("by", owner),
                                      **fields)

    add(kind="starting", available_delta=starting, total_delta=starting, reason="Starting XP")
    for row in MeritFlaw.objects.filter(character=character).order_by("pk"):
        if row.kind == "flaw":
            add(kind="flaw", available_delta=row.points, total_delta=row.points,
                reason=f"Flaw: {row.name}")
        else:
            add(kind="merit", available_delta=-row.points, reason=f"Merit: {row.name}")
    add(kind="award", available_delta=3, total_delta=3, reason="Chapter awards", by=gm)
    add(kind="bank", available_delta=-1, banked_delta=1, trait_key="ability:Alertness",
        bank_key="ability:Alertness", reason="Experience die: Alertness")
    add(kind="spend", available_delta=-2, banked_delta=-1, trait_key="ability:Alertness",
        bank_key="ability:Alertness", rank_from=2, rank_to=3,
        reason="Alertness 2 → 3, 1 XP from the bank")
    spend = add(kind="spend", available_delta=-4, trait_key="willpower", rank_from=3,
                rank_to=4, reason="Willpower 3 → 4")
    add(kind="reversal", available_delta=4, trait_key="willpower", rank_from=4, rank_to=3,
        reverses=spend, reason="Undo: Willpower 3 → 4", by=gm)
    sums = XpEntry.objects.filter(character=character).aggregate(
        available=Sum("available_delta"), total=Sum("total_delta"))
    type(character).objects.filter(pk=character.pk).update(xp_available=sums["available"],
                                                           xp_total=sums["total"])


def _old_roll(apps: Any, character: Any, by: Any, result: maelstrom.RollResult, kind: str,
              parent: Any = None, **verdict: Any) -> Any:
    """A character's roll as the old ``rolls.services._store`` wrote it: faces in the
    columns, ``result`` empty."""
    Roll = apps.get_model("rolls", "Roll")
    return Roll.objects.create(
        campaign_id=character.campaign_id, character=character, rolled_by=by,
        ruleset="maelstrom", kind=kind, parent=parent, description=result.pool.describe(),
        **roll_columns(result, **verdict), result={},
    )


def _old_world(apps: Any) -> dict[str, Any]:
    """Every shape of old Maelstrom data, and another system's campaign beside it."""
    User = apps.get_model("auth", "User")
    Campaign = apps.get_model("campaigns", "Campaign")
    Membership = apps.get_model("campaigns", "Membership")
    RequestedRoll = apps.get_model("rolls", "RequestedRoll")
    Roll = apps.get_model("rolls", "Roll")
    Character = apps.get_model("characters", "Character")
    gm, ana_player, ben_player = (User.objects.create(username=name)
                                  for name in ("demo-gm", "demo-ana", "demo-ben"))
    drift = Campaign.objects.create(name="The Drift (demo)", ruleset="maelstrom",
                                    starting_xp=30, created_by=gm)
    Membership.objects.create(campaign=drift, user=gm, role="gm")
    Membership.objects.create(campaign=drift, user=ana_player, role="player")
    Membership.objects.create(campaign=drift, user=ben_player, role="player")
    ana = _old_character(apps, drift, ana_player, ANA)
    ben = _old_character(apps, drift, ben_player, BEN)
    ghost = _old_character(apps, drift, gm, GHOST)
    for character, owner in ((ana, ana_player), (ben, ben_player), (ghost, gm)):
        _old_ledger(apps, character, owner, gm, drift.starting_xp)

    results = demo_results()
    # Ana: an action with a specialty (exploding tens) and its experience die; a botch.
    action = _old_roll(apps, ana, ana_player, results["ana_action"], "action")
    _old_roll(apps, ana, ana_player, results["ana_experience_die"], "experience_die",
              parent=action)
    _old_roll(apps, ana, ana_player, results["ana_botch"], "action")
    # Ben: a Willpower roll cancelled by spending a dot; a soak; a failure.
    willpower = results["ben_willpower"]
    parent = _old_roll(apps, ben, ben_player, willpower, "willpower")
    _old_roll(apps, ben, ben_player, willpower, "willpower_spend", parent=parent,
              **WILLPOWER_SPENT)
    _old_roll(apps, ben, ben_player, results["ben_soak"], "soak")
    answer = _old_roll(apps, ben, ben_player, results["ben_answer"], "action")
    # An imported roll: faces in the columns like any other.
    imported = _old_roll(apps, ana, ana_player, results["ana_imported"], "action")
    Roll.objects.filter(pk=imported.pk).update(imported=True)
    # The GM's quick roll for an NPC: already stored whole, and faces in the columns too.
    npc = results["npc"]
    data = npc.as_dict()
    Roll.objects.create(campaign=drift, character=None, rolled_by=gm, ruleset="maelstrom",
                        kind="npc", description=f"NPC: {npc.pool.describe()}",
                        pool=data["pool"], dice=data["dice"], bonus_dice=data["bonus_dice"],
                        outcome=npc.outcome, net=npc.net, summary=npc.summary(), result=data,
                        gm_only=True)
    # Requests: an action with threshold, a Willpower one, one answered.
    RequestedRoll.objects.create(campaign=drift, character=ana, requested_by=gm,
                                 **DEMO_REQUESTS["outrun"], note="Outrun the patrol")
    RequestedRoll.objects.create(campaign=drift, character=ben, requested_by=gm,
                                 **DEMO_REQUESTS["willpower"])
    RequestedRoll.objects.create(campaign=drift, character=ben, requested_by=gm,
                                 **DEMO_REQUESTS["answered"], answer=answer)

    # A long campaign: 10,000 rolls of one character, written in bulk.
    long = Campaign.objects.create(name="The Long Haul", ruleset="maelstrom", starting_xp=30,
                                   created_by=gm)
    veteran = _old_character(apps, long, ana_player, {**ANA, "name": "Veteran"})
    _old_ledger(apps, veteran, ana_player, gm, long.starting_xp)
    rows = [Roll(campaign=long, character=veteran, rolled_by=ana_player, ruleset="maelstrom",
                 kind=result.pool.kind, description=result.pool.describe(),
                 **roll_columns(result), result={})
            for result in long_campaign_results(LONG_CAMPAIGN_ROLLS)]
    Roll.objects.bulk_create(rows, batch_size=1000)

    # Another system's campaign: its sheet, roll and request stay exactly as they are.
    other = Campaign.objects.create(name="Stonehold", ruleset="three_d6", starting_xp=0,
                                    created_by=gm, system_data={"traits": ["Might", "Wit"]})
    hero = Character.objects.create(
        campaign=other, owner=ana_player, name="Hero",
        sheet={"traits": {"Might": 2, "Wit": 1}, "willpower": 7, "hit_points": 9})
    Roll.objects.create(campaign=other, character=hero, rolled_by=ana_player,
                        ruleset="three_d6", kind="check", description="Might +2 vs 12",
                        pool={"modifier": 2}, outcome="success", net=0, summary="14 vs 12",
                        result={"system": "three_d6", "dice": [4, 5, 3], "total": 14})
    RequestedRoll.objects.create(campaign=other, character=hero, requested_by=gm,
                                 data={"trait": "Might", "target": "12"},
                                 description="Might vs 12")
    return {"campaigns": [drift.pk, long.pk], "other": other.pk, "hero": hero.pk}


# --- What there was, and what there is ---------------------------------------------------------


def _old_sheet(apps: Any, character: Any) -> dict[str, Any]:
    Trait = apps.get_model("characters", "Trait")
    MeritFlaw = apps.get_model("characters", "MeritFlaw")
    traits = Trait.objects.filter(character=character)
    return {
        "attributes": {t.name: t.dots for t in traits.filter(kind="attribute")},
        "abilities": {t.name: t.dots for t in traits.filter(kind="ability")},
        "specialties": [(t.ability, t.name, t.advanced)
                        for t in traits.filter(kind="specialty", dots__gt=0).order_by("pk")],
        "merits_flaws": sorted((m.kind, m.name, m.points, m.detail)
                               for m in MeritFlaw.objects.filter(character=character)),
        "willpower": (character.willpower_permanent, character.willpower_current),
        "health": (character.health_bashing, character.health_lethal,
                   character.health_aggravated, character.dead, character.huge_size),
    }


def _new_sheet(character: Character) -> dict[str, Any]:
    """The stored sheet, read key by key (tests/systems/maelstrom/test_legacy_frozen.py reads
    the same conversion's sheets through the live Maelstrom sheet); its health counts must
    fit the engine's chart."""
    sheet = character.sheet
    willpower, health = sheet["willpower"], sheet["health"]
    chart = maelstrom.HealthChart(**health)
    return {
        "attributes": dict(sheet["attributes"]),
        "abilities": dict(sheet["abilities"]),
        "specialties": [(s["ability"], s["name"], s["advanced"]) for s in sheet["specialties"]],
        "merits_flaws": [(m["kind"], m["name"], m["points"], m["detail"])
                         for m in sheet["merits_flaws"]],
        "willpower": (willpower["permanent"], willpower["current"]),
        "health": (chart.bashing, chart.lethal, chart.aggravated, chart.dead, chart.huge_size),
    }


_LEDGER_FIELDS = ("pk", "character_id", "kind", "available_delta", "total_delta",
                  "banked_delta", "trait_key", "bank_key", "rank_from", "rank_to", "reason",
                  "reverses_id", "created_by_id", "session_id", "created_at")


def _ledger(model: Any, character_pk: int) -> list[tuple[Any, ...]]:
    return list(model.objects.filter(character_id=character_pk).order_by("pk")
                .values_list(*_LEDGER_FIELDS))


def _before(apps: Any, world: dict[str, Any]) -> dict[str, Any]:
    Character = apps.get_model("characters", "Character")
    XpEntry = apps.get_model("characters", "XpEntry")
    Roll = apps.get_model("rolls", "Roll")
    characters = {}
    for character in Character.objects.filter(campaign_id__in=world["campaigns"]):
        characters[character.pk] = {
            "sheet": _old_sheet(apps, character), "xp": (character.xp_available,
                                                        character.xp_total),
            "ledger": _ledger(XpEntry, character.pk),
        }
    rolls = {}
    for campaign in world["campaigns"]:
        rows = Roll.objects.filter(campaign_id=campaign).order_by("pk")
        rolls[campaign] = {
            "count": rows.count(),
            "verdicts": Counter(rows.values_list("kind", "outcome", "net", "summary")),
            "dice": {r.pk: (r.dice, r.bonus_dice, r.experience_die, r.botches) for r in rows},
            "npc": {r.pk: r.result for r in rows.filter(kind="npc")},
        }
    return {"characters": characters, "rolls": rolls}


# --- The test ------------------------------------------------------------------------------


def test_the_upgrade_keeps_every_maelstrom_value(old_apps: Any) -> None:
    world = _old_world(old_apps)
    before = _before(old_apps, world)
    assert sum(r["count"] for r in before["rolls"].values()) > LONG_CAMPAIGN_ROLLS
    Hero = old_apps.get_model("characters", "Character")
    OldRoll = old_apps.get_model("rolls", "Roll")
    OldRequest = old_apps.get_model("rolls", "RequestedRoll")
    hero_sheet = Hero.objects.get(pk=world["hero"]).sheet
    other_rolls = list(OldRoll.objects.filter(campaign_id=world["other"])
                       .values_list("pk", "result", "pool", "outcome", "net", "summary"))
    other_requests = list(OldRequest.objects.filter(campaign_id=world["other"])
                          .values_list("pk", "data", "description", "note"))

    seconds = {}
    for target in UPGRADE:
        started = time.perf_counter()
        _executor().migrate([target])
        seconds[target[0]] = time.perf_counter() - started
    _executor().migrate(_latest())
    print(f"\nUpgrade on {connection.vendor}: characters 0005 {seconds['characters']:.2f} s, "
          f"rolls 0009 {seconds['rolls']:.2f} s ({LONG_CAMPAIGN_ROLLS:,} rolls and more)")
    assert sum(seconds.values()) < UPGRADE_SECONDS_MAX

    # Characters: the same sheet, XP and ledger.
    for pk, old in before["characters"].items():
        character = Character.objects.get(pk=pk)
        assert _new_sheet(character) == old["sheet"]
        assert set(character.sheet) == {"attributes", "abilities", "specialties",
                                        "merits_flaws", "willpower", "health"}
        assert set(character.sheet["abilities"]) == set(maelstrom.ABILITIES)
        assert (character.xp_available, character.xp_total) == old["xp"]
        sums = character.xp_entries.aggregate(available=Sum("available_delta"),
                                              total=Sum("total_delta"))
        assert (character.xp_available, character.xp_total) == (sums["available"],
                                                                sums["total"])
        assert _ledger(XpEntry, pk) == old["ledger"]
    ben = Character.objects.get(name="Ben Okafor")
    assert {"kind": "merit", "name": "Huge Size", "points": 4,
            "detail": ""} in ben.sheet["merits_flaws"]
    assert maelstrom.HealthChart(**ben.sheet["health"]).boxes == 9
    assert Character.objects.get(name="Ghost").sheet["health"]["dead"] is True

    # Rolls: as many, the same verdicts, the same faces, now in the result.
    for campaign, old in before["rolls"].items():
        rows = Roll.objects.filter(campaign_id=campaign).order_by("pk")
        assert rows.count() == old["count"]
        assert Counter(rows.values_list("kind", "outcome", "net", "summary")) == old["verdicts"]
        for roll in rows.select_related("parent"):
            dice, bonus, experience, botches = old["dice"][roll.pk]
            result = roll.result
            assert (result["dice"], result["bonus_dice"]) == (dice, bonus)
            if roll.kind == "npc":
                # Already whole: left as it was (its old botches column was never set).
                assert result == old["npc"][roll.pk]
                continue
            assert result["resolution"]["botches"] == botches
            assert result["experience_die"] == experience
            assert roll.pool == result["pool"]
            read = maelstrom.RollResult.from_dict(result)
            assert read.as_dict() == result
            assert result["summary"] == read.summary()
            if roll.kind == "willpower_spend":
                # The spend's result is its parent's; its own verdict stays in the row.
                assert result == roll.parent.result
                assert (roll.outcome, roll.net) == ("success", 4)
            else:
                assert (read.outcome, read.net, read.summary()) == (roll.outcome, roll.net,
                                                                     roll.summary)

    # Requests: the roll dialog's data and the old words.
    requests = {r.note or r.description: r
                for r in RequestedRoll.objects.filter(campaign_id=world["campaigns"][0])}
    assert [(r.data, r.description) for r in requests.values()] == [
        ({"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "7",
          "threshold": "1"}, "Precision + Driving, difficulty 7, threshold 1"),
        ({"kind": "willpower", "trait": [], "difficulty": "8", "threshold": "0"},
         "Willpower, difficulty 8"),
        ({"kind": "action", "trait": ["Intelligence", "Medicine"], "difficulty": "6",
          "threshold": "0"}, "Intelligence + Medicine, difficulty 6"),
    ]
    outrun = requests["Outrun the patrol"]
    assert outrun.describe() == "Precision + Driving, difficulty 7, threshold 1"
    # jsonb keeps no key order: the dialog's fields are read by name, so order is free.
    assert sorted(outrun.prefill()) == [("difficulty", "7"), ("kind", "action"),
                                        ("threshold", "1"), ("trait", "Driving"),
                                        ("trait", "Precision")]
    assert RequestedRoll.objects.filter(answer__isnull=False).get().answer.kind == "action"

    # Another system: untouched.
    assert Character.objects.get(pk=world["hero"]).sheet == hero_sheet
    assert list(Roll.objects.filter(campaign_id=world["other"]).values_list(
        "pk", "result", "pool", "outcome", "net", "summary")) == other_rolls
    assert list(RequestedRoll.objects.filter(campaign_id=world["other"]).values_list(
        "pk", "data", "description", "note")) == other_requests
    assert Campaign.objects.get(pk=world["other"]).system_data == {"traits": ["Might", "Wit"]}

    # The Willpower rule now holds on the sheet, in the database itself.
    ana = Character.objects.get(name="Ana Reyes")
    broken = {**ana.sheet, "willpower": {"permanent": 4, "current": 5}}
    with pytest.raises(IntegrityError), transaction.atomic():
        Character.objects.filter(pk=ana.pk).update(sheet=broken)


def test_going_back_is_refused_once_there_is_maelstrom_data(old_apps: Any) -> None:
    _old_world(old_apps)
    _executor().migrate(_latest())
    with pytest.raises(RuntimeError, match="forward-only"):
        _executor().migrate(BEFORE)
    assert Character.objects.filter(campaign__ruleset="maelstrom").count() == 4
