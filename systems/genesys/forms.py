"""The forms of the Genesys sheet: creation, the check dialog, the tracks, the GM's skill
list and the GM's moves on the Destiny pool (system.py and actions.py use them).

Every rule is checked by the rules engine (``rulesets.genesys``); a form turns its RuleError
into a form error whose text names the rule broken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from core.forms import Form
from rulesets import genesys
from rulesets.errors import RuleError, citation
from systems.fields import character_name_field

CHARACTERISTIC_CHOICES = [(name, name) for name in genesys.CHARACTERISTICS]
DIFFICULTY_CHOICES = [
    (level, f"{level} ({dice} difficulty {'die' if dice == 1 else 'dice'})"
     + (", needs a light Destiny point" if level == genesys.IMPOSSIBLE else ""))
    for level, dice in genesys.DIFFICULTY_LEVELS.items()
]
MODIFIER_MAX = 5
"""Most upgrades or downgrades of one kind the dialog takes (a typing guard; the engine
takes any count up to its pool limit)."""
EXTRA_DICE_MAX = 10
"""Most boost or setback dice the dialog adds."""
RULE_IMPOSSIBLE = f"{genesys.SOURCE}, Impossible Tasks"


def _count_field(label: str, most: int) -> forms.IntegerField:
    """An optional count of dice or of modifications, 0 to ``most`` (blank is 0)."""
    return forms.IntegerField(required=False, min_value=0, max_value=most, initial=0,
                              label=label)


def _values(data: Mapping[str, Any], name: str) -> list[str]:
    """Every value of ``name`` in a QueryDict or a plain dict (the demo and tests pass one)."""
    if hasattr(data, "getlist"):
        return [str(v) for v in data.getlist(name)]
    value = data.get(name, [])
    return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]


class GenesysCreationForm(Form):
    """A new Genesys character: name, concept, career, and the career skills with the free
    ranks of creation (Genesys Core Rulebook, Step 2 Average Human and Step 3 Choose a
    Career; :func:`rulesets.genesys.check_career` checks them).

    ``skills`` is the campaign's skill list. ``clean()`` names the rule broken.
    """

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False, label="Concept",
                              help_text="A few words: who they are.")
    career = forms.CharField(max_length=60, required=False, label="Career",
                             help_text="The career's name, e.g. Soldier or Scoundrel.")
    career_skills = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label="Career skills")
    free_ranks = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label="Free ranks")

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 skills: Sequence[genesys.SkillInfo]) -> None:
        super().__init__(data)
        self.skills = list(skills)
        choices = [(s.name, s.name) for s in self.skills]
        self.fields["career_skills"].choices = choices  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
        self.fields["free_ranks"].choices = choices  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field

    def rows(self) -> list[dict[str, Any]]:
        """One row per skill for the template: the skill, and whether its two boxes are
        ticked (the player's input is kept when the form comes back with an error)."""
        career = set(_values(self.data, "career_skills"))
        free = set(_values(self.data, "free_ranks"))
        return [{"skill": s, "career": s.name in career, "free": s.name in free}
                for s in self.skills]

    def clean(self) -> dict[str, Any]:
        """Check the career skills and free ranks together (a free rank in a career skill is
        a free career rank, any other a free non-career rank). Raises ValidationError with
        the RuleError's text, rule named."""
        cleaned = super().clean() or {}
        if "career_skills" in self.errors or "free_ranks" in self.errors:
            return cleaned
        career = cleaned.get("career_skills") or []
        free = cleaned.get("free_ranks") or []
        try:
            genesys.check_career(
                [s.name for s in self.skills], career,
                [n for n in free if n in career], [n for n in free if n not in career])
        except RuleError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return cleaned


class GenesysRollForm(Form):
    """The check dialog: a skill (or a characteristic alone), a difficulty level, the
    player's Destiny flip, the upgrades and downgrades, and boost and setback dice (Genesys
    dice pool, Basic Dice Pool and Modifying a Dice Pool). ``skills`` is the campaign's skill
    list.

    ``destiny_point``: the player flips a light Destiny point to upgrade an ability die (an
    Impossible task cannot be attempted without it: Impossible Tasks). ``destiny_dark`` and
    ``answers`` are not drawn in the dialog: a GM's request carries them (the GM's dark flip,
    and the request answered), and the system accepts a dark flip only as the GM asked
    (:func:`systems.genesys.destiny.require_gm_flip_as_asked`)."""

    skill = forms.ChoiceField(required=False, label="Skill")
    characteristic = forms.ChoiceField(
        required=False, label="Characteristic",
        choices=[("", "The skill's own")] + CHARACTERISTIC_CHOICES,
        help_text="Leave it to the skill's own unless the GM pairs it with another.")
    difficulty = forms.ChoiceField(choices=DIFFICULTY_CHOICES, initial="Average",
                                   required=False, label="Difficulty",
                                   help_text="Average when not given.")
    destiny_point = forms.BooleanField(
        required=False,
        label="Flip a light Destiny point to upgrade an ability die (an Impossible task "
              "needs one)")
    destiny_dark = forms.BooleanField(
        required=False, widget=forms.HiddenInput,
        label="The GM flips a dark Destiny point to upgrade a difficulty die")
    answers = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    upgrade_ability = _count_field("Upgrade ability dice", MODIFIER_MAX)
    upgrade_difficulty = _count_field("Upgrade difficulty dice", MODIFIER_MAX)
    downgrade_proficiency = _count_field("Downgrade proficiency dice", MODIFIER_MAX)
    downgrade_challenge = _count_field("Downgrade challenge dice", MODIFIER_MAX)
    boost = _count_field("Boost dice", EXTRA_DICE_MAX)
    setback = _count_field("Setback dice", EXTRA_DICE_MAX)

    COUNTS = ("upgrade_ability", "upgrade_difficulty", "downgrade_proficiency",
              "downgrade_challenge", "boost", "setback")

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 skills: Sequence[genesys.SkillInfo]) -> None:
        super().__init__(data)
        self.fields["skill"].choices = [("", "No skill: a characteristic alone")] + [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (s.name, f"{s.name} ({s.characteristic})") for s in skills]

    def clean(self) -> dict[str, Any]:
        """Blank counts become 0 and a blank difficulty "Average"; raises ValidationError
        when neither a skill nor a characteristic is chosen (there is no pool to show), and
        for an Impossible task without the light Destiny point it requires (Genesys dice
        pool, Impossible Tasks), naming the box to tick."""
        cleaned = super().clean() or {}
        for name in self.COUNTS:
            if cleaned.get(name) is None and name not in self.errors:
                cleaned[name] = 0
        if not cleaned.get("difficulty") and "difficulty" not in self.errors:
            cleaned["difficulty"] = "Average"
        if not cleaned.get("skill") and not cleaned.get("characteristic"):
            raise forms.ValidationError(
                "Choose a skill, or a characteristic to roll alone, to see the pool.")
        if cleaned.get("difficulty") == genesys.IMPOSSIBLE and not cleaned.get("destiny_point"):
            raise forms.ValidationError(
                "Attempting an Impossible task requires the player to spend one Destiny "
                "point: tick “Flip a light Destiny point” to attempt it "
                f"({citation(RULE_IMPOSSIBLE)}).")
        return cleaned


class TrackForm(Form):
    """Suffer or heal wounds or strain: an amount (1-20 wounds or strain at a time) and a
    direction ("suffer" or "heal")."""

    amount = forms.IntegerField(min_value=1, max_value=20, initial=1, label="Amount")
    direction = forms.ChoiceField(choices=[("suffer", "Suffer"), ("heal", "Heal")])


class NoFieldsForm(Form):
    """A button with nothing to fill in (finish or reopen creation, reset the skill list)."""


class SkillSetForm(Form):
    """The GM adds a skill to the campaign's list, or changes the characteristic of one."""

    name = forms.CharField(max_length=genesys.SKILL_NAME_MAX, label="Skill")
    characteristic = forms.ChoiceField(choices=CHARACTERISTIC_CHOICES,
                                       label="Characteristic")


class SkillRemoveForm(Form):
    """The GM removes a skill from the campaign's list."""

    name = forms.CharField(max_length=genesys.SKILL_NAME_MAX)


class GenesysRequestForm(Form):
    """What the GM asks the players to roll: a skill of the campaign's list, a difficulty
    level, difficulty upgrades, the GM's dark Destiny flip, boost and setback dice (Genesys
    dice pool, Basic Dice Pool; Difficulty). ``skills`` is the campaign's skill list."""

    skill = forms.ChoiceField(label="Skill")
    difficulty = forms.ChoiceField(choices=DIFFICULTY_CHOICES, initial="Average",
                                   label="Difficulty")
    upgrade_difficulty = _count_field("Upgrade difficulty dice", MODIFIER_MAX)
    destiny_dark = forms.BooleanField(
        required=False,
        label="Flip a dark Destiny point to upgrade a difficulty die (when the roll is made)")
    boost = _count_field("Boost dice", EXTRA_DICE_MAX)
    setback = _count_field("Setback dice", EXTRA_DICE_MAX)

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 skills: Sequence[genesys.SkillInfo]) -> None:
        super().__init__(data, auto_id="gx-request-%s")
        self.fields["skill"].choices = [(s.name, f"{s.name} ({s.characteristic})")  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
                                        for s in skills]


# --- The GM's Destiny pool (systems.genesys.destiny) -------------------------------------------


class DestinySetForm(Form):
    """The GM sets the Destiny pool by hand: light and dark points, 0 to
    :data:`~rulesets.genesys.DESTINY_MAX` each (the engine refuses more than that together)."""

    light = forms.IntegerField(min_value=0, max_value=genesys.DESTINY_MAX, initial=0,
                               label="Light side points")
    dark = forms.IntegerField(min_value=0, max_value=genesys.DESTINY_MAX, initial=0,
                              label="Dark side points")


class DestinyRollForm(Form):
    """The GM rolls the Destiny pool: how many Force dice, 1 to
    :data:`~rulesets.genesys.FORCE_DICE_MAX` (blank: one per character in the party)."""

    dice = forms.IntegerField(required=False, min_value=1, max_value=genesys.FORCE_DICE_MAX,
                              label="Force dice",
                              help_text="One per player; leave it blank for one per "
                                        "character in the party.")


class DestinyFlipForm(Form):
    """The GM flips one Destiny point outside a roll: ``side`` is the side it shows now."""

    side = forms.ChoiceField(choices=[(genesys.LIGHT, "A light point to dark"),
                                      (genesys.DARK, "A dark point to light")],
                             label="Flip")
