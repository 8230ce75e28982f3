"""Shahquest's forms: character creation, the sheet's in-place changes, learning a
specialization, the roll dialog and the choice of dice after it, the GM's roll request, and
the GM's tension-pool moves on the dashboard.

What each form's data does is in :mod:`systems.shahquest.actions` (the changes and moves) and
:mod:`systems.shahquest.system` (creation, rolls, requests); the sheet's shape is in
:mod:`systems.shahquest.sheet`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from characters.models import Character
from core.forms import Form
from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError
from systems.fields import character_name_field
from systems.shahquest.sheet import (
    RULE_FEATURES,
    STARTING_PLOT_POINTS,
    TYPE_LABELS,
    USE_LABELS,
    _engine_feature,
    feature_dice,
    features,
    features_key,
    ledger_name,
    next_roll_step_up,
    stress_track,
)
from systems.shahquest.tension import _die

if TYPE_CHECKING:
    from campaigns.models import Campaign

ROWS = {"attribute": 6, "skill": 6, "quirk": 3, "resource": 3, "power": 4, "extra": 4}
"""Rows of the creation form per kind (blank rows are ignored)."""

SPEC_SLOTS = 2
"""Specializations per skill row on the creation form (more are bought with XP)."""

DIE_CHOICES = [(size, f"d{size}") for size in STEP_DICE]
AFFILIATION_DIE_CHOICES = [(size, f"d{size}") for size in sq.AFFILIATION_DICE]


# --- creation --------------------------------------------------------------------------------


def _check_name(value: str, what: str) -> str:
    value = " ".join(value.split())
    if ":" in value:
        raise forms.ValidationError(f"{what} {value!r}: a name cannot contain a colon.")
    return value


class CreationForm(Form):
    """A Shahquest character on one page: name, affiliations, attributes, skills with their
    specializations, quirks, resources and power sets (with special effects and limits as
    text). Every rule is checked in :meth:`clean`, the first broken one named; the valid
    sheet is ``cleaned_data["sheet"]``. The seed sets no budgets, so any number of features
    (up to the rows shown) at any die is allowed; see docs/systems/shahquest.md."""

    name = character_name_field()
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
        # Every row is optional: a blank row is ignored by _sheet.
        for i in range(1, ROWS["attribute"] + 1):
            self.fields[f"attribute_{i}_name"] = forms.CharField(
                max_length=60, label=f"Attribute {i}", required=False)
            self.fields[f"attribute_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=6, label=f"Attribute {i} die",
                required=False)
        for i in range(1, ROWS["skill"] + 1):
            self.fields[f"skill_{i}_name"] = forms.CharField(
                max_length=60, label=f"Skill {i}", required=False)
            self.fields[f"skill_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=6, label=f"Skill {i} die",
                required=False)
            for j in range(1, SPEC_SLOTS + 1):
                self.fields[f"skill_{i}_spec_{j}_name"] = forms.CharField(
                    max_length=60, label=f"Skill {i} specialization {j}", required=False)
                self.fields[f"skill_{i}_spec_{j}_use"] = forms.ChoiceField(
                    choices=[("spread", "spreads the skill"), ("step_up", "steps it up")],
                    initial="spread", label=f"Skill {i} specialization {j} use", required=False)
        for i in range(1, ROWS["quirk"] + 1):
            self.fields[f"quirk_{i}_name"] = forms.CharField(
                max_length=80, label=f"Quirk {i} (d8)", required=False)
        for i in range(1, ROWS["resource"] + 1):
            self.fields[f"resource_{i}_name"] = forms.CharField(
                max_length=60, label=f"Resource {i}", required=False)
            self.fields[f"resource_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=6, label=f"Resource {i} die",
                required=False)
        for i in range(1, ROWS["power"] + 1):
            self.fields[f"power_{i}_set"] = forms.CharField(
                max_length=60, label=f"Power {i}: power set", required=False)
            self.fields[f"power_{i}_name"] = forms.CharField(
                max_length=60, label=f"Power {i}", required=False)
            self.fields[f"power_{i}_die"] = forms.TypedChoiceField(
                choices=DIE_CHOICES, coerce=int, initial=8, label=f"Power {i} die",
                required=False)
        for i in range(1, ROWS["extra"] + 1):
            self.fields[f"extra_{i}_set"] = forms.CharField(
                max_length=60, label=f"Entry {i}: power set", required=False)
            self.fields[f"extra_{i}_kind"] = forms.ChoiceField(
                choices=[("sfx", "Special effect"), ("limit", "Limit")], initial="sfx",
                label=f"Entry {i}: kind", required=False)
            self.fields[f"extra_{i}_name"] = forms.CharField(
                max_length=60, label=f"Entry {i}: name", required=False)
            self.fields[f"extra_{i}_text"] = forms.CharField(
                max_length=500, label=f"Entry {i}: what it does", widget=forms.Textarea(
                    attrs={"rows": 2}), required=False)

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
        # Form.clean returns cleaned_data; django-stubs says None because an override may.
        assert data is not None
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


class PlotPointForm(Form):
    """+1 or -1 plot point."""

    change = forms.TypedChoiceField(choices=[(1, "+1"), (-1, "-1")], coerce=int)


class StressForm(Form):
    """A stress type and an effect die (taking stress, recovering stress or trauma)."""

    kind = forms.ChoiceField(choices=[(k, k.capitalize()) for k in sq.STRESS_TYPES],
                             label="Type")
    die = forms.TypedChoiceField(choices=DIE_CHOICES, coerce=int, label="Effect die")


class StressChangeForm(Form):
    """The type the stress effect just taken becomes, for a plot point (Shahquest wiki,
    Change Stress Type)."""

    to = forms.ChoiceField(choices=[(k, k.capitalize()) for k in sq.STRESS_TYPES],
                           label="Take it as")


class OpportunityPushForm(Form):
    """A plot point spent on the GM's opportunity die for a stepped up push die (d8) on the
    next roll (Shahquest wiki, Activate Opportunity die); nothing to choose."""


DOWNTIME_CHOICES = [
    *[(f"stress:{k}", f"Step down {k} stress twice") for k in sq.STRESS_TYPES],
    *[(f"stress:{a},{b}", f"Step down {a} and {b} stress")
      for i, a in enumerate(sq.STRESS_TYPES) for b in sq.STRESS_TYPES[i + 1:]],
    *[(f"trauma:{k}", f"Step down {k} trauma") for k in sq.STRESS_TYPES],
]


class DowntimeForm(Form):
    """What one downtime plot point steps down (Shahquest wiki, During Downtime...)."""

    option = forms.ChoiceField(choices=DOWNTIME_CHOICES, label="Downtime: spend a plot point to")


class SpecializationForm(Form):
    """Learn a new specialization of one of the character's skills, for XP."""

    skill = forms.ChoiceField(label="Skill")
    name = forms.CharField(max_length=60, label="Specialization")
    use = forms.ChoiceField(choices=[("spread", "Spreads the skill"), ("step_up", "Steps it up")],
                            label="In a pool it")
    expected_cost = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.fields["skill"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (ledger_name(e), e["name"]) for e in features(character) if e["type"] == "skill"]

    def clean_name(self) -> str:
        """The name with its spaces tidied; ValidationError when empty or with a colon."""
        name = _check_name(self.cleaned_data["name"], "The specialization")
        if not name:
            raise forms.ValidationError("Name the specialization.")
        return name


NEW_FEATURE_TYPES = [("attribute", "Attribute"), ("skill", "Skill"), ("power_set", "Power")]
"""What XP buys new (:data:`rulesets.shahquest.ADVANCEABLE_TYPES`, in words)."""


class FeatureLearnForm(Form):
    """Buy a new attribute, skill or power with XP, at a d4 (the advancement house rule,
    docs/systems/shahquest.md): its type, its name, and for a power the power set it belongs
    to (one of the sheet's or a new one)."""

    type = forms.ChoiceField(choices=NEW_FEATURE_TYPES, label="New")
    name = forms.CharField(max_length=60, label="Name")
    power_set = forms.CharField(max_length=60, required=False, label="Power set (a power only)")
    expected_cost = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 **kwargs: Any) -> None:
        super().__init__(data, auto_id="feature-learn-%s", **kwargs)
        sets = sorted({e["power_set"] for e in features(character)
                       if e["type"] == "power_set"}, key=str.casefold)
        if sets:
            self.fields["power_set"].help_text = f"This sheet's: {', '.join(sets)}."

    def clean_name(self) -> str:
        """The name with its spaces tidied; ValidationError when empty or with a colon."""
        name = _check_name(self.cleaned_data["name"], "The name")
        if not name:
            raise forms.ValidationError("Name the new feature.")
        return name

    def clean_power_set(self) -> str:
        """The power set's name tidied; ValidationError with a colon."""
        return _check_name(self.cleaned_data.get("power_set") or "", "The power set")


def _feature_choices(character: Character) -> list[tuple[str, str]]:
    """Every feature of the sheet as ``("<type>:<name>", "Stealth (skill d6)")``."""
    out = []
    for e in features(character):
        kind = {"power_set": "power", "sfx": "special effect"}.get(e["type"], e["type"])
        dice = f" {feature_dice(e)}" if e.get("die") else ""
        out.append((f"{e['type']}:{e['name']}", f"{e['name']} ({kind}{dice})"))
    return out


class FeatureEditForm(Form):
    """Rename one of the sheet's features, or change a special effect's or limit's
    description (blank keeps it); no XP changes (``feature-edit``)."""

    which = forms.ChoiceField(label="Feature")
    name = forms.CharField(max_length=60, label="New name")
    text = forms.CharField(max_length=500, required=False, widget=forms.Textarea(
        attrs={"rows": 2}), label="Description (a special effect or limit; blank keeps it)")

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 **kwargs: Any) -> None:
        super().__init__(data, auto_id="feature-edit-%s", **kwargs)
        self.fields["which"].choices = _feature_choices(character)  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field

    def clean_name(self) -> str:
        """The name with its spaces tidied; ValidationError when empty or with a colon."""
        name = _check_name(self.cleaned_data["name"], "The name")
        if not name:
            raise forms.ValidationError("Give the feature a name.")
        return name


_CONFIRM_REMOVAL = ("Tick the box to confirm: the feature leaves the sheet and the XP spent on "
                    "it comes back.")


class FeatureRemoveForm(Form):
    """The GM removes one of the sheet's features (``feature-remove``); ``confirm`` must be
    ticked: the XP the ledger shows spent on it comes back."""

    which = forms.ChoiceField(label="Feature to remove")
    confirm = forms.BooleanField(label="Yes, remove it and give back the XP spent on it",
                                 error_messages={"required": _CONFIRM_REMOVAL})

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 **kwargs: Any) -> None:
        super().__init__(data, auto_id="feature-remove-%s", **kwargs)
        self.fields["which"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            choice for choice in _feature_choices(character)
            if not choice[0].startswith("affiliation:")]


# --- rolling -----------------------------------------------------------------------------------


class RollForm(Form):
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
    features_seen = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    step_up = forms.ChoiceField(
        required=False, label="Step up one die (the GM's opportunity)",
        help_text="Paid for on the GM's opportunity; tick the die's feature too. Steps come "
                  "before spreads, so a spread feature's dice all step up.")

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.character = character
        self.step_up_waiting = next_roll_step_up(character.sheet)
        self.features_key = features_key(character)
        entries = features(character)
        self.fields["feature"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (i, f"{e['name']} {feature_dice(e)}") for i, e in enumerate(entries)
            if e["type"] in sq.FEATURE_TYPES]
        self.fields["specialization"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (f"{i}:{j}", f"{s['name']} ({USE_LABELS.get(s['use'], s['use'])} {e['name']})")
            for i, e in enumerate(entries) if e["type"] == "skill"
            for j, s in enumerate(e.get("specializations", []))]
        self.fields["negative"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (i, f"{e['name']} in the negative (d4, earns a plot point)")
            for i, e in enumerate(entries) if e["type"] == "quirk"]
        track = stress_track(character)
        self.fields["own_stress"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (k, f"Own {k} stress d{track.line(k).stress} (1 plot point; it steps up after)")
            for k in sq.STRESS_TYPES if track.line(k).stress]
        # Every die the dialog can put in the pool but the push and setting dice (the stepped
        # up push die is the other reward; the setting die is the GM's): build_pool refuses
        # one that is not in it.
        self.fields["step_up"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            ("", "None yet (it keeps for a later roll)"),
            *((f"feature:{i}", f"{e['name']} {feature_dice(e)}") for i, e in enumerate(entries)
              if e["type"] in sq.FEATURE_TYPES),
            *((f"stress:{k}", f"Own {k} stress") for k in sq.STRESS_TYPES
              if track.line(k).stress),
            ("asset", "The asset die")]

    def clean(self) -> dict[str, Any]:
        """Refuse a dialog or a request drawn before the sheet's features changed: it names
        features by position (a dialog without the fingerprint, drawn before it existed, is
        read as it was)."""
        data = super().clean() or {}
        seen = data.get("features_seen")
        if seen and seen != self.features_key:
            raise forms.ValidationError(
                "The sheet's features changed since this roll was drawn (a feature added, "
                "renamed or removed): look at the dialog again, then roll.")
        return data

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


class ChoiceForm(Form):
    """The player's choice after the roll: effort dice and effect dice, by 0-based index, and
    whether the roll was a reaction won whose effect die a plot point makes count (Shahquest
    wiki, Use a Effect die from a reaction)."""

    effort = forms.TypedMultipleChoiceField(
        coerce=int, required=False, choices=[(i, i) for i in range(sq.MAX_ODDS_DICE)])
    effect = forms.TypedMultipleChoiceField(
        coerce=int, required=False, choices=[(i, i) for i in range(sq.MAX_ODDS_DICE)])
    reaction = forms.BooleanField(
        required=False, label="A reaction I won: use its effect die (1 plot point)")


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
    found: dict[str, dict[str, str]] = {"attribute": {}, "skill": {}, "specialization": {}}
    for sheet_data in Character.objects.filter(campaign=campaign).values_list("sheet",
                                                                              flat=True):
        for entry in (sheet_data or {}).get("features", []):
            if entry.get("type") in ("attribute", "skill"):
                found[entry["type"]].setdefault(entry["name"].casefold(), entry["name"])
            for spec in entry.get("specializations", []) if entry.get("type") == "skill" else ():
                found["specialization"].setdefault(spec["name"].casefold(), spec["name"])
    return {kind: sorted(names.values(), key=str.casefold) for kind, names in found.items()}


AFFILIATION_NAMES = ("Solo", "Partner", "Gang")


class RequestForm(Form):
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


# --- the GM's tension pool (systems.shahquest.tension; its moves are in actions.py) ----------


class StartForm(Form):
    """The campaign's starting tension pool, in dice notation ("3d6", "d8 2d6")."""

    dice = forms.CharField(
        label="Starting tension pool", max_length=100, strip=True,
        help_text="3d6 as usual; step up or spread it for a challenging adventure (d8 2d6).",
    )


class OpportunityForm(Form):
    """An activated opportunity: how the pool grows and whose character gets the plot
    point. ``grow`` is ``"add"`` (a d6 joins), ``"add-<size>"`` (the opportunity die of that
    size joins) or ``"step-<size>"`` (step up that die)."""

    grow = forms.CharField(label="The pool grows by", max_length=20)
    character = forms.IntegerField(label="Plot point to", min_value=1,
                                   error_messages={"required": "Choose who gets the plot point."})


class TakeForm(Form):
    """A tension die taken out: set aside for an NPC roll, or spent on effort or effect."""

    PURPOSES = (("npc", "for an NPC's roll (it may come back)"),
                ("spend", "to spend on effort or effect (it is gone)"))
    die = forms.IntegerField(label="Tension die")
    purpose = forms.ChoiceField(label="Take it", choices=PURPOSES, initial="npc")


class ReturnForm(Form):
    """A die set aside comes back; the acting or reacting player's character gets a plot
    point."""

    die = forms.IntegerField(label="Die set aside")
    character = forms.IntegerField(label="Plot point to", min_value=1,
                                   error_messages={"required": "Choose who gets the plot point."})


class DropForm(Form):
    """A die set aside that does not come back."""

    die = forms.IntegerField(label="Die set aside")


class DangerForm(Form):
    """The general-danger roll: an optional setting die, complication dice, a note."""

    setting_die = forms.TypedChoiceField(
        label="Setting die", required=False, coerce=int, empty_value=None,
        choices=[("", "None"), *((str(s), _die(s)) for s in STEP_DICE)],
    )
    complications = forms.CharField(
        label="Complication dice", required=False, max_length=100, strip=True,
        help_text="The complications on the character, e.g. d6 d8; leave empty for none.",
    )
    note = forms.CharField(label="What is at stake", required=False, max_length=120, strip=True)
    gm_only = forms.BooleanField(label="GM only (hidden from players)", required=False)


