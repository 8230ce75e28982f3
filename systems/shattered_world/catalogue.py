"""Shattered World's buy-in catalogue and the campaign's die steps, as the campaign's
``system_data`` holds them (its shape: :mod:`systems.shattered_world.system`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesets import shattered_world as sw

if TYPE_CHECKING:
    from campaigns.models import Campaign


# --- The catalogue ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One buy-in the XP page can sell (Shattered World Core Engine, Universal Buy-Ins).

    Attributes:
        name: the catalogue name ("Increase UAM").
        cost: cost notation ("1/e", "5/x2", "32").
        effect: what it does, in words.
        field_role, subrole: where it belongs ("" for universal; "" subrole for the whole
            field role); decides the cost multiplier.
        per_statistic: bought separately for each statistic ("Exceptional Ability, Each").
        statistic_bonus: points added to that statistic's maximum (and current) per level.
        cap: the statistic's maximum allowed by this tier (None: no maximum).
        hit_points: hit points added per level (max and current).
        requires: buy-ins to own first (for the same statistic when ``per_statistic``).
        requires_proficiency: proficiency in the statistic (or, for a custom entry, its
            ``ability``) is needed.
        ability: the statistic a custom entry is about ("" for none).
        min_achievements: Total Achievements needed.
        custom: added by the campaign's GM.
        prerequisites: the prerequisites in words, for the catalogue.
    """

    name: str
    cost: str
    effect: str
    field_role: str = ""
    subrole: str = ""
    per_statistic: bool = False
    statistic_bonus: int = 0
    cap: int | None = None
    hit_points: int = 0
    requires: tuple[str, ...] = ()
    requires_proficiency: bool = False
    ability: str = ""
    min_achievements: int = 0
    custom: bool = False
    prerequisites: str = ""

    @property
    def where(self) -> str:
        """"Universal", "Warrior" or "Warrior / Knight"."""
        if not self.field_role:
            return "Universal"
        return f"{self.field_role} / {self.subrole}" if self.subrole else self.field_role


_TIERS = {"Exceptional Ability, Each": 40, "Uncanny Ability, Each": 50,
          "Super Ability, Each": 60, "Godly Ability": None}


def _universal_entries() -> list[Entry]:
    entries = []
    for buy_in in sw.UNIVERSAL_BUY_INS.values():
        if not buy_in.cost:  # the multiplier rules, not bought themselves
            continue
        tier = buy_in.name in _TIERS
        entries.append(Entry(
            name=buy_in.name, cost=buy_in.cost, effect=buy_in.effect,
            per_statistic=tier, statistic_bonus=2 if tier and buy_in.cost != "32" else 0,
            cap=_TIERS.get(buy_in.name), requires=buy_in.requires,
            requires_proficiency=buy_in.requires_proficiency,
            min_achievements=buy_in.min_achievements, prerequisites=buy_in.prerequisites,
        ))
    return entries


UNIVERSAL_ENTRIES: tuple[Entry, ...] = tuple(_universal_entries())
"""The seed's universal buy-ins that are bought (the three "Buy Into" rows are multipliers)."""

MULTIPLIER_RULES: tuple[sw.BuyIn, ...] = tuple(b for b in sw.UNIVERSAL_BUY_INS.values()
                                               if not b.cost)
"""The seed's "Buy Into ..." rows: the cost multipliers and their prerequisites."""


def _custom_entry(data: Mapping[str, Any]) -> Entry:
    ability = str(data.get("ability", ""))
    hit_points = int(data.get("hit_points", 0) or 0)
    min_achievements = int(data.get("min_achievements", 0) or 0)
    requires = str(data.get("requires", "") or "")
    words = []
    if min_achievements:
        words.append(f"Min. {min_achievements} achievements")
    if requires:
        words.append(f"owns {requires}")
    if ability:
        words.append(f"proficiency in {sw.STATISTICS.get(ability, ability)}")
    return Entry(
        name=str(data["name"]), cost=str(data["cost"]), effect=str(data.get("effect", "")),
        field_role=str(data.get("field_role", "")), subrole=str(data.get("subrole", "")),
        hit_points=hit_points, requires=(requires,) if requires else (),
        requires_proficiency=bool(ability), ability=ability,
        min_achievements=min_achievements, custom=True, prerequisites=", ".join(words),
    )


# --- Campaign data ----------------------------------------------------------------------------


def _step_dict(step: sw.DieStep) -> dict[str, Any]:
    return {"action_die": step.action_die, "field_role_die": step.field_role_die,
            "cost": step.cost, "notes": step.notes}


def die_steps(campaign: Campaign) -> tuple[sw.DieStep, ...]:
    """The campaign's die steps table, starting step first (the default when it has none:
    a factory-made campaign's ``system_data`` is ``{}``)."""
    rows = (campaign.system_data or {}).get("die_steps")
    if not rows:
        return sw.default_die_steps()
    return tuple(sw.DieStep(int(r["action_die"]), int(r["field_role_die"]), int(r["cost"]),
                            str(r.get("notes", ""))) for r in rows)


def catalogue(campaign: Campaign) -> list[Entry]:
    """Every buy-in of the campaign: the seed's universal ones, then the GM's custom ones."""
    custom = (campaign.system_data or {}).get("custom_buy_ins", [])
    return [*UNIVERSAL_ENTRIES, *(_custom_entry(row) for row in custom)]
