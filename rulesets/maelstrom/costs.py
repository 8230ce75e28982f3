"""Maelstrom's experience costs (Maelstrom rules.md, Spending Experience)."""

from __future__ import annotations

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import DOTS_MAX, WILLPOWER_MAX, _rule

# ---------------------------------------------------------------------------------------------
# Experience: Maelstrom rules.md, Spending Experience
# ---------------------------------------------------------------------------------------------

TRAIT_KINDS: tuple[str, ...] = (
    "attribute",
    "ability",
    "willpower",
    "general_specialty",
    "advanced_specialty",
)
"""Kinds of trait that can be bought with XP (Maelstrom rules.md, Spending Experience)."""

_MAX_RANK: dict[str, int] = {
    "attribute": DOTS_MAX,
    "ability": DOTS_MAX,
    "willpower": WILLPOWER_MAX,
    "general_specialty": 1,
    "advanced_specialty": 1,
}


_KIND_NOUN: dict[str, str] = {
    "attribute": "an attribute",
    "ability": "an ability",
    "willpower": "Willpower",
    "general_specialty": "a general specialty",
    "advanced_specialty": "an advanced specialty",
}


def _check_trait_kind(kind: str) -> None:
    if kind not in _MAX_RANK:
        raise RuleError(
            f"unknown trait kind {kind!r}; expected one of {', '.join(TRAIT_KINDS)}",
            _rule("Spending Experience"),
        )


def xp_cost(kind: str, new_rank: int) -> int:
    """XP cost of buying one dot that brings a trait to ``new_rank``.

    Table (Maelstrom rules.md, Spending Experience): general specialty 2; advanced specialty
    3; Willpower new rank x 1; ability new rank x 2; attribute 15 (flat).

    Args:
        kind: one of :data:`TRAIT_KINDS`.
        new_rank: the rank in dots after the purchase: 1-5 for attributes and abilities,
            1-10 for Willpower, 1 for a specialty (a specialty is owned or not).

    Returns:
        The cost in XP (a positive int).

    Raises:
        RuleError: unknown kind, or a rank below 1 or above the trait's maximum.
    """
    _check_trait_kind(kind)
    maximum = _MAX_RANK[kind]
    if not 1 <= new_rank <= maximum:
        raise RuleError(
            f"{_KIND_NOUN[kind]} can only be bought up to rank {maximum}, not rank {new_rank}",
            _rule("Spending Experience"),
        )
    if kind == "attribute":
        return 15
    if kind == "ability":
        return 2 * new_rank
    if kind == "willpower":
        return new_rank
    if kind == "general_specialty":
        return 2
    return 3


def xp_cost_between(kind: str, current: int, target: int) -> int:
    """XP cost of raising a trait from ``current`` dots to ``target`` dots, one dot at a time.

    Sums :func:`xp_cost` over the new ranks ``current + 1`` .. ``target`` (Maelstrom rules.md,
    Spending Experience); an ability 0 -> 3 costs 2 + 4 + 6 = 12 XP.

    Args:
        kind: one of :data:`TRAIT_KINDS`.
        current: dots owned now (>= 0).
        target: dots wanted (>= current, at most the trait's maximum).

    Returns:
        Total XP; 0 when ``target == current``.

    Raises:
        RuleError: unknown kind, negative ``current``, ``target`` below ``current`` (XP is
            never refunded) or above the maximum.
    """
    _check_trait_kind(kind)
    if current < 0:
        raise RuleError(f"a trait cannot have {current} dots", _rule("Spending Experience"))
    if target < current:
        raise RuleError(
            f"cannot lower {_KIND_NOUN[kind]} from {current} to {target} with XP",
            _rule("Spending Experience"),
        )
    return sum(xp_cost(kind, rank) for rank in range(current + 1, target + 1))

