"""Shattered World's NPCs (docs/npcs.md; ``SheetSystem.npc_form``, ``npc_sheet``,
``track_lines``): the GM's stat block, the sheet it makes and the tracks the players see of a
revealed NPC.

The stat block asks for what the creation form asks (species, field role and subrole, the six
statistics' maxima, hit points, proficient abilities) and what a player buys with XP and an
adversary simply has: its step on the campaign's die steps table (its action die and field
role die) and its Universal Action Modifier. The sheet's rules are checked (a statistic's
maximum 1 to :data:`~systems.shattered_world.sheet.STAT_CAP` before the ability buy-ins, hit
points at least 1, a row of the die steps table); nothing is bought, so nothing of the XP
prices, and the creation form's limit of two proficient abilities (a decision for a new
player character) does not apply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import forms

from rulesets import shattered_world as sw
from rulesets.errors import RuleError
from systems.fields import character_name_field
from systems.npcs import StatBlockForm, TrackLine
from systems.shattered_world.catalogue import die_steps
from systems.shattered_world.sheet import (
    HIT_POINTS_MAX,
    RULE_BUY_INS,
    RULE_DICE,
    RULE_STATISTICS,
    STAT_CAP,
    STAT_CHOICES,
    UAM,
    _one_line,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character

RULE_STAT_CAP = "Shattered World sheet decision, Statistics"
"""What a statistic above :data:`STAT_CAP` cites: the cap is the sheet's decision where the
seed is silent (docs/systems/shattered_world.md)."""

NPC_STATISTIC = 10
NPC_HIT_POINTS = 20
"""The stat block's opening values, the creation form's: every statistic 10, 20 hit points."""

UAM_MAX = 20
"""The highest Universal Action Modifier the stat block takes (a typing guard: the seed's
Increase UAM buy-in has no last level)."""


def _number(label: str, low: int, high: int, initial: int, help_text: str = ""
            ) -> forms.IntegerField:
    """A whole number ``low`` to ``high``: the range is checked in :meth:`NpcForm.clean`,
    which names the rule (min/max here only guide the browser's number input)."""
    return forms.IntegerField(
        label=label, initial=initial, help_text=help_text,
        widget=forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric"}))


def _stat_field(code: str) -> str:
    return f"stat_{code}"


class NpcForm(StatBlockForm):
    """A Shattered World NPC's stat block: who it is, its statistics' maxima and hit points,
    its proficient abilities, its die step and its UAM.

    ``clean()`` refuses a statistic outside 1 to :data:`STAT_CAP`, hit points outside 1 to
    :data:`HIT_POINTS_MAX` and a UAM outside 0 to :data:`UAM_MAX`, each on its field and
    naming the rule; the die step is a choice of the campaign's table. ``die_step`` is
    cleaned to the table's row number (0 for the first).

    ``fieldsets``: ``[(legend, [field names])]`` for ``systems/_stat_block.html``.
    """

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False)
    species = forms.CharField(max_length=60, required=False)
    human = forms.BooleanField(required=False,
                               label="Human (always rolls the field role die)")
    field_role = forms.CharField(max_length=60, required=False, label="Field role")
    subrole = forms.CharField(max_length=60, required=False, label="Subrole")
    hit_points = _number("Hit points", 1, HIT_POINTS_MAX, NPC_HIT_POINTS)
    proficiencies = forms.MultipleChoiceField(
        choices=STAT_CHOICES, required=False, widget=forms.CheckboxSelectMultiple,
        label="Proficient abilities")
    die_step = forms.TypedChoiceField(
        coerce=int, initial=0, label="Die step",
        error_messages={"invalid_choice": str(RuleError(
            "Choose a row of the campaign's die steps table", RULE_DICE))})
    uam = _number("UAM", 0, UAM_MAX, 0, help_text="Universal Action Modifier, added to "
                                                  "every roll.")

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 steps: Sequence[sw.DieStep]) -> None:
        super().__init__(data)
        self.fields["die_step"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (row, f"AD d{step.action_die}, FRD d{step.field_role_die}")
            for row, step in enumerate(steps)]
        for code, label in STAT_CHOICES:
            self.fields[_stat_field(code)] = _number(label, 1, STAT_CAP, NPC_STATISTIC)
        self.fieldsets: list[tuple[str, list[str]]] = [
            ("Who", ["name", "concept", "species", "human", "field_role", "subrole"]),
            ("Statistics (maxima)", [_stat_field(code) for code, _ in STAT_CHOICES]),
            ("Hit points and dice", ["hit_points", "die_step", "uam"]),
            ("Proficiencies", ["proficiencies"]),
        ]

    def clean(self) -> dict[str, Any]:
        """Every number in its range, each refusal on its field naming the rule."""
        data = super().clean() or {}
        for code, label in STAT_CHOICES:
            self.check_range(data, _stat_field(code), 1, STAT_CAP,
                             f"{label} {{value}} is outside {{low}} to {{high}}: a statistic "
                             f"above {STAT_CAP} needs the Exceptional Ability buy-in",
                             RULE_STAT_CAP)
        self.check_range(data, "hit_points", 1, HIT_POINTS_MAX,
                         "Hit points {value}: a pool holds {low} to {high}", RULE_STATISTICS)
        self.check_range(data, "uam", 0, UAM_MAX,
                         "A UAM of {value}: the stat block takes {low} to {high}", RULE_BUY_INS)
        return data


def npc_form(campaign: Campaign, data: Mapping[str, Any] | None = None) -> NpcForm:
    """The stat block, its die steps the campaign's table
    (:func:`systems.shattered_world.catalogue.die_steps`)."""
    return NpcForm(data, steps=die_steps(campaign))


def npc_sheet(campaign: Campaign, cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
    """The NPC's sheet from a valid :class:`NpcForm`'s ``cleaned_data``, in the shape of
    :mod:`systems.shattered_world.system`: every pool full, the die step chosen, the UAM as
    levels of Increase UAM, no achievements.

    Raises:
        RuleError: a die step the campaign's table no longer has (the GM changed it since
            the form was drawn) (Shattered World Core Engine, Action Dice and Field Role
            Dice).
    """
    level = int(cleaned_data["die_step"])
    if not 0 <= level < len(die_steps(campaign)):
        raise RuleError("That die step is no longer on the campaign's die steps table; "
                        "choose again.", RULE_DICE)
    human = bool(cleaned_data.get("human"))
    hit_points = int(cleaned_data["hit_points"])
    return {
        "species": "Human" if human else _one_line(cleaned_data.get("species")),
        "human": human,
        "field_role": _one_line(cleaned_data.get("field_role")),
        "subrole": _one_line(cleaned_data.get("subrole")),
        "statistics": {code: {"current": cleaned_data[_stat_field(code)],
                              "max": cleaned_data[_stat_field(code)]}
                       for code, _ in STAT_CHOICES},
        "hit_points": {"current": hit_points, "max": hit_points},
        "proficiencies": list(cleaned_data.get("proficiencies") or []),
        "foible": "",
        "action_die_level": level,
        "buy_ins": {UAM: cleaned_data["uam"]} if cleaned_data.get("uam") else {},
        "buy_in_field_roles": {},
        "additional_field_roles": [],
        "achievements": {"total": 0, "milestones": [], "feats": {}},
    }


def track_lines(character: Character) -> list[TrackLine]:
    """Hit points, current of maximum ("15 / 20"), as the party card shows them (Shattered
    World Core Engine, Mechanical (Non-Roleplay) Actions). The statistics' pools are left
    out: their maxima are the NPC's stat block, which the players do not see. Reads the
    sheet, no queries."""
    pool = character.sheet["hit_points"]
    return [TrackLine("Hit points", f"{pool['current']} / {pool['max']}")]
