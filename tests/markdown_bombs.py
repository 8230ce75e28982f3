"""Markdown bombs: 51 texts of :data:`core.markdown.MAX_LENGTH` characters built to make a
Markdown renderer slow (quadratic or worse in the text's length) or its HTML huge, each of a
kind that has slowed some CommonMark parser in the wild.

Sources: the pathological tests of cmark and cmark-gfm (``test/pathological_tests.py``: nested
emphasis, link openers without closers, ``[ (](``, ``![[]()``, nested brackets, block quotes
and lists, growing backtick runs, unclosed link destinations, ``<!--``, tables), the
inline-HTML scanners of cmark issues 299 and 379 (``<?``, ``<!D``, ``<![CDATA[``), the
advisory fixed in cmark-gfm 0.29.0.gfm.12 (CVE-2023-37463, tables), markdown-it issue 583
(``*_``), pulldown-cmark issues 247 and 248 (two backticks and a backslash, ``a***``), mistune
issue 191 (``[]( "``), and the ones Sheetkeeper issue 31 names (``[``, ``![``, ``[![``). The
last few amplify rather than slow: one reference definition used thousands of times, a table
header hundreds or thousands of cells wide that every row is padded to, and, above them,
nesting thousands of levels deep.

Every bomb holds only characters the rule for multi-line text takes (core.text), so a form
stores it and the page shows it; each is at most ``MAX_LENGTH`` characters long (a bomb of
nested pairs rounds down to whole pairs, by at most 13).

:data:`BY_NAME` names each (the name is what it repeats, or the mechanism); :data:`BOMBS`
is the texts alone, what the fuzz's text sweep writes into every text box
(tests/fuzz/text.py); ``python -m benchmarks.markdown`` times each (docs/performance.md).
"""

from __future__ import annotations

from core.markdown import MAX_LENGTH


def _fill(unit: str, length: int) -> str:
    """``unit`` repeated, cut to ``length`` characters."""
    return (unit * (length // len(unit) + 1))[:length]


def _nested_lists(length: int) -> str:
    # Each item indented two more columns than the last: one list inside the other.
    lines, size, depth = [], 0, 0
    while size < length:
        lines.append("  " * depth + "- a\n")
        size += len(lines[-1])
        depth += 1
    return "".join(lines)[:length]


def _backtick_runs(length: int) -> str:
    # Runs of 1, 2, 3 ... backticks, no two of the same length, so none closes another.
    runs, size, count = [], 0, 1
    while size < length:
        runs.append("e" + "`" * count)
        size += count + 1
        count += 1
    return "".join(runs)[:length]


def _nested_emphasis(length: int) -> str:
    half = (length - 1) // 14
    return "*a **a " * half + "b" + " a** a*" * half


def _nested_brackets(length: int) -> str:
    half = (length - 1) // 2
    return "[" * half + "a" + "]" * half


def _reference_used_often(length: int) -> str:
    # One definition with an address of a twentieth of the text, used as often as the rest
    # allows.
    definition = "[a]: /" + "u" * (length // 20) + "\n\n"
    return definition + _fill("[a] ", length - len(definition))


def _padded_table(length: int, columns: int) -> str:
    # A header ``columns`` cells wide; every one-cell row below is padded to as many.
    head = "|" + "a|" * columns + "\n|" + "-|" * columns + "\n"
    return head + _fill("x\n", length - len(head))


def _wide_table(length: int) -> str:
    columns = length // 4 - 1
    return "|" + "a|" * columns + "\n|" + "-|" * columns


def bombs(length: int = MAX_LENGTH) -> dict[str, str]:
    """Each bomb by name, built to ``length`` characters (at most; a bomb of nested pairs
    rounds down to whole pairs). The benchmark builds them at half the length too, to see how
    a renderer's time grows."""
    def fill(unit: str) -> str:
        return _fill(unit, length)

    return {
        # Links and images: openers, closers and destinations that never complete.
        "[": fill("["),
        "![": fill("!["),
        "[![": fill("[!["),
        "![[": fill("![["),
        "[a": fill("[a"),
        "a]": fill("a]"),
        "nested brackets": _nested_brackets(length),
        "[a](": fill("[a]("),
        "[a](<b": fill("[a](<b"),
        "[a](b": fill("[a](b"),
        '[]( "': fill('[]( "'),
        "[ (](": fill("[ (]("),
        "![[]()": fill("![[]()"),
        "[ a_": fill("[ a_"),
        # Emphasis: openers without closers, closers without openers, mixed and nested.
        "*a": fill("*a"),
        "_a ": fill("_a "),
        "a*": fill("a*"),
        "a_ ": fill("a_ "),
        "*a_ ": fill("*a_ "),
        "a**b c* c*": "a**b" + _fill("c* ", length - 4),
        "*_": fill("*_"),
        "a***": fill("a***"),
        "**a": fill("**a"),
        "nested emphasis": _nested_emphasis(length),
        "~~a": fill("~~a"),
        # Code spans and escapes.
        "backtick runs": _backtick_runs(length),
        "``\\": fill("``\\"),
        "\\": fill("\\"),
        # What would be raw HTML or an autolink, never closed.
        "<": fill("<"),
        "<http:": fill("<http:"),
        "a<!--": "a" + _fill("<!--", length - 1),
        "<?": fill("<?"),
        "<!D ": fill("<!D "),
        "a <![CDATA[": fill("a <![CDATA["),
        "<div>": fill("<div>\n"),
        "&#": fill("&#"),
        '"': fill('"'),
        # Blocks: nesting thousands deep, many headings, breaks and fences.
        "> ": fill("> "),
        "nested lists": _nested_lists(length),
        "1. ": fill("1. "),
        "- > ": fill("- > "),
        "# a": fill("# a\n"),
        "hard breaks": fill("a  \n"),
        "```": fill("```\n"),
        # Amplifiers: a little text that asks for a lot of HTML.
        "reference definitions": "".join(f"[a{i}]: /u\n" for i in range(length // 8))[:length],
        "one reference used often": _reference_used_often(length),
        "wide table": _wide_table(length),
        "padded table": _padded_table(length, 100),
        "wide padded table": _padded_table(length, length // 8),
        "table rows": "|a|b|\n|-|-|\n" + _fill("|x|y|\n", length - 12),
        "aaa\\rbbb\\n-|": fill("aaa\rbbb\n-|\n"),
    }


BY_NAME: dict[str, str] = bombs()
"""Each bomb by name, at :data:`core.markdown.MAX_LENGTH` characters."""

BOMBS: tuple[str, ...] = tuple(BY_NAME.values())
"""The bombs' texts, in :data:`BY_NAME`'s order: what the fuzz writes into every text box."""
