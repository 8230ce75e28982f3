"""Tests of the ruleset registry."""

from __future__ import annotations

import pytest

from rulesets import genesys, maelstrom, registry
from tests.conftest import TEST_ONLY_SYSTEMS


def test_every_system_with_a_sheet_is_selectable() -> None:
    assert registry.choices() == registry.choices(selectable_only=False)


def test_all_choices_list_the_five_systems_in_order() -> None:
    assert registry.choices(selectable_only=False) == [
        ("maelstrom", "Maelstrom"),
        ("shahquest", "Shahquest"),
        ("shattered_world", "Shattered World"),
        ("genesys", "Genesys"),
        ("three_d6", "3d6"),
        # Then what tests/conftest.py registers for the tests (tally).
        *((slug, registry.get(slug).name) for slug in TEST_ONLY_SYSTEMS),
    ]


def test_get_returns_the_ruleset_with_its_module() -> None:
    ruleset = registry.get("maelstrom")
    assert ruleset.selectable
    assert ruleset.module is maelstrom
    assert registry.get("genesys").module is genesys
    assert registry.get("genesys").selectable


QUERIES = {
    "maelstrom": ({"dice": 5, "difficulty": 6}, {"success", "failure", "botch", "successes"}),
    "shahquest": ({"pool": "d10 2d8 d6"}, {"effort", "opportunities"}),
    "shattered_world": ({"die": 4, "target": 5, "modifier": 1}, {"success", "degree"}),
    "genesys": ({"pool": "2A 1D"}, {"success", "advantage", "threat", "triumph", "despair"}),
    "three_d6": ({"td": 12}, {"success", "critical_success", "critical_failure"}),
    "tally": ({"bonus": 2}, {"six", "total_at_least_7"}),
}


@pytest.mark.parametrize("slug", list(registry.RULESETS))
def test_every_system_answers_odds_queries_through_the_registry(slug: str) -> None:
    ruleset = registry.get(slug)
    assert ruleset.module is not None
    # The tests' own system keeps its engine with its tests (tests/tally/rules.py).
    package = f"tests.{slug}.rules" if slug in TEST_ONLY_SYSTEMS else f"rulesets.{slug}"
    assert ruleset.module.__name__ == package
    query, keys = QUERIES[slug]
    assert {p.name for p in ruleset.odds_parameters} >= set(query)
    assert ruleset.odds_query is not None
    assert set(ruleset.odds_query(query)) == keys


def test_getting_an_unknown_slug_raises_a_key_error_naming_it() -> None:
    with pytest.raises(KeyError, match="unknown ruleset 'dnd5e'"):
        registry.get("dnd5e")
