"""core/html_forms.py and its filters: a shared page drops the controls that write from the
fragments it includes (an archived campaign's), or gives their forms a hidden field."""

from __future__ import annotations

from django.template import Context, Template

from core.html_forms import add_hidden_field, drop_writes

KEPT = '<p class="help">Wounds <strong>3</strong>/12 &amp; strain 0</p>\n'


def test_a_form_that_posts_goes_with_its_content_and_the_rest_stays_byte_for_byte() -> None:
    html = (KEPT + '<form method="post" action="/a/" hx-post="/a/"><input name="x">'
            '<button>Mark</button></form>\n' + KEPT)
    assert drop_writes(html) == KEPT + "\n" + KEPT


def test_a_form_that_only_reads_stays() -> None:
    html = '<form method="get" action="/odds/"><button>Show the odds</button></form>'
    assert drop_writes(html) == html


def test_the_method_is_read_whatever_its_case() -> None:
    assert drop_writes('<form method="POST" action="/a/"><button>Go</button></form>x') == "x"


def test_an_element_that_writes_through_htmx_goes_with_its_content() -> None:
    for attribute in ("hx-post", "hx-put", "hx-patch", "hx-delete", "data-hx-post"):
        html = f'<div {attribute}="/a/"><span>press</span></div><p>kept</p>'
        assert drop_writes(html) == "<p>kept</p>", attribute


def test_a_button_that_posts_on_its_own_goes_and_its_reading_form_stays() -> None:
    html = ('<form method="get" action="/a/"><button formmethod="post" formaction="/b/">'
            "Write</button><button>Read</button></form>")
    assert drop_writes(html) == '<form method="get" action="/a/"><button>Read</button></form>'


def test_a_control_of_a_dropped_form_placed_outside_it_goes_and_its_label_stays() -> None:
    html = ('<label><input type="checkbox" name="trait" form="roll-form"> Strength</label>'
            '<form id="roll-form" method="post" action="/roll/"></form>'
            '<div class="roll-bar"><span>Tick traits, then</span>'
            '<button type="submit" form="roll-form">Roll</button></div>'
            '<input type="checkbox" form="odds-form"><form id="odds-form" method="get"></form>')
    assert drop_writes(html) == ('<label> Strength</label><div class="roll-bar"><span>Tick '
                                 'traits, then</span></div><input type="checkbox" '
                                 'form="odds-form"><form id="odds-form" method="get"></form>')


def test_a_disclosure_left_with_nothing_to_disclose_goes_too() -> None:
    html = ('<details><summary>Change a statistic</summary>\n  <form method="post" '
            'action="/a/"><select><option>1<option>2</select></form>\n</details>'
            '<details><summary>Level</summary><p>Level 3</p><form method="post"></form>'
            "</details>")
    assert drop_writes(html) == ("<details><summary>Level</summary><p>Level 3</p>"
                                 "</details>")


def test_a_row_left_with_nothing_goes_but_a_table_cell_or_a_live_region_stays() -> None:
    html = ('<div class="actions"><form method="post"></form> <form method="post"></form>'
            '</div><div class="row"><div class="actions"><form method="post"></form></div>'
            '</div><table><tr><td><form method="post"></form></td></tr></table>'
            '<div id="sheet-tracks"><form method="post"></form></div><div class="empty"></div>')
    assert drop_writes(html) == ('<table><tr><td></td></tr></table><div id="sheet-tracks">'
                                 '</div><div class="empty"></div>')


def test_void_and_self_closed_elements_and_stray_end_tags_are_kept() -> None:
    html = '<br><img src="x" alt=""/><hr></span><p>one<p>two</p>'
    assert drop_writes(html) == html


def test_a_form_never_closed_runs_to_the_end_as_a_browser_reads_it() -> None:
    assert drop_writes('<p>kept</p><form method="post"><button>Go</button>') == "<p>kept</p>"


def test_every_form_that_posts_gets_the_hidden_field_escaped_first() -> None:
    html = ('<form method="post" action="/a/"><button>A</button></form>'
            '<form method="get" action="/b/"></form>')
    assert add_hidden_field(html, "next", '/c/?d=1&e="f"') == (
        '<form method="post" action="/a/"><input type="hidden" name="next" '
        'value="/c/?d=1&amp;e=&quot;f&quot;"><button>A</button></form>'
        '<form method="get" action="/b/"></form>')


def render(source: str, **context: object) -> str:
    return Template("{% load page_forms %}" + source).render(Context(context))


def test_the_read_only_filter_drops_writes_only_when_asked() -> None:
    block = '<p>kept</p><form method="post"><button>Go</button></form>'
    template = "{% filter read_only:archived %}" + block + "{% endfilter %}"
    assert render(template, archived=True) == "<p>kept</p>"
    assert render(template, archived=False) == block


def test_the_filters_escape_text_that_is_not_markup_yet() -> None:
    hostile = '<form method="get"><script>alert(1)</script></form>'
    assert render("{{ text|read_only:True }}", text=hostile) == (
        "&lt;form method=&quot;get&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
        "&lt;/form&gt;")
    assert "<script>" not in render("{{ text|return_to:'/x/' }}", text=hostile)


def test_the_return_to_filter_names_the_page_in_every_posting_form() -> None:
    template = ('{% filter return_to:here %}<form method="post" action="/a/"></form>'
                "{% endfilter %}")
    assert render(template, here="/settings/") == (
        '<form method="post" action="/a/"><input type="hidden" name="next" '
        'value="/settings/"></form>')
    assert render(template, here="") == '<form method="post" action="/a/"></form>'
