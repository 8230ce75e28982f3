"""Shattered World's table readings: the rules a campaign may read another way (docs/rules.md, Table
readings). Each first choice is the engine's reading before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Reading, Readings


@dataclass(frozen=True)
class ShatteredWorldReadings(Readings):
    """A campaign's readings of Shattered World's rules (:class:`rulesets.readings.Readings`); the
    defaults are the engine's reading of the seed."""

    READINGS: ClassVar[tuple[Reading, ...]] = ()


SEED_READINGS = ShatteredWorldReadings()
"""The defaults: the engine's reading of the seed."""
