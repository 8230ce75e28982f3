"""The one error type every rules module raises when a rule is broken, and how a rule's
citation reads for a player (``citation``)."""

from __future__ import annotations

BOOKS: dict[str, str] = {
    "Maelstrom rules.md": "Maelstrom rules",
    "Shahquest wiki": "Shahquest wiki",
    "Shattered World Core Engine": "Shattered World Core Engine",
    "Genesys dice pool": "Genesys rules",
    "Genesys Core Rulebook": "Genesys Core Rulebook",
    "3d6 Rolls and Tests": "3d6 rules",
}
"""The books the rules come from: the source a rule tag names (its part before the first
comma, as the code and docs/rules.md cite it) -> the name a player reads. A tag whose source
is not here is a ruling of Sheetkeeper's own, never a book's (see :func:`citation`)."""

OURS = "Sheetkeeper's ruling"
"""How a citation of our own decisions (house rules, the app's own limits) begins."""

SHEET_DECISION = " sheet decision"
"""The tag of a decision a system's sheet made where its book is silent: "3d6 sheet
decision, Health"."""

HOUSE_RULE = "House rule"
"""The tag of a house rule: "House rule, Shahquest advancement (docs/systems/shahquest.md)"."""


def citation(rule: str) -> str:
    """How a rule tag reads for a player: a book's rule names the book and its section, with
    no file names ("Maelstrom rules.md, Spending Experience" -> "Maelstrom rules, Spending
    Experience"); anything else is our own decision and says so ("3d6 sheet decision,
    Health" -> "Sheetkeeper's ruling for 3d6, Health"; "docs/decisions.md, Retired and dead
    characters" -> "Sheetkeeper's ruling, Retired and dead characters"; "Roll requests" ->
    "Sheetkeeper's ruling, Roll requests"). Our own names that already say Sheetkeeper
    ("Sheetkeeper export format") are kept. The raw tag stays on :attr:`RuleError.rule` for
    code and tests that match on it."""
    source, comma, section = rule.partition(", ")
    if source in BOOKS:
        return f"{BOOKS[source]}, {section}" if comma else BOOKS[source]
    # Our own: docs paths are for developers, not players.
    if " (docs/" in section:
        section = section.split(" (docs/", 1)[0]
    if rule.startswith("Sheetkeeper"):
        return rule
    if not comma:
        return f"{OURS}, {rule}"
    if source.endswith(SHEET_DECISION):
        return f"{OURS} for {source.removesuffix(SHEET_DECISION)}, {section}"
    if source == HOUSE_RULE or source.startswith("docs/"):
        return f"{OURS}, {section}"
    return f"{OURS}, {source}, {section}"


class RuleError(ValueError):
    """A game rule was broken, or a value is outside what the rules allow.

    Args:
        message: a sentence a player can read, e.g. "Firearms has 1 dot, so at most 1
            specialty can be used in this roll".
        rule: the tag of the rule: a book's section, e.g. "Maelstrom rules.md, Using
            Specialties" or "Shahquest wiki, Dice Pools" (the source as in :data:`BOOKS`),
            or one of our own decisions, e.g. "3d6 sheet decision, Health".

    ``str(error)`` gives ``"message (citation)"``, the citation as a player reads it
    (:func:`citation`: "Maelstrom rules, Using Specialties", "Sheetkeeper's ruling for 3d6,
    Health"); the parts are kept as ``.message`` and ``.rule`` (the raw tag).
    Subclasses ``ValueError`` so callers that only know "bad value" still catch it.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message, rule)
        self.message = message
        self.rule = rule

    @property
    def citation(self) -> str:
        """The rule as a player reads it (:func:`citation`)."""
        return citation(self.rule)

    def __str__(self) -> str:
        return f"{self.message} ({self.citation})"
