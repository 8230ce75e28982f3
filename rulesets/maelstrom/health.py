"""Maelstrom's health chart: marking damage, wound penalties and healing (Maelstrom
rules.md, Health / Marking Damage / Wound Penalties / Incapacitation and Death)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import _rule
from rulesets.maelstrom.readings import SEED_READINGS, MaelstromReadings

# ---------------------------------------------------------------------------------------------
# Health: Maelstrom rules.md, Health / Marking Damage / Wound Penalties /
# Incapacitation and Death
# ---------------------------------------------------------------------------------------------

HEALTH_LEVELS: tuple[tuple[str, int | None], ...] = (
    ("Bruised", 0),
    ("Scratched", -1),
    ("Hurt", -1),
    ("Injured", -2),
    ("Wounded", -2),
    ("Mauled", -3),
    ("Crippled", -5),
    ("Incapacitated", None),
)
"""The health chart top to bottom as (level name, wound penalty in dice); the Incapacitated
box has no wound penalty (Maelstrom rules.md, Incapacitation and Death; names and penalties from
the repository's character sheet, see RULES.md section 1)."""

HUGE_SIZE_LEVEL: tuple[str, int | None] = ("Huge Size", 0)
"""Extra box with 0 penalty at the top of the chart for the Huge Size merit (Maelstrom
rules.md, Merits, Huge Size)."""

DAMAGE_KINDS: tuple[str, ...] = ("bashing", "lethal", "aggravated")
"""Damage types, least serious first (Maelstrom rules.md, Types of Damage)."""

DAMAGE_MARKS: dict[str, str] = {"aggravated": "*", "lethal": "X", "bashing": "/"}
"""How each damage type is marked in a box (Maelstrom rules.md, Marking Damage)."""

EMPTY_MARK = " "
"""Mark of an undamaged box."""


def _check_damage_kind(kind: str, section: str) -> None:
    if kind not in DAMAGE_KINDS:
        raise RuleError(
            f"unknown damage type {kind!r}; expected bashing, lethal or aggravated",
            _rule(section),
        )


def _check_levels(levels: int, section: str) -> None:
    if levels < 1:
        raise RuleError(f"levels must be at least 1, not {levels}", _rule(section))


@dataclass(frozen=True)
class HealthChart:
    """A character's health chart, stored as counts of each damage type.

    The order of the boxes is implied by the counts: aggravated damage fills the top boxes,
    then lethal, then bashing, then the empty boxes (Maelstrom rules.md, Marking Damage).

    Attributes:
        bashing: levels of bashing damage ("/").
        lethal: levels of lethal damage ("X").
        aggravated: levels of aggravated damage ("*").
        huge_size: the character has the Huge Size merit: a ninth box at the top, 0 penalty.
        dead: the character has taken fatal damage (Maelstrom rules.md, Incapacitation and
            Death).

    Raises:
        RuleError: on construction, if a count is negative or the damage exceeds the boxes.
    """

    bashing: int = 0
    lethal: int = 0
    aggravated: int = 0
    huge_size: bool = False
    dead: bool = False

    def __post_init__(self) -> None:
        for kind in DAMAGE_KINDS:
            if getattr(self, kind) < 0:
                raise RuleError(f"{kind} damage cannot be negative", _rule("Marking Damage"))
        if self.damaged > self.boxes:
            raise RuleError(
                f"{self.damaged} levels of damage do not fit in {self.boxes} health boxes",
                _rule("Marking Damage"),
            )

    @property
    def boxes(self) -> int:
        """Number of boxes (levels) on the chart: 8, or 9 with Huge Size."""
        return len(HEALTH_LEVELS) + (1 if self.huge_size else 0)

    @property
    def damaged(self) -> int:
        """Number of damaged boxes (levels of damage of all types)."""
        return self.bashing + self.lethal + self.aggravated

    def levels(self) -> list[tuple[str, int | None]]:
        """The chart's boxes top to bottom as (level name, wound penalty) pairs.

        Returns:
            :data:`HEALTH_LEVELS` as a list, preceded by :data:`HUGE_SIZE_LEVEL` when
            ``huge_size`` is set.
        """
        top = [HUGE_SIZE_LEVEL] if self.huge_size else []
        return top + list(HEALTH_LEVELS)

    def marks(self) -> list[str]:
        """The box marks top to bottom: "*" per aggravated, "X" per lethal, "/" per bashing,
        then " " for each empty box (Maelstrom rules.md, Marking Damage).

        Returns:
            A list of ``boxes`` one-character strings.
        """
        return (
            [DAMAGE_MARKS["aggravated"]] * self.aggravated
            + [DAMAGE_MARKS["lethal"]] * self.lethal
            + [DAMAGE_MARKS["bashing"]] * self.bashing
            + [EMPTY_MARK] * (self.boxes - self.damaged)
        )

    @property
    def wound_penalty(self) -> int:
        """Dice removed from action pools, as a positive number (Maelstrom rules.md, Wound
        Penalties).

        0 when undamaged; otherwise the penalty of the bottom-most damaged box. The
        Incapacitated box has no penalty ("marked Incapacitated with no wound penalty"): once
        it is damaged this is 0, and :attr:`incapacitated` forbids actions instead.
        """
        if self.incapacitated:
            return 0
        levels = self.levels()
        for index in range(self.damaged - 1, -1, -1):
            penalty = levels[index][1]
            if penalty is not None:
                return -penalty
        return 0

    @property
    def incapacitated(self) -> bool:
        """True when the bottom (Incapacitated) box holds damage: the character is unconscious
        and cannot act (Maelstrom rules.md, Incapacitation and Death). Also true when dead."""
        return self.dead or self.damaged >= self.boxes

    @property
    def level_name(self) -> str:
        """Level name: "Healthy" when undamaged, "Dead" when dead, else the bottom-most damaged
        box's name (e.g. "Hurt" after three levels)."""
        if self.dead:
            return "Dead"
        if self.damaged == 0:
            return "Healthy"
        return self.levels()[self.damaged - 1][0]


def _take_one_level(chart: HealthChart, kind: str, readings: MaelstromReadings) -> HealthChart:
    if chart.damaged < chart.boxes:
        return replace(chart, **{kind: getattr(chart, kind) + 1})
    if chart.bashing > 0 and (kind == "bashing" or readings.full_chart == "replaces_bashing"):
        # Full chart, the bottom box holds bashing. A further bashing converts the top-most
        # bashing to lethal; a lethal or aggravated level takes the place of one bashing.
        if kind == "aggravated":
            return replace(chart, bashing=chart.bashing - 1, aggravated=chart.aggravated + 1)
        return replace(chart, bashing=chart.bashing - 1, lethal=chart.lethal + 1)
    # Full chart, the bottom box holds lethal or aggravated: the next level is fatal.
    return replace(chart, dead=True)


def take_damage(chart: HealthChart, kind: str, levels: int = 1,
                readings: MaelstromReadings = SEED_READINGS) -> HealthChart:
    """Mark ``levels`` levels of ``kind`` damage (after soaking) on the chart.

    Levels are applied one at a time (Maelstrom rules.md, Marking Damage; Incapacitation and
    Death):

    - while a box is free, the level fills one; the more serious types sit on top, so a new
      lethal level "pushes the bashing damage down" (seed example: ``X / /`` + 1 lethal =
      ``X X / /``);
    - when every box is full and the bottom box holds bashing, a further bashing level
      converts the top-most bashing to lethal. A further lethal or aggravated level takes the
      place of one bashing level (one bashing is pushed off the chart). The seed is silent on
      this second case; this is our documented decision, and it moves the chart towards
      death exactly as the bashing conversion does; under the table reading
      ``full_chart="fatal"`` that level is fatal instead;
    - when every box is full and the bottom box holds lethal or aggravated (no bashing left),
      the next level of any type is fatal: the result has ``dead=True`` and the remaining
      levels of this call are ignored.

    Args:
        chart: the current chart (not modified; charts are immutable).
        kind: "bashing", "lethal" or "aggravated".
        levels: levels of damage, >= 1.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        The new chart.

    Raises:
        RuleError: unknown kind, ``levels`` < 1, or the character is already dead.
    """
    _check_damage_kind(kind, "Types of Damage")
    _check_levels(levels, "Marking Damage")
    if chart.dead:
        raise RuleError(
            "the character is dead and cannot take more damage",
            _rule("Incapacitation and Death"),
        )
    for _ in range(levels):
        chart = _take_one_level(chart, kind, readings)
        if chart.dead:
            break
    return chart


def heal(chart: HealthChart, kind: str | None = None, levels: int = 1) -> HealthChart:
    """Remove ``levels`` levels of damage from the chart.

    With ``kind`` given, only that type is removed. With ``kind`` None the least serious
    damage goes first (bashing, then lethal, then aggravated): "less serious damage types are
    healed first" (Maelstrom rules.md, Marking Damage). How long healing takes is not written
    in the seed and is left to the storyteller.

    Args:
        chart: the current chart.
        kind: "bashing", "lethal", "aggravated" or None for the least serious first.
        levels: levels to heal, >= 1.

    Returns:
        The new chart.

    Raises:
        RuleError: unknown kind, ``levels`` < 1, not that much damage (of that kind) to heal,
            or the character is dead.
    """
    _check_levels(levels, "Marking Damage")
    if kind is not None:
        _check_damage_kind(kind, "Types of Damage")
    if chart.dead:
        raise RuleError(
            "the character is dead; damage cannot be healed", _rule("Incapacitation and Death")
        )
    if kind is not None:
        have = getattr(chart, kind)
        if have < levels:
            raise RuleError(
                f"there {'is' if have == 1 else 'are'} only {have} level"
                f"{'' if have == 1 else 's'} of {kind} damage to heal, not {levels}",
                _rule("Marking Damage"),
            )
        return replace(chart, **{kind: have - levels})
    if chart.damaged < levels:
        raise RuleError(
            f"there {'is' if chart.damaged == 1 else 'are'} only {chart.damaged} level"
            f"{'' if chart.damaged == 1 else 's'} of damage to heal, not {levels}",
            _rule("Marking Damage"),
        )
    counts = {name: getattr(chart, name) for name in DAMAGE_KINDS}
    remaining = levels
    for name in DAMAGE_KINDS:
        taken = min(counts[name], remaining)
        counts[name] -= taken
        remaining -= taken
    return replace(chart, **counts)

