"""A stored Maelstrom roll's dice against its pool (:func:`rulesets.maelstrom.check_dice`):
the d10s of the pool, the bonus dice its tens call for, the experience die and its chain
(Maelstrom rules.md, Dice Pool / Using Specialties / Adding Experience Dice)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import maelstrom as m
from rulesets.errors import RuleError
from tests.rulesets.helpers import ScriptedRng


def pool(dice: int, *, exploding: bool = False, kind: str = "action",
         experience_die_allowed: bool = True) -> m.ActionPool:
    return m.ActionPool(kind=kind, dice=dice, difficulty=6, threshold=0, exploding=exploding,
                        wound_penalty=0, traits=("Precision",), specialties=(),
                        experience_die_allowed=experience_die_allowed)


def stored(rolled: m.ActionPool, dice: tuple[int, ...], bonus: tuple[int, ...] = (),
           experience: tuple[int, ...] = ()) -> m.RollResult:
    """The roll as :meth:`RollResult.from_dict` rebuilds it from stored faces."""
    return m.RollResult.from_dict({
        "pool": rolled.as_dict(), "dice": list(dice), "bonus_dice": list(bonus),
        "experience_die": list(experience)})


def refused(result: m.RollResult, words: str, section: str) -> None:
    with pytest.raises(RuleError) as error:
        m.check_dice(result)
    assert words in error.value.message
    assert error.value.rule == f"Maelstrom rules.md, {section}"


def test_a_roll_holds_the_dice_of_its_pool() -> None:
    m.check_dice(stored(pool(5), (1, 2, 3, 4, 5)))
    refused(stored(pool(5), (5,) * 7), "7 dice were rolled for a pool of 5", "Dice Pool")
    refused(stored(pool(2), (5,)), "1 die was rolled for a pool of 2", "Dice Pool")


def test_tens_call_for_two_bonus_dice_each_and_chain() -> None:
    exploding = pool(2, exploding=True)
    m.check_dice(stored(exploding, (10, 3), (10, 4, 2, 6)))  # 2 for the 10, 2 for its 10
    refused(stored(exploding, (10, 3), (10, 4, 2)), "its 10s call for 4 bonus dice; it "
            "holds 3", "Using Specialties")
    refused(stored(exploding, (10, 3), (10, 4, 2, 6, 1)), "call for 4 bonus dice; it holds 5",
            "Using Specialties")
    refused(stored(exploding, (9, 3), (4,)), "call for 0 bonus dice; it holds 1",
            "Using Specialties")


def test_no_bonus_die_without_exploding_tens_nor_on_a_soak() -> None:
    refused(stored(pool(2), (10, 10), (4, 5, 6, 7)), "it holds 4 bonus dice, but its pool "
            "has no exploding tens", "Using Specialties")
    soak = pool(2, exploding=True, kind="soak", experience_die_allowed=False)
    refused(stored(soak, (10, 3), (4, 5)), "no exploding tens", "Using Specialties")


def test_the_experience_die_chains_only_where_the_pool_explodes() -> None:
    m.check_dice(stored(pool(2), (6, 3), experience=(10,)))
    refused(stored(pool(2), (6, 3), experience=(10, 4)), "its experience die 10 calls for 0 "
            "bonus dice; it holds 1", "Adding Experience Dice")
    exploding = pool(2, exploding=True)
    m.check_dice(stored(exploding, (6, 3), experience=(10, 10, 2, 5, 8)))
    refused(stored(exploding, (6, 3), experience=(10, 2)), "calls for 2 bonus dice; it "
            "holds 1", "Adding Experience Dice")


def test_no_experience_die_on_a_botch_nor_a_pool_that_forbids_it() -> None:
    refused(stored(pool(2), (1, 1), experience=(7,)), "cannot be added to a botched roll",
            "Adding Experience Dice")
    soak = pool(2, kind="soak", experience_die_allowed=False)
    refused(stored(soak, (6, 3), experience=(7,)), "cannot be added to a soak roll",
            "Soaking Damage")


class LoadedDice(random.Random):
    """Tens more often than fair dice roll them: long chains."""

    def randint(self, a: int, b: int) -> int:
        return b if self.random() < 0.4 else super().randint(a, b)


@settings(max_examples=150, deadline=None)
@given(dice=st.integers(0, 12), exploding=st.booleans(), seed=st.integers(0, 2**32),
       kind=st.sampled_from(m.POOL_KINDS))
def test_every_roll_and_experience_die_the_engine_makes_passes(
        dice: int, exploding: bool, seed: int, kind: str) -> None:
    rng = LoadedDice(seed)
    rolled = m.roll(pool(dice, exploding=exploding, kind=kind,
                         experience_die_allowed=kind != "soak"), rng)
    again = m.RollResult.from_dict(rolled.as_dict())
    m.check_dice(again)
    if rolled.pool.experience_die_allowed and rolled.outcome != "botch":
        m.check_dice(m.RollResult.from_dict(m.add_experience_die(again, rng).as_dict()))


def test_the_bonus_dice_stop_at_the_engines_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the cap the chain stops, however many tens its last dice show, as when rolling."""
    monkeypatch.setattr("rulesets.maelstrom.rolling.MAX_BONUS_DICE", 3)
    exploding = pool(1, exploding=True)
    rolled = m.roll(exploding, ScriptedRng(10, 10, 10, 10))
    assert rolled.bonus_dice == (10, 10, 10)
    m.check_dice(rolled)
    m.check_dice(stored(exploding, (10,), (10, 10, 7)))
    refused(stored(exploding, (10,), (10, 10, 7, 1)), "call for 3 bonus dice; it holds 4",
            "Using Specialties")
