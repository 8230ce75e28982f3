"""Each system's demo campaign (``manage.py load_demo``), found by slug.

A system's ``systems/<slug>/demo.py`` fills a fresh campaign the way a table would: it makes a
character through the creation form's data and plays a little through the same services the
pages call. It composes those services, so it sits above them: nothing below imports it, and
this module finds it by name rather than the system package importing it.

A demo module exports ``CAMPAIGN_NAME`` (the demo campaign's name) and
``build(*, campaign, gm, player, rng) -> None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from systems.registry import system_module

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng


class DemoBuild(Protocol):
    """A demo module's ``build``: fills ``campaign`` for ``player``, with ``gm`` as its GM,
    rolling with ``rng``."""

    def __call__(self, *, campaign: Campaign, gm: User, player: User, rng: Rng) -> None: ...


@dataclass(frozen=True)
class Demo:
    """One system's demo.

    Attributes:
        campaign_name: the demo campaign's name, e.g. ``"The Shattered Crown"``.
        build: fills ``campaign`` (already created, ``player`` already a member): a character
            for ``player`` and a few rolls and changes; ``rng`` is seeded so every machine
            gets the same demo.
    """

    campaign_name: str
    build: DemoBuild


def demo_for(slug: str) -> Demo | None:
    """The demo of system ``slug`` (its package's ``demo.py``, :func:`~systems.registry.
    system_module`), or ``None`` when its package has none.

    Raises:
        ImportError: the demo module exists but fails to import (a bug, not an absence).
    """
    module: Any = system_module(slug, "demo")
    if module is None:
        return None
    return Demo(campaign_name=module.CAMPAIGN_NAME, build=module.build)
