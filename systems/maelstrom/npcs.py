"""Maelstrom's NPCs (docs/npcs.md; ``SheetSystem.npc_form``, ``npc_sheet``, ``track_lines``):
the GM's stat block, the sheet it makes and the tracks the players see of a revealed NPC.

The stat block asks for every trait at once, at its final dots: the six attributes (1-5), the
twenty-four abilities (0-5), Willpower (1-10), the Huge Size merit's ninth health box, and
specialties as lines of text. The rules of the sheet are checked (Maelstrom rules.md, Traits,
Willpower, Specialties) but not the creation steps' allotments and starting XP: an NPC is
not bought (Maelstrom rules.md, Character Creation). The sheet is
:func:`systems.maelstrom.sheet.new_sheet`'s, as the creation steps make it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms

from core.forms import Form, TextareaField
from rulesets import maelstrom
from rulesets.errors import RuleError
from systems.fields import character_name_field
from systems.maelstrom.checks import check_specialty
from systems.maelstrom.creation_forms import field_slug
from systems.maelstrom.sheet import MERIT, health, new_sheet, willpower
from systems.npcs import TrackLine

if TYPE_CHECKING:
    from characters.models import Character

NPC_ATTRIBUTE_DOTS = 2
"""An NPC's attributes as the stat block opens: 2 dots, the average of a starting character's
(7, 5 and 3 dots over three attributes a group: Maelstrom rules.md, Character Creation)."""

HUGE_SIZE = "Huge Size"
"""The merit whose ninth health box the stat block offers (Maelstrom rules.md, Merits)."""

SPECIALTIES_MAX = 30
"""Most specialty lines one stat block takes (a typing guard, not a rule)."""

ADVANCED_MARK = "(advanced)"
"""Written after a specialty's name to make it advanced where the seed does not say."""

_DAMAGE_WORDS = (("aggravated", "aggravated"), ("lethal", "lethal"), ("bashing", "bashing"))


def _rule(section: str) -> str:
    return f"{maelstrom.SOURCE}, {section}"


def _dots_field(label: str, low: int, high: int, initial: int) -> forms.IntegerField:
    """A trait's dots, ``low`` to ``high``: the range is checked in :meth:`NpcForm.clean`,
    which names the rule (min/max here only guide the browser's number input)."""
    return forms.IntegerField(
        label=label, initial=initial,
        widget=forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric",
                                        "class": "rank-input"}))


class NpcForm(Form):
    """A Maelstrom NPC's stat block: name, concept, every attribute and ability at its dots,
    Willpower, Huge Size and specialties (Maelstrom rules.md, Traits).

    ``clean()`` refuses dots out of range (attributes 1-5, abilities 0-5, Willpower 1-10) and
    a specialty of no ability or with a bad name, each on its field, naming the rule; it
    checks no allotment and no XP. The valid form's ``cleaned_data`` holds ``specialties``
    as ``[(ability, name, advanced?)]``.

    ``fieldsets``: ``[(legend, [field names])]`` for ``systems/_stat_block.html``.
    """

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False, label="Concept",
                              help_text="A few words, e.g. “Corporate enforcer”.")
    willpower = _dots_field("Willpower", 1, maelstrom.WILLPOWER_MAX,
                            maelstrom.STARTING_WILLPOWER)
    huge_size = forms.BooleanField(required=False, label=HUGE_SIZE,
                                   help_text="The merit's ninth health box, at the top.")
    specialties = TextareaField(
        required=False, max_length=2000, label="Specialties",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=(f"One a line, “Ability: specialty”, e.g. “Driving: Motorcycles”; the "
                   f"seed's suggestions keep their kind, any other is general unless "
                   f"followed by {ADVANCED_MARK}."))

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        for name in maelstrom.ATTRIBUTES:
            self.fields[field_slug(name)] = _dots_field(name, 1, maelstrom.DOTS_MAX,
                                                        NPC_ATTRIBUTE_DOTS)
        for name in maelstrom.ABILITIES:
            self.fields[field_slug(name)] = _dots_field(name, 0, maelstrom.DOTS_MAX, 0)
        self.fieldsets: list[tuple[str, list[str]]] = [
            ("Who", ["name", "concept"]),
            *[(f"{group} attributes", [field_slug(n) for n in names])
              for group, names in maelstrom.ATTRIBUTE_GROUPS.items()],
            *[(group, [field_slug(n) for n in names])
              for group, names in maelstrom.ABILITY_GROUPS.items()],
            ("Willpower and health", ["willpower", "huge_size"]),
            ("Specialties", ["specialties"]),
        ]

    def clean(self) -> dict[str, Any]:
        """Every value the rules allow, each refusal on its field naming the rule; the
        specialties read into ``[(ability, name, advanced?)]``."""
        data = super().clean() or {}
        traits = [(n, 1, "an attribute", "Traits") for n in maelstrom.ATTRIBUTES]
        traits += [(n, 0, "an ability", "Traits") for n in maelstrom.ABILITIES]
        for name, low, what, section in traits:
            self._check_dots(data, field_slug(name), name, low, maelstrom.DOTS_MAX, what,
                             section)
        self._check_dots(data, "willpower", "Willpower", 1, maelstrom.WILLPOWER_MAX,
                         "Willpower", "Willpower")
        if "specialties" in data:
            try:
                data["specialties"] = read_specialties(data["specialties"])
            except RuleError as exc:
                self.add_error("specialties", str(exc))
        return data

    def _check_dots(self, data: dict[str, Any], field: str, label: str, low: int, high: int,
                    what: str, section: str) -> None:
        value = data.get(field)
        if value is not None and not low <= value <= high:
            self.add_error(field, str(RuleError(
                f"{label} {value}: {what} has {low} to {high} dots", _rule(section))))


def read_specialties(text: str) -> list[tuple[str, str, bool]]:
    """The stat block's specialties, one a line ``Ability: name`` (blank lines skipped), as
    ``[(ability, name, advanced?)]`` in the order written (Maelstrom rules.md, Specialties).

    The ability is matched to the catalogue ignoring case; a name the seed suggests for that
    ability takes the seed's spelling and kind, any other is general unless followed by
    :data:`ADVANCED_MARK`.

    Raises:
        RuleError: a line without an ability, an ability not in the catalogue, an empty or
            bad name (:func:`systems.maelstrom.checks.check_specialty`), one specialty twice,
            or more than :data:`SPECIALTIES_MAX` lines.
    """
    by_folded = {name.casefold(): name for name in maelstrom.ABILITIES}
    found: list[tuple[str, str, bool]] = []
    for line in (raw.strip() for raw in text.splitlines()):
        if not line:
            continue
        typed_ability, colon, rest = line.partition(":")
        if not colon:
            raise RuleError(f"{line!r}: write a specialty as “Ability: specialty”; a "
                            "specialty belongs to one ability", _rule("Specialties"))
        ability = by_folded.get(typed_ability.strip().casefold(), typed_ability.strip())
        name = " ".join(rest.split())
        advanced = name.casefold().endswith(ADVANCED_MARK)
        if advanced:
            name = name[:-len(ADVANCED_MARK)].strip()
        check_specialty(ability, name)
        suggestion = maelstrom.suggested_specialty(ability, name)
        if suggestion is not None:
            name, advanced = suggestion
        if any(a == ability and n.casefold() == name.casefold() for a, n, _ in found):
            raise RuleError(f"{ability}: {name} is listed twice", _rule("Specialties"))
        found.append((ability, name, advanced))
    if len(found) > SPECIALTIES_MAX:
        raise RuleError(f"List at most {SPECIALTIES_MAX} specialties, not {len(found)}",
                        _rule("Specialties"))
    return found


def npc_sheet(cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
    """The NPC's sheet from a valid :class:`NpcForm`'s ``cleaned_data``, in
    :func:`systems.maelstrom.sheet.new_sheet`'s shape: unhurt, Willpower current at its
    permanent rank, Huge Size as its merit (4 points, the seed's price) and ninth box."""
    huge = bool(cleaned_data.get("huge_size"))
    merits = [{"kind": MERIT, "name": HUGE_SIZE, "points": maelstrom.MERITS[HUGE_SIZE].points[0],
               "detail": ""}] if huge else []
    return new_sheet(
        attributes={n: cleaned_data[field_slug(n)] for n in maelstrom.ATTRIBUTES},
        abilities={n: cleaned_data[field_slug(n)] for n in maelstrom.ABILITIES},
        specialties=cleaned_data.get("specialties") or [],
        merits_flaws=merits, willpower=cleaned_data["willpower"], huge_size=huge)


def track_lines(character: Character) -> list[TrackLine]:
    """Health and Willpower in words, as the party card shows them: the wound level with the
    damage marked and the wound penalty ("Injured: 4 of 8 levels (1 lethal, 3 bashing),
    wound penalty −2 dice"), and Willpower current of permanent ("2 / 3") (Maelstrom
    rules.md, Marking Damage, Wound Penalties, Willpower). Reads the sheet, no queries."""
    chart = health(character.sheet)
    words = chart.level_name
    if chart.damaged and not chart.dead:
        marked = ", ".join(f"{getattr(chart, kind)} {noun}" for kind, noun in _DAMAGE_WORDS
                           if getattr(chart, kind))
        words += f": {chart.damaged} of {chart.boxes} levels ({marked})"
        if chart.wound_penalty:
            dice = "die" if chart.wound_penalty == 1 else "dice"
            words += f", wound penalty −{chart.wound_penalty} {dice}"
        elif chart.incapacitated:
            words += ", unconscious"
    permanent, current = willpower(character.sheet)
    return [TrackLine("Health", words), TrackLine("Willpower", f"{current} / {permanent}")]
