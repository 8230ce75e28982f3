"""What starting XP buys at Maelstrom's character creation (Maelstrom rules.md, Starting
Experience, Spending Experience, Specialties, Merits and Flaws): the engine's rules the
creation wizard checks its draft with. Plain pytest, no database; the wizard's pages are
tested in tests/systems/maelstrom/test_creation.py."""

from __future__ import annotations

import pytest

from rulesets import maelstrom as m
from rulesets.maelstrom import MeritFlawChoice, RuleError, Specialty


def messages(problems: list[RuleError]) -> list[str]:
    return [problem.message for problem in problems]


# --- Purchases ------------------------------------------------------------------------------


def test_a_specialty_is_priced_as_general_or_advanced_and_named_with_its_ability() -> None:
    general = Specialty("Driving", "Motorcycles", advanced=False)
    advanced = Specialty("Firearms", "Extreme Range", advanced=True)

    assert (general.xp_kind, m.xp_cost(general.xp_kind, 1)) == ("general_specialty", 2)
    assert (advanced.xp_kind, m.xp_cost(advanced.xp_kind, 1)) == ("advanced_specialty", 3)
    assert general.label == "Driving: Motorcycles"


def test_a_merit_costs_and_a_flaw_gives_its_points_in_words() -> None:
    assert MeritFlawChoice("Huge Size", "merit", 4).price == "costs 4 XP"
    assert MeritFlawChoice("Addict", "flaw", 1, "nicotine").price == "gives 1 XP"
    assert m.merit_flaw_price("flaw", 3) == "gives 3 XP"


def test_a_merit_or_flaw_is_labelled_with_its_detail_when_it_has_one() -> None:
    assert MeritFlawChoice("Addict", "flaw", 1, "nicotine").label == "Addict (nicotine)"
    assert MeritFlawChoice("Huge Size", "merit", 4).label == "Huge Size"


def test_merit_flaw_entry_finds_the_seeds_merits_and_flaws_by_their_exact_name() -> None:
    assert m.merit_flaw_entry("Acute Sense") == m.MERITS["Acute Sense"]
    assert m.merit_flaw_entry("Defective Sense") == m.FLAWS["Defective Sense"]
    assert m.merit_flaw_entry("Flight") is None


# --- Ranks bought with starting XP ----------------------------------------------------------


@pytest.mark.parametrize(("kind", "start", "final", "cost"), [
    ("ability", 0, 3, 2 + 4 + 6),
    ("attribute", 2, 3, 15),
    ("willpower", 3, 5, 4 + 5),
    ("ability", 2, 2, 0),
])
def test_a_rank_costs_each_new_dot_from_the_allotment_up(
    kind: str, start: int, final: int, cost: int
) -> None:
    assert m.rank_cost(kind, "Trait", start, final) == cost


@pytest.mark.parametrize(("kind", "label", "start", "final", "message"), [
    ("ability", "Science", 1, 6, "Science can have at most 5 dots, not 6"),
    ("willpower", "Willpower", 3, 11, "Willpower can have at most 10 dots, not 11"),
    ("attribute", "Wits", 2, 1,
     "Wits starts at 2 dots; starting XP can raise it, not lower it to 1"),
])
def test_a_rank_starting_xp_cannot_buy_is_refused_naming_the_trait(
    kind: str, label: str, start: int, final: int, message: str
) -> None:
    with pytest.raises(RuleError) as refused:
        m.rank_cost(kind, label, start, final)

    assert refused.value.message == message
    assert refused.value.rule == "Maelstrom rules.md, Spending Experience"


def test_an_unknown_kind_of_trait_is_refused_with_the_trait_named() -> None:
    with pytest.raises(RuleError, match=r"^Luck: unknown trait kind 'luck'"):
        m.rank_cost("luck", "Luck", 0, 1)


# --- Purchases together ---------------------------------------------------------------------


def test_a_specialty_listed_twice_under_one_ability_is_refused_whatever_its_case() -> None:
    twice = [Specialty("Driving", "Cars", False), Specialty("Driving", "CARS", False)]

    problems = m.check_combinations(twice, [])

    assert messages(problems) == ["The specialty Driving: CARS is listed twice; buy it once"]
    assert problems[0].rule == "Maelstrom rules.md, Specialties"


def test_the_same_specialty_name_under_two_abilities_is_two_specialties() -> None:
    assert m.check_combinations(
        [Specialty("Driving", "Cars", False), Specialty("Technology", "Cars", False)], []
    ) == []


def test_a_merit_or_flaw_other_than_the_senses_is_taken_once() -> None:
    problems = m.check_combinations([], [MeritFlawChoice("Addict", "flaw", 1, "stims"),
                                         MeritFlawChoice("Addict", "flaw", 1, "nicotine")])

    assert messages(problems) == ["Addict can be taken only once"]
    assert problems[0].rule == "Maelstrom rules.md, Merits and Flaws"


def test_acute_sense_is_taken_again_only_for_another_sense() -> None:
    sight = MeritFlawChoice("Acute Sense", "merit", 2, "sight")
    hearing = MeritFlawChoice("Acute Sense", "merit", 2, "hearing")

    assert m.check_combinations([], [sight, hearing]) == []
    assert messages(m.check_combinations([], [sight, MeritFlawChoice(
        "Acute Sense", "merit", 2, "SIGHT")])) == [
        "Acute Sense (SIGHT) is taken twice; take a merit or flaw again only for a "
        "different detail (e.g. another sense)"]


def test_acute_sense_for_all_senses_is_taken_once() -> None:
    every = MeritFlawChoice("Acute Sense", "merit", 5)

    assert messages(m.check_combinations([], [every, MeritFlawChoice(
        "Acute Sense", "merit", 5, "again")])) == ["Acute Sense can be taken only once"]


def test_defective_sense_is_refused_with_acute_sense_in_the_same_sense() -> None:
    problems = m.check_combinations([], [MeritFlawChoice("Acute Sense", "merit", 2, "Hearing"),
                                         MeritFlawChoice("Defective Sense", "flaw", 2, "hearing")])

    assert messages(problems) == [
        "Defective Sense cannot be taken with Acute Sense in the same sense (hearing)"]
    assert problems[0].rule == "Maelstrom rules.md, Flaws"


def test_defective_sense_is_refused_with_acute_sense_for_all_senses() -> None:
    assert messages(m.check_combinations([], [
        MeritFlawChoice("Acute Sense", "merit", 5),
        MeritFlawChoice("Defective Sense", "flaw", 2, "hearing"),
    ])) == ["Defective Sense cannot be taken with Acute Sense for all senses (5 points)"]


def test_defective_and_acute_sense_in_different_senses_are_accepted() -> None:
    assert m.check_combinations([], [
        MeritFlawChoice("Acute Sense", "merit", 2, "sight"),
        MeritFlawChoice("Defective Sense", "flaw", 2, "hearing"),
    ]) == []


def test_visually_impaired_is_taken_instead_of_a_defective_sense_of_sight() -> None:
    impaired = MeritFlawChoice("Visually Impaired", "flaw", 4)

    problems = m.check_combinations([], [impaired, MeritFlawChoice(
        "Defective Sense", "flaw", 2, "nearsighted")])

    assert messages(problems) == [
        "Visually Impaired is taken instead of Defective Sense for sight, not with it: drop "
        "Defective Sense (nearsighted) or Visually Impaired"]
    assert problems[0].rule == "Maelstrom rules.md, Flaws"
    assert m.check_combinations([], [impaired, MeritFlawChoice(
        "Defective Sense", "flaw", 2, "hearing")]) == []


def test_blind_is_refused_with_visually_impaired_or_a_defective_sense_of_sight() -> None:
    blind = MeritFlawChoice("Blind", "flaw", 8)

    assert messages(m.check_combinations([], [blind, MeritFlawChoice(
        "Visually Impaired", "flaw", 4)])) == [
        "Blind cannot be taken with Visually Impaired: a blind character has no sight left "
        "to impair"]
    assert messages(m.check_combinations([], [MeritFlawChoice(
        "Defective Sense", "flaw", 2, "Eyesight"), blind])) == [
        "Blind cannot be taken with Defective Sense (Eyesight): a blind character has no "
        "sight left to impair"]


def test_inept_is_taken_in_an_ability_with_at_least_one_dot() -> None:
    def inept(detail: str) -> list[str]:
        return messages(m.check_combinations(
            [], [MeritFlawChoice("Inept", "flaw", 2, detail)],
            abilities={"Piloting": 2, "Driving": 0}))

    assert inept(" piloting") == []
    assert inept("Driving") == [
        "Inept is taken in an ability with at least one dot; Driving has none"]
    assert inept("Science") == [
        "Inept is taken in an ability with at least one dot; Science has none"]
    assert inept("cooking") == [
        "Inept applies to one ability: name it as the flaw's detail (e.g. Piloting); "
        "'cooking' is not one"]


# --- The balance ----------------------------------------------------------------------------


def test_spending_all_the_starting_xp_and_the_flaws_points_is_allowed() -> None:
    m.check_balance(30, 2, 32)
    m.check_balance(30, 0, 0)


def test_spending_more_is_refused_with_the_cost_the_xp_available_and_the_shortfall() -> None:
    with pytest.raises(RuleError) as refused:
        m.check_balance(30, 2, 47)

    assert refused.value.message == (
        "These choices cost 47 XP but only 32 XP are available (30 starting + 2 from flaws); "
        "you are 15 XP short")
    assert refused.value.rule == "Maelstrom rules.md, Starting Experience"


def test_without_flaws_the_refusal_names_the_starting_xp_alone() -> None:
    with pytest.raises(RuleError) as refused:
        m.check_balance(30, 0, 31)

    assert refused.value.message == (
        "These choices cost 31 XP but only 30 XP are available; you are 1 XP short")
