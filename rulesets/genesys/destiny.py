"""The Destiny pool of a Genesys table: light side and dark side Destiny points, flipped when
invested in a check (Genesys dice pool, Difficulty; Upgrading and Downgrading Dice;
Impossible Tasks), set by the GM or rolled on Force dice at the start of a session.

The seed names Destiny points and what investing one does: "Upgrading and downgrading dice
most often occurs when one of the participants invests a Destiny point into a skill check"
(Upgrading and Downgrading Dice), the GM upgrades difficulty dice "when Destiny points are
invested to make a check more challenging" (Difficulty), and "Attempting an Impossible task
automatically requires the player to spend one Destiny point" (Impossible Tasks). It says
nothing of where the points come from. **Decisions** (docs/systems/genesys.md, "The Destiny
pool"):

- the pool is one per campaign: ``light`` points the players invest, ``dark`` points the GM
  invests; investing one flips it to the other side, so the pool's size never changes in
  play (the convention of the FFG Star Wars games the seed's dice come from);
- the GM sets the pool by hand, or rolls it: one Force die per player, each face's light
  and dark pips adding that many points (:data:`FORCE_DIE_FACES`, the white d12 of those
  games, as the open-source StarWarsFFG Foundry system has it). The seed gives no rule for
  generating the pool, so the roll is the Star Wars games' way, offered beside setting it.

Pure Python: a frozen :class:`DestinyPool` and functions with an injected RNG.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError
from rulesets.genesys.catalogue import _rule
from rulesets.stored import Stored

LIGHT = "light"
"""The light side: the players' Destiny points. A player's flip turns one dark."""
DARK = "dark"
"""The dark side: the GM's Destiny points. The GM's flip turns one light."""
DESTINY_SIDES: tuple[str, ...] = (LIGHT, DARK)
"""Both sides, light first (the order the pool is shown and stored in)."""

RULE_DESTINY = "Genesys sheet decision, Destiny pool (docs/systems/genesys.md)"
"""What a refusal about the pool's size or its roll cites: the seed names Destiny points but
not how a table keeps or makes them, so these are Sheetkeeper's decisions."""
RULE_INVEST = _rule("Upgrading and Downgrading Dice")
"""What a flip with no point of its side left cites: a Destiny point is invested into a check
to upgrade a die (Genesys dice pool, Upgrading and Downgrading Dice)."""

DESTINY_MAX = 24
"""Most Destiny points a pool holds, both sides together: twelve Force dice each showing two
pips (a typing guard: a table of twelve players is already a large one)."""
FORCE_DICE_MAX = 12
"""Most Force dice rolled for a pool at once, one per player (a typing guard)."""

FORCE_DIE_FACES: tuple[tuple[int, int], ...] = (
    (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1),  # faces 1-6: one dark side pip
    (0, 2),                                          # face 7: two dark side pips
    (1, 0), (1, 0),                                  # faces 8-9: one light side pip
    (2, 0), (2, 0), (2, 0),                          # faces 10-12: two light side pips
)
"""``(light, dark)`` pips of each face of the Force die (a d12; face ``n`` is index
``n - 1``): six faces of one dark pip, one of two dark pips, two of one light pip, three of
two light pips; eight pips of each side in all. Not in the seed: the white Force die of the
FFG Star Wars games (docs/systems/genesys.md, "The Destiny pool")."""

FORCE_DIE_SIDES = len(FORCE_DIE_FACES)


def force_pips(face: int) -> tuple[int, int]:
    """The ``(light, dark)`` pips a Force die's ``face`` (1-12) shows.

    Raises:
        RuleError: a face outside 1-12.
    """
    if not 1 <= face <= FORCE_DIE_SIDES:
        raise RuleError(f"a Force die has faces 1 to {FORCE_DIE_SIDES}, not {face}",
                        RULE_DESTINY)
    return FORCE_DIE_FACES[face - 1]


def _count(value: int, what: str) -> None:
    if value < 0:
        raise RuleError(f"{what} cannot be negative ({value})", RULE_DESTINY)


@dataclass(frozen=True, kw_only=True)
class DestinyPool:
    """A campaign's Destiny pool: how many points show their light side and how many their
    dark side, and the Force dice that made it when it was rolled.

    Attributes:
        light: light side points (>= 0): a player flips one to upgrade an ability die.
        dark: dark side points (>= 0): the GM flips one to upgrade a difficulty die.
        rolled: the faces (1-12) of the Force dice rolled for the pool at the start of the
            session, one per player; ``()`` when the GM set the pool by hand. Flips never
            change the pool's size, so a rolled pool always holds the pips its dice showed.

    Raises:
        RuleError: a negative count, more than :data:`DESTINY_MAX` points, more than
            :data:`FORCE_DICE_MAX` dice, a face outside 1-12, or a rolled pool whose size is
            not its dice's pips (points that no roll and no flip could have left).
    """

    light: int = 0
    dark: int = 0
    rolled: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _count(self.light, "light side Destiny points")
        _count(self.dark, "dark side Destiny points")
        if self.total > DESTINY_MAX:
            raise RuleError(f"a Destiny pool of {self.total} points is more than the "
                            f"{DESTINY_MAX} Sheetkeeper keeps", RULE_DESTINY)
        if len(self.rolled) > FORCE_DICE_MAX:
            raise RuleError(f"{len(self.rolled)} Force dice are more than the "
                            f"{FORCE_DICE_MAX} rolled at once", RULE_DESTINY)
        if self.rolled:
            pips = sum(sum(force_pips(face)) for face in self.rolled)
            if pips != self.total:
                raise RuleError(f"a pool rolled on Force dice showing {pips} pips holds "
                                f"{pips} points, not {self.total}", RULE_DESTINY)

    @property
    def total(self) -> int:
        """Points in the pool, both sides together."""
        return self.light + self.dark

    def count(self, side: str) -> int:
        """The points showing ``side`` (:data:`LIGHT` or :data:`DARK`).

        Raises:
            RuleError: an unknown side.
        """
        if side not in DESTINY_SIDES:
            raise RuleError(f"{side!r} is not a side of a Destiny point (light or dark)",
                            RULE_DESTINY)
        return self.light if side == LIGHT else self.dark

    def flip(self, side: str) -> DestinyPool:
        """The pool after one point of ``side`` is invested and flips to the other side: a
        player's light point turns dark, the GM's dark point turns light (Genesys dice pool,
        Upgrading and Downgrading Dice). The rolled dice stay as they were.

        Raises:
            RuleError: no point of that side is left ("No light side Destiny point is left
                to flip"), or an unknown side.
        """
        if not self.count(side):
            raise RuleError(f"No {side} side Destiny point is left to flip (the pool is "
                            f"{self.describe()}).", RULE_INVEST)
        if side == LIGHT:
            return DestinyPool(light=self.light - 1, dark=self.dark + 1, rolled=self.rolled)
        return DestinyPool(light=self.light + 1, dark=self.dark - 1, rolled=self.rolled)

    def describe(self) -> str:
        """The pool in words: "2 light, 3 dark"; "empty" when it holds no point."""
        return f"{self.light} light, {self.dark} dark" if self.total else "empty"

    def as_dict(self) -> dict[str, object]:
        """``{"light": 2, "dark": 3, "rolled": [10, 1, 7]}`` for ``Campaign.system_data``
        (``"rolled"`` is ``[]`` for a pool set by hand); see :meth:`from_dict`."""
        return {"light": self.light, "dark": self.dark, "rolled": list(self.rolled)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> DestinyPool:
        """Read a pool stored with :meth:`as_dict`; ``None`` or ``{}`` (a campaign whose GM
        has not set one) is the empty pool, and a missing ``"rolled"`` is ``[]``.

        Raises:
            RuleError: a mistyped field, or a pool :class:`DestinyPool` refuses.
        """
        if not data:
            return cls()
        stored = Stored(data, RULE_DESTINY)
        rolled: list[int] = []
        for face in stored.list("rolled") if "rolled" in data else []:
            # A stored true/false is never a face, though bool is an int.
            if isinstance(face, bool) or not isinstance(face, int):
                raise RuleError("stored 'rolled' is not a list of Force die faces",
                                RULE_DESTINY)
            rolled.append(face)
        return cls(light=stored.int("light"), dark=stored.int("dark"), rolled=tuple(rolled))


def set_destiny(light: int, dark: int) -> DestinyPool:
    """The pool the GM sets by hand at the start of a session: ``light`` and ``dark`` points
    (each >= 0, at most :data:`DESTINY_MAX` together), no dice.

    Raises:
        RuleError: a negative count or too many points.
    """
    return DestinyPool(light=light, dark=dark)


def roll_destiny(dice: int, rng: Rng) -> DestinyPool:
    """Roll the pool at the start of a session: ``dice`` Force dice (one per player), each
    adding its face's light and dark pips (:data:`FORCE_DIE_FACES`; Sheetkeeper's decision,
    see the module's docstring). One ``rng.randint(1, 12)`` per die, in order.

    Args:
        dice: Force dice to roll, 1 to :data:`FORCE_DICE_MAX`.
        rng: the injected random source.

    Returns:
        The new :class:`DestinyPool`, its ``rolled`` the faces.

    Raises:
        RuleError: fewer than one die or more than :data:`FORCE_DICE_MAX`.
    """
    if not 1 <= dice <= FORCE_DICE_MAX:
        raise RuleError(f"roll 1 to {FORCE_DICE_MAX} Force dice, one per player, not {dice}",
                        RULE_DESTINY)
    faces = tuple(roll_die(rng, FORCE_DIE_SIDES) for _ in range(dice))
    light = sum(FORCE_DIE_FACES[f - 1][0] for f in faces)
    dark = sum(FORCE_DIE_FACES[f - 1][1] for f in faces)
    return DestinyPool(light=light, dark=dark, rolled=faces)
