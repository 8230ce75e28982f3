"""The Genesys sheet: characteristics, skills, wounds and strain, the check dialog with its
narrative dice, and XP (the :class:`~systems.SheetSystem` contract).

The dice pool follows the seed (seed 001, ``001_c7136ddaeb237e8d.txt``, cited "Genesys dice
pool, <section>") through ``rulesets.genesys``. The seed has no character creation and no
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

``Campaign.system_data`` holds the campaign's skill list and its Destiny pool
(:mod:`systems.genesys.destiny`; absent until the GM sets or rolls it)::

    {"skills": [{"name": "Athletics", "characteristic": "Brawn", "group": "General"}, ...],
     "destiny": {"light": 2, "dark": 3, "rolled": [10, 1, 7]}}   # Force die faces, or []
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string

from rulesets import genesys
from rulesets.errors import RuleError
from rulesets.genesys.storage import RollKind
from systems import (
    Advance,
    RolledResult,
    SheetSystem,
    percent_text,
)
from systems.base import RollHeader
from systems.genesys import history, luck, npcs
from systems.genesys.actions import ACTIONS, CAMPAIGN_ACTIONS
from systems.genesys.checks import (
    check_roll,
    check_sheet,
    check_system_data,
    verdict_of_check,
)
from systems.genesys.destiny import (
    destiny_context,
    destiny_invest,
    destiny_of,
    require_gm_flip_as_asked,
    require_no_npc_flip,
    require_points_for_request,
)
from systems.genesys.forms import (
    DestinyFlipForm,
    DestinyRollForm,
    DestinySetForm,
    GenesysCreationForm,
    GenesysRequestForm,
    GenesysRollForm,
    SkillSetForm,
)
from systems.genesys.sheet import (
    ABBREVIATIONS,
    RULE_SKILLS,
    _characteristics,
    _skill,
    _starting_pool,
    _tracks,
    read_sheet,
    readings_of,
    skills_of,
)
from systems.genesys.xp import _quote, _xp_key, undone_in_words

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character, XpEntry
    from rolls.models import Roll
    from rulesets.dice import Rng
    from rulesets.luck import RollLuck
    from systems.npcs import TrackLine


# --- The system ----------------------------------------------------------------------------


class GenesysSystem(SheetSystem):
    """Genesys: the six characteristics, the campaign's skills, wounds and strain, narrative
    dice checks, the table's Destiny pool, and XP priced as the core rulebook does."""
    # gx-destiny: the campaign's Destiny pool on the sheet, redrawn when the campaign's data
    # changes (a flip, the GM's set or roll: campaignChanged redraws the live tracks).
    live_tracks = ("sheet-tracks", "sheet-creation", "gx-characteristics", "gx-skills",
                   "gx-destiny")
    live_xp = ("sheet-xp", "gx-characteristics", "gx-skills", "sheet-creation")

    # Genesys Core Rulebook, Step 4: a new character spends its starting XP (the Average
    # Human's 110; the GM sets the campaign's) on characteristics and skills.
    uses_starting_xp = True

    # The Destiny pool is played with at the table: the GM's panel is on the dashboard too
    # (its Destiny part; the skill list stays on the settings page: dashboard.html).
    panel_in_play = True
    roll_locks_campaign = True  # a check may flip a Destiny point of the campaign's pool
    luck_measure = genesys.LUCK_MEASURE

    def default_system_data(self) -> dict[str, Any]:
        """``{"skills": [...]}``: the default list of :func:`rulesets.genesys.default_skills`."""
        return {"skills": [s.as_dict() for s in genesys.default_skills()]}

    def check_system_data(self, data: dict[str, Any]) -> None:
        """The skill list and the Destiny pool as the GM's actions make them
        (:func:`check_system_data`). Raises RuleError naming the first value refused."""
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

    def in_creation(self, character: Character) -> bool:
        """The sheet's creation flag: until its player (or the GM) finishes creation, the
        starting XP is being spent on the XP page (Genesys Core Rulebook, Step 4), and those
        purchases and their undos are the creation's."""
        return bool(read_sheet(character)["creation"])

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Characteristics, skill ranks and tracks in the rules' ranges (:func:`check_sheet`).
        Raises RuleError naming the first value refused."""
        check_sheet(sheet)

    # --- the sheet --------------------------------------------------------------------------

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """``gx``: characteristics, skill rows (rank, career, the check's dice), skills off
        the campaign's list, the two tracks, the creation flag, and the campaign's Destiny
        pool (``destiny``: :func:`destiny_context`). No query beyond the character's
        campaign, loaded with it."""
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
        return {"sheet_subtitle": sheet["career"], "gx": {
            "career": sheet["career"],
            "characteristics": _characteristics(sheet),
            "skills": rows,
            "off_list": sorted((n, r) for n, r in sheet["skills"].items() if n not in listed),
            "tracks": _tracks(sheet),
            "creation": sheet["creation"],
            "destiny": destiny_context(character.campaign),
        }}

    def card_context(self, character: Character) -> dict[str, Any]:
        """The GM's card: the two tracks, the characteristics, in creation or not."""
        sheet = read_sheet(character)
        return {"gx": {
            "tracks": _tracks(sheet), "characteristics": _characteristics(sheet),
            "creation": sheet["creation"], "career": sheet["career"],
        }}

    def sheet_facts(self, character: Character, sheet: dict[str, Any] | None = None
                    ) -> dict[str, str]:
        """Career, wounds and strain, characteristics, creation, career skills and each
        skill's ranks, in the sheet's order and words, skills in the campaign's list order
        (:func:`systems.genesys.history.sheet_facts`). No query beyond the character's
        campaign, loaded with it."""
        return history.sheet_facts(
            character.sheet if sheet is None else sheet,
            [skill.name for skill in skills_of(character.campaign)])

    # --- NPCs (systems.genesys.npcs) --------------------------------------------------------

    def npc_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                 ) -> npcs.NpcForm:
        """The adversary's stat block (:class:`~systems.genesys.npcs.NpcForm`): the ranges
        checked, no XP spent."""
        return npcs.npc_form(campaign, data)

    def npc_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The stat block's sheet (:func:`systems.genesys.npcs.npc_sheet`)."""
        return npcs.npc_sheet(cleaned_data)

    def track_lines(self, character: Character) -> list[TrackLine]:
        """Wounds and strain against their thresholds (:func:`systems.genesys.npcs.
        track_lines`)."""
        return npcs.track_lines(character)

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """The GM's panel: the Destiny pool with its forms (set, roll, flip), and the skill
        list: the skills, the core skills not on it (suggestions), the form, and the core
        rules' starting XP for comparison."""
        skills = skills_of(campaign)
        names = {s.name.casefold() for s in skills}
        return {
            "gx_destiny": destiny_context(campaign),
            "gx_destiny_set": DestinySetForm(auto_id="gx-destiny-%s"),
            "gx_destiny_roll": DestinyRollForm(auto_id="gx-destiny-roll-%s"),
            "gx_destiny_flip": DestinyFlipForm(auto_id="gx-destiny-flip-%s"),
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

    def undo_description(self, character: Character, entry: XpEntry) -> str:
        """A characteristic's rating or a skill's ranks back, with the threshold Brawn or
        Willpower moves (:func:`systems.genesys.xp.undone_in_words`; Genesys Core Rulebook,
        Step 4 and Step 5)."""
        if entry.rank_from is None or entry.rank_to is None:
            return super().undo_description(character, entry)
        return (undone_in_words(entry.trait_key, entry.rank_to, entry.rank_from)
                or super().undo_description(character, entry))

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The XP page's notes: the prices, creation open or not, the career skills; and at
        the top of its purchases, while creation is open, what is left to invest and
        "Finish creation" (the XP page is where Step 4 happens, so creation ends there)."""
        sheet = read_sheet(character)
        return {"gx": {"creation": sheet["creation"], "career_skills": sheet["career_skills"],
                       "skill_cap": genesys.CREATION_SKILL_MAX if sheet["creation"]
                       else genesys.SKILL_RANKS_MAX},
                "spend_intro_template": f"{self.template('xp.html')}#xp-creation"}

    # --- rolls ------------------------------------------------------------------------------

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> GenesysRollForm:
        """The check dialog for the campaign's skills."""
        return GenesysRollForm(data, skills=skills_of(character.campaign))

    def build_pool(self, character: Character, cleaned_data: dict[str, Any]
                   ) -> genesys.DicePool:
        """The check's pool from the sheet and the dialog (Genesys dice pool, Skill and
        Characteristic, Difficulty, Modifying a Dice Pool), with the Destiny flips it invests
        (the player's light point, the GM's dark point: each upgrades a die), under the
        campaign's table readings (:func:`readings_of`). Raises
        RuleError for a skill off the list or an illegal pool (an Impossible task without
        its Destiny point, a flip on an NPC's check: :func:`require_no_npc_flip`)."""
        require_no_npc_flip(character, cleaned_data)
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
            destiny_light=bool(cleaned_data.get("destiny_point")),
            destiny_dark=bool(cleaned_data.get("destiny_dark")),
            upgrade_ability=count("upgrade_ability"),
            upgrade_difficulty=count("upgrade_difficulty"),
            downgrade_proficiency=count("downgrade_proficiency"),
            downgrade_challenge=count("downgrade_challenge"),
            boost=count("boost"), setback=count("setback"),
            readings=readings_of(character),
        )

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Build the pool from the locked sheet, flip the Destiny points it invests in the
        campaign's pool (:func:`destiny_invest`, in this transaction: a refusal stores
        nothing), and roll it (Genesys dice pool, Interpreting the Pool): the check succeeds
        with at least one net success. The flips are the stored pool's ``destiny_flips``.
        Raises RuleError for an illegal pool, a dark flip the GM did not ask for
        (:func:`require_gm_flip_as_asked`), or no point left to flip."""
        pool = self.build_pool(character, cleaned_data)
        require_gm_flip_as_asked(character, cleaned_data)
        if pool.destiny_flips:
            destiny_invest(character, pool.destiny_flips)
        result = genesys.roll(pool, rng)
        outcome, net, summary = verdict_of_check(result)
        return RolledResult(kind=RollKind.CHECK, description=_describe(pool), result=result,
                            outcome=outcome, net=net, summary=summary)

    def check_roll(self, roll: Roll, parent: Roll | None) -> None:
        """The dice its pool rolls, and the symbols and outcome they show
        (:func:`check_roll`). Raises RuleError naming the first disagreement."""
        check_roll(roll, parent)

    def roll_header(self, roll: Roll) -> RollHeader:
        """"Agility + Ranged · Average", the dice folded ("1 ability, 2 proficiency vs 2
        difficulty"); without a difficulty's name the dice stay in the header ("NPC · 2
        ability vs 3 difficulty"). Read from the stored description (``_describe``)."""
        what, _, dice = self.roll_description(roll).partition(": ")
        if not dice:
            return super().roll_header(roll)
        name, _, level = what.partition(", ")
        if not level:
            return RollHeader(short=f"{name} · {dice}")
        return RollHeader(short=f"{name} · {level}", details=dice)

    def roll_luck(self, roll: Roll) -> RollLuck | None:
        """A check's or an NPC quick roll's net successes against their exact odds
        (:func:`systems.genesys.luck.roll_luck`; docs/systems/genesys.md, Luck)."""
        return luck.roll_luck(roll)

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> GenesysRequestForm:
        """What the GM may ask for: a skill, a difficulty, difficulty upgrades, the GM's dark
        Destiny flip, boost and setback dice."""
        return GenesysRequestForm(data, skills=skills_of(campaign))

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The check dialog's data answering the GM's request, and the request in words
        ("Athletics (Brawn), Average, 1 boost"). An Impossible task flips the light Destiny
        point it needs (Genesys dice pool, Impossible Tasks); the GM's dark flip (Difficulty)
        goes with the request and flips when the roll is made. Raises RuleError for a skill
        that left the list since, or a point the pool cannot spare
        (:func:`require_points_for_request`)."""
        skill = _skill(character.campaign, cleaned_data["skill"])
        data: dict[str, Any] = {"skill": skill.name, "difficulty": cleaned_data["difficulty"]}
        words = [f"{skill.name} ({skill.characteristic})", cleaned_data["difficulty"]]
        for name, noun in (("upgrade_difficulty", "difficulty upgrade"), ("boost", "boost"),
                           ("setback", "setback")):
            count = int(cleaned_data.get(name) or 0)
            if count:
                data[name] = str(count)
                words.append(f"{count} {noun}{'s' if count != 1 and name.startswith('up') else ''}")
        impossible = cleaned_data["difficulty"] == genesys.IMPOSSIBLE
        dark = bool(cleaned_data.get("destiny_dark"))
        require_points_for_request(character.campaign, light=impossible, dark=dark)
        if impossible:
            data["destiny_point"] = "on"
            words.append("a light Destiny point flipped")
        if dark:
            data["destiny_dark"] = "on"
            words.append("the GM flips a dark Destiny point")
        return data, ", ".join(words)

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of the dialog's pool (:func:`rulesets.genesys.odds`), for
        ``rolls/_odds.html``: success, advantage and threat as meters, the most likely net
        result, triumph and despair in words, the phone's headline. ``pool_text`` draws the
        pool as dice: ``systems/genesys/_pool.html`` rendered with autoescape on, so every
        value in it (the skill's name is the GM's text) is escaped, and ``render_to_string``
        hands back a SafeString the odds box shows as it is. With a Destiny flip, a line says
        what it will cost (the pool as the campaign row was read: the roll checks again).
        One sheet read, one odds computation. Raises RuleError for an illegal pool."""
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
                f"{special}.", *_destiny_lines(character, pool)],
            "odds_headline": f"Success {percent_text(float(odds.success))}",
        }


def _describe(pool: genesys.DicePool) -> str:
    """"Agility + Ranged, Average: 2 ability, 1 proficiency vs 2 difficulty"."""
    what = " + ".join(pool.traits) or "Dice"
    level = f", {pool.difficulty_level}" if pool.difficulty_level else ""
    return f"{what}{level}: {pool.describe()}"


def _destiny_lines(character: Character, pool: genesys.DicePool) -> list[str]:
    """The odds box's word on the Destiny points the pool invests: the flip it makes when
    rolled, and the pool it leaves, or that no point of that side is left (the roll will be
    refused). ``[]`` when it invests none."""
    if not pool.destiny_flips:
        return []
    try:
        destiny = destiny_of(character.campaign)
        after = destiny
        for side in pool.destiny_flips:
            after = after.flip(side)
    except RuleError as exc:
        return [f"{exc.message} Rolling will be refused until the GM adds one."]
    flips = " and ".join(f"a {side} point" for side in pool.destiny_flips)
    return [f"Destiny: rolling flips {flips} (the pool {destiny.describe()} becomes "
            f"{after.describe()})."]


def _net_words(net: int) -> str:
    """A net result in words: "2 net successes", "1 net failure", "all cancelled out"."""
    if net > 0:
        return f"{net} net success{'es' if net != 1 else ''}"
    if net < 0:
        return f"{-net} net failure{'s' if net != -1 else ''}"
    return "all cancelled out"


SYSTEM = GenesysSystem(
    slug="genesys",
    actions=ACTIONS,
    campaign_actions=CAMPAIGN_ACTIONS,
)
"""The Genesys sheet description the generic views call."""
