"""The Genesys sheet: characteristics, skills, wounds and strain, the check dialog with its
narrative dice, and XP (the :class:`~characters.systems.SheetSystem` contract).

The dice pool follows the seed (``seeds/001_c7136ddaeb237e8d.txt``, cited "Genesys dice pool,
<section>") through ``rulesets.genesys``. The seed has no character creation and no
advancement: those follow the public Genesys Core Rulebook (cited "Genesys Core Rulebook,
<step>"), with the decisions listed in docs/systems/genesys.md.

``Character.sheet`` holds::

    {"career": "Soldier",
     "characteristics": {"Brawn": 2, "Agility": 3, ...},     # 1-5, all six
     "skills": {"Ranged": 2, "Athletics": 1},                 # ranks 1-5; absent means 0
     "career_skills": ["Athletics", "Ranged", ...],
     "wounds": {"current": 0, "threshold": 12},
     "strain": {"current": 0, "threshold": 12},
     "creation": true}                                         # characteristics still for sale

``Campaign.system_data`` holds the campaign's skill list::

    {"skills": [{"name": "Athletics", "characteristic": "Brawn", "group": "General"}, ...]}
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string

from characters.systems import (
    Advance,
    CampaignAction,
    RolledResult,
    SheetSystem,
    TrackAction,
    percent_text,
    require,
    stored_int,
    stored_names,
    stored_object,
)
from characters.systems.genesys_forms import (
    GenesysCreationForm,
    GenesysRequestForm,
    GenesysRollForm,
    NoFieldsForm,
    SkillRemoveForm,
    SkillSetForm,
    TrackForm,
)
from rulesets import genesys
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng

RULE_STEP4 = "Genesys Core Rulebook, Step 4: Invest Experience Points"
RULE_TRACKS = "Genesys Core Rulebook, Step 5: Determine Derived Attributes"
RULE_SKILLS = "Genesys dice pool, Skill and Characteristic"
SKILL_LIST_MAX = 80
"""Most skills a campaign's list holds (a layout guard; the core rulebook has 37)."""
ABBREVIATIONS = {"Brawn": "Br", "Agility": "Ag", "Intellect": "Int", "Cunning": "Cun",
                 "Willpower": "Will", "Presence": "Pr"}


# --- Reading the JSON ----------------------------------------------------------------------


def skills_of(campaign: Campaign) -> list[genesys.SkillInfo]:
    """The campaign's skill list (``system_data["skills"]``), or the default list when the
    campaign has none yet (a campaign made by a factory has ``{}``). No query."""
    stored = (campaign.system_data or {}).get("skills")
    if not isinstance(stored, list) or not stored:
        return list(genesys.default_skills())
    return [genesys.SkillInfo(str(s.get("name", "")), str(s.get("characteristic", "")),
                              str(s.get("group", "Custom")))
            for s in stored if isinstance(s, dict)]


def _skill(campaign: Campaign, name: str) -> genesys.SkillInfo:
    for skill in skills_of(campaign):
        if skill.name == name:
            return skill
    raise RuleError(f"{name!r} is not on this campaign's skill list", RULE_SKILLS)


def read_sheet(character: Character) -> dict[str, Any]:
    """The character's sheet with every key present (defaults for a missing one), as a new
    dict the caller may change and store back in ``character.sheet``."""
    sheet = dict(character.sheet or {})
    stored = sheet.get("characteristics") or {}
    sheet["characteristics"] = {
        name: int(stored.get(name, genesys.STARTING_CHARACTERISTIC))
        for name in genesys.CHARACTERISTICS}
    sheet["skills"] = {str(k): int(v) for k, v in (sheet.get("skills") or {}).items() if v}
    sheet["career_skills"] = [str(n) for n in sheet.get("career_skills") or []]
    sheet["career"] = str(sheet.get("career") or "")
    sheet["creation"] = bool(sheet.get("creation", False))
    chars = sheet["characteristics"]
    for track, threshold in (("wounds", genesys.wound_threshold(chars["Brawn"])),
                             ("strain", genesys.strain_threshold(chars["Willpower"]))):
        value = sheet.get(track) or {}
        sheet[track] = {"current": int(value.get("current", 0)),
                        "threshold": int(value.get("threshold", threshold))}
    return sheet


def _tracks(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """Wounds and strain of a :func:`read_sheet` sheet as the sheet and the GM's card show
    them: name, label, current, threshold, exceeded (incapacitated), left before it."""
    views = []
    for track in ("wounds", "strain"):
        current, threshold = sheet[track]["current"], sheet[track]["threshold"]
        views.append({"name": track, "label": track.capitalize(), "current": current,
                      "threshold": threshold, "exceeded": current > threshold,
                      "left": max(0, threshold - current)})
    return views


def _characteristics(sheet: dict[str, Any]) -> list[tuple[str, int, str]]:
    """``(name, rating, abbreviation)`` of the six characteristics, in the engine's order."""
    chars = sheet["characteristics"]
    return [(n, chars[n], ABBREVIATIONS[n]) for n in genesys.CHARACTERISTICS]


def _starting_pool(rating: int, ranks: int) -> genesys.DicePool:
    """The ability and proficiency dice a check starts with, before the difficulty: the
    higher of rating and ranks in dice, the lower of them upgraded (Genesys dice pool, Skill
    and Characteristic). :func:`rulesets.genesys.build_pool` applies the same rule to the
    roll; the sheet keeps these two lines because build_pool raises where the sheet should
    still draw a row (a stored skill tied to no known characteristic)."""
    higher, lower = max(rating, ranks), min(rating, ranks)
    return genesys.DicePool(ability=higher - lower, proficiency=lower)


# --- Track actions -------------------------------------------------------------------------


def _track_apply(track: str) -> Callable[[Character, dict[str, Any], AbstractBaseUser], str]:
    """The :class:`TrackAction` ``apply`` of ``track`` ("wounds" or "strain")."""

    def apply(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
        """Suffer or heal wounds or strain (Genesys Core Rulebook, Step 5: wound and strain
        thresholds; exceeding one incapacitates). Raises RuleError to heal more than there
        is or to pass :data:`rulesets.genesys.TRACK_MAX`."""
        sheet = read_sheet(character)
        current, amount = sheet[track]["current"], data["amount"]
        if data["direction"] == "heal":
            if amount > current:
                raise RuleError(
                    f"{character.name} has {current} {track} to heal, not {amount}.",
                    RULE_TRACKS)
            current -= amount
            verb = "Healed"
        else:
            if current + amount > genesys.TRACK_MAX:
                raise RuleError(f"A sheet records at most {genesys.TRACK_MAX} {track}.",
                                RULE_TRACKS)
            current += amount
            verb = "Suffered"
        sheet[track]["current"] = current
        character.sheet = sheet
        threshold = sheet[track]["threshold"]
        noun = "wound" if track == "wounds" and amount == 1 else track
        message = f"{verb} {amount} {noun}: {current}/{threshold}."
        if current > threshold:
            message += (" Wounds exceed" if track == "wounds" else " Strain exceeds") + (
                " the threshold: incapacitated.")
        return message

    return apply


def _finish_creation(character: Character, data: dict[str, Any], by: AbstractBaseUser
                     ) -> str:
    """End character creation: characteristics are no longer for sale and skills may rise
    above rank 2 (Genesys Core Rulebook, Step 4). Raises RuleError if already ended."""
    sheet = read_sheet(character)
    if not sheet["creation"]:
        raise RuleError(f"{character.name}'s creation is already finished.", RULE_STEP4)
    sheet["creation"] = False
    character.sheet = sheet
    return "Creation finished: characteristics are now fixed; skills train up to rank 5."


def _reopen_creation(character: Character, data: dict[str, Any], by: AbstractBaseUser
                     ) -> str:
    """The GM reopens creation (a rebuild). Raises RuleError if it is still open."""
    sheet = read_sheet(character)
    if sheet["creation"]:
        raise RuleError(f"{character.name} is still in creation.", RULE_STEP4)
    sheet["creation"] = True
    character.sheet = sheet
    return "Creation reopened: characteristics can be bought again."


# --- Campaign actions (the GM's skill list) -------------------------------------------------


def _store_skills(campaign: Campaign, skills: list[genesys.SkillInfo]) -> None:
    data = dict(campaign.system_data or {})
    data["skills"] = [s.as_dict() for s in skills]
    campaign.system_data = data


def _skill_set(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
               ) -> tuple[str, Roll | None]:
    """Add a skill to the campaign's list, or link an existing one (same name, any case) to
    another characteristic. Raises RuleError for a bad name or a full list."""
    new = genesys.check_skill(data["name"], data["characteristic"])
    skills = skills_of(campaign)
    for index, skill in enumerate(skills):
        if skill.name.casefold() == new.name.casefold():
            if skill.characteristic == new.characteristic:
                raise RuleError(f"{skill.name} already uses {skill.characteristic}.",
                                RULE_SKILLS)
            skills[index] = genesys.SkillInfo(skill.name, new.characteristic, skill.group)
            _store_skills(campaign, skills)
            return f"{skill.name} now uses {new.characteristic}.", None
    if len(skills) >= SKILL_LIST_MAX:
        raise RuleError(f"The list holds at most {SKILL_LIST_MAX} skills.", RULE_SKILLS)
    skills.append(new)
    _store_skills(campaign, skills)
    return f"Added {new.name} ({new.characteristic}).", None


def _skill_remove(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
                  ) -> tuple[str, Roll | None]:
    """Remove a skill from the campaign's list. Ranks on sheets stay (shown as off the list,
    not rolled) and come back if the skill is added again. Raises RuleError for an unknown
    skill or the last one."""
    skills = skills_of(campaign)
    kept = [s for s in skills if s.name != data["name"]]
    if len(kept) == len(skills):
        raise RuleError(f"{data['name']!r} is not on this campaign's skill list.",
                        RULE_SKILLS)
    if not kept:
        raise RuleError("The list needs at least one skill.", RULE_SKILLS)
    _store_skills(campaign, kept)
    return f"Removed {data['name']}.", None


def _skills_reset(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
                  ) -> tuple[str, Roll | None]:
    """Put the default skill list back (:data:`rulesets.genesys.DEFAULT_SKILL_NAMES`)."""
    _store_skills(campaign, list(genesys.default_skills()))
    return "The skill list is back to the default.", None


# --- XP: Genesys Core Rulebook, Step 4 ------------------------------------------------------


def _xp_key(key: str) -> tuple[str, str]:
    """``characteristic:<one of the six>`` or ``skill:<name>`` split into (kind, name).
    Raises RuleError for anything else."""
    kind, _, name = key.partition(":")
    if (kind == "characteristic" and name in genesys.CHARACTERISTICS) or (
            kind == "skill" and name):
        return kind, name
    raise RuleError(f"{key!r} is not something XP buys on a Genesys sheet.", RULE_STEP4)


def _quote(character: Character, sheet: dict[str, Any], skills: Collection[str], key: str
           ) -> Advance:
    """:meth:`GenesysSystem.quote` on a sheet already read (:func:`read_sheet`) and the
    campaign's skill names. Raises RuleError naming the reason."""
    kind, _, name = key.partition(":")
    if kind == "characteristic" and name in genesys.CHARACTERISTICS:
        rating = sheet["characteristics"][name]
        if rating >= genesys.CHARACTERISTIC_MAX:
            raise RuleError(f"{name} is {rating}, the most a characteristic can be.",
                            RULE_STEP4)
        if not sheet["creation"]:
            raise RuleError(f"{name} can be raised with XP only during character "
                            f"creation, and {character.name}'s is finished.", RULE_STEP4)
        cost = genesys.characteristic_cost(rating + 1, in_creation=True)
        return Advance(key=key, label=f"{name} {rating} → {rating + 1}",
                       rank_from=rating, rank_to=rating + 1, cost=cost,
                       notes=(f"10 × the new rating {rating + 1}, during creation only "
                              f"({RULE_STEP4}).",))
    if kind == "skill":
        if name not in skills:
            raise RuleError(f"{name!r} is not on this campaign's skill list", RULE_SKILLS)
        rank = sheet["skills"].get(name, 0)
        career = name in sheet["career_skills"]
        cap = (genesys.CREATION_SKILL_MAX if sheet["creation"]
               else genesys.SKILL_RANKS_MAX)
        if rank >= cap:
            raise RuleError(
                f"{name} is at rank {rank}"
                + (", the most during character creation." if sheet["creation"]
                   and cap < genesys.SKILL_RANKS_MAX else ", the most a skill can be."),
                RULE_STEP4)
        cost = genesys.skill_cost(rank + 1, career=career, in_creation=sheet["creation"])
        how = (f"Career skill: 5 × the new rank {rank + 1}." if career else
               f"Non-career skill: 5 × the new rank {rank + 1}, + 5.")
        return Advance(key=key, label=f"{name} {rank} → {rank + 1}", rank_from=rank,
                       rank_to=rank + 1, cost=cost, notes=(f"{how} ({RULE_STEP4})",))
    raise RuleError(f"{key!r} is not something XP buys on a Genesys sheet.", RULE_STEP4)


# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) ---------------------


def check_sheet(sheet: Mapping[str, Any]) -> None:
    """:meth:`GenesysSystem.check_sheet`: exactly the six characteristics, each
    :data:`~rulesets.genesys.CHARACTERISTIC_MIN` to ``CHARACTERISTIC_MAX``, and skills of 0
    to :data:`~rulesets.genesys.SKILL_RANKS_MAX` ranks (Genesys dice pool, Skill and
    Characteristic); career skills a list of names, the career a name, ``creation`` true or
    false; wounds and strain each a current value 0 to :data:`~rulesets.genesys.TRACK_MAX`
    and a threshold 1 to it (the track actions' guard).

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    characteristics = stored_object(sheet, "characteristics", "The characteristics")
    require(set(characteristics) == set(genesys.CHARACTERISTICS),
            f"the characteristics must be exactly {', '.join(genesys.CHARACTERISTICS)}",
            RULE_SKILLS)
    for name, rating in characteristics.items():
        stored_int(rating, name, genesys.CHARACTERISTIC_MIN, genesys.CHARACTERISTIC_MAX,
                   RULE_SKILLS)
    for name, rank in stored_object(sheet, "skills", "The skills").items():
        stored_int(rank, f"The skill {name}", 0, genesys.SKILL_RANKS_MAX, RULE_SKILLS)
    stored_names(sheet.get("career_skills", []), "The career skills")
    require(isinstance(sheet.get("career", ""), str), "the career must be a name")
    require(isinstance(sheet.get("creation", False), bool),
            "'creation' must be true or false")
    for track in ("wounds", "strain"):
        values = stored_object(sheet, track, f"The {track}")
        stored_int(values.get("current"), f"Current {track}", 0, genesys.TRACK_MAX)
        stored_int(values.get("threshold"), f"The {track} threshold", 1, genesys.TRACK_MAX)


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`GenesysSystem.check_system_data`: the skill list is a list of at most
    :data:`SKILL_LIST_MAX` objects, each a skill the GM could have added
    (:func:`rulesets.genesys.check_skill`, as the ``skill-set`` action checks it), no name
    twice (ignoring case).

    Raises:
        RuleError: the first skill refused (Genesys dice pool, Skill and Characteristic).
    """
    skills = data.get("skills", [])
    require(isinstance(skills, list), "the campaign's skill list must be a list")
    require(len(skills) <= SKILL_LIST_MAX,
            f"The list holds at most {SKILL_LIST_MAX} skills, not {len(skills)}.", RULE_SKILLS)
    seen: set[str] = set()
    for skill in skills:
        require(isinstance(skill, dict), f"a skill of the list is not an object: {skill!r}")
        checked = genesys.check_skill(str(skill.get("name", "")),
                                      str(skill.get("characteristic", "")))
        # The skill-add action links a second entry of the same name instead of listing it.
        require(checked.name.casefold() not in seen,
                f"{checked.name} is on the skill list twice.", RULE_SKILLS)
        seen.add(checked.name.casefold())


# --- The system ----------------------------------------------------------------------------


class GenesysSystem(SheetSystem):
    """Genesys: the six characteristics, the campaign's skills, wounds and strain, narrative
    dice checks, and XP priced as the core rulebook does."""

    def default_system_data(self) -> dict[str, Any]:
        """``{"skills": [...]}``: the default list of :func:`rulesets.genesys.default_skills`."""
        return {"skills": [s.as_dict() for s in genesys.default_skills()]}

    def check_system_data(self, data: dict[str, Any]) -> None:
        """The skill list as the GM's actions make it (:func:`check_system_data`). Raises
        RuleError naming the first skill refused."""
        check_system_data(data)

    # --- creation ---------------------------------------------------------------------------

    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> GenesysCreationForm:
        """Name, concept, career and career skills with the free ranks; ``clean()`` names the
        rule broken (:func:`rulesets.genesys.check_career`)."""
        return GenesysCreationForm(data, skills=skills_of(campaign))

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """An Average Human (all characteristics 2; wound threshold 10 + Brawn, strain
        threshold 10 + Willpower) with one rank in each free-rank skill, still in creation."""
        known = {s.name for s in skills_of(campaign)}
        chars = dict.fromkeys(genesys.CHARACTERISTICS, genesys.STARTING_CHARACTERISTIC)
        free = [n for n in cleaned_data.get("free_ranks", []) if n in known]
        return {
            "career": cleaned_data.get("career", "").strip(),
            "characteristics": chars,
            "skills": dict.fromkeys(free, 1),
            "career_skills": [n for n in cleaned_data["career_skills"] if n in known],
            "wounds": {"current": 0, "threshold": genesys.wound_threshold(chars["Brawn"])},
            "strain": {"current": 0,
                       "threshold": genesys.strain_threshold(chars["Willpower"])},
            "creation": True,
        }

    def creation_xp(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> int:
        """The campaign's starting XP (the GM sets it; the core rules' Average Human has
        110), spent on the XP page: characteristics during creation, then skills."""
        return int(campaign.starting_xp)

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Characteristics, skill ranks and tracks in the rules' ranges (:func:`check_sheet`).
        Raises RuleError naming the first value refused."""
        check_sheet(sheet)

    # --- the sheet --------------------------------------------------------------------------

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """``gx``: characteristics, skill rows (rank, career, the check's dice), skills off
        the campaign's list, the two tracks, the creation flag. No query beyond the
        character's campaign, loaded with it."""
        sheet = read_sheet(character)
        skills = skills_of(character.campaign)
        chars = sheet["characteristics"]
        listed = {s.name for s in skills}
        rows = []
        for skill in skills:
            rank = sheet["skills"].get(skill.name, 0)
            rating = chars.get(skill.characteristic, genesys.STARTING_CHARACTERISTIC)
            pool = _starting_pool(rating, rank)
            rows.append({
                "skill": skill, "rank": rank, "abbreviation":
                ABBREVIATIONS.get(skill.characteristic, skill.characteristic),
                "career": skill.name in sheet["career_skills"],
                "dots": [i < rank for i in range(genesys.SKILL_RANKS_MAX)],
                "pool": ["proficiency"] * pool.proficiency + ["ability"] * pool.ability,
                "pool_text": pool.describe(),
            })
        return {"gx": {
            "career": sheet["career"],
            "characteristics": _characteristics(sheet),
            "skills": rows,
            "off_list": sorted((n, r) for n, r in sheet["skills"].items() if n not in listed),
            "tracks": _tracks(sheet),
            "creation": sheet["creation"],
        }}

    def card_context(self, character: Character) -> dict[str, Any]:
        """The GM's card: the two tracks, the characteristics, in creation or not."""
        sheet = read_sheet(character)
        return {"gx": {
            "tracks": _tracks(sheet), "characteristics": _characteristics(sheet),
            "creation": sheet["creation"], "career": sheet["career"],
        }}

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """The GM's skill list panel: the skills, the core skills not on it (suggestions),
        the form, and the core rules' starting XP for comparison."""
        skills = skills_of(campaign)
        names = {s.name.casefold() for s in skills}
        return {
            "gx_skills": skills,
            "gx_suggestions": [s for s in genesys.CORE_SKILLS if s.name.casefold() not in names],
            "gx_skill_form": SkillSetForm(auto_id="gx-skill-%s"),
            "gx_core_starting_xp": genesys.AVERAGE_HUMAN_STARTING_XP,
        }

    # --- XP ---------------------------------------------------------------------------------

    def advances(self, character: Character) -> list[Advance]:
        """Every next rank for sale now: characteristics during creation (below 5), then every
        skill of the campaign's list below its cap (2 during creation, 5 after). Reads the
        sheet and the skill list once for all of them."""
        sheet = read_sheet(character)
        skills = [s.name for s in skills_of(character.campaign)]
        keys = [f"characteristic:{n}" for n in genesys.CHARACTERISTICS]
        keys += [f"skill:{name}" for name in skills]
        listed = set(skills)
        offers = []
        for key in keys:
            try:
                offers.append(_quote(character, sheet, listed, key))
            except RuleError:
                continue
        return offers

    def quote(self, character: Character, key: str) -> Advance:
        """The price of the next rank of ``characteristic:<name>`` (10 x the new rating,
        during creation only, at most 5) or ``skill:<name>`` (5 x the new rank, +5 if not a
        career skill; at most 2 during creation, 5 after) (Genesys Core Rulebook, Step 4).
        Raises RuleError naming the reason (unknown key, at the cap, creation over)."""
        return _quote(character, read_sheet(character),
                      {s.name for s in skills_of(character.campaign)}, key)

    def rank(self, character: Character, key: str) -> int:
        """The rating of ``characteristic:<name>`` or the ranks of ``skill:<name>`` (0 when
        untrained). Raises RuleError for another key."""
        kind, name = _xp_key(key)
        sheet = read_sheet(character)
        if kind == "characteristic":
            return int(sheet["characteristics"][name])
        return int(sheet["skills"].get(name, 0))

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set a characteristic's rating or a skill's ranks on ``character.sheet``; Brawn and
        Willpower move the wound and strain thresholds with them (10 + Brawn, 10 +
        Willpower; Genesys Core Rulebook, Step 5). Raises RuleError for another key."""
        kind, name = _xp_key(key)
        sheet = read_sheet(character)
        if kind == "characteristic":
            sheet["characteristics"][name] = rank
            if name == "Brawn":
                sheet["wounds"]["threshold"] = genesys.wound_threshold(rank)
            if name == "Willpower":
                sheet["strain"]["threshold"] = genesys.strain_threshold(rank)
        elif rank:
            sheet["skills"][name] = rank
        else:
            sheet["skills"].pop(name, None)
        character.sheet = sheet

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The XP page's notes: the prices, creation open or not, the career skills."""
        sheet = read_sheet(character)
        return {"gx": {"creation": sheet["creation"], "career_skills": sheet["career_skills"],
                       "skill_cap": genesys.CREATION_SKILL_MAX if sheet["creation"]
                       else genesys.SKILL_RANKS_MAX}}

    # --- rolls ------------------------------------------------------------------------------

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> GenesysRollForm:
        """The check dialog for the campaign's skills."""
        return GenesysRollForm(data, skills=skills_of(character.campaign))

    def build_pool(self, character: Character, cleaned_data: dict[str, Any]
                   ) -> genesys.DicePool:
        """The check's pool from the sheet and the dialog (Genesys dice pool, Skill and
        Characteristic, Difficulty, Modifying a Dice Pool). Raises RuleError for a skill off
        the list or an illegal pool (an Impossible task without its Destiny point)."""
        sheet = read_sheet(character)
        skill_name = cleaned_data.get("skill") or ""
        characteristic = cleaned_data.get("characteristic") or ""
        ranks = 0
        if skill_name:
            skill = _skill(character.campaign, skill_name)
            characteristic = characteristic or skill.characteristic
            ranks = sheet["skills"].get(skill_name, 0)
        if characteristic not in genesys.CHARACTERISTICS:
            raise RuleError(f"{characteristic!r} is not a characteristic", RULE_SKILLS)

        def count(name: str) -> int:
            return int(cleaned_data.get(name) or 0)

        return genesys.build_pool(
            characteristic=characteristic,
            characteristic_rating=sheet["characteristics"][characteristic],
            skill=skill_name, skill_ranks=ranks,
            difficulty=cleaned_data.get("difficulty") or "Average",
            destiny_point_spent=bool(cleaned_data.get("destiny_point")),
            upgrade_ability=count("upgrade_ability"),
            upgrade_difficulty=count("upgrade_difficulty"),
            downgrade_proficiency=count("downgrade_proficiency"),
            downgrade_challenge=count("downgrade_challenge"),
            boost=count("boost"), setback=count("setback"),
        )

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Build the pool from the locked sheet and roll it (Genesys dice pool, Interpreting
        the Pool): the check succeeds with at least one net success. Raises RuleError for an
        illegal pool."""
        pool = self.build_pool(character, cleaned_data)
        result = genesys.roll(pool, rng)
        return RolledResult(
            kind="check", description=_describe(pool), result=result,
            outcome="success" if result.succeeded else "failure",
            net=result.tally.net_successes, summary=result.summary())

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> GenesysRequestForm:
        """What the GM may ask for: a skill, a difficulty, difficulty upgrades, boost and
        setback dice."""
        return GenesysRequestForm(data, skills=skills_of(campaign))

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The check dialog's data answering the GM's request, and the request in words
        ("Athletics (Brawn), Average, 1 boost"). An Impossible task spends the Destiny point
        it needs (Genesys dice pool, Impossible Tasks). Raises RuleError for a skill that
        left the list since."""
        skill = _skill(character.campaign, cleaned_data["skill"])
        data: dict[str, Any] = {"skill": skill.name, "difficulty": cleaned_data["difficulty"]}
        words = [f"{skill.name} ({skill.characteristic})", cleaned_data["difficulty"]]
        for name, noun in (("upgrade_difficulty", "difficulty upgrade"), ("boost", "boost"),
                           ("setback", "setback")):
            count = int(cleaned_data.get(name) or 0)
            if count:
                data[name] = str(count)
                words.append(f"{count} {noun}{'s' if count != 1 and name.startswith('up') else ''}")
        if cleaned_data["difficulty"] == genesys.IMPOSSIBLE:
            data["destiny_point"] = "on"
        return data, ", ".join(words)

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of the dialog's pool (:func:`rulesets.genesys.odds`), for
        ``rolls/_odds.html``: success, advantage and threat as meters, the most likely net
        result, triumph and despair in words, the phone's headline. ``pool_text`` draws the
        pool as dice: ``systems/genesys/_pool.html`` rendered with autoescape on, so every
        value in it (the skill's name is the GM's text) is escaped, and ``render_to_string``
        hands back a SafeString the odds box shows as it is. One sheet read, one odds
        computation. Raises RuleError for an illegal pool."""
        pool = self.build_pool(character, cleaned_data)
        odds = genesys.odds(pool)
        rows = [("Success", odds.success, True), ("Advantage", odds.advantage, True),
                ("Threat", odds.threat, False)]
        likely = max(odds.net_successes, key=lambda pair: pair[1])
        # Triumph and despair are rare by design: a meter would colour them as bad odds.
        special = " · ".join(
            f"{name}: {percent_text(float(p))}" if p else f"{name}: none possible ({why})"
            for name, p, why in (("Triumph", odds.triumph, "no proficiency die"),
                                 ("Despair", odds.despair, "no challenge die")))
        return {
            "odds": odds,
            "pool": pool,
            "pool_text": render_to_string(
                "systems/genesys/_pool.html", {"pool": pool, "words": _describe(pool)}),
            "odds_rows": [(label, float(p), percent_text(float(p)), good)
                          for label, p, good in rows],
            "odds_lines": [
                f"Most likely: {_net_words(likely[0])} ({percent_text(float(likely[1]))}).",
                f"{special}."],
            "odds_headline": f"Success {percent_text(float(odds.success))}",
        }

    # --- the demo ---------------------------------------------------------------------------

    def demo(self, *, campaign: Campaign, gm: AbstractBaseUser, player: AbstractBaseUser,
             rng: Rng) -> None:
        """Kestrel, a Scoundrel: created through the form, given 100 XP, two
        characteristics and a skill bought, creation finished, some wounds and strain, and
        two checks rolled."""
        from characters.services import sheet_change, xp_award, xp_spend_advance
        from rolls.services import system_roll_create

        career = ["Cool", "Coordination", "Deception", "Perception", "Ranged", "Skulduggery",
                  "Stealth", "Streetwise"]
        character = self.create_character(campaign=campaign, owner=player, data={
            "name": "Kestrel", "concept": "A smuggler who owes everyone", "career": "Scoundrel",
            "career_skills": career,
            "free_ranks": ["Cool", "Ranged", "Skulduggery", "Stealth", "Athletics", "Charm"],
        })
        xp_award(character=character, amount=100, by=gm,
                 reason="Demo starting XP (the core rules' Average Human has 110)")
        for key in ("characteristic:Agility", "characteristic:Cunning", "skill:Ranged"):
            xp_spend_advance(character=character, key=key, by=player)
            character.refresh_from_db()
        sheet_change(character=character, action=self.actions["finish-creation"], data={},
                     by=player)
        sheet_change(character=character, action=self.actions["wounds"],
                     data={"amount": 4, "direction": "suffer"}, by=gm)
        sheet_change(character=character, action=self.actions["strain"],
                     data={"amount": 2, "direction": "suffer"}, by=player)
        character.refresh_from_db()
        for data in ({"skill": "Ranged", "difficulty": "Average", "boost": "1"},
                     {"skill": "Deception", "difficulty": "Hard", "upgrade_difficulty": "1"}):
            form = self.roll_form(character, data)
            if not form.is_valid():
                raise ValueError(form.errors.as_text())
            system_roll_create(character=character, data=form.cleaned_data, by=player, rng=rng)


def _describe(pool: genesys.DicePool) -> str:
    """"Agility + Ranged, Average: 2 ability, 1 proficiency vs 2 difficulty"."""
    what = " + ".join(pool.traits) or "Dice"
    level = f", {pool.difficulty_level}" if pool.difficulty_level else ""
    return f"{what}{level}: {pool.describe()}"


def _net_words(net: int) -> str:
    """A net result in words: "2 net successes", "1 net failure", "all cancelled out"."""
    if net > 0:
        return f"{net} net success{'es' if net != 1 else ''}"
    if net < 0:
        return f"{-net} net failure{'s' if net != -1 else ''}"
    return "all cancelled out"


SYSTEM = GenesysSystem(
    slug="genesys",
    demo_campaign_name="The Long Night (Genesys demo)",
    actions={
        "wounds": TrackAction(form=TrackForm, apply=_track_apply("wounds"),
                              partial="sheet-tracks"),
        "strain": TrackAction(form=TrackForm, apply=_track_apply("strain"),
                              partial="sheet-tracks"),
        "finish-creation": TrackAction(form=NoFieldsForm, apply=_finish_creation,
                                       partial="sheet-creation"),
        "reopen-creation": TrackAction(form=NoFieldsForm, apply=_reopen_creation,
                                       partial="sheet-creation", gm_only=True),
    },
    campaign_actions={
        "skill-set": CampaignAction(form=SkillSetForm, apply=_skill_set,
                                    partial="system-panel"),
        "skill-remove": CampaignAction(form=SkillRemoveForm, apply=_skill_remove,
                                       partial="system-panel"),
        "skills-reset": CampaignAction(form=NoFieldsForm, apply=_skills_reset,
                                       partial="system-panel"),
    },
)
"""The Genesys sheet description the generic views call."""
