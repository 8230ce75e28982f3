"""Maelstrom's in-place changes of a sheet: damage marked and healed, a willpower dot spent or
recovered, XP banked; each with its form (Maelstrom rules.md, Marking Damage / Healing /
Willpower / Banking Experience) and the seed's session awards.

Every ``apply`` function runs inside the transaction of
``characters.services.sheet_change``, with the character's row locked; it changes
``character.sheet`` in memory (the service saves it) and raises RuleError to refuse, in which
case nothing is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from characters.ledger import ledger_append
from characters.models import XpEntry
from rulesets import maelstrom
from rulesets.errors import RuleError
from rulesets.maelstrom.storage import LedgerKind
from systems import TrackAction
from systems.maelstrom.forms import BankForm, DamageForm, HealForm, WillpowerForm
from systems.maelstrom.sheet import (
    GROUPS,
    WILLPOWER_KEY,
    health,
    set_health,
    set_willpower,
    trait_label,
    willpower,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character

RULE_BANKING = "Maelstrom rules.md, Banking Experience"
RULE_WILLPOWER = "Maelstrom rules.md, Spending Willpower"
RULE_AWARDS = "Maelstrom rules.md, Chapter and Story Experience Awards"

CHAPTER_AWARDS = ("Participation", "Creativity", "Roleplaying", "Heroism")
"""The seed's suggested chapter awards, 1 XP each (Maelstrom rules.md, Chapter and Story
Experience Awards)."""
STORY_AWARDS = ("Victory", "Hazard", "Ingenuity")
"""The seed's suggested story awards, 1 XP each (same section)."""
SESSION_AWARDS = (*CHAPTER_AWARDS, *STORY_AWARDS)
"""Both, in the order the award grids show them."""

AWARDS_HELP = ("Tick the chapter awards (Participation, Creativity, Roleplaying, Heroism) and "
               "story awards (Victory, Hazard, Ingenuity) each character earned, 1 XP each; add "
               "a custom amount with its reason for one character or for everyone. One submit "
               "awards everything, or nothing if something is wrong.")
"""The help above the session's award grid."""


def award_reason(name: str) -> str:
    """The ledger reason of one of the seed's awards ("Heroism award"), on the XP page and in
    a session alike."""
    return f"{name} award"


def award_label(name: str) -> str:
    """How an award box reads: "Heroism (chapter)", "Victory (story)"."""
    return f"{name} ({'chapter' if name in CHAPTER_AWARDS else 'story'})"


# --- Health -----------------------------------------------------------------------------------


def damage_mark(character: Character, data: dict[str, Any], by: User) -> str:
    """Mark ``data["levels"]`` levels of ``data["kind"]`` damage (bashing, lethal, aggravated)
    on the chart, with the stacking order, push-down, incapacitated conversion and death of
    Maelstrom rules.md, Marking Damage / Incapacitation and Death. Needs the row lock.

    Returns "Marked 2 lethal: Scratched." Raises RuleError (damage to a dead character).
    """
    levels, kind = data["levels"], data["kind"]
    chart = maelstrom.take_damage(health(character.sheet), kind, levels)
    sheet = dict(character.sheet)
    set_health(sheet, chart)
    character.sheet = sheet
    return f"Marked {levels} {kind}: {chart.level_name}."


def damage_heal(character: Character, data: dict[str, Any], by: User) -> str:
    """Heal one level of damage: of ``data["kind"]``, or the least serious first when it is
    empty (Maelstrom rules.md, Healing). Needs the row lock.

    Returns "Healed one level: Bruised." Raises RuleError when there is no such damage or
    the character is dead.
    """
    chart = maelstrom.heal(health(character.sheet), data.get("kind") or None, 1)
    sheet = dict(character.sheet)
    set_health(sheet, chart)
    character.sheet = sheet
    return f"Healed one level: {chart.level_name}."


# --- Willpower --------------------------------------------------------------------------------


def willpower_change(character: Character, data: dict[str, Any], by: User) -> str:
    """Spend one current willpower dot (Maelstrom rules.md, Spending Willpower), or recover
    one, never above the permanent rank (Maelstrom rules.md, Willpower), as
    ``data["action"]`` ("spend" or "recover") says. Needs the row lock.

    Raises RuleError when no current dot is left to spend, or current is already at the
    permanent rank.
    """
    permanent, current = willpower(character.sheet)
    if data["action"] == "spend":
        if current < 1:
            raise RuleError("No willpower dot is left to spend.", RULE_WILLPOWER)
        current, message = current - 1, "Spent a willpower dot."
    else:
        if current >= permanent:
            raise RuleError(f"Current willpower is already at its permanent rank ({permanent}).",
                            "Maelstrom rules.md, Willpower")
        current, message = current + 1, "Recovered a willpower dot."
    sheet = dict(character.sheet)
    set_willpower(sheet, permanent, current)
    character.sheet = sheet
    return message


# --- Banking ----------------------------------------------------------------------------------


def xp_bank(character: Character, data: dict[str, Any], by: User) -> str:
    """Bank ``data["amount"]`` available XP into the trait ``data["trait"]`` (Maelstrom
    rules.md, Banking Experience): an attribute's, an ability's (which also pays for its
    specialties) or Willpower's ledger key. Banked XP is spendable only on that trait and is
    used first when buying it. Writes one BANK entry through ``ledger_append``; needs the
    row lock.

    Returns "3 XP banked in Driving." Raises RuleError for a character not in play, a
    non-positive amount, a specialty or an unknown trait, or more than is available.
    """
    key, amount = data["trait"], data["amount"]
    character.require_in_play()
    if amount < 1:
        raise RuleError("Bank at least 1 XP.", RULE_BANKING)
    if key != WILLPOWER_KEY:
        kind, _, name = key.partition(":")
        if kind not in GROUPS or name not in character.sheet.get(GROUPS[kind], {}):
            raise RuleError("XP is banked into an attribute, an ability (for it and its "
                            "specialties) or Willpower.", RULE_BANKING)
    if amount > character.xp_available:
        raise RuleError(f"Banking {amount} XP needs {amount} available; you have "
                        f"{character.xp_available} XP available.", RULE_BANKING)
    entry = ledger_append(character, kind=LedgerKind.BANK, available_delta=-amount,
                          banked_delta=amount, bank_key=key, trait_key=key,
                          reason=f"Banked in {trait_label(key)}", created_by=by)
    return f"{entry.banked_delta} XP banked in {trait_label(key)}."


def session_award(character: Character, name: str, *, by: User, session: Any) -> XpEntry:
    """Give one of the seed's chapter or story awards: 1 XP, reason "<name> award", linked
    to ``session`` (Maelstrom rules.md, Chapter and Story Experience Awards). Should be
    called while holding a SELECT FOR UPDATE lock on the character.

    Raises RuleError for a name that is not one of :data:`SESSION_AWARDS`, or a character
    not in play.
    """
    if name not in SESSION_AWARDS:
        raise RuleError(f"{name!r} is not one of the chapter or story awards.", RULE_AWARDS)
    character.require_in_play()
    return ledger_append(character, kind=XpEntry.Kind.AWARD, available_delta=1, total_delta=1,
                         reason=award_reason(name), created_by=by, session=session)


ACTIONS = {
    "damage": TrackAction(form=DamageForm, apply=damage_mark, partial="health-track"),
    "heal": TrackAction(form=HealForm, apply=damage_heal, partial="health-track"),
    "willpower": TrackAction(form=WillpowerForm, apply=willpower_change,
                             partial="willpower-track"),
    "bank": TrackAction(form=BankForm, apply=xp_bank, partial="xp-panel", needs_character=True,
                        on_xp_page=True),
}
"""The sheet's changes by the action slug of ``characters:character-action``."""
