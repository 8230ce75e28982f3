"""Shahquest's NPCs (docs/npcs.md; ``SheetSystem.npc_form``, ``npc_sheet``, ``track_lines``):
the GM's stat block, the sheet it makes and the tracks the players see of a revealed NPC.

The stat block is a short version of the creation form (which the shared stat-block template
cannot draw: its rows of specializations and power-set entries): the three affiliations, a
few attributes and skills by name and die, a quirk and the plot points. Every die is checked
by the rules (step dice; the affiliations' d4, d6 and d8, a large creature's spread Solo:
Shahquest wiki, Affiliations; Feature Types); the seed sets no budget, and an NPC need not
name an attribute: a name alone makes an NPC of its affiliations (Solo d8, Partner d6,
Gang d4), as a nameless guard is at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django import forms

from core.forms import Form
from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError, citation
from systems.fields import character_name_field
from systems.npcs import TrackLine
from systems.shahquest.forms import (
    AFFILIATION_DIE_CHOICES,
    DIE_CHOICES,
    DatalistInput,
    _check_name,
    _party_names,
)
from systems.shahquest.sheet import (
    MAX_PLOT_POINTS,
    RULE_PLOT_POINTS,
    STARTING_PLOT_POINTS,
    _engine_feature,
    _stress_of,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character

ROWS = {"attribute": 3, "skill": 3, "quirk": 1}
"""Rows of the stat block per kind of feature (blank rows are left out)."""

RULE_STEPS = f"{sq.SOURCE}, Dice, Step Up, Step Down, and Spreads"

_NOT_A_STEP_DIE = ("%(value)s is not a step die: the dice are "
                   f"{', '.join(f'd{size}' for size in STEP_DICE)} ({citation(RULE_STEPS)}).")


def _die_field(label: str, initial: int, *,
               choices: list[tuple[int, str]] = DIE_CHOICES) -> forms.TypedChoiceField:
    """A die of ``choices``; a value off the list is refused naming the rule."""
    return forms.TypedChoiceField(choices=choices, coerce=int, initial=initial, label=label,
                                  error_messages={"invalid_choice": _NOT_A_STEP_DIE})


class NpcForm(Form):
    """A Shahquest NPC's stat block: name, concept, Solo (with its spread for a large
    creature), Partner and Gang, up to :data:`ROWS` attributes, skills and quirks, and its
    plot points.

    ``clean()`` names the first rule broken (the affiliations' dice, a step die, a name with
    a colon, one feature twice, plot points out of range); the valid form's
    ``cleaned_data["sheet"]`` is the checked sheet. The attribute and skill names suggest
    those the party's sheets use (one query, when the form is drawn).

    ``fieldsets``: ``[(legend, [field names])]`` for ``systems/_stat_block.html``.
    """

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False)
    solo = _die_field("Solo", 8)
    solo_count = forms.TypedChoiceField(
        choices=[(1, "One die"), (2, "Spread: 2 dice (large creature)"),
                 (3, "Spread: 3 dice (titanic creature)")],
        coerce=int, initial=1, label="Solo dice")
    partner = _die_field("Partner", 6, choices=AFFILIATION_DIE_CHOICES)
    gang = _die_field("Gang", 4, choices=AFFILIATION_DIE_CHOICES)
    plot_points = forms.IntegerField(
        initial=STARTING_PLOT_POINTS, label="Plot points",
        widget=forms.NumberInput(attrs={"min": 0, "max": MAX_PLOT_POINTS,
                                        "inputmode": "numeric"}))

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 suggestions: Callable[[], dict[str, list[str]]] | None = None) -> None:
        super().__init__(data)
        cache: dict[str, list[str]] = {}

        def names(kind: str) -> Callable[[], list[str]]:
            def load() -> list[str]:
                if not cache and suggestions is not None:
                    cache.update(suggestions())
                return cache.get(kind, [])
            return load

        for kind in ("attribute", "skill"):
            list_id = f"npc-{kind}-names"
            for i in range(1, ROWS[kind] + 1):
                # One datalist a kind, drawn with the first row; the others point at it.
                widget = (DatalistInput(names(kind), list_id) if i == 1 else
                          forms.TextInput(attrs={"list": list_id, "autocomplete": "off"}))
                self.fields[f"{kind}_{i}_name"] = forms.CharField(
                    max_length=60, label=f"{kind.capitalize()} {i}", required=False,
                    widget=widget)
                # A select always sends a die; it counts only when the row is named.
                self.fields[f"{kind}_{i}_die"] = _die_field(f"{kind.capitalize()} {i} die", 6)
        for i in range(1, ROWS["quirk"] + 1):
            self.fields[f"quirk_{i}_name"] = forms.CharField(
                max_length=80, label=f"Quirk {i} (d{sq.QUIRK_DIE})", required=False)
        self.fieldsets: list[tuple[str, list[str]]] = [
            ("Who", ["name", "concept"]),
            ("Affiliations", ["solo", "solo_count", "partner", "gang"]),
            *[(f"{kind.capitalize()}s", [f"{kind}_{i}_{part}" for i in range(1, ROWS[kind] + 1)
                                         for part in ("name", "die")])
              for kind in ("attribute", "skill")],
            ("Quirks and plot points",
             [*(f"quirk_{i}_name" for i in range(1, ROWS["quirk"] + 1)), "plot_points"]),
        ]

    def clean(self) -> dict[str, Any]:
        """The fields' data plus ``"sheet"``, the checked sheet; a plot-point count out of
        range is refused on its field. Raises ValidationError naming the first rule broken
        (a RuleError of the engine becomes one)."""
        data = super().clean() or {}
        points = data.get("plot_points")
        if points is not None and not 0 <= points <= MAX_PLOT_POINTS:
            self.add_error("plot_points", str(RuleError(
                f"{points} plot points: a sheet holds 0 to {MAX_PLOT_POINTS}",
                RULE_PLOT_POINTS)))
        if self.errors:
            return data
        try:
            data["sheet"] = _sheet(data)
        except RuleError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


def _sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """The sheet of the stat block's valid fields (the shape of :mod:`systems.shahquest.
    sheet`), each feature checked by the engine. Raises RuleError or ValidationError naming
    the rule broken."""
    sq.validate_affiliations(data["solo"], data["partner"], data["gang"],
                             solo_count=data["solo_count"])
    entries: list[dict[str, Any]] = [
        {"type": "affiliation", "name": "Solo", "die": data["solo"],
         "count": data["solo_count"]},
        {"type": "affiliation", "name": "Partner", "die": data["partner"], "count": 1},
        {"type": "affiliation", "name": "Gang", "die": data["gang"], "count": 1},
    ]
    seen: set[tuple[str, str]] = set()
    for kind in ("attribute", "skill", "quirk"):
        for i in range(1, ROWS[kind] + 1):
            name = _check_name(data.get(f"{kind}_{i}_name") or "", f"The {kind}")
            if not name:
                continue
            if (kind, name.casefold()) in seen:
                raise forms.ValidationError(
                    f"The {kind} {name!r} is on the sheet twice; give each its own name.")
            seen.add((kind, name.casefold()))
            die = sq.QUIRK_DIE if kind == "quirk" else int(data[f"{kind}_{i}_die"])
            entry: dict[str, Any] = {"type": kind, "name": name, "die": die, "count": 1}
            if kind == "skill":
                entry["specializations"] = []
            entries.append(entry)
    for entry in entries:
        sq.check_feature(_engine_feature(entry))
    return {"features": entries, "plot_points": data["plot_points"],
            "stress": sq.StressTrack().as_dict()}


def npc_form(campaign: Campaign, data: Mapping[str, Any] | None = None) -> NpcForm:
    """The stat block, suggesting the names the party's sheets use
    (:func:`systems.shahquest.forms._party_names`, one query, run only when drawn)."""
    return NpcForm(data, suggestions=lambda: _party_names(campaign))


def npc_sheet(cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
    """The sheet :class:`NpcForm` built and checked (its ``cleaned_data["sheet"]``)."""
    return dict(cleaned_data["sheet"])


def _line_words(line: sq.StressLine) -> str:
    """One stress type in words: "none", "d8", "d8, trauma d4", "stressed out, trauma d6",
    "taken out (trauma past d12)"."""
    if line.taken_out:
        return "taken out (trauma past d12)"
    parts = []
    if line.stressed_out:
        parts.append("stressed out")
    elif line.stress is not None:
        parts.append(f"d{line.stress}")
    if line.trauma is not None:
        parts.append(f"trauma d{line.trauma}")
    return ", ".join(parts) or "none"


def track_lines(character: Character) -> list[TrackLine]:
    """Stress and trauma of each type, then the plot points, as the party card shows them
    ("Stress: Physical" "d8, trauma d4"; "Plot points" "1") (Shahquest wiki, Stress and
    Trauma; Plot Points). Reads the sheet, no queries."""
    track = _stress_of(character.sheet)
    lines = [TrackLine(f"Stress: {kind.capitalize()}", _line_words(track.line(kind)))
             for kind in sq.STRESS_TYPES]
    return [*lines, TrackLine("Plot points", str(int(character.sheet.get("plot_points", 0))))]
