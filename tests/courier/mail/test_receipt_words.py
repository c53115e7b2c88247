"""A receipt's words for what was not understood agree with how many lines that was (issue 29 QA:
"1 line not understood; correct them"), in the subject, the top of the HTML and the text."""

from __future__ import annotations

from collections.abc import Callable

from tests.conftest import Table, text_of
from tests.helpers.clock import at


def test_one_line_not_understood_is_it_and_two_are_them(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "Hi!\nattack Barney\nsuport Celeste\nAgatha")
    t.order("Barney", "atack Agatha\nsuport Celeste")
    t.tick(at(0, 9))
    one, two = t.sent("Agatha")[-1], t.sent("Barney")[-1]
    assert str(one["Subject"]).endswith(": 1 line not understood; correct it by Tue 01 Dec 20:00 GMT")
    assert "Not understood, so not counted (correct it and send again):" in text_of(one)
    html = one.get_body(("html",))
    assert html is not None and "A line was not understood: correct it" in str(html.get_content())
    assert str(two["Subject"]).endswith(": 2 lines not understood; correct them by Tue 01 Dec 20:00 GMT")
    assert "Not understood, so not counted (correct them and send again):" in text_of(two)
