"""Maelstrom's in-place changes of a sheet: damage marked and healed, a willpower dot spent or
recovered, a zero-willpower incapacitation resolved, a merit or flaw the GM grants or removes
after creation, XP banked; each with its form (Maelstrom rules.md, Marking Damage / Healing /
Willpower / Zero Willpower / Merits and Flaws / Banking Experience) and the seed's session
awards.

Every ``apply`` function runs inside the transaction of
``characters.services.sheet_change``, with the character's row locked; it changes
``character.sheet`` in memory (the service saves it) and raises RuleError to refuse, in which
case nothing is written.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from characters.ledger import ledger_append
from characters.models import XpEntry
from rulesets import maelstrom
from rulesets.errors import RuleError
from rulesets.maelstrom import MeritFlawChoice
from rulesets.maelstrom.storage import LedgerKind
from systems import TrackAction
from systems.initiative import ENCOUNTER_TURN
from systems.maelstrom.forms import (
    BankForm,
    DamageForm,
    HealForm,
    MeritFlawGrantForm,
    MeritFlawRemoveForm,
    WillpowerForm,
    merit_flaw_choice,
    removal_key,
)
from systems.maelstrom.rolling import readings_of
from systems.maelstrom.sheet import (
    GROUPS,
    MERIT,
    WILLPOWER_KEY,
    health,
    incapacitation_resolved,
    is_dead,
    resolve_incapacitation,
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
RULE_ZERO_WILLPOWER = "Maelstrom rules.md, Zero Willpower"
RULE_DEATH = "Maelstrom rules.md, Incapacitation and Death"
RULE_AWARDS = "Maelstrom rules.md, Chapter and Story Experience Awards"
RULE_MERITS = "Maelstrom rules.md, Merits and Flaws"

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
    Maelstrom rules.md, Marking Damage / Incapacitation and Death, as the campaign's table
    readings read a full chart (docs/systems/maelstrom.md). Needs the row lock.

    Returns "Marked 2 lethal: Scratched." Raises RuleError (damage to a dead character).
    """
    levels, kind = data["levels"], data["kind"]
    chart = maelstrom.take_damage(health(character.sheet), kind, levels,
                                  readings=readings_of(character))
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
    one, never above the permanent rank (Maelstrom rules.md, Willpower), or resolve a
    zero-willpower incapacitation without a dot (Zero Willpower: "they can recover by
    themselves and act normally ... this only resolves the incapacitation and does not
    recover a dot"), as ``data["action"]`` ("spend", "recover" or "resolve") says. A spend or
    a recovery ends a resolved incapacitation (:func:`~systems.maelstrom.sheet.set_willpower`).
    Needs the row lock.

    Raises RuleError when no current dot is left to spend, current is already at the
    permanent rank, or (resolving) the character is dead, has willpower left, has resolved it
    already, or fights in a running encounter ("fully out of combat for at least one turn").
    """
    permanent, current = willpower(character.sheet)
    if data["action"] == "resolve":
        asked = data.get(ENCOUNTER_TURN)
        if callable(asked) and asked():
            raise RuleError(f"{character.name} is fighting in the running encounter: the "
                            "incapacitation resolves only after a turn fully out of combat. "
                            "Take them out of the encounter first.", RULE_ZERO_WILLPOWER)
        return _incapacitation_resolve(character, current)
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


def _incapacitation_resolve(character: Character, current: int) -> str:
    """Record that the character recovered from zero willpower by themselves (Maelstrom
    rules.md, Zero Willpower); its Willpower stays at 0."""
    if is_dead(character.sheet):
        raise RuleError(f"{character.name} is dead.", RULE_DEATH)
    if current > 0:
        raise RuleError(f"{character.name} has willpower left: zero willpower has not "
                        "incapacitated them.", RULE_ZERO_WILLPOWER)
    if incapacitation_resolved(character.sheet):
        raise RuleError(f"{character.name} has already resolved the incapacitation; a dot "
                        "comes back only by resting somewhere safe.", RULE_ZERO_WILLPOWER)
    sheet = dict(character.sheet)
    resolve_incapacitation(sheet)
    character.sheet = sheet
    return (f"{character.name} is out of danger and acts again, still at zero willpower: a "
            "dot comes back only by resting somewhere safe.")


# --- Merits and flaws after creation -------------------------------------------------------------


def merit_flaw_grant(character: Character, data: dict[str, Any], by: User) -> str:
    """The GM grants a merit or flaw after creation: "the storyteller may provide an
    opportunity to acquire a specific merit or flaw. In these cases, it'll award or cost
    available experience points" (Maelstrom rules.md, Merits and Flaws). A merit costs its
    points in available XP, a flaw gives them (as XP earned, as at creation); one ledger
    entry (MERIT_GRANTED or FLAW_GRANTED, reason "Merit granted: Huge Size") and the sheet's
    row, Huge Size's ninth health box with it. Needs the row lock.

    Args:
        data: ``merit_flaw``, a :class:`rulesets.maelstrom.MeritFlawChoice` on the seed's
            lists at one of its prices (:class:`~systems.maelstrom.forms.MeritFlawGrantForm`).

    Returns:
        "Granted Huge Size: 4 XP spent." / "Granted Hunted: 4 XP awarded."

    Raises:
        RuleError: a character not in play; the merit or flaw with what the sheet holds
            breaks a rule of :func:`rulesets.maelstrom.check_combinations` (taken twice, a
            Defective Sense of sight with Visually Impaired, Inept in an ability with no
            dots...); a merit dearer than the XP available.
    """
    choice: MeritFlawChoice = data["merit_flaw"]
    character.require_in_play()
    rows = list(character.sheet.get("merits_flaws", []))
    problems = maelstrom.check_combinations(
        [], [*(merit_flaw_choice(row) for row in rows), choice],
        abilities=character.sheet.get("abilities", {}))
    if problems:
        raise problems[0]
    merit = choice.kind == MERIT
    if merit and choice.points > character.xp_available:
        raise RuleError(f"{choice.label} costs {choice.points} XP; {character.name} has "
                        f"{character.xp_available} XP available "
                        f"({choice.points - character.xp_available} short).", RULE_MERITS)
    _set_merits_flaws(character, [*rows, {"kind": choice.kind, "name": choice.name,
                                          "points": choice.points, "detail": choice.detail}])
    ledger_append(character,
                  kind=LedgerKind.MERIT_GRANTED if merit else LedgerKind.FLAW_GRANTED,
                  available_delta=-choice.points if merit else choice.points,
                  total_delta=0 if merit else choice.points,
                  reason=_grant_reason(choice)[:200], created_by=by)
    return (f"Granted {choice.label}: {choice.points} XP "
            f"{'spent' if merit else 'awarded'}.")


def merit_flaw_remove(character: Character, data: dict[str, Any], by: User) -> str:
    """The GM removes a merit or flaw, reversing the XP it cost or gave (Maelstrom rules.md,
    Merits and Flaws: a flaw corrected "will require spending experience points ... equal
    [to] the original number of points awarded by the flaw"). The ledger entry that brought
    it (its creation's MERIT or FLAW line, "Merit: Huge Size", or a grant's) gets a
    reversing entry; a row no entry brought (an NPC's stat block) goes with no XP change.
    Huge Size takes its health box with it. Needs the row lock.

    Args:
        data: ``which``, the row's :func:`~systems.maelstrom.forms.removal_key`
            ("flaw:Addict (nicotine)"); ``confirm`` ticked.

    Returns:
        "Removed Huge Size: 4 XP given back." / "Removed Hunted: 4 XP paid."

    Raises:
        RuleError: a character not in play, a row the sheet no longer holds, a flaw whose
            points are more than the XP available, or Huge Size's box holding damage the
            eight others cannot take.
    """
    character.require_in_play()
    rows = list(character.sheet.get("merits_flaws", []))
    found = next((row for row in rows if removal_key(row) == data["which"]), None)
    if found is None:
        raise RuleError(f"{character.name} no longer has that merit or flaw.", RULE_MERITS)
    choice = merit_flaw_choice(found)
    entry = _bringing_entry(character, choice)
    if entry is not None and entry.available_delta > character.xp_available:
        raise RuleError(f"Removing {choice.label} costs the {entry.available_delta} XP it gave; "
                        f"{character.name} has {character.xp_available} XP available "
                        f"({entry.available_delta - character.xp_available} short).",
                        RULE_MERITS)
    rows.remove(found)
    _set_merits_flaws(character, rows)
    if entry is None:
        return f"Removed {choice.label}: no XP entry brought it, so no XP changes."
    ledger_append(character, kind=XpEntry.Kind.REVERSAL,
                  available_delta=-entry.available_delta, total_delta=-entry.total_delta,
                  reverses=entry, reason=f"Removed: {entry.reason}"[:200], created_by=by)
    if entry.available_delta < 0:
        return f"Removed {choice.label}: {-entry.available_delta} XP given back."
    return f"Removed {choice.label}: {entry.available_delta} XP paid."


def _grant_reason(choice: MeritFlawChoice) -> str:
    return f"{'Merit' if choice.kind == MERIT else 'Flaw'} granted: {choice.label}"


def _bringing_entry(character: Character, choice: MeritFlawChoice) -> XpEntry | None:
    """The latest ledger entry not yet reversed that brought ``choice``: its creation's line
    ("Flaw: Addict (nicotine)", ``systems.maelstrom.creation.xp_breakdown``) or a grant's
    (:func:`_grant_reason`)."""
    word = "Merit" if choice.kind == MERIT else "Flaw"
    kinds = ((LedgerKind.MERIT, LedgerKind.MERIT_GRANTED) if choice.kind == MERIT
             else (LedgerKind.FLAW, LedgerKind.FLAW_GRANTED))
    return (XpEntry.objects.filter(character=character, kind__in=kinds, reversal__isnull=True,
                                   reason__in=[f"{word}: {choice.label}"[:200],
                                               _grant_reason(choice)[:200]])
            .order_by("-created_at", "-id").first())


def _set_merits_flaws(character: Character, rows: list[dict[str, Any]]) -> None:
    """Write the merits and flaws sorted as :func:`~systems.maelstrom.sheet.new_sheet` keeps
    them, with Huge Size's ninth health box (Maelstrom rules.md, Merits, Huge Size)."""
    sheet = dict(character.sheet)
    sheet["merits_flaws"] = sorted(rows, key=lambda row: (row["kind"], row["name"]))
    chart = health(sheet)
    huge = any(row["kind"] == MERIT and row["name"] == "Huge Size" for row in rows)
    if chart.huge_size != huge:
        try:
            chart = replace(chart, huge_size=huge)
        except RuleError as error:
            raise RuleError(f"{character.name}'s damage fills the Huge Size box: heal a level "
                            "before removing Huge Size.", error.rule) from error
        set_health(sheet, chart)
    character.sheet = sheet


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
    "merit-flaw-grant": TrackAction(form=MeritFlawGrantForm, apply=merit_flaw_grant,
                                    partial="merits-flaws", gm_only=True),
    "merit-flaw-remove": TrackAction(form=MeritFlawRemoveForm, apply=merit_flaw_remove,
                                     partial="merits-flaws", gm_only=True,
                                     needs_character=True),
}
"""The sheet's changes by the action slug of ``characters:character-action``."""
