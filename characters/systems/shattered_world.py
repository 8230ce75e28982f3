"""Shattered World's sheet: statistics as pools, the action and field role dice, achievements
and buy-ins (Shattered World Core Engine, Alpha v6.0.0; /work/shared/RULES.md section 3).

The rules live in :mod:`rulesets.shattered_world`; this module lays them on the shared
sheet (``Character.sheet``), the shared XP ledger and the campaign's ``system_data``.

The sheet's shape (docs/systems/shattered_world.md)::

    {
      "species": "Elf", "human": false,
      "field_role": "Warrior", "subrole": "Knight",
      "statistics": {"PF": {"current": 15, "max": 20}, ... the six ...},
      "hit_points": {"current": 20, "max": 20},
      "proficiencies": ["PF"], "foible": "",
      "action_die_level": 0,                       # row of the campaign's die steps table
      "buy_ins": {"Increase UAM": 2, "Exceptional Ability, Each:PF": 1},
      "buy_in_field_roles": {"Fireball": "Mage"},  # buy-ins from another field role
      "additional_field_roles": ["Mage"],          # first, second, in the order bought into
      "achievements": {"total": 3, "milestones": ["Surrender"], "feats": {"Craft anything": 2}}
    }

The campaign's shape::

    {"die_steps": [{"action_die": 4, "field_role_die": 8, "cost": 0, "notes": ""}, ...],
     "custom_buy_ins": [{"name": ..., "cost": "5/x2", "effect": ..., "field_role": ...,
                         "subrole": ..., "ability": "PF" or "", "hit_points": 0,
                         "min_achievements": 0, "requires": ""}, ...]}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django import forms

from characters.systems import (
    Advance,
    CampaignAction,
    RolledResult,
    SheetSystem,
    TrackAction,
    is_whole_number,
    percent_text,
    require,
    stored_int,
    stored_names,
    stored_object,
)
from rulesets import shattered_world as sw
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from campaigns.models import Campaign
    from characters.models import Character, XpEntry
    from rolls.models import Roll
    from rulesets.dice import Rng

SLUG = "shattered_world"
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


# --- Creation ---------------------------------------------------------------------------------


class CreationForm(forms.Form):
    """A new Shattered World character; ``clean()`` names the rule broken."""

    name = forms.CharField(max_length=100)
    concept = forms.CharField(max_length=200, required=False)
    species = forms.CharField(max_length=60, initial="Human")
    human = forms.BooleanField(required=False, label="Human (always rolls the field role die)")
    field_role = forms.CharField(max_length=60, label="Field role")
    subrole = forms.CharField(max_length=60, label="Subrole")
    hit_points = forms.IntegerField(min_value=1, max_value=HIT_POINTS_MAX, initial=20,
                                    label="Hit points")
    proficiencies = forms.MultipleChoiceField(
        choices=STAT_CHOICES, required=False, widget=forms.CheckboxSelectMultiple,
        label=f"Proficient abilities (up to {PROFICIENCIES_MAX})")
    foible = forms.CharField(max_length=200, required=False,
                             help_text="Needed before buying from an adjacent subrole.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for code, label in STAT_CHOICES:
            self.fields[f"stat_{code}"] = forms.IntegerField(
                label=label, min_value=0, initial=10,
                help_text=f"Maximum, 1 to {STAT_CAP}.")

    def stat_fields(self) -> list[forms.BoundField]:
        """The six statistics' fields, in the seed's order."""
        return [self[f"stat_{code}"] for code, _ in STAT_CHOICES]

    def clean(self) -> dict[str, Any]:
        """Each statistic's maximum 1 to :data:`STAT_CAP`, at most :data:`PROFICIENCIES_MAX`
        proficiencies; each broken rule is an error on its field."""
        data = super().clean() or {}
        for code, label in STAT_CHOICES:
            value = data.get(f"stat_{code}")
            if value is not None and not 1 <= value <= STAT_CAP:
                self.add_error(f"stat_{code}", f"{label} {value} is outside 1 to {STAT_CAP}: "
                               "a statistic above 30 needs the Exceptional Ability buy-in.")
        if len(data.get("proficiencies") or []) > PROFICIENCIES_MAX:
            self.add_error("proficiencies",
                           f"Choose at most {PROFICIENCIES_MAX} proficient abilities.")
        return data


# --- Track actions ----------------------------------------------------------------------------


class PoolForm(forms.Form):
    """Lose or regain points of one statistic or of hit points."""

    pool = forms.ChoiceField(choices=POOL_CHOICES)
    amount = forms.IntegerField(min_value=1, max_value=999, initial=1)
    direction = forms.ChoiceField(choices=[("lose", "Lose"), ("regain", "Regain")])


def pool_change(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
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


class RestForm(forms.Form):
    """A full 8-hour rest: nothing to fill in."""


def full_rest(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
    """Restore every statistic to its maximum, hit points excepted (Shattered World Core
    Engine, Mechanical (Non-Roleplay) Actions). Needs the row lock."""
    sheet = dict(character.sheet)
    rested = sw.Statistics(tuple(_pool(sheet, code) for code in sw.STATISTICS)).full_rest()
    for pool in rested.pools:
        _put_pool(sheet, pool)
    character.sheet = sheet
    return "Full rest: every statistic is back to its maximum (hit points are not)."


class AchievementForm(forms.Form):
    """The GM logs an achievement: a milestone (once) or a feat (again and again)."""

    kind = forms.ChoiceField(choices=[("milestone", "Milestone (once)"),
                                      ("feat", "Feat (repeatable)")], initial="feat",
                             widget=forms.RadioSelect)
    category = forms.ChoiceField(choices=[(c, c.capitalize()) for c in sw.ACHIEVEMENT_CATEGORIES],
                                 initial="universal")
    name = forms.CharField(max_length=150, label="Achievement",
                           help_text="One of the seed's universal achievements, or your own.")

    def clean_name(self) -> str:
        """The name on one line, single-spaced (the ledger key and the milestone check)."""
        return _one_line(self.cleaned_data["name"])


def achievement_append(character: Character, *, kind: str, name: str, category: str,
                       by: AbstractBaseUser, session: Any = None) -> tuple[XpEntry, str]:
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
    from characters.models import XpEntry
    from characters.services import ledger_append

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


def achievement_log(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
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


class AchievementUndoForm(forms.Form):
    """The GM undoes a logged achievement (a reversing entry)."""

    entry = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.character = character

    def clean_entry(self) -> XpEntry:
        """The award entry of this character's achievement; ValidationError for any other."""
        from characters.models import XpEntry

        entry = XpEntry.objects.filter(pk=self.cleaned_data["entry"], character=self.character,
                                       kind=XpEntry.Kind.AWARD).first()
        if entry is None or not entry.trait_key.startswith(("milestone:", "feat:")):
            raise forms.ValidationError("That is not an achievement of this character.")
        return entry


def achievement_undo(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
    """Undo a logged achievement with a reversing ledger entry (-1 Current XP, -1 Total
    Achievements); a milestone undone may be logged again. Refused when already undone or
    when its XP has been spent. Needs the row lock."""
    from characters.models import XpEntry
    from characters.services import ledger_append

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


class FoibleForm(forms.Form):
    """The foible the character accepts (needed to buy from an adjacent subrole)."""

    foible = forms.CharField(max_length=200, required=False)


def foible_set(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
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


class DieStepsForm(forms.Form):
    """The die steps table, one row a line: ``d<AD> d<FRD> <cost> [notes]``."""

    steps = forms.CharField(widget=forms.Textarea(attrs={"rows": 7}), max_length=2000,
                            label="Die steps (AD, FRD, cost in XP, notes)")

    def clean_steps(self) -> tuple[sw.DieStep, ...]:
        """The checked rows (:func:`rulesets.shattered_world.parse_die_steps`); its RuleError
        becomes the field's error."""
        try:
            return sw.parse_die_steps(self.cleaned_data["steps"])
        except RuleError as exc:
            raise forms.ValidationError(str(exc)) from exc


def die_steps_set(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
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


class BuyInForm(forms.Form):
    """A custom buy-in for the campaign's catalogue."""

    name = forms.CharField(max_length=80)
    cost = forms.CharField(max_length=20, help_text="e.g. 5, 3/e, 1/x, 5/x2")
    effect = forms.CharField(max_length=200, required=False)
    field_role = forms.CharField(max_length=60, required=False, label="Field role",
                                 help_text="Empty for a universal buy-in.")
    subrole = forms.CharField(max_length=60, required=False,
                              help_text="Empty for the whole field role.")
    ability = forms.ChoiceField(choices=[("", "None"), *STAT_CHOICES], required=False,
                                label="Proficiency needed in")
    hit_points = forms.IntegerField(min_value=0, max_value=99, initial=0, required=False,
                                    label="Hit points per level")
    min_achievements = forms.IntegerField(min_value=0, max_value=9999, initial=0,
                                          required=False, label="Min. achievements")
    requires = forms.CharField(max_length=80, required=False, label="Requires the buy-in")

    def clean_name(self) -> str:
        """The name on one line, single-spaced."""
        return _one_line(self.cleaned_data["name"])

    def clean_cost(self) -> str:
        """The cost in the seed's notation, as the engine writes it ("3/E" -> "3/e")."""
        try:
            return sw.parse_cost(self.cleaned_data["cost"]).notation()
        except RuleError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean(self) -> dict[str, Any]:
        """A subrole needs its field role."""
        data = super().clean() or {}
        if data.get("subrole") and not data.get("field_role"):
            self.add_error("field_role", "A subrole belongs to a field role: name it.")
        return data


def buy_in_add(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
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


class BuyInRemoveForm(forms.Form):
    """Remove a custom buy-in from the catalogue."""

    name = forms.CharField(max_length=80)


def buy_in_remove(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
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


# --- Rolls ------------------------------------------------------------------------------------


class RollForm(forms.Form):
    """The roll dialog: which die, the target number, modifiers and multipliers."""

    die = forms.ChoiceField(choices=[("ad", "Action die"), ("frd", "Field role die")],
                            initial="ad", widget=forms.RadioSelect, label="Die")
    target = forms.IntegerField(min_value=1, max_value=999, initial=5, label="Target number")
    modifiers = forms.CharField(max_length=100, required=False, label="Modifiers",
                                help_text="Every +/- modifier, e.g. +2 -1 (they all stack).")
    multipliers = forms.CharField(max_length=100, required=False, label="Multipliers",
                                  help_text="e.g. x2 x2 (makes x3) or x3 /2 (makes x2).")
    use_uam = forms.BooleanField(required=False, initial=True,
                                 label="Add the Universal Action Modifier (UAM)")
    action = forms.CharField(max_length=100, required=False, label="Action",
                             help_text="What is attempted, for the roll log.")

    def clean_modifiers(self) -> tuple[int, ...]:
        """Modifiers typed as "+2 -1" (or "+2, -1") as ``(2, -1)``; each at most
        :data:`rulesets.shattered_world.QUICK_ROLL_MAX_NUMBER` either way."""
        text = self.cleaned_data["modifiers"].replace(",", " ")
        values = []
        for term in text.replace("+", " +").replace("-", " -").split():
            try:
                value = int(term)
            except ValueError:
                raise forms.ValidationError(
                    f"{term!r} is not a modifier such as +2 or -1.") from None
            if abs(value) > sw.QUICK_ROLL_MAX_NUMBER:
                raise forms.ValidationError(f"A modifier is at most {sw.QUICK_ROLL_MAX_NUMBER}.")
            values.append(value)
        return tuple(values)

    def clean_multipliers(self) -> str:
        """The multipliers as the engine writes them ("x2 x2"); bad notation is refused."""
        try:
            return sw.format_multipliers(sw.parse_multipliers(self.cleaned_data["multipliers"]))
        except RuleError as exc:
            raise forms.ValidationError(str(exc)) from exc


REQUEST_DICE = {"ad": "Action die", "frd": "Field role die"}
"""The roll dialog's die values in words, for a request's description."""


class RequestForm(forms.Form):
    """The GM's "Ask for a roll": which die, the target number, one optional modifier and
    whether each character adds their UAM. Field names differ from the shared "whom" form's
    (``character``, ``note``), as both are posted together."""

    die = forms.ChoiceField(
        choices=[("usual", "Each character's usual die (human: FRD, else AD)"),
                 ("ad", "Action die (AD)"), ("frd", "Field role die (FRD)")],
        initial="usual", label="Die")
    target = forms.IntegerField(min_value=1, max_value=999, initial=5, label="Target number")
    modifier = forms.IntegerField(
        min_value=-sw.QUICK_ROLL_MAX_NUMBER, max_value=sw.QUICK_ROLL_MAX_NUMBER,
        required=False, label="Modifier (optional)", help_text="e.g. 2 or -1; empty for none.")
    use_uam = forms.TypedChoiceField(
        choices=[("yes", "Yes"), ("no", "No")], coerce=lambda value: value == "yes",
        initial="yes", label="Each character adds their UAM")  # a select: a thumb-sized target


# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) --------------------------


def check_sheet(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    """:meth:`ShatteredWorld.check_sheet`: exactly the six statistics, each and the hit
    points a pool with its current value 0 to its maximum (:class:`rulesets.shattered_world.
    Statistic`; Mechanical (Non-Roleplay) Actions), proficiencies among the statistics; the
    action die level a row of the campaign's :func:`die_steps` (Action Dice and Field Role
    Dice); buy-in levels and achievements whole numbers (Universal Buy-Ins; Achievements and
    Buy-Ins); the text fields text and ``human`` true or false.

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    statistics = stored_object(sheet, "statistics", "The statistics")
    require(set(statistics) == set(sw.STATISTICS),
            f"the statistics must be exactly {', '.join(sw.STATISTICS)}", RULE_STATISTICS)
    pools = {**statistics, sw.HIT_POINTS: stored_object(sheet, "hit_points", "Hit points")}
    for code, pool in pools.items():
        require(isinstance(pool, dict) and is_whole_number(pool.get("current"))
                and is_whole_number(pool.get("max")),
                f"{code} needs a current and a maximum", RULE_STATISTICS)
        sw.Statistic(code, pool["current"], pool["max"])  # RuleError: out of 0..maximum
    steps = die_steps(campaign)
    stored_int(sheet.get("action_die_level", 0), "The action die step", 0, len(steps) - 1,
               RULE_DICE)
    for name, level in stored_object(sheet, "buy_ins", "The buy-ins").items():
        stored_int(level, f"The buy-in {name}", 0, 999, RULE_BUY_INS)
    proficiencies = stored_names(sheet.get("proficiencies", []), "The proficiencies")
    require(all(code in sw.STATISTICS for code in proficiencies),
            f"proficiencies are statistics ({', '.join(sw.STATISTICS)})", RULE_STATISTICS)
    achievements = sheet.get("achievements") or {}
    require(isinstance(achievements, dict), "the achievements must be an object")
    stored_int(achievements.get("total", 0), "Total Achievements", 0, 99_999,
               RULE_ACHIEVEMENTS)
    stored_names(achievements.get("milestones", []), "The milestones")
    feats = achievements.get("feats", {})
    require(isinstance(feats, dict), "the feats must be an object")
    for name, times in feats.items():
        stored_int(times, f"The feat {name}", 1, 99_999, RULE_ACHIEVEMENTS)
    require(isinstance(sheet.get("human", False), bool), "'human' must be true or false")
    for key in ("species", "field_role", "subrole", "foible"):
        require(isinstance(sheet.get(key, ""), str), f"{key!r} must be text")
    stored_names(sheet.get("additional_field_roles", []), "The additional field roles")


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`ShatteredWorld.check_system_data`: the die steps table, when it has rows, is
    one the GM's table form takes (:func:`rulesets.shattered_world.check_die_steps`, as
    :func:`~rulesets.shattered_world.parse_die_steps` checks the form's); each custom buy-in
    has a name and a cost in the seed's notation (:func:`rulesets.shattered_world.parse_cost`,
    as :class:`BuyInForm` checks it).

    Raises:
        RuleError: the first row refused (Shattered World Core Engine, Action Dice and Field
            Role Dice; Universal Buy-Ins).
    """
    rows = data.get("die_steps") or []
    require(isinstance(rows, list) and all(isinstance(r, dict) for r in rows),
            "the die steps must be a list of rows")
    if rows:
        steps = []
        for row in rows:
            for key in ("action_die", "field_role_die", "cost"):
                require(is_whole_number(row.get(key)),
                        f"a die step needs a whole-number {key!r}")
            steps.append(sw.DieStep(row["action_die"], row["field_role_die"], row["cost"],
                                    str(row.get("notes", ""))))
        sw.check_die_steps(steps)
    custom = data.get("custom_buy_ins", [])
    require(isinstance(custom, list), "the custom buy-ins must be a list")
    for entry in custom:
        require(isinstance(entry, dict) and isinstance(entry.get("name"), str)
                and isinstance(entry.get("cost"), str),
                f"a custom buy-in needs a name and a cost: {entry!r}")
        sw.parse_cost(entry["cost"])


# --- The system -------------------------------------------------------------------------------


@dataclass
class ShatteredWorld(SheetSystem):
    """Shattered World's sheet (Shattered World Core Engine; RULES.md section 3)."""

    demo_campaign_name: str = "The Shattered Coast (Shattered World demo)"

    # the campaign

    def default_system_data(self) -> dict[str, Any]:
        """The default die steps (d4/d8 up to d20/d20) and no custom buy-ins."""
        return {"die_steps": [_step_dict(s) for s in sw.default_die_steps()],
                "custom_buy_ins": []}

    def check_system_data(self, data: dict[str, Any]) -> None:
        """The die steps table and the custom buy-ins (:func:`check_system_data`). Raises
        RuleError naming the first row refused."""
        check_system_data(data)

    # creation

    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> forms.Form:
        """:class:`CreationForm`."""
        return CreationForm(data)

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Statistics, dice, buy-ins and achievements as the rules make them
        (:func:`check_sheet`). Raises RuleError naming the first value refused."""
        check_sheet(sheet, campaign)

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The sheet of a new character: statistics and hit points full, the starting dice,
        nothing bought, no achievements. Raises RuleError for a bad statistic."""
        maxima = {code: cleaned_data[f"stat_{code}"] for code in sw.STATISTICS}
        stats = sw.new_statistics(maxima, cleaned_data["hit_points"])
        human = bool(cleaned_data.get("human"))
        return {
            "species": "Human" if human else _one_line(cleaned_data["species"]),
            "human": human,
            "field_role": _one_line(cleaned_data["field_role"]),
            "subrole": _one_line(cleaned_data["subrole"]),
            "statistics": {p.code: {"current": p.current, "max": p.maximum}
                           for p in stats.pools if p.code != sw.HIT_POINTS},
            "hit_points": {"current": cleaned_data["hit_points"],
                           "max": cleaned_data["hit_points"]},
            "proficiencies": list(cleaned_data.get("proficiencies") or []),
            "foible": (cleaned_data.get("foible") or "").strip(),
            "action_die_level": 0,
            "buy_ins": {},
            "buy_in_field_roles": {},
            "additional_field_roles": [],
            "achievements": {"total": 0, "milestones": [], "feats": {}},
        }

    # the demo

    def demo(self, *, campaign: Campaign, gm: AbstractBaseUser, player: AbstractBaseUser,
             rng: Rng) -> None:
        """Kaelin, an elven Warrior (Knight) with a few achievements, a UAM level and two
        rolls."""
        from characters.models import Character
        from characters.services import sheet_change, xp_spend_advance
        from rolls.services import system_roll_create

        campaign.system_data = self.default_system_data()
        campaign.save(update_fields=["system_data"])
        character = self.create_character(campaign=campaign, owner=player, data={
            "name": "Kaelin", "concept": "A knight errant of the broken coast",
            "species": "Elf", "field_role": "Warrior", "subrole": "Knight",
            "hit_points": 24, "proficiencies": ["PF", "EN"], "foible": "Reckless honour",
            "stat_PF": 18, "stat_MA": 12, "stat_EN": 16, "stat_PR": 14, "stat_SP": 10,
            "stat_EM": 11,
        })
        for kind, name in (("milestone", "Talk to strangers at the inn"),
                           ("feat", "Defeat any enemy"), ("feat", "Accept a quest")):
            character, _ = sheet_change(character=character, action=ACTIONS["achievement"],
                                        data={"kind": kind, "name": name,
                                              "category": "universal"}, by=gm)
        xp_spend_advance(character=character, key=f"{KEY_PREFIX}{UAM}", by=player)
        character = Character.objects.get(pk=character.pk)
        sheet_change(character=character, action=ACTIONS["pool"],
                     data={"pool": "PF", "amount": 3, "direction": "lose"}, by=player)
        for data in ({"die": "frd", "target": 6, "modifiers": (1,), "multipliers": "",
                      "use_uam": True, "action": "Sword strike"},
                     {"die": "ad", "target": 4, "modifiers": (), "multipliers": "",
                      "use_uam": True, "action": "Spot the ambush"}):
            system_roll_create(character=character, data=data, by=player, rng=rng)

    # the sheet

    def _dice(self, character: Character) -> tuple[sw.DieStep, tuple[sw.DieStep, ...]]:
        steps = die_steps(character.campaign)
        level = min(int(character.sheet.get("action_die_level", 0)), len(steps) - 1)
        return steps[level], steps

    def uam(self, character: Character) -> int:
        """The Universal Action Modifier: one per level of Increase UAM."""
        return int(character.sheet.get("buy_ins", {}).get(UAM, 0))

    def _common(self, character: Character) -> dict[str, Any]:
        sheet = character.sheet
        step, _ = self._dice(character)
        stats = [{"code": code, "name": name, **sheet["statistics"][code],
                  "proficient": code in sheet.get("proficiencies", [])}
                 for code, name in sw.STATISTICS.items()]
        return {
            "sw": sheet, "stats": stats, "hp": sheet["hit_points"],
            "action_die": step.action_die, "field_role_die": step.field_role_die,
            "uam": self.uam(character),
            "achievements": _achievements(sheet),
        }

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """Statistics, hit points, dice, buy-ins owned, achievements, the odds of the dialog
        as it opens; for the GM the log form and the seed's achievement names. No queries
        beyond the loaded campaign."""
        sheet = character.sheet
        owned = []
        for key, level in sorted(sheet.get("buy_ins", {}).items()):
            name, _, code = key.partition(":")
            owned.append({"name": name, "statistic": sw.STATISTICS.get(code, ""),
                          "level": level})
        gm_only = {
            "achievement_form": AchievementForm(),
            "milestone_names": [a.name for a in sw.UNIVERSAL_MILESTONES],
            "feat_names": [a.name for a in sw.UNIVERSAL_FEATS],
        } if is_gm else {}
        return {
            **self._common(character),
            "buy_ins_owned": owned,
            **gm_only,
            # The odds of the dialog as it opens, so the box is right before any change.
            **self.odds(character, {"die": "frd" if sheet.get("human") else "ad",
                                    "target": 5, "use_uam": True}),
        }

    def card_context(self, character: Character) -> dict[str, Any]:
        """The GM's card: the dice, hit points, statistics, XP and Total Achievements."""
        return {**self._common(character), "card_prefix": f"card-{character.pk}",
                "card_target": f"#card-{character.pk}"}

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """The die steps table (and its text for editing) and the catalogue."""
        steps = die_steps(campaign)
        return {
            "die_steps": steps,
            "die_steps_form": DieStepsForm(initial={"steps": "\n".join(s.line() for s in steps)}),
            "buy_in_form": BuyInForm(),
            "catalogue": catalogue(campaign),
        }

    # XP

    def _parse_key(self, key: str) -> tuple[str, str]:
        if not key.startswith(KEY_PREFIX):
            raise RuleError(f"{key!r} is not a buy-in.", RULE_ACHIEVEMENTS)
        rest = key[len(KEY_PREFIX):]
        name, _, code = rest.rpartition(":")
        if name and code in sw.STATISTICS:
            return name, code
        return rest, ""

    def _entry(self, character: Character, name: str, code: str) -> Entry:
        for entry in catalogue(character.campaign):
            if entry.name == name:
                if entry.per_statistic and not code:
                    raise RuleError(f"{name} is bought for one statistic: name it.",
                                    RULE_BUY_INS)
                if code and not entry.per_statistic:
                    raise RuleError(f"{name} is not bought per statistic.", RULE_BUY_INS)
                return entry
        raise RuleError(f"{name} is not in this campaign's buy-in catalogue.", RULE_BUY_INS)

    def _source(self, character: Character, entry: Entry) -> tuple[str, sw.BuyIn | None]:
        """Where ``entry`` is bought from and the "Buy Into" rule that prices it."""
        sheet = character.sheet
        if not entry.field_role:
            return "own", None
        if _same(entry.field_role, sheet.get("field_role", "")):
            if not entry.subrole or _same(entry.subrole, sheet.get("subrole", "")):
                return "own", None
            return "adjacent subrole", sw.UNIVERSAL_BUY_INS["Buy Into Adjacent Field Subrole"]
        others = list(sheet.get("additional_field_roles", []))
        index = next((i for i, role in enumerate(others) if _same(role, entry.field_role)),
                     len(others))
        if index == 0:
            return ("first additional field role",
                    sw.UNIVERSAL_BUY_INS["Buy Into Additional Field Role"])
        if index == 1:
            return ("second additional field role",
                    sw.UNIVERSAL_BUY_INS["Buy Into Second Additional Field Role"])
        raise RuleError(
            f"{entry.name} belongs to {entry.field_role}: the rules allow buying from two "
            f"field roles besides your own ({', '.join(others)}).", RULE_BUY_INS)

    def _action_die_advance(self, character: Character) -> Advance:
        step, steps = self._dice(character)
        level = steps.index(step)
        if level + 1 >= len(steps):
            raise RuleError(f"The action die is at the last step of the chart (d{step.action_die}"
                            f", FRD d{step.field_role_die}).", RULE_DICE)
        nxt = steps[level + 1]
        notes = (f"Die steps table, row {level + 2}.",) + ((nxt.notes,) if nxt.notes else ())
        return Advance(
            key=f"{KEY_PREFIX}{ACTION_DIE}",
            label=(f"Action die d{step.action_die} → d{nxt.action_die} (field role die "
                   f"d{step.field_role_die} → d{nxt.field_role_die})"),
            rank_from=level, rank_to=level + 1, cost=nxt.cost, notes=notes)

    def quote(self, character: Character, key: str) -> Advance:
        """Price the next level of a buy-in: its cost notation at the next purchase, times the
        multiplier of where it is bought from (adjacent subrole ×2; first additional field
        role ×2, second ×3, neither for hit points). Raises RuleError naming the unmet
        prerequisite, a statistic at its tier's cap, a flat buy-in already owned, an unknown
        key (Shattered World Core Engine, Achievements and Buy-Ins; Universal Buy-Ins)."""
        name, code = self._parse_key(key)
        if name == ACTION_DIE and not code:
            return self._action_die_advance(character)
        entry = self._entry(character, name, code)
        sheet = character.sheet
        owned = sheet.get("buy_ins", {})
        level = int(owned.get(_owned_key(name, code), 0))
        parsed = sw.parse_cost(entry.cost)
        if not parsed.levelled and level >= 1:
            raise RuleError(f"{entry.name} is bought once, and is already owned.", RULE_BUY_INS)
        achievements = _achievements(sheet)["total"]
        proficiencies = sheet.get("proficiencies", [])
        what = f"{entry.name} ({sw.STATISTICS[code]})" if code else entry.name
        reasons: list[str] = []
        if achievements < entry.min_achievements:
            reasons.append(f"needs min. {entry.min_achievements} achievements "
                           f"(has {achievements})")
        for required in entry.requires:
            if not owned.get(_owned_key(required, code)):
                reasons.append(f"needs {required}{f' ({sw.STATISTICS[code]})' if code else ''}"
                               " first")
        ability = code or entry.ability
        if entry.requires_proficiency and ability not in proficiencies:
            reasons.append(f"needs proficiency in {sw.STATISTICS.get(ability, ability)}")
        source, rule = self._source(character, entry)
        if rule is not None:
            proficient = (entry.ability in proficiencies) if entry.ability else bool(proficiencies)
            for reason in sw.unmet_prerequisites(
                    rule, total_achievements=achievements, proficient=proficient,
                    accepts_foible=bool(sheet.get("foible"))):
                reasons.append(f"{reason} ({rule.name})")
        if reasons:
            raise RuleError(f"{what} {'; '.join(dict.fromkeys(reasons))}.", RULE_BUY_INS)
        if entry.statistic_bonus and code:
            stat = sheet["statistics"][code]
            if entry.cap is not None and stat["max"] + entry.statistic_bonus > entry.cap:
                raise RuleError(
                    f"{what}: {sw.STATISTICS[code]} {stat['max']} + {entry.statistic_bonus} "
                    f"would pass this tier's cap of {entry.cap}.", RULE_BUY_INS)
        base = sw.next_cost(parsed, level + 1)
        multiplier = sw.cost_multiplier(source, hit_points=entry.hit_points > 0)
        notes = [f"{parsed.notation()}: purchase {level + 1} costs {base} XP."]
        if multiplier > 1:
            notes.append(f"×{multiplier}: bought from {entry.where}, your {source}.")
        elif source != "own":
            notes.append(f"No multiplier: hit points from your {source}.")
        return Advance(key=key, label=f"{what} {level} → {level + 1}", rank_from=level,
                       rank_to=level + 1, cost=base * multiplier, notes=tuple(notes))

    def advances(self, character: Character) -> list[Advance]:
        """Every buy-in whose next level can be priced now (a refused one is left out; the
        catalogue on the XP page names its prerequisites)."""
        keys = [f"{KEY_PREFIX}{ACTION_DIE}"]
        for entry in catalogue(character.campaign):
            if entry.per_statistic:
                keys += [f"{KEY_PREFIX}{entry.name}:{code}" for code in sw.STATISTICS]
            else:
                keys.append(f"{KEY_PREFIX}{entry.name}")
        found = []
        for key in keys:
            try:
                found.append(self.quote(character, key))
            except RuleError:
                continue
        return found

    def rank(self, character: Character, key: str) -> int:
        """Levels bought of ``key`` (the action die: steps bought)."""
        name, code = self._parse_key(key)
        if name == ACTION_DIE and not code:
            return int(character.sheet.get("action_die_level", 0))
        return int(character.sheet.get("buy_ins", {}).get(_owned_key(name, code), 0))

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set the levels of ``key`` and apply the change: the action die step, a statistic's
        maximum (+2 a level), hit points, the additional field roles bought into. Needs the
        row lock (the caller saves)."""
        name, code = self._parse_key(key)
        sheet = dict(character.sheet)
        if name == ACTION_DIE and not code:
            sheet["action_die_level"] = rank
            character.sheet = sheet
            return
        owned_key = _owned_key(name, code)
        buy_ins = dict(sheet.get("buy_ins", {}))
        delta = rank - int(buy_ins.get(owned_key, 0))
        if rank:
            buy_ins[owned_key] = rank
        else:
            buy_ins.pop(owned_key, None)
        sheet["buy_ins"] = buy_ins
        entry = next((e for e in catalogue(character.campaign) if e.name == name), None)
        if entry is not None:
            if entry.statistic_bonus and code:
                _grow_pool(sheet, code, entry.statistic_bonus * delta)
            if entry.hit_points:
                _grow_pool(sheet, sw.HIT_POINTS, entry.hit_points * delta)
            if entry.field_role and not _same(entry.field_role, sheet.get("field_role", "")):
                roles = dict(sheet.get("buy_in_field_roles", {}))
                others = list(sheet.get("additional_field_roles", []))
                if rank:
                    roles[owned_key] = entry.field_role
                    if not any(_same(r, entry.field_role) for r in others):
                        others.append(entry.field_role)
                else:
                    roles.pop(owned_key, None)
                    if not any(_same(r, entry.field_role) for r in roles.values()):
                        others = [r for r in others if not _same(r, entry.field_role)]
                sheet["buy_in_field_roles"], sheet["additional_field_roles"] = roles, others
        character.sheet = sheet

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The catalogue with the multiplier rules, Total Achievements and the achievements
        logged (the GM may undo one)."""
        from characters.models import XpEntry

        entries = list(
            XpEntry.objects.filter(character=character, kind=XpEntry.Kind.AWARD)
            .filter(trait_key__regex=r"^(milestone|feat):").select_related("reversal")[:50])
        return {
            "catalogue": catalogue(character.campaign),
            "multiplier_rules": MULTIPLIER_RULES,
            "die_steps": die_steps(character.campaign),
            "achievements": _achievements(character.sheet),
            "achievement_entries": entries,
            "sw": character.sheet,
        }

    def session_awards(self, campaign: Campaign) -> tuple[str, ...]:
        """The seed's universal achievements for the GM's end-of-session grid:
        ``"Milestone: <name>"`` (18) then ``"Feat: <name>"`` (18), 1 XP each."""
        return session_award_names()

    def session_award(self, character: Character, name: str, *, by: AbstractBaseUser,
                      session: Any) -> XpEntry:
        """Log the grid's achievement ``name`` ("Feat: Defeat any enemy") exactly as the
        sheet's "Log an achievement" does (:func:`achievement_append`), the entry linked to
        ``session``, and save the sheet. Needs the row lock (the grid's service holds it).
        Raises RuleError for a milestone already earned and not undone, or a name the grid
        does not offer."""
        from campaigns.live import announce

        if name not in session_award_names():
            raise RuleError(f"{name!r} is not one of the universal achievements.",
                            RULE_ACHIEVEMENTS)
        label, _, achievement = name.partition(": ")
        entry, _ = achievement_append(character, kind=SESSION_AWARD_KINDS[label],
                                      name=achievement, category="universal", by=by,
                                      session=session)
        character.save(update_fields=["sheet", "updated_at"])
        announce(character.campaign_id, "trackChanged", character_id=character.pk)
        return entry

    # rolls

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> forms.Form:
        """:class:`RollForm`; a human's dialog starts on the field role die."""
        initial = {"die": "frd"} if character.sheet.get("human") else None
        return RollForm(data, initial=initial)

    def pool(self, character: Character, cleaned_data: Mapping[str, Any]) -> sw.ActionPool:
        """The pool the dialog describes, from the sheet's dice (human: always the FRD) and
        the UAM when ticked. Raises RuleError for an illegal pool."""
        step, steps = self._dice(character)
        modifiers = tuple(cleaned_data.get("modifiers") or ())
        uam = self.uam(character) if cleaned_data.get("use_uam") else 0
        if uam:
            modifiers = (*modifiers, uam)
        pool = sw.build_pool(
            target=cleaned_data["target"], action_die=step.action_die,
            field_role_die=step.field_role_die,
            field_role_action=cleaned_data.get("die") == "frd",
            human=bool(character.sheet.get("human")), modifiers=modifiers,
            multipliers=cleaned_data.get("multipliers") or "",
            action=(cleaned_data.get("action") or "").strip(), chart=sw.die_steps_chart(steps))
        if uam:
            pool = replace(pool, notes=(*pool.notes, f"UAM +{uam} included"))
        return pool

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Roll the dialog's die (Shattered World Core Engine, The Core Mechanic)."""
        pool = self.pool(character, cleaned_data)
        result = sw.roll(pool, rng)
        return RolledResult(kind="action", description=pool.describe(), result=result,
                            outcome="success" if result.success else "failure",
                            net=result.degree, summary=result.summary())

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> RequestForm:
        """What the GM may ask for: the action die, the field role die or each character's
        usual die, against a target number, with an optional modifier."""
        return RequestForm(data)

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The roll dialog's data answering the GM's request, and the request in words
        ("Field role die vs target number 6, +2, UAM +1"; the UAM named when the character
        has one). The usual die is the field role die for a human, the action die for
        anyone else. Raises RuleError when the action die is asked of a human, who rolls
        only the field role die (Shattered World Core Engine, Action Dice and Field Role
        Dice: "all rolls for humans are FRD")."""
        asked = cleaned_data["die"]
        human = bool(character.sheet.get("human"))
        if asked == "ad" and human:
            raise RuleError(
                f"{character.name} is human: every roll of theirs is on the field role die. "
                "Ask for the field role die or the usual die.", RULE_DICE)
        die = ("frd" if human else "ad") if asked == "usual" else asked
        modifier = cleaned_data.get("modifier") or 0
        use_uam = bool(cleaned_data.get("use_uam"))
        data: dict[str, Any] = {"die": die, "target": cleaned_data["target"],
                                "modifiers": f"{modifier:+d}" if modifier else "",
                                "multipliers": "", "use_uam": use_uam, "action": ""}
        words = [f"{REQUEST_DICE[die]} vs target number {cleaned_data['target']}"]
        if modifier:
            words.append(f"{modifier:+d}")
        uam = self.uam(character)
        if use_uam and uam:
            words.append(f"UAM +{uam}")
        return data, ", ".join(words)

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of the dialog's roll: success (standard successes included), standard
        success alone, failure, and the chance of each degree (Shattered World Core Engine,
        The Core Mechanic; Standard Success). Raises RuleError for an illegal pool."""
        pool = self.pool(character, cleaned_data)
        odds = sw.pool_odds(pool)
        success, standard = float(odds.success), float(odds.standard_success)
        failure = float(odds.failure)
        degrees = " · ".join(f"{d}: {percent_text(float(p))}" for d, p in odds.degrees)
        return {
            "odds": odds, "pool": pool, "pool_text": pool.describe(),
            "odds_rows": [("Success", success, percent_text(success), True),
                          ("Standard", standard, percent_text(standard), True),
                          ("Failure", failure, percent_text(failure), False)],
            "odds_lines": [f"Chance of each degree: {degrees}."] if degrees else [],
            "odds_headline": f"Success {percent_text(success)}",
        }


SYSTEM = ShatteredWorld(slug=SLUG, actions=ACTIONS, campaign_actions=CAMPAIGN_ACTIONS)
"""Shattered World's sheet description (``characters.systems.for_ruleset``)."""

