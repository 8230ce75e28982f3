"""Test doubles and checks shared by the rules-engine tests."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.errors import RuleError


class ScriptedRng:
    """An RNG that returns the given faces in order and fails the test if over-consumed."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.calls.append((a, b))
        if not self.faces:
            pytest.fail(f"the scripted RNG ran out of faces (call {len(self.calls)})")
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
        return face

    @property
    def exhausted(self) -> bool:
        return not self.faces


def assert_quick_roll_refused(module: Any, text: str, message: str) -> None:
    """``module.quick_roll(text)`` raises a RuleError whose message holds ``message`` and
    whose rule cites a section of the system's seed (starts with ``module.SOURCE``)."""
    with pytest.raises(RuleError) as error:
        module.quick_roll(text)
    assert message in error.value.message
    assert error.value.rule.startswith(module.SOURCE)
