"""Registry of the game systems (rulesets) Sheetkeeper knows, keyed by slug.

Slugs and display names follow the seed files (docs/rules.md). Every system
has its rules module (dice, pools, costs, exact odds) and its character sheet, so every one is
selectable for a new campaign; ``selectable`` is false only for a system listed before its
sheet exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rulesets import genesys, maelstrom, shahquest, shattered_world, three_d6
from rulesets.base import RulesModule, StoredBound
from rulesets.genesys import storage as genesys_storage
from rulesets.maelstrom import storage as maelstrom_storage
from rulesets.query import Parameter
from rulesets.shahquest import storage as shahquest_storage
from rulesets.three_d6 import storage as three_d6_storage


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
        roll_kinds: ``(value, label)`` of the kinds of roll only this system makes, beside
            the shared ones (``Roll.Kind``).
        ledger_kinds: ``(value, label)`` of the XP ledger entry kinds only this system
            writes, beside the shared ones (``XpEntry.Kind``).
        stored_bounds: the bounds the database keeps on this system's stored sheets.
    """

    slug: str
    name: str
    selectable: bool
    module: RulesModule | None = None
    package: str | None = None
    roll_kinds: tuple[tuple[str, str], ...] = ()
    ledger_kinds: tuple[tuple[str, str], ...] = ()
    stored_bounds: tuple[StoredBound, ...] = ()

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
        Ruleset(slug="maelstrom", name="Maelstrom", selectable=True, module=maelstrom,
                roll_kinds=maelstrom_storage.ROLL_KINDS,
                ledger_kinds=maelstrom_storage.LEDGER_KINDS,
                stored_bounds=maelstrom_storage.STORED_BOUNDS),
        Ruleset(slug="shahquest", name="Shahquest", selectable=True, module=shahquest,
                roll_kinds=shahquest_storage.ROLL_KINDS),
        Ruleset(
            slug="shattered_world",
            name="Shattered World",
            selectable=True,
            module=shattered_world,
        ),
        Ruleset(slug="genesys", name="Genesys", selectable=True, module=genesys,
                roll_kinds=genesys_storage.ROLL_KINDS),
        Ruleset(slug="three_d6", name="3d6", selectable=True, module=three_d6,
                roll_kinds=three_d6_storage.ROLL_KINDS),
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


def _kinds(of: Callable[[Ruleset], tuple[tuple[str, str], ...]]) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for ruleset in RULESETS.values():
        for value, label in of(ruleset):
            seen.setdefault(value, label)
    return list(seen.items())


def roll_kinds() -> list[tuple[str, str]]:
    """Every system's own kinds of roll, ``(value, label)`` in display order of the systems;
    a value two systems share is listed once."""
    return _kinds(lambda ruleset: ruleset.roll_kinds)


def ledger_kinds() -> list[tuple[str, str]]:
    """Every system's own XP ledger entry kinds, ``(value, label)`` in display order of the
    systems; a value two systems share is listed once."""
    return _kinds(lambda ruleset: ruleset.ledger_kinds)


def stored_bounds() -> list[StoredBound]:
    """Every system's bounds on its stored sheets, in display order of the systems."""
    return [bound for ruleset in RULESETS.values() for bound in ruleset.stored_bounds]
