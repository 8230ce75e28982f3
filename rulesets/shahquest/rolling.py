"""Rolling a Shahquest pool with the injected RNG: the preselected best effort total and
effect die, and the player's own choice after the roll with the plot-point options (Shahquest
wiki, Dice Pools / After you roll the dice ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError
from rulesets.shahquest.catalogue import (
    _EFFORT,
    _EXTRA_EFFECT,
    _POOLS,
    SYSTEM,
    _die,
    _plural,
    _rule,
)
from rulesets.shahquest.pools import DicePool
from rulesets.stored import Stored

_REACTION_EFFECT = "Use a Effect die from a reaction"

@dataclass(frozen=True)
class Selection:
    """Which rolled dice make the effort total and the effect dice, by index into the roll.

    Attributes:
        effort: indices of the effort dice; the first two are free, each further one costs a
            plot point (Shahquest wiki, Add to Effort total).
        effect: indices of the effect dice; the first is free, each further one costs a plot
            point (Shahquest wiki, Extra Effect die). Empty when no die is left (an effect
            d4, or none under the table reading; :attr:`DicePool.no_effect_die`).
        reaction_effect: the roll was a reaction the character won, and a plot point makes
            its effect die count (Shahquest wiki, Use a Effect die from a reaction).
    """

    effort: tuple[int, ...]
    effect: tuple[int, ...]
    reaction_effect: bool = False

    @property
    def plot_points(self) -> int:
        """Plot points this selection costs after the roll: extra effort and effect dice, and
        one for using a reaction's effect die."""
        return (max(0, len(self.effort) - 2) + max(0, len(self.effect) - 1)
                + int(self.reaction_effect))


def _check_faces(sizes: Sequence[int], faces: Sequence[int]) -> None:
    if len(faces) != len(sizes):
        raise RuleError(
            f"{len(faces)} faces were given for a pool of {len(sizes)} dice", _rule(_POOLS)
        )
    for size, face in zip(sizes, faces, strict=True):
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= size:
            raise RuleError(f"a d{size} cannot show {face!r}", _rule(_POOLS))


def best_selection(sizes: Sequence[int], faces: Sequence[int]) -> Selection:
    """The preselected choice: the best effort total, then the largest effect die.

    Set aside the 1s (opportunities). Effort: the two highest faces among the other dice (one
    when only one is left, none when every die shows 1). Among equal faces the smaller die
    goes to effort, keeping larger dice for the effect. Effect: the largest die size among
    the dice left (it is the size that counts, not the face); among equal sizes the lowest
    face, keeping higher faces for a plot-point effort die. The seed's example: d10, d8, d8,
    d8, d6 showing 7, 2, 1, 3, 4 -> effort 7 + 4 = 11, effect d8 (the d8 showing 2)
    (Shahquest wiki, Dice Pools).

    Args:
        sizes: die sizes in roll order.
        faces: the faces rolled, same order.

    Returns:
        A :class:`Selection` costing no plot points.

    Raises:
        RuleError: faces and sizes disagree in length, or a face is impossible for its die.
    """
    _check_faces(sizes, faces)
    live = [i for i, face in enumerate(faces) if face != 1]
    by_face = sorted(live, key=lambda i: (-faces[i], sizes[i], i))
    effort = tuple(by_face[:2])
    rest = [i for i in live if i not in effort]
    by_size = sorted(rest, key=lambda i: (-sizes[i], faces[i], i))
    return Selection(effort=effort, effect=tuple(by_size[:1]))


def check_selection(
    sizes: Sequence[int],
    faces: Sequence[int],
    selection: Selection,
    *,
    plot_points: int | None = None,
) -> None:
    """Check a player's choice of effort and effect dice after the roll.

    Rules: 1s are opportunities and count for neither (Shahquest wiki, Dice Pools); every
    chosen die is a different die of the roll; effort takes two dice (all the non-1 dice
    when fewer than two are left), each further effort die costs a plot point (Add to Effort
    total); one effect die is kept from the dice left whenever any is left, and each further
    effect die costs a plot point (Extra Effect die); a die used for effort cannot be an
    effect die.

    Args:
        sizes: die sizes in roll order.
        faces: the faces rolled, same order.
        selection: the player's choice (indices into the roll).
        plot_points: the plot points the player has; None skips the check.

    Raises:
        RuleError: an index outside the roll, an opportunity chosen, a die chosen twice, too
            few effort dice, no effect die while one is left, or more plot points than the
            player has.
    """
    _check_faces(sizes, faces)
    chosen = list(selection.effort) + list(selection.effect)
    for index in chosen:
        if not 0 <= index < len(faces):
            raise RuleError(
                f"there is no die number {index + 1} in a pool of {len(faces)} dice",
                _rule(_POOLS),
            )
        if faces[index] == 1:
            raise RuleError(
                f"the d{sizes[index]} (die {index + 1}) rolled a 1: an opportunity die counts "
                "for neither effort nor effect",
                _rule(_POOLS),
            )
    if len(set(chosen)) != len(chosen):
        raise RuleError(
            "each die can be used once: a die used for the effort total cannot also be an "
            "effect die",
            _rule(_EFFORT),
        )
    live = sum(1 for face in faces if face != 1)
    if len(selection.effort) < min(2, live):
        raise RuleError(
            f"the effort total takes two dice, not {len(selection.effort)}", _rule(_POOLS)
        )
    if not selection.effect and live > len(selection.effort):
        raise RuleError("keep one of the dice left as your effect die", _rule(_POOLS))
    if selection.reaction_effect and not selection.effect:
        raise RuleError("a reaction's effect die is one of the dice left after the effort, "
                        "and none is left", _rule(_REACTION_EFFECT))
    if plot_points is not None and selection.plot_points > plot_points:
        what = "these extra effort and effect dice"
        if selection.reaction_effect:
            what += " and the reaction's effect die"
        raise RuleError(
            f"{what} cost {_plural(selection.plot_points, 'plot point')} but you have "
            f"{plot_points}",
            _rule(_EFFORT if len(selection.effort) > 2 else
                  _REACTION_EFFECT if selection.reaction_effect else _EXTRA_EFFECT),
        )


@dataclass(frozen=True)
class RollResult:
    """A rolled dice pool: every die, the choice of dice and the outcome.

    Attributes:
        pool: the :class:`DicePool` rolled.
        faces: the face of each pool die, in pool order.
        selection: effort and effect dice (checked on creation with
            :func:`check_selection`).

    The outcome is derived from the dice and the selection: :attr:`effort`,
    :attr:`effect_die`, :attr:`extra_effect_dice`, :attr:`opportunities`.

    Raises:
        RuleError: on creation, when the faces or selection break the rules.
    """

    pool: DicePool
    faces: tuple[int, ...]
    selection: Selection

    def __post_init__(self) -> None:
        check_selection(self.pool.sizes, self.faces, self.selection)

    def verdict(self) -> tuple[str, int]:
        """The roll log's ``(outcome, net)``: "rolled", since an effort total has no pass or
        fail (Shahquest wiki, Dice Pools), and no number to sort by (0)."""
        return "rolled", 0

    @property
    def effort(self) -> int:
        """The effort total: the sum of the effort dice's faces (0 when every die shows 1)."""
        return sum(self.faces[i] for i in self.selection.effort)

    @property
    def effect_die(self) -> int | None:
        """The effect die's size; when no die was left for it, the pool's
        :attr:`DicePool.no_effect_die`: a d4 (RULES.md Decision) or, under the table reading
        ``effect_die_default="no_effect"``, None (no effect die)."""
        if not self.selection.effect:
            return self.pool.no_effect_die
        return self.pool.sizes[self.selection.effect[0]]

    @property
    def extra_effect_dice(self) -> tuple[int, ...]:
        """Sizes of the extra effect dice kept with plot points."""
        return tuple(self.pool.sizes[i] for i in self.selection.effect[1:])

    @property
    def opportunities(self) -> tuple[int, ...]:
        """Indices of the opportunity dice (the 1s), set aside."""
        return tuple(i for i, face in enumerate(self.faces) if face == 1)

    @property
    def opportunity_dice(self) -> tuple[int, ...]:
        """Sizes of the opportunity dice, e.g. ``(8,)``; each may go to the tension pool for
        a plot point (Shahquest wiki, Dice Pools)."""
        return tuple(self.pool.sizes[i] for i in self.opportunities)

    @property
    def plot_points_after_roll(self) -> int:
        """Plot points the selection costs after the roll (extra effort and effect dice)."""
        return self.selection.plot_points

    @property
    def stress_step_up(self) -> tuple[str, ...]:
        """Own stress types to step up now the roll is over (from the pool)."""
        return self.pool.stress_step_up

    def summary(self) -> str:
        """One line for the roll log, e.g. "Effort 11, effect d8, 1 opportunity"; "Effort 8,
        no effect die" when none was left and the table reads it so."""
        if self.effect_die is None:
            text = f"Effort {self.effort}, no effect die"
        else:
            effects = [_die(self.effect_die), *(_die(s) for s in self.extra_effect_dice)]
            text = f"Effort {self.effort}, effect {' + '.join(effects)}"
        if self.selection.reaction_effect:
            text += " (a reaction's effect die)"
        if self.opportunities:
            count = len(self.opportunities)
            text += f", {count} {'opportunity' if count == 1 else 'opportunities'}"
        return text

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage; see :meth:`from_dict`.

        Keys: "system" ("shahquest"), "pool" (:meth:`DicePool.as_dict`), "dice" (list of
        ``{"size", "face"}`` in pool order), "effort_dice" and "effect_dice" (indices),
        "effort", "effect_die" (null: no effect die), "extra_effect_dice", "opportunities"
        (indices),
        "opportunity_dice" (sizes), "plot_points_after_roll", "stress_step_up", "summary";
        and "reaction_effect": true only when a reaction's effect die was used.
        """
        reaction = {"reaction_effect": True} if self.selection.reaction_effect else {}
        return {**reaction,
            "system": SYSTEM,
            "pool": self.pool.as_dict(),
            "dice": [
                {"size": size, "face": face}
                for size, face in zip(self.pool.sizes, self.faces, strict=True)
            ],
            "effort_dice": list(self.selection.effort),
            "effect_dice": list(self.selection.effect),
            "effort": self.effort,
            "effect_die": self.effect_die,
            "extra_effect_dice": list(self.extra_effect_dice),
            "opportunities": list(self.opportunities),
            "opportunity_dice": list(self.opportunity_dice),
            "plot_points_after_roll": self.plot_points_after_roll,
            "stress_step_up": list(self.stress_step_up),
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict`.

        Only the pool, the faces and the chosen indices are read; the effort total, effect
        die and opportunities are recomputed from them.

        Raises:
            RuleError: a missing or mistyped field, or dice and selection that break the
                rules.
        """
        stored = Stored(data, _rule(_POOLS))
        pool = DicePool.from_dict(stored.mapping("pool"))
        faces = tuple(Stored(item, _rule(_POOLS)).int("face") for item in stored.mappings("dice"))
        reaction = data.get("reaction_effect", False)
        if not isinstance(reaction, bool):
            raise RuleError(f"reaction_effect must be true or false, not {reaction!r}",
                            _rule(_REACTION_EFFECT))
        return cls(
            pool=pool,
            faces=faces,
            selection=Selection(
                effort=stored.ints("effort_dice"), effect=stored.ints("effect_dice"),
                reaction_effect=reaction,
            ),
        )


def roll(pool: DicePool, rng: Rng) -> RollResult:
    """Roll a dice pool and preselect the best effort total and effect die.

    One ``rng.randint(1, size)`` per die, in pool order; the selection is
    :func:`best_selection` (Shahquest wiki, Dice Pools). The player may then choose other
    dice with :func:`choose_dice`.

    Args:
        pool: the pool to roll.
        rng: the injected random source.

    Returns:
        A :class:`RollResult`.
    """
    faces = tuple(roll_die(rng, size) for size in pool.sizes)
    return RollResult(pool=pool, faces=faces, selection=best_selection(pool.sizes, faces))


def choose_dice(
    result: RollResult,
    *,
    effort: Sequence[int],
    effect: Sequence[int],
    plot_points: int | None = None,
    reaction_effect: bool = False,
) -> RollResult:
    """The player's own choice of dice after the roll, with the plot-point options.

    Two effort dice and one effect die are free; each further effort die and each further
    effect die costs a plot point (Shahquest wiki, Add to Effort total; Extra Effect die).
    The cost is :attr:`RollResult.plot_points_after_roll`.

    Args:
        result: the roll.
        effort: indices (0-based, pool order) of the effort dice.
        effect: indices of the effect dice, the main one first.
        plot_points: the plot points the player has; None skips the check.
        reaction_effect: the roll was a reaction won, and its effect die is used (one more
            plot point; Shahquest wiki, Use a Effect die from a reaction).

    Returns:
        A new :class:`RollResult` with that selection.

    Raises:
        RuleError: see :func:`check_selection`.
    """
    selection = Selection(effort=tuple(effort), effect=tuple(effect),
                          reaction_effect=reaction_effect)
    check_selection(result.pool.sizes, result.faces, selection, plot_points=plot_points)
    return replace(result, selection=selection)
