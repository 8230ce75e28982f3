"""Test doubles shared by the rules-engine tests."""

from __future__ import annotations

import pytest


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
