"""The encounter's forms: start, add, the order, a turn, remove (docs/encounters.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms

from core.forms import Form
from encounters.services import Entry, Shown
from systems.initiative import ROLL_MAX

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from encounters.context import Place

NAME_MAX = 80
AUTO_ID = "encounter-%s"
"""The forms' ids: apart from those of the other forms on the campaign's page."""


class EncounterForm(Form):
    """A form of the encounter's card, its ids prefixed (:data:`AUTO_ID`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", AUTO_ID)
        super().__init__(*args, **kwargs)


class StartForm(EncounterForm):
    """A new encounter: an optional name and, on the encounters page, the session it happens
    in (blank: today's, if the campaign has one)."""

    name = forms.CharField(max_length=NAME_MAX, required=False, label="Name (optional)",
                           error_messages={"max_length": "Keep the name to %(limit_value)d "
                                                         "characters (it has %(show_value)d)."})
    session = forms.TypedChoiceField(required=False, coerce=int, empty_value=None,
                                     label="Session")

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["session"]
        assert isinstance(field, forms.TypedChoiceField)
        # A callable: read only where the field is drawn or checked (the dashboard's form
        # draws the name alone, and pays no query for it).
        field.choices = lambda: [("", "Today's session, if there is one"),
                                 *((s.pk, str(s)) for s in campaign.sessions.all())]


class AddForm(EncounterForm):
    """Characters to add to the fight, ticked among those the page offers (``choices``: the
    campaign's NPCs in play and any player character in play not in it yet)."""

    characters = forms.TypedMultipleChoiceField(
        coerce=int, label="Add to the fight", widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Tick at least one character or NPC to add.",
                        "invalid_choice": "One of those is no longer free to join: the "
                                          "list is shown as it stands."})

    def __init__(self, *args: Any, choices: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["characters"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = list(choices)


class TurnForm(EncounterForm):
    """A turn change ("Next", "Previous", "Delay", a player's "Done"): the turn the page
    showed, and for a sheet's "Done" the sheet it was pressed on (its answer redraws that
    sheet's order)."""

    round = forms.IntegerField(min_value=1, max_value=1_000_000, widget=forms.HiddenInput,
                               error_messages={"required": "The page sent no round: reload it.",
                                               "invalid": "The page sent no round: reload it."})
    turn = forms.CharField(max_length=36, required=False, widget=forms.HiddenInput)
    sheet = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def shown(self) -> Shown:
        """The turn the page showed."""
        return Shown(round=self.cleaned_data["round"], code=self.cleaned_data["turn"] or "")


class RemoveForm(EncounterForm):
    """The combatant to take out of the order, by its code."""

    combatant = forms.CharField(max_length=36, widget=forms.HiddenInput,
                                error_messages={"required": "Say whom to remove."})


class InitiativeForm(EncounterForm):
    """The order: for each combatant still in the fight its choice (where the system offers
    more than one) and its number (blank: the server rolls it). Fields are named after the
    combatant's code: ``choice-<code>``, ``roll-<code>``."""

    def __init__(self, *args: Any, places: Sequence[Place], choices: Sequence[tuple[str, str]],
                 stored: dict[str, tuple[str, int | None]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.places = list(places)
        self.choosing = len(choices) > 1
        for place in self.places:
            choice, roll = stored.get(place.code, ("", None))
            choice = choice or choices[0][0]
            if self.choosing:
                self.fields[f"choice-{place.code}"] = forms.ChoiceField(
                    choices=list(choices), initial=choice, label=f"{place.name}: initiative")
            self.fields[f"roll-{place.code}"] = forms.IntegerField(
                required=False, min_value=0, max_value=ROLL_MAX, initial=roll,
                label=f"{place.name}: roll" if self.choosing else f"{place.name}: initiative",
                error_messages={"invalid": "Enter a whole number, or leave it blank.",
                                "min_value": f"An initiative is 0 to {ROLL_MAX}.",
                                "max_value": f"An initiative is 0 to {ROLL_MAX}."},
                widget=forms.NumberInput(attrs={"min": 0, "max": ROLL_MAX,
                                                "inputmode": "numeric"}))

    def entries(self) -> dict[str, Entry]:
        """The cleaned form as ``initiative_set``'s entries, by combatant code."""
        data = self.cleaned_data
        return {place.code: Entry(choice=data.get(f"choice-{place.code}") or "",
                                  roll=data.get(f"roll-{place.code}"))
                for place in self.places}

    def rows(self) -> list[dict[str, Any]]:
        """One row of bound fields per combatant, for the template."""
        return [{"place": place,
                 "choice": self[f"choice-{place.code}"] if self.choosing else None,
                 "roll": self[f"roll-{place.code}"]} for place in self.places]
