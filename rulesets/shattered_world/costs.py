"""Buy-in costs: the ``N``, ``N/e`` and ``N/xM`` notations, the multipliers for where a
buy-in is bought from, and the Universal Buy-Ins with their prerequisites (Shattered World Core
Engine, Achievements and Buy-Ins; Universal Buy-Ins).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _BUY_INS, _UNIVERSAL_BUY_INS
from rulesets.shattered_world.readings import (
    FIELD_ROLE_HIT_POINTS,
    SEED_READINGS,
    ShatteredWorldReadings,
)

COST_KINDS: tuple[str, ...] = ("flat", "escalating", "exponential")
"""Buy-in cost kinds: ``N`` flat, ``N/e`` escalating, ``N/x`` or ``N/xM`` exponential."""

_COST = re.compile(r"(\d+)(?:/(e|x)(\d+)?)?")


@dataclass(frozen=True)
class BuyInCost:
    """A parsed buy-in cost notation.

    Attributes:
        base: N, the XP cost of the first purchase (>= 1).
        kind: "flat" (``N``), "escalating" (``N/e``) or "exponential" (``N/x``, ``N/xM``).
        ratio: M, the growth of an exponential cost (>= 2); 1 for the other kinds.

    Source: Shattered World Core Engine, Achievements and Buy-Ins; RULES.md section 3
    Decision on ``N/xM``.
    """

    base: int
    kind: str
    ratio: int = 1

    @property
    def levelled(self) -> bool:
        """Whether the buy-in is purchased in levels (``/e`` or ``/x``)."""
        return self.kind != "flat"

    def notation(self) -> str:
        """The canonical notation: "5", "3/e", "1/x" (ratio 2), "3/x" (ratio 3), "5/x2"."""
        if self.kind == "flat":
            return str(self.base)
        if self.kind == "escalating":
            return f"{self.base}/e"
        if self.ratio == _bare_ratio(self.base):
            return f"{self.base}/x"
        return f"{self.base}/x{self.ratio}"


def _bare_ratio(base: int) -> int:
    return 2 if base == 1 else base


def parse_cost(notation: str) -> BuyInCost:
    """Parse buy-in cost notation: ``N``, ``N/e``, ``N/x`` or ``N/xM``.

    ``N/xM``: the k-th purchase costs N * M^(k-1); a bare ``N/x`` uses M = N, except M = 2
    when N = 1 (RULES.md section 3 Decision: 1/x gives 1, 2, 4, 8; 2/x gives 2, 4, 8; 3/x
    gives 3, 9, 27; 5/x2 gives 5, 10, 20). Spaces are ignored, letters may be capitals.

    Args:
        notation: e.g. "32", "1/e", "3/x", "5/x2".

    Returns:
        A :class:`BuyInCost`.

    Raises:
        RuleError: text that is not cost notation (e.g. "5/y", "/e", "3/e2"), N of 0, or an
            exponential M below 2; the message quotes the notation.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """
    text = re.sub(r"\s+", "", notation).lower()
    match = _COST.fullmatch(text)
    if match is None:
        raise RuleError(
            f"{notation!r} is not buy-in cost notation such as '5', '1/e', '3/x' or '5/x2'",
            _BUY_INS,
        )
    base = int(match.group(1))
    if base < 1:
        raise RuleError(f"{notation!r}: a buy-in costs at least 1 XP", _BUY_INS)
    suffix, ratio_text = match.group(2), match.group(3)
    if suffix is None:
        return BuyInCost(base=base, kind="flat")
    if suffix == "e":
        if ratio_text is not None:
            raise RuleError(f"{notation!r}: an escalating cost '/e' takes no number", _BUY_INS)
        return BuyInCost(base=base, kind="escalating")
    ratio = _bare_ratio(base) if ratio_text is None else int(ratio_text)
    if ratio < 2:
        raise RuleError(f"{notation!r}: an exponential cost must grow by 2 or more", _BUY_INS)
    return BuyInCost(base=base, kind="exponential", ratio=ratio)


def _as_cost(cost: str | BuyInCost) -> BuyInCost:
    return parse_cost(cost) if isinstance(cost, str) else cost


def next_cost(cost: str | BuyInCost, purchase: int) -> int:
    """XP cost of the ``purchase``-th purchase of a buy-in, before any multiplier.

    Flat ``N``: N, bought once. **Decision**: the seed says the /e and /x notations indicate
    "that the Buy-in is purchased in levels", so a flat cost is a single purchase; a second
    one is refused. Escalating ``N/e``: N * k (3/e: 3, 6, 9). Exponential ``N/xM``:
    N * M^(k-1) (1/x: 1, 2, 4, 8; 5/x2: 5, 10, 20).

    Args:
        cost: notation such as "3/e" or a :class:`BuyInCost`.
        purchase: k, the purchase being made, >= 1 (1 for the first).

    Returns:
        The cost in XP.

    Raises:
        RuleError: bad notation, k below 1, or k above 1 for a flat cost.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """
    parsed = _as_cost(cost)
    if purchase < 1:
        raise RuleError(f"purchase {purchase} does not exist: the first purchase is 1", _BUY_INS)
    if parsed.kind == "flat":
        if purchase > 1:
            raise RuleError(
                f"a flat {parsed.base} XP buy-in is bought once, not {purchase} times", _BUY_INS
            )
        return parsed.base
    if parsed.kind == "escalating":
        return parsed.base * purchase
    return int(parsed.base * parsed.ratio ** (purchase - 1))


def cumulative_cost(cost: str | BuyInCost, start: int, end: int) -> int:
    """XP to raise a levelled buy-in from level ``start`` to level ``end``.

    The sum of :func:`next_cost` for purchases start + 1 .. end (3/e from 0 to 3: 3 + 6 + 9 =
    18), before any multiplier.

    Args:
        cost: notation or a :class:`BuyInCost`.
        start: levels already bought, >= 0.
        end: levels owned afterwards, >= start.

    Returns:
        The total XP (0 when start == end).

    Raises:
        RuleError: bad notation, a negative start, an end below start, or a flat cost past
            level 1.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """
    parsed = _as_cost(cost)
    if start < 0:
        raise RuleError(f"level {start} cannot be negative", _BUY_INS)
    if end < start:
        raise RuleError(f"cannot go down from level {start} to level {end} by buying", _BUY_INS)
    return sum(next_cost(parsed, k) for k in range(start + 1, end + 1))


PURCHASE_SOURCES: dict[str, int] = {
    "own": 1,
    "adjacent subrole": 2,
    "first additional field role": 2,
    "second additional field role": 3,
}
"""Cost multiplier by where a buy-in is bought from (Shattered World Core Engine, Universal
Buy-Ins): your own subrole ×1; an adjacent subrole within your primary field role ×2; the
first field role outside your own ×2; the second ×3 (both of those exclude hit points)."""


def cost_multiplier(
    source: str = "own",
    *,
    hit_points: bool = False,
    readings: ShatteredWorldReadings = SEED_READINGS,
) -> int:
    """The multiplier on a buy-in's cost for where it is bought from.

    Under the table reading ``field_role_hit_points="not_allowed"``
    (:data:`rulesets.shattered_world.readings.FIELD_ROLE_HIT_POINTS`) "excludes hit points"
    excludes them from the purchase, not from the multiplier: hit points from an additional
    field role are refused.

    Args:
        source: a key of :data:`PURCHASE_SOURCES`: "own", "adjacent subrole", "first
            additional field role" or "second additional field role".
        hit_points: the buy-in raises hit points; the additional field role multipliers
            "exclude hit points", so they are ×1 for it (the adjacent subrole ×2 still
            applies: the seed excludes hit points only for field roles).
        readings: the campaign's table readings (the seed's by default).

    Returns:
        1, 2 or 3.

    Raises:
        RuleError: an unknown source, the message listing the known ones; hit points from
            an additional field role under "not_allowed", the message naming the reading.

    Source: Shattered World Core Engine, Universal Buy-Ins.
    """
    if source not in PURCHASE_SOURCES:
        known = ", ".join(PURCHASE_SOURCES)
        raise RuleError(f"unknown buy-in source {source!r}; use one of {known}", _UNIVERSAL_BUY_INS)
    if hit_points and source.endswith("additional field role"):
        if readings.field_role_hit_points != FIELD_ROLE_HIT_POINTS.default:
            raise RuleError(
                "hit points are not bought from another field role at this table (table "
                f"reading \"{FIELD_ROLE_HIT_POINTS.title}\": not allowed)", _UNIVERSAL_BUY_INS)
        return 1
    return PURCHASE_SOURCES[source]


def buy_in_cost(
    cost: str | BuyInCost,
    purchase: int = 1,
    *,
    source: str = "own",
    hit_points: bool = False,
    readings: ShatteredWorldReadings = SEED_READINGS,
) -> int:
    """XP for the ``purchase``-th purchase of a buy-in, with the multiplier for its source.

    Args:
        cost: notation such as "2/x" or a :class:`BuyInCost`.
        purchase: k, >= 1.
        source: where it is bought from (see :func:`cost_multiplier`).
        hit_points: the buy-in raises hit points.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        ``next_cost(cost, purchase) * cost_multiplier(source, hit_points=hit_points)``.

    Raises:
        RuleError: see :func:`next_cost` and :func:`cost_multiplier`.

    Source: Shattered World Core Engine, Achievements and Buy-Ins; Universal Buy-Ins.
    """
    return next_cost(cost, purchase) * cost_multiplier(source, hit_points=hit_points,
                                                       readings=readings)


@dataclass(frozen=True)
class BuyIn:
    """A catalogue entry of a buy-in (Shattered World Core Engine, Universal Buy-Ins).

    Attributes:
        name: as the seed spells it, e.g. "Exceptional Ability, Each".
        cost: cost notation ("5/x2", "32", "1/e"), or "" for an entry that multiplies other
            costs instead.
        multiplier: the cost multiplier such an entry sets ("×2 Normal" is 2), else 1.
        effect: the seed's Effect column.
        special: the seed's Special column ("" for None).
        prerequisites: the seed's Prerequisite(s) column as text ("" for None).
        requires: names of buy-ins that must be owned first (from the prerequisites).
        min_achievements: Total Achievements required (0 for none).
        requires_proficiency: proficiency in the appropriate ability is required.
        requires_foible: the character must accept a foible.
    """

    name: str
    cost: str
    multiplier: int
    effect: str
    special: str
    prerequisites: str
    requires: tuple[str, ...] = ()
    min_achievements: int = 0
    requires_proficiency: bool = False
    requires_foible: bool = False

    @property
    def parsed_cost(self) -> BuyInCost | None:
        """The parsed :attr:`cost`, or None for a multiplier entry."""
        return parse_cost(self.cost) if self.cost else None


UNIVERSAL_BUY_INS: dict[str, BuyIn] = {
    buy_in.name: buy_in
    for buy_in in (
        BuyIn(
            name="Exceptional Ability, Each",
            cost="5/x2",
            multiplier=1,
            effect="Ability Score Cap to 40; +2 to that score",
            special="",
            prerequisites="",
        ),
        BuyIn(
            name="Uncanny Ability, Each",
            cost="8/x2",
            multiplier=1,
            effect="Ability Score Cap to 50; +2 to that score",
            special="Exceptional Abilities Only",
            prerequisites="Exceptional Abilities Only",
            requires=("Exceptional Ability, Each",),
        ),
        BuyIn(
            name="Super Ability, Each",
            cost="16/x2",
            multiplier=1,
            effect="Ability Score Cap to 60; +2 to that score",
            special="Uncanny + Proficient Abilities Only",
            prerequisites="Uncanny + Proficient Abilities Only",
            requires=("Uncanny Ability, Each",),
            requires_proficiency=True,
        ),
        BuyIn(
            name="Godly Ability",
            cost="32",
            multiplier=1,
            effect="No maximum; cannot critically fail any roll pertaining to this ability",
            special="Super + Proficient Ability only",
            prerequisites="Super + Proficient Ability only",
            requires=("Super Ability, Each",),
            requires_proficiency=True,
        ),
        BuyIn(
            name="Buy Into Adjacent Field Subrole",
            cost="",
            multiplier=2,
            effect="Extra cost to purchase Buy-Ins from Subroles within your primary Field Role",
            special="Min. 25 Achievements, Proficiency in appropriate ability, must accept foible",
            prerequisites=(
                "Min. 25 Achievements, Proficiency in appropriate ability, must accept foible"
            ),
            min_achievements=25,
            requires_proficiency=True,
            requires_foible=True,
        ),
        BuyIn(
            name="Buy Into Additional Field Role",
            cost="",
            multiplier=2,
            effect=(
                "Costs double to purchase Buy-Ins from first Field Role outside your own; "
                "excludes hit points"
            ),
            special="Min. 25 Achievements, Proficiency in appropriate ability",
            prerequisites="Min. 25 Achievements, Proficiency in appropriate ability",
            min_achievements=25,
            requires_proficiency=True,
        ),
        BuyIn(
            name="Buy Into Second Additional Field Role",
            cost="",
            multiplier=3,
            effect=(
                "Costs triple to purchase Buy-Ins from second Field Role outside your own; "
                "excludes hit points"
            ),
            special="Min. 50 Achievements, Proficiency in appropriate ability",
            prerequisites="Min. 50 Achievements, Proficiency in appropriate ability",
            min_achievements=50,
            requires_proficiency=True,
        ),
        BuyIn(
            name="Increase UAM",
            cost="1/e",
            multiplier=1,
            effect="UAM +1",
            special="Universal Action Modifier",
            prerequisites="",
        ),
    )
}
"""The seed's Universal Buy-Ins table, by name, in the seed's order (Shattered World Core
Engine, Universal Buy-Ins)."""


def unmet_prerequisites(
    buy_in: BuyIn,
    *,
    total_achievements: int,
    owned: Collection[str] = (),
    proficient: bool = False,
    accepts_foible: bool = False,
) -> tuple[str, ...]:
    """The prerequisites of a buy-in a character does not meet, as readable reasons.

    Args:
        buy_in: a :class:`BuyIn` (e.g. ``UNIVERSAL_BUY_INS["Buy Into Additional Field
            Role"]``).
        total_achievements: the character's Total Achievements (not current XP).
        owned: names of buy-ins the character already has (for the ability the purchase is
            about, where it concerns an ability).
        proficient: the character is proficient in the appropriate ability.
        accepts_foible: the player accepts the foible that comes with it.

    Returns:
        One sentence per unmet prerequisite, e.g. "needs min. 25 achievements (has 12)";
        empty when all are met.

    Source: Shattered World Core Engine, Universal Buy-Ins.
    """
    reasons: list[str] = []
    if total_achievements < buy_in.min_achievements:
        reasons.append(
            f"needs min. {buy_in.min_achievements} achievements (has {total_achievements})"
        )
    reasons.extend(f"needs {name} first" for name in buy_in.requires if name not in owned)
    if buy_in.requires_proficiency and not proficient:
        reasons.append("needs proficiency in the appropriate ability")
    if buy_in.requires_foible and not accepts_foible:
        reasons.append("must accept a foible")
    return tuple(reasons)


def check_prerequisites(
    buy_in: BuyIn,
    *,
    total_achievements: int,
    owned: Collection[str] = (),
    proficient: bool = False,
    accepts_foible: bool = False,
) -> None:
    """Refuse a buy-in whose prerequisites are not met.

    Args:
        buy_in, total_achievements, owned, proficient, accepts_foible: as for
            :func:`unmet_prerequisites`.

    Raises:
        RuleError: naming the buy-in and every unmet prerequisite, e.g. "Buy Into Additional
            Field Role needs min. 25 achievements (has 12)".

    Source: Shattered World Core Engine, Universal Buy-Ins.
    """
    reasons = unmet_prerequisites(
        buy_in,
        total_achievements=total_achievements,
        owned=owned,
        proficient=proficient,
        accepts_foible=accepts_foible,
    )
    if reasons:
        raise RuleError(f"{buy_in.name} {'; '.join(reasons)}", _UNIVERSAL_BUY_INS)
