"""Shattered World's table readings: the rules a campaign may read another way (docs/rules.md,
Table readings; docs/systems/shattered_world.md, Table readings). Each first choice is the
engine's reading before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Choice, Reading, Readings

MULTIPLIER_ORDER = Reading(
    key="multiplier_order",
    title="Combining multipliers",
    seed=('"After the first, every multiplier or divisor from relevant ×/÷ modifiers adds '
          '(divisors subtract) together to create the final factor" (Shattered World Core '
          "Engine, The Core Mechanic); the seed's examples (×2 and ×2 make ×3, ×3 and ÷2 make "
          "2) never put a divisor first"),
    choices=(
        Choice("any_order", "In any order: ×n counts n - 1 and ÷n counts -(n - 1) on one "
                            "ladder (… ÷3, ÷2, ×1, ×2, ×3 …), so ÷2 then ×3 makes ×2 as ×3 "
                            "then ÷2 does (docs/rules.md)"),
        Choice("as_written", "In the order written: each ×n adds n - 1 to the factor as it "
                             "stands, a fraction too, so ÷2 then ×3 makes ½ + 2 = ×2½; a ÷n "
                             "takes n - 1 off, and below ×1 goes on down to ÷2, ÷3 …"),
    ),
)

ZERO_BECOMES_ONE = Reading(
    key="zero_becomes_one",
    title="A result of 0",
    seed=('"All divisions in the game are rounded to whatever is mathematically correct … '
          'The one and only exception is 0 results always become 1" (Shattered World Core '
          "Engine, The Core Mechanic): said of divisions, yet \"always\""),
    choices=(
        Choice("every_total", "Every total of 0 becomes 1, with or without a divisor "
                              "(docs/rules.md)"),
        Choice("divisions_only", "Only a divided total of 0 becomes 1 (its final factor below "
                                 "×1); a 0 reached by - modifiers alone stays 0"),
    ),
)

FIELD_ROLE_HIT_POINTS = Reading(
    key="field_role_hit_points",
    title="Hit points from another field role",
    seed=('Buy Into Additional Field Role: "Costs double to purchase Buy-Ins from first Field '
          'Role outside your own; excludes hit points" (Shattered World Core Engine, Universal '
          "Buy-Ins): the doubling, or the buying, excludes them"),
    choices=(
        Choice("no_multiplier", "Hit points may be bought from another field role at their "
                                "own price: the ×2 and ×3 do not apply to them "
                                "(docs/rules.md)"),
        Choice("not_allowed", "Hit points are bought from your own field role only: buying "
                              "into another field role excludes its hit points"),
    ),
    rolls=(),  # a buy-in's price, not a roll
)


@dataclass(frozen=True)
class ShatteredWorldReadings(Readings):
    """A campaign's readings of Shattered World's rules, each the value of one of its
    :class:`~rulesets.readings.Choice` (the defaults are the engine's reading of the seed):

    Attributes:
        multiplier_order: "any_order" or "as_written" (:data:`MULTIPLIER_ORDER`).
        zero_becomes_one: "every_total" or "divisions_only" (:data:`ZERO_BECOMES_ONE`).
        field_role_hit_points: "no_multiplier" or "not_allowed"
            (:data:`FIELD_ROLE_HIT_POINTS`).
    """

    READINGS: ClassVar[tuple[Reading, ...]] = (
        MULTIPLIER_ORDER, ZERO_BECOMES_ONE, FIELD_ROLE_HIT_POINTS)

    multiplier_order: str = "any_order"
    zero_becomes_one: str = "every_total"
    field_role_hit_points: str = "no_multiplier"


SEED_READINGS = ShatteredWorldReadings()
"""The defaults: the engine's reading of the seed."""

MULTIPLIER_ORDERS: tuple[str, ...] = tuple(choice.value for choice in MULTIPLIER_ORDER.choices)
"""How a pool's ×/÷ modifiers combine (:data:`MULTIPLIER_ORDER`), the seed's reading first."""

ZERO_RULES: tuple[str, ...] = tuple(choice.value for choice in ZERO_BECOMES_ONE.choices)
"""Which totals of 0 become 1 (:data:`ZERO_BECOMES_ONE`), the seed's reading first."""
