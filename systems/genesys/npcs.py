"""Genesys's NPCs (docs/npcs.md; ``SheetSystem.npc_form``, ``npc_sheet``, ``track_lines``):
the GM's stat block for an adversary, the sheet it makes and the tracks the players see of a
revealed one.

The stat block asks for the six characteristics (1-5), ranks in each skill of the campaign's
list (0-5) and the wound and strain thresholds (10 + Brawn and 10 + Willpower unless set).
The ranges of the sheet are checked (Genesys dice pool, Skill and Characteristic; Genesys Core
Rulebook, Step 5) but nothing of creation: no starting XP, no career, no cap of two ranks (Step
4 is how a player character is bought, not an adversary). The NPC's sheet is out of creation,
so its XP page sells nothing until the GM awards XP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import forms

from rulesets import genesys
from systems.fields import character_name_field
from systems.genesys.sheet import RULE_SKILLS, RULE_TRACKS, _tracks, read_sheet, skills_of
from systems.npcs import StatBlockForm, TrackLine

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character

TRACKS = (("wounds", "Wound threshold", "Brawn", genesys.wound_threshold),
          ("strain", "Strain threshold", "Willpower", genesys.strain_threshold))
"""Each track: its sheet key, its threshold's label, the characteristic the rulebook adds to
10 for it, and that rule (Genesys Core Rulebook, Step 5: Determine Derived Attributes)."""


def _number(label: str, low: int, high: int, *, initial: int | None = None,
            required: bool = True, help_text: str = "") -> forms.IntegerField:
    """A whole number ``low`` to ``high``: the range is checked in :meth:`NpcForm.clean`,
    which names the rule (min/max here only guide the browser's number input)."""
    return forms.IntegerField(
        label=label, initial=initial, required=required, help_text=help_text,
        widget=forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric",
                                        "class": "rank-input"}))


def _characteristic_field(name: str) -> str:
    return name.lower()


class NpcForm(StatBlockForm):
    """A Genesys adversary's stat block: name, concept, characteristics, the campaign's
    skills and the two thresholds.

    ``clean()`` refuses a characteristic outside 1-5, ranks outside 0-5 and a threshold
    outside 1 to :data:`rulesets.genesys.TRACK_MAX`, each on its field and naming the rule;
    it spends no XP. The valid form's ``cleaned_data`` also holds ``characteristics``
    (``{name: rating}``, all six), ``skill_ranks`` (``{skill: ranks}``, the trained ones)
    and ``thresholds`` (``{"wounds": n, "strain": n}``, a blank one worked out).

    ``fieldsets``: ``[(legend, [field names])]`` for ``systems/_stat_block.html``: the
    skills under their groups of the campaign's list.
    """

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False, label="Concept",
                              help_text="A few words: who they are.")

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 skills: Sequence[genesys.SkillInfo]) -> None:
        super().__init__(data)
        self.skills = list(skills)
        for name in genesys.CHARACTERISTICS:
            self.fields[_characteristic_field(name)] = _number(
                name, genesys.CHARACTERISTIC_MIN, genesys.CHARACTERISTIC_MAX,
                initial=genesys.STARTING_CHARACTERISTIC)
        groups: dict[str, list[str]] = {}
        for index, skill in enumerate(self.skills):
            self.fields[f"skill_{index}"] = _number(
                f"{skill.name} ({skill.characteristic})", 0, genesys.SKILL_RANKS_MAX,
                initial=0)
            groups.setdefault(skill.group or "Other", []).append(f"skill_{index}")
        for key, label, characteristic, _ in TRACKS:
            self.fields[f"{key}_threshold"] = _number(
                label, 1, genesys.TRACK_MAX, required=False,
                help_text=f"Blank: 10 + {characteristic}.")
        self.fieldsets: list[tuple[str, list[str]]] = [
            ("Who", ["name", "concept"]),
            ("Characteristics", [_characteristic_field(n) for n in genesys.CHARACTERISTICS]),
            *[(f"{group} skills", names) for group, names in groups.items()],
            ("Thresholds", [f"{key}_threshold" for key, *_ in TRACKS]),
        ]

    def clean(self) -> dict[str, Any]:
        """Every value in its range (each refusal on its field, the rule named), then the
        sheet's values gathered: ``characteristics``, ``skill_ranks``, ``thresholds``."""
        data = super().clean() or {}
        for name in genesys.CHARACTERISTICS:
            self.check_range(data, _characteristic_field(name), genesys.CHARACTERISTIC_MIN,
                             genesys.CHARACTERISTIC_MAX,
                             f"{name} {{value}}: a characteristic is rated {{low}} to {{high}}",
                             RULE_SKILLS)
        for index, skill in enumerate(self.skills):
            self.check_range(data, f"skill_{index}", 0, genesys.SKILL_RANKS_MAX,
                             f"{skill.name} {{value}}: a skill has {{low}} to {{high}} ranks",
                             RULE_SKILLS)
        for key, label, _, _ in TRACKS:
            self.check_range(data, f"{key}_threshold", 1, genesys.TRACK_MAX,
                             f"{label} {{value}}: a threshold is {{low}} to {{high}}", RULE_TRACKS)
        if self.errors:
            return data
        chars = {n: data[_characteristic_field(n)] for n in genesys.CHARACTERISTICS}
        data["characteristics"] = chars
        data["skill_ranks"] = {skill.name: data[f"skill_{i}"]
                               for i, skill in enumerate(self.skills) if data[f"skill_{i}"]}
        data["thresholds"] = {
            key: data[f"{key}_threshold"] or derived(chars[characteristic])
            for key, _, characteristic, derived in TRACKS}
        return data


def npc_form(campaign: Campaign, data: Mapping[str, Any] | None = None) -> NpcForm:
    """The stat block for the campaign's skill list (:func:`systems.genesys.sheet.
    skills_of`)."""
    return NpcForm(data, skills=skills_of(campaign))


def npc_sheet(cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
    """The NPC's sheet from a valid :class:`NpcForm`'s ``cleaned_data``, in the shape of
    :mod:`systems.genesys.system`: no career, no career skills, unhurt, out of creation."""
    return {
        "career": "",
        "characteristics": dict(cleaned_data["characteristics"]),
        "skills": dict(cleaned_data["skill_ranks"]),
        "career_skills": [],
        **{key: {"current": 0, "threshold": cleaned_data["thresholds"][key]}
           for key, *_ in TRACKS},
        "creation": False,
    }


def track_lines(character: Character) -> list[TrackLine]:
    """Wounds and strain against their thresholds, as the party card shows them ("3 / 12",
    "13 / 12 (incapacitated)"; Genesys Core Rulebook, Step 5). Reads the sheet, no
    queries."""
    return [TrackLine(track["label"], f"{track['current']} / {track['threshold']}"
                      + (" (incapacitated)" if track["exceeded"] else ""))
            for track in _tracks(read_sheet(character))]
