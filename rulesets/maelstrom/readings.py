"""Maelstrom's table readings: the rules a campaign may read another way (docs/rules.md, Table
readings; docs/systems/maelstrom.md, Table readings). Each first choice is the engine's reading
before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Choice, Reading, Readings

TENS_EXPLODE = Reading(
    key="tens_explode",
    title="Exploding tens",
    seed=('"Using at least one specialty on a roll grants the awesome power of exploding '
          'tens" (Maelstrom rules.md, Using Specialties)'),
    choices=(
        Choice("with_specialty", "Tens explode only when a specialty is used (the seed)"),
        Choice("always", "Tens explode on every action roll, with or without a specialty "
                         "(house rule); soak and Willpower rolls still never explode"),
    ),
    rolls=("action", "npc"),
)

SPECIALTY_BOTCH = Reading(
    key="specialty_botch",
    title="Botches with a specialty",
    seed=('"1s on regular dice are botches"; bonus dice "do not botch on a 1" (Maelstrom '
          'rules.md, Resolving the Result, Using Specialties)'),
    choices=(
        Choice("botch", "1s botch whether or not a specialty is used (the seed)"),
        Choice("no_botch", "When a specialty is used, 1s are only failures: the roll cannot "
                           "botch (house rule)"),
    ),
    rolls=("action", "npc"),
)

STRONG_BOND = Reading(
    key="strong_bond",
    title="Strong Bond's automatic success",
    seed=('"Gain one automatic success on all Willpower rolls" (Maelstrom rules.md, Strong '
          'Bond); the seed does not say whether the threshold or a botch can take it'),
    choices=(
        Choice("before_threshold", "Counted with the dice's successes: the threshold removes "
                                   "it first and a botch can cancel it (docs/rules.md)"),
        Choice("after_threshold", "Added after the threshold, which cannot remove it; a botch "
                                  "can still cancel it"),
        Choice("kept", "Added after the threshold and never cancelled by a botch: a Willpower "
                       "roll with Strong Bond always succeeds"),
    ),
    rolls=("willpower",),
)

WILLPOWER_EXPERIENCE_DIE = Reading(
    key="willpower_experience_die",
    title="Experience die on a Willpower roll",
    seed=('"bank one of your available experience points in a trait that you used for the '
          'action" (Adding Experience Dice), yet "using willpower is not considered an action" '
          "(Rolling Willpower)"),
    choices=(
        Choice("allowed", "An experience die may be added to a Willpower roll, banked in "
                          "Willpower (docs/rules.md)"),
        Choice("not_allowed", "Willpower is not an action: no experience die on a Willpower "
                              "roll"),
    ),
    rolls=("willpower",),
)

FULL_CHART = Reading(
    key="full_chart",
    title="A full health chart holding bashing takes lethal",
    seed=('"If this box contains bashing damage, each additional bashing damage ... will convert '
          'their top-most level of bashing damage to lethal. Once this box contains lethal or '
          'aggravated damage, then the next level of damage -- no matter the type -- will be '
          'fatal" (Maelstrom rules.md, Incapacitation and Death): silent on lethal or aggravated '
          "damage taken while the bottom box holds bashing"),
    choices=(
        Choice("replaces_bashing", "The lethal or aggravated level takes the place of a "
                                   "bashing level, moving the chart towards death as a "
                                   "bashing level does (docs/rules.md)"),
        Choice("fatal", "Any level but bashing is fatal once every box is full"),
    ),
    rolls=("soak",),
)

WOUNDS_IGNORED = Reading(
    key="wounds_ignored",
    title="Willpower against wound penalties",
    seed=('"Once per turn, a character may spend one Willpower dot to ignore their injuries and '
          'roll their next action without a wound penalty" (Maelstrom rules.md, Spending '
          "Willpower)"),
    choices=(
        Choice("per_roll", "A dot for each roll that ignores the wound penalty; the table keeps "
                           "the once-per-turn limit (docs/rules.md)"),
        Choice("per_turn", "Once per round of a running encounter: a second dot in the same "
                           "round is refused; outside an encounter, as for each roll"),
    ),
    rolls=("action",),
)


@dataclass(frozen=True)
class MaelstromReadings(Readings):
    """A campaign's readings of Maelstrom's rules, each the value of one of its
    :class:`~rulesets.readings.Choice` (the defaults are the engine's reading of the seed):

    Attributes:
        tens_explode: "with_specialty" or "always" (:data:`TENS_EXPLODE`).
        specialty_botch: "botch" or "no_botch" (:data:`SPECIALTY_BOTCH`).
        strong_bond: "before_threshold", "after_threshold" or "kept" (:data:`STRONG_BOND`).
        willpower_experience_die: "allowed" or "not_allowed"
            (:data:`WILLPOWER_EXPERIENCE_DIE`).
        full_chart: "replaces_bashing" or "fatal" (:data:`FULL_CHART`).
        wounds_ignored: "per_roll" or "per_turn" (:data:`WOUNDS_IGNORED`).
    """

    READINGS: ClassVar[tuple[Reading, ...]] = (
        TENS_EXPLODE, SPECIALTY_BOTCH, STRONG_BOND, WILLPOWER_EXPERIENCE_DIE, FULL_CHART,
        WOUNDS_IGNORED)

    tens_explode: str = "with_specialty"
    specialty_botch: str = "botch"
    strong_bond: str = "before_threshold"
    willpower_experience_die: str = "allowed"
    full_chart: str = "replaces_bashing"
    wounds_ignored: str = "per_roll"


SEED_READINGS = MaelstromReadings()
"""The defaults: the engine's reading of the seed."""
