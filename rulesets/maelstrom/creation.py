"""Maelstrom's character creation allotments (Maelstrom rules.md, Character Creation)."""

from __future__ import annotations

from collections.abc import Mapping

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import (
    ABILITIES,
    ATTRIBUTE_GROUPS,
    ATTRIBUTES,
    DOTS_MAX,
    _rule,
)

# ---------------------------------------------------------------------------------------------
# Character creation: Maelstrom rules.md, Character Creation
# ---------------------------------------------------------------------------------------------

_ATTRIBUTE_DOTS = {True: 6, False: 4}  # primary?, extra dots on top of the 1 in each


def validate_attributes(primary: str, dots: Mapping[str, int]) -> None:
    """Check a new character's attributes against the creation allotment.

    Each attribute starts at 1 dot; the primary group gets 6 additional dots and the other
    group 4 (Maelstrom rules.md, Starting Attributes).

    Args:
        primary: "Physical" or "Mental".
        dots: the final rank (dots) of each of the six attributes, keyed by name; all six must
            be present and nothing else.

    Returns:
        None when the allotment is valid.

    Raises:
        RuleError: unknown primary group, an unknown or missing attribute, a rank below 1 or
            above 5, or a group that did not receive exactly its 6 or 4 extra dots (the
            message names the group and the dots allocated).
    """
    rule = _rule("Starting Attributes")
    if primary not in ATTRIBUTE_GROUPS:
        raise RuleError(
            f"the primary attribute group must be Physical or Mental, not {primary!r}", rule
        )
    unknown = sorted(set(dots) - set(ATTRIBUTES))
    if unknown:
        raise RuleError(f"unknown attribute: {', '.join(unknown)}", rule)
    missing = [name for name in ATTRIBUTES if name not in dots]
    if missing:
        raise RuleError(f"missing attribute: {', '.join(missing)}", rule)
    for name in ATTRIBUTES:
        rank = dots[name]
        if not 1 <= rank <= DOTS_MAX:
            raise RuleError(
                f"{name} has {rank} dots; a new character's attributes are 1 to {DOTS_MAX}",
                rule,
            )
    for group, names in ATTRIBUTE_GROUPS.items():
        is_primary = group == primary
        wanted = _ATTRIBUTE_DOTS[is_primary]
        allocated = sum(dots[name] - 1 for name in names)
        if allocated != wanted:
            role = "primary" if is_primary else "secondary"
            raise RuleError(
                f"{group} is the {role} group: allocate {wanted} dots on top of the 1 in "
                f"each; you allocated {allocated}",
                rule,
            )


_ABILITY_ALLOTMENT: tuple[tuple[int, int], ...] = ((3, 2), (2, 4), (1, 6))  # (dots, abilities)


def validate_abilities(dots: Mapping[str, int]) -> None:
    """Check a new character's abilities against the creation allotment.

    Two abilities at 3 dots, four at 2 and six at 1: twelve different abilities, the rest at
    0 (Maelstrom rules.md, Starting Abilities).

    Args:
        dots: dots per ability name; abilities left out count as 0.

    Returns:
        None when the allotment is valid.

    Raises:
        RuleError: an unknown ability, a rank outside 0-3, or a wrong count at some rank
            (e.g. "2 abilities at 3 dots are required; you have 1").
    """
    rule = _rule("Starting Abilities")
    unknown = sorted(set(dots) - set(ABILITIES))
    if unknown:
        raise RuleError(f"unknown ability: {', '.join(unknown)}", rule)
    for name, rank in dots.items():
        if not 0 <= rank <= 3:
            raise RuleError(f"{name} has {rank} dots; at creation an ability has 0 to 3 dots", rule)
    for rank, wanted in _ABILITY_ALLOTMENT:
        have = sum(1 for value in dots.values() if value == rank)
        if have != wanted:
            unit = "dot" if rank == 1 else "dots"
            raise RuleError(
                f"{wanted} abilities at {rank} {unit} are required; you have {have}", rule
            )

