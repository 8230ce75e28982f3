"""The one rule for text users write: what every form takes, an export carries and an import
takes back (docs/security.md, "Text").

Two kinds of text, one rule each:

* **A line** (a name, a title, a concept, a reason, a label inside a sheet): no control
  character at all (no tab, no line break, no escape code, no C1 control such as U+0085), no
  line or paragraph separator (U+2028, U+2029), no mark that changes the direction of the
  text (U+202E and its kin).
* **Multi-line text** (a backstory, notes, a recap, a description): the same, except that a
  tab and the line ends (``\\n``, ``\\r``) and the two separators are allowed.

Why the direction marks go everywhere: a right-to-left override makes the words after it read
backwards until the line ends, so a character's name or a recap could pretend to say what it
does not. Lone surrogates cannot be typed into a form, but JSON can spell one and no database
stores it, so the rule names them too; NUL (U+0000) is a control character like any other.

Plain Python: the forms (core.forms), the import schema (systems.schema, transfer.schema) and
the fuzz all ask this module, so there is one answer to "may this text be stored?".
"""

from __future__ import annotations

import re
import unicodedata

BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The characters that mark, embed, override or isolate the direction of the text around
them (Unicode's "Bidi_Control" property): the Arabic letter mark, left-to-right and
right-to-left marks, embeddings, overrides and isolates, and their pop."""

LINE_ENDS = "\t\n\r\u2028\u2029"
"""What multi-line text may hold that a line may not: tab, line feed, carriage return, and the
line and paragraph separators."""

_ANY_TEXT = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff{BIDI_CONTROLS}]")
_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff{BIDI_CONTROLS}\u2028\u2029]")

# Names for the characters a user is likely to meet in a paste; unicodedata has no name for a
# control character.
_NAMES = {
    "\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x00": "a NUL",
    "\x07": "a bell", "\x08": "a backspace", "\x0b": "a vertical tab", "\x0c": "a form feed",
    "\x1b": "an escape code", "\x7f": "a delete", "\x85": "a next-line control",
    "\u2028": "a line separator", "\u2029": "a paragraph separator",
}


def refused_in_line(value: str) -> str | None:
    """The first character a line may not hold, or None when ``value`` is a fit line.

    Args:
        value: the text as given (unstripped).

    Returns:
        One character of ``value`` (a control character, a separator, a direction mark or a
        lone surrogate), or None.
    """
    found = _LINE.search(value)
    return found[0] if found else None


def refused_in_text(value: str) -> str | None:
    """The first character multi-line text may not hold, or None when ``value`` is fit:
    as :func:`refused_in_line`, with a tab, line ends and the separators allowed."""
    found = _ANY_TEXT.search(value)
    return found[0] if found else None


def describe(char: str) -> str:
    """A character in words a user can act on: ``"the control character U+0007 (a bell)"``,
    ``"the direction mark U+202E"``, ``"U+2028 (a line separator)"``."""
    code = f"U+{ord(char):04X}"
    name = f" ({_NAMES[char]})" if char in _NAMES else ""
    if char in BIDI_CONTROLS:
        return f"the direction mark {code}, which changes how the text around it reads"
    if "\ud800" <= char <= "\udfff":
        return f"{code}, half of a character"
    if unicodedata.category(char) == "Cc":
        return f"the control character {code}{name}"
    return f"{code}{name}"


def line_problem(value: str) -> str | None:
    """Why ``value`` is not a fit line, as a sentence's end ("it holds the control character
    U+0007 (a bell)"), or
    None when it is."""
    char = refused_in_line(value)
    return None if char is None else f"it holds {describe(char)}"


def text_problem(value: str) -> str | None:
    """Why ``value`` is not fit multi-line text, as :func:`line_problem`, or None."""
    char = refused_in_text(value)
    return None if char is None else f"it holds {describe(char)}"
