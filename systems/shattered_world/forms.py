"""Shattered World's forms: creation, the sheet's changes, the GM's campaign settings, the
roll dialog and the GM's roll request."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms

from characters.models import XpEntry
from core.forms import Form
from rulesets import shattered_world as sw
from rulesets.errors import RuleError
from systems.fields import character_name_field
from systems.shattered_world.sheet import (
    HIT_POINTS_MAX,
    POOL_CHOICES,
    PROFICIENCIES_MAX,
    STAT_CAP,
    STAT_CHOICES,
    _one_line,
)

if TYPE_CHECKING:
    from characters.models import Character


# --- Creation ---------------------------------------------------------------------------------


class CreationForm(Form):
    """A new Shattered World character; ``clean()`` names the rule broken."""

    name = character_name_field()
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


class PoolForm(Form):
    """Lose or regain points of one statistic or of hit points."""

    pool = forms.ChoiceField(choices=POOL_CHOICES)
    amount = forms.IntegerField(min_value=1, max_value=999, initial=1)
    direction = forms.ChoiceField(choices=[("lose", "Lose"), ("regain", "Regain")])


class RestForm(Form):
    """A full 8-hour rest: nothing to fill in."""


class AchievementForm(Form):
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


class AchievementUndoForm(Form):
    """The GM undoes a logged achievement (a reversing entry)."""

    entry = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.character = character

    def clean_entry(self) -> XpEntry:
        """The award entry of this character's achievement; ValidationError for any other."""
        entry = XpEntry.objects.filter(pk=self.cleaned_data["entry"], character=self.character,
                                       kind=XpEntry.Kind.AWARD).first()
        if entry is None or not entry.trait_key.startswith(("milestone:", "feat:")):
            raise forms.ValidationError("That is not an achievement of this character.")
        return entry


class FoibleForm(Form):
    """The foible the character accepts (needed to buy from an adjacent subrole)."""

    foible = forms.CharField(max_length=200, required=False)


# --- Campaign actions -------------------------------------------------------------------------


class DieStepsForm(Form):
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


class BuyInForm(Form):
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


class BuyInRemoveForm(Form):
    """Remove a custom buy-in from the catalogue."""

    name = forms.CharField(max_length=80)


# --- Rolls ------------------------------------------------------------------------------------


class RollForm(Form):
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


class RequestForm(Form):
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
