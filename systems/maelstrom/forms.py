"""Maelstrom's forms for the sheet's in-place changes (damage, healing, willpower, a merit or
flaw the GM grants or removes) and the XP page (a purchase, banking). Their field names are the
ones the sheet, the GM's party card and the XP page post (Maelstrom rules.md, Marking Damage /
Willpower / Merits and Flaws / Spending Experience / Banking Experience)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms

from core.forms import Form
from rulesets import maelstrom
from rulesets.maelstrom import MeritFlawChoice
from systems.maelstrom.creation_forms import MeritFlawForm, merit_flaw_options
from systems.maelstrom.sheet import (
    ABILITY,
    FLAW,
    SPECIALTY,
    WILLPOWER_KEY,
    trait_key,
    trait_refs,
    willpower,
)

if TYPE_CHECKING:
    from characters.models import Character

ADVANCED_SPECIALTY = "advanced-specialty"
"""The request key's kind of a new advanced specialty (``advanced-specialty:Driving:Cars``);
the ledger records it as ``specialty:Driving:Cars`` (:meth:`Maelstrom.quote`)."""

NEW_SPECIALTY = "specialty"
"""The purchase form's ``trait`` value for "A new specialty…"."""

DAMAGE_CHOICES = [(kind, kind.capitalize()) for kind in maelstrom.DAMAGE_KINDS]
HEAL_CHOICES = [("", "Least serious first"), *DAMAGE_CHOICES]


class DamageForm(Form):
    """Mark damage: a type and a number of levels (Maelstrom rules.md, Marking Damage)."""

    kind = forms.ChoiceField(choices=DAMAGE_CHOICES, label="Damage type")
    levels = forms.IntegerField(min_value=1, max_value=10, initial=1, label="Levels")


class HealForm(Form):
    """Heal one level: of a type, or the least serious first ("" for kind)."""

    kind = forms.ChoiceField(choices=HEAL_CHOICES, required=False, label="Heal")


_WILLPOWER_CHOICE = "Choose to spend or recover willpower, or resolve the incapacitation."


class WillpowerForm(Form):
    """Spend or recover one current willpower dot (Maelstrom rules.md, Willpower), or resolve
    a zero-willpower incapacitation without a dot (Zero Willpower); anything else is refused
    with one message."""

    action = forms.ChoiceField(
        choices=[("spend", "Spend"), ("recover", "Recover"),
                 ("resolve", "Resolve the incapacitation")],
        error_messages={"required": _WILLPOWER_CHOICE, "invalid_choice": _WILLPOWER_CHOICE},
    )


def trait_choices(sheet: dict[str, Any]) -> list[tuple[str, str]]:
    """Ledger keys of what XP buys or is banked into, with the current rank in the label
    ("Driving (3)"): the abilities, then the attributes, each in the catalogue's order, then
    Willpower ("Willpower (3)", its permanent rank)."""
    refs = sorted(trait_refs(sheet).values(), key=lambda ref: ref.kind != ABILITY)
    choices = [(trait_key(ref.kind, ref.name), f"{ref.name} ({ref.dots})") for ref in refs]
    choices.append((WILLPOWER_KEY, f"Willpower ({willpower(sheet)[0]})"))
    return choices


def specialty_key(ability: str, name: str, advanced: bool) -> str:
    """The request key of a new specialty: ``specialty:Driving:Cars`` (general) or
    ``advanced-specialty:Driving:Cars``; the name's spaces are squeezed."""
    kind = ADVANCED_SPECIALTY if advanced else SPECIALTY
    return f"{kind}:{ability}:{' '.join(name.split())}"


class SpendForm(Form):
    """Buy the next dot of a trait, or a new specialty (Maelstrom rules.md, Spending
    Experience).

    ``trait`` is a ledger key (``ability:Driving``, ``willpower``) or ``specialty`` for a new
    specialty under ``ability`` named ``specialty_name`` (``advanced`` ticked for an
    advanced one). A ``key`` (what :meth:`Maelstrom.quote` takes, as the XP page's list of
    advances posts it) may stand instead of ``trait``. ``cleaned_data["key"]`` is the request
    key either way; ``expected_cost`` the price confirmed (None before confirming).

    Args:
        character: whose sheet lists the traits (keyword-only).
    """

    key = forms.CharField(max_length=200, required=False, widget=forms.HiddenInput)
    trait = forms.ChoiceField(label="Trait", required=False)
    ability = forms.ChoiceField(
        choices=[("", "—")] + [(name, name) for name in maelstrom.ABILITIES],
        required=False, label="Specialty of",
    )
    specialty_name = forms.CharField(max_length=80, required=False, label="Specialty name")
    advanced = forms.BooleanField(required=False, label="Advanced specialty")
    expected_cost = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trait"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            *trait_choices(character.sheet), (NEW_SPECIALTY, "A new specialty…")
        ]

    def clean(self) -> dict[str, Any]:
        """The cleaned data with ``key``: the trait's ledger key, or for a new specialty
        ``specialty:<ability>:<name>`` (``advanced-specialty:...`` when ticked); a posted
        ``key`` (the quote's confirm form) is kept as it is."""
        data = super().clean() or {}
        trait = data.get("trait")
        if trait == NEW_SPECIALTY:
            name = (data.get("specialty_name") or "").strip()
            if not data.get("ability"):
                self.add_error("ability", "Choose the ability the specialty belongs to.")
            if not name:
                self.add_error("specialty_name", "Name the specialty.")
            if data.get("ability") and name:
                data["key"] = specialty_key(data["ability"], name, bool(data.get("advanced")))
        elif trait:
            data["key"] = trait
        elif not data.get("key") and "trait" not in self.errors:
            self.add_error("trait", forms.Field.default_error_messages["required"])
        return data


class BankForm(Form):
    """Bank available XP into one trait (Maelstrom rules.md, Banking Experience): ``trait``
    an attribute's, an ability's or Willpower's ledger key, ``amount`` XP.

    Args:
        character: whose sheet lists the traits (keyword-only).
    """

    trait = forms.ChoiceField(label="Bank into")
    amount = forms.IntegerField(min_value=1, max_value=1000, initial=1, label="XP")

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trait"].choices = trait_choices(character.sheet)  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field



class MeritFlawGrantForm(MeritFlawForm):
    """The GM grants a merit or flaw after creation (Maelstrom rules.md, Merits and Flaws):
    ``choice`` "Name|points" from the seed's lists at one of its prices (each option says
    what it costs or gives: "Huge Size, costs 4 XP"), ``detail`` what it applies to. Its
    ``cleaned_data["merit_flaw"]`` is the :class:`rulesets.maelstrom.MeritFlawChoice`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["choice"].widget.choices = merit_flaw_options()[1:]
        self.fields["choice"].label = "Merit or flaw"

    def clean(self) -> dict[str, Any]:
        """The row's check, and a choice required."""
        data = super().clean()
        if not self.errors and data.get("merit_flaw") is None:
            self.add_error("choice", "Choose the merit or flaw to grant.")
        return data


_CONFIRM_REMOVAL = "Tick the box to confirm: removing it reverses its XP."


class MeritFlawRemoveForm(Form):
    """The GM removes one of the character's merits or flaws (Maelstrom rules.md, Merits and
    Flaws): ``which`` is its label with its kind ("flaw:Addict (nicotine)"), ``confirm`` must
    be ticked (the removal reverses the XP it cost or gave).

    Args:
        character: whose sheet lists the merits and flaws (keyword-only).
    """

    which = forms.ChoiceField(label="Merit or flaw to remove")
    confirm = forms.BooleanField(label="Yes, remove it and reverse its XP",
                                 error_messages={"required": _CONFIRM_REMOVAL})

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["which"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (removal_key(row), removal_label(row))
            for row in character.sheet.get("merits_flaws", [])]


def removal_key(row: Mapping[str, Any]) -> str:
    """A merit's or flaw's value in :class:`MeritFlawRemoveForm`: "merit:Huge Size",
    "flaw:Addict (nicotine)" (its kind and :attr:`MeritFlawChoice.label`)."""
    return f"{row['kind']}:{merit_flaw_choice(row).label}"


def removal_label(row: Mapping[str, Any]) -> str:
    """How a merit or flaw reads in the removal list, with what removing it does to XP:
    "Huge Size (merit): gives back 4 XP", "Hunted (flaw): costs 4 XP"."""
    choice = merit_flaw_choice(row)
    back = "costs" if choice.kind == FLAW else "gives back"
    return f"{choice.label} ({choice.kind}): {back} {choice.points} XP"


def merit_flaw_choice(row: Mapping[str, Any]) -> MeritFlawChoice:
    """A stored ``sheet["merits_flaws"]`` row as the engine's :class:`MeritFlawChoice`."""
    return MeritFlawChoice(str(row["name"]), str(row["kind"]), int(row["points"]),
                           str(row.get("detail", "")))
