"""Genesys dice pools: the :class:`DicePool`, its letter notation, and building a pool from
a characteristic, a skill and a difficulty, with upgrades, downgrades, boost, setback and
removals (Genesys dice pool, Basic Dice Pool; Skill and Characteristic; Difficulty;
Modifying a Dice Pool)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rulesets.errors import RuleError
from rulesets.genesys.catalogue import (
    _LETTER_DIE,
    CHARACTERISTIC_MAX,
    CHARACTERISTIC_MIN,
    CHARACTERISTICS,
    DIE_LETTERS,
    DIE_TYPES,
    DIFFICULTY_LEVELS,
    IMPOSSIBLE,
    MAX_POOL_DICE,
    SKILL_RANKS_MAX,
    _rule,
)
from rulesets.genesys.destiny import DARK, DESTINY_SIDES, LIGHT
from rulesets.genesys.readings import SEED_READINGS, GenesysReadings
from rulesets.stored import Stored


def _check_count(value: int, what: str, section: str) -> None:
    if value < 0:
        raise RuleError(f"{what} cannot be negative ({value})", _rule(section))


# ---------------------------------------------------------------------------------------------
# The pool
# ---------------------------------------------------------------------------------------------


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}"


@dataclass(frozen=True, kw_only=True)
class DicePool:
    """A dice pool ready to roll: how many dice of each type, and why (Genesys dice pool,
    Basic Dice Pool).

    Built by :func:`build_pool`, :func:`modify_pool` or :func:`parse_pool`; keyword-only.

    Attributes:
        ability: green d8s (>= 0).
        proficiency: yellow d12s (>= 0).
        difficulty: purple d8s (>= 0).
        challenge: red d12s (>= 0).
        boost: blue d6s (>= 0).
        setback: black d6s (>= 0).
        difficulty_level: the GM's difficulty level, e.g. "Average"; "" when unknown (a pool
            typed in notation).
        destiny_points: Destiny points the check requires before any roll (1 for an
            Impossible task, else 0).
        destiny_flips: the Destiny points invested in this check, each flipped to its other
            side: :data:`~rulesets.genesys.destiny.LIGHT` (a player's light point, which
            upgraded an ability die) and/or :data:`~rulesets.genesys.destiny.DARK` (the GM's
            dark point, which upgraded a difficulty die), at most one of each, light first
            (Genesys dice pool, Upgrading and Downgrading Dice). Their upgrades are already
            in the counts; this is the roll's record of them.
        traits: what the pool rolls, e.g. ("Agility", "Ranged"); may be empty.
        notes: human-readable explanations, e.g. "1 upgrade with no ability die left added an
            ability die".

    Raises:
        RuleError: a negative count, or more than :data:`MAX_POOL_DICE` dice in all
            (Genesys dice pool, Basic Dice Pool).
    """

    ability: int = 0
    proficiency: int = 0
    difficulty: int = 0
    challenge: int = 0
    boost: int = 0
    setback: int = 0
    difficulty_level: str = ""
    destiny_points: int = 0
    destiny_flips: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for die in DIE_TYPES:
            _check_count(getattr(self, die), f"the number of {die} dice", "Basic Dice Pool")
        _check_count(self.destiny_points, "Destiny points", "Impossible Tasks")
        if self.destiny_flips not in _FLIPS:
            raise RuleError(
                f"{list(self.destiny_flips)!r} are not the Destiny flips of a check: at most "
                "one light point and one dark point, light first",
                _rule("Upgrading and Downgrading Dice"),
            )
        if self.total > MAX_POOL_DICE:
            raise RuleError(
                f"a pool of {self.total} dice is more than the {MAX_POOL_DICE} Sheetkeeper "
                "rolls at once",
                _rule("Basic Dice Pool"),
            )

    @property
    def total(self) -> int:
        """Number of dice in the pool, all types together."""
        return sum(self.counts().values())

    def counts(self) -> dict[str, int]:
        """Dice of each type, ``{"ability": 2, "proficiency": 1, ...}``, in :data:`DIE_TYPES`
        order, zero counts included."""
        return {die: int(getattr(self, die)) for die in DIE_TYPES}

    def dice(self) -> tuple[str, ...]:
        """One die type per die, in rolling order: ``("ability", "ability", "difficulty")``."""
        return tuple(die for die, count in self.counts().items() for _ in range(count))

    def notation(self) -> str:
        """The pool in letter notation, e.g. "2A 1P 2D 1C 1B 1S" (see :func:`format_pool`)."""
        return format_pool(self)

    def describe(self) -> str:
        """One line for the UI: the player's dice "vs" the GM's.

        E.g. "2 ability, 1 proficiency vs 2 difficulty, 1 boost". Boost and setback dice stand
        on the GM's side, as the seed says the GM contributes them (Genesys dice pool, Basic
        Dice Pool). Zero counts are left out; "no dice" stands for an empty player's side and
        the " vs ..." part is dropped when the GM's side is empty.
        """
        counts = self.counts()
        player = [_counted(counts[die], die) for die in DIE_TYPES[:2] if counts[die]]
        gm = [_counted(counts[die], die) for die in DIE_TYPES[2:] if counts[die]]
        text = ", ".join(player) or "no dice"
        if gm:
            text += " vs " + ", ".join(gm)
        return text

    def as_dict(self) -> dict[str, object]:
        """The pool as a JSON-serialisable dict (tuples become lists); see :meth:`from_dict`.

        Keys: the six die types (ints), "difficulty_level", "destiny_points",
        "destiny_flips" (a list of "light" / "dark"), "traits", "notes".
        """
        data: dict[str, object] = dict(self.counts())
        data.update(
            difficulty_level=self.difficulty_level,
            destiny_points=self.destiny_points,
            destiny_flips=list(self.destiny_flips),
            traits=list(self.traits),
            notes=list(self.notes),
        )
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> DicePool:
        """Rebuild a pool stored with :meth:`as_dict`. A pool stored before Destiny flips
        were recorded has no ``"destiny_flips"``: none were made.

        Raises:
            RuleError: a missing or mistyped field, or a count the pool refuses.
        """
        stored = Stored(data, _STORED_RULE)
        counts = {die: stored.int(die) for die in DIE_TYPES}
        return _pool(
            counts,
            difficulty_level=stored.str("difficulty_level"),
            destiny_points=stored.int("destiny_points"),
            destiny_flips=stored.strs("destiny_flips") if "destiny_flips" in data else (),
            traits=stored.strs("traits"),
            notes=stored.strs("notes"),
        )


def _pool(
    counts: Mapping[str, int],
    *,
    difficulty_level: str = "",
    destiny_points: int = 0,
    destiny_flips: tuple[str, ...] = (),
    traits: tuple[str, ...] = (),
    notes: tuple[str, ...] = (),
) -> DicePool:
    return DicePool(
        ability=counts["ability"],
        proficiency=counts["proficiency"],
        difficulty=counts["difficulty"],
        challenge=counts["challenge"],
        boost=counts["boost"],
        setback=counts["setback"],
        difficulty_level=difficulty_level,
        destiny_points=destiny_points,
        destiny_flips=destiny_flips,
        traits=traits,
        notes=notes,
    )


_FLIPS: tuple[tuple[str, ...], ...] = ((), (LIGHT,), (DARK,), DESTINY_SIDES)
"""Every record of Destiny flips a check may hold: none, the player's, the GM's, or both."""

LIGHT_FLIP_NOTE = "Destiny: light point flipped to upgrade an ability die"
"""The pool's note (and the roll log's line) when a player invests a light Destiny point."""
DARK_FLIP_NOTE = "Destiny: dark point flipped to upgrade a difficulty die"
"""The pool's note (and the roll log's line) when the GM invests a dark Destiny point."""
IMPOSSIBLE_FLIP_NOTE = ("Destiny: light point flipped to attempt the Impossible task; it "
                        "upgrades no die (table reading)")
"""The pool's note (and the roll log's line) for the light point an Impossible task requires,
when the campaign reads it as buying the attempt alone (the table reading
:data:`~rulesets.genesys.readings.IMPOSSIBLE_DESTINY`)."""

_STORED_RULE = _rule("Interpreting the Pool")
"""The rule a damaged stored pool or roll cites."""


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"(?:\d*[apdcbs])+")
_TERM = re.compile(r"(\d*)([apdcbs])")


def parse_pool(text: str) -> DicePool:
    """Parse letter notation such as ``"2A 1P 2D 1C 1B 1S"`` into a :class:`DicePool`.

    Letters (any case): A ability, P proficiency, D difficulty, C challenge, B boost,
    S setback. Each term is ``[count]<letter>``; a missing count means 1 ("A" is one ability
    die), a count of 0 adds nothing, and a letter given twice is summed ("1A 2A" is 3
    ability). Terms are separated by spaces, commas or ``+``, or written together ("2A1P").

    Args:
        text: the notation, e.g. ``"2A 1P 2D"``.

    Returns:
        A :class:`DicePool` with no difficulty level, traits or notes.

    Raises:
        RuleError: an empty pool, a token that is not notation (the message quotes it), or
            more than :data:`MAX_POOL_DICE` dice (Genesys dice pool, Basic Dice Pool).
    """
    rule = _rule("Basic Dice Pool")
    counts = dict.fromkeys(DIE_TYPES, 0)
    for token in (t for t in re.split(r"[\s,+]+", text.strip()) if t):
        if _TOKEN.fullmatch(token.lower()) is None:
            raise RuleError(
                f"{token!r} is not a pool term: use a count and a letter, such as '2A' "
                "(A ability, P proficiency, D difficulty, C challenge, B boost, S setback)",
                rule,
            )
        for count, letter in _TERM.findall(token.lower()):
            counts[_LETTER_DIE[letter.upper()]] += int(count or "1")
    if not any(counts.values()):
        raise RuleError(
            f"the pool {text.strip()!r} has no dice: give dice such as '2A 1P 2D'", rule
        )
    return _pool(counts)


def format_pool(pool: DicePool) -> str:
    """Letter notation for a pool, e.g. "2A 1P 2D 1C 1B 1S".

    Every present type appears once with its count (also a count of 1), in the order
    A P D C B S (Genesys dice pool, Basic Dice Pool); types with no dice are left out; an
    empty pool gives "".
    :func:`parse_pool` reads the result back to the same dice.
    """
    counts = pool.counts()
    return " ".join(f"{counts[die]}{DIE_LETTERS[die]}" for die in DIE_TYPES if counts[die])


# ---------------------------------------------------------------------------------------------
# Pool building: Genesys dice pool, Skill and Characteristic / Difficulty / Modifying a Dice Pool
# ---------------------------------------------------------------------------------------------


def _upgrade(plain: int, upgraded: int, times: int) -> tuple[int, int, int]:
    """Apply ``times`` upgrades; returns (plain, upgraded, plain dice added)."""
    added = 0
    for _ in range(times):
        if plain:
            plain, upgraded = plain - 1, upgraded + 1
        else:
            plain, added = plain + 1, added + 1
    return plain, upgraded, added


def modify_pool(
    pool: DicePool,
    *,
    upgrade_ability: int = 0,
    upgrade_difficulty: int = 0,
    downgrade_proficiency: int = 0,
    downgrade_challenge: int = 0,
    boost: int = 0,
    setback: int = 0,
    removals: Mapping[str, int] | None = None,
    readings: GenesysReadings = SEED_READINGS,
) -> DicePool:
    """Modify a dice pool by adding, upgrading, downgrading and removing dice.

    Applied in the seed's order (Genesys dice pool, Modifying a Dice Pool):

    1. boost and setback dice are added, one per bonus or obstacle; they never cancel each
       other (Adding Dice);
    2. all upgrades: each ability upgrade turns an ability die into a proficiency die, each
       difficulty upgrade a difficulty die into a challenge die (Upgrading Dice); an upgrade
       with no plain die left adds one ability (or difficulty) die instead, which the next
       upgrade upgrades (Upgrading More Dice Than Available To Upgrade);
    3. then all downgrades: proficiency to ability, challenge to difficulty (Downgrading
       Dice); a downgrade with nothing left to downgrade is ignored (Downgrading More Dice
       Than Available To Upgrade; Upgrades and Downgrades in the Same Pool);
    4. last, removals: at most the dice of that type present are removed, further removals
       are ignored (Removing Dice). Any die type may be removed; the seed's usual cases are
       setback dice (a talent) and boost dice (a skilled enemy);
    5. only under the table reading ``boost_setback="cancel"`` (a house rule: the seed says
       "Boost dice and Setback dice do not cancel each other out", Adding Dice): each boost
       die left cancels one setback die left, both taken out before the roll.

    Args:
        pool: the pool before the modifications.
        upgrade_ability: ability-die upgrades (e.g. the player's Destiny point), >= 0.
        upgrade_difficulty: difficulty-die upgrades (e.g. the GM's Destiny point), >= 0.
        downgrade_proficiency: proficiency-die downgrades, >= 0.
        downgrade_challenge: challenge-die downgrades, >= 0.
        boost: boost dice added, >= 0.
        setback: setback dice added, >= 0.
        removals: dice to remove by type, e.g. ``{"setback": 2}``; each count >= 0.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        A new :class:`DicePool` with the same difficulty level, Destiny points, Destiny flips
        and traits, and a note for each modification (and for boost and setback dice
        cancelled, "1 boost and 1 setback cancelled each other (table reading)").

    Raises:
        RuleError: a negative count, an unknown die type in ``removals``, or a pool above
            :data:`MAX_POOL_DICE` dice.
    """
    _check_count(upgrade_ability, "ability upgrades", "Upgrading Dice")
    _check_count(upgrade_difficulty, "difficulty upgrades", "Upgrading Dice")
    _check_count(downgrade_proficiency, "proficiency downgrades", "Downgrading Dice")
    _check_count(downgrade_challenge, "challenge downgrades", "Downgrading Dice")
    _check_count(boost, "boost dice added", "Adding Dice")
    _check_count(setback, "setback dice added", "Adding Dice")
    removals = dict(removals or {})
    for die, count in removals.items():
        if die not in DIE_TYPES:
            raise RuleError(
                f"{die!r} is not a die type to remove ({', '.join(DIE_TYPES)})",
                _rule("Removing Dice"),
            )
        _check_count(count, f"{die} dice removed", "Removing Dice")

    counts = pool.counts()
    notes = list(pool.notes)
    if boost:
        counts["boost"] += boost
        notes.append(f"{boost} boost added")
    if setback:
        counts["setback"] += setback
        notes.append(f"{setback} setback added")
    for plain, upgraded, times in (
        ("ability", "proficiency", upgrade_ability),
        ("difficulty", "challenge", upgrade_difficulty),
    ):
        if not times:
            continue
        counts[plain], counts[upgraded], added = _upgrade(counts[plain], counts[upgraded], times)
        notes.append(f"{times} {plain} upgrade{'s' if times != 1 else ''}")
        if added:
            notes.append(
                f"{added} upgrade{'s' if added != 1 else ''} with no {plain} die left "
                f"added {'an' if plain == 'ability' else 'a'} {plain} die"
            )
    for upgraded, plain, times in (
        ("proficiency", "ability", downgrade_proficiency),
        ("challenge", "difficulty", downgrade_challenge),
    ):
        if not times:
            continue
        done = min(times, counts[upgraded])
        counts[upgraded] -= done
        counts[plain] += done
        notes.append(f"{times} {upgraded} downgrade{'s' if times != 1 else ''}")
        if done < times:
            notes.append(
                f"{times - done} {upgraded} downgrade{'s' if times - done != 1 else ''}"
                f" ignored: no {upgraded} die left"
            )
    for die in DIE_TYPES:
        wanted = removals.get(die, 0)
        if not wanted:
            continue
        done = min(wanted, counts[die])
        counts[die] -= done
        notes.append(
            f"{done} {die} removed" + (f" ({wanted - done} ignored)" if done < wanted else "")
        )
    cancelled = min(counts["boost"], counts["setback"])
    if cancelled and readings.boost_setback == "cancel":
        counts["boost"] -= cancelled
        counts["setback"] -= cancelled
        notes.append(f"{cancelled} boost and {cancelled} setback cancelled each other "
                     "(table reading)")
    return _pool(
        counts,
        difficulty_level=pool.difficulty_level,
        destiny_points=pool.destiny_points,
        destiny_flips=pool.destiny_flips,
        traits=pool.traits,
        notes=tuple(notes),
    )


def difficulty_dice(level: str) -> int:
    """Difficulty dice of a difficulty level (Genesys dice pool, Difficulty).

    Args:
        level: "Simple", "Easy", "Average", "Hard", "Daunting", "Formidable" or "Impossible"
            (any case).

    Returns:
        0, 1, 2, 3, 4, 5 or 5 difficulty dice.

    Raises:
        RuleError: an unknown level; the message names it and lists the levels.
    """
    name = _difficulty_name(level)
    return DIFFICULTY_LEVELS[name]


def _difficulty_name(level: str) -> str:
    for name in DIFFICULTY_LEVELS:
        if name.casefold() == level.strip().casefold():
            return name
    raise RuleError(
        f"{level!r} is not a difficulty level ({', '.join(DIFFICULTY_LEVELS)})",
        _rule("Difficulty"),
    )


def build_pool(
    *,
    characteristic: str,
    characteristic_rating: int,
    skill: str = "",
    skill_ranks: int = 0,
    difficulty: str = "Average",
    destiny_point_spent: bool = False,
    destiny_light: bool = False,
    destiny_dark: bool = False,
    upgrade_ability: int = 0,
    upgrade_difficulty: int = 0,
    downgrade_proficiency: int = 0,
    downgrade_challenge: int = 0,
    boost: int = 0,
    setback: int = 0,
    removals: Mapping[str, int] | None = None,
    readings: GenesysReadings = SEED_READINGS,
) -> DicePool:
    """Build the dice pool of a skill check from a character's traits and the situation.

    Rules applied:

    - ability dice = the higher of the characteristic rating and the skill ranks; then the
      lower of the two of them are upgraded into proficiency dice; an unskilled character
      (0 ranks) rolls the characteristic alone (Genesys dice pool, Skill and Characteristic);
    - the difficulty level adds 0-5 difficulty dice (Difficulty);
    - a Destiny point invested in the check flips and upgrades one die: the player's light
      point an ability die (``destiny_light``), the GM's dark point a difficulty die
      (``destiny_dark``) (Upgrading and Downgrading Dice: upgrading "most often occurs when
      one of the participants invests a Destiny point into a skill check"; Difficulty: the GM
      upgrades difficulty dice "when Destiny points are invested to make a check more
      challenging"). Each is recorded in the pool's ``destiny_flips`` and a note, and its
      upgrade is applied with the others;
    - an Impossible task requires the player to spend one Destiny point
      (Impossible Tasks). **Decision:** the seed's table lost the Dice column and does not
      say what the point does; Impossible rolls the Formidable five difficulty dice and the
      Destiny point is recorded as the pool's ``destiny_points``. The point is the player's
      light flip (``destiny_light``), which upgrades an ability die as any light flip does;
      ``destiny_point_spent`` pays it without a flip (a point kept outside Sheetkeeper), and
      then upgrades nothing by itself. Under the table reading
      ``impossible_destiny="attempt_only"`` (the Genesys Core Rulebook's Impossible tasks) the
      light flip of an Impossible task only buys the attempt: it is flipped and recorded, with
      :data:`IMPOSSIBLE_FLIP_NOTE`, and upgrades no die;
    - then the modifications of :func:`modify_pool` (boost and setback dice, upgrades,
      downgrades, removals, and boost and setback cancelled under the table reading
      ``boost_setback="cancel"``), in that order.

    Args:
        characteristic: one of :data:`CHARACTERISTICS`, e.g. "Agility".
        characteristic_rating: the characteristic's rating, 1-5.
        skill: the skill's name, e.g. "Ranged (Light)"; "" when no skill applies (free text:
            the skill list differs between settings).
        skill_ranks: ranks in the skill, 0-5.
        difficulty: a key of :data:`DIFFICULTY_LEVELS`, any case (default "Average").
        destiny_point_spent: the player spends the Destiny point an Impossible task requires,
            without a flip (it upgrades nothing).
        destiny_light: the player flips a light Destiny point to upgrade an ability die; for
            an Impossible task it is the Destiny point the attempt requires.
        destiny_dark: the GM flips a dark Destiny point to upgrade a difficulty die.
        upgrade_ability, upgrade_difficulty, downgrade_proficiency, downgrade_challenge,
        boost, setback, removals: as for :func:`modify_pool`.
        readings: the campaign's table readings (the seed's by default;
            :mod:`rulesets.genesys.readings`).

    Returns:
        A :class:`DicePool` with its difficulty level, traits and notes.

    Raises:
        RuleError: an unknown characteristic, a rating or rank out of range, an unknown
            difficulty level, an Impossible task without the Destiny point, a Destiny point
            for a task that is not Impossible, or a bad modification (see
            :func:`modify_pool`).
    """
    section = "Skill and Characteristic"
    if characteristic not in CHARACTERISTICS:
        raise RuleError(
            f"{characteristic!r} is not a characteristic ({', '.join(CHARACTERISTICS)})",
            _rule(section),
        )
    if not CHARACTERISTIC_MIN <= characteristic_rating <= CHARACTERISTIC_MAX:
        raise RuleError(
            f"{characteristic} {characteristic_rating} is out of range: a characteristic is "
            f"rated {CHARACTERISTIC_MIN} to {CHARACTERISTIC_MAX}",
            _rule(section),
        )
    if not 0 <= skill_ranks <= SKILL_RANKS_MAX:
        raise RuleError(
            f"{skill or 'the skill'} at {skill_ranks} ranks is out of range: a skill has 0 to "
            f"{SKILL_RANKS_MAX} ranks",
            _rule(section),
        )
    level = _difficulty_name(difficulty)
    notes: list[str] = []
    destiny_points = 0
    if level == IMPOSSIBLE:
        if not (destiny_point_spent or destiny_light):
            raise RuleError(
                "attempting an Impossible task requires the player to spend one Destiny point",
                _rule("Impossible Tasks"),
            )
        destiny_points = 1
        notes.append("Impossible task: one Destiny point spent to attempt it")
    elif destiny_point_spent:
        raise RuleError(
            f"only an Impossible task requires a Destiny point, and this one is {level}; a "
            "Destiny point spent to upgrade an ability die counts as an ability upgrade",
            _rule("Impossible Tasks"),
        )
    higher = max(characteristic_rating, skill_ranks)
    lower = min(characteristic_rating, skill_ranks)
    if skill and skill_ranks == 0:
        notes.append(f"Unskilled in {skill}: {characteristic} alone")
    flips = (LIGHT,) * destiny_light + (DARK,) * destiny_dark
    # The light point an Impossible task requires upgrades a die unless the table reads it as
    # the price of the attempt alone.
    light_upgrades = destiny_light and not (
        level == IMPOSSIBLE and readings.impossible_destiny == "attempt_only")
    light_note = LIGHT_FLIP_NOTE if light_upgrades else IMPOSSIBLE_FLIP_NOTE
    notes += [note for flipped, note in ((destiny_light, light_note),
                                         (destiny_dark, DARK_FLIP_NOTE)) if flipped]
    base = DicePool(
        ability=higher - lower,
        proficiency=lower,
        difficulty=DIFFICULTY_LEVELS[level],
        difficulty_level=level,
        destiny_points=destiny_points,
        destiny_flips=flips,
        traits=(characteristic, skill) if skill else (characteristic,),
        notes=tuple(notes),
    )
    _check_count(upgrade_ability, "ability upgrades", "Upgrading Dice")
    _check_count(upgrade_difficulty, "difficulty upgrades", "Upgrading Dice")
    return modify_pool(
        base,
        upgrade_ability=upgrade_ability + int(light_upgrades),
        upgrade_difficulty=upgrade_difficulty + destiny_dark,
        downgrade_proficiency=downgrade_proficiency,
        downgrade_challenge=downgrade_challenge,
        boost=boost,
        setback=setback,
        removals=removals,
        readings=readings,
    )
