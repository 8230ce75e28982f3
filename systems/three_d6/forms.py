"""3d6's forms: creation, the health and level changes, the GM's names, the roll dialog and
the GM's request (the numbers they check are :mod:`systems.three_d6.sheet`'s decisions)."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

from django import forms

from core.forms import Form
from rulesets import three_d6
from rulesets.errors import citation
from systems.fields import character_name_field
from systems.three_d6.sheet import (
    DEFAULT_SUBTRAIT_SPREAD,
    DEFAULT_TRAIT_SPREAD,
    HEALTH_LIMIT,
    LEVEL_MAX,
    LEVEL_START,
    NAME_MAX_LENGTH,
    NPC_MODIFIER_LIMIT,
    RULE_CREATION,
    SEED,
    SITUATIONAL_LIMIT,
    SLOT_GROUPS,
    SLOTS,
    SUBTRAIT_BUDGET,
    SUBTRAIT_CREATION_MAX,
    SUBTRAIT_SLOTS,
    TD_LIMIT,
    TRAIT_BUDGET,
    TRAIT_CREATION_MAX,
    TRAIT_SLOTS,
    is_trait,
    names,
    slot_choices,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character


def whole_number(low: int, high: int, **kwargs: Any) -> forms.IntegerField:
    """An integer field from ``low`` to ``high`` whose every refusal says what a valid value
    is ("Enter a whole number from 0 to 3."): a browser sends an ``<input type=number>``
    holding "abc" as empty, so "required" is what a mistyped number meets, and "This field
    is required." would not tell the player what to type. ``kwargs`` go to the field."""
    text = f"Enter a whole number from {low} to {high}."
    return forms.IntegerField(
        min_value=low, max_value=high,
        error_messages={"required": text, "invalid": text, "min_value": text,
                        "max_value": text},
        **kwargs)


def _field_groups(form: forms.Form) -> list[tuple[forms.BoundField, list[forms.BoundField]]]:
    """Each trait's bound field with its two subtraits', for a template (the form has one
    field per slot)."""
    return [(form[t], [form[s] for s in subtraits]) for t, subtraits in SLOT_GROUPS]


# --- Creation -------------------------------------------------------------------------------


class CreationForm(Form):
    """Name, concept and a modifier for every trait and subtrait, checked against the
    creation budgets (decision, see :data:`TRAIT_BUDGET`): six points over the traits (0 to
    +3 each) and six over the subtraits (0 to +2 each), all spent."""

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False)

    def __init__(self, data: Mapping[str, Any] | None = None, *, campaign: Campaign) -> None:
        super().__init__(data)
        named = names(campaign)
        for slot, start in zip(TRAIT_SLOTS, DEFAULT_TRAIT_SPREAD, strict=True):
            self.fields[slot] = whole_number(0, TRAIT_CREATION_MAX, label=named[slot],
                                             initial=start)
        for slot, start in zip(SUBTRAIT_SLOTS, DEFAULT_SUBTRAIT_SPREAD, strict=True):
            self.fields[slot] = whole_number(0, SUBTRAIT_CREATION_MAX, label=named[slot],
                                             initial=start)
        for slot in SLOTS:
            self.fields[slot].widget.attrs.update({"inputmode": "numeric", "class": "rank-input"})

    budgets: dict[str, int] = {  # read-only, for the template
        "traits": TRAIT_BUDGET, "trait_max": TRAIT_CREATION_MAX,
        "subtraits": SUBTRAIT_BUDGET, "subtrait_max": SUBTRAIT_CREATION_MAX,
    }

    def field_groups(self) -> list[tuple[forms.BoundField, list[forms.BoundField]]]:
        """Each trait's bound field with its two subtraits', for the template."""
        return _field_groups(self)

    def clean(self) -> dict[str, Any]:
        """Refuse a spread that does not spend each budget exactly, naming the sum and the
        difference (ValidationError)."""
        cleaned = super().clean() or {}
        if any(slot not in cleaned for slot in SLOTS):
            return cleaned  # a field error already names the broken value
        for slots, budget, what in ((TRAIT_SLOTS, TRAIT_BUDGET, "trait"),
                                    (SUBTRAIT_SLOTS, SUBTRAIT_BUDGET, "subtrait")):
            spent = sum(cleaned[slot] for slot in slots)
            if spent != budget:
                more = "too many" if spent > budget else "left to spend"
                raise forms.ValidationError(
                    f"The {what} modifiers add up to {spent}; spend exactly {budget} points "
                    f"on {what}s ({abs(spent - budget)} {more}). ({citation(RULE_CREATION)})")
        return cleaned


# --- Track actions --------------------------------------------------------------------------


class HealthForm(Form):
    """Damage taken or healed, in health points."""

    change = forms.ChoiceField(choices=[("damage", "Damage"), ("heal", "Heal")])
    amount = whole_number(1, HEALTH_LIMIT, initial=1)


class LevelForm(Form):
    """The GM's setting of a character's level and maximum health."""

    level = whole_number(LEVEL_START, LEVEL_MAX)
    health_max = whole_number(1, HEALTH_LIMIT, label="Maximum health")


# --- Campaign actions -----------------------------------------------------------------------


class NamesForm(Form):
    """The campaign's six trait and twelve subtrait names, each unique: one field per slot,
    at most :data:`NAME_MAX_LENGTH` characters; ``initial`` maps slot -> current name."""

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 initial: MutableMapping[str, Any] | None = None) -> None:
        super().__init__(data, initial=initial)
        for slot in SLOTS:
            kind = "Trait" if is_trait(slot) else "Subtrait"
            self.fields[slot] = forms.CharField(max_length=NAME_MAX_LENGTH,
                                                label=f"{kind} {int(slot[1:]) + 1}")

    def field_groups(self) -> list[tuple[forms.BoundField, list[forms.BoundField]]]:
        """Each trait's bound field with its two subtraits', for the template."""
        return _field_groups(self)

    def clean(self) -> dict[str, Any]:
        """Refuse a name used twice, ignoring case (ValidationError)."""
        cleaned = super().clean() or {}
        seen: dict[str, str] = {}
        for slot in SLOTS:
            name = cleaned.get(slot)
            if not name:
                continue
            if name.casefold() in seen:
                raise forms.ValidationError(
                    f"{name!r} is used twice; each trait and subtrait needs its own name.")
            seen[name.casefold()] = slot
        return cleaned


class EmptyForm(Form):
    """A button with nothing to fill in."""


# --- Rolls ----------------------------------------------------------------------------------

MODES = [("test", "Test against a TD"), ("contest", "Contest")]
"""The roll dialog's kinds of roll (3d6 Rolls and Tests, Test Difficulty; Contesting)."""
DEFENDERS = [("neither", "Neither defends"), ("me", "I defend"),
             ("opponent", "The opponent defends"), ("both", "Both defend")]
"""Who defends in a contest (3d6 Rolls and Tests, Tie Breakers: the defender wins a tie)."""
NPC = "npc"
"""The opponent choice for an NPC described in the dialog rather than a character's pk."""


class RollForm(Form):
    """The roll dialog: a test of one trait or subtrait against a TD, or a contest against
    another character of the campaign or an NPC, with favor and disfavor on each side.
    ``opponents`` lists the campaign's other characters as (pk, name)."""

    mode = forms.ChoiceField(choices=MODES, initial="test", widget=forms.RadioSelect,
                             label="Kind of roll")
    target = forms.ChoiceField(label="Trait or subtrait")
    td = whole_number(three_d6.TD_MIN, TD_LIMIT, label="Test difficulty (TD)", required=False,
                      initial=10)
    situational = whole_number(-SITUATIONAL_LIMIT, SITUATIONAL_LIMIT,
                               label="Situational modifier", required=False, initial=0)
    favor = whole_number(0, three_d6.MAX_FAVOR, initial=0, required=False)
    disfavor = whole_number(0, three_d6.MAX_FAVOR, initial=0, required=False)
    opponent = forms.ChoiceField(label="Opponent", required=False)
    opponent_target = forms.ChoiceField(label="Opponent's trait or subtrait", required=False)
    npc_name = forms.CharField(label="NPC's name", max_length=60, required=False, initial="NPC")
    npc_modifier = whole_number(-NPC_MODIFIER_LIMIT, NPC_MODIFIER_LIMIT, label="NPC's modifier",
                                required=False, initial=0)
    npc_rating = whole_number(0, 99, label="NPC's rating (DR)", required=False, initial=1)
    opponent_favor = whole_number(0, three_d6.MAX_FAVOR, label="Opponent's favor", initial=0,
                                  required=False)
    opponent_disfavor = whole_number(0, three_d6.MAX_FAVOR, label="Opponent's disfavor",
                                     initial=0, required=False)
    defender = forms.ChoiceField(choices=DEFENDERS, initial="neither", required=False,
                                 label="Who defends")

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 opponents: list[tuple[int, str]]) -> None:
        super().__init__(data)
        self.fields["target"].choices = slot_choices(character.campaign, character)  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
        self.fields["opponent_target"].choices = slot_choices(character.campaign)  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
        self.fields["opponent"].choices = [(NPC, "An NPC"),  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
                                           *[(str(pk), name) for pk, name in opponents]]

    def clean(self) -> dict[str, Any]:
        """Blank numbers read 0; a test needs a TD, a contest an opponent (and a character
        opponent the trait it tests). Errors are added to their fields."""
        cleaned = super().clean() or {}
        for name in ("situational", "favor", "disfavor", "npc_modifier", "npc_rating",
                     "opponent_favor", "opponent_disfavor"):
            if cleaned.get(name) is None and name not in self.errors:
                cleaned[name] = 0
        if cleaned.get("mode") == "test":
            if cleaned.get("td") is None and "td" not in self.errors:
                rule = citation(f"{SEED}, Test Difficulty")
                self.add_error("td", f"A test needs a test difficulty (TD) of "
                                     f"{three_d6.TD_MIN} or more ({rule}).")
        elif cleaned.get("mode") == "contest":
            if not cleaned.get("opponent"):
                self.add_error("opponent", "Choose who you contest: a character or an NPC.")
            elif cleaned["opponent"] != NPC and not cleaned.get("opponent_target"):
                self.add_error("opponent_target",
                               "Choose the trait or subtrait your opponent tests.")
            cleaned["defender"] = cleaned.get("defender") or "neither"
            cleaned["npc_name"] = (cleaned.get("npc_name") or "").strip() or "NPC"
        return cleaned


class RequestForm(Form):
    """What the GM asks players to roll: a test of one trait or subtrait against a TD, with
    favor and disfavor (3d6 Rolls and Tests, Test Difficulty; Favor and Disfavor)."""

    target = forms.ChoiceField(label="Trait or subtrait to test")
    td = whole_number(three_d6.TD_MIN, TD_LIMIT, label="Test difficulty (TD)", initial=10)
    favor = whole_number(0, three_d6.MAX_FAVOR, initial=0, required=False)
    disfavor = whole_number(0, three_d6.MAX_FAVOR, initial=0, required=False)

    def __init__(self, data: Mapping[str, Any] | None = None, *, campaign: Campaign) -> None:
        super().__init__(data, auto_id="d6-request-%s")
        self.fields["target"].choices = slot_choices(campaign)  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
