"""The GM's NPC quick roll: each system's notation parses into a pool its own roll accepts.

Plain pytest, no database. What every system shares, over every engine of
``rulesets.registry.RULESETS`` (the tests' own tally too): every help-text example parses to a
pool the module's ``roll`` rolls with a seeded ``random.Random`` to a result that reads back
from what it stores, the same seed gives the same result, and an empty or too long text is
refused with a :class:`RuleError` that cites the system's seed. What each notation reads and
refuses is in ``tests/rulesets/<slug>/test_<slug>_quick_roll.py``.
"""

from __future__ import annotations

import random

import pytest

from rulesets import registry
from rulesets.base import RulesModule
from tests.rulesets.helpers import assert_quick_roll_refused

MODULES: dict[str, RulesModule] = {
    slug: ruleset.module for slug, ruleset in registry.RULESETS.items()
    if ruleset.module is not None
}

EXAMPLES = [
    (system, text) for system, module in MODULES.items() for text in module.QUICK_ROLL_EXAMPLES
]


# --- Every example parses and rolls ------------------------------------------------------------


@pytest.mark.parametrize("system", MODULES)
def test_every_system_offers_quick_roll_examples(system: str) -> None:
    examples = MODULES[system].QUICK_ROLL_EXAMPLES
    assert isinstance(examples, tuple)
    assert examples
    assert all(isinstance(text, str) and text.strip() for text in examples)


@pytest.mark.parametrize(("system", "text"), EXAMPLES, ids=[f"{s}:{t}" for s, t in EXAMPLES])
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_every_example_parses_and_rolls_to_a_summary(system: str, text: str, seed: int) -> None:
    pool = MODULES[system].quick_roll(text)
    result = MODULES[system].roll(pool, random.Random(seed))
    summary = result.summary()
    assert isinstance(summary, str)
    assert summary.strip()
    stored = result.as_dict()
    assert stored["summary"] == summary
    assert type(result).from_dict(stored) == result  # type: ignore[attr-defined]  # every engine's result has from_dict; RulesResult does not promise it


@pytest.mark.parametrize(("system", "text"), EXAMPLES, ids=[f"{s}:{t}" for s, t in EXAMPLES])
def test_the_same_seed_gives_the_same_quick_roll(system: str, text: str) -> None:
    module = MODULES[system]
    pool = module.quick_roll(text)
    assert module.roll(pool, random.Random(99)) == module.roll(pool, random.Random(99))


# --- Bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("system", MODULES)
@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_quick_roll_is_refused(system: str, text: str) -> None:
    assert_quick_roll_refused(MODULES[system], text, "the quick roll is empty")


@pytest.mark.parametrize("system", MODULES)
def test_a_quick_roll_longer_than_the_limit_is_refused(system: str) -> None:
    module = MODULES[system]
    example = module.QUICK_ROLL_EXAMPLES[0] + " "
    text = example * (module.QUICK_ROLL_MAX_LENGTH // len(example) + 1)
    assert_quick_roll_refused(module, text, f"{len(text)} characters long, more than "
                                            f"{module.QUICK_ROLL_MAX_LENGTH}")
