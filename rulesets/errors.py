"""The one error type every rules module raises when a rule is broken."""

from __future__ import annotations


class RuleError(ValueError):
    """A game rule was broken, or a value is outside what the rules allow.

    Args:
        message: a sentence a player can read, e.g. "Firearms has 1 dot, so at most 1
            specialty can be used in this roll".
        rule: the seed section that states the rule, e.g. "Maelstrom rules.md, Using
            Specialties" or "Shahquest wiki, Dice Pools".

    ``str(error)`` gives ``"message (rule)"``; the parts are kept as ``.message`` and ``.rule``.
    Subclasses ``ValueError`` so callers that only know "bad value" still catch it.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message, rule)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"
