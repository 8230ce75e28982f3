"""Rules engine for the Genesys / FFG Star Wars narrative dice pool.

The seed text (``seeds/001_c7136ddaeb237e8d.txt``, cited below as "Genesys dice pool,
<section>") is the authority; /work/shared/RULES.md section 4 gives the face of every die
(the seed's pictures of the faces did not survive) and settles the open points. Where both
are silent, the decision taken is written in the docstring of the function concerned.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: dice (counts of each die type), ranks (skill ranks 0-5),
ratings (characteristics 1-5), Destiny points. Every rule violation raises
:class:`RuleError`, whose message a player can read and whose ``rule`` names the seed section.

Die types, in the order a pool lists and rolls them: ability (d8), proficiency (d12),
difficulty (d8), challenge (d12), boost (d6), setback (d6). Symbols: success, advantage,
triumph (also one success), failure, threat, despair (also one failure).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.notation import check_length
from rulesets.query import Parameter, read_query
from rulesets.stored import Stored

SOURCE = "Genesys dice pool"
"""Prefix of every rule citation."""


def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


# ---------------------------------------------------------------------------------------------
# Dice and symbols: Genesys dice pool, Basic Dice Pool; faces from RULES.md section 4
# ---------------------------------------------------------------------------------------------

DIE_TYPES: tuple[str, ...] = (
    "ability",
    "proficiency",
    "difficulty",
    "challenge",
    "boost",
    "setback",
)
"""The six die types in pool order: the player's side (ability, proficiency), then the GM's
side (difficulty, challenge, boost, setback), as "Genesys dice pool, Basic Dice Pool" lists
them."""

DIE_LETTERS: dict[str, str] = {
    "ability": "A",
    "proficiency": "P",
    "difficulty": "D",
    "challenge": "C",
    "boost": "B",
    "setback": "S",
}
"""Letter of each die type in pool notation ("2A 1P 2D 1C 1B 1S")."""

_LETTER_DIE: dict[str, str] = {letter: die for die, letter in DIE_LETTERS.items()}

SYMBOLS: tuple[str, ...] = ("success", "advantage", "triumph", "failure", "threat", "despair")
"""The six symbols a face can show (Genesys dice pool, Interpreting the Pool)."""

_CODES: dict[str, str] = {"S": "success", "A": "advantage", "F": "failure", "H": "threat"}


def _faces(*codes: str) -> tuple[tuple[str, ...], ...]:
    # "SA" -> ("success", "advantage"); "Triumph" -> ("triumph",); "" -> () (blank).
    return tuple(
        (code.lower(),) if code in ("Triumph", "Despair") else tuple(_CODES[c] for c in code)
        for code in codes
    )


FACES: dict[str, tuple[tuple[str, ...], ...]] = {
    "boost": _faces("", "", "S", "SA", "AA", "A"),
    "setback": _faces("", "", "F", "F", "H", "H"),
    "ability": _faces("", "S", "S", "SS", "A", "A", "SA", "AA"),
    "difficulty": _faces("", "F", "FF", "H", "H", "H", "HH", "FH"),
    "proficiency": _faces("", "S", "S", "SS", "SS", "A", "SA", "SA", "SA", "AA", "AA", "Triumph"),
    "challenge": _faces("", "F", "F", "FF", "FF", "H", "H", "FH", "FH", "HH", "HH", "Despair"),
}
"""Symbols on each face of each die type, face 1 first (RULES.md section 4, "Faces"): face
``n`` of a die is ``FACES[die][n - 1]``, a tuple of symbol names (empty for a blank)."""

DIE_SIDES: dict[str, int] = {die: len(faces) for die, faces in FACES.items()}
"""Sides of each die type: boost and setback d6, ability and difficulty d8, proficiency and
challenge d12."""

# ---------------------------------------------------------------------------------------------
# Characters and difficulty: Genesys dice pool, Skill and Characteristic / Difficulty
# ---------------------------------------------------------------------------------------------

CHARACTERISTICS: tuple[str, ...] = (
    "Brawn",
    "Agility",
    "Intellect",
    "Cunning",
    "Willpower",
    "Presence",
)
"""The six characteristics a skill is linked to."""

CHARACTERISTIC_MIN, CHARACTERISTIC_MAX = 1, 5
"""Range of a characteristic rating."""

SKILL_RANKS_MAX = 5
"""Highest skill rank; 0 ranks means unskilled (Genesys dice pool, Skill and
Characteristic)."""

DIFFICULTY_LEVELS: dict[str, int] = {
    "Simple": 0,
    "Easy": 1,
    "Average": 2,
    "Hard": 3,
    "Daunting": 4,
    "Formidable": 5,
    "Impossible": 5,
}
"""Difficulty dice of each difficulty level (Genesys dice pool, Difficulty, Table: Difficulty
Levels). The seed's table lost its Dice column; the counts are RULES.md's. Impossible rolls the
Formidable five and additionally requires one Destiny point (see :func:`build_pool`)."""

IMPOSSIBLE = "Impossible"
"""The difficulty level that requires a Destiny point (Genesys dice pool, Impossible Tasks)."""

MAX_POOL_DICE = 60
"""Most dice Sheetkeeper puts in one pool. The seed sets no limit; this guards the odds and
the roll log against typing mistakes such as "200A" (a real pool rarely passes 20)."""


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
    traits: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for die in DIE_TYPES:
            _check_count(getattr(self, die), f"the number of {die} dice", "Basic Dice Pool")
        _check_count(self.destiny_points, "Destiny points", "Impossible Tasks")
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

        Keys: the six die types (ints), "difficulty_level", "destiny_points", "traits",
        "notes".
        """
        data: dict[str, object] = dict(self.counts())
        data.update(
            difficulty_level=self.difficulty_level,
            destiny_points=self.destiny_points,
            traits=list(self.traits),
            notes=list(self.notes),
        )
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> DicePool:
        """Rebuild a pool stored with :meth:`as_dict`.

        Raises:
            RuleError: a missing or mistyped field, or a count the pool refuses.
        """
        stored = Stored(data, _STORED_RULE)
        counts = {die: stored.int(die) for die in DIE_TYPES}
        return _pool(
            counts,
            difficulty_level=stored.str("difficulty_level"),
            destiny_points=stored.int("destiny_points"),
            traits=stored.strs("traits"),
            notes=stored.strs("notes"),
        )


def _pool(
    counts: Mapping[str, int],
    *,
    difficulty_level: str = "",
    destiny_points: int = 0,
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
        traits=traits,
        notes=notes,
    )


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
       setback dice (a talent) and boost dice (a skilled enemy).

    Args:
        pool: the pool before the modifications.
        upgrade_ability: ability-die upgrades (e.g. the player's Destiny point), >= 0.
        upgrade_difficulty: difficulty-die upgrades (e.g. the GM's Destiny point), >= 0.
        downgrade_proficiency: proficiency-die downgrades, >= 0.
        downgrade_challenge: challenge-die downgrades, >= 0.
        boost: boost dice added, >= 0.
        setback: setback dice added, >= 0.
        removals: dice to remove by type, e.g. ``{"setback": 2}``; each count >= 0.

    Returns:
        A new :class:`DicePool` with the same difficulty level, Destiny points and traits, and
        a note for each modification.

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
    return _pool(
        counts,
        difficulty_level=pool.difficulty_level,
        destiny_points=pool.destiny_points,
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
    upgrade_ability: int = 0,
    upgrade_difficulty: int = 0,
    downgrade_proficiency: int = 0,
    downgrade_challenge: int = 0,
    boost: int = 0,
    setback: int = 0,
    removals: Mapping[str, int] | None = None,
) -> DicePool:
    """Build the dice pool of a skill check from a character's traits and the situation.

    Rules applied:

    - ability dice = the higher of the characteristic rating and the skill ranks; then the
      lower of the two of them are upgraded into proficiency dice; an unskilled character
      (0 ranks) rolls the characteristic alone (Genesys dice pool, Skill and Characteristic);
    - the difficulty level adds 0-5 difficulty dice (Difficulty);
    - an Impossible task requires the player to spend one Destiny point
      (Impossible Tasks). **Decision:** the seed's table lost the Dice column and does not
      say what the point does; Impossible rolls the Formidable five difficulty dice, the
      Destiny point is recorded as the pool's ``destiny_points`` (a cost for the app to
      charge), and it upgrades nothing by itself: a Destiny point spent to upgrade an ability
      die is ``upgrade_ability``, as for any other check;
    - then the modifications of :func:`modify_pool` (boost and setback dice, upgrades,
      downgrades, removals), in that order.

    Args:
        characteristic: one of :data:`CHARACTERISTICS`, e.g. "Agility".
        characteristic_rating: the characteristic's rating, 1-5.
        skill: the skill's name, e.g. "Ranged (Light)"; "" when no skill applies (free text:
            the skill list differs between settings).
        skill_ranks: ranks in the skill, 0-5.
        difficulty: a key of :data:`DIFFICULTY_LEVELS`, any case (default "Average").
        destiny_point_spent: the player spends the Destiny point an Impossible task requires.
        upgrade_ability, upgrade_difficulty, downgrade_proficiency, downgrade_challenge,
        boost, setback, removals: as for :func:`modify_pool`.

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
        if not destiny_point_spent:
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
    base = DicePool(
        ability=higher - lower,
        proficiency=lower,
        difficulty=DIFFICULTY_LEVELS[level],
        difficulty_level=level,
        destiny_points=destiny_points,
        traits=(characteristic, skill) if skill else (characteristic,),
        notes=tuple(notes),
    )
    return modify_pool(
        base,
        upgrade_ability=upgrade_ability,
        upgrade_difficulty=upgrade_difficulty,
        downgrade_proficiency=downgrade_proficiency,
        downgrade_challenge=downgrade_challenge,
        boost=boost,
        setback=setback,
        removals=removals,
    )


# ---------------------------------------------------------------------------------------------
# Rolling and interpreting: Genesys dice pool, Interpreting the Pool
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RolledDie:
    """One rolled die (Genesys dice pool, Interpreting the Pool; faces per RULES.md).

    Attributes:
        die: its type, one of :data:`DIE_TYPES`.
        face: the face rolled, 1 to the die's sides (``DIE_SIDES[die]``); face ``n`` shows
            ``FACES[die][n - 1]``.

    Raises:
        RuleError: an unknown die type or a face outside 1..sides.
    """

    die: str
    face: int

    def __post_init__(self) -> None:
        if self.die not in DIE_TYPES:
            raise RuleError(
                f"{self.die!r} is not a die type ({', '.join(DIE_TYPES)})",
                _rule("Basic Dice Pool"),
            )
        sides = DIE_SIDES[self.die]
        if not 1 <= self.face <= sides:
            raise RuleError(
                f"a {self.die} die has faces 1 to {sides}, not {self.face}",
                _rule("Basic Dice Pool"),
            )

    @property
    def symbols(self) -> tuple[str, ...]:
        """The symbols on the face rolled, e.g. ``("success", "advantage")``; empty if
        blank."""
        return FACES[self.die][self.face - 1]

    def as_dict(self) -> dict[str, object]:
        """``{"die": "ability", "face": 7, "symbols": ["success", "advantage"]}``."""
        return {"die": self.die, "face": self.face, "symbols": list(self.symbols)}


@dataclass(frozen=True)
class Tally:
    """The symbols of a roll, counted and cancelled (Genesys dice pool, Interpreting the Pool).

    Attributes:
        successes: success symbols plus one per triumph (Triumph).
        failures: failure symbols plus one per despair (Despair).
        advantages: advantage symbols.
        threats: threat symbols.
        triumphs: triumph symbols; never cancelled (Triumph and Despair).
        despairs: despair symbols; never cancelled.
    """

    successes: int
    failures: int
    advantages: int
    threats: int
    triumphs: int
    despairs: int

    @property
    def net_successes(self) -> int:
        """Successes minus failures: each failure cancels one success (Successes and
        Failures). Negative means net failures."""
        return self.successes - self.failures

    @property
    def net_advantage(self) -> int:
        """Advantages minus threats (Advantages and Threats): positive is net advantage,
        negative is net threat."""
        return self.advantages - self.threats

    @property
    def net_threat(self) -> int:
        """Net threat: threats left after cancelling, 0 when advantage wins or ties."""
        return max(0, -self.net_advantage)

    @property
    def succeeded(self) -> bool:
        """The check succeeds with at least one net success; all cancelled or net failures
        fail it (Successes and Failures)."""
        return self.net_successes >= 1


def tally(dice: Iterable[RolledDie]) -> Tally:
    """Count and cancel the symbols of rolled dice (Genesys dice pool, Interpreting the Pool).

    Each triumph also counts one success and each despair one failure (Triumph; Despair);
    triumph and despair never cancel each other (Triumph and Despair).

    Args:
        dice: the rolled dice, in any order.

    Returns:
        A :class:`Tally`.
    """
    seen = dict.fromkeys(SYMBOLS, 0)
    for rolled in dice:
        for symbol in rolled.symbols:
            seen[symbol] += 1
    return Tally(
        successes=seen["success"] + seen["triumph"],
        failures=seen["failure"] + seen["despair"],
        advantages=seen["advantage"],
        threats=seen["threat"],
        triumphs=seen["triumph"],
        despairs=seen["despair"],
    )


def _plural(count: int, noun: str, plural: str) -> str:
    return f"{count} {noun if count == 1 else plural}"


@dataclass(frozen=True)
class RollResult:
    """A rolled pool: every die with its face and symbols, and the outcome (Genesys dice
    pool, Interpreting the Pool).

    Attributes:
        pool: the :class:`DicePool` rolled.
        dice: the rolled dice, in the pool's order (:meth:`DicePool.dice`).
        tally: the counted symbols (:func:`tally` of ``dice``).
    """

    pool: DicePool
    dice: tuple[RolledDie, ...]
    tally: Tally

    @property
    def succeeded(self) -> bool:
        """Whether the check succeeds: net successes >= 1."""
        return self.tally.succeeded

    def summary(self) -> str:
        """Short text for the roll log.

        "Success (2 net), 1 advantage, 1 triumph"; "Failure (1 net failure), 2 threat,
        1 despair"; "Failure (cancelled out)". Advantage and threat appear when net of each
        other; triumphs and despairs whenever rolled.
        """
        t = self.tally
        if t.succeeded:
            parts = [f"Success ({t.net_successes} net)"]
        elif t.net_successes < 0:
            parts = [f"Failure ({_plural(-t.net_successes, 'net failure', 'net failures')})"]
        else:
            parts = ["Failure (cancelled out)"]
        if t.net_advantage > 0:
            parts.append(f"{t.net_advantage} advantage")
        elif t.net_advantage < 0:
            parts.append(f"{t.net_threat} threat")
        if t.triumphs:
            parts.append(_plural(t.triumphs, "triumph", "triumphs"))
        if t.despairs:
            parts.append(_plural(t.despairs, "despair", "despairs"))
        return ", ".join(parts)

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage.

        Keys: "system" ("genesys"), "pool" (:meth:`DicePool.as_dict`), "dice" (a list of
        :meth:`RolledDie.as_dict`), "outcome" (successes, failures, advantages, threats,
        triumphs, despairs, net_successes, net_advantage, success) and "summary".
        :meth:`from_dict` rebuilds the result.
        """
        t = self.tally
        return {
            "system": "genesys",
            "pool": self.pool.as_dict(),
            "dice": [rolled.as_dict() for rolled in self.dice],
            "outcome": {
                "successes": t.successes,
                "failures": t.failures,
                "advantages": t.advantages,
                "threats": t.threats,
                "triumphs": t.triumphs,
                "despairs": t.despairs,
                "net_successes": t.net_successes,
                "net_advantage": t.net_advantage,
                "success": t.succeeded,
            },
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict`.

        The symbols and the outcome are recomputed from the stored die types and faces, so a
        stored result can never disagree with the face table.

        Raises:
            RuleError: a missing or mistyped field, a bad die or face, or dice that do not
                match the stored pool.
        """
        stored = Stored(data, _STORED_RULE)
        pool = DicePool.from_dict(stored.mapping("pool"))
        dice: list[RolledDie] = []
        for item in stored.mappings("dice"):
            stored_die = Stored(item, _STORED_RULE)
            dice.append(RolledDie(die=stored_die.str("die"), face=stored_die.int("face")))
        if tuple(rolled.die for rolled in dice) != pool.dice():
            raise RuleError(
                f"the stored dice do not match the pool {pool.notation()!r}", _STORED_RULE
            )
        return cls(pool=pool, dice=tuple(dice), tally=tally(dice))


def roll(pool: DicePool, rng: Rng) -> RollResult:
    """Roll a dice pool and interpret it (Genesys dice pool, Interpreting the Pool).

    Rolls every die in the pool's order (ability, proficiency, difficulty, challenge, boost,
    setback), one ``rng.randint(1, sides)`` each (d8, d12, d8, d12, d6, d6).

    Args:
        pool: the pool to roll.
        rng: the injected random source.

    Returns:
        A :class:`RollResult`.
    """
    dice = tuple(RolledDie(die, roll_die(rng, DIE_SIDES[die])) for die in pool.dice())
    return RollResult(pool=pool, dice=dice, tally=tally(dice))


# ---------------------------------------------------------------------------------------------
# Exact odds
# ---------------------------------------------------------------------------------------------


def _marginal(die: str, value: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """(symbol score, number of faces) pairs of one die, the score a signed sum."""
    counts: dict[int, int] = {}
    for face in FACES[die]:
        score = sum(value.get(symbol, 0) for symbol in face)
        counts[score] = counts.get(score, 0) + 1
    return tuple(sorted(counts.items()))


_NET_SUCCESS_VALUE = {"success": 1, "triumph": 1, "failure": -1, "despair": -1}
_NET_ADVANTAGE_VALUE = {"advantage": 1, "threat": -1}
_NET_SUCCESS_FACES = {die: _marginal(die, _NET_SUCCESS_VALUE) for die in DIE_TYPES}
_NET_ADVANTAGE_FACES = {die: _marginal(die, _NET_ADVANTAGE_VALUE) for die in DIE_TYPES}


def _convolve(
    counts: Mapping[str, int], faces: Mapping[str, tuple[tuple[int, int], ...]]
) -> dict[int, int]:
    """Number of face combinations giving each total score, die by die (exact ints)."""
    ways: dict[int, int] = {0: 1}
    for die, count in counts.items():
        steps = faces[die]
        for _ in range(count):
            new: dict[int, int] = {}
            for total, n in ways.items():
                for score, m in steps:
                    key = total + score
                    new[key] = new.get(key, 0) + n * m
            ways = new
    return ways


def _distribution(ways: Mapping[int, int], combinations: int) -> tuple[tuple[int, Fraction], ...]:
    return tuple((value, Fraction(ways[value], combinations)) for value in sorted(ways))


@dataclass(frozen=True)
class Odds:
    """Exact odds of a pool, as :class:`fractions.Fraction` probabilities (Genesys dice
    pool, Successes and Failures; Advantages and Threats; Triumph and Despair).

    Attributes:
        pool: the pool.
        success: P(net successes >= 1), i.e. the check succeeds.
        advantage: P(net advantage >= 1).
        threat: P(net threat >= 1).
        triumph: P(at least one triumph).
        despair: P(at least one despair).
        net_successes: the distribution of net successes (negative = net failures) as
            ascending ``(value, probability)`` pairs, zero probabilities left out.
        net_advantage: the distribution of net advantage (negative = net threat), likewise.
    """

    pool: DicePool
    success: Fraction
    advantage: Fraction
    threat: Fraction
    triumph: Fraction
    despair: Fraction
    net_successes: tuple[tuple[int, Fraction], ...]
    net_advantage: tuple[tuple[int, Fraction], ...]

    def as_dict(self) -> dict[str, object]:
        """The command-line JSON shape: ``{"success", "advantage", "threat", "triumph",
        "despair"}``, each a float probability."""
        return {
            "success": float(self.success),
            "advantage": float(self.advantage),
            "threat": float(self.threat),
            "triumph": float(self.triumph),
            "despair": float(self.despair),
        }


def odds(pool: DicePool | str) -> Odds:
    """Exact odds of a pool (Genesys dice pool, Interpreting the Pool).

    Every probability the command line reports is a function of one signed score per die,
    so no joint state is needed: net successes (success and triumph +1, failure and despair
    -1) and net advantage (advantage +1, threat -1) are each convolved die by die over the
    few distinct scores of each die, counting face combinations as exact integers; a
    triumph's or despair's chance is one minus the product of "none on this die". Cost is
    O(dice^2 * 5), about a millisecond for 20 dice; the result is exact (Fractions).

    Args:
        pool: a :class:`DicePool`, or letter notation for :func:`parse_pool`.

    Returns:
        An :class:`Odds`.

    Raises:
        RuleError: notation :func:`parse_pool` refuses.
    """
    if isinstance(pool, str):
        pool = parse_pool(pool)
    counts = pool.counts()
    combinations = 1
    no_triumph = no_despair = 1
    for die, count in counts.items():
        sides = DIE_SIDES[die]
        combinations *= sides**count
        no_triumph *= sum(1 for f in FACES[die] if "triumph" not in f) ** count
        no_despair *= sum(1 for f in FACES[die] if "despair" not in f) ** count
    net_successes = _convolve(counts, _NET_SUCCESS_FACES)
    net_advantage = _convolve(counts, _NET_ADVANTAGE_FACES)
    return Odds(
        pool=pool,
        success=Fraction(sum(n for v, n in net_successes.items() if v >= 1), combinations),
        advantage=Fraction(sum(n for v, n in net_advantage.items() if v >= 1), combinations),
        threat=Fraction(sum(n for v, n in net_advantage.items() if v <= -1), combinations),
        triumph=1 - Fraction(no_triumph, combinations),
        despair=1 - Fraction(no_despair, combinations),
        net_successes=_distribution(net_successes, combinations),
        net_advantage=_distribution(net_advantage, combinations),
    )


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        name="pool",
        kind=str,
        default=None,
        help="dice in letter notation, e.g. '2A 1P 2D 1C 1B 1S' (A ability, P proficiency, "
        "D difficulty, C challenge, B boost, S setback)",
    ),
)
"""Parameters of a Genesys odds query: ``pool`` (required, letter notation)."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query: ``{"pool": "2A 1P 2D"}`` -> :meth:`Odds.as_dict`.

    Args:
        query: parameter name -> value, as a command line or batch line gives it.

    Returns:
        ``{"success": p, "advantage": p, "threat": p, "triumph": p, "despair": p}``.

    Raises:
        RuleError: a bad query shape (:func:`rulesets.query.read_query`) or pool notation
            (:func:`parse_pool`; Genesys dice pool, Basic Dice Pool).
    """
    values = read_query(query, ODDS_PARAMETERS)
    pool = values["pool"]
    assert isinstance(pool, str)
    return odds(parse_pool(pool)).as_dict()


# ---------------------------------------------------------------------------------------------
# NPC quick roll: Genesys dice pool, Basic Dice Pool
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "2A 1P vs 3D 1C",
    "3A vs 2D",
    "2A 1B vs 2D 1S",
    "1P 2A 2D",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

_QUICK_VS = re.compile(r"versus|vs\.?", re.IGNORECASE)
_QUICK_SPACED_COUNT = re.compile(r"(?<!\w)(\d+)\s+(?=[apdcbs](?![a-z]))", re.IGNORECASE)
_QUICK_WRONG_SIDE: tuple[tuple[str, str, str], ...] = (
    ("dc", "before", "difficulty and challenge dice are the GM's: put them after 'vs'"),
    ("ap", "after", "ability and proficiency dice are the roller's: put them before 'vs'"),
)


def _quick_terms(side: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The tokens of one side with their (count, letter) terms; tokens are checked later."""
    return [
        (token, _TERM.findall(token.lower()))
        for token in re.split(r"[\s,+]+", side.strip())
        if token
    ]


def quick_roll(text: str) -> DicePool:
    """Parse the GM's NPC quick roll, e.g. "2A 1P vs 3D 1C", into a dice pool.

    The letter notation of :func:`parse_pool` (any case; A ability, P proficiency,
    D difficulty, C challenge, B boost, S setback; a missing count is 1; "2 A" is read as
    "2A"), with one optional ``vs`` (also "vs." or "versus") between the roller's dice and
    the GM's (Genesys dice pool, Basic Dice Pool). With ``vs``, both sides must hold dice, and
    the side is checked: ability and proficiency only before it, difficulty and challenge
    only after it; boost and setback may stand on either side, as either party may add them.
    Without ``vs`` the letters alone say whose die is whose.

    **Decision:** the pool is labelled with the trait "NPC" and carries no difficulty level
    (the GM types the dice, not a level), so no Destiny point is asked for.

    Args:
        text: the notation, e.g. ``"2A 1P vs 3D 1C"`` or ``"3A 2D"``; at most
            :data:`QUICK_ROLL_MAX_LENGTH` characters.

    Returns:
        A :class:`DicePool` that :func:`roll` accepts.

    Raises:
        RuleError: empty or over-long text, a token that is not notation, "vs" more than
            once or with nothing on one side, a die on the wrong side of "vs", a term of more
            than :data:`MAX_POOL_DICE` dice, or a pool of more than :data:`MAX_POOL_DICE`
            dice; the message quotes the part, e.g. "'3D' before 'vs': difficulty and
            challenge dice are the GM's: put them after 'vs'".
    """
    rule = _rule("Basic Dice Pool")
    example = QUICK_ROLL_EXAMPLES[0]
    check_length(text, max_length=QUICK_ROLL_MAX_LENGTH, example=example, rule=rule)
    clean = " ".join(_QUICK_SPACED_COUNT.sub(r"\1", text).split())
    if not clean:
        raise RuleError(f"the quick roll is empty: write e.g. {example!r}", rule)
    sides = [side.strip() for side in _QUICK_VS.split(clean)]
    if len(sides) > 2:
        raise RuleError(f"{clean!r} has 'vs' more than once: write e.g. {example!r}", rule)
    if len(sides) == 2:
        for side, where in zip(sides, ("before", "after"), strict=True):
            if not side:
                raise RuleError(f"{clean!r} has nothing {where} 'vs': write e.g. {example!r}", rule)
    total = 0
    for token, terms in _quick_terms(" ".join(sides)):
        for count, _letter in terms:
            if int(count or "1") > MAX_POOL_DICE:
                raise RuleError(
                    f"{token!r}: a pool holds at most {MAX_POOL_DICE} dice; write e.g. {example!r}",
                    rule,
                )
            total += int(count or "1")
    if total > MAX_POOL_DICE:
        raise RuleError(f"{clean!r} is {total} dice: a pool holds at most {MAX_POOL_DICE}", rule)
    pool = parse_pool(" ".join(sides))  # checks every token and quotes a bad one
    if len(sides) == 2:
        for side, where in zip(sides, ("before", "after"), strict=True):
            for letters, wrong_where, message in _QUICK_WRONG_SIDE:
                if where != wrong_where:
                    continue
                for token, terms in _quick_terms(side):
                    if any(letter.lower() in letters for _count, letter in terms):
                        raise RuleError(f"{token!r} {where} 'vs': {message}", rule)
    return _pool(pool.counts(), traits=("NPC",))


# ---------------------------------------------------------------------------------------------
# The character sheet: skills, thresholds, creation and experience.
#
# The seed (Genesys dice pool) says how a pool is built from a characteristic and a skill but
# has no character creation and no advancement. What follows takes them from the public
# Genesys Core Rulebook, cited as "Genesys Core Rulebook, <step or section>"; every choice
# beyond it is marked **Decision** and repeated in docs/systems/genesys.md.
# ---------------------------------------------------------------------------------------------

CORE_RULEBOOK = "Genesys Core Rulebook"
"""Prefix of the citations of the public core rules (where the seed is silent)."""


def _core(section: str) -> str:
    return f"{CORE_RULEBOOK}, {section}"


@dataclass(frozen=True)
class SkillInfo:
    """One skill of a campaign's list: its name, the characteristic it is linked to (Genesys
    dice pool, Skill and Characteristic) and the core rulebook's group ("General", "Combat",
    "Social", "Knowledge", "Magic"; "Custom" for a skill the GM adds)."""

    name: str
    characteristic: str
    group: str = "Custom"

    def as_dict(self) -> dict[str, str]:
        """``{"name", "characteristic", "group"}`` for ``Campaign.system_data``."""
        return {"name": self.name, "characteristic": self.characteristic, "group": self.group}


CORE_SKILLS: tuple[SkillInfo, ...] = (
    SkillInfo("Alchemy", "Intellect", "General"),
    SkillInfo("Astrocartography", "Intellect", "General"),
    SkillInfo("Athletics", "Brawn", "General"),
    SkillInfo("Computers", "Intellect", "General"),
    SkillInfo("Cool", "Presence", "General"),
    SkillInfo("Coordination", "Agility", "General"),
    SkillInfo("Discipline", "Willpower", "General"),
    SkillInfo("Driving", "Agility", "General"),
    SkillInfo("Mechanics", "Intellect", "General"),
    SkillInfo("Medicine", "Intellect", "General"),
    SkillInfo("Operating", "Intellect", "General"),
    SkillInfo("Perception", "Cunning", "General"),
    SkillInfo("Piloting", "Agility", "General"),
    SkillInfo("Resilience", "Brawn", "General"),
    SkillInfo("Riding", "Agility", "General"),
    SkillInfo("Skulduggery", "Cunning", "General"),
    SkillInfo("Stealth", "Agility", "General"),
    SkillInfo("Streetwise", "Cunning", "General"),
    SkillInfo("Survival", "Cunning", "General"),
    SkillInfo("Vigilance", "Willpower", "General"),
    SkillInfo("Arcana", "Intellect", "Magic"),
    SkillInfo("Divine", "Willpower", "Magic"),
    SkillInfo("Primal", "Cunning", "Magic"),
    SkillInfo("Brawl", "Brawn", "Combat"),
    SkillInfo("Gunnery", "Agility", "Combat"),
    SkillInfo("Melee", "Brawn", "Combat"),
    SkillInfo("Melee (Light)", "Brawn", "Combat"),
    SkillInfo("Melee (Heavy)", "Brawn", "Combat"),
    SkillInfo("Ranged", "Agility", "Combat"),
    SkillInfo("Ranged (Light)", "Agility", "Combat"),
    SkillInfo("Ranged (Heavy)", "Agility", "Combat"),
    SkillInfo("Charm", "Presence", "Social"),
    SkillInfo("Coercion", "Willpower", "Social"),
    SkillInfo("Deception", "Cunning", "Social"),
    SkillInfo("Leadership", "Presence", "Social"),
    SkillInfo("Negotiation", "Presence", "Social"),
    SkillInfo("Knowledge", "Intellect", "Knowledge"),
)
"""Every skill of the Genesys Core Rulebook (Chapter 3, Skills) with its linked
characteristic and group. A setting uses a subset (Genesys Core Rulebook, Skills: "Melee"
or "Melee (Light)" and "Melee (Heavy)", magic skills only where there is magic)."""

DEFAULT_SKILL_NAMES: tuple[str, ...] = (
    "Athletics", "Computers", "Cool", "Coordination", "Discipline", "Driving", "Mechanics",
    "Medicine", "Operating", "Perception", "Piloting", "Resilience", "Riding", "Skulduggery",
    "Stealth", "Streetwise", "Survival", "Vigilance",
    "Brawl", "Melee", "Ranged", "Gunnery",
    "Charm", "Coercion", "Deception", "Leadership", "Negotiation",
    "Knowledge",
)
"""A new campaign's skill list. **Decision:** the core rulebook's general, social and
knowledge skills, and the single-skill combat variants (Brawl, Melee, Ranged, Gunnery), without
the setting-bound ones (Alchemy, Astrocartography, the magic skills, the Light/Heavy splits);
the GM adds those from :data:`CORE_SKILLS` or anything custom."""


def default_skills() -> tuple[SkillInfo, ...]:
    """The skills of :data:`DEFAULT_SKILL_NAMES`, in that order."""
    by_name = {skill.name: skill for skill in CORE_SKILLS}
    return tuple(by_name[name] for name in DEFAULT_SKILL_NAMES)


SKILL_NAME_MAX = 40
"""Longest skill name a GM may add, in characters (a layout guard, not a rule)."""

_SKILL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ()'&/,.-]*")


def check_skill(name: str, characteristic: str) -> SkillInfo:
    """Check a skill the GM adds or changes: a name of 1-40 letters, digits, spaces and
    ``( ) ' & / , . -``, starting with a letter or digit, and a characteristic of
    :data:`CHARACTERISTICS` (Genesys dice pool, Skill and Characteristic: every skill is tied
    to one characteristic).

    Returns:
        A :class:`SkillInfo` with the name stripped; the core group when the name is a core
        skill's, else "Custom".

    Raises:
        RuleError: an empty, over-long or oddly spelt name, or an unknown characteristic.
    """
    rule = _rule("Skill and Characteristic")
    clean = " ".join(name.split())
    if not clean:
        raise RuleError("give the skill a name", rule)
    if len(clean) > SKILL_NAME_MAX:
        raise RuleError(f"a skill name is at most {SKILL_NAME_MAX} characters", rule)
    if _SKILL_NAME.fullmatch(clean) is None:
        raise RuleError(
            f"{clean!r}: use letters, digits, spaces and ( ) ' & / , . - in a skill name", rule
        )
    if characteristic not in CHARACTERISTICS:
        raise RuleError(
            f"{characteristic!r} is not a characteristic ({', '.join(CHARACTERISTICS)})", rule
        )
    group = next((s.group for s in CORE_SKILLS if s.name.casefold() == clean.casefold()),
                 "Custom")
    return SkillInfo(clean, characteristic, group)


# --- Creation: Genesys Core Rulebook, Step 2 (Average Human), Step 3 (Career), Step 4 -------

STARTING_CHARACTERISTIC = 2
"""Every characteristic of the Average Human archetype (Genesys Core Rulebook, Step 2:
Select a Character Archetype, Average Human: Brawn 2, Agility 2, Intellect 2, Cunning 2,
Willpower 2, Presence 2). **Decision:** archetypes are out of scope; every character starts
as an Average Human and raises characteristics with XP during creation."""

AVERAGE_HUMAN_STARTING_XP = 110
"""The Average Human's starting experience (Genesys Core Rulebook, Step 2). **Decision:** the
app gives the campaign's own starting XP (the GM sets it; 110 matches the core rules); this
number is shown to the GM as the core rules' value."""

CAREER_SKILLS = 8
"""Career skills a career gives (Genesys Core Rulebook, Step 3: Choose a Career). **Decision:**
with no careers catalogued, the player picks eight skills of the campaign's list."""

FREE_CAREER_RANKS = 4
"""Career skills that gain one free rank at creation (Genesys Core Rulebook, Step 3)."""

FREE_NON_CAREER_RANKS = 2
"""Non-career skills an Average Human gains one free rank in at creation (Genesys Core
Rulebook, Step 2, Average Human: "one rank in each of two different non-career skills")."""

CREATION_SKILL_MAX = 2
"""No skill goes above rank 2 during character creation (Genesys Core Rulebook, Step 4:
Invest Experience Points)."""

WOUND_BASE = STRAIN_BASE = 10
"""Average Human: wound threshold 10 + Brawn, strain threshold 10 + Willpower (Genesys Core
Rulebook, Step 2; Step 5: Determine Derived Attributes)."""

TRACK_MAX = 99
"""Most wounds or strain a sheet records (a typing-mistake guard: a threshold is at most 15,
and the rules only ask whether it is exceeded)."""


def wound_threshold(brawn: int) -> int:
    """Wound threshold of an Average Human: 10 + Brawn (Genesys Core Rulebook, Step 2)."""
    return WOUND_BASE + brawn


def strain_threshold(willpower: int) -> int:
    """Strain threshold of an Average Human: 10 + Willpower (Genesys Core Rulebook, Step 2)."""
    return STRAIN_BASE + willpower


def check_career(
    skills: Iterable[str], career: Iterable[str], free_career: Iterable[str],
    free_other: Iterable[str],
) -> None:
    """Check a new character's career skills and free ranks against the campaign's skills.

    Rules (Genesys Core Rulebook, Step 3: Choose a Career; Step 2, Average Human):
    exactly :data:`CAREER_SKILLS` career skills (all of them when the list is shorter);
    one free rank in exactly :data:`FREE_CAREER_RANKS` of the career skills; one free rank in
    exactly :data:`FREE_NON_CAREER_RANKS` different non-career skills (fewer only when the
    list has fewer).

    Args:
        skills: the campaign's skill names.
        career: the chosen career skills.
        free_career: career skills with a free rank.
        free_other: non-career skills with a free rank.

    Raises:
        RuleError: the first rule broken, named in the message.
    """
    known = list(skills)
    career, free_career, free_other = set(career), set(free_career), set(free_other)
    for name in sorted(career | free_career | free_other):
        if name not in known:
            raise RuleError(f"{name!r} is not on this campaign's skill list",
                            _core("Step 3: Choose a Career"))
    want = min(CAREER_SKILLS, len(known))
    if len(career) != want:
        raise RuleError(
            f"choose exactly {want} career skills (you chose {len(career)})",
            _core("Step 3: Choose a Career"),
        )
    outside = sorted(free_career - career)
    if outside:
        raise RuleError(
            f"{', '.join(outside)}: a free career rank goes to one of your career skills",
            _core("Step 3: Choose a Career"),
        )
    want = min(FREE_CAREER_RANKS, len(career))
    if len(free_career) != want:
        raise RuleError(
            f"choose exactly {want} career skills for a free rank (you chose "
            f"{len(free_career)})",
            _core("Step 3: Choose a Career"),
        )
    inside = sorted(free_other & career)
    if inside:
        raise RuleError(
            f"{', '.join(inside)}: the Average Human's free ranks go to non-career skills",
            _core("Step 2: Select a Character Archetype, Average Human"),
        )
    want = min(FREE_NON_CAREER_RANKS, len(known) - len(career))
    if len(free_other) != want:
        raise RuleError(
            f"choose exactly {want} different non-career skills for the Average Human's free "
            f"ranks (you chose {len(free_other)})",
            _core("Step 2: Select a Character Archetype, Average Human"),
        )


# --- Experience: Genesys Core Rulebook, Step 4: Invest Experience Points --------------------


def characteristic_cost(rating_to: int, *, in_creation: bool) -> int:
    """XP to raise a characteristic to ``rating_to``: 10 x the new rating, one rating at a
    time, only during character creation, at most 5 (Genesys Core Rulebook, Step 4: Invest
    Experience Points).

    Raises:
        RuleError: after creation, or a rating outside 2..5 (the Average Human starts at 2).
    """
    rule = _core("Step 4: Invest Experience Points")
    if not in_creation:
        raise RuleError(
            "characteristics are raised with XP only during character creation", rule
        )
    if not STARTING_CHARACTERISTIC < rating_to <= CHARACTERISTIC_MAX:
        raise RuleError(
            f"a characteristic is raised to at most {CHARACTERISTIC_MAX}", rule
        )
    return 10 * rating_to


def skill_cost(rank_to: int, *, career: bool, in_creation: bool = False) -> int:
    """XP to train a skill to ``rank_to``: 5 x the new rank for a career skill, 5 more for a
    non-career one, one rank at a time, at most rank 5, and at most rank 2 during creation
    (Genesys Core Rulebook, Step 4: Invest Experience Points).

    Raises:
        RuleError: a rank outside 1..5, or above 2 during creation.
    """
    rule = _core("Step 4: Invest Experience Points")
    if not 1 <= rank_to <= SKILL_RANKS_MAX:
        raise RuleError(f"a skill is trained to at most rank {SKILL_RANKS_MAX}", rule)
    if in_creation and rank_to > CREATION_SKILL_MAX:
        raise RuleError(
            f"no skill goes above rank {CREATION_SKILL_MAX} during character creation", rule
        )
    return 5 * rank_to + (0 if career else 5)
