"""Shahquest's table readings: the rules a campaign may read another way (docs/rules.md, Table
readings). Each first choice is the engine's reading before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Reading, Readings


@dataclass(frozen=True)
class ShahquestReadings(Readings):
    """A campaign's readings of Shahquest's rules (:class:`rulesets.readings.Readings`); the
    defaults are the engine's reading of the seed."""

    READINGS: ClassVar[tuple[Reading, ...]] = ()


SEED_READINGS = ShahquestReadings()
"""The defaults: the engine's reading of the seed."""
