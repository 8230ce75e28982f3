"""The contract's readings part: the rules a campaign may read another way, as the GM chooses
them on the campaign's settings page (docs/rules.md, Table readings).

The readings themselves are the rules engine's (each system's ``READINGS``, a
:class:`rulesets.readings.Readings` subclass); this part reads a campaign's choices into that
value for the system's pools and odds, builds the settings page's form from their
descriptions, and says a roll's readings in words. Nothing here names a system: a system's
readings come from its rules module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, final

from django import forms

from core.forms import Form
from rulesets.errors import BOOKS, OURS
from rulesets.readings import Reading, Readings
from rulesets.registry import RULESETS
from systems.part import SystemPart

if TYPE_CHECKING:
    from campaigns.models import Campaign


_OUR_DOCS = re.compile(r"docs/[\w/]+\.md")


def for_players(text: str) -> str:
    """A reading's words as a player reads them: a book by its name, not its file ("Maelstrom
    rules.md, Using Specialties" -> "Maelstrom rules, Using Specialties", as
    :func:`rulesets.errors.citation` words a rule), and a decision our docs record as ours
    ("(docs/rules.md)" -> "(Sheetkeeper's ruling)")."""
    text = _OUR_DOCS.sub(OURS, text)
    for source, name in BOOKS.items():
        text = text.replace(source, name)
    return text


class ReadingsForm(Form):
    """The GM's table readings: one choice per :class:`rulesets.readings.Reading` of the
    system, each drawn with the seed's words and a sentence per choice; the initial value
    is the campaign's reading. ``cleaned_data`` holds every reading's chosen value, which
    :meth:`ReadingsPart.readings_from` turns into the system's readings; a reading the POST
    leaves out keeps the campaign's (a page drawn before a reading was added still saves)."""

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 readings: tuple[Reading, ...], current: Readings,
                 disabled: bool = False) -> None:
        super().__init__(data, label_suffix="")
        self.readings = readings
        self.current = current.values()
        for reading in readings:
            self.fields[reading.key] = forms.ChoiceField(
                label=reading.title, help_text=for_players(reading.seed),
                choices=[(choice.value, for_players(choice.label))
                         for choice in reading.choices],
                initial=self.current[reading.key], widget=forms.RadioSelect,
                disabled=disabled, required=False)

    def clean(self) -> dict[str, Any]:
        """Every reading's value: the one chosen, or the campaign's where none was sent."""
        data = super().clean() or {}
        return {key: data.get(key) or value for key, value in self.current.items()}


@dataclass(kw_only=True)
class ReadingsPart(SystemPart):
    """What the system's rules let a campaign read another way. Everything comes from the
    rules module's ``READINGS``; a system overrides nothing here."""

    @property
    @final
    def readings_type(self) -> type[Readings]:
        """The system's :class:`rulesets.readings.Readings` subclass (its rules module's
        ``READINGS``; the base class, with no readings, for a system without a module)."""
        module = RULESETS[self.slug].module if self.slug in RULESETS else None
        return module.READINGS if module is not None else Readings

    @property
    @final
    def readings(self) -> tuple[Reading, ...]:
        """The system's readings, as the settings page lists them (``()`` when it has none)."""
        return self.readings_type.READINGS

    @final
    def readings_of(self, campaign: Campaign) -> Readings:
        """The campaign's readings as the system's engine takes them (no query: they are the
        campaign's own column). A stored key or value no longer offered reads as the default.
        """
        return self.readings_type.from_values(campaign.readings, strict=False)

    @final
    def readings_from(self, values: Mapping[str, object]) -> Readings:
        """The readings ``values`` chooses (a form's cleaned data, an import's
        ``Campaign.readings``), every reading left out at its default.

        Raises:
            RuleError: an unknown reading or a value that is not one of its choices.
        """
        return self.readings_type.from_values(values)

    @final
    def readings_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> ReadingsForm:
        """The settings page's form of the campaign's readings (read-only once archived)."""
        return ReadingsForm(data, readings=self.readings, current=self.readings_of(campaign),
                            disabled=campaign.is_archived)

    @final
    def readings_text(self, values: Mapping[str, object], kind: str | None = None
                      ) -> list[str]:
        """A roll's or a campaign's stored readings in words, one line per reading away from
        the seed's ("Exploding tens: Tens explode on every action roll ..."); ``[]`` for the
        seed's rules. With ``kind``, a roll's kind, only the readings that can change such a
        roll. A reading no longer offered is left out."""
        readings = self.readings_type.from_values(values, strict=False)
        return [for_players(line) for line in readings.describe(kind)]

    @final
    def reading_label(self, key: str, value: str) -> tuple[str, str]:
        """``(title, sentence)`` of one stored choice, for the list of changes; the key and
        the value themselves for a reading no longer offered."""
        for reading in self.readings:
            if reading.key == key:
                return reading.title, for_players(reading.label(value))
        return key, value

