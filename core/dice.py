"""The server's dice: every roll the apps make draws from :func:`get_rng`.

Production rolls with the operating system's CSPRNG; tests replace :func:`get_rng` (one place,
``core.dice.get_rng``) with a seeded ``random.Random`` so that a roll's dice are known. Callers
look it up at call time (``server_dice.get_rng()``), never keep the object, so a test's patch
reaches every view and service.
"""

from __future__ import annotations

import secrets

from rulesets.dice import Rng

_SYSTEM_RANDOM = secrets.SystemRandom()


def get_rng() -> Rng:
    """The server's dice: ``secrets.SystemRandom`` (never seeded, never predictable).

    Returns:
        An :class:`rulesets.dice.Rng` (``randint``, ``random``, ``choice``...) that the rules
        engines roll with.
    """
    return _SYSTEM_RANDOM
