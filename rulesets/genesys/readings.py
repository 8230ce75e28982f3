"""Genesys's table readings: the rules a campaign may read another way (docs/rules.md, Table
readings). Each first choice is the engine's reading before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Reading, Readings


@dataclass(frozen=True)
class GenesysReadings(Readings):
    """A campaign's readings of Genesys's rules (:class:`rulesets.readings.Readings`); the
    defaults are the engine's reading of the seed."""

    READINGS: ClassVar[tuple[Reading, ...]] = ()


SEED_READINGS = GenesysReadings()
"""The defaults: the engine's reading of the seed."""
