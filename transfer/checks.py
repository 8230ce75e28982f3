"""The rules' checks of an imported sheet and campaign data, run before anything is written.

An import writes rows as they were (docs/backup.md): it never re-runs a rule or re-rolls a
die. So every value it brings in must be one the rules could have produced, else a sheet
would open with a value no action can reach (seven dots, a d7, a statistic above its
maximum) or fail to open at all. Two layers:

1. **The rules' own checks.** Each system checks its own data:
   :meth:`systems.SheetSystem.check_sheet` (Maelstrom's traits, specialties, merits and
   flaws, willpower and health chart; Shahquest's features, plot points and stress track;
   Genesys's characteristics, skills and tracks; 3d6's modifiers, level and health;
   Shattered World's statistics, dice level, buy-ins and achievements) and
   :meth:`~systems.SheetSystem.check_system_data` (each campaign's ``system_data``), in
   ``systems/<slug>/``. A version 1 file's Maelstrom rows are made into its sheet first
   (``transfer.services``), and checked as that sheet.
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
from typing import TYPE_CHECKING, TypeVar

from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string

import systems
from rulesets.errors import RuleError
from systems import require

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll

_T = TypeVar("_T")

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
    readable(lambda: system.check_system_data(data), "the campaign's system data")


def check_dashboard(campaign: Campaign) -> None:
    """Draw the GM's panel of a saved campaign once (it reads the campaign's characters),
    so data the rules' checks do not know cannot reach a dashboard that fails to draw it.
    Call inside the import's transaction, after its rows are written.

    Raises:
        RuleError: the panel cannot be drawn from the data.
    """
    system = systems.for_ruleset(campaign.ruleset)
    readable(lambda: system.dashboard_context(campaign), "the campaign's system data")


def check_rolls(rolls: Iterable[Roll], ruleset: str) -> None:
    """Draw every written roll once as the roll log and the roll page draw it (the system's
    ``_roll.html``, compact and whole), so a result the rules' checks do not
    know (a die's symbols that are not a list, say) cannot reach a page that fails to draw
    it. Call inside the import's transaction, after its rows are written.

    Args:
        rolls: the imported Roll rows (saved); ruleset: their campaign's system slug.

    Raises:
        RuleError: the first roll that cannot be drawn, by its description.
    """
    template = systems.for_ruleset(ruleset).template("_roll.html")
    rolls = list(rolls)
    # A system's _roll.html lists the roll's follow-ups: one query for all of them, not one
    # per roll (a campaign brings thousands).
    prefetch_related_objects(rolls, "followups")
    for roll in rolls:
        def draw(roll: Roll = roll) -> None:
            for compact in (True, False):
                render_to_string(template, {"roll": roll, "r": roll, "compact": compact})
        readable(draw, f"the roll {roll.description!r}")


def check_character(character: Character) -> None:
    """Check an unsaved character (its ``campaign`` set, saved or not) against its system's
    rules, then read its sheet as its pages do.

    Raises:
        RuleError: the first value the rules refuse, or a sheet its pages cannot read.
    """
    require(isinstance(character.sheet, dict), "the sheet is not an object")
    system = systems.for_ruleset(character.campaign.ruleset)
    readable(lambda: system.check_sheet(character.sheet, character.campaign), "the sheet")

    def read() -> None:
        system.sheet_context(character, is_gm=True)
        system.card_context(character)
        system.advances(character)
    readable(read, "the sheet")


def readable(read: Callable[[], _T], what: str) -> _T:
    """``read()``, a shape it does not expect reported as data that cannot be read.

    Args:
        read: reads (or checks, or converts) imported data; what: that data in words
            ("the sheet", "the roll 'Willpower: 5 dice'").

    Returns:
        What ``read`` returns.

    Raises:
        RuleError: ``read``'s own, or "<what> cannot be read (KeyError: ...)" for one of
            :data:`READ_ERRORS`.
    """
    try:
        return read()
    except RuleError:
        raise
    except READ_ERRORS as exc:
        raise RuleError(f"{what} cannot be read ({type(exc).__name__}: {exc})",
                        RULE_IMPORT) from None
