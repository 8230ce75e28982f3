"""The contract's shape (systems/base.py): :class:`systems.SheetSystem` is its parts put
together, a system must give only its slug, its roll dialog and its roll (and creation, unless
pages of its own make characters), every member says what it is, and no system overrides the
helpers marked final."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest
from django import forms

import systems
from rulesets.registry import RULESETS
from systems import base

PARTS: tuple[type, ...] = systems.SheetSystem.__bases__
"""The contract's parts: systems/base.py's and those beside it (systems/npcs.py...)."""


def _members(cls: type) -> dict[str, type]:
    """Every public member of ``cls`` a system sees, by name, with the part that declares it."""
    found: dict[str, type] = {}
    for klass in reversed(cls.__mro__):
        if klass in {*PARTS, base.SystemPart, cls}:
            found.update({name: klass for name in vars(klass) if not name.startswith("_")})
            found.update({name: klass for name in getattr(klass, "__annotations__", {})
                          if not name.startswith("_")})
    return found


def _is_final(cls: type, name: str) -> bool:
    member = inspect.getattr_static(cls, name, None)
    target = member.fget if isinstance(member, property) else member
    return bool(getattr(target, "__final__", False))


def test_the_system_is_its_parts_and_adds_no_member_of_its_own():
    members = _members(systems.SheetSystem)
    assert set(members.values()) <= {*PARTS, base.SystemPart}
    assert all(issubclass(systems.SheetSystem, part) for part in PARTS)


def test_each_member_belongs_to_one_part():
    declared = [name for part in (*PARTS, base.SystemPart)
                for name in {*vars(part), *getattr(part, "__annotations__", {})}
                if not name.startswith("_")]
    assert len(declared) == len(set(declared))


def test_a_system_must_implement_only_its_roll_dialog_and_its_roll():
    assert systems.SheetSystem.__abstractmethods__ == {"roll_form", "roll"}
    required = [f.name for f in dataclasses.fields(systems.SheetSystem)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    assert required == ["slug"]


def test_a_minimal_system_gets_a_default_for_everything_else():
    class Minimal(systems.SheetSystem):
        def roll_form(self, character: Any, data: Any = None) -> forms.Form:
            return forms.Form(data)

        def roll(self, character: Any, cleaned_data: Any, rng: Any) -> systems.RolledResult:
            raise NotImplementedError

    system = Minimal(slug="minimal")
    assert (system.template("sheet.html"), system.stylesheet, system.template_xp,
            system.template_dashboard) == (
        "systems/minimal/sheet.html", "css/systems/minimal.css", "systems/minimal/xp.html",
        "systems/minimal/dashboard.html")
    assert (system.actions, system.roll_actions, system.campaign_actions) == ({}, {}, {})
    assert system.creation_url(None) is None  # type: ignore[arg-type]  # the default reads nothing
    assert system.session_awards(None) == ()  # type: ignore[arg-type]
    assert not system.banks_xp and not system.panel_in_play


def test_a_system_without_its_roll_cannot_be_built():
    class NoRoll(systems.SheetSystem):
        pass

    with pytest.raises(TypeError, match="abstract"):
        NoRoll(slug="no_roll")  # type: ignore[abstract]


def test_every_member_says_what_it_is():
    for name, part in _members(systems.SheetSystem).items():
        member = inspect.getattr_static(systems.SheetSystem, name, None)
        if callable(member) or isinstance(member, property):
            documented = inspect.getdoc(member.fget if isinstance(member, property) else member)
        else:
            # An attribute's docstring is the string that follows its line in the part.
            body = inspect.getsource(part)
            line = next(ln for ln in body.splitlines() if ln.strip().startswith(f"{name}:"))
            after = body.split(line, 1)[1].lstrip()
            documented = after[:3] == '"""' and after
        assert documented, f"{part.__name__}.{name} has no docstring"


@pytest.mark.parametrize("slug", list(RULESETS))
def test_no_system_overrides_a_final_helper(slug):
    cls = type(systems.for_ruleset(slug))
    finals = {name for name in _members(systems.SheetSystem)
              if _is_final(systems.SheetSystem, name)}
    assert finals == {"template", "stylesheet", "template_xp", "template_dashboard",
                      "roll_description",
                      # The table readings come from the rules module (systems/readings.py).
                      "readings_type", "readings", "readings_of", "readings_from",
                      "readings_form", "readings_text", "reading_label"}
    overridden = {name for klass in cls.__mro__[:cls.__mro__.index(systems.SheetSystem)]
                  for name in vars(klass)} & finals
    assert not overridden, f"{slug} overrides {sorted(overridden)}"
