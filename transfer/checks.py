"""The rules' checks of an imported sheet and campaign data, run before anything is written.

An import writes rows as they were (docs/backup.md): it never re-runs a rule or re-rolls a
die. So every value it brings in must be one the rules could have produced, else a sheet
would open with a value no action can reach (seven dots, a d7, a statistic above its
maximum) or fail to open at all. Two layers:

1. **The rules' own checks**, per system, through the rules modules (``rulesets/``) and the
   sheet descriptions' public readers: Maelstrom's health chart, traits, specialties, merits
   and flaws; Shahquest's features, plot points and stress track; Genesys's characteristics,
   skills and tracks; 3d6's modifiers, level and health; Shattered World's statistics,
   dice level, buy-ins and achievements; each campaign's ``system_data``.
2. **The sheet's readers**: the system's ``sheet_context``, ``card_context`` and
   ``advances`` run on the unsaved rows (and ``dashboard_context`` on the campaign once its
   rows are written, inside the import's transaction), so a
   shape the checks above do not know still cannot reach a page that would fail to draw it.
   A sixth system gets this layer with nothing added here.

Every function raises :class:`rulesets.errors.RuleError` naming the first broken rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from characters import systems
from characters.creation import MeritFlawChoice, Specialty, check_merit_flaw, check_specialty
from characters.models import Trait
from characters.systems import shahquest_tension
from rulesets import genesys, maelstrom
from rulesets import shahquest as sq
from rulesets import shattered_world as sw
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character, MeritFlaw

RULE_IMPORT = "Sheetkeeper export format"

# Errors a sheet's readers raise on a shape they do not expect (a missing key, a string
# where a number belongs); the import turns them into "the sheet cannot be read".
READ_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def check_campaign(campaign: Campaign) -> None:
    """Check an unsaved campaign's ``system_data`` against its system's rules (no queries).

    Args:
        campaign: a Campaign with ``ruleset`` and ``system_data`` set (not saved).

    Raises:
        RuleError: the first value the rules refuse.
    """
    data = campaign.system_data
    _require(isinstance(data, dict), "the campaign's system data is not an object")
    check = _CAMPAIGN_CHECKS.get(campaign.ruleset)
    if check is not None:
        _readable(lambda: check(data), "the campaign's system data")


def check_dashboard(campaign: Campaign) -> None:
    """Draw the GM's panel of a saved campaign once (it reads the campaign's characters),
    so data the rules' checks do not know cannot reach a dashboard that fails to draw it.
    Call inside the import's transaction, after its rows are written.

    Raises:
        RuleError: the panel cannot be drawn from the data.
    """
    system = systems.for_ruleset(campaign.ruleset)
    if system is not None:
        _readable(lambda: system.dashboard_context(campaign), "the campaign's system data")


def check_character(character: Character, traits: Iterable[Trait],
                    merits_flaws: Iterable[MeritFlaw]) -> None:
    """Check an unsaved character (its ``campaign`` set, saved or not) with its trait rows
    and merits and flaws against its system's rules.

    Raises:
        RuleError: the first value the rules refuse, or a sheet its pages cannot read.
    """
    ruleset = character.campaign.ruleset
    traits, merits_flaws = list(traits), list(merits_flaws)
    _require(isinstance(character.sheet, dict), "the sheet is not an object")
    if ruleset == "maelstrom":
        _readable(lambda: _check_maelstrom(character, traits, merits_flaws), "the sheet")
        return
    _require(not traits and not merits_flaws,
             "only a Maelstrom character has trait rows, merits and flaws")
    check = _SHEET_CHECKS.get(ruleset)
    if check is not None:
        _readable(lambda: check(character.sheet, character.campaign), "the sheet")
    system = systems.for_ruleset(ruleset)
    if system is not None:
        def read() -> None:
            system.sheet_context(character, is_gm=True)
            system.card_context(character)
            system.advances(character)
        _readable(read, "the sheet")


# --- helpers ----------------------------------------------------------------------------------


def _require(condition: bool, message: str, rule: str = RULE_IMPORT) -> None:
    if not condition:
        raise RuleError(message, rule)


def _readable(read: Callable[[], object], what: str) -> None:
    try:
        read()
    except RuleError:
        raise
    except READ_ERRORS as exc:
        raise RuleError(f"{what} cannot be read ({type(exc).__name__}: {exc})",
                        RULE_IMPORT) from None


def _is_int(value: object) -> bool:
    # JSON true/false decode to bool, a subclass of int: never a number here.
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: object, what: str, low: int, high: int, rule: str = RULE_IMPORT) -> int:
    _require(_is_int(value) and low <= value <= high,  # type: ignore[operator]
             f"{what} must be a whole number from {low} to {high}, not {value!r}", rule)
    return value  # type: ignore[return-value]


def _str_list(value: object, what: str) -> list[str]:
    _require(isinstance(value, list) and all(isinstance(v, str) for v in value),
             f"{what} must be a list of names")
    return value  # type: ignore[return-value]


def _mapping(sheet: Mapping[str, Any], key: str, what: str) -> Mapping[str, Any]:
    value = sheet.get(key)
    _require(isinstance(value, dict), f"{what} ({key!r}) must be an object, not {value!r}")
    return value  # type: ignore[return-value]


# --- Maelstrom ------------------------------------------------------------------------------


def _check_maelstrom(character: Character, traits: list[Trait],
                     merits_flaws: list[MeritFlaw]) -> None:
    rule = f"{maelstrom.SOURCE}, Willpower"
    maelstrom.HealthChart(  # raises RuleError for damage that does not fit the boxes
        bashing=character.health_bashing, lethal=character.health_lethal,
        aggravated=character.health_aggravated, huge_size=character.huge_size,
        dead=character.dead)
    _int(character.willpower_permanent, "Permanent willpower", 1, maelstrom.WILLPOWER_MAX, rule)
    _int(character.willpower_current, "Current willpower", 0, character.willpower_permanent,
         rule)
    rule = f"{maelstrom.SOURCE}, Traits"
    attributes: set[str] = set()
    for trait in traits:
        if trait.kind == Trait.Kind.ATTRIBUTE:
            _require(trait.name in maelstrom.ATTRIBUTES,
                     f"{trait.name!r} is not a Maelstrom attribute", rule)
            _int(trait.dots, trait.name, 1, maelstrom.DOTS_MAX, rule)
            attributes.add(trait.name)
        elif trait.kind == Trait.Kind.ABILITY:
            _require(trait.name in maelstrom.ABILITIES,
                     f"{trait.name!r} is not a Maelstrom ability", rule)
            _int(trait.dots, trait.name, 0, maelstrom.DOTS_MAX, rule)
        else:
            check_specialty(Specialty(trait.ability, trait.name, trait.advanced))
            _int(trait.dots, f"The specialty {trait}", 1, 1, rule)
    missing = [name for name in maelstrom.ATTRIBUTES if name not in attributes]
    _require(not missing, f"the sheet lacks the attributes {', '.join(missing)}", rule)
    for row in merits_flaws:
        check_merit_flaw(MeritFlawChoice(row.name, row.kind, row.points, row.detail))


# --- Shahquest ------------------------------------------------------------------------------


def _check_shahquest(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    features = sheet.get("features")
    _require(isinstance(features, list), "the sheet's features must be a list")
    for entry in features:
        _require(isinstance(entry, dict) and isinstance(entry.get("name"), str)
                 and entry["name"].strip() != "" and ":" not in entry["name"],
                 f"a feature needs a name without a colon: {entry!r}")
        kind = entry.get("type")
        if kind in ("sfx", "limit"):  # power-set text, no die (characters/systems/shahquest)
            _require(isinstance(entry.get("power_set"), str),
                     f"the {kind} {entry['name']!r} belongs to a power set")
            continue
        base = sq.Feature(type=kind, name=entry["name"], die=entry.get("die"),
                          count=entry.get("count") or 1)
        sq.check_feature(base)
        specializations = entry.get("specializations", [])
        _require(isinstance(specializations, list),
                 f"the specializations of {entry['name']!r} must be a list")
        for spec in specializations:
            _require(isinstance(spec, dict) and isinstance(spec.get("name"), str),
                     f"a specialization of {entry['name']!r} needs a name")
            sq.check_feature(sq.Feature(type=kind, name=entry["name"], die=entry.get("die"),
                                        count=entry.get("count") or 1,
                                        specialization=spec["name"],
                                        specialization_use=spec.get("use", "")))
    _int(sheet.get("plot_points", 0), "Plot points", 0, 99, f"{sq.SOURCE}, Plot Points")
    if sheet.get("stress"):
        sq.StressTrack.from_dict(sheet["stress"])


def _check_shahquest_campaign(data: Mapping[str, Any]) -> None:
    shahquest_tension.tension_state(data)


# --- Genesys --------------------------------------------------------------------------------


def _check_genesys(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    rule = "Genesys dice pool, Skill and Characteristic"
    characteristics = _mapping(sheet, "characteristics", "The characteristics")
    _require(set(characteristics) == set(genesys.CHARACTERISTICS),
             f"the characteristics must be exactly {', '.join(genesys.CHARACTERISTICS)}", rule)
    for name, rating in characteristics.items():
        _int(rating, name, genesys.CHARACTERISTIC_MIN, genesys.CHARACTERISTIC_MAX, rule)
    for name, rank in _mapping(sheet, "skills", "The skills").items():
        _int(rank, f"The skill {name}", 0, genesys.SKILL_RANKS_MAX, rule)
    _str_list(sheet.get("career_skills", []), "The career skills")
    _require(isinstance(sheet.get("career", ""), str), "the career must be a name")
    _require(isinstance(sheet.get("creation", False), bool),
             "'creation' must be true or false")
    for track in ("wounds", "strain"):
        values = _mapping(sheet, track, f"The {track}")
        _int(values.get("current"), f"Current {track}", 0, genesys.TRACK_MAX)
        _int(values.get("threshold"), f"The {track} threshold", 1, genesys.TRACK_MAX)


def _check_genesys_campaign(data: Mapping[str, Any]) -> None:
    skills = data.get("skills", [])
    _require(isinstance(skills, list), "the campaign's skill list must be a list")
    for skill in skills:
        _require(isinstance(skill, dict), f"a skill of the list is not an object: {skill!r}")
        genesys.check_skill(str(skill.get("name", "")), str(skill.get("characteristic", "")))


# --- 3d6 ------------------------------------------------------------------------------------


def _check_three_d6(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    from characters.systems import three_d6 as d6

    modifiers = _mapping(sheet, "modifiers", "The modifiers")
    unknown = sorted(set(modifiers) - set(d6.SLOTS))
    _require(not unknown, f"unknown trait slots {', '.join(unknown)}", d6.RULE_ADVANCE)
    names = d6.names(campaign)
    for slot, value in modifiers.items():
        _int(value, f"The modifier of {names[slot]}", 0, d6.MODIFIER_CAP, d6.RULE_ADVANCE)
    _int(sheet.get("level", d6.LEVEL_START), "The level", d6.LEVEL_START, d6.LEVEL_MAX,
         d6.RULE_ADVANCE)
    health = _mapping(sheet, "health", "Health")
    maximum = _int(health.get("max"), "Maximum health", 1, d6.HEALTH_LIMIT, d6.RULE_HEALTH)
    _int(health.get("current"), "Health", 0, maximum, d6.RULE_HEALTH)


def _check_three_d6_campaign(data: Mapping[str, Any]) -> None:
    from characters.systems import three_d6 as d6

    for key, count in (("traits", len(d6.TRAIT_SLOTS)), ("subtraits", len(d6.SUBTRAIT_SLOTS))):
        if key in data:
            names = _str_list(data[key], f"The {key}' names")
            _require(len(names) == count and all(
                0 < len(n.strip()) <= d6.NAME_MAX_LENGTH for n in names),
                f"the campaign names {count} {key}, each 1 to {d6.NAME_MAX_LENGTH} characters")


# --- Shattered World ------------------------------------------------------------------------


def _check_shattered_world(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    from characters.systems import shattered_world as sws

    statistics = _mapping(sheet, "statistics", "The statistics")
    _require(set(statistics) == set(sw.STATISTICS),
             f"the statistics must be exactly {', '.join(sw.STATISTICS)}", sws.RULE_STATISTICS)
    pools = {**statistics, sw.HIT_POINTS: _mapping(sheet, "hit_points", "Hit points")}
    for code, pool in pools.items():
        _require(isinstance(pool, dict) and _is_int(pool.get("current"))
                 and _is_int(pool.get("max")),
                 f"{code} needs a current and a maximum", sws.RULE_STATISTICS)
        sw.Statistic(code, pool["current"], pool["max"])  # RuleError: out of 0..maximum
    steps = sws.die_steps(campaign)
    _int(sheet.get("action_die_level", 0), "The action die step", 0, len(steps) - 1,
         sws.RULE_DICE)
    for name, level in _mapping(sheet, "buy_ins", "The buy-ins").items():
        _int(level, f"The buy-in {name}", 0, 999, sws.RULE_BUY_INS)
    proficiencies = _str_list(sheet.get("proficiencies", []), "The proficiencies")
    _require(all(code in sw.STATISTICS for code in proficiencies),
             f"proficiencies are statistics ({', '.join(sw.STATISTICS)})", sws.RULE_STATISTICS)
    achievements = sheet.get("achievements") or {}
    _require(isinstance(achievements, dict), "the achievements must be an object")
    _int(achievements.get("total", 0), "Total Achievements", 0, 99_999, sws.RULE_ACHIEVEMENTS)
    _str_list(achievements.get("milestones", []), "The milestones")
    feats = achievements.get("feats", {})
    _require(isinstance(feats, dict), "the feats must be an object")
    for name, times in feats.items():
        _int(times, f"The feat {name}", 1, 99_999, sws.RULE_ACHIEVEMENTS)
    _require(isinstance(sheet.get("human", False), bool), "'human' must be true or false")
    for key in ("species", "field_role", "subrole", "foible"):
        _require(isinstance(sheet.get(key, ""), str), f"{key!r} must be text")
    _str_list(sheet.get("additional_field_roles", []), "The additional field roles")


def _check_shattered_world_campaign(data: Mapping[str, Any]) -> None:
    rows = data.get("die_steps") or []
    _require(isinstance(rows, list) and all(isinstance(r, dict) for r in rows),
             "the die steps must be a list of rows")
    if rows:
        steps = []
        for row in rows:
            for key in ("action_die", "field_role_die", "cost"):
                _require(_is_int(row.get(key)), f"a die step needs a whole-number {key!r}")
            steps.append(sw.DieStep(row["action_die"], row["field_role_die"], row["cost"],
                                    str(row.get("notes", ""))))
        sw.check_die_steps(steps)
    custom = data.get("custom_buy_ins", [])
    _require(isinstance(custom, list), "the custom buy-ins must be a list")
    for entry in custom:
        _require(isinstance(entry, dict) and isinstance(entry.get("name"), str)
                 and isinstance(entry.get("cost"), str),
                 f"a custom buy-in needs a name and a cost: {entry!r}")
        sw.parse_cost(entry["cost"])


_SHEET_CHECKS: dict[str, Callable[[Mapping[str, Any], Campaign], None]] = {
    "shahquest": _check_shahquest,
    "genesys": _check_genesys,
    "three_d6": _check_three_d6,
    "shattered_world": _check_shattered_world,
}

_CAMPAIGN_CHECKS: dict[str, Callable[[Mapping[str, Any]], None]] = {
    "shahquest": _check_shahquest_campaign,
    "genesys": _check_genesys_campaign,
    "three_d6": _check_three_d6_campaign,
    "shattered_world": _check_shattered_world_campaign,
}

# Database ids some systems keep inside their JSON data: the import maps them like any other
# reference (system slug -> paths of roll ids in Campaign.system_data). Shahquest's dashboard
# links its last general-danger roll by id (characters/systems/shahquest_tension.py).
CAMPAIGN_ROLL_IDS: dict[str, tuple[tuple[str, str], ...]] = {
    "shahquest": (("last_danger", "roll_id"),),
}
