"""Shahquest's sheet: features as step dice, plot points, stress and trauma, the dice pool.

The rules live in :mod:`rulesets.shahquest` (cited as "Shahquest wiki, <section>", the seed
000, ``000_f80b8c0f83e34825.txt``); this module reads and writes them on a sheet, and reads
a sheet into a dice pool (:func:`build_pool`) or a GM's request (:func:`request_data`). The
rest of the package builds on it: its forms (:mod:`systems.shahquest.forms`), its actions
(:mod:`systems.shahquest.actions`), its checks (:mod:`systems.shahquest.checks`) and the
system (:mod:`systems.shahquest.system`). Names with a leading underscore are the package's
own, not the module's.

The sheet (``Character.sheet``)::

    {"features": [
        {"type": "affiliation", "name": "Solo", "die": 8, "count": 1},
        {"type": "attribute", "name": "Coordination", "die": 10, "count": 1},
        {"type": "skill", "name": "Physical", "die": 8, "count": 1,
         "specializations": [{"name": "Athletics", "use": "spread"}]},
        {"type": "quirk", "name": "I've got your back", "die": 8, "count": 1},
        {"type": "resource", "name": "Grappling hook", "die": 6, "count": 1},
        {"type": "power_set", "name": "Shadow step", "die": 8, "count": 1,
         "power_set": "Thief's luck"},
        {"type": "sfx", "name": "Vanish", "die": None, "count": 0,
         "power_set": "Thief's luck", "text": "Spend a plot point to ..."},
        {"type": "limit", "name": "Light", "die": None, "count": 0,
         "power_set": "Thief's luck", "text": "Earn a plot point when ..."},
     ],
     "plot_points": 1,
     "stress": StressTrack.as_dict(),
     "trauma_recovery": {"physical": "2026-05-08"}}

``stress_taken`` (absent but just after a stress effect is taken) is that effect,
``{"kind": "physical", "die": 6, "before": StressTrack.as_dict()}``, whose type a plot point
may still change (:func:`stress_taken`). ``next_roll`` (absent but while one waits) is
``{"push_die": true, "step_up": true}`` (either key alone): a stepped up push die, and a step
up of one die of the player's choice, each bought on a GM's opportunity, for the next roll
(:func:`next_roll_push_die`, :func:`next_roll_step_up`). ``trauma_recovery`` (absent on
older sheets) keeps, per trauma type, the first day of the next attempt to recover from it
(ISO date): set by each attempt recorded (:func:`_record_trauma_attempt`), dropped with the
trauma.

Special effects and limits are text (the seed has no catalogue); they carry no die. Feature
names are free text (the seed lists none) without a colon (it separates the XP ledger's
keys); the dice are checked by the engine. A feature renamed after creation keeps, in
``ledger_name``, the name its XP ledger keys spell (:func:`ledger_name`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from characters.models import Character

SLUG = "shahquest"
STARTING_PLOT_POINTS = 1
"""**Decision**: a new character starts with one plot point (the seed gives no number; the
Cortex games it derives from start each session with one)."""

MAX_PLOT_POINTS = 99
"""A typing-mistake guard, not a rule."""

TYPE_LABELS: dict[str, str] = {
    "affiliation": "Affiliations",
    "attribute": "Attributes",
    "skill": "Skills",
    "quirk": "Quirks",
    "resource": "Resources",
    "power_set": "Power sets",
}
"""The sheet's feature types in the order the sheet shows them (Shahquest wiki, Feature
Types); special effects and limits are shown under their power set."""

TEXT_TYPES: tuple[str, ...] = ("sfx", "limit")
"""Power-set entries that are text, not dice: special effects and limits."""

USE_LABELS = {"step_up": "steps up", "spread": "spreads"}

RULE_PLOT_POINTS = "Shahquest wiki, Plot Points"
RULE_STRESS_OUT = "Shahquest wiki, Stressing Out and Trauma"
RULE_FEATURES = "Shahquest wiki, Feature Types"
RULE_POOLS = "Shahquest wiki, Dice Pools"

RULE_STRESS = "Shahquest wiki, Stress and Trauma"
RULE_ACTIVATE_OPPORTUNITY = "Shahquest wiki, Activate Opportunity die"

STRESS_TAKEN = "stress_taken"
"""The sheet's key for the stress effect just taken (:func:`stress_taken`)."""

NEXT_ROLL = "next_roll"
"""The sheet's key for what the next roll gets from a GM's opportunity activated
(:func:`next_roll_push_die`, :func:`next_roll_step_up`)."""

NEXT_ROLL_REWARDS = ("push_die", "step_up")
"""What may wait in ``sheet["next_roll"]``, each at most once (Shahquest wiki, Activate
Opportunity die: "add a Stepped Up Push or Step Up any one die in his Pool to his next
action or reaction")."""

TRAUMA_RECOVERY = "trauma_recovery"
"""The sheet's key for the next day each trauma type may be recovered
(:func:`trauma_recovery`)."""


# --- reading the sheet -----------------------------------------------------------------------


def features(character: Character) -> list[dict[str, Any]]:
    """The sheet's feature entries (dicts of the shape in the module docstring)."""
    return list(character.sheet.get("features", []))


def features_key(character: Character) -> str:
    """A short fingerprint of the sheet's features in their order (type and name), which
    the roll dialog and a GM's request carry: they name features by position, so a feature
    added, renamed or removed since they were drawn must refuse them rather than roll the
    feature that moved into the place (a 16-character hex string)."""
    names = [[entry.get("type"), entry.get("name")] for entry in features(character)]
    return hashlib.sha256(json.dumps(names).encode()).hexdigest()[:16]


def plot_points(character: Character) -> int:
    """The character's plot points (0 on a sheet without the key)."""
    return int(character.sheet.get("plot_points", 0))


def stress_track(character: Character) -> sq.StressTrack:
    """The sheet's stress and trauma as the engine's :class:`rulesets.shahquest.StressTrack`
    (an empty track on a sheet without one). Raises RuleError for a corrupt stored track."""
    return _stress_of(character.sheet)


def _stress_of(sheet: Mapping[str, Any]) -> sq.StressTrack:
    data = sheet.get("stress")
    return sq.StressTrack.from_dict(data) if data else sq.StressTrack()


def _set_track(character: Character, track: sq.StressTrack, *,
               taken: Mapping[str, Any] | None = None) -> None:
    """Write ``track`` on the sheet; ``taken`` (``{"kind", "die", "before"}``) is the stress
    effect just taken, whose type a plot point may still change (:func:`stress_taken`): any
    other change of the track ends that chance."""
    sheet = {**character.sheet, "stress": track.as_dict()}
    sheet.pop(STRESS_TAKEN, None)
    if taken is not None:
        sheet[STRESS_TAKEN] = dict(taken)
    character.sheet = sheet


def stress_taken(sheet: Mapping[str, Any]) -> tuple[str, int, sq.StressTrack] | None:
    """The stress effect just taken, whose type a plot point may change (Shahquest wiki,
    Change Stress Type): ``(kind, effect die, the track before it)``, or None when the last
    change of the track was something else.

    Raises:
        RuleError: a stored value of another shape (Shahquest wiki, Stress and Trauma).
    """
    taken = sheet.get(STRESS_TAKEN)
    if taken is None:
        return None
    if not (isinstance(taken, Mapping) and taken.get("kind") in sq.STRESS_TYPES
            and taken.get("die") in STEP_DICE and isinstance(taken.get("before"), Mapping)):
        raise RuleError(f"the stored stress just taken is not readable: {taken!r}",
                        RULE_STRESS)
    return taken["kind"], taken["die"], sq.StressTrack.from_dict(taken["before"])


def trauma_recovery(sheet: Mapping[str, Any]) -> dict[str, date]:
    """The first day of the next attempt to recover from each trauma type that waits for one
    (``sheet["trauma_recovery"]``), e.g. ``{"physical": date(2026, 5, 8)}``; ``{}`` on a
    sheet without the key.

    Raises:
        RuleError: a stored value that is not a stress type and an ISO date (Shahquest wiki,
            Stressing Out and Trauma).
    """
    stored = sheet.get(TRAUMA_RECOVERY) or {}
    if not isinstance(stored, Mapping):
        raise RuleError(f"the stored trauma recovery days are not readable: {stored!r}",
                        RULE_STRESS_OUT)
    days = {}
    for kind, day in stored.items():
        try:
            days[kind] = date.fromisoformat(day) if kind in sq.STRESS_TYPES else None
        except (TypeError, ValueError):
            days[kind] = None
        if days[kind] is None:
            raise RuleError(f"the stored next {kind} trauma recovery is not a day: {day!r}",
                            RULE_STRESS_OUT)
    return {kind: day for kind, day in days.items() if day is not None}


def _record_trauma_attempt(character: Character, kind: str, die: int, track: sq.StressTrack,
                           on: date) -> None:
    """Keep on the sheet when ``kind`` trauma may next be recovered after an attempt made
    ``on`` that day against a d``die`` trauma (:func:`rulesets.shahquest.
    next_trauma_recovery`), or forget the day when ``track`` (after the attempt) holds no
    more trauma of that type."""
    days = {k: d.isoformat() for k, d in trauma_recovery(character.sheet).items() if k != kind}
    if track.line(kind).trauma is not None:
        days[kind] = sq.next_trauma_recovery(die, on).isoformat()
    character.sheet = {**character.sheet, TRAUMA_RECOVERY: days}


def _set_plot_points(character: Character, value: int) -> None:
    if value < 0:
        raise RuleError(f"{character.name} has {plot_points(character)} plot points; that "
                        f"would leave {value}.", RULE_PLOT_POINTS)
    if value > MAX_PLOT_POINTS:
        raise RuleError(f"{MAX_PLOT_POINTS} plot points is the most a sheet holds.",
                        RULE_PLOT_POINTS)
    character.sheet = {**character.sheet, "plot_points": value}


def feature_dice(entry: Mapping[str, Any]) -> str:
    """A feature's dice in notation: "d8", "2d8" (a spread Solo), "d8" for a quirk."""
    count = int(entry.get("count") or 1)
    return f"{count if count > 1 else ''}d{entry['die']}"


def _engine_feature(entry: Mapping[str, Any], **extra: Any) -> sq.Feature:
    return sq.Feature(type=entry["type"], name=entry["name"], die=entry["die"],
                      count=int(entry.get("count") or 1), **extra)


def ledger_name(entry: Mapping[str, Any]) -> str:
    """The name a feature's XP ledger keys spell (``skill:<this>``,
    ``specialization:<this>:<name>``): the name it had when first written, kept in
    ``ledger_name`` once it is renamed (:func:`~systems.shahquest.actions._feature_edit_apply`),
    so the purchases made under the old name still find it; its name otherwise."""
    return str(entry.get("ledger_name") or entry["name"])


def feature_key(entry: Mapping[str, Any]) -> str:
    """The XP ledger key of a feature's die: ``"<type>:<ledger name>"`` (:func:`ledger_name`)."""
    return f"{entry['type']}:{ledger_name(entry)}"


def _find(character: Character, kind: str, name: str) -> dict[str, Any]:
    """The feature of type ``kind`` whose ledger keys spell ``name`` (:func:`ledger_name`).
    Raises RuleError when the sheet has none."""
    for entry in features(character):
        if entry["type"] == kind and ledger_name(entry) == name:
            return entry
    raise RuleError(f"{character.name} has no {kind.replace('_', ' ')} called {name!r}.",
                    sq.ADVANCEMENT_RULE)


def _name_taken(character: Character, kind: str, name: str, *, but: int | None = None
                ) -> bool:
    """Whether a feature of type ``kind`` other than the one at index ``but`` is called
    ``name`` (case aside) or spells it in its ledger keys: "unique within their type"
    (docs/systems/shahquest.md), and no two features' purchases under one key."""
    wanted = name.casefold()
    return any(e["type"] == kind and i != but
               and wanted in (e["name"].casefold(), ledger_name(e).casefold())
               for i, e in enumerate(features(character)))


def _remove_feature(character: Character, index: int) -> None:
    """Take the feature at ``index`` off the sheet (in memory; the caller saves).

    Raises:
        RuleError: an affiliation (Shahquest wiki, Affiliations: "three Affiliations each
            character is ranked in"); the last attribute (**Decision**: attributes "are the
            core descriptors of the Character", Feature Types); the last power of a power
            set that still holds special effects or limits (they belong to a power set with
            a power).
    """
    entries = features(character)
    entry = entries[index]
    kind, name = entry["type"], entry["name"]
    if kind == "affiliation":
        raise RuleError(f"{name} stays: every character is ranked in the three affiliations "
                        "Solo, Partner and Gang.", "Shahquest wiki, Affiliations")
    if kind == "attribute" and sum(e["type"] == "attribute" for e in entries) == 1:
        raise RuleError(f"{name} is {character.name}'s last attribute: attributes are the core "
                        "descriptors of the character, and a sheet keeps at least one.",
                        RULE_FEATURES)
    if kind == "power_set":
        in_set = [e for e in entries if e.get("power_set") == entry.get("power_set")]
        if not any(e["type"] == "power_set" for e in in_set if e is not entry) and any(
                e["type"] in TEXT_TYPES for e in in_set):
            raise RuleError(f"{name} is the last power of {entry.get('power_set')}, which "
                            "still has special effects or limits: remove them first.",
                            RULE_FEATURES)
    del entries[index]
    character.sheet = {**character.sheet, "features": entries}


# --- writing the sheet -------------------------------------------------------------------------


def _set_specialization(character: Character, key: str, use: str | None) -> None:
    """Add (``use`` given) or remove (None) the specialization of ledger key
    ``specialization:<skill>:<name>``."""
    _, skill_name, spec = key.split(":", 2)
    entries = features(character)
    for index, entry in enumerate(entries):
        if entry["type"] == "skill" and ledger_name(entry) == skill_name:
            specs = [s for s in entry.get("specializations", []) if s["name"] != spec]
            if use is not None:
                specs.append({"name": spec, "use": use})
            entries[index] = {**entry, "specializations": specs}
            character.sheet = {**character.sheet, "features": entries}
            return
    raise RuleError(f"{character.name} has no skill called {skill_name!r}.",
                    sq.ADVANCEMENT_RULE)


# --- reading the sheet into a roll ----------------------------------------------------------


def readings_of(character: Character) -> sq.ShahquestReadings:
    """The table readings of the character's campaign (loaded with the character, as every
    caller here has it: no query), as the engine takes them (docs/systems/shahquest.md, Table
    readings)."""
    return sq.ShahquestReadings.from_values(character.campaign.readings, strict=False)


def build_pool(character: Character, data: Mapping[str, Any]) -> sq.DicePool:
    """The dice pool the roll form describes, from the character's sheet, under its
    campaign's table readings (:func:`readings_of`).

    A ticked specialization brings its skill, a quirk ticked "in the negative" brings the
    quirk as a d4, a stepped up push die waiting from a GM's opportunity joins
    (:func:`next_roll_push_die`), and a step up waiting from one (:func:`next_roll_step_up`)
    steps up the die ``data["step_up"]`` names ("feature:<index>", "stress:<kind>" or
    "asset"), steps before spreads (Shahquest wiki, Activate Opportunity die; Dice, Step Up,
    Step Down, and Spreads); one specialization per skill in a roll (the engine's
    :class:`rulesets.shahquest.Feature` takes one). **Decision:** a character stressed out
    "can't take any actions" (Shahquest wiki, Stressing Out and Trauma), so no pool is
    built for them until they recover.

    Raises:
        RuleError: stressed or taken out, two specializations of one skill, a pool costing
            more plot points than the character has, an illegal feature, or a step up with
            none waiting, of a die not in the pool or past d12.
    """
    track = stress_track(character)
    if track.taken_out or track.stressed_out:
        state = "taken out" if track.taken_out else "stressed out"
        raise RuleError(f"{character.name} is {state} and can't take any actions until "
                        "recovered.", RULE_STRESS_OUT)
    entries = features(character)
    chosen: dict[int, dict[str, Any]] = {}
    for index in data.get("feature") or ():
        chosen.setdefault(index, {})
    for value in data.get("specialization") or ():
        i, j = (int(part) for part in str(value).split(":"))
        extra = chosen.setdefault(i, {})
        if "specialization" in extra:
            raise RuleError(f"Use one specialization of {entries[i]['name']} per roll.",
                            RULE_POOLS)
        spec = entries[i]["specializations"][j]
        extra.update(specialization=spec["name"], specialization_use=spec["use"])
    for index in data.get("negative") or ():
        chosen.setdefault(index, {})["negative"] = True
    pool_features = [_engine_feature(entries[i], **chosen[i]) for i in sorted(chosen)]
    sources = [f"feature:{i}" for i in sorted(chosen)]
    for kind in data.get("own_stress") or ():
        die = track.line(kind).stress
        if die:
            pool_features.append(sq.Feature(type="stress", name=kind, die=die, own=True))
            sources.append(f"stress:{kind}")
    if data.get("asset_die"):
        pool_features.append(sq.Feature(type="asset", name=data.get("asset_name") or "Asset",
                                        die=data["asset_die"]))
        sources.append("asset")
    step_note = ""
    if data.get("step_up"):
        if not next_roll_step_up(character.sheet):
            raise RuleError("No step up from a GM's opportunity waits for this roll: spend a "
                            "plot point on the GM's opportunity first.",
                            RULE_ACTIVATE_OPPORTUNITY)
        step_note = _apply_step_up(data, pool_features, sources)
    pool = sq.build_pool(pool_features, push_die=bool(data.get("push_die")),
                         stepped_up_push_die=next_roll_push_die(character.sheet),
                         setting_die=data.get("setting_die"),
                         plot_points=plot_points(character), readings=readings_of(character))
    return replace(pool, notes=(*pool.notes, step_note)) if step_note else pool


def _next_roll(sheet: Mapping[str, Any]) -> dict[str, bool]:
    """What waits for the next roll, ``{"push_die": True}`` and/or ``{"step_up": True}``;
    ``{}`` for nothing.

    Raises:
        RuleError: a stored value of another shape (Shahquest wiki, Plot Points).
    """
    waiting = sheet.get(NEXT_ROLL) or {}
    if not (isinstance(waiting, Mapping) and set(waiting) <= set(NEXT_ROLL_REWARDS)
            and all(isinstance(flag, bool) for flag in waiting.values())):
        raise RuleError(f"the stored reward for the next roll is not readable: {waiting!r}",
                        RULE_PLOT_POINTS)
    return {key: True for key, flag in waiting.items() if flag}


def next_roll_push_die(sheet: Mapping[str, Any]) -> bool:
    """Whether a stepped up push die (d8), bought with a plot point on a GM's opportunity,
    waits for the character's next roll (Shahquest wiki, Activate Opportunity die).

    Raises:
        RuleError: a stored value of another shape (Shahquest wiki, Plot Points).
    """
    return _next_roll(sheet).get("push_die", False)


def next_roll_step_up(sheet: Mapping[str, Any]) -> bool:
    """Whether a step up of one die of the player's choice, bought with a plot point on a
    GM's opportunity, waits for the character's next roll (Shahquest wiki, Activate
    Opportunity die: "Step Up any one die in his Pool ... to his next action or reaction").

    Raises:
        RuleError: a stored value of another shape (Shahquest wiki, Plot Points).
    """
    return _next_roll(sheet).get("step_up", False)


def _set_next_roll(character: Character, reward: str, waiting: bool) -> None:
    """Keep (``waiting``) or use up one of :data:`NEXT_ROLL_REWARDS` on the sheet; the key
    goes when nothing waits."""
    rewards = {**_next_roll(character.sheet), reward: True}
    if not waiting:
        del rewards[reward]
    sheet = {**character.sheet}
    sheet.pop(NEXT_ROLL, None)
    if rewards:
        sheet[NEXT_ROLL] = rewards
    character.sheet = sheet


def _apply_step_up(data: Mapping[str, Any], pool_features: list[sq.Feature],
                   sources: list[str]) -> str:
    """Step up the feature of ``pool_features`` whose source (in ``sources``, the same
    order: "feature:<index>", "stress:<kind>", "asset") the roll form's ``step_up`` names,
    in place; returns the note for the pool ("" when none is named).

    Raises:
        RuleError: the named die is not in the pool.
    """
    chosen = data.get("step_up") or ""
    if not chosen:
        return ""
    if chosen not in sources:
        raise RuleError("The die the GM's opportunity steps up must be in the pool: tick it "
                        "first.", RULE_ACTIVATE_OPPORTUNITY)
    index = sources.index(chosen)
    feature = pool_features[index]
    before = feature.dice()[0]
    pool_features[index] = stepped = replace(feature, step_ups=feature.step_ups + 1)
    after = stepped.dice()[0]  # the engine refuses a step past d12, naming the rule
    return f"{feature.name} stepped up (d{before} → d{after}): paid for on the GM's opportunity"


def _named(character: Character, kind: str, name: str) -> tuple[int, dict[str, Any]]:
    """The index and entry of the character's feature of type ``kind`` named ``name``
    (case-insensitive). Raises RuleError naming what the sheet has instead; the message
    starts lower-case because the request service puts the character's name before it
    ("Demetri: no skill named 'Stealth'; their skills are Physical, Combat.")."""
    entries = features(character)
    for i, entry in enumerate(entries):
        if entry["type"] == kind and entry["name"].casefold() == name.casefold():
            return i, entry
    own = [e["name"] for e in entries if e["type"] == kind]
    has = f"their {kind}s are {', '.join(own)}" if own else f"they have no {kind}s"
    raise RuleError(f"no {kind} named {name!r}; {has}.", RULE_FEATURES)


def request_data(character: Character, cleaned_data: Mapping[str, Any]
                 ) -> tuple[dict[str, Any], str]:
    """The roll dialog's POST data answering the GM's request
    (:class:`~systems.shahquest.forms.RequestForm`'s
    cleaned data) for ``character``: ``{"feature": [indices], "specialization": ["i:j"],
    "setting_die": size}``, and the request in words ("Coordination + Physical (Athletics),
    Solo, setting die d6").

    Raises:
        RuleError: the character has no attribute, skill, or specialization of that skill by
            that name (Shahquest wiki, Feature Types).
    """
    chosen: list[int] = []
    words: list[str] = []
    specialization: list[str] = []
    if cleaned_data.get("attribute"):
        index, entry = _named(character, "attribute", cleaned_data["attribute"])
        chosen.append(index)
        words.append(entry["name"])
    if cleaned_data.get("skill"):
        index, entry = _named(character, "skill", cleaned_data["skill"])
        chosen.append(index)
        word = entry["name"]
        wanted = cleaned_data.get("specialization") or ""
        if wanted:
            specs = entry.get("specializations", [])
            found = [j for j, s in enumerate(specs) if s["name"].casefold() == wanted.casefold()]
            if not found:
                own = ", ".join(s["name"] for s in specs) or "none"
                raise RuleError(f"no specialization named {wanted!r} in {entry['name']} "
                                f"(theirs: {own}).", RULE_FEATURES)
            specialization.append(f"{index}:{found[0]}")
            word += f" ({specs[found[0]]['name']})"
        words.append(word)
    if cleaned_data.get("affiliation"):
        index, entry = _named(character, "affiliation", cleaned_data["affiliation"])
        chosen.append(index)
        words.append(f"{entry['name']} {feature_dice(entry)}")
    text = " + ".join(words)
    data: dict[str, Any] = {"feature": chosen, "specialization": specialization,
                            "setting_die": cleaned_data.get("setting_die"),
                            "features_seen": features_key(character)}
    if cleaned_data.get("setting_die"):
        text += f", setting die d{cleaned_data['setting_die']}"
    return data, text

