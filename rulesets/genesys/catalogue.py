"""The Genesys catalogue: the six dice and their faces, the symbols, the characteristics,
the difficulty levels and the pool size guard (Genesys dice pool, Basic Dice Pool; Skill and
Characteristic; Difficulty), and the citation helper every module of the system uses."""

from __future__ import annotations

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
