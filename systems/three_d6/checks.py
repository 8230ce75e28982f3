"""3d6's checks of stored data it did not make itself (an import): the sheet and the
campaign's names (``SheetSystem.check_sheet``, ``check_system_data``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from systems import require, stored_int, stored_names, stored_object
from systems.three_d6.sheet import (
    HEALTH_LIMIT,
    LEVEL_MAX,
    LEVEL_START,
    MODIFIER_CAP,
    NAME_MAX_LENGTH,
    RULE_ADVANCE,
    RULE_HEALTH,
    SLOTS,
    SUBTRAIT_SLOTS,
    TRAIT_SLOTS,
    names,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign


# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) ------------------------


def check_sheet(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    """:meth:`ThreeD6System.check_sheet`: modifiers only on the eighteen slots, each 0 to
    :data:`MODIFIER_CAP`, and a level :data:`LEVEL_START` to :data:`LEVEL_MAX` (3d6 sheet
    decision, Advancement); health 0 to its maximum, the maximum 1 to :data:`HEALTH_LIMIT`
    (3d6 sheet decision, Health). The campaign's :func:`names` name the modifiers.

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    modifiers = stored_object(sheet, "modifiers", "The modifiers")
    unknown = sorted(set(modifiers) - set(SLOTS))
    require(not unknown, f"unknown trait slots {', '.join(unknown)}", RULE_ADVANCE)
    named = names(campaign)
    for slot, value in modifiers.items():
        stored_int(value, f"The modifier of {named[slot]}", 0, MODIFIER_CAP, RULE_ADVANCE)
    stored_int(sheet.get("level", LEVEL_START), "The level", LEVEL_START, LEVEL_MAX,
               RULE_ADVANCE)
    track = stored_object(sheet, "health", "Health")
    maximum = stored_int(track.get("max"), "Maximum health", 1, HEALTH_LIMIT, RULE_HEALTH)
    stored_int(track.get("current"), "Health", 0, maximum, RULE_HEALTH)


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`ThreeD6System.check_system_data`: ``traits`` and ``subtraits``, where present,
    list six and twelve names of 1 to :data:`NAME_MAX_LENGTH` characters, no name twice
    (ignoring case), as the GM's names form takes them (a missing list reads as
    :func:`default_names`).

    Raises:
        RuleError: a list of another length or a name out of range (cited to the stored
            shape, :data:`systems.RULE_STORED`: the seed names no traits).
    """
    for key, count in (("traits", len(TRAIT_SLOTS)), ("subtraits", len(SUBTRAIT_SLOTS))):
        if key in data:
            listed = stored_names(data[key], f"The {key}' names")
            require(len(listed) == count and all(
                0 < len(n.strip()) <= NAME_MAX_LENGTH for n in listed),
                f"the campaign names {count} {key}, each 1 to {NAME_MAX_LENGTH} characters")
    # As the names form refuses it: one name for two slots would make a roll ambiguous.
    seen: set[str] = set()
    for name in [*data.get("traits", []), *data.get("subtraits", [])]:
        require(name.strip().casefold() not in seen,
                f"{name.strip()!r} is used twice; each trait and subtrait needs its own name")
        seen.add(name.strip().casefold())
