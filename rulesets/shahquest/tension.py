"""The GM's tension pool: building it, using its dice, and rolling it as general danger
(Shahquest wiki, Tension Pool).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulesets import dice as _dice
from rulesets.dice import Rng, format_dice, parse_dice
from rulesets.errors import RuleError
from rulesets.shahquest.catalogue import (
    _BUILDING_TENSION,
    _DANGER,
    _TENSION,
    _USING_TENSION,
    SYSTEM,
    _check_step_die,
    _rule,
)
from rulesets.shahquest.pools import DicePool, PoolDie
from rulesets.shahquest.readings import SEED_READINGS, ShahquestReadings
from rulesets.shahquest.rolling import RollResult, roll
from rulesets.stored import Stored

STARTING_TENSION: tuple[int, ...] = (6, 6, 6)
"""The tension pool "usually starts at 3d6" (Shahquest wiki, Tension Pool)."""


@dataclass(frozen=True)
class TensionPool:
    """The GM's tension pool: tension dice, largest first (Shahquest wiki, Tension Pool).

    Attributes:
        dice: die sizes, e.g. ``(6, 6, 6)``; :meth:`start` builds one.
    """

    dice: tuple[int, ...] = STARTING_TENSION

    def __post_init__(self) -> None:
        for size in self.dice:
            _check_step_die(size, "a tension die", _TENSION)
        object.__setattr__(self, "dice", tuple(sorted(self.dice, reverse=True)))

    @classmethod
    def start(cls, dice: str | Sequence[int] = STARTING_TENSION) -> TensionPool:
        """A new tension pool: 3d6 unless a challenging adventure steps up or spreads it.

        Args:
            dice: notation ("3d6", "d8 3d6") or sizes.

        Raises:
            RuleError: bad notation or a die that is not a step die.
        """
        sizes = parse_dice(dice) if isinstance(dice, str) else tuple(dice)
        return cls(dice=sizes)

    def describe(self) -> str:
        """One line for the GM, e.g. "Tension pool: d8 3d6" or "Tension pool: empty"."""
        return f"Tension pool: {format_dice(self.dice) or 'empty'}"

    def as_dict(self) -> dict[str, object]:
        """``{"system": "shahquest", "tension_pool": [8, 6, 6, 6]}``; see :meth:`from_dict`."""
        return {"system": SYSTEM, "tension_pool": list(self.dice)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TensionPool:
        """Rebuild a pool stored with :meth:`as_dict`.

        Raises:
            RuleError: a missing or mistyped field or a die that is not a step die.
        """
        return cls(dice=Stored(data, _rule(_TENSION)).ints("tension_pool"))

    def activate_opportunity(self, step_up: int | None = None, *, add: int = 6) -> TensionPool:
        """The GM activates one opportunity die: add a d6, or step up one tension die.

        "When the GM activates an Opportunity die, he adds a d6 to the Tension Pool or Steps
        Up a Tension die" (Shahquest wiki, Building the Tension). Call once per opportunity
        activated (the player gets a plot point for each). **Decision:** the Dice Pools
        example instead adds the opportunity die itself ("add the d8 into the Tension
        Pool"), so the die added may be given; it defaults to the d6.

        Args:
            step_up: None to add a die; else the size of the tension die to step up.
            add: the size of the die added when not stepping up (default 6).

        Returns:
            The new :class:`TensionPool`.

        Raises:
            RuleError: no tension die of that size, or a d12 (it cannot step up).
        """
        if step_up is None:
            _check_step_die(add, "the tension die added", _BUILDING_TENSION)
            return TensionPool(dice=(*self.dice, add))
        remaining = self._without(step_up, _BUILDING_TENSION)
        stepped = _dice.step_up(step_up)
        if stepped is None:
            raise RuleError("a d12 tension die cannot be stepped up", _rule(_BUILDING_TENSION))
        return TensionPool(dice=(*remaining, stepped))

    def _without(self, size: int, section: str) -> tuple[int, ...]:
        _check_step_die(size, "the tension die", section)
        if size not in self.dice:
            raise RuleError(
                f"there is no d{size} in the tension pool ({format_dice(self.dice) or 'empty'})",
                _rule(section),
            )
        dice = list(self.dice)
        dice.remove(size)
        return tuple(dice)

    def take(self, size: int) -> TensionPool:
        """Remove one tension die, to add it to an NPC's pool or to spend it on effort or
        effect by matching a die of the same size (Shahquest wiki, Using the Tension Pool).

        Args:
            size: the die size to take out.

        Returns:
            The pool without that die (pass the size to :func:`build_pool`'s
            ``tension_dice`` for an NPC roll).

        Raises:
            RuleError: no such die in the pool.
        """
        return TensionPool(dice=self._without(size, _USING_TENSION))

    def give_back(self, size: int, *, opportunity_activated: bool = False) -> TensionPool:
        """Return a used tension die to the pool; the GM gives the player a plot point.

        Not allowed when "the die rolled an Opportunity and the Player activated that
        Opportunity" (Shahquest wiki, Using the Tension Pool).

        Args:
            size: the die size returned.
            opportunity_activated: the die rolled a 1 and the player activated it.

        Returns:
            The pool with the die back.

        Raises:
            RuleError: the opportunity was activated, or the size is not a step die.
        """
        _check_step_die(size, "the tension die", _USING_TENSION)
        if opportunity_activated:
            raise RuleError(
                f"the d{size} rolled an opportunity the player activated, so it cannot return "
                "to the tension pool",
                _rule(_USING_TENSION),
            )
        return TensionPool(dice=(*self.dice, size))

    def danger_pool(
        self, *, setting_die: int | None = None, complications: Sequence[int] = ()
    ) -> DicePool:
        """The pool the GM rolls as general danger: every tension die, the setting die and
        any complication dice (Shahquest wiki, Tension Pool as General Danger; A Complication
        "is added as a die to Tension Pool rolls in addition to any Setting die").

        Args:
            setting_die: the GM's setting die (sides, d4-d12), or ``None``.
            complications: the sides of each complication die in play.

        Returns:
            A :class:`DicePool` costing no plot points, ready for :func:`roll`.

        Raises:
            RuleError: an empty pool or a bad die.
        """
        dice = [PoolDie(size=size, source="tension", name="Tension die") for size in self.dice]
        if setting_die is not None:
            _check_step_die(setting_die, "the setting die", _DANGER)
            dice.append(PoolDie(size=setting_die, source="setting", name="Setting die"))
        for size in complications:
            _check_step_die(size, "a complication die", _DANGER)
            dice.append(PoolDie(size=size, source="complication", name="Complication"))
        if not dice:
            raise RuleError("the tension pool is empty and there is no setting die", _rule(_DANGER))
        return DicePool(dice=tuple(dice))


def roll_general_danger(
    tension: TensionPool,
    rng: Rng,
    *,
    setting_die: int | None = None,
    complications: Sequence[int] = (),
    readings: ShahquestReadings = SEED_READINGS,
) -> RollResult:
    """Roll the whole tension pool as general danger: two dice for effort, one for effect.

    The GM rolls the tension pool plus a setting die and complication dice, and takes the
    best two for the effort total and one for the effect (:func:`best_selection`); a PC
    whose effort total is less takes stress or a complication (Shahquest wiki, Tension Pool
    as General Danger). The tension pool itself is unchanged.

    Args:
        tension: the tension pool.
        rng: the injected random source.
        setting_die: the setting die size, or None.
        complications: complication die sizes on the PC.
        readings: the campaign's table readings (the seed's by default): the effect die when
            no die is left for it (:meth:`DicePool.under`).

    Returns:
        A :class:`RollResult`.

    Raises:
        RuleError: see :meth:`TensionPool.danger_pool`.
    """
    pool = tension.danger_pool(setting_die=setting_die, complications=complications)
    return roll(pool.under(readings), rng)
