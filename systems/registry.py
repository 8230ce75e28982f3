"""Which sheet layer a system has: slug -> its :class:`~systems.base.SheetSystem`.

Each system's package (``systems/<slug>/``) exports ``SYSTEM``; this module finds it by the
campaign's slug, so shared code asks the registry and never names a system. A system kept
outside ``systems/`` (the tests' made-up one) names its package in its
:class:`rulesets.registry.Ruleset` entry; :func:`package_of` and :func:`system_module` find a
system's modules for :mod:`systems.demos` and :func:`systems.schema.import_schema` too.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from rulesets.registry import RULESETS

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from systems.base import SheetSystem


def package_of(slug: str) -> str:
    """The import path of system ``slug``'s sheet-layer package: its registry entry's
    ``package`` when it names one, else ``systems.<slug>`` (every real system; also the
    answer for a slug no entry has)."""
    ruleset = RULESETS.get(slug)
    if ruleset is not None and ruleset.package:
        return ruleset.package
    return f"systems.{slug}"


def system_module(slug: str, name: str) -> ModuleType | None:
    """The module ``name`` (``"system"``, ``"demo"``, ``"schema"``) of system ``slug``'s
    package, imported; ``None`` when the package or that module does not exist.

    Raises:
        ImportError: the module exists but fails to import (a bug, not an absence).
    """
    package = package_of(slug)
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name in (package, f"{package}.{name}"):
            return None
        raise


def for_ruleset(slug: str) -> SheetSystem:
    """The sheet layer of the system ``slug``: its package's ``system.SYSTEM``.

    Raises:
        LookupError: no system package has that slug (a campaign's ruleset is one of
            :data:`rulesets.registry.RULESETS`, so only a bug or a hand-edited row meets it).
    """
    module = system_module(slug, "system")
    if module is None:
        raise LookupError(f"No sheet layer for the system {slug!r}.")
    system: SheetSystem = module.SYSTEM
    return system


def for_campaign(campaign: Campaign) -> SheetSystem:
    """:func:`for_ruleset` of the campaign's system."""
    return for_ruleset(campaign.ruleset)
