"""Shahquest's stress and trauma: taking stress, stressing out, recovery and downtime
(Shahquest wiki, Stress and Trauma / Stressing Out and Trauma).
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from rulesets import dice as _dice
from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError
from rulesets.shahquest.catalogue import (
    _DOWNTIME,
    _OWN_STRESS,
    _STRESS,
    _STRESS_OUT,
    STRESS_TYPES,
    _check_step_die,
    _check_stress_type,
    _die,
    _rule,
)
from rulesets.stored import Stored

TRAUMA_RECOVERY_TIME: dict[int, str] = {
    4: "1 day",
    6: "3 days",
    8: "1 week",
    10: "1 month",
    12: "6 months",
}
"""Downtime required for each attempt to recover from trauma, by trauma die (Shahquest wiki,
Stressing Out and Trauma)."""

TRAUMA_RECOVERY_WAIT: dict[int, tuple[int, int]] = {
    4: (1, 0),
    6: (3, 0),
    8: (7, 0),
    10: (0, 1),
    12: (0, 6),
}
""":data:`TRAUMA_RECOVERY_TIME` as ``(days, calendar months)`` by trauma die: a week is 7 days,
a month a calendar month (Shahquest wiki, Stressing Out and Trauma)."""


@dataclass(frozen=True)
class StressLine:
    """Stress and trauma of one type (physical, mental or emotional).

    Attributes:
        stress: the stress die size, or None.
        stressed_out: the stress stepped up from d12: the character can't act until he
            recovers (the stress die stays at d12 meanwhile).
        trauma: the trauma die size, or None.
        taken_out: the trauma stepped up from d12: killed, mindwiped or comatose.
    """

    stress: int | None = None
    stressed_out: bool = False
    trauma: int | None = None
    taken_out: bool = False


_TAKEN_OUT = {"physical": "killed", "mental": "mindwiped", "emotional": "comatose"}


@dataclass(frozen=True)
class StressTrack:
    """A character's stress and trauma of the three types (Shahquest wiki, Stress and Trauma).

    Attributes:
        physical, mental, emotional: one :class:`StressLine` each.
    """

    physical: StressLine = StressLine()
    mental: StressLine = StressLine()
    emotional: StressLine = StressLine()

    def line(self, kind: str) -> StressLine:
        """The :class:`StressLine` of ``kind`` ("physical", "mental" or "emotional").

        Raises:
            RuleError: an unknown stress type.
        """
        _check_stress_type(kind)
        line: StressLine = getattr(self, kind)
        return line

    def with_line(self, kind: str, line: StressLine) -> StressTrack:
        """A copy with the line of ``kind`` replaced."""
        _check_stress_type(kind)
        return replace(self, **{kind: line})

    @property
    def stressed_out(self) -> bool:
        """Whether any type is stressed out (the character can't take actions)."""
        return any(self.line(kind).stressed_out for kind in STRESS_TYPES)

    @property
    def taken_out(self) -> bool:
        """Whether any trauma stepped up from d12 (killed, mindwiped or comatose)."""
        return any(self.line(kind).taken_out for kind in STRESS_TYPES)

    def describe(self) -> str:
        """The track in words, e.g. "Stressed out: physical trauma d6; mental stress d8".

        Each type with anything on it gives one part: "Taken out (killed): physical trauma
        past d12", "Stressed out: physical trauma d6", "physical stress d10, physical trauma
        d4" or "mental stress d8"; "No stress" when there is none.
        """
        parts: list[str] = []
        for kind in STRESS_TYPES:
            line = self.line(kind)
            if line.taken_out:
                parts.append(f"Taken out ({_TAKEN_OUT[kind]}): {kind} trauma past d12")
            elif line.stressed_out:
                parts.append(f"Stressed out: {kind} trauma {_die(line.trauma or 4)}")
            else:
                bits = []
                if line.stress is not None:
                    bits.append(f"{kind} stress {_die(line.stress)}")
                if line.trauma is not None:
                    bits.append(f"{kind} trauma {_die(line.trauma)}")
                if bits:
                    parts.append(", ".join(bits))
        if not parts:
            return "No stress"
        text = "; ".join(parts)
        return text[0].upper() + text[1:]

    def as_dict(self) -> dict[str, object]:
        """JSON-serialisable: ``{"physical": {"stress": 8 | None, "stressed_out": bool,
        "trauma": ..., "taken_out": bool}, ...}``; see :meth:`from_dict`."""
        return {
            kind: {
                "stress": self.line(kind).stress,
                "stressed_out": self.line(kind).stressed_out,
                "trauma": self.line(kind).trauma,
                "taken_out": self.line(kind).taken_out,
            }
            for kind in STRESS_TYPES
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> StressTrack:
        """Rebuild a track stored with :meth:`as_dict`.

        Raises:
            RuleError: a missing or mistyped field or a die that is not a step die.
        """
        stored = Stored(data, _rule(_STRESS))
        track = cls()
        for kind in STRESS_TYPES:
            line = Stored(stored.mapping(kind), stored.rule)
            stress, trauma = line.value("stress"), line.value("trauma")
            track = track.with_line(
                kind,
                StressLine(
                    stress=None if stress is None else _check_step_die(stress, "stress"),
                    stressed_out=line.bool("stressed_out"),
                    trauma=None if trauma is None else _check_step_die(trauma, "trauma"),
                    taken_out=line.bool("taken_out"),
                ),
            )
        return track


def _apply_effect(current: int | None, effect: int) -> int | None:
    """Stress-style step: a larger die replaces, an equal or smaller one steps up.

    Returns None when the die steps up from d12.
    """
    if current is None or effect > current:
        return effect
    return _dice.step_up(current)


def take_stress(track: StressTrack, kind: str, effect_die: int) -> StressTrack:
    """Apply a stress effect die of one type to a character.

    "If the new Stress die is a higher die type, replace the current die with the new die.
    If it is the same or lower, Step Up the Stress die" (Shahquest wiki, Stress and Trauma:
    d8 stress + d12 effect -> d12; + d10 or less -> d10). Stepping up from d12 stresses the
    character out, with a d4 trauma of the same type; further stress effects of that type
    step the trauma up the same way, and trauma stepping up from d12 takes the character
    out: killed, mindwiped or comatose (Shahquest wiki, Stressing Out and Trauma).

    **Decisions:** while stressed out, the stress die stays at d12 and further stress of the
    type goes to the trauma; stressing out again with a trauma die already there applies the
    d4 to it in the same fashion (a step up); a character taken out takes no more stress.

    Args:
        track: the current stress and trauma.
        kind: "physical", "mental" or "emotional".
        effect_die: the effect die size (4-12).

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: an unknown type, a bad die, or a character already taken out.
    """
    _check_step_die(effect_die, "the stress effect die", _STRESS)
    line = track.line(kind)
    if line.taken_out:
        raise RuleError(f"the character is already taken out by {kind} trauma", _rule(_STRESS_OUT))
    if line.stressed_out:
        return track.with_line(kind, _trauma_effect(line, effect_die))
    stress = _apply_effect(line.stress, effect_die)
    if stress is None:
        stressed = replace(line, stress=STEP_DICE[-1], stressed_out=True)
        return track.with_line(kind, _trauma_effect(stressed, 4))
    return track.with_line(kind, replace(line, stress=stress))


def _trauma_effect(line: StressLine, effect_die: int) -> StressLine:
    trauma = _apply_effect(line.trauma, effect_die)
    if trauma is None:
        return replace(line, trauma=STEP_DICE[-1], taken_out=True)
    return replace(line, trauma=trauma)


def step_up_stress(track: StressTrack, kind: str) -> StressTrack:
    """Step a stress die up once, e.g. the own stress die used in a pool, after the roll.

    "You Step Up the Stress die afterwards" (Shahquest wiki, Using Your Own Stress). Stepping
    up from d12 stresses the character out (as in :func:`take_stress`).

    Args:
        track: the current track.
        kind: the stress type (a pool's ``stress_step_up`` entry).

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: there is no stress of that type to step up, or the character is taken
            out.
    """
    line = track.line(kind)
    if line.stress is None:
        raise RuleError(f"there is no {kind} stress die to step up", _rule(_OWN_STRESS))
    return take_stress(track, kind, 4 if line.stressed_out else line.stress)


def recover_stress(track: StressTrack, kind: str, effect_die: int) -> StressTrack:
    """Apply a successful recovery action's effect die to a stress die.

    The effect die smaller than the stress die steps it down once; equal or larger, twice
    (RULES.md Decision on the seed's overlapping wording; the seed's example: d10 stress,
    d6 effect -> d8; d10 or better -> d6). Stepped down below d4 it is removed. A stressed
    out character so treated is back in action (Shahquest wiki, Stress and Trauma).

    Args:
        track: the current track.
        kind: the stress type.
        effect_die: the recovery action's effect die (4-12).

    Returns:
        The new :class:`StressTrack`; trauma is unchanged.

    Raises:
        RuleError: no stress of that type, a bad die, or a character taken out.
    """
    _check_step_die(effect_die, "the recovery effect die", _STRESS)
    line = track.line(kind)
    if line.taken_out:
        raise RuleError(f"the character was taken out by {kind} trauma", _rule(_STRESS_OUT))
    if line.stress is None:
        raise RuleError(f"there is no {kind} stress to recover", _rule(_STRESS))
    steps = 1 if effect_die < line.stress else 2
    stress = _dice.step_down(line.stress, steps)
    return track.with_line(kind, replace(line, stress=stress, stressed_out=False))


def recover_trauma(track: StressTrack, kind: str, effect_die: int) -> StressTrack:
    """Apply a successful trauma recovery action's effect die to a trauma die.

    "An Effect equal to or less than the Trauma die Steps Down the Trauma die ... an Effect
    greater than the Trauma die Steps Down the Trauma die twice" (Shahquest wiki, Stressing
    Out and Trauma); note equality steps once here but twice for stress (RULES.md Decision).
    Below d4 the trauma is removed. Each attempt takes the downtime of
    :func:`trauma_recovery_time`.

    Args:
        track: the current track.
        kind: the trauma type.
        effect_die: the recovery action's effect die (4-12).

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: no trauma of that type, a bad die, or a character taken out.
    """
    _check_step_die(effect_die, "the recovery effect die", _STRESS_OUT)
    line = _trauma_line(track, kind)
    assert line.trauma is not None
    steps = 1 if effect_die <= line.trauma else 2
    return track.with_line(kind, replace(line, trauma=_dice.step_down(line.trauma, steps)))


def _trauma_line(track: StressTrack, kind: str) -> StressLine:
    line = track.line(kind)
    if line.taken_out:
        raise RuleError(
            f"the character was taken out by {kind} trauma and cannot recover",
            _rule(_STRESS_OUT),
        )
    if line.trauma is None:
        raise RuleError(f"there is no {kind} trauma to recover", _rule(_STRESS_OUT))
    return line


def downtime_recovery(
    track: StressTrack, *, stress: Sequence[str] = (), trauma: str = ""
) -> StressTrack:
    """Spend one plot point during downtime to step down stress or trauma.

    One plot point steps down any two stress dice, or one stress die by two steps, OR steps
    down a trauma die (Shahquest wiki, During Downtime, you may spend a Plot Point to...; a
    trauma die only after the time of :func:`trauma_recovery_time`, Stressing Out and
    Trauma). Stepped below d4 a die is removed; a stressed-out type stepped down is back in
    action.

    Args:
        track: the current track.
        stress: two different stress types (each steps down once), or one type (steps down
            twice); empty when stepping down trauma.
        trauma: the trauma type to step down once, or "".

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: both or neither option chosen, more than two stress types, a type with no
            die to step down, or a character taken out.
    """
    rule = _rule(_DOWNTIME)
    if bool(stress) == bool(trauma):
        raise RuleError(
            "one plot point steps down two stress dice, one stress die by two steps, or one "
            "trauma die: choose one of these",
            rule,
        )
    if trauma:
        line = _trauma_line(track, trauma)
        assert line.trauma is not None
        return track.with_line(trauma, replace(line, trauma=_dice.step_down(line.trauma)))
    if len(stress) > 2:
        raise RuleError(
            f"one plot point steps down at most two stress dice, not {len(stress)}", rule
        )
    steps = dict.fromkeys(stress, 0)
    for kind in stress:
        steps[kind] += 1
    if len(steps) == 1:
        steps = dict.fromkeys(steps, 2)
    for kind, count in steps.items():
        line = track.line(kind)
        if line.taken_out:
            raise RuleError(f"the character was taken out by {kind} trauma", rule)
        if line.stress is None:
            raise RuleError(f"there is no {kind} stress die to step down", rule)
        track = track.with_line(
            kind, replace(line, stress=_dice.step_down(line.stress, count), stressed_out=False)
        )
    return track


def trauma_recovery_time(trauma_die: int) -> str:
    """Downtime required for each attempt to recover from a trauma die, e.g. "1 week".

    d4 1 day, d6 3 days, d8 1 week, d10 1 month, d12 6 months (Shahquest wiki, Stressing Out
    and Trauma).

    Raises:
        RuleError: not a step die.
    """
    _check_step_die(trauma_die, "the trauma die", _STRESS_OUT)
    return TRAUMA_RECOVERY_TIME[trauma_die]


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def day_text(day: date) -> str:
    """A date in words for the table, e.g. "8 May 2026" (no locale involved)."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def next_trauma_recovery(trauma_die: int, attempted: date) -> date:
    """The first day another attempt to recover from trauma may be made, after one made on
    ``attempted`` against a trauma die of ``trauma_die`` sides.

    "At least a day of Down Time is required for each attempt to recover from Trauma",
    and the attempt "takes the time listed": d4 1 day, d6 3 days, d8 1 week, d10 1 month,
    d12 6 months (Shahquest wiki, Stressing Out and Trauma). A month is a calendar month
    (31 January + 1 month is 28 or 29 February).

    Args:
        trauma_die: the trauma die when the attempt was made (4-12).
        attempted: the day of the attempt.

    Returns:
        ``attempted`` plus the attempt's downtime, e.g. 1 May 2026 with a d8 -> 8 May 2026.

    Raises:
        RuleError: not a step die.
    """
    _check_step_die(trauma_die, "the trauma die", _STRESS_OUT)
    days, months = TRAUMA_RECOVERY_WAIT[trauma_die]
    if months:
        month0 = attempted.month - 1 + months
        year, month = attempted.year + month0 // 12, month0 % 12 + 1
        last = calendar.monthrange(year, month)[1]
        attempted = attempted.replace(year=year, month=month, day=min(attempted.day, last))
    return attempted + timedelta(days=days)


def check_trauma_recovery(kind: str, ready: date | None, today: date) -> None:
    """Refuse an attempt to recover from ``kind`` trauma before the downtime of the previous
    attempt has passed (Shahquest wiki, Stressing Out and Trauma: "at least a day of Down
    Time is required for each attempt to recover from Trauma"; a plot point steps the die
    down only "after the time listed").

    Args:
        kind: the trauma type.
        ready: the first day of the next attempt (:func:`next_trauma_recovery` of the last
            one), or None when no attempt is waiting.
        today: the day of this attempt.

    Raises:
        RuleError: ``today`` is before ``ready``, naming the day.
    """
    _check_stress_type(kind)
    if ready is not None and today < ready:
        raise RuleError(
            f"{kind} trauma may next be recovered on {day_text(ready)}: at least a day of "
            "downtime is required for each attempt to recover from trauma, and each attempt "
            "takes the time its trauma die lists (d4 1 day, d6 3 days, d8 1 week, d10 1 "
            "month, d12 6 months)",
            _rule(_STRESS_OUT),
        )


_CHANGE_STRESS = "Change Stress Type"


def change_stress_type(before: StressTrack, kind: str, effect_die: int, to: str) -> StressTrack:
    """Take a stress effect just received as another type instead, for a plot point.

    "By spending a Plot Point, you can change the type of Stress your character receives.
    This could prevent your character from Stressing Out, but does not prevent Stress"
    (Shahquest wiki, Change Stress Type; Stress and Trauma: "convert a Stress Effect you just
    received to another type"). The effect is applied to ``before`` (the track as it was
    before it was taken) as ``to`` stress (:func:`take_stress`). The plot point is the
    caller's to spend.

    Args:
        before: the track before the effect was taken.
        kind: the type it was taken as.
        effect_die: the effect die taken (4-12).
        to: the type it becomes.

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: an unknown type, ``to`` the same as ``kind``, or see :func:`take_stress`.
    """
    _check_stress_type(kind)
    _check_stress_type(to)
    if to == kind:
        raise RuleError(f"the stress was taken as {kind} stress already: choose another type",
                        _rule(_CHANGE_STRESS))
    return take_stress(before, to, effect_die)
