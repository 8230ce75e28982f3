"""The rules' checks of an imported sheet and campaign data, run before anything is written.

An import writes rows as they were (docs/backup.md): it never re-runs a rule or re-rolls a
die. So every value it brings in must be one the rules could have produced, else a sheet
would open with a value no action can reach (seven dots, a d7, a statistic above its
maximum) or fail to open at all. Two layers:

1. **The rules' own checks.** Each system of the sheet layer checks its own data:
   :meth:`systems.SheetSystem.check_sheet` (Shahquest's features, plot points and
   stress track; Genesys's characteristics, skills and tracks; 3d6's modifiers, level and
   health; Shattered World's statistics, dice level, buy-ins and achievements) and
   :meth:`~systems.SheetSystem.check_system_data` (each campaign's
   ``system_data``), in ``systems/<slug>/``. Maelstrom is not on that layer
   (its sheet is ``Trait``, ``MeritFlaw`` rows and track columns), so its check is here:
   the health chart and willpower through ``rulesets.maelstrom``, the trait rows against
   its catalogue, specialties and merits and flaws through the creation wizard's own
   ``check_specialty`` and ``check_merit_flaw``.
2. **The sheet's readers**: the system's ``sheet_context``, ``card_context`` and
   ``advances`` run on the unsaved rows (and ``dashboard_context`` on the campaign once its
   rows are written, inside the import's transaction), so a
   shape the checks above do not know still cannot reach a page that would fail to draw it.
   A sixth system gets this layer with nothing added here, and the first with its own
   ``check_sheet`` and ``check_system_data``.

Shape comes before and after these: :func:`transfer.schema.check_shape` bounds the whole
document (depth, sizes, text) before any rule reads it, and
:func:`transfer.schema.check_document` checks every field against the system's schema (known
keys, types, die sizes) once the rules have spoken, so their refusals cite the rule.

Every function raises :class:`rulesets.errors.RuleError` naming the first broken rule; a
check that trips over a shape it does not expect (a KeyError, a TypeError, ...) is reported
as data that "cannot be read".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string

import systems
from characters.creation import MeritFlawChoice, Specialty, check_merit_flaw, check_specialty
from characters.models import Trait
from rulesets import maelstrom
from rulesets.errors import RuleError
from systems import require, stored_int

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character, MeritFlaw
    from rolls.models import Roll

RULE_IMPORT = systems.RULE_STORED

# Errors a sheet's readers raise on a shape they do not expect (a missing key, a string
# where a number belongs); the import turns them into "the sheet cannot be read".
READ_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def check_campaign(campaign: Campaign) -> None:
    """Check an unsaved campaign's ``system_data`` against its system's rules (no queries).

    Args:
        campaign: a Campaign with ``ruleset`` and ``system_data`` set (not saved).

    Raises:
        RuleError: the first value the rules refuse (the system's
            :meth:`~systems.SheetSystem.check_system_data`).
    """
    data = campaign.system_data
    require(isinstance(data, dict), "the campaign's system data is not an object")
    system = systems.for_ruleset(campaign.ruleset)
    if system is not None:  # Maelstrom keeps no system data
        _readable(lambda: system.check_system_data(data), "the campaign's system data")


def check_dashboard(campaign: Campaign) -> None:
    """Draw the GM's panel of a saved campaign once (it reads the campaign's characters),
    so data the rules' checks do not know cannot reach a dashboard that fails to draw it.
    Call inside the import's transaction, after its rows are written.

    Raises:
        RuleError: the panel cannot be drawn from the data.
    """
    system = systems.for_ruleset(campaign.ruleset)
    if system is not None:
        _readable(lambda: system.dashboard_context(campaign), "the campaign's system data")


def check_rolls(rolls: Iterable[Roll], ruleset: str) -> None:
    """Draw every written roll once as the roll log and the roll page draw it (the system's
    ``_roll.html``, compact and whole; Maelstrom's dice), so a result the rules' checks do not
    know (a die's symbols that are not a list, say) cannot reach a page that fails to draw
    it. Call inside the import's transaction, after its rows are written.

    Args:
        rolls: the imported Roll rows (saved); ruleset: their campaign's system slug.

    Raises:
        RuleError: the first roll that cannot be drawn, by its description.
    """
    system = systems.for_ruleset(ruleset)
    template = system.template("_roll.html") if system is not None else "rolls/_dice.html"
    rolls = list(rolls)
    # A system's _roll.html lists the roll's follow-ups: one query for all of them, not one
    # per roll (a campaign brings thousands).
    prefetch_related_objects(rolls, "followups")
    for roll in rolls:
        def draw(roll: Roll = roll) -> None:
            for compact in (True, False):
                render_to_string(template, {"roll": roll, "r": roll, "compact": compact})
        _readable(draw, f"the roll {roll.description!r}")


def check_character(character: Character, traits: Iterable[Trait],
                    merits_flaws: Iterable[MeritFlaw]) -> None:
    """Check an unsaved character (its ``campaign`` set, saved or not) with its trait rows
    and merits and flaws against its system's rules.

    Raises:
        RuleError: the first value the rules refuse, or a sheet its pages cannot read.
    """
    ruleset = character.campaign.ruleset
    traits, merits_flaws = list(traits), list(merits_flaws)
    require(isinstance(character.sheet, dict), "the sheet is not an object")
    if ruleset == "maelstrom":
        _readable(lambda: _check_maelstrom(character, traits, merits_flaws), "the sheet")
        return
    require(not traits and not merits_flaws,
            "only a Maelstrom character has trait rows, merits and flaws")
    system = systems.for_ruleset(ruleset)
    if system is not None:
        _readable(lambda: system.check_sheet(character.sheet, character.campaign),
                  "the sheet")

        def read() -> None:
            system.sheet_context(character, is_gm=True)
            system.card_context(character)
            system.advances(character)
        _readable(read, "the sheet")


# --- helpers ----------------------------------------------------------------------------------


def _readable(read: Callable[[], object], what: str) -> None:
    try:
        read()
    except RuleError:
        raise
    except READ_ERRORS as exc:
        raise RuleError(f"{what} cannot be read ({type(exc).__name__}: {exc})",
                        RULE_IMPORT) from None


# --- Maelstrom ------------------------------------------------------------------------------


def _check_maelstrom(character: Character, traits: list[Trait],
                     merits_flaws: list[MeritFlaw]) -> None:
    rule = f"{maelstrom.SOURCE}, Willpower"
    maelstrom.HealthChart(  # raises RuleError for damage that does not fit the boxes
        bashing=character.health_bashing, lethal=character.health_lethal,
        aggravated=character.health_aggravated, huge_size=character.huge_size,
        dead=character.dead)
    stored_int(character.willpower_permanent, "Permanent willpower", 1,
               maelstrom.WILLPOWER_MAX, rule)
    stored_int(character.willpower_current, "Current willpower", 0,
               character.willpower_permanent, rule)
    rule = f"{maelstrom.SOURCE}, Traits"
    attributes: set[str] = set()
    for trait in traits:
        if trait.kind == Trait.Kind.ATTRIBUTE:
            require(trait.name in maelstrom.ATTRIBUTES,
                    f"{trait.name!r} is not a Maelstrom attribute", rule)
            stored_int(trait.dots, trait.name, 1, maelstrom.DOTS_MAX, rule)
            attributes.add(trait.name)
        elif trait.kind == Trait.Kind.ABILITY:
            require(trait.name in maelstrom.ABILITIES,
                    f"{trait.name!r} is not a Maelstrom ability", rule)
            stored_int(trait.dots, trait.name, 0, maelstrom.DOTS_MAX, rule)
        else:
            check_specialty(Specialty(trait.ability, trait.name, trait.advanced))
            stored_int(trait.dots, f"The specialty {trait}", 1, 1, rule)
    missing = [name for name in maelstrom.ATTRIBUTES if name not in attributes]
    require(not missing, f"the sheet lacks the attributes {', '.join(missing)}", rule)
    for row in merits_flaws:
        check_merit_flaw(MeritFlawChoice(row.name, row.kind, row.points, row.detail))
