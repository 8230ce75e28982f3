"""Rolling a Maelstrom pool with the injected RNG and resolving it, the experience die
and Willpower's spend and botch rules (Maelstrom rules.md, Resolving the Result /
Threshold / Using Specialties / Adding Experience Dice / Rolling Willpower)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import _STORED_RULE, DIE_SIDES, MAX_BONUS_DICE, _rule
from rulesets.maelstrom.pools import (
    AUTOMATIC_AT,
    ActionPool,
    _check_difficulty,
    _check_threshold,
)
from rulesets.stored import Stored

# ---------------------------------------------------------------------------------------------
# Rolling and resolving: Maelstrom rules.md, Resolving the Result / Threshold /
# Using Specialties / Adding Experience Dice / Rolling Willpower
# ---------------------------------------------------------------------------------------------

OUTCOMES: tuple[str, ...] = ("success", "failure", "botch")
"""The three results of a roll (Maelstrom rules.md, Resolving the Result, Step 4)."""


@dataclass(frozen=True)
class Resolution:
    """The counted result of a roll.

    Attributes:
        successes: raw successes on all dice (regular and bonus) plus automatic successes.
        removed_by_threshold: successes removed by the threshold, min(threshold, successes).
        botches: 1s on the regular dice (bonus dice never botch).
        net: successes left after the threshold and the botches, >= 0.
        outcome: "success" (net > 0), "botch" (more botches than the successes left after the
            threshold) or "failure".
    """

    successes: int
    removed_by_threshold: int
    botches: int
    net: int
    outcome: str

    @property
    def remaining(self) -> int:
        """Successes left after the threshold, before botches cancel them."""
        return self.successes - self.removed_by_threshold


def _check_faces(dice: Sequence[int], what: str) -> None:
    for face in dice:
        if not 1 <= face <= DIE_SIDES:
            raise RuleError(
                f"{what} must show 1 to {DIE_SIDES}, not {face}", _rule("Resolving the Result")
            )


def resolve(
    *,
    dice: Sequence[int],
    bonus_dice: Sequence[int],
    difficulty: int,
    threshold: int,
    automatic_successes: int = 0,
    botches: bool = True,
    automatic_at: str = "before_threshold",
) -> Resolution:
    """Count a roll's successes and botches and decide the outcome.

    Maelstrom rules.md, Resolving the Result (Steps 2-4) and Threshold:

    1. successes = dice and bonus dice showing ``difficulty`` or more, plus
       ``automatic_successes``;
    2. the threshold removes min(threshold, successes); removed successes "effectively never
       happened", not even against botches;
    3. botches = 1s on the regular dice (1s on bonus dice are ignored); each cancels one
       remaining success;
    4. successes left: success with that many; more botches than remaining successes: botch;
       otherwise failure.

    The table readings (:mod:`rulesets.maelstrom.readings`) change two steps: with
    ``botches`` False no 1 botches (a specialty's roll under "specialty_botch"); with
    ``automatic_at`` "after_threshold" the threshold removes dice successes only and the
    automatic successes are added after it, and with "kept" no botch cancels them either.

    Args:
        dice: faces of the regular dice (1-10).
        bonus_dice: faces of bonus dice from exploding tens and the experience die (1-10).
        difficulty: 2-10.
        threshold: >= 0.
        automatic_successes: >= 0 (Strong Bond on Willpower rolls).
        botches: whether 1s on the regular dice botch.
        automatic_at: "before_threshold", "after_threshold" or "kept"
            (:data:`rulesets.maelstrom.pools.AUTOMATIC_AT`).

    Returns:
        A :class:`Resolution`.

    Raises:
        RuleError: a face outside 1-10, or a bad difficulty, threshold or automatic successes.
    """
    _check_difficulty(difficulty)
    _check_threshold(threshold)
    if automatic_successes < 0:
        raise RuleError("automatic successes cannot be negative", _rule("Rolling Willpower"))
    _check_faces(dice, "dice")
    _check_faces(bonus_dice, "bonus dice")
    rolled = (
        sum(1 for face in dice if face >= difficulty)
        + sum(1 for face in bonus_dice if face >= difficulty)
    )
    successes = rolled + automatic_successes
    # Successes the threshold may take: all of them, or the dice's alone when the automatic
    # ones come after it; those a botch may cancel: all that are left, or the dice's alone.
    removed = min(threshold, successes if automatic_at == AUTOMATIC_AT[0] else rolled)
    remaining = successes - removed
    kept = automatic_successes if automatic_at == "kept" else 0
    counted = sum(1 for face in dice if face == 1) if botches else 0
    net = max(0, remaining - kept - counted) + kept
    if net > 0:
        outcome = "success"
    elif counted > remaining - kept:
        outcome = "botch"
    else:
        outcome = "failure"
    return Resolution(
        successes=successes,
        removed_by_threshold=removed,
        botches=counted,
        net=net,
        outcome=outcome,
    )


@dataclass(frozen=True)
class RollResult:
    """A rolled pool with its dice and resolution.

    Attributes:
        pool: the :class:`ActionPool` rolled.
        dice: faces of the regular dice, in the order rolled.
        bonus_dice: faces of the bonus dice from exploding tens, breadth-first.
        experience_die: the experience die followed by the bonus dice its tens chained; empty
            when none was added.
        resolution: the :class:`Resolution` over all dice (bonus and experience dice
            included).
    """

    pool: ActionPool
    dice: tuple[int, ...]
    bonus_dice: tuple[int, ...]
    experience_die: tuple[int, ...]
    resolution: Resolution

    @property
    def outcome(self) -> str:
        """The outcome: "success", "failure" or "botch"."""
        return self.resolution.outcome

    @property
    def net(self) -> int:
        """Net successes (0 unless the outcome is a success)."""
        return self.resolution.net

    def verdict(self) -> tuple[str, int]:
        """The roll log's ``(outcome, net)``: success, failure or botch, and net successes."""
        return self.outcome, self.net

    def summary(self) -> str:
        """Short text for the UI: "2 successes", "1 success", "Failure" or "Botch (2 botches)"."""
        if self.outcome == "success":
            return f"{self.net} success{'es' if self.net != 1 else ''}"
        if self.outcome == "botch":
            botches = self.resolution.botches
            return f"Botch ({botches} botch{'es' if botches != 1 else ''})"
        return "Failure"

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage (lists, ints, strings, bools).

        Keys: "system" ("maelstrom"), "pool" (:meth:`ActionPool.as_dict`), "dice",
        "bonus_dice", "experience_die", "resolution" (the :class:`Resolution` fields) and
        "summary". :meth:`from_dict` rebuilds the result.
        """
        resolution = self.resolution
        return {
            "system": "maelstrom",
            "pool": self.pool.as_dict(),
            "dice": list(self.dice),
            "bonus_dice": list(self.bonus_dice),
            "experience_die": list(self.experience_die),
            "resolution": {
                "successes": resolution.successes,
                "removed_by_threshold": resolution.removed_by_threshold,
                "botches": resolution.botches,
                "net": resolution.net,
                "outcome": resolution.outcome,
            },
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict` (e.g. to add an experience die later).

        The resolution is recomputed from the stored dice with :func:`resolve`, so a stored
        result can never disagree with the rules.

        Raises:
            RuleError: a missing or mistyped field, or dice outside 1-10.
        """
        stored = Stored(data, _STORED_RULE)
        pool = ActionPool.from_dict(stored.mapping("pool"))
        dice = stored.ints("dice")
        bonus = stored.ints("bonus_dice")
        experience = stored.ints("experience_die")
        return cls(
            pool=pool,
            dice=dice,
            bonus_dice=bonus,
            experience_die=experience,
            resolution=_resolve_pool(pool, dice, bonus + experience),
        )


def _resolve_pool(pool: ActionPool, dice: Sequence[int], bonus: Sequence[int]) -> Resolution:
    return resolve(
        dice=dice,
        bonus_dice=bonus,
        difficulty=pool.difficulty,
        threshold=pool.threshold,
        automatic_successes=pool.automatic_successes,
        botches=pool.botches,
        automatic_at=pool.automatic_at,
    )


def _explode(rng: Rng, tens: int, room: int) -> list[int]:
    """Bonus dice for ``tens`` tens, breadth-first and chained, at most ``room`` dice."""
    bonus: list[int] = []
    pending = 2 * tens
    while pending and len(bonus) < room:
        batch = [roll_die(rng, DIE_SIDES) for _ in range(min(pending, room - len(bonus)))]
        bonus.extend(batch)
        pending = 2 * batch.count(10)
    return bonus


def _called_bonus_dice(tens: int, faces: Sequence[int], room: int) -> int:
    """How many bonus dice ``tens`` tens call for when the bonus dice show ``faces``, in the
    order :func:`_explode` rolls them (breadth-first, two per 10, chained), at most ``room``.
    When ``faces`` run out before the chain ends, the count called for so far, which is more
    than ``len(faces)``."""
    called = 0
    pending = 2 * tens
    while pending and called < room:
        size = min(pending, room - called)
        batch = list(faces[called:called + size])
        called += size
        if len(batch) < size:
            break
        pending = 2 * batch.count(10)
    return called


def _bonus_dice(count: int) -> str:
    return f"{count} bonus {'die' if count == 1 else 'dice'}"


def check_dice(result: RollResult) -> None:
    """Refuse a stored roll whose dice its pool could not have rolled (a roll read back from
    a file, not rolled here: :meth:`RollResult.from_dict` recomputes the resolution, this
    checks the dice it is recomputed from).

    The pool rolls exactly ``pool.dice`` d10s (Maelstrom rules.md, Dice Pool). Bonus dice
    come only from exploding tens: two per 10 among the regular dice, then two per 10 among
    those bonus dice, and so on, at most :data:`MAX_BONUS_DICE` (Using Specialties; never on
    a soak roll), exactly as :func:`roll` rolls them. The experience die is one die added to
    a roll that did not botch and whose pool allows it; with exploding tens its own 10 chains
    as :func:`add_experience_die` rolls it (Adding Experience Dice).

    Args:
        result: the stored roll, rebuilt (faces already checked to be 1 to 10).

    Raises:
        RuleError: naming the disagreement: "7 dice were rolled for a pool of 5", "its 10s
            call for 2 bonus dice; it holds 3", "it holds 2 bonus dice, but its pool has no
            exploding tens", an experience die on a roll that botched or a pool that forbids
            one, or an experience die followed by bonus dice its 10s do not call for.
    """
    pool = result.pool
    held = len(result.dice)
    if held != pool.dice:
        raise RuleError(f"{held} {'die was' if held == 1 else 'dice were'} rolled for a pool "
                        f"of {pool.dice}", _rule("Dice Pool"))
    specialties = _rule("Using Specialties")
    bonus = result.bonus_dice
    if not pool.exploding or pool.kind == "soak":
        if bonus:
            raise RuleError(f"it holds {_bonus_dice(len(bonus))}, but its pool has "
                            "no exploding tens", specialties)
    else:
        tens = result.dice.count(10)
        called = _called_bonus_dice(tens, bonus, MAX_BONUS_DICE)
        if called != len(bonus):
            raise RuleError(f"its 10s call for {_bonus_dice(called)}; it holds "
                            f"{len(bonus)}", specialties)
    experience = result.experience_die
    if not experience:
        return
    rule = _rule("Adding Experience Dice")
    if not pool.experience_die_allowed:
        raise RuleError(f"an experience die cannot be added to a {pool.kind} roll",
                        _rule("Soaking Damage") if pool.kind == "soak" else rule)
    if _resolve_pool(pool, result.dice, bonus).outcome == "botch":
        raise RuleError("an experience die cannot be added to a botched roll", rule)
    chained = experience[1:]
    called = 0
    if pool.exploding and experience[0] == 10:
        called = _called_bonus_dice(1, chained, max(0, MAX_BONUS_DICE - len(bonus) - 1))
    if called != len(chained):
        raise RuleError(f"its experience die {experience[0]} calls for "
                        f"{_bonus_dice(called)}; it holds {len(chained)}", rule)


def roll(pool: ActionPool, rng: Rng) -> RollResult:
    """Roll a dice pool and resolve it (Maelstrom rules.md, Resolving the Result, Step 1).

    Rolls ``pool.dice`` d10s in order (one ``rng.randint(1, 10)`` each). If the pool is
    exploding (a specialty is used; never for soak pools), bonus dice follow breadth-first:
    two per 10 among the regular dice, then two per 10 among those bonus dice, and so on
    (Maelstrom rules.md, Using Specialties). A threshold removes successes, not dice, so it
    never stops bonus dice. At most :data:`MAX_BONUS_DICE` bonus dice are rolled (a safety
    cap against a broken RNG).

    Args:
        pool: the pool to roll.
        rng: the injected random source.

    Returns:
        A :class:`RollResult` with no experience die.
    """
    dice = tuple(roll_die(rng, DIE_SIDES) for _ in range(pool.dice))
    bonus: tuple[int, ...] = ()
    if pool.exploding and pool.kind != "soak":
        bonus = tuple(_explode(rng, dice.count(10), MAX_BONUS_DICE))
    return RollResult(
        pool=pool,
        dice=dice,
        bonus_dice=bonus,
        experience_die=(),
        resolution=_resolve_pool(pool, dice, bonus),
    )


def add_experience_die(result: RollResult, rng: Rng) -> RollResult:
    """Add the experience die to a resolved roll (Maelstrom rules.md, Adding Experience Dice).

    Once per roll, after resolving, if the roll did not botch: one bonus die is rolled; it
    does not botch on a 1 and, if the pool uses a specialty, its 10s explode (two more bonus
    dice each, chained). The roll is then resolved again with all bonus dice.

    Banking the XP (one available XP banked in a trait used by the roll, which the player
    must have) is the app's job: this function only rolls and re-resolves.

    Args:
        result: the resolved roll.
        rng: the injected random source.

    Returns:
        A new :class:`RollResult` whose ``experience_die`` holds the die and its chained
        bonus dice.

    Raises:
        RuleError: the roll botched, the pool forbids it (soak rolls), or an experience die
            was already added to this roll.
    """
    rule = _rule("Adding Experience Dice")
    if not result.pool.experience_die_allowed:
        raise RuleError(
            f"an experience die cannot be added to a {result.pool.kind} roll",
            _rule("Soaking Damage") if result.pool.kind == "soak" else rule,
        )
    if result.experience_die:
        raise RuleError("an experience die can be added only once per roll", rule)
    if result.outcome == "botch":
        raise RuleError("an experience die cannot be added to a botched roll", rule)
    die = roll_die(rng, DIE_SIDES)
    experience = [die]
    if result.pool.exploding and die == 10:
        room = max(0, MAX_BONUS_DICE - len(result.bonus_dice) - 1)
        experience.extend(_explode(rng, 1, room))
    experience_die = tuple(experience)
    return replace(
        result,
        experience_die=experience_die,
        resolution=_resolve_pool(result.pool, result.dice, result.bonus_dice + experience_die),
    )


def willpower_spend_successes(current: int, *, botched: bool = False) -> int:
    """Successes of a Willpower roll cancelled by spending a Willpower dot.

    After a Willpower roll the player may spend a dot to succeed automatically, with
    successes equal to the remaining dots; the final dot may not be spent this way, and a
    botched roll cannot be cancelled (Maelstrom rules.md, Rolling Willpower).

    Args:
        current: current Willpower dots before spending.
        botched: whether the roll being cancelled botched.

    Returns:
        The successes: ``current - 1`` (the dots left after spending one).

    Raises:
        RuleError: ``current`` <= 1 (may not spend the final dot) or the roll botched.
    """
    rule = _rule("Rolling Willpower")
    if botched:
        raise RuleError("you cannot spend Willpower to cancel a botched roll", rule)
    if current <= 1:
        raise RuleError(
            "you may not spend your final Willpower dot to succeed (it would give zero successes)",
            rule,
        )
    return current - 1


def willpower_botch_loss(result: RollResult) -> int:
    """Current Willpower dots lost to a botched Willpower roll.

    "Botching a Willpower roll reduces your character's current Willpower by one dot per
    uncancelled botch" (Maelstrom rules.md, Rolling Willpower): botches minus the successes
    left after the threshold.

    Args:
        result: any roll.

    Returns:
        Dots lost (>= 1) for a botched Willpower roll; 0 for any other roll.
    """
    if result.pool.kind != "willpower" or result.outcome != "botch":
        return 0
    return max(0, result.resolution.botches - result.resolution.remaining)



def soaked_levels(result: RollResult, incoming: int) -> int:
    """Levels of damage a soak roll takes off ``incoming`` (Maelstrom rules.md, Soaking
    Damage): "subtract your successes from the incoming damage. If you failed, botched, or
    couldn't roll any dice, then you take the full damage".

    Args:
        result: a resolved soak roll.
        incoming: levels of damage about to be taken (or just marked), >= 0.

    Returns:
        Levels soaked, 0 to ``incoming``: the roll's net successes, 0 for a failure or a botch.

    Raises:
        RuleError: a roll that is not a soak roll, or a negative ``incoming``.
    """
    rule = _rule("Soaking Damage")
    if result.pool.kind != "soak":
        raise RuleError("only a soak roll takes levels off the damage, not this "
                        f"{result.pool.kind} roll", rule)
    if incoming < 0:
        raise RuleError(f"incoming damage is a number of levels, not {incoming}", rule)
    return min(incoming, result.net if result.outcome == "success" else 0)
