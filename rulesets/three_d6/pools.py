"""Building a 3d6 test: the dice count from favor and disfavor, the :class:`TestPool` and
:func:`build_test` (3d6 Rolls and Tests, Rolls and Tests; Favor and Disfavor; Test
Difficulty), under the campaign's table readings (:mod:`rulesets.three_d6.readings`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulesets.errors import RuleError
from rulesets.stored import Stored
from rulesets.three_d6.catalogue import (
    _STORED_RULE,
    BASE_DICE,
    CRITICAL_SIXES,
    DIE_SIDES,
    MAX_FAVOR,
    TD_MIN,
    _rule,
)
from rulesets.three_d6.readings import SEED_READINGS, ThreeD6Readings

# ---------------------------------------------------------------------------------------------
# Pool building: 3d6 Rolls and Tests, Rolls and Tests / Favor and Disfavor / Test Difficulty
# ---------------------------------------------------------------------------------------------


def _check_td(td: int) -> None:
    if td < TD_MIN:
        raise RuleError(f"test difficulty {td} must be {TD_MIN} or more", _rule("Test Difficulty"))


def _check_favor(name: str, points: int) -> None:
    if points < 0:
        raise RuleError(f"{name} {points} must be 0 or more", _rule("Favor and Disfavor"))
    if points > MAX_FAVOR:
        raise RuleError(
            f"{name} {points} is more than {MAX_FAVOR}, the most points this engine handles",
            _rule("Favor and Disfavor"),
        )


def dice_count(favor: int = 0, disfavor: int = 0) -> int:
    """How many d6s a test counts: 3, plus one per favor, minus one per disfavor, at least 0.

    "For each point of favor you have on a roll, you roll an additional 1d6. For each point
    of disfavor you have on a roll, you remove a d6" (3d6 Rolls and Tests, Favor and
    Disfavor). Decision (the seed is silent on order): favor and disfavor are netted, so one
    favor and one disfavor roll 3d6, and 1 favor with 3 disfavor rolls 1d6. Under the table
    reading ``favor_disfavor="counted_apart"`` this is the number of dice *kept*: the test
    rolls 3 + favor d6s and disfavor removes the highest (:attr:`TestPool.dice`).

    Args:
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.

    Returns:
        The number of d6s, >= 0; 0 means the test fails automatically.

    Raises:
        RuleError: a negative count or one above :data:`MAX_FAVOR`.
    """
    _check_favor("favor", favor)
    _check_favor("disfavor", disfavor)
    return max(0, BASE_DICE + favor - disfavor)


@dataclass(frozen=True, kw_only=True)
class TestPool:
    """A test ready to roll: 3d6 (changed by favor and disfavor) + modifier vs TD.

    Built by :func:`build_test`; keyword-only.

    Attributes:
        label: the trait or subtrait tested, free text named by the GM (e.g. "Agility");
            may be empty.
        modifier: added to the roll (any whole number, negative for a penalty).
        favor: points of favor (one extra d6 each), 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor (one d6 fewer each), 0 to :data:`MAX_FAVOR`.
        td: the test difficulty, >= 1, or ``None`` for a roll made only to be compared in a
            contest.
        readings: the campaign's table readings the test is made under
            (:class:`~rulesets.three_d6.readings.ThreeD6Readings`; the seed's by default):
            whether disfavor removes dice before the roll (netted) or the highest dice after it
            (counted apart), and whether any disfavor rules out a critical success. Stored
            (:meth:`as_dict`) only where they differ from the default, so a test made under the
            seed's readings stores what it always stored.
    """

    __test__ = False  # not a pytest test class despite its name

    label: str = ""
    modifier: int = 0
    favor: int = 0
    disfavor: int = 0
    td: int | None = None
    readings: ThreeD6Readings = SEED_READINGS

    @property
    def kept(self) -> int:
        """Number of d6s whose sum makes the roll, >= 0 (see :func:`dice_count`)."""
        return max(0, BASE_DICE + self.favor - self.disfavor)

    @property
    def dice(self) -> int:
        """Number of d6s rolled, >= 0: the dice kept, or under the table reading
        ``favor_disfavor="counted_apart"`` 3 + favor (none when no die would be kept)."""
        if self.readings.favor_disfavor == "counted_apart" and self.kept:
            return BASE_DICE + self.favor
        return self.kept

    @property
    def dropped(self) -> int:
        """How many of the highest dice rolled disfavor removes (0 unless counted apart)."""
        return self.dice - self.kept

    @property
    def critical_allowed(self) -> bool:
        """Whether three 6s kept may make a critical success: always, unless the table reading
        ``disfavor_critical="forbidden"`` rules it out for a test with any disfavor."""
        return not (self.readings.disfavor_critical == "forbidden" and self.disfavor)

    @property
    def automatic_failure(self) -> bool:
        """Whether the pool has zero dice, so the test is failed without rolling."""
        return self.kept == 0

    def describe(self) -> str:
        """One line for the UI, e.g. "Agility test: 4d6 + 1 vs TD 12 (1 favor)"; a table
        reading at work is named among the notes, e.g. "(1 favor, 1 disfavor, table reading:
        the highest die rolled is removed)".

        A contest roll (no TD) reads "Power test: 3d6 - 2"; a zero-dice pool ends with
        "(no dice: fails automatically)".
        """
        name = f"{self.label} test" if self.label else "Test"
        dice = f"{self.dice}d{DIE_SIDES}" if self.dice else "no dice"
        text = f"{name}: {dice}"
        if self.modifier:
            text += f" {'+' if self.modifier > 0 else '-'} {abs(self.modifier)}"
        if self.td is not None:
            text += f" vs TD {self.td}"
        notes = []
        if self.favor:
            notes.append(f"{self.favor} favor")
        if self.disfavor:
            notes.append(f"{self.disfavor} disfavor")
        if self.dropped:
            highest = ("the highest die rolled is" if self.dropped == 1
                       else f"the {self.dropped} highest dice rolled are")
            notes.append(f"table reading: {highest} removed")
        if not self.critical_allowed and self.kept >= CRITICAL_SIXES:
            notes.append("table reading: no critical success with disfavor")
        if self.automatic_failure:
            notes.append("no dice: fails automatically")
        if notes:
            text += f" ({', '.join(notes)})"
        return text

    def as_dict(self) -> dict[str, object]:
        """The pool as a JSON-serialisable dict; see :meth:`from_dict`.

        Keys: "label", "modifier", "favor", "disfavor", "td" (an int, or None for a contest
        roll) and "dice" (derived, for readers of the stored JSON: the dice rolled); then each
        table reading that differs from the default, by its key ("favor_disfavor",
        "disfavor_critical").
        """
        return {
            "label": self.label,
            "modifier": self.modifier,
            "favor": self.favor,
            "disfavor": self.disfavor,
            "td": self.td,
            "dice": self.dice,
            **self.readings.changed(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TestPool:
        """Rebuild a pool stored with :meth:`as_dict` (the stored "dice" is recomputed), under
        the table readings it stored (a pool stored before readings existed holds none: the
        seed's).

        Raises:
            RuleError: a missing or mistyped field, values :func:`build_test` rejects, or a
                stored reading that is not one of its choices.
        """
        stored = Stored(data, _STORED_RULE)
        td_stored = Stored(data, _rule("Test Difficulty"))  # a mistyped td cites its own rule
        td = None if stored.value("td") is None else td_stored.int("td")
        keys = [reading.key for reading in ThreeD6Readings.READINGS]
        readings = ThreeD6Readings.from_values({key: data[key] for key in keys if key in data})
        return build_test(
            label=stored.str("label"),
            modifier=stored.int("modifier"),
            favor=stored.int("favor"),
            disfavor=stored.int("disfavor"),
            td=td,
            readings=readings,
        )


def build_test(
    *,
    label: str = "",
    modifier: int = 0,
    favor: int = 0,
    disfavor: int = 0,
    td: int | None = None,
    readings: ThreeD6Readings = SEED_READINGS,
) -> TestPool:
    """Build a test from a character's trait or subtrait and the situation.

    "To make a test, such as a Power test, a player rolls 3d6 and adds their modifier to the
    roll" (3d6 Rolls and Tests, Rolls and Tests); favor and disfavor add and remove d6s (3d6
    Rolls and Tests, Favor and Disfavor); the TD is "the minimum roll needed to succeed"
    (3d6 Rolls and Tests, Test Difficulty). Trait names are the GM's, so only a label is
    kept. The campaign's table ``readings`` say how favor and disfavor meet on one roll and
    whether disfavor rules out a critical success (:class:`TestPool`,
    :mod:`rulesets.three_d6.readings`).

    Args:
        label: the trait or subtrait, free text (e.g. "Power"); surrounding spaces dropped.
        modifier: the trait's modifier plus any situational one (whole number, may be < 0).
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.
        td: test difficulty >= 1, or None for a contest roll (the opponent's test is the bar).
        readings: the campaign's table readings (the seed's by default).

    Returns:
        A :class:`TestPool`; ``pool.dice`` may be 0, and such a test fails automatically.

    Raises:
        RuleError: favor or disfavor below 0 or above :data:`MAX_FAVOR`, or a TD below 1.
    """
    dice_count(favor, disfavor)
    if td is not None:
        _check_td(td)
    return TestPool(label=label.strip(), modifier=modifier, favor=favor, disfavor=disfavor, td=td,
                    readings=readings)
