"""Shattered World's sheet: statistics as pools, the action and field role dice, achievements
and buy-ins (Shattered World Core Engine, Alpha v6.0.0; docs/systems/shattered_world.md).

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

from characters.models import XpEntry
from core.live import announce
from rulesets import shattered_world as sw
from rulesets.dice import roll_die
from rulesets.errors import RuleError
from systems import Advance, RolledResult, SheetSystem, percent_text
from systems.base import RollHeader
from systems.shattered_world import history, luck, npcs
from systems.shattered_world.actions import (
    ACTIONS,
    CAMPAIGN_ACTIONS,
    SESSION_AWARD_KINDS,
    achievement_append,
    session_award_names,
)
from systems.shattered_world.catalogue import (
    MULTIPLIER_RULES,
    Entry,
    _step_dict,
    catalogue,
    die_steps,
)
from systems.shattered_world.checks import (
    check_roll,
    check_sheet,
    check_system_data,
    verdict_of_action,
)
from systems.shattered_world.forms import (
    REQUEST_DICE,
    AchievementForm,
    BuyInForm,
    CreationForm,
    DieStepsForm,
    RequestForm,
    RollForm,
)
from systems.shattered_world.sheet import (
    ACTION_DIE,
    KEY_PREFIX,
    RULE_ACHIEVEMENTS,
    RULE_BUY_INS,
    RULE_DICE,
    UAM,
    _achievements,
    _grow_pool,
    _one_line,
    _owned_key,
    _same,
    readings_of,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng
    from rulesets.luck import RollLuck
    from systems.npcs import TrackLine

SLUG = "shattered_world"


# --- The system -------------------------------------------------------------------------------


@dataclass
class ShatteredWorld(SheetSystem):
    """Shattered World's sheet (Shattered World Core Engine; RULES.md section 3)."""
    live_tracks = ("sheet-tracks", "sheet-dice", "sheet-profile", "sheet-achievement-list")
    live_xp = ("sheet-xp", "sheet-dice", "sheet-buy-ins", "sheet-achievement-list")

    # 1 achievement = 1 XP (Shattered World Core Engine, Achievements): a new character has
    # earned none, so it starts with no XP whatever the campaign's starting XP says.
    uses_starting_xp = False
    luck_measure = sw.LUCK_MEASURE

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
        opening = self.roll_form(character)
        return {
            **self._common(character),
            "buy_ins_owned": owned,
            **gm_only,
            # The odds of the dialog as it opens (its form's first choices), so that the box
            # is right before any change, a page without a script too.
            **self.odds(character, {name: opening[name].initial
                                    for name in ("die", "target", "use_uam")}),
        }

    def card_context(self, character: Character) -> dict[str, Any]:
        """The GM's card: the dice, hit points, statistics, XP and Total Achievements."""
        return {**self._common(character), "card_prefix": f"card-{character.pk}",
                "card_target": f"#card-{character.pk}"}

    def sheet_facts(self, character: Character, sheet: dict[str, Any] | None = None
                    ) -> dict[str, str]:
        """The dice, hit points and statistics, the field role, achievements and buy-ins,
        in the sheet's order and words, the dice read on the campaign's die steps table
        (:func:`systems.shattered_world.history.sheet_facts`). No query beyond the
        character's campaign, loaded with it."""
        return history.sheet_facts(character.sheet if sheet is None else sheet,
                                   die_steps(character.campaign))

    # NPCs (systems.shattered_world.npcs)

    def npc_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                 ) -> forms.Form:
        """The stat block (:class:`~systems.shattered_world.npcs.NpcForm`): the creation
        form's values with a die step and a UAM, the rules checked, nothing bought."""
        return npcs.npc_form(campaign, data)

    def npc_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The stat block's sheet (:func:`systems.shattered_world.npcs.npc_sheet`)."""
        return npcs.npc_sheet(campaign, cleaned_data)

    def track_lines(self, character: Character) -> list[TrackLine]:
        """Hit points (:func:`systems.shattered_world.npcs.track_lines`)."""
        return npcs.track_lines(character)

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
        key, hit points from another field role under the campaign's table reading "not
        allowed" (Shattered World Core Engine, Achievements and Buy-Ins; Universal Buy-Ins)."""
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
        try:
            multiplier = sw.cost_multiplier(source, hit_points=entry.hit_points > 0,
                                            readings=readings_of(character.campaign))
        except RuleError as refused:
            raise RuleError(f"{what}: {refused.message}.", refused.rule) from refused
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

    def undo_description(self, character: Character, entry: XpEntry) -> str:
        """What an undo takes back, as :meth:`set_rank` does it (Shattered World Core Engine,
        Achievements and Buy-Ins; Action Dice and Field Role Dice): "The action die steps back
        down from d6 to d4, and the field role die from d10 to d8.", "Exceptional Ability,
        Each (Physical Fitness) goes back from 1 level to none: Physical Fitness loses 2
        points of its maximum and current.", and so on for the UAM, hit points and an
        additional field role bought into. A key no longer in the catalogue gets the
        default."""
        if entry.rank_from is None or entry.rank_to is None:
            return super().undo_description(character, entry)
        before, after = entry.rank_to, entry.rank_from
        try:
            name, code = self._parse_key(entry.trait_key)
        except RuleError:
            return super().undo_description(character, entry)
        if name == ACTION_DIE and not code:
            steps = die_steps(character.campaign)
            was, now = (steps[min(level, len(steps) - 1)] for level in (before, after))
            return (f"The action die steps back down from d{was.action_die} to "
                    f"d{now.action_die}, and the field role die from d{was.field_role_die} "
                    f"to d{now.field_role_die}.")
        found = next((e for e in catalogue(character.campaign) if e.name == name), None)
        if found is None:
            return super().undo_description(character, entry)
        what = f"{name} ({sw.STATISTICS[code]})" if code else name
        undone = before - after
        effects = []
        if name == UAM:
            effects.append(f"the UAM goes back from +{before} to +{after}")
        if found.statistic_bonus and code:
            effects.append(f"{sw.STATISTICS[code]} loses {found.statistic_bonus * undone} "
                           "points of its maximum and current")
        if found.hit_points:
            effects.append(f"hit points lose {found.hit_points * undone} of their maximum "
                           "and current")
        sheet = character.sheet
        if found.field_role and not after and not _same(found.field_role,
                                                          sheet.get("field_role", "")):
            owned_key = _owned_key(name, code)
            if not any(_same(role, found.field_role)
                       for key, role in sheet.get("buy_in_field_roles", {}).items()
                       if key != owned_key):
                effects.append(f"{found.field_role} is no longer an additional field role")
        said = (f"{what} goes back from {before} level{'' if before == 1 else 's'} to "
                f"{after or 'none'}")
        return f"{said}: {'; '.join(effects)}." if effects else f"{said}."

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The catalogue with the multiplier rules, Total Achievements and the achievements
        logged (the GM may undo one)."""
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

    def session_award(self, character: Character, name: str, *, by: User,
                      session: Any) -> XpEntry:
        """Log the grid's achievement ``name`` ("Feat: Defeat any enemy") exactly as the
        sheet's "Log an achievement" does (:func:`achievement_append`), the entry linked to
        ``session``, and save the sheet. Needs the row lock (the grid's service holds it).
        Raises RuleError for a milestone already earned and not undone, or a name the grid
        does not offer."""
        if name not in session_award_names():
            raise RuleError(f"{name!r} is not one of the universal achievements.",
                            RULE_ACHIEVEMENTS)
        label, _, achievement = name.partition(": ")
        entry, _ = achievement_append(character, kind=SESSION_AWARD_KINDS[label],
                                      name=achievement, category="universal", by=by,
                                      session=session)
        character.save(update_fields=["sheet", "updated_at"])
        announce(character.campaign_id, "trackChanged", character_id=character.pk,
                 gm_only=character.changes_gm_only)
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
            action=(cleaned_data.get("action") or "").strip(), chart=sw.die_steps_chart(steps),
            readings=readings_of(character.campaign))
        if uam:
            pool = replace(pool, notes=(*pool.notes, f"UAM +{uam} included"))
        return pool

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Roll the dialog's die (Shattered World Core Engine, The Core Mechanic)."""
        pool = self.pool(character, cleaned_data)
        result = sw.roll(pool, rng)
        outcome, net, summary = verdict_of_action(result)
        return RolledResult(kind="action", description=pool.describe(), result=result,
                            outcome=outcome, net=net, summary=summary)

    def check_roll(self, roll: Roll, parent: Roll | None) -> None:
        """Its pool's one die, and what that face gives against the target
        (:func:`check_roll`). Raises RuleError naming the first disagreement."""
        check_roll(roll, parent)

    def roll_header(self, roll: Roll) -> RollHeader:
        """"Sword strike · d8 +2 · target 6", the die's kind folded ("field role die"); a
        roll without an action's name keeps it: "Field role die d8 +2 · target 6". Read
        from the stored description (:meth:`rulesets.shattered_world.ActionPool.describe`)."""
        pool, _, target = self.roll_description(roll).rpartition(", target ")
        action, _, die = pool.rpartition(": ")
        kind, found, numbers = die.partition(" die ")
        if not (target.isdigit() and found and numbers.startswith("d")):
            return super().roll_header(roll)
        if not action:
            return RollHeader(short=f"{die} · target {target}")
        return RollHeader(short=f"{action} · {numbers} · target {target}", details=f"{kind} die")

    def roll_luck(self, roll: Roll) -> RollLuck | None:
        """An action's or an NPC quick roll's degree of success against its exact odds
        (:func:`systems.shattered_world.luck.roll_luck`; docs/systems/shattered_world.md,
        Luck)."""
        return luck.roll_luck(roll)

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
        """Exact odds of the dialog's roll: two bars that add up, success (standard successes
        included) and failure; then, in words, the standard success as part of the success (a
        bar "Standard 25 %" beside them read as a third outcome: 25 + 25 + 75), and the chance
        of each degree (Shattered World Core Engine, The Core Mechanic; Standard Success).
        Raises RuleError for an illegal pool."""
        pool = self.pool(character, cleaned_data)
        odds = sw.pool_odds(pool)
        success, standard = float(odds.success), float(odds.standard_success)
        failure = float(odds.failure)
        lines = []
        # The highest face only rescues a total that misses, and every lower face totals less,
        # so today a standard success is all of the success or none of it.
        if odds.standard_success and odds.standard_success == odds.success:
            lines.append(f"Success {percent_text(success)}, all of it standard success (the "
                         "die's highest face): no total reaches the target number.")
        elif odds.standard_success:
            lines.append(f"Success {percent_text(success)}, of which {percent_text(standard)} "
                         "standard success (the die's highest face).")
        degrees = " · ".join(f"{d}: {percent_text(float(p))}" for d, p in odds.degrees)
        if degrees:
            lines.append(f"Chance of each degree: {degrees}.")
        return {
            "odds": odds, "pool": pool, "pool_text": pool.describe(),
            "odds_rows": [("Success", success, percent_text(success), True),
                          ("Failure", failure, percent_text(failure), False)],
            "odds_lines": lines,
            "odds_headline": f"Success {percent_text(success)}",
        }

    # initiative (Shattered World Core Engine, Initiative Order; docs/encounters.md)

    initiative_rule = (
        "Priority initiative: PCs choosing fast, then NPCs choosing fast, then the rollers "
        "(highest roll first), then PCs choosing slow, then NPCs choosing slow. Fast allows "
        "one action, slow or rolling all of them. A roller's box left blank is rolled by the "
        "server on the character's usual die (the field role die for a human, else the "
        "action die). Ties keep the order listed.")
    initiative_choices = tuple((choice, choice.capitalize()) for choice in sw.INITIATIVE_CHOICES)

    def initiative_roll(self, campaign: Campaign, character: Character | None,
                        rng: Rng) -> int:
        """The character's usual die, rolled alone: the field role die for a human, the
        action die for anyone else ("all rolls for humans are FRD", Shattered World Core
        Engine, Action Dice and Field Role Dice); the chart's first action die for a
        combatant whose row is gone. No modifier: the seed adds none to initiative."""
        if character is None:
            return roll_die(rng, die_steps(campaign)[0].action_die)
        step, _ = self._dice(character)
        human = bool(character.sheet.get("human"))
        return roll_die(rng, step.field_role_die if human else step.action_die)

    def initiative_key(self, *, is_npc: bool, choice: str, roll: int | None
                       ) -> tuple[int, ...]:
        """Priority initiative (:func:`rulesets.shattered_world.initiative_key`): the five
        bands of the seed's table, the rollers highest first."""
        return sw.initiative_key(pc=not is_npc, choice=choice, roll=roll)

    def initiative_label(self, *, choice: str, roll: int | None) -> str:
        """"Fast", "Slow", or "Rolled 3"."""
        if self.initiative_rolls(choice):
            return "" if roll is None else f"Rolled {roll}"
        return choice.capitalize()


SYSTEM = ShatteredWorld(slug=SLUG, actions=ACTIONS, campaign_actions=CAMPAIGN_ACTIONS)
"""Shattered World's sheet description (``systems.for_ruleset``)."""
