"""Dice primitives shared by every ruleset: the injectable RNG protocol and one die roll.

The RNG is always passed in, never created here, so that tests can script the dice and the
apps can use a cryptographic source (``secrets.SystemRandom``) in production.
"""

from __future__ import annotations

from typing import Protocol

DIE_SIZES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""Die sizes (number of sides) used by the supported systems: d4, d6, d8, d10, d12, d20."""


class Rng(Protocol):
    """Source of random integers, injected into every rolling function.

    ``random.Random`` and ``secrets.SystemRandom`` satisfy this protocol, as does any test
    double with the same method.
    """

    def randint(self, a: int, b: int) -> int:
        """Return a random integer N with ``a <= N <= b`` (both ends inclusive)."""
        ...


def roll_die(rng: Rng, sides: int) -> int:
    """Roll one die with ``sides`` faces numbered 1..sides and return the face (an int).

    Args:
        rng: the injected random source; exactly one ``rng.randint(1, sides)`` call is made.
        sides: number of faces, at least 2 (for example 10 for a d10).

    Returns:
        The face rolled, 1 <= face <= sides.

    Raises:
        ValueError: if ``sides`` is below 2, or if the RNG returns a face outside 1..sides.
    """
    if sides < 2:
        raise ValueError(f"a die needs at least 2 sides, not {sides}")
    face = rng.randint(1, sides)
    if not 1 <= face <= sides:
        raise ValueError(f"the RNG returned {face}, outside 1..{sides}")
    return face
