"""The rules' checks of an imported sheet and campaign data, run before anything is written.

An import writes rows as they were (docs/backup.md): it never re-runs a rule or re-rolls a
die. So every value it brings in must be one the rules could have produced, else a sheet
would open with a value no action can reach (seven dots, a d7, a statistic above its
maximum) or fail to open at all, and a roll must hold what its dice give. Three layers:

1. **The rules' own checks.** Each system checks its own data:
   :meth:`systems.SheetSystem.check_sheet` (Maelstrom's traits, specialties, merits and
   flaws, willpower and health chart; Shahquest's features, plot points and stress track;
   Genesys's characteristics, skills and tracks; 3d6's modifiers, level and health;
   Shattered World's statistics, dice level, buy-ins and achievements) and
   :meth:`~systems.SheetSystem.check_system_data` (each campaign's ``system_data``), in
   ``systems/<slug>/``. A version 1 file's Maelstrom rows are made into its sheet first
   (:mod:`transfer.upgrade`), and checked as that sheet.
2. **The sheet's readers**: the system's ``sheet_context``, ``card_context`` and
   ``advances`` run on the unsaved rows (and ``dashboard_context`` on the campaign once its
   rows are written, inside the import's transaction), so a
   shape the checks above do not know still cannot reach a page that would fail to draw it.
   A sixth system gets this layer with nothing added here, and the first with its own
   ``check_sheet`` and ``check_system_data``.
3. **Every roll against its own dice** (:func:`check_rolls_dice`): the system's
   :meth:`~systems.SheetSystem.check_roll` re-derives with its engine what the stored dice
   give under the stored pool (the dice the pool rolls, the successes, symbols, totals,
   outcome and summary claimed), so no roll arrives claiming what its dice do not give;
   every written roll is then drawn once as its pages draw it (:func:`check_rolls`).

Shape comes before and after these: :func:`transfer.schema.check_shape` bounds the whole
document (depth, sizes, text) and :func:`transfer.schema.check_rows` every row's keys and
columns before any rule reads them, and :func:`transfer.schema.check_system_parts` checks the
JSON each system keeps against its schema (known keys, types, die sizes) once the rules have
spoken of the sheets and campaign data, so their refusals cite the rule; the rolls come after
it, so the engine reads results of a known shape and a malformed one is named by its field.

Every function raises :class:`rulesets.errors.RuleError` naming the first broken rule; a
check that trips over a shape it does not expect (a KeyError, a TypeError, ...) is reported
as data that "cannot be read".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

from django.db.models import prefetch_related_objects
from django.template.loader import render_to_string

import systems
from rulesets.errors import RuleError
from systems import require

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character
    from equipment.models import Item
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
    _check_readings(system, campaign.readings, "the campaign's")


def _check_readings(system: systems.SheetSystem, readings: object, whose: str) -> None:
    """Refuse table readings the system does not offer, or that are stored in full where
    only those away from the seed's are kept (docs/rules.md, Table readings)."""
    if not isinstance(readings, dict):
        raise RuleError(f"{whose} table readings are not an object", RULE_IMPORT)
    chosen = system.readings_from(readings)  # RuleError: an unknown reading or value
    require(chosen.changed() == readings,
            f"{whose} table readings name the seed's reading, which is never stored")


def check_dashboard(campaign: Campaign) -> None:
    """Draw the GM's panel of a saved campaign once (it reads the campaign's characters),
    so data the rules' checks do not know cannot reach a dashboard that fails to draw it.
    Call inside the import's transaction, after its rows are written.

    Raises:
        RuleError: the panel cannot be drawn from the data.
    """
    system = systems.for_ruleset(campaign.ruleset)
    readable(lambda: system.dashboard_context(campaign), "the campaign's system data")


def check_roll(roll: Roll, parent: Roll | None) -> None:
    """Check an unsaved roll against its system's rules: the dice its pool rolls and what
    they give (:meth:`~systems.SheetSystem.check_roll`), after its pool column, which the
    roll log copies from its result (``rolls.log.roll_store``). No queries. Call once the
    document's shape is checked (:func:`transfer.schema.check_system_parts`), in the file's
    order, so that ``parent`` was checked before (:func:`check_rolls_dice`).

    Args:
        roll: a Roll with ``ruleset``, ``kind``, ``pool``, ``result`` and its verdict
            (``outcome``, ``net``, ``summary``) set (not saved); parent: the roll it follows
            up (not saved), or ``None``.

    Raises:
        RuleError: the first disagreement, in the system's words ("7 dice were rolled for
            a pool of 5", "it claims 9 successes; its dice [1, 1] give 0").
    """
    stored = roll.result.get("pool") if isinstance(roll.result, dict) else None
    require(roll.pool == (stored if isinstance(stored, dict) else {}),
            "its pool is not the pool its result was rolled with")
    system = systems.for_ruleset(roll.ruleset)
    readable(lambda: system.check_roll(roll, parent), "its dice")
    _check_readings(system, roll.readings, "its")
    for reading in system.readings:  # a pool that records a reading names the roll's
        if reading.key in roll.pool:
            require(roll.pool[reading.key] == roll.readings.get(reading.key, reading.default),
                    f"its pool was rolled under the table reading {reading.title!r} as "
                    f"{roll.pool[reading.key]!r}, which its readings do not say")
    if parent is not None:
        require(roll.readings == parent.readings,
                "its table readings are not those of the roll it follows up")


def check_rolls_dice(rolls: Sequence[tuple[int, Roll, int | None]]) -> None:
    """:func:`check_roll` of each ``(number, roll, number of the roll it follows up or
    None)``, in the file's order (a follow-up names a roll listed before it). Call once the
    document's shape is checked (:func:`transfer.schema.check_system_parts`): the engine then
    reads results of its system's shape, and a malformed one was named by its field.

    Raises:
        RuleError: "Roll 4 ('Willpower: 5 dice, ...') is refused: 7 dice were rolled for a
            pool of 5", the roll by its place in the file (from 1) and its pool in words.
    """
    checked: dict[int, Roll] = {}
    for i, (number, roll, parent) in enumerate(rolls, start=1):
        try:
            check_roll(roll, checked[parent] if parent is not None else None)
        except RuleError as exc:
            raise RuleError(f"Roll {i} ({roll_name(roll)}) is refused: {exc.message}",
                            exc.rule) from None
        checked[number] = roll


def roll_name(roll: Roll, most: int = 80) -> str:
    """How a refusal names a roll: its description quoted, cut to ``most`` characters (a
    pool in words runs long)."""
    text = roll.description
    return repr(text if len(text) <= most else text[:most - 1] + "…")


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


def check_item(item: Item, character: Character) -> None:
    """Check an unsaved inventory item of an unsaved ``character`` (its ``campaign`` set):
    its ``details`` (any JSON value, as the file holds it) against its system's rules
    (:meth:`~systems.SheetSystem.check_item`: Maelstrom's weapon of its tables, the rounds
    within its capacity, armor's dice), then read as the Equipment card reads it
    (``item_figures``). No queries.

    Raises:
        RuleError: the first value the rules refuse, or details that cannot be read.
    """
    system = systems.for_ruleset(character.campaign.ruleset)
    readable(lambda: system.check_item(item.details), "the item's details")
    readable(lambda: system.item_figures(character, item), "the item's details")


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
