"""Shahquest's sheet: features as step dice, plot points, stress and trauma, the dice pool.

The rules live in :mod:`rulesets.shahquest` (cited as "Shahquest wiki, <section>", the seed
``seeds/000_f80b8c0f83e34825.txt``); this module lays them on a sheet. The tension pool on
the GM's dashboard is :mod:`characters.systems.shahquest_tension`.

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
     "stress": StressTrack.as_dict()}

Special effects and limits are text (the seed has no catalogue); they carry no die. Feature
names are free text (the seed lists none) without a colon (it separates the XP ledger's
keys); the dice are checked by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from characters.systems import (
    Advance,
    RollAction,
    RolledResult,
    SheetSystem,
    TrackAction,
    percent_text,
    require,
    stored_int,
)
from characters.systems import shahquest_tension as tension
from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng

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

ROWS = {"attribute": 6, "skill": 6, "quirk": 3, "resource": 3, "power": 4, "extra": 4}
"""Rows of the creation form per kind (blank rows are ignored)."""

SPEC_SLOTS = 2
"""Specializations per skill row on the creation form (more are bought with XP)."""

DIE_CHOICES = [(size, f"d{size}") for size in STEP_DICE]
AFFILIATION_DIE_CHOICES = [(size, f"d{size}") for size in sq.AFFILIATION_DICE]

RULE_PLOT_POINTS = "Shahquest wiki, Plot Points"
RULE_STRESS_OUT = "Shahquest wiki, Stressing Out and Trauma"
RULE_FEATURES = "Shahquest wiki, Feature Types"
RULE_POOLS = "Shahquest wiki, Dice Pools"


# --- reading the sheet -----------------------------------------------------------------------


def features(character: Character) -> list[dict[str, Any]]:
    """The sheet's feature entries (dicts of the shape in the module docstring)."""
    return list(character.sheet.get("features", []))


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


def _set_track(character: Character, track: sq.StressTrack) -> None:
    character.sheet = {**character.sheet, "stress": track.as_dict()}


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


# --- creation --------------------------------------------------------------------------------


def _check_name(value: str, what: str) -> str:
    value = " ".join(value.split())
    if ":" in value:
        raise forms.ValidationError(f"{what} {value!r}: a name cannot contain a colon.")
    return value


class CreationForm(forms.Form):
    """A Shahquest character on one page: name, affiliations, attributes, skills with their
    specializations, quirks, resources and power sets (with special effects and limits as
    text). Every rule is checked in :meth:`clean`, the first broken one named; the valid
    sheet is ``cleaned_data["sheet"]``. The seed sets no budgets, so any number of features
    (up to the rows shown) at any die is allowed; see docs/systems/shahquest.md."""

    name = forms.CharField(max_length=80)
    concept = forms.CharField(max_length=200, required=False)
    solo = forms.TypedChoiceField(choices=DIE_CHOICES, coerce=int, initial=8, label="Solo")
    solo_count = forms.TypedChoiceField(
        choices=[(1, "One die (most characters)"), (2, "Spread: 2 dice (large creature)"),
                 (3, "Spread: 3 dice (titanic creature)")],
        coerce=int, initial=1, label="Solo dice",
        help_text="Giants spread their Solo die (2d8); Shaluum roll 3d12.")
    partner = forms.TypedChoiceField(choices=AFFILIATION_DIE_CHOICES, coerce=int, initial=6,
                                     label="Partner")
    gang = forms.TypedChoiceField(choices=AFFILIATION_DIE_CHOICES, coerce=int, initial=4,
                                  label="Gang")

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        optional = {"required": False}
        for i in range(1, ROWS["attribute"] + 1):
            self.fields[f"attribute_{i}_name"] = forms.CharField(
                max_length=60, label=f"Attribute {i}", **optional)
            self.fields[f"attribute_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=6, label=f"Attribute {i} die",
                **optional)
        for i in range(1, ROWS["skill"] + 1):
            self.fields[f"skill_{i}_name"] = forms.CharField(
                max_length=60, label=f"Skill {i}", **optional)
            self.fields[f"skill_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=6, label=f"Skill {i} die", **optional)
            for j in range(1, SPEC_SLOTS + 1):
                self.fields[f"skill_{i}_spec_{j}_name"] = forms.CharField(
                    max_length=60, label=f"Skill {i} specialization {j}", **optional)
                self.fields[f"skill_{i}_spec_{j}_use"] = forms.ChoiceField(
                    choices=[("spread", "spreads the skill"), ("step_up", "steps it up")],
                    initial="spread", label=f"Skill {i} specialization {j} use", **optional)
        for i in range(1, ROWS["quirk"] + 1):
            self.fields[f"quirk_{i}_name"] = forms.CharField(
                max_length=80, label=f"Quirk {i} (d8)", **optional)
        for i in range(1, ROWS["resource"] + 1):
            self.fields[f"resource_{i}_name"] = forms.CharField(
                max_length=60, label=f"Resource {i}", **optional)
            self.fields[f"resource_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=6, label=f"Resource {i} die",
                **optional)
        for i in range(1, ROWS["power"] + 1):
            self.fields[f"power_{i}_set"] = forms.CharField(
                max_length=60, label=f"Power {i}: power set", **optional)
            self.fields[f"power_{i}_name"] = forms.CharField(
                max_length=60, label=f"Power {i}", **optional)
            self.fields[f"power_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=8, label=f"Power {i} die", **optional)
        for i in range(1, ROWS["extra"] + 1):
            self.fields[f"extra_{i}_set"] = forms.CharField(
                max_length=60, label=f"Entry {i}: power set", **optional)
            self.fields[f"extra_{i}_kind"] = forms.ChoiceField(
                choices=[("sfx", "Special effect"), ("limit", "Limit")], initial="sfx",
                label=f"Entry {i}: kind", **optional)
            self.fields[f"extra_{i}_name"] = forms.CharField(
                max_length=60, label=f"Entry {i}: name", **optional)
            self.fields[f"extra_{i}_text"] = forms.CharField(
                max_length=500, label=f"Entry {i}: what it does", widget=forms.Textarea(
                    attrs={"rows": 2}), **optional)

    def rows(self, kind: str) -> list[list[forms.BoundField]]:
        """The bound fields of each row of ``kind`` (for the template), e.g. for "skill"
        ``[[name, die, spec1 name, spec1 use, spec2 name, spec2 use], ...]``."""
        out = []
        for i in range(1, ROWS[kind] + 1):
            prefix = f"{kind}_{i}_"
            out.append([self[name] for name in self.fields if name.startswith(prefix)])
        return out

    @property
    def attribute_rows(self) -> list[list[forms.BoundField]]:
        """:meth:`rows` of attributes."""
        return self.rows("attribute")

    @property
    def skill_rows(self) -> list[list[forms.BoundField]]:
        """:meth:`rows` of skills."""
        return self.rows("skill")

    @property
    def quirk_rows(self) -> list[list[forms.BoundField]]:
        """:meth:`rows` of quirks."""
        return self.rows("quirk")

    @property
    def resource_rows(self) -> list[list[forms.BoundField]]:
        """:meth:`rows` of resources."""
        return self.rows("resource")

    @property
    def power_rows(self) -> list[list[forms.BoundField]]:
        """:meth:`rows` of powers."""
        return self.rows("power")

    @property
    def extra_rows(self) -> list[list[forms.BoundField]]:
        """:meth:`rows` of special effects and limits."""
        return self.rows("extra")

    def clean(self) -> dict[str, Any]:
        """The fields' data plus ``"sheet"``, the checked sheet. Raises ValidationError naming
        the first broken rule (a RuleError of the engine becomes one)."""
        data = super().clean()
        if self.errors:
            return data
        try:
            data["sheet"] = self._sheet(data)
        except RuleError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data

    def _sheet(self, data: dict[str, Any]) -> dict[str, Any]:
        """Build and check the sheet; raise ValidationError or RuleError naming the rule."""
        sq.validate_affiliations(data["solo"], data["partner"], data["gang"],
                                 solo_count=data["solo_count"])
        entries: list[dict[str, Any]] = [
            {"type": "affiliation", "name": "Solo", "die": data["solo"],
             "count": data["solo_count"]},
            {"type": "affiliation", "name": "Partner", "die": data["partner"], "count": 1},
            {"type": "affiliation", "name": "Gang", "die": data["gang"], "count": 1},
        ]
        seen: dict[tuple[str, str], str] = {}

        def named(kind: str, raw: str, what: str) -> str:
            name = _check_name(raw or "", what)
            if name:
                key = (kind, name.casefold())
                if key in seen:
                    raise forms.ValidationError(
                        f"{what} {name!r} is on the sheet twice; give each its own name.")
                seen[key] = name
            return name

        def die(field: str, name: str) -> int:
            if data.get(field) in (None, ""):
                raise forms.ValidationError(f"Give {name} a die (d4 to d12).")
            return int(data[field])

        for i in range(1, ROWS["attribute"] + 1):
            name = named("attribute", data[f"attribute_{i}_name"], "The attribute")
            if name:
                entries.append({"type": "attribute", "name": name,
                                "die": die(f"attribute_{i}_die", name), "count": 1})
        if not any(e["type"] == "attribute" for e in entries):
            raise forms.ValidationError(
                "Name at least one attribute: attributes are the core descriptors of the "
                f"character ({RULE_FEATURES}).")
        for i in range(1, ROWS["skill"] + 1):
            name = named("skill", data[f"skill_{i}_name"], "The skill")
            specs = []
            for j in range(1, SPEC_SLOTS + 1):
                spec = named(f"spec:{name}", data[f"skill_{i}_spec_{j}_name"],
                             f"The specialization of {name or 'an unnamed skill'}")
                if spec:
                    if not name:
                        raise forms.ValidationError(
                            f"The specialization {spec!r} needs its skill: name the skill "
                            f"in row {i}.")
                    specs.append({"name": spec,
                                  "use": data[f"skill_{i}_spec_{j}_use"] or "spread"})
            if name:
                entry = {"type": "skill", "name": name, "die": die(f"skill_{i}_die", name),
                         "count": 1, "specializations": specs}
                for spec_entry in specs:
                    sq.check_feature(_engine_feature(
                        entry, specialization=spec_entry["name"],
                        specialization_use=spec_entry["use"]))
                entries.append(entry)
        for i in range(1, ROWS["quirk"] + 1):
            name = named("quirk", data[f"quirk_{i}_name"], "The quirk")
            if name:
                entries.append({"type": "quirk", "name": name, "die": sq.QUIRK_DIE,
                                "count": 1})
        for i in range(1, ROWS["resource"] + 1):
            name = named("resource", data[f"resource_{i}_name"], "The resource")
            if name:
                entries.append({"type": "resource", "name": name,
                                "die": die(f"resource_{i}_die", name), "count": 1})
        sets: set[str] = set()
        for i in range(1, ROWS["power"] + 1):
            name = named("power_set", data[f"power_{i}_name"], "The power")
            power_set = _check_name(data[f"power_{i}_set"] or "", "The power set")
            if power_set and not name:
                raise forms.ValidationError(
                    f"The power set {power_set!r} in row {i} needs a power with a die.")
            if name:
                if not power_set:
                    raise forms.ValidationError(
                        f"The power {name!r} belongs to a power set: name it.")
                sets.add(power_set.casefold())
                entries.append({"type": "power_set", "name": name,
                                "die": die(f"power_{i}_die", name), "count": 1,
                                "power_set": power_set})
        for i in range(1, ROWS["extra"] + 1):
            kind = data[f"extra_{i}_kind"] or "sfx"
            what = "The special effect" if kind == "sfx" else "The limit"
            name = named(kind, data[f"extra_{i}_name"], what)
            power_set = _check_name(data[f"extra_{i}_set"] or "", "The power set")
            text = (data[f"extra_{i}_text"] or "").strip()
            if not name:
                if power_set or text:
                    raise forms.ValidationError(f"Entry {i} of the power sets needs a name.")
                continue
            if power_set.casefold() not in sets:
                raise forms.ValidationError(
                    f"{what} {name!r} belongs to a power set with a power on this sheet, "
                    f"not {power_set or '(none)'!r}.")
            entries.append({"type": kind, "name": name, "die": None, "count": 0,
                            "power_set": power_set, "text": text})
        for entry in entries:
            if entry["type"] in sq.FEATURE_TYPES:
                sq.check_feature(_engine_feature(entry))
        return {"features": entries, "plot_points": STARTING_PLOT_POINTS,
                "stress": sq.StressTrack().as_dict()}


# --- in-place changes (TrackActions) -----------------------------------------------------------


class PlotPointForm(forms.Form):
    """+1 or -1 plot point."""

    change = forms.TypedChoiceField(choices=[(1, "+1"), (-1, "-1")], coerce=int)


def _plot_points_apply(character: Character, data: dict[str, Any], by: AbstractBaseUser
                       ) -> str:
    """``plot-points``: one plot point gained or spent (Shahquest wiki, Plot Points). Raises
    RuleError below 0 or past :data:`MAX_PLOT_POINTS`."""
    before = plot_points(character)
    _set_plot_points(character, before + data["change"])
    verb = "Gained" if data["change"] > 0 else "Spent"
    return f"{verb} a plot point: {plot_points(character)} now."


class StressForm(forms.Form):
    """A stress type and an effect die (taking stress, recovering stress or trauma)."""

    kind = forms.ChoiceField(choices=[(k, k.capitalize()) for k in sq.STRESS_TYPES],
                             label="Type")
    die = forms.TypedChoiceField(choices=DIE_CHOICES, coerce=int, label="Effect die")


def _stress_apply(change: str) -> Callable[[Character, dict[str, Any], AbstractBaseUser], str]:
    """The apply of ``stress-take`` (``change`` "take"), ``stress-recover`` ("recover") or
    ``trauma-recover`` (any other): the engine's take_stress, recover_stress or
    recover_trauma with the form's type and effect die (Shahquest wiki, Stress and Trauma;
    Stressing Out and Trauma). The engine's RuleError refuses."""
    def apply(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
        track = stress_track(character)
        kind, die = data["kind"], data["die"]
        if change == "take":
            track = sq.take_stress(track, kind, die)
            done = f"Took a d{die} {kind} stress effect"
        elif change == "recover":
            track = sq.recover_stress(track, kind, die)
            done = f"Recovered {kind} stress with a d{die} effect"
        else:
            track = sq.recover_trauma(track, kind, die)
            done = f"Recovered {kind} trauma with a d{die} effect"
        _set_track(character, track)
        return f"{done}. {track.describe()}."
    return apply


DOWNTIME_CHOICES = [
    *[(f"stress:{k}", f"Step down {k} stress twice") for k in sq.STRESS_TYPES],
    *[(f"stress:{a},{b}", f"Step down {a} and {b} stress")
      for i, a in enumerate(sq.STRESS_TYPES) for b in sq.STRESS_TYPES[i + 1:]],
    *[(f"trauma:{k}", f"Step down {k} trauma") for k in sq.STRESS_TYPES],
]


class DowntimeForm(forms.Form):
    """What one downtime plot point steps down (Shahquest wiki, During Downtime...)."""

    option = forms.ChoiceField(choices=DOWNTIME_CHOICES, label="Downtime: spend a plot point to")


def _downtime_apply(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
    """``downtime``: spend one plot point to step down stress twice (one type or two) or a
    trauma once (Shahquest wiki, During Downtime, you may spend a Plot Point to...). Raises
    RuleError without a plot point."""
    what, _, kinds = data["option"].partition(":")
    if plot_points(character) < 1:
        raise RuleError("Downtime recovery costs a plot point; there is none left.",
                        "Shahquest wiki, During Downtime, you may spend a Plot Point to\u2026")
    track = stress_track(character)
    if what == "trauma":
        track = sq.downtime_recovery(track, trauma=kinds)
    else:
        track = sq.downtime_recovery(track, stress=tuple(kinds.split(",")))
    _set_track(character, track)
    _set_plot_points(character, plot_points(character) - 1)
    return f"Spent a plot point in downtime. {track.describe()}."


class SpecializationForm(forms.Form):
    """Learn a new specialization of one of the character's skills, for XP."""

    skill = forms.ChoiceField(label="Skill")
    name = forms.CharField(max_length=60, label="Specialization")
    use = forms.ChoiceField(choices=[("spread", "Spreads the skill"), ("step_up", "Steps it up")],
                            label="In a pool it")
    expected_cost = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        skills = [e["name"] for e in features(character) if e["type"] == "skill"]
        self.fields["skill"].choices = [(n, n) for n in skills]

    def clean_name(self) -> str:
        """The name with its spaces tidied; ValidationError when empty or with a colon."""
        name = _check_name(self.cleaned_data["name"], "The specialization")
        if not name:
            raise forms.ValidationError("Name the specialization.")
        return name


def _find(character: Character, kind: str, name: str) -> dict[str, Any]:
    """The feature of type ``kind`` named exactly ``name`` (a ledger key's spelling). Raises
    RuleError when the sheet has none."""
    for entry in features(character):
        if entry["type"] == kind and entry["name"] == name:
            return entry
    raise RuleError(f"{character.name} has no {kind.replace('_', ' ')} called {name!r}.",
                    sq.ADVANCEMENT_RULE)


def _specialization_apply(character: Character, data: dict[str, Any], by: AbstractBaseUser
                          ) -> str:
    """``specialization-learn``: add a named specialization to a skill and spend
    :data:`rulesets.shahquest.SPECIALIZATION_COST` XP in the ledger (the advancement house
    rule, docs/systems/shahquest.md). Raises RuleError: the price changed, a repeated name,
    an illegal specialization, or too little XP."""
    from characters.models import XpEntry
    from characters.services import ledger_append  # services imports the systems

    cost = sq.SPECIALIZATION_COST
    if data.get("expected_cost") is not None and data["expected_cost"] != cost:
        raise RuleError(f"The price changed to {cost} XP since you looked; check it and "
                        "confirm again.", sq.ADVANCEMENT_RULE)
    skill = _find(character, "skill", data["skill"])
    if any(s["name"].casefold() == data["name"].casefold()
           for s in skill.get("specializations", [])):
        raise RuleError(f"{skill['name']} already has the specialization {data['name']}.",
                        sq.ADVANCEMENT_RULE)
    sq.check_feature(_engine_feature(skill, specialization=data["name"],
                                     specialization_use=data["use"]))
    if character.xp_available < cost:
        raise RuleError(f"A new specialization costs {cost} XP; you have "
                        f"{character.xp_available} available.", sq.ADVANCEMENT_RULE)
    key = f"specialization:{skill['name']}:{data['name']}"
    _set_specialization(character, key, data["use"])
    label = f"{skill['name']}: new specialization {data['name']} ({USE_LABELS[data['use']]})"
    ledger_append(character, kind=XpEntry.Kind.SPEND, available_delta=-cost, trait_key=key,
                  rank_from=0, rank_to=1, reason=label, created_by=by)
    return f"Learned {data['name']} for {cost} XP."


def _set_specialization(character: Character, key: str, use: str | None) -> None:
    """Add (``use`` given) or remove (None) the specialization of ledger key
    ``specialization:<skill>:<name>``."""
    _, skill_name, spec = key.split(":", 2)
    entries = features(character)
    for index, entry in enumerate(entries):
        if entry["type"] == "skill" and entry["name"] == skill_name:
            specs = [s for s in entry.get("specializations", []) if s["name"] != spec]
            if use is not None:
                specs.append({"name": spec, "use": use})
            entries[index] = {**entry, "specializations": specs}
            character.sheet = {**character.sheet, "features": entries}
            return
    raise RuleError(f"{character.name} has no skill called {skill_name!r}.",
                    sq.ADVANCEMENT_RULE)


ACTIONS: dict[str, TrackAction] = {
    "plot-points": TrackAction(form=PlotPointForm, apply=_plot_points_apply,
                               partial="sheet-tracks"),
    "stress-take": TrackAction(form=StressForm, apply=_stress_apply("take"),
                               partial="sheet-tracks"),
    "stress-recover": TrackAction(form=StressForm, apply=_stress_apply("recover"),
                                  partial="sheet-tracks"),
    "trauma-recover": TrackAction(form=StressForm, apply=_stress_apply("trauma"),
                                  partial="sheet-tracks"),
    "downtime": TrackAction(form=DowntimeForm, apply=_downtime_apply, partial="sheet-tracks"),
    "specialization-learn": TrackAction(form=SpecializationForm, apply=_specialization_apply,
                                        partial="sheet-features", needs_character=True),
}
"""The sheet's in-place changes, by the ``action`` of ``characters:character-action``."""


# --- rolling -----------------------------------------------------------------------------------


class RollForm(forms.Form):
    """The roll dialog: features ticked (one per type free, each more a plot point), a
    specialization per skill, quirks in the negative, the character's own stress, an asset,
    the push die and the GM's setting die (Shahquest wiki, Dice Pools; Plot Points)."""

    feature = forms.TypedMultipleChoiceField(coerce=int, required=False,
                                             widget=forms.CheckboxSelectMultiple,
                                             label="Features")
    specialization = forms.MultipleChoiceField(required=False,
                                               widget=forms.CheckboxSelectMultiple)
    negative = forms.TypedMultipleChoiceField(coerce=int, required=False,
                                              widget=forms.CheckboxSelectMultiple)
    own_stress = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple,
                                           label="Use your own stress")
    asset_die = forms.TypedChoiceField(choices=[("", "None"), *DIE_CHOICES], coerce=int,
                                       empty_value=None, required=False, label="Asset die")
    asset_name = forms.CharField(max_length=60, required=False, label="Asset")
    push_die = forms.BooleanField(required=False, label="Push die (d6, 1 plot point)")
    setting_die = forms.TypedChoiceField(choices=[("", "None"), *DIE_CHOICES], coerce=int,
                                         empty_value=None, required=False,
                                         label="GM's setting die")

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.character = character
        entries = features(character)
        self.fields["feature"].choices = [
            (i, f"{e['name']} {feature_dice(e)}") for i, e in enumerate(entries)
            if e["type"] in sq.FEATURE_TYPES]
        self.fields["specialization"].choices = [
            (f"{i}:{j}", f"{s['name']} ({USE_LABELS.get(s['use'], s['use'])} {e['name']})")
            for i, e in enumerate(entries) if e["type"] == "skill"
            for j, s in enumerate(e.get("specializations", []))]
        self.fields["negative"].choices = [
            (i, f"{e['name']} in the negative (d4, earns a plot point)")
            for i, e in enumerate(entries) if e["type"] == "quirk"]
        track = stress_track(character)
        self.fields["own_stress"].choices = [
            (k, f"Own {k} stress d{track.line(k).stress} (1 plot point; it steps up after)")
            for k in sq.STRESS_TYPES if track.line(k).stress]

    def groups(self) -> list[dict[str, Any]]:
        """The dialog's layout: per feature type, its checkboxes with each skill's
        specializations and each quirk's "in the negative" under it."""
        entries = features(self.character)
        boxes = {int(w.data["value"]): w for w in self["feature"]}
        specs: dict[int, list[Any]] = {}
        for w in self["specialization"]:
            specs.setdefault(int(str(w.data["value"]).split(":")[0]), []).append(w)
        negatives = {int(w.data["value"]): w for w in self["negative"]}
        out = []
        for kind, title in TYPE_LABELS.items():
            items = [{"box": boxes[i], "specs": specs.get(i, []), "negative": negatives.get(i)}
                     for i, e in enumerate(entries) if e["type"] == kind and i in boxes]
            if items:
                out.append({"type": kind, "title": title, "items": items})
        return out


def build_pool(character: Character, data: Mapping[str, Any]) -> sq.DicePool:
    """The dice pool the roll form describes, from the character's sheet.

    A ticked specialization brings its skill, a quirk ticked "in the negative" brings the
    quirk as a d4; one specialization per skill in a roll (the engine's
    :class:`rulesets.shahquest.Feature` takes one). **Decision:** a character stressed out
    "can't take any actions" (Shahquest wiki, Stressing Out and Trauma), so no pool is
    built for them until they recover.

    Raises:
        RuleError: stressed or taken out, two specializations of one skill, a pool costing
            more plot points than the character has, or an illegal feature.
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
    for kind in data.get("own_stress") or ():
        die = track.line(kind).stress
        if die:
            pool_features.append(sq.Feature(type="stress", name=kind, die=die, own=True))
    if data.get("asset_die"):
        pool_features.append(sq.Feature(type="asset", name=data.get("asset_name") or "Asset",
                                        die=data["asset_die"]))
    return sq.build_pool(pool_features, push_die=bool(data.get("push_die")),
                         setting_die=data.get("setting_die"),
                         plot_points=plot_points(character))


class ChoiceForm(forms.Form):
    """The player's choice after the roll: effort dice and effect dice, by 0-based index."""

    effort = forms.TypedMultipleChoiceField(
        coerce=int, required=False, choices=[(i, i) for i in range(sq.MAX_ODDS_DICE)])
    effect = forms.TypedMultipleChoiceField(
        coerce=int, required=False, choices=[(i, i) for i in range(sq.MAX_ODDS_DICE)])


def _choose_apply(roll: Roll, character: Character, data: dict[str, Any],
                  by: AbstractBaseUser, rng: Rng) -> Roll:
    """Store the player's choice of effort and effect dice as a follow-up roll, spending a
    plot point per effort die past two and per effect die past one (Shahquest wiki, Add to
    Effort total; Extra Effect die). Runs with the character locked."""
    from rolls.models import Roll as RollModel
    from rolls.services import roll_store

    if roll.ruleset != SLUG or roll.kind != RollModel.Kind.ACTION or roll.parent_id:
        raise RuleError("Only a roll from the sheet takes a choice of dice.", RULE_POOLS)
    if roll.followups.filter(kind=RollModel.Kind.CHOICE).exists():
        raise RuleError("The dice of this roll are already chosen.", RULE_POOLS)
    result = sq.RollResult.from_dict(roll.result)
    sizes = result.pool.sizes
    effect = sorted(data["effect"], key=lambda i: (-sizes[i] if 0 <= i < len(sizes) else 0, i))
    chosen = sq.choose_dice(result, effort=sorted(data["effort"]), effect=effect,
                            plot_points=plot_points(character))
    spent = chosen.plot_points_after_roll
    if spent:
        _set_plot_points(character, plot_points(character) - spent)
    note = f"; {spent} plot point{'s' if spent != 1 else ''} spent" if spent else ""
    return roll_store(
        campaign_id=roll.campaign_id, character=character, ruleset=SLUG,
        rolled=RolledResult(kind=RollModel.Kind.CHOICE.value, description=roll.description,
                            result=chosen, outcome="rolled", net=chosen.effort,
                            summary=chosen.summary() + note),
        by=by, parent=roll)


# --- the GM's roll requests ------------------------------------------------------------------


class DatalistInput(forms.TextInput):
    """A text input suggesting names through a ``<datalist>``: ``options`` is a callable
    returning the names, called only when the widget is drawn (the dashboard's GM form), so
    building the form runs no query."""

    def __init__(self, options: Callable[[], list[str]], list_id: str) -> None:
        super().__init__(attrs={"list": list_id, "autocomplete": "off"})
        self.options = options
        self.list_id = list_id

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: Any = None) -> Any:
        """The input followed by its datalist of suggested names."""
        options = format_html_join("", '<option value="{}">', ((n,) for n in self.options()))
        return mark_safe(super().render(name, value, attrs, renderer)
                         + format_html('<datalist id="{}">{}</datalist>', self.list_id,
                                       options))


def _party_names(campaign: Campaign) -> dict[str, list[str]]:
    """The attribute, skill and specialization names the campaign's sheets use, each list
    sorted and without repeats (case-insensitive). One query."""
    from characters.models import Character as CharacterModel

    found: dict[str, dict[str, str]] = {"attribute": {}, "skill": {}, "specialization": {}}
    for sheet_data in CharacterModel.objects.filter(campaign=campaign).values_list("sheet",
                                                                                   flat=True):
        for entry in (sheet_data or {}).get("features", []):
            if entry.get("type") in ("attribute", "skill"):
                found[entry["type"]].setdefault(entry["name"].casefold(), entry["name"])
            for spec in entry.get("specializations", []) if entry.get("type") == "skill" else ():
                found["specialization"].setdefault(spec["name"].casefold(), spec["name"])
    return {kind: sorted(names.values(), key=str.casefold) for kind, names in found.items()}


AFFILIATION_NAMES = ("Solo", "Partner", "Gang")


class RequestForm(forms.Form):
    """What the GM asks the players to roll: an attribute and a skill by name (free text:
    each sheet names its own; the party's names are suggested), a specialization of that
    skill, an affiliation, and the GM's setting die (Shahquest wiki, Dice Pools; Feature
    Types). At least an attribute or a skill; a specialization needs its skill."""

    attribute = forms.CharField(max_length=60, required=False, label="Attribute")
    skill = forms.CharField(max_length=60, required=False, label="Skill")
    specialization = forms.CharField(max_length=60, required=False,
                                     label="Specialization (optional)")
    affiliation = forms.ChoiceField(
        choices=[("", "None"), *((n, n) for n in AFFILIATION_NAMES)], required=False,
        label="Affiliation", help_text="Solo, Partner or Gang: who the characters act with.")
    setting_die = forms.TypedChoiceField(choices=[("", "None"), *DIE_CHOICES], coerce=int,
                                         empty_value=None, required=False,
                                         label="Your setting die")

    def __init__(self, data: Mapping[str, Any] | None = None, *, campaign: Campaign) -> None:
        super().__init__(data, auto_id="sq-request-%s")
        cache: dict[str, list[str]] = {}

        def names(kind: str) -> Callable[[], list[str]]:
            def load() -> list[str]:
                if not cache:
                    cache.update(_party_names(campaign))
                return cache[kind]
            return load

        for kind in ("attribute", "skill", "specialization"):
            self.fields[kind].widget = DatalistInput(names(kind), f"sq-request-{kind}-names")
        self.fields["attribute"].help_text = "By name, as the sheets spell it (any case)."

    def clean(self) -> dict[str, Any]:
        """Names with their spaces tidied; refuse a request with neither an attribute nor a
        skill, and a specialization without its skill."""
        cleaned = super().clean() or {}
        for kind in ("attribute", "skill", "specialization"):
            cleaned[kind] = " ".join((cleaned.get(kind) or "").split())
        if not (cleaned["attribute"] or cleaned["skill"]):
            raise forms.ValidationError("Ask for an attribute or a skill (or both).")
        if cleaned["specialization"] and not cleaned["skill"]:
            self.add_error("specialization",
                           "Name the skill the specialization belongs to.")
        return cleaned


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
    """The roll dialog's POST data answering the GM's request (:class:`RequestForm`'s
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
                            "setting_die": cleaned_data.get("setting_die")}
    if cleaned_data.get("setting_die"):
        text += f", setting die d{cleaned_data['setting_die']}"
    return data, text


# --- a stored sheet's check (SheetSystem.check_sheet) -------------------------------------------


def _stored_feature(entry: Mapping[str, Any], **extra: Any) -> sq.Feature:
    # Unlike _engine_feature, nothing is coerced: a stored count of "2" or a missing type
    # reaches the engine's check as it is and is refused there, not read as 2.
    return sq.Feature(type=entry.get("type"), name=entry["name"], die=entry.get("die"),
                      count=entry.get("count") or 1, **extra)


def check_sheet(sheet: Mapping[str, Any]) -> None:
    """:meth:`Shahquest.check_sheet`: every feature named (no colon, which separates the XP
    ledger's keys) and checked by the engine's :func:`rulesets.shahquest.check_feature`
    with each of its specializations (Shahquest wiki, Feature Types; Dice, Step Up, Step
    Down, and Spreads); special effects and limits (text) each in a power set; plot points
    0 to :data:`MAX_PLOT_POINTS` (Shahquest wiki, Plot Points); the stress track as
    :func:`stress_track` reads it (Shahquest wiki, Stress and Trauma).

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    features = sheet.get("features")
    require(isinstance(features, list), "the sheet's features must be a list")
    for entry in features:
        require(isinstance(entry, dict) and isinstance(entry.get("name"), str)
                and entry["name"].strip() != "" and ":" not in entry["name"],
                f"a feature needs a name without a colon: {entry!r}")
        kind = entry.get("type")
        if kind in TEXT_TYPES:  # power-set text, no die
            require(isinstance(entry.get("power_set"), str),
                    f"the {kind} {entry['name']!r} belongs to a power set")
            continue
        sq.check_feature(_stored_feature(entry))
        specializations = entry.get("specializations", [])
        require(isinstance(specializations, list),
                f"the specializations of {entry['name']!r} must be a list")
        for spec in specializations:
            require(isinstance(spec, dict) and isinstance(spec.get("name"), str),
                    f"a specialization of {entry['name']!r} needs a name")
            sq.check_feature(_stored_feature(entry, specialization=spec["name"],
                                             specialization_use=spec.get("use", "")))
    stored_int(sheet.get("plot_points", 0), "Plot points", 0, MAX_PLOT_POINTS,
               RULE_PLOT_POINTS)
    _stress_of(sheet)


# --- the system --------------------------------------------------------------------------------


class Shahquest(SheetSystem):
    """Shahquest's sheet description (see the module docstring for the sheet's shape)."""

    def default_system_data(self) -> dict[str, Any]:
        """The tension pool's data (:mod:`characters.systems.shahquest_tension`)."""
        return tension.default_system_data()

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """The tension pool panel's context (:mod:`characters.systems.shahquest_tension`)."""
        return tension.dashboard_context(campaign)

    def check_system_data(self, data: dict[str, Any]) -> None:
        """The tension pool's stored state (:func:`~characters.systems.shahquest_tension.
        check_system_data`). Raises RuleError (Shahquest wiki, Tension Pool)."""
        tension.check_system_data(data)

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Features, plot points and stress as the rules make them (:func:`check_sheet`).
        Raises RuleError naming the first value refused."""
        check_sheet(sheet)

    # creation
    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> forms.Form:
        """:class:`CreationForm`."""
        return CreationForm(data)

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The sheet :class:`CreationForm` built and checked."""
        return dict(cleaned_data["sheet"])

    # the sheet
    def _layout(self, character: Character) -> dict[str, Any]:
        entries = features(character)
        sets: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for e in entries:
            if e["type"] in ("power_set", *TEXT_TYPES):
                group = sets.setdefault(e.get("power_set") or "",
                                        {"power": [], "sfx": [], "limit": []})
                group["power" if e["type"] == "power_set" else e["type"]].append(e)
        groups = [{"type": kind, "title": title,
                   "items": [e for e in entries if e["type"] == kind]}
                  for kind, title in TYPE_LABELS.items()]
        for group in groups:
            if group["type"] == "power_set":
                group["sets"] = [{"name": n, **g} for n, g in sets.items()]
        return {"feature_groups": groups}

    def _tracks(self, character: Character) -> dict[str, Any]:
        track = stress_track(character)
        lines = []
        for kind in sq.STRESS_TYPES:
            line = track.line(kind)
            lines.append({
                "kind": kind, "stress": line.stress, "trauma": line.trauma,
                "stressed_out": line.stressed_out, "taken_out": line.taken_out,
                "recovery_time": (sq.trauma_recovery_time(line.trauma)
                                  if line.trauma else ""),
            })
        return {"plot_points": plot_points(character), "stress_lines": lines,
                "stress_state": track.describe(), "stressed_out": track.stressed_out,
                "taken_out": track.taken_out, "die_choices": DIE_CHOICES,
                "stress_types": sq.STRESS_TYPES, "downtime_choices": DOWNTIME_CHOICES}

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """Features grouped by type (power sets with their effects and limits), plot points,
        stress lines and the state in words. No queries."""
        return {**self._layout(character), **self._tracks(character)}

    def card_context(self, character: Character) -> dict[str, Any]:
        """Plot points, stress in words and per type, the controls' choices. No queries."""
        return self._tracks(character)

    # XP
    def advances(self, character: Character) -> list[Advance]:
        """Every die XP can step up now: attributes, skills and powers below d12."""
        out = []
        for entry in features(character):
            if entry["type"] in sq.ADVANCEABLE_TYPES and entry["die"] < STEP_DICE[-1]:
                out.append(self.quote(character, f"{entry['type']}:{entry['name']}"))
        return out

    def quote(self, character: Character, key: str) -> Advance:
        """Price of stepping up ``<type>:<name>``'s die (:func:`rulesets.shahquest.step_up_cost`).
        A new specialization is bought with the XP page's own form (it needs a name), not
        through a key. Raises RuleError naming the problem."""
        kind, _, name = key.partition(":")
        if kind == "specialization":
            raise RuleError("Learn a specialization with the form below: it needs a name.",
                            sq.ADVANCEMENT_RULE)
        if kind not in sq.ADVANCEABLE_TYPES:
            raise RuleError("XP steps up attributes, skills and powers.", sq.ADVANCEMENT_RULE)
        entry = _find(character, kind, name)
        die = entry["die"]
        cost = sq.step_up_cost(die)
        return Advance(key=key, label=f"{name} d{die} → d{cost}", rank_from=die,
                       rank_to=cost, cost=cost,
                       notes=(f"A step up costs the new die's size ({cost} XP).",))

    def rank(self, character: Character, key: str) -> int:
        """A feature's die size, or 1/0 for a specialization owned or not."""
        kind, _, name = key.partition(":")
        if kind == "specialization":
            skill_name, _, spec = name.partition(":")
            try:
                skill = _find(character, "skill", skill_name)
            except RuleError:
                return 0
            return int(any(s["name"] == spec for s in skill.get("specializations", [])))
        return int(_find(character, kind, name)["die"])

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set a feature's die to ``rank`` (a step die), or remove a specialization (rank 0;
        rank 1 keeps or adds it as a spread). Raises RuleError for an unknown key."""
        kind, _, name = key.partition(":")
        if kind == "specialization":
            if not rank:
                _set_specialization(character, key, None)
            elif not self.rank(character, key):  # keep the use it was learned with
                _set_specialization(character, key, "spread")
            return
        if kind not in sq.ADVANCEABLE_TYPES:
            raise RuleError("XP steps up attributes, skills and powers.", sq.ADVANCEMENT_RULE)
        if rank not in STEP_DICE:
            raise RuleError(f"d{rank} is not a step die.", sq.ADVANCEMENT_RULE)
        entries = features(character)
        for index, entry in enumerate(entries):
            if entry["type"] == kind and entry["name"] == name:
                entries[index] = {**entry, "die": rank}
                character.sheet = {**character.sheet, "features": entries}
                return
        raise RuleError(f"{character.name} has no {kind.replace('_', ' ')} called {name!r}.",
                        sq.ADVANCEMENT_RULE)

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The new-specialization form and its fixed price."""
        return {"specialization_form": SpecializationForm(character=character),
                "specialization_cost": sq.SPECIALIZATION_COST,
                "has_skills": any(e["type"] == "skill" for e in features(character))}

    # rolls
    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> forms.Form:
        """:class:`RollForm` for the character."""
        return RollForm(data, character=character)

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Build the pool (:func:`build_pool`), spend and earn its plot points, roll with the
        best effort and effect preselected, and step up own stress used (Shahquest wiki,
        Using Your Own Stress). Runs with the character locked."""
        pool = build_pool(character, cleaned_data)
        result = sq.roll(pool, rng)
        _set_plot_points(character, plot_points(character) - pool.plot_points_spent
                         + pool.plot_points_earned)
        if pool.stress_step_up:
            track = stress_track(character)
            for kind in pool.stress_step_up:
                track = sq.step_up_stress(track, kind)
            _set_track(character, track)
        return RolledResult(kind="action", description=pool.describe(), result=result,
                            outcome="rolled", net=result.effort, summary=result.summary())

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """Exact odds of the best effort total and of rolling an opportunity."""
        pool = build_pool(character, cleaned_data)
        odds = sq.odds(pool.sizes)
        rows = []
        for target in (7, 11, 15):
            p = float(odds.effort_at_least(target))
            rows.append((f"Effort {target}+", p, percent_text(p), True))
        none = float(dict(odds.opportunities).get(0, 0))
        rows.append(("Opportunity", 1 - none, percent_text(1 - none), False))
        mean = sum(value * p for value, p in odds.effort)
        likely = max(odds.effort, key=lambda pair: pair[1])[0]
        return {
            "odds": odds, "pool": pool, "pool_text": pool.describe(), "odds_rows": rows,
            "odds_lines": [f"Best effort total: {float(mean):.1f} on average, {likely} most "
                           "often (two highest non-1 dice)."],
            "odds_headline": f"Effort 11+: {rows[1][2]}",
        }

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> RequestForm:
        """The GM's "Ask for a roll": :class:`RequestForm` (an attribute and a skill by name,
        a specialization, an affiliation, the setting die)."""
        return RequestForm(data, campaign=campaign)

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """:func:`request_data`: the roll dialog's data answering the request, and the
        request in words. Raises RuleError naming what the character lacks."""
        return request_data(character, cleaned_data)

    # the demo
    def demo(self, *, campaign: Campaign, gm: AbstractBaseUser, player: AbstractBaseUser,
             rng: Rng) -> None:
        """Demetri from the seed's Dice Pools example, a roll, a stress hit and an award."""
        from characters.services import sheet_change, xp_award
        from rolls.services import system_roll_create

        character = self.create_character(campaign=campaign, owner=player, data=DEMO_DATA)
        xp_award(character=character, amount=10, reason="Demo award", by=gm)
        form = self.roll_form(character, {"feature": ["1", "3", "8"],
                                          "specialization": ["6:0"], "setting_die": "6"})
        assert form.is_valid(), form.errors
        system_roll_create(character=character, data=form.cleaned_data, by=player, rng=rng)
        sheet_change(character=character, action=ACTIONS["stress-take"],
                     data={"kind": "physical", "die": 8}, by=gm)


DEMO_DATA: dict[str, str] = {
    "name": "Demetri", "concept": "Chandelier-swinging thief",
    "solo": "4", "solo_count": "1", "partner": "6", "gang": "8",
    "attribute_1_name": "Coordination", "attribute_1_die": "10",
    "attribute_2_name": "Wits", "attribute_2_die": "8",
    "attribute_3_name": "Brawn", "attribute_3_die": "6",
    "skill_1_name": "Physical", "skill_1_die": "8",
    "skill_1_spec_1_name": "Athletics", "skill_1_spec_1_use": "spread",
    "skill_2_name": "Combat", "skill_2_die": "6",
    "quirk_1_name": "I've got your back",
    "resource_1_name": "Grappling hook", "resource_1_die": "6",
    "power_1_set": "Thief's luck", "power_1_name": "Shadow step", "power_1_die": "6",
    "extra_1_set": "Thief's luck", "extra_1_kind": "sfx", "extra_1_name": "Vanish",
    "extra_1_text": "Spend a plot point to step out of sight after a success.",
    "extra_2_set": "Thief's luck", "extra_2_kind": "limit", "extra_2_name": "Bright light",
    "extra_2_text": "Earn a plot point when bright light shuts the power down.",
}
"""Demetri of the seed's example (Coordination d10, Partner d6, I've got your back d8,
Physical d8 with Athletics spread), as creation-form data."""


SYSTEM = Shahquest(
    slug=SLUG,
    demo_campaign_name="The Heist (Shahquest demo)",
    actions=ACTIONS,
    campaign_actions=tension.CAMPAIGN_ACTIONS,
    roll_actions={"choose": RollAction(form=ChoiceForm, apply=_choose_apply)},
    system_data_roll_ids=tension.ROLL_IDS,
)
