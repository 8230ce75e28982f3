"""Stored XSS through what people write about a character: a backstory, the player's notes or
the GM's notes holding a script, an event handler, a ``javascript:`` link, a frame or an SVG
comes back on the sheet as text (escaped) or not at all, never as markup that runs."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.helpers import fresh

pytestmark = pytest.mark.django_db

PAYLOADS = {
    "script": ("<script>alert('xss')</script>",
               "&lt;script&gt;alert('xss')&lt;/script&gt;"),
    "img-onerror": ("<img src=x onerror=alert('xss')>",
                    "&lt;img src=x onerror=alert('xss')&gt;"),
    # A link to an address the sanitiser would not keep is shown as its text alone.
    "markdown-link": ("[click me](javascript:alert('xss'))", "<p>click me</p>"),
    "entity-link": ("[click me](&#106;avascript:alert('xss'))", "<p>click me</p>"),
    "html-link": ('<a href="javascript:alert(\'xss\')">click me</a>',
                  "&lt;a href=\"javascript:alert('xss')\"&gt;click me&lt;/a&gt;"),
    "iframe": ('<iframe src="https://evil.example/"></iframe>',
               '&lt;iframe src="https://evil.example/"&gt;&lt;/iframe&gt;'),
    "svg-onload": ("<svg onload=alert('xss')>", "&lt;svg onload=alert('xss')&gt;"),
    "image": ("![pixel](https://evil.example/track.png)", None),
}
"""Each attack, and the form it must come back in (escaped text; None: removed)."""


class ActiveMarkup(HTMLParser):
    """Every piece of markup in a page that could run or load something a user wrote: an
    inline script, an event handler attribute, a ``javascript:`` URL, a frame, an object, an
    SVG, an image from elsewhere."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and not values.get("src"):
            self.found.append("inline <script>")
        if tag in {"iframe", "object", "embed", "svg", "frame"}:
            self.found.append(f"<{tag}>")
        if tag == "img" and not (values.get("src") or "").startswith("/"):
            self.found.append(f"<img src={values.get('src')}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in {"href", "src", "action", "formaction"} and value and \
                    "javascript:" in value.replace(" ", "").lower():
                self.found.append(f"{tag} {name}={value}")


def active_markup(page: str) -> list[str]:
    parser = ActiveMarkup()
    parser.feed(page)
    return parser.found


@pytest.mark.parametrize("field", ["backstory", "notes", "gm_notes"])
@pytest.mark.parametrize("attack", list(PAYLOADS))
def test_an_attack_written_in_a_character_text_never_comes_back_as_markup(
    client_for, alice, bob, bobs_character, field, attack,
) -> None:  # type: ignore[no-untyped-def]
    written, shown = PAYLOADS[attack]
    text = f"Before the attack.\n\n{written}\n\nAfter the attack."
    if field == "gm_notes":
        url, data, reader = (reverse("characters:character-gm-notes", args=[bobs_character.pk]),
                             {"gm_notes": text}, alice)
    else:
        url, reader = reverse("characters:character-edit", args=[bobs_character.pk]), bob
        data = {"name": "Rook", "concept": "", "backstory": "", "notes": "", field: text}
    assert client_for(reader).post(url, data).status_code == 302
    assert getattr(fresh(bobs_character), field) == text  # stored as written

    for htmx in (False, True):
        page = client_for(reader, htmx=htmx).get(bobs_character.get_absolute_url()).content.decode()

        assert "<p>Before the attack.</p>" in page and "<p>After the attack.</p>" in page
        assert active_markup(page) == []
        if "<" in written:  # raw markup never comes back as written
            assert written not in page
        if shown is not None:
            assert shown in page
        else:
            assert "evil.example" not in page


def test_the_clean_sheet_has_no_active_markup_to_begin_with(client_for, alice,
                                                            bobs_character) -> None:  # type: ignore[no-untyped-def]
    page = client_for(alice).get(bobs_character.get_absolute_url()).content.decode()

    assert active_markup(page) == []


def test_the_check_finds_what_it_looks_for() -> None:
    found = active_markup('<p><script>x</script><a href=" JavaScript:x">a</a>'
                          '<img src="https://e/p.png" onerror="x"><svg></svg></p>')

    assert found == ["inline <script>", "a href= JavaScript:x", "<img src=https://e/p.png>",
                     "img onerror=", "<svg>"]


def test_a_name_and_concept_are_plain_text(client_for, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    client_for(bob).post(reverse("characters:character-edit", args=[bobs_character.pk]),
                         {"name": "<b onmouseover=alert(1)>Rook</b>",
                          "concept": "<script>alert(1)</script>"})

    page = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()

    assert active_markup(page) == []
    assert "&lt;b onmouseover=alert(1)&gt;Rook&lt;/b&gt;" in page
