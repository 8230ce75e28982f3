"""What every part of the contract knows of its system (:class:`SystemPart`); the parts
themselves are in :mod:`systems.base` and beside it (:mod:`systems.npcs`)."""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass
from typing import final


@dataclass(kw_only=True)
class SystemPart(ABC):
    """What every part of the contract knows of its system: the slug, and from it where the
    package's templates (``systems/<slug>/templates/systems/<slug>/``) and stylesheet
    (``systems/<slug>/static/css/systems/<slug>.css``) are."""

    slug: str
    """The system's slug, as :data:`rulesets.registry.RULESETS` and ``Campaign.ruleset`` name
    it (``"three_d6"``); given when ``SYSTEM`` is built, never empty."""

    @final
    def template(self, name: str) -> str:
        """The template ``name`` of the system's own: ``systems/<slug>/<name>``
        (``"sheet.html"`` -> ``"systems/genesys/sheet.html"``)."""
        return f"systems/{self.slug}/{name}"

    @property
    @final
    def stylesheet(self) -> str:
        """The system's own CSS, as a static path (``css/systems/<slug>.css``); base.html
        links it on every page whose context has this ``system`` (sheet, creation, XP,
        dashboard, roll pages)."""
        return f"css/systems/{self.slug}.css"
