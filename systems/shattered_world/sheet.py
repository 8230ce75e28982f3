"""Shattered World's stored sheet: the rules a refusal cites, the limits and names the forms,
actions and checks share, and the small readers and writers of ``Character.sheet`` (its shape:
:mod:`systems.shattered_world.system`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulesets import shattered_world as sw

if TYPE_CHECKING:
    from campaigns.models import Campaign

RULE_STATISTICS = "Shattered World Core Engine, Mechanical (Non-Roleplay) Actions"
RULE_ACHIEVEMENTS = "Shattered World Core Engine, Achievements and Buy-Ins"
RULE_BUY_INS = "Shattered World Core Engine, Universal Buy-Ins"
RULE_DICE = "Shattered World Core Engine, Action Dice and Field Role Dice"

STAT_CAP = 30
"""**Decision** (seed silent; its character-creation page is not in the seed): a statistic's
maximum is at most 30 before the ability buy-ins, as the seed's tiers raise the cap to 40
(Exceptional), 50 (Uncanny) and 60 (Super); Godly has no maximum."""

HIT_POINTS_MAX = 999
"""A typing guard on hit points, not a rule."""

PROFICIENCIES_MAX = 2
"""**Decision** (seed silent): a new character names up to two proficient abilities."""

ACTION_DIE = "Action Die"
"""The catalogue name of the action die step buy-in (``buy_in:Action Die``)."""

UAM = "Increase UAM"
"""The catalogue name of the Universal Action Modifier buy-in (one UAM a level)."""

STAT_CHOICES = list(sw.STATISTICS.items())
"""The six statistics as form choices, ``[("PF", "Physical Fitness"), ...]``."""

POOL_CHOICES = [*STAT_CHOICES, (sw.HIT_POINTS, "Hit Points")]
"""The pools a player loses or regains points of: the six statistics and hit points."""

KEY_PREFIX = "buy_in:"
"""The ledger's ``trait_key`` prefix of everything XP buys here: ``buy_in:Increase UAM``,
``buy_in:Exceptional Ability, Each:PF``, ``buy_in:Action Die``."""


# --- Sheet helpers ----------------------------------------------------------------------------


def _owned_key(name: str, code: str) -> str:
    """A buy-in's key in ``sheet["buy_ins"]``: ``name``, or ``name:code`` for one bought per
    statistic ("Exceptional Ability, Each:PF")."""
    return f"{name}:{code}" if code else name


def _pool(sheet: Mapping[str, Any], code: str) -> sw.Statistic:
    data = sheet["hit_points"] if code == sw.HIT_POINTS else sheet["statistics"][code]
    return sw.Statistic(code, int(data["current"]), int(data["max"]))


def _put_pool(sheet: dict[str, Any], pool: sw.Statistic) -> None:
    value = {"current": pool.current, "max": pool.maximum}
    if pool.code == sw.HIT_POINTS:
        sheet["hit_points"] = value
    else:
        sheet["statistics"] = {**sheet["statistics"], pool.code: value}


def _grow_pool(sheet: dict[str, Any], code: str, points: int) -> None:
    """Add ``points`` (negative on an undo) to a pool's maximum and current, neither below 0
    nor current above the maximum: a buy-in's +2 to a statistic, its hit points."""
    pool = _pool(sheet, code)
    maximum = max(0, pool.maximum + points)
    _put_pool(sheet, sw.Statistic(code, min(maximum, max(0, pool.current + points)), maximum))


def _achievements(sheet: Mapping[str, Any]) -> dict[str, Any]:
    data = sheet.get("achievements") or {}
    return {"total": int(data.get("total", 0)), "milestones": list(data.get("milestones", [])),
            "feats": dict(data.get("feats", {}))}


def _same(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def _one_line(text: str | None) -> str:
    """``text`` with its runs of whitespace made one space, trimmed ("" for None)."""
    return " ".join((text or "").split())


def readings_of(campaign: Campaign) -> sw.ShatteredWorldReadings:
    """The campaign's table readings as the engine takes them (its own column: no query; a
    reading no longer offered reads as the seed's), for the roll, its odds and the buy-ins'
    prices (docs/systems/shattered_world.md, Table readings)."""
    return sw.ShatteredWorldReadings.from_values(campaign.readings, strict=False)
