"""Each system's demo campaign (``manage.py load_demo``), found by slug.

A system's ``systems/<slug>/demo.py`` fills a fresh campaign the way a table would: it makes a
character through the creation form's data and plays a little through the same services the
pages call. It composes those services, so it sits above them: nothing below imports it, and
this module finds it by name rather than the system package importing it.

A demo module exports ``CAMPAIGN_NAME`` (the demo campaign's name) and
``build(*, campaign, gm, players, rng) -> None``, and may say how many players its table has
(``PLAYERS``, default 1) and the campaign's starting XP (``STARTING_XP``, default 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from systems.registry import system_module

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng


class DemoBuild(Protocol):
    """A demo module's ``build``: fills ``campaign`` for ``players`` (as many as the demo's
    ``players``), with ``gm`` as its GM, rolling with ``rng``."""

    def __call__(self, *, campaign: Campaign, gm: User, players: Sequence[User], rng: Rng
                 ) -> None: ...


@dataclass(frozen=True)
class Demo:
    """One system's demo.

    Attributes:
        campaign_name: the demo campaign's name, e.g. ``"The Shattered Crown"``.
        build: fills ``campaign`` (already created, its ``players`` already members): a
            character for each player and a few rolls and changes; ``rng`` is seeded so
            every machine gets the same demo.
        players: how many demo players sit at the table (1 or more).
        starting_xp: the campaign's starting XP (Maelstrom's 30).
    """

    campaign_name: str
    build: DemoBuild
    players: int = 1
    starting_xp: int = 0


def demo_for(slug: str) -> Demo | None:
    """The demo of system ``slug`` (its package's ``demo.py``, :func:`~systems.registry.
    system_module`), or ``None`` when its package has none.

    Raises:
        ImportError: the demo module exists but fails to import (a bug, not an absence).
    """
    module: Any = system_module(slug, "demo")
    if module is None:
        return None
    return Demo(campaign_name=module.CAMPAIGN_NAME, build=module.build,
                players=getattr(module, "PLAYERS", 1),
                starting_xp=getattr(module, "STARTING_XP", 0))
