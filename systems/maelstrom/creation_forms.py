"""The forms of Maelstrom's creation steps (Maelstrom rules.md, Character Creation): name
and concept, attributes, abilities, and the starting-XP step (:class:`XpStep`: final ranks,
specialty rows, merit and flaw rows).

Each form checks its step through ``rulesets.maelstrom`` (a refusal is a form error naming the
rule) and writes its valid values into the :class:`~systems.maelstrom.creation.Draft` the view
keeps in the session (``apply``); the view is ``systems.maelstrom.views.character_create``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from core.forms import Form
from rulesets import maelstrom
from rulesets.maelstrom import MeritFlawChoice, RuleError, Specialty
from systems.fields import character_name_field
from systems.maelstrom.creation import Draft, check_merit_flaw, check_specialty
from systems.maelstrom.sheet import WILLPOWER_KEY


def field_slug(name: str) -> str:
    """``Heavy Weapons`` -> ``heavy_weapons`` (form field names and HTML ids)."""
    return name.lower().replace(" ", "_").replace("-", "_")


def _rank_input(low: int, high: int) -> forms.NumberInput:
    # The engine refuses ranks out of range with its own message; min/max only guide browsers.
    return forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric"})


class ConceptForm(Form):
    """Step 1: the character's name (required) and concept (optional)."""

    name = character_name_field()
    concept = forms.CharField(
        max_length=200, required=False, label="Concept",
        help_text="A few words, e.g. “Smuggler with a past”.",
    )

    @classmethod
    def initial_from(cls, draft: Draft) -> dict[str, Any]:
        """The form's initial values from ``draft`` (what the step shows when it is opened
        again)."""
        return {"name": draft.name, "concept": draft.concept}

    def apply(self, draft: Draft) -> None:
        """Write the valid form's values into ``draft`` (the caller saves the draft in the
        session)."""
        draft.name = self.cleaned_data["name"].strip()
        draft.concept = self.cleaned_data["concept"].strip()


class RuleCheckedForm(Form):
    """A form whose ``clean`` runs a rules-engine check and shows its RuleError."""

    def clean(self) -> dict[str, Any]:
        """The cleaned data as a dict (never ``None``): each step's form checks its rule on
        top of it."""
        data = super().clean()
        # Form.clean returns cleaned_data; django-stubs says None because an override may.
        assert data is not None
        return data

    def add_rule_error(self, error: RuleError, field_name: str | None = None) -> None:
        """Show ``error`` (its message and the rule it cites) on ``field_name``, or on the whole
        form."""
        self.add_error(field_name, str(error))


class AttributesForm(RuleCheckedForm):
    """Primary group and the final rank of each attribute (Maelstrom rules.md, Starting
    Attributes)."""

    primary = forms.ChoiceField(
        label="Primary group",
        choices=[(group, group) for group in maelstrom.ATTRIBUTE_GROUPS],
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in maelstrom.ATTRIBUTES:
            self.fields[field_slug(name)] = forms.IntegerField(
                label=name, initial=1, widget=_rank_input(1, maelstrom.DOTS_MAX)
            )

    @classmethod
    def initial_from(cls, draft: Draft) -> dict[str, Any]:
        """The form's initial values from ``draft`` (what the step shows when it is opened
        again)."""
        initial: dict[str, Any] = {field_slug(n): draft.attribute_start(n)
                                   for n in maelstrom.ATTRIBUTES}
        if draft.primary:
            initial["primary"] = draft.primary
        return initial

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The fields in the seed's groups, in order: ``[(group, [bound field, ...])]``."""
        return [(group, [self[field_slug(n)] for n in names])
                for group, names in maelstrom.ATTRIBUTE_GROUPS.items()]

    def clean(self) -> dict[str, Any]:
        """The cleaned data, once the rules engine accepts the dots: 7/5/3 over the groups,
        the primary group first (Maelstrom rules.md, Attributes); else a form error naming
        the rule."""
        data = super().clean()
        if self.errors:
            return data
        try:
            maelstrom.validate_attributes(
                data["primary"], {n: data[field_slug(n)] for n in maelstrom.ATTRIBUTES}
            )
        except RuleError as error:
            self.add_rule_error(error)
        return data

    def apply(self, draft: Draft) -> None:
        """Write the valid form's values into ``draft`` (the caller saves the draft in the
        session)."""
        draft.primary = self.cleaned_data["primary"]
        draft.attributes = {n: self.cleaned_data[field_slug(n)] for n in maelstrom.ATTRIBUTES}


class AbilitiesForm(RuleCheckedForm):
    """The rank of each of the 24 abilities (Maelstrom rules.md, Starting Abilities)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in maelstrom.ABILITIES:
            self.fields[field_slug(name)] = forms.IntegerField(
                label=name, initial=0, widget=_rank_input(0, 3)
            )

    @classmethod
    def initial_from(cls, draft: Draft) -> dict[str, Any]:
        """The form's initial values from ``draft`` (what the step shows when it is opened
        again)."""
        return {field_slug(n): draft.ability_start(n) for n in maelstrom.ABILITIES}

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The fields in the seed's groups, in order: ``[(group, [bound field, ...])]``."""
        return [(group, [self[field_slug(n)] for n in names])
                for group, names in maelstrom.ABILITY_GROUPS.items()]

    def clean(self) -> dict[str, Any]:
        """The cleaned data, once the rules engine accepts the ability dots (Maelstrom
        rules.md, Abilities); else a form error naming the rule."""
        data = super().clean()
        if self.errors:
            return data
        try:
            maelstrom.validate_abilities({n: data[field_slug(n)] for n in maelstrom.ABILITIES})
        except RuleError as error:
            self.add_rule_error(error)
        return data

    def apply(self, draft: Draft) -> None:
        """Write the valid form's values into ``draft`` (the caller saves the draft in the
        session)."""
        draft.abilities = {n: self.cleaned_data[field_slug(n)] for n in maelstrom.ABILITIES}


class RanksForm(RuleCheckedForm):
    """Final Willpower, attribute and ability ranks after spending starting XP."""

    def __init__(self, draft: Draft, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.draft = draft
        # (field name, engine trait kind, trait name, starting rank)
        self.specs: list[tuple[str, str, str, int]] = [
            ("willpower", WILLPOWER_KEY, "Willpower", maelstrom.STARTING_WILLPOWER)
        ]
        self.fields["willpower"] = forms.IntegerField(
            label="Willpower", initial=draft.willpower,
            widget=_rank_input(maelstrom.STARTING_WILLPOWER, maelstrom.WILLPOWER_MAX),
        )
        for name in maelstrom.ATTRIBUTES:
            slug = f"attribute_{field_slug(name)}"
            start = draft.attribute_start(name)
            self.specs.append((slug, "attribute", name, start))
            self.fields[slug] = forms.IntegerField(
                label=name, initial=draft.attribute_final(name),
                widget=_rank_input(start, maelstrom.DOTS_MAX),
            )
        for name in maelstrom.ABILITIES:
            slug = f"ability_{field_slug(name)}"
            start = draft.ability_start(name)
            self.specs.append((slug, "ability", name, start))
            self.fields[slug] = forms.IntegerField(
                label=name, initial=draft.ability_final(name),
                widget=_rank_input(start, maelstrom.DOTS_MAX),
            )

    def willpower_field(self) -> forms.BoundField:
        """The Willpower rank's bound field (1-10 dots)."""
        return self["willpower"]

    def attribute_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, int]]]]:
        """The attribute fields with each attribute's starting dots, in the seed's groups:
        ``[(group, [(bound field, dots), ...])]``."""
        return [
            (group, [(self[f"attribute_{field_slug(n)}"], self.draft.attribute_start(n))
                     for n in names])
            for group, names in maelstrom.ATTRIBUTE_GROUPS.items()
        ]

    def ability_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, int]]]]:
        """The ability fields with each ability's starting dots, in the seed's groups: ``[(group,
        [(bound field, dots), ...])]``."""
        return [
            (group, [(self[f"ability_{field_slug(n)}"], self.draft.ability_start(n))
                     for n in names])
            for group, names in maelstrom.ABILITY_GROUPS.items()
        ]

    def clean(self) -> dict[str, Any]:
        """The cleaned data; each rank the XP cannot buy is a form error on its field,
        naming the rule (Maelstrom rules.md, Spending Experience)."""
        data = super().clean()
        for slug, kind, label, start in self.specs:
            if slug in data:
                try:
                    maelstrom.rank_cost(kind, label, start, data[slug])
                except RuleError as error:
                    self.add_rule_error(error, slug)
        return data

    def apply(self, draft: Draft) -> None:
        """Copy the valid ranks onto ``draft`` (invalid fields keep the draft's value)."""
        data = getattr(self, "cleaned_data", {})
        if "willpower" in data:
            draft.willpower = data["willpower"]
        for slug, kind, name, start in self.specs:
            if slug not in data or kind == WILLPOWER_KEY:
                continue
            extras = draft.attribute_xp if kind == "attribute" else draft.ability_xp
            if data[slug] > start:
                extras[name] = data[slug] - start
            else:
                extras.pop(name, None)


CLASSIFICATION_AUTO = ""


class SpecialtyForm(RuleCheckedForm):
    """One specialty row; a row without a name is ignored (that is how one is removed)."""

    ability = forms.ChoiceField(required=False, label="Ability")
    name = forms.CharField(required=False, max_length=80, label="Specialty")
    classification = forms.ChoiceField(required=False, label="Kind")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ability"].choices = [("", "Choose an ability")] + [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (group, [(name, name) for name in names])
            for group, names in maelstrom.ABILITY_GROUPS.items()
        ]
        self.fields["classification"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (CLASSIFICATION_AUTO, "As the rules suggest (else general)"),
            ("general", f"General ({maelstrom.xp_cost('general_specialty', 1)} XP)"),
            ("advanced", f"Advanced ({maelstrom.xp_cost('advanced_specialty', 1)} XP)"),
        ]
        self.fields["name"].widget.attrs["list"] = "specialty-suggestions"

    def clean(self) -> dict[str, Any]:
        """The cleaned data with ``specialty`` (a :class:`Specialty` or ``None`` for an
        empty row); a specialty the rules refuse is a form error (Maelstrom rules.md,
        Specialties)."""
        data = super().clean()
        data["specialty"] = None
        name = (data.get("name") or "").strip()
        if self.errors or not name:
            return data
        ability = data.get("ability") or ""
        if not ability:
            self.add_error("ability", f"Choose the ability the specialty {name} belongs to.")
            return data
        suggestion = maelstrom.suggested_specialty(ability, name)
        classification = data.get("classification") or CLASSIFICATION_AUTO
        if suggestion is not None:
            # The seed classifies its suggestions; an advanced one is never sold as general.
            name, advanced = suggestion
        else:
            advanced = classification == "advanced"
        specialty = Specialty(ability=ability, name=name, advanced=advanced)
        try:
            check_specialty(specialty)
        except RuleError as error:
            self.add_rule_error(error)
            return data
        data["specialty"] = specialty
        return data


def merit_flaw_value(name: str, points: int) -> str:
    """A merit or flaw row's select value: ``"Addict|1"`` (the name and one listed price)."""
    return f"{name}|{points}"


def merit_flaw_options() -> list[tuple[str, Any]]:
    """Select options: every merit and flaw at each of its prices, grouped, each saying
    whether it costs or gives XP ("Addict, gives 1 XP")."""

    def options(entries: Mapping[str, maelstrom.MeritFlaw]) -> list[tuple[str, str]]:
        return [
            (merit_flaw_value(entry.name, points),
             f"{entry.name}, {maelstrom.merit_flaw_price(entry.kind, points)}")
            for entry in entries.values()
            for points in entry.points
        ]

    return [
        ("", "None"),
        ("Merits (cost XP)", options(maelstrom.MERITS)),
        ("Flaws (give XP)", options(maelstrom.FLAWS)),
    ]


class MeritFlawForm(RuleCheckedForm):
    """One merit or flaw row: the choice carries the name and price ("Addict|1")."""

    choice = forms.CharField(required=False, label="Merit or flaw")
    detail = forms.CharField(
        required=False, max_length=120, label="Detail (optional)",
        help_text="e.g. the sense, the substance; for Inept, the ability",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["choice"].widget = forms.Select(choices=merit_flaw_options())

    def clean(self) -> dict[str, Any]:
        """The cleaned data with ``merit_flaw`` (a :class:`MeritFlawChoice` or ``None`` for
        an empty row); one the seed's lists refuse is a form error (Maelstrom rules.md, Merits
        and Flaws)."""
        data = super().clean()
        data["merit_flaw"] = None
        raw = (data.get("choice") or "").strip()
        if self.errors or not raw:
            return data
        name, _, points_text = raw.rpartition("|")
        entry = maelstrom.merit_flaw_entry(name)
        if entry is None:
            self.add_error(
                "choice", f"“{name or raw}” is not on the seed's lists of merits and flaws."
            )
            return data
        try:
            points = int(points_text)
        except ValueError:
            points = -1
        choice = MeritFlawChoice(
            name=entry.name, kind=entry.kind, points=points,
            detail=(data.get("detail") or "").strip(),
        )
        try:
            check_merit_flaw(choice)
        except RuleError as error:
            self.add_rule_error(error, "choice")
            return data
        data["merit_flaw"] = choice
        return data


MAX_SPECIALTY_ROWS = 100
"""The most specialty rows the XP step takes (at 2 XP each, more than any starting XP buys in
practice). Django builds up to ``absolute_max`` forms from a posted ``TOTAL_FORMS``, 2,000 by
default, so a hostile count costs seconds of processor per request (docs/performance.md,
"Markdown bombs")."""

MAX_MERIT_FLAW_ROWS = 40
"""The most merit and flaw rows: the seed lists 28, and only the senses repeat."""

SpecialtyFormSet = forms.formset_factory(
    SpecialtyForm, extra=3, max_num=MAX_SPECIALTY_ROWS, absolute_max=MAX_SPECIALTY_ROWS,
    validate_max=True)
MeritFlawFormSet = forms.formset_factory(
    MeritFlawForm, extra=2, max_num=MAX_MERIT_FLAW_ROWS, absolute_max=MAX_MERIT_FLAW_ROWS,
    validate_max=True)


class XpStep:
    """The starting-XP step: ranks, specialty rows and merit/flaw rows together."""

    def __init__(self, draft: Draft, data: Mapping[str, Any] | None = None) -> None:
        self.draft = draft
        self.ranks = RanksForm(draft, data=data)
        # A bound formset gets no initial: a submitted row equal to its initial would count as
        # unchanged and be skipped, silently dropping it when the page's form counts differ.
        self.specialties = SpecialtyFormSet(
            data=data, prefix="sp",
            initial=None if data is not None else [
                {"ability": s.ability, "name": s.name,
                 "classification": _initial_classification(s)}
                for s in draft.specialties
            ],
        )
        self.merits_flaws = MeritFlawFormSet(
            data=data, prefix="mf",
            initial=None if data is not None else [
                {"choice": merit_flaw_value(m.name, m.points), "detail": m.detail}
                for m in draft.merits_flaws
            ],
        )

    def is_valid(self) -> bool:
        """Whether every row and the whole draft hold; the refusals are in
        :meth:`error_messages`."""
        results = [self.ranks.is_valid(), self.specialties.is_valid(),
                   self.merits_flaws.is_valid()]
        return all(results)

    def candidate(self) -> Draft:
        """The draft with every valid entry of the submitted step applied."""
        self.is_valid()
        draft = self.draft.copy()
        self.ranks.apply(draft)
        if self.specialties.is_bound:
            draft.specialties = _row_values(self.specialties, "specialty")
        if self.merits_flaws.is_bound:
            draft.merits_flaws = _row_values(self.merits_flaws, "merit_flaw")
        return draft

    def error_messages(self) -> list[str]:
        """Every field and row error as one readable line each (for the live summary)."""
        messages: list[str] = []
        if not self.ranks.is_bound:
            return messages
        for name, errors in self.ranks.errors.items():
            label = self.ranks.fields[name].label if name in self.ranks.fields else ""
            for error in errors:
                text = str(error)
                messages.append(text if not label or str(label) in text else f"{label}: {text}")
        for formset, row in ((self.specialties, "Specialty"), (self.merits_flaws, "Merit/flaw")):
            messages.extend(str(e) for e in formset.non_form_errors())
            for index, form_errors in enumerate(formset.errors, start=1):
                for errors in form_errors.values():  # type: ignore[attr-defined]  # django-stubs: BaseFormSet.errors holds each form's ErrorDict, typed as ErrorList
                    for error in errors:
                        messages.append(f"{row} row {index}: {error}")
        return messages


def _initial_classification(specialty: Specialty) -> str:
    """Show "as the rules suggest" when that is what the row resolved to, so renaming the
    row later picks up the new name's classification instead of a stale explicit choice."""
    suggestion = maelstrom.suggested_specialty(specialty.ability, specialty.name)
    default = suggestion[1] if suggestion is not None else False
    if specialty.advanced == default:
        return CLASSIFICATION_AUTO
    return "advanced" if specialty.advanced else "general"


def _row_values(formset: forms.BaseFormSet[Any], key: str) -> list[Any]:
    return [
        form.cleaned_data[key]
        for form in formset.forms
        if getattr(form, "cleaned_data", None) and form.cleaned_data.get(key)
    ]


def specialty_suggestions() -> list[tuple[str, str]]:
    """Every suggested specialty as (name, "Ability, general/advanced") for a datalist."""
    suggestions = []
    for info in maelstrom.ABILITIES.values():
        for name in info.general_specialties:
            suggestions.append((name, f"{info.name}, general"))
        for name in info.advanced_specialties:
            suggestions.append((name, f"{info.name}, advanced"))
    return suggestions
