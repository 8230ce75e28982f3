"""Shattered World's changes: the sheet's track actions (pools, the full rest, the foible,
the GM's achievements) and the GM's campaign actions (the die steps table, custom buy-ins),
each with its form; the achievements the GM's end-of-session grid awards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from characters.ledger import ledger_append
from characters.models import XpEntry
from rulesets import shattered_world as sw
from rulesets.errors import RuleError
from systems import CampaignAction, TrackAction
from systems.shattered_world.catalogue import MULTIPLIER_RULES, _step_dict, catalogue
from systems.shattered_world.forms import (
    AchievementForm,
    AchievementUndoForm,
    BuyInForm,
    BuyInRemoveForm,
    DieStepsForm,
    FoibleForm,
    PoolForm,
    RestForm,
)
from systems.shattered_world.sheet import (
    ACTION_DIE,
    RULE_ACHIEVEMENTS,
    RULE_BUY_INS,
    RULE_DICE,
    RULE_STATISTICS,
    _achievements,
    _one_line,
    _pool,
    _put_pool,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng


# --- Track actions ----------------------------------------------------------------------------


def pool_change(character: Character, data: dict[str, Any], by: User) -> str:
    """Lose or regain points of a pool, stopping at 0 and at the maximum
    (Shattered World Core Engine, Mechanical (Non-Roleplay) Actions). Needs the row lock."""
    sheet = dict(character.sheet)
    before = _pool(sheet, data["pool"])
    after = (before.lose(data["amount"]) if data["direction"] == "lose"
             else before.regain(data["amount"]))
    if after == before:
        edge = "0" if data["direction"] == "lose" else f"its maximum {before.maximum}"
        raise RuleError(f"{before.name} is already at {edge}.", RULE_STATISTICS)
    _put_pool(sheet, after)
    character.sheet = sheet
    return f"{after.name} now {after.current}/{after.maximum}."


def full_rest(character: Character, data: dict[str, Any], by: User) -> str:
    """Restore every statistic to its maximum, hit points excepted (Shattered World Core
    Engine, Mechanical (Non-Roleplay) Actions). Needs the row lock."""
    sheet = dict(character.sheet)
    rested = sw.Statistics(tuple(_pool(sheet, code) for code in sw.STATISTICS)).full_rest()
    for pool in rested.pools:
        _put_pool(sheet, pool)
    character.sheet = sheet
    return "Full rest: every statistic is back to its maximum (hit points are not)."


def achievement_append(character: Character, *, kind: str, name: str, category: str,
                       by: User, session: Any = None) -> tuple[XpEntry, str]:
    """Log one achievement on ``character`` (+1 Current XP, +1 Total Achievements): record it
    in ``sheet["achievements"]`` and append one ledger award keyed ``milestone:<name>`` or
    ``feat:<name>``, linked to ``session`` when given (the GM's end-of-session grid).

    Args:
        character: locked with SELECT FOR UPDATE; its ``sheet`` is changed in memory (the
            caller saves it), its XP sums are saved by ``ledger_append``.
        kind: "milestone" or "feat".
        name: the achievement's name, e.g. "Talk to strangers at the inn".
        category: "universal", "special", "field role" or "subrole" (for the ledger reason).
        by: the GM.
        session: a ``campaigns.models.Session`` or None.

    Returns the ledger entry and the message for the GM. Raises RuleError, writing nothing,
    for a milestone already earned and not undone (Shattered World Core Engine,
    Achievements and Buy-Ins: "can be collected once only in your character's lifetime").
    """
    category = category or "universal"
    sheet = dict(character.sheet)
    log = _achievements(sheet)
    experience = sw.Experience(current_xp=character.xp_available,
                               total_achievements=log["total"],
                               milestones=frozenset(log["milestones"]))
    experience.earn(sw.Achievement(name, kind, category))
    if kind == "milestone":
        log["milestones"].append(name)
    else:
        log["feats"][name] = log["feats"].get(name, 0) + 1
    log["total"] += 1
    sheet["achievements"] = log
    character.sheet = sheet
    label = f"{kind.capitalize()}: {name}"
    entry = ledger_append(character, kind=XpEntry.Kind.AWARD,
                          available_delta=sw.XP_PER_ACHIEVEMENT,
                          total_delta=sw.XP_PER_ACHIEVEMENT, trait_key=f"{kind}:{name}"[:200],
                          reason=f"{label} ({category})"[:200], created_by=by, session=session)
    return entry, f"{label} logged: +1 XP, {log['total']} achievements in all."


def achievement_log(character: Character, data: dict[str, Any], by: User) -> str:
    """Log an achievement from the sheet's form (:func:`achievement_append`): a milestone
    logged before (and not undone) is refused (Shattered World Core Engine, Achievements
    and Buy-Ins). Needs the row lock."""
    _, message = achievement_append(character, kind=data["kind"], name=data["name"],
                                    category=data.get("category") or "universal", by=by)
    return message


SESSION_AWARD_KINDS = {"Milestone": "milestone", "Feat": "feat"}
"""The award grid's names are ``"Milestone: <name>"`` and ``"Feat: <name>"``: "Complete a
quest successfully" is both a milestone and a feat in the seed."""


def session_award_names() -> tuple[str, ...]:
    """The seed's universal milestones then feats, as the award grid names them
    (Shattered World Core Engine, Universal Achievements)."""
    return (*(f"Milestone: {a.name}" for a in sw.UNIVERSAL_MILESTONES),
            *(f"Feat: {a.name}" for a in sw.UNIVERSAL_FEATS))


def achievement_undo(character: Character, data: dict[str, Any], by: User) -> str:
    """Undo a logged achievement with a reversing ledger entry (-1 Current XP, -1 Total
    Achievements); a milestone undone may be logged again. Refused when already undone or
    when its XP has been spent. Needs the row lock."""
    # Read again under the character's lock: the form's copy predates it, and an undo made
    # meanwhile (a second tab) shows only now.
    entry = XpEntry.objects.select_related("reversal").get(pk=data["entry"].pk)
    if hasattr(entry, "reversal"):
        raise RuleError("That achievement has already been undone.", RULE_ACHIEVEMENTS)
    if character.xp_available < entry.available_delta:
        raise RuleError(
            f"Its XP has been spent ({character.xp_available} XP available): undo the buy-in "
            "first.", RULE_ACHIEVEMENTS)
    kind, _, name = entry.trait_key.partition(":")
    sheet = dict(character.sheet)
    log = _achievements(sheet)
    if kind == "milestone" and name in log["milestones"]:
        log["milestones"].remove(name)
    elif kind == "feat" and log["feats"].get(name):
        log["feats"][name] -= 1
        if not log["feats"][name]:
            del log["feats"][name]
    log["total"] = max(0, log["total"] - entry.total_delta)
    sheet["achievements"] = log
    character.sheet = sheet
    ledger_append(character, kind=XpEntry.Kind.REVERSAL, available_delta=-entry.available_delta,
                  total_delta=-entry.total_delta, trait_key=entry.trait_key, reverses=entry,
                  reason=f"Undo: {entry.reason}"[:200], created_by=by)
    return f"Undone: {entry.reason}."


def foible_set(character: Character, data: dict[str, Any], by: User) -> str:
    """Record the foible the player accepts, "" to clear it (Shattered World Core Engine,
    Universal Buy-Ins: "must accept foible"). Needs the row lock."""
    foible = data["foible"].strip()
    character.sheet = {**character.sheet, "foible": foible}
    return "Foible saved." if foible else "Foible cleared."


ACTIONS = {
    "pool": TrackAction(form=PoolForm, apply=pool_change, partial="sheet-tracks"),
    "rest": TrackAction(form=RestForm, apply=full_rest, partial="sheet-tracks"),
    "foible": TrackAction(form=FoibleForm, apply=foible_set, partial="sheet-profile"),
    "achievement": TrackAction(form=AchievementForm, apply=achievement_log,
                               partial="sheet-achievements", gm_only=True),
    "achievement_undo": TrackAction(form=AchievementUndoForm, apply=achievement_undo,
                                    partial="sheet-achievements", gm_only=True,
                                    needs_character=True),
}


# --- Campaign actions -------------------------------------------------------------------------


def die_steps_set(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                  ) -> tuple[str, Roll | None]:
    """Replace the campaign's die steps table. A table shorter than a character's action
    die level is refused, naming the character. Needs the campaign row lock."""
    steps = data["steps"]
    for character in campaign.characters.all():
        level = int(character.sheet.get("action_die_level", 0))
        if level >= len(steps):
            raise RuleError(f"{character.name} has bought {level} action die steps; keep at "
                            f"least {level + 1} rows.", RULE_DICE)
    campaign.system_data = {**(campaign.system_data or {}),
                            "die_steps": [_step_dict(s) for s in steps]}
    return f"Die steps saved: {len(steps)} rows.", None


def buy_in_add(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
               ) -> tuple[str, Roll | None]:
    """Add a custom buy-in to the catalogue; a name already there, or a required buy-in not
    in the catalogue, is refused. Needs the campaign row lock."""
    names = {entry.name.casefold() for entry in catalogue(campaign)} | {ACTION_DIE.casefold()}
    names |= {b.name.casefold() for b in MULTIPLIER_RULES}
    if data["name"].casefold() in names:
        raise RuleError(f"{data['name']} is already in the catalogue.", RULE_BUY_INS)
    requires = _one_line(data.get("requires"))
    if requires and requires.casefold() not in names:
        raise RuleError(f"{requires} is not in the catalogue.", RULE_BUY_INS)
    row = {"name": data["name"], "cost": data["cost"], "effect": data.get("effect", ""),
           "field_role": _one_line(data.get("field_role")),
           "subrole": _one_line(data.get("subrole")),
           "ability": data.get("ability") or "", "hit_points": data.get("hit_points") or 0,
           "min_achievements": data.get("min_achievements") or 0, "requires": requires}
    system_data = dict(campaign.system_data or {})
    system_data["custom_buy_ins"] = [*system_data.get("custom_buy_ins", []), row]
    campaign.system_data = system_data
    return f"{data['name']} ({data['cost']}) added to the catalogue.", None


def buy_in_remove(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                  ) -> tuple[str, Roll | None]:
    """Remove a custom buy-in. Levels already bought stay on the sheets (and can be undone);
    no more can be bought. Needs the campaign row lock."""
    system_data = dict(campaign.system_data or {})
    rows = system_data.get("custom_buy_ins", [])
    kept = [row for row in rows if row["name"] != data["name"]]
    if len(kept) == len(rows):
        raise RuleError(f"{data['name']} is not a custom buy-in of this campaign.", RULE_BUY_INS)
    system_data["custom_buy_ins"] = kept
    campaign.system_data = system_data
    return f"{data['name']} removed from the catalogue.", None


CAMPAIGN_ACTIONS = {
    "die_steps": CampaignAction(form=DieStepsForm, apply=die_steps_set, partial="system-panel"),
    "buy_in_add": CampaignAction(form=BuyInForm, apply=buy_in_add, partial="system-panel"),
    "buy_in_remove": CampaignAction(form=BuyInRemoveForm, apply=buy_in_remove,
                                    partial="system-panel"),
}
