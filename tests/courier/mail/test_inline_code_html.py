"""Issue 29 QA: the welcome's HTML showed `rules` with literal backticks. The HTML part sets a
backticked word as <code>; the text part keeps the backticks, readable as they are; a player's
words with a backtick or markup in them are escaped, never markup."""

from __future__ import annotations

import re
from collections.abc import Callable
from email.message import EmailMessage

from courier.mail.render import inline_code
from tests.conftest import Table, text_of
from tests.helpers.clock import at


def html_of(message: EmailMessage) -> str:
    body = message.get_body(("html",))
    assert body is not None
    return str(body.get_content())


def test_the_welcome_shows_commands_as_code_in_html_and_backticked_in_text(
    make_table: Callable[..., Table],
) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    welcome = t.sent("Agatha")[0]
    html = html_of(welcome)
    assert re.search(r"<code[^>]*>rules</code> in a mail for the whole rules", html), html
    assert "`" not in html
    assert "write `rules` in a mail for the whole rules" in text_of(welcome)


def test_a_players_words_stay_text() -> None:
    assert str(inline_code("say `<b>hi</b>` & go")) == "say <code>&lt;b&gt;hi&lt;/b&gt;</code> &amp; go"
    assert str(inline_code("one ` alone")) == "one ` alone"
