"""Registry of the game systems (rulesets) Sheetkeeper knows, keyed by slug.

Slugs and display names follow the seed files (docs/rules.md). Every system
has its rules module (dice, pools, costs, exact odds) and its character sheet, so every one is
selectable for a new campaign; ``selectable`` stays for a system listed before its sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rulesets import genesys, maelstrom, shahquest, shattered_world, three_d6
from rulesets.base import RulesModule
from rulesets.query import Parameter


@dataclass(frozen=True)
class Ruleset:
    """One game system.

    Attributes:
        slug: stable identifier stored in the database (for example ``"maelstrom"``).
        name: display name (for example ``"Maelstrom"``).
        selectable: whether a campaign may choose this system now (its sheet exists).
        module: the rules module (for example :mod:`rulesets.maelstrom`), or ``None`` for a
            system listed before its engine is written. Typed by the
            :class:`~rulesets.base.RulesModule` protocol, so mypy checks each engine offers
            what shared code calls on it.
        package: the import path of the system's sheet-layer package (its ``system.py``,
            ``demo.py``, ``schema.py``, templates), or ``None`` for ``systems.<slug>``, where
            every real system keeps it. Only a system kept elsewhere names it: the tests'
            made-up system registers ``"tests.tally"``. A name, never imported here (the rules
            engine sits below the sheet layer); :func:`systems.registry.package_of` reads it.
    """

    slug: str
    name: str
    selectable: bool
    module: RulesModule | None = None
    package: str | None = None

    @property
    def odds_parameters(self) -> tuple[Parameter, ...]:
        """The module's ``ODDS_PARAMETERS`` (empty while the system has no module)."""
        return self.module.ODDS_PARAMETERS if self.module is not None else ()

    @property
    def odds_query(self) -> Callable[[Mapping[str, object]], dict[str, object]] | None:
        """The module's ``odds_query`` function, or ``None`` while the system has no module."""
        return self.module.odds_query if self.module is not None else None


RULESETS: dict[str, Ruleset] = {
    ruleset.slug: ruleset
    for ruleset in (
        Ruleset(slug="maelstrom", name="Maelstrom", selectable=True, module=maelstrom),
        Ruleset(slug="shahquest", name="Shahquest", selectable=True, module=shahquest),
        Ruleset(
            slug="shattered_world",
            name="Shattered World",
            selectable=True,
            module=shattered_world,
        ),
        Ruleset(slug="genesys", name="Genesys", selectable=True, module=genesys),
        Ruleset(slug="three_d6", name="3d6", selectable=True, module=three_d6),
    )
}
"""Every supported system by slug, in display order."""


def get(slug: str) -> Ruleset:
    """Return the :class:`Ruleset` registered under ``slug``.

    Args:
        slug: a key of :data:`RULESETS`, for example ``"maelstrom"``.

    Returns:
        The registered ruleset (selectable or not).

    Raises:
        KeyError: if no system has that slug; the message lists the known slugs.
    """
    try:
        return RULESETS[slug]
    except KeyError:
        known = ", ".join(RULESETS)
        raise KeyError(f"unknown ruleset {slug!r}; known rulesets: {known}") from None


def choices(selectable_only: bool = True) -> list[tuple[str, str]]:
    """Return ``(slug, name)`` pairs in display order, for a Django form field's ``choices``.

    Args:
        selectable_only: when true (the default), only systems that can be chosen now.

    Returns:
        A new list of ``(slug, display name)`` tuples.
    """
    return [
        (ruleset.slug, ruleset.name)
        for ruleset in RULESETS.values()
        if ruleset.selectable or not selectable_only
    ]
