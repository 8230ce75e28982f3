"""The one rule for text (core.text) and every form keeping it (core.forms.TextRules):
Sheetkeeper issue 31, "A backup that cannot be restored"."""

from __future__ import annotations

import importlib
import pkgutil
import unicodedata

import pytest
from django import forms

from core import text
from core.forms import Form, TextareaField, TextRules, line_rule, text_rule
from tests.fuzz.text import REFUSED_EVERYWHERE, REFUSED_IN_A_LINE, TAKEN_LINE, TAKEN_TEXT
from transfer.schema import SchemaError, check_shape

EVERY_CONTROL = [chr(c) for c in (*range(0x00, 0x20), *range(0x7F, 0xA0))]
LINE_ENDS = ["\t", "\n", "\r"]


@pytest.mark.parametrize("char", [c for c in EVERY_CONTROL if c not in LINE_ENDS]
                         + list(text.BIDI_CONTROLS) + ["\ud800", "\udfff"])
def test_no_text_may_hold_a_control_character_a_direction_mark_or_half_a_character(char):
    value = f"Vex{char}Rook"

    assert text.refused_in_text(value) == char
    assert text.refused_in_line(value) == char
    with pytest.raises(SchemaError, match=f"U\\+{ord(char):04X}"):
        check_shape({"name": value})


@pytest.mark.parametrize("char", [*LINE_ENDS, "\u2028", "\u2029"])
def test_a_line_may_not_break_but_multi_line_text_may(char):
    value = f"Vex{char}Rook"

    assert text.refused_in_line(value) == char
    assert text.refused_in_text(value) is None
    check_shape({"backstory": value})


@pytest.mark.parametrize("value", [TAKEN_LINE, "Ысолда", "דוד", "Zoë", "😀", "a\u200db", "\u00a0"])
def test_every_script_an_emoji_a_joiner_and_a_no_break_space_are_text(value):
    assert text.refused_in_line(value) is None
    assert text.refused_in_text(TAKEN_TEXT + value) is None


def test_the_fuzz_sends_one_of_each_kind_the_rule_names():
    kinds = {unicodedata.category(c) if c not in text.BIDI_CONTROLS else "bidi"
             for c in REFUSED_EVERYWHERE}
    assert kinds == {"Cc", "bidi"}
    assert {"\t", "\n", "\r"} <= set(REFUSED_IN_A_LINE)


def test_a_refusal_names_the_character_in_words_a_user_can_act_on():
    assert text.line_problem("Owes Vex\x07") == "it holds the control character U+0007 (a bell)"
    assert text.text_problem("a\u202eb") == (
        "it holds the direction mark U+202E, which changes how the text around it reads")
    assert text.line_problem("a\nb") == "it holds the control character U+000A (a line break)"


class _Story(Form):
    name = forms.CharField()
    backstory = TextareaField(widget=forms.Textarea, required=False)
    secret = forms.CharField(widget=forms.PasswordInput, required=False)

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["added"] = forms.CharField(required=False)


def test_a_form_refuses_each_field_by_its_kind_and_keeps_the_users_input():
    form = _Story({"name": "Rook\tthe Bold", "backstory": "line\x07bell", "secret": "\x07",
                   "added": "x\u202e"})

    assert not form.is_valid()
    assert set(form.errors) == {"name", "backstory", "added"}, "a password is not text"
    assert "U+0009 (a tab)" in form.errors["name"][0]
    assert "U+0007 (a bell)" in form.errors["backstory"][0]
    assert form["backstory"].value() == "line\x07bell"


def test_a_form_takes_line_breaks_in_a_text_box_only():
    form = _Story({"name": "Rook", "backstory": "Born\r\n\tat sea"})

    assert form.is_valid(), form.errors
    assert form.cleaned_data["backstory"] == "Born\n\tat sea"
    assert line_rule in form.fields["name"].validators
    assert text_rule in form.fields["backstory"].validators


PACKAGES = ("accounts", "campaigns", "characters", "core", "rolls", "systems", "table",
            "encounters", "transfer")


def _project_forms() -> list[type[forms.BaseForm]]:
    """Every form class the apps and systems define (their modules imported)."""
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if ".migrations" not in info.name and ".management" not in info.name:
                importlib.import_module(info.name)
    found, todo = [], list(forms.BaseForm.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] in PACKAGES and cls is not Form:
            found.append(cls)
    return found


def test_every_form_of_the_project_keeps_the_rule_for_text():
    project = _project_forms()

    assert len(project) > 50, "the walk found the project's forms"
    assert [f"{cls.__module__}.{cls.__qualname__}" for cls in project
            if not issubclass(cls, TextRules)] == []
