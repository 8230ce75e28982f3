"""Maelstrom's table readings (rulesets/maelstrom/readings.py): under the defaults the seed's
worked examples hold (the rest of this folder), and under each alternative a worked case
differs as the reading says; the odds under each alternative agree with icepool on small
pools and with the engine's own dice over 200,000 rolls."""

from __future__ import annotations

import math
import random
from collections import Counter

import icepool
import pytest

from rulesets import maelstrom as m
from rulesets.errors import RuleError
from rulesets.maelstrom.readings import MaelstromReadings
from rulesets.readings import Readings
from tests.rulesets.maelstrom.test_maelstrom_odds import BOTCH, SUCCESS, _icepool_bonus

FIREARMS = m.TraitRef("Firearms", "ability", 2)
PRECISION = m.TraitRef("Precision", "attribute", 3)
PISTOLS = m.SpecialtyRef("Pistols", "Firearms", advanced=False)


def _readings(**values: str) -> MaelstromReadings:
    return MaelstromReadings.from_values(values)


# --- the readings themselves ------------------------------------------------------------------


def test_the_defaults_are_the_first_choices_and_store_nothing() -> None:
    seed = MaelstromReadings()
    assert seed.values() == {r.key: r.choices[0].value for r in MaelstromReadings.READINGS}
    assert seed.changed() == {}
    assert _readings(tens_explode="always").changed() == {"tens_explode": "always"}


@pytest.mark.parametrize("values", [{"tens_explode": "sometimes"}, {"tens_explode_": "always"}])
def test_a_reading_the_system_does_not_offer_is_refused_by_name(values: dict[str, str]) -> None:
    with pytest.raises(RuleError, match="tens_explode|Exploding tens"):
        MaelstromReadings.from_values(values)
    # What this server stored and no longer offers reads as the seed's reading.
    assert MaelstromReadings.from_values(values, strict=False) == MaelstromReadings()


def test_every_systems_readings_are_its_fields_each_defaulting_to_its_first_choice() -> None:
    from rulesets.registry import RULESETS

    for slug, ruleset in RULESETS.items():
        assert ruleset.module is not None, slug
        cls: type[Readings] = ruleset.module.READINGS
        fields = list(cls().values())
        assert fields == [r.key for r in cls.READINGS], slug
        for reading in cls.READINGS:
            assert getattr(cls(), reading.key) == reading.default, (slug, reading.key)
            assert len({c.value for c in reading.choices}) == len(reading.choices) >= 2


# --- a worked case each -----------------------------------------------------------------------


def test_tens_explode_without_a_specialty_when_the_table_says_so() -> None:
    seed = m.build_action_pool(traits=[PRECISION, FIREARMS])
    always = m.build_action_pool(traits=[PRECISION, FIREARMS],
                                 readings=_readings(tens_explode="always"))
    assert (seed.exploding, always.exploding) == (False, True)
    assert "Exploding tens without a specialty (table reading)" in always.notes
    # A 10 among five dice brings two bonus dice only under the house rule.
    faces = iter([10, 3, 4, 5, 2, 7, 8])
    rng = random.Random()
    rng.randint = lambda low, high: next(faces)  # type: ignore[method-assign]
    rolled = m.roll(always, rng)
    assert rolled.bonus_dice == (7, 8)
    assert rolled.net == 3
    # Soak rolls still never explode (Maelstrom rules.md, Soaking Damage).
    assert not m.build_soak_pool(damage_kind="bashing", strength=2).exploding


def test_a_specialty_roll_of_ones_fails_instead_of_botching_under_the_house_rule() -> None:
    seed = m.build_action_pool(traits=[PRECISION, FIREARMS], specialties=[PISTOLS])
    kept = m.build_action_pool(traits=[PRECISION, FIREARMS], specialties=[PISTOLS],
                               readings=_readings(specialty_botch="no_botch"))
    dice = (1, 1, 3, 4, 5)
    assert _outcome(seed, dice) == "botch"
    assert _outcome(kept, dice) == "failure"
    # Without a specialty the reading changes nothing.
    plain = m.build_action_pool(traits=[PRECISION, FIREARMS],
                                readings=_readings(specialty_botch="no_botch"))
    assert plain.botches and _outcome(plain, dice) == "botch"


@pytest.mark.parametrize(
    ("strong_bond", "dice", "threshold", "outcome", "net"),
    [
        # Seed reading: the threshold takes the automatic success first.
        ("before_threshold", (3, 3), 1, "failure", 0),
        ("after_threshold", (3, 3), 1, "success", 1),
        ("kept", (3, 3), 1, "success", 1),
        # A botch cancels it, unless it is kept.
        ("before_threshold", (1, 3), 0, "failure", 0),
        ("after_threshold", (1, 3), 0, "failure", 0),
        ("kept", (1, 3), 0, "success", 1),
        ("after_threshold", (1, 1, 3), 0, "botch", 0),
    ],
)
def test_strong_bond_lands_where_the_table_reads_it(
    strong_bond: str, dice: tuple[int, ...], threshold: int, outcome: str, net: int
) -> None:
    pool = m.build_willpower_pool(current=len(dice), threshold=threshold, automatic_successes=1,
                                  readings=_readings(strong_bond=strong_bond))
    result = m.RollResult.from_dict(_stored(pool, dice))
    assert (result.outcome, result.net) == (outcome, net)


def test_no_experience_die_on_a_willpower_roll_when_it_is_not_an_action() -> None:
    allowed = m.build_willpower_pool(current=3)
    refused = m.build_willpower_pool(current=3,
                                     readings=_readings(willpower_experience_die="not_allowed"))
    assert allowed.experience_die_allowed and not refused.experience_die_allowed
    result = m.RollResult.from_dict(_stored(refused, (7, 8, 2)))
    with pytest.raises(RuleError, match="cannot be added to a willpower roll"):
        m.add_experience_die(result, random.Random(1))


def test_a_stored_roll_resolves_again_under_the_readings_it_was_made_under() -> None:
    kept = m.build_action_pool(traits=[PRECISION, FIREARMS], specialties=[PISTOLS],
                               readings=_readings(specialty_botch="no_botch"))
    stored = _stored(kept, (1, 1, 3, 4, 5))
    assert stored["pool"]["botches"] is False  # type: ignore[index]
    assert m.RollResult.from_dict(stored).outcome == "failure"
    # A roll stored before readings existed holds neither key and reads as the seed.
    seed = m.build_action_pool(traits=[PRECISION, FIREARMS], specialties=[PISTOLS])
    assert "botches" not in seed.as_dict() and "automatic_at" not in seed.as_dict()


def _outcome(pool: m.ActionPool, dice: tuple[int, ...]) -> str:
    return m.RollResult.from_dict(_stored(pool, dice)).outcome


def _stored(pool: m.ActionPool, dice: tuple[int, ...]) -> dict[str, object]:
    """A stored roll of ``pool`` showing ``dice`` (no bonus dice)."""
    return {"pool": pool.as_dict(), "dice": list(dice), "bonus_dice": [],
            "experience_die": []}


# --- odds under every alternative -------------------------------------------------------------


def _reference(dice: int, difficulty: int, threshold: int, *, exploding: bool, botches: bool,
               automatic: int, automatic_at: str) -> dict[str, float]:
    """Success, failure and botch by icepool, resolved as the seed reads with the readings'
    two changes written out again here (not the engine's code)."""
    cap = threshold + dice + 2
    bonus = _icepool_bonus(difficulty, 14, cap) if exploding else None

    def regular(face: int) -> object:
        if face == 1:
            return BOTCH if botches else 0
        if face == 10 and bonus is not None:
            return SUCCESS * (1 + (bonus + bonus).map(lambda s: min(s, cap)))
        return SUCCESS * int(face >= difficulty)

    pool = dice @ icepool.d10.map(regular)

    def outcome(value: int) -> str:
        rolled, ones = divmod(value, SUCCESS)
        if automatic_at == "before_threshold":
            left = max(0, rolled + automatic - threshold)
            return "success" if left > ones else "botch" if ones > left else "failure"
        left = max(0, rolled - threshold)
        if automatic_at == "kept":
            if automatic or left > ones:
                return "success"
            return "botch" if ones > left else "failure"
        left += automatic
        return "success" if left > ones else "botch" if ones > left else "failure"

    die = pool.map(outcome)
    return {name: float(die.probability(name)) for name in ("success", "failure", "botch")}


@pytest.mark.parametrize(
    ("dice", "difficulty", "threshold", "exploding", "botches", "automatic", "automatic_at"),
    [
        (3, 6, 0, True, True, 0, "before_threshold"),  # tens explode without a specialty
        (3, 7, 1, True, False, 0, "before_threshold"),  # a specialty's roll does not botch
        (2, 6, 1, False, True, 1, "after_threshold"),
        (3, 8, 1, False, True, 1, "kept"),
        (2, 9, 2, False, True, 1, "before_threshold"),
    ],
)
def test_the_odds_under_each_reading_agree_with_icepool(
    dice: int, difficulty: int, threshold: int, exploding: bool, botches: bool, automatic: int,
    automatic_at: str,
) -> None:
    ours = m.odds(dice=dice, difficulty=difficulty, threshold=threshold, exploding=exploding,
                  botches=botches, automatic_successes=automatic, automatic_at=automatic_at)
    reference = _reference(dice, difficulty, threshold, exploding=exploding, botches=botches,
                           automatic=automatic, automatic_at=automatic_at)
    for name in ("success", "failure", "botch"):
        assert getattr(ours, name) == pytest.approx(reference[name], abs=1e-9), name


def test_the_engines_own_rolls_agree_with_the_readings_odds_over_200000_rolls() -> None:
    # 100,000 rolls each of an action under "a specialty's 1s do not botch" and of a
    # Willpower roll under "Strong Bond after the threshold".
    action = m.build_action_pool(traits=[PRECISION, FIREARMS], specialties=[PISTOLS],
                                 difficulty=7, threshold=1,
                                 readings=_readings(specialty_botch="no_botch"))
    willpower = m.build_willpower_pool(current=3, difficulty=8, threshold=1,
                                       automatic_successes=1,
                                       readings=_readings(strong_bond="after_threshold"))
    rng = random.Random(20261207)
    rolls = 100_000
    for pool in (action, willpower):
        seen = Counter(m.roll(pool, rng).outcome for _ in range(rolls))
        odds = m.pool_odds(pool)
        for outcome in ("success", "failure", "botch"):
            p = getattr(odds, outcome)
            error = math.sqrt(p * (1 - p) / rolls)
            assert abs(seen[outcome] / rolls - p) <= 4 * error + 1e-12, (pool.kind, outcome)


def test_the_odds_query_takes_the_readings_as_keys() -> None:
    seed = m.odds_query({"dice": 3})
    always = m.odds_query({"dice": 3, "tens_explode": "always"})
    assert always == m.odds(dice=3, exploding=True).as_dict() != seed
    no_botch = m.odds_query({"dice": 3, "specialty": True, "specialty_botch": "no_botch"})
    assert no_botch["botch"] == 0
    bond = m.odds_query({"dice": 2, "threshold": 1, "automatic_successes": 1,
                         "strong_bond": "after_threshold"})
    assert bond == m.odds(dice=2, threshold=1, automatic_successes=1,
                          automatic_at="after_threshold").as_dict()
    with pytest.raises(RuleError, match="'sometimes' is not one of"):
        m.odds_query({"dice": 3, "tens_explode": "sometimes"})


@pytest.mark.parametrize("kind", ["lethal", "aggravated"])
def test_a_full_chart_holding_bashing_dies_of_lethal_when_the_table_reads_it_fatal(
    kind: str,
) -> None:
    full = m.HealthChart(lethal=1, bashing=m.HealthChart().boxes - 1)
    seed = m.take_damage(full, kind)
    fatal = m.take_damage(full, kind, readings=_readings(full_chart="fatal"))
    assert (seed.dead, seed.bashing, fatal.dead) == (False, full.bashing - 1, True)
    # Bashing converts the top-most bashing to lethal under either reading (the seed's words).
    assert not m.take_damage(full, "bashing", readings=_readings(full_chart="fatal")).dead
