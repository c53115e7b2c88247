"""Every pattern of config/quotes.toml, by its own examples: the quote is cut at it, the new text above
it kept, and a receipt would never quote it back. Order texts of every game are never cut."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from courier.data import shipped_dir
from courier.mail.html_text import html_to_text
from courier.mail.quote_rules import RulesError, load_rules, shipped_rules
from courier.mail.quotes import cut_reply, is_furniture
from tests.helpers.forgiving import FORGIVING
from tests.helpers.paths import ROOT

QUOTES: dict[str, Any] = tomllib.loads((shipped_dir("config") / "quotes.toml").read_text(encoding="utf-8"))
ATTRIBUTIONS = [
    (entry["language"], example) for entry in QUOTES["attribution"] for example in entry["examples"]
]
HEADER_BLOCKS = QUOTES["header_fields"]["examples"]
SEPARATORS = QUOTES["separators"]["examples"]
NEW, QUOTED = "attack Barney", "loot"


def test_every_attribution_entry_has_examples() -> None:
    assert all(entry["examples"] for entry in QUOTES["attribution"])


@pytest.mark.parametrize(("language", "attribution"), ATTRIBUTIONS)
def test_an_attribution_cuts_the_unmarked_quote_below_it(language: str, attribution: str) -> None:
    assert cut_reply(f"{NEW}\n\n{attribution}\n{QUOTED}\n\nRound 2 of 10") == NEW
    assert cut_reply(f"{NEW}\n{attribution}\n\n{QUOTED}") == NEW
    assert is_furniture(attribution)


@pytest.mark.parametrize(("language", "attribution"), ATTRIBUTIONS)
def test_after_an_attribution_answers_between_marked_lines_stay(language: str, attribution: str) -> None:
    assert cut_reply(f"{attribution}\n> Your orders?\n{NEW}\n> {QUOTED}") == NEW


# Only an attribution that opens with a lead-in word (On, Am, Le…) is found after words on its line.
OPENING = [(lang, text) for lang, text in ATTRIBUTIONS if shipped_rules().lead_in.match(text.lstrip("-* "))]


@pytest.mark.parametrize(("language", "attribution"), OPENING)
def test_a_reply_on_the_attributions_own_line_is_kept(language: str, attribution: str) -> None:
    assert cut_reply(f"{NEW} {attribution}\n{QUOTED}") == NEW


@pytest.mark.parametrize(
    "wrapped",
    [
        "On Wed, Apr 4, 2012 at 3:59 PM, Bob Smith <\nbob@example.com> wrote:",
        "On Wed, Apr 4, 2012 at 3:59 PM, Bob Smith\n<bob@example.com> wrote:",
        "Le lun. 23 nov. 2026 à 08:00, Courier <orders@example.org> a\nécrit :",
        "Am Mo., 23. Nov. 2026 um 08:00 Uhr schrieb Courier <\norders@example.org>:",
        "On Mon, Nov 23, 2026 at 8:00 AM Courier, the arbiter\nof Truce <orders@example.org>\nwrote:",
        # Polymail: blank lines, the brackets on lines of their own, and the verb quoted
        "On Tue, Apr 11, 2017 at 10:07 PM John Smith\n\n<\nmailto:John Smith <johnsmith@gmail.com>\n> wrote:",
    ],
)
def test_a_wrapped_attribution_is_cut_whole(wrapped: str) -> None:
    assert cut_reply(f"{NEW}\n\n{wrapped}\n\n{QUOTED}") == NEW
    assert cut_reply(f"{NEW}\n{wrapped}\n> {QUOTED}") == NEW


@pytest.mark.parametrize("block", HEADER_BLOCKS)
def test_a_header_block_cuts_what_follows(block: str) -> None:
    assert cut_reply(f"{NEW}\n\n{block}\n\n{QUOTED}") == NEW
    assert all(is_furniture(line) for line in block.split("\n")[:1])


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_separator_cuts_what_follows(separator: str) -> None:
    assert cut_reply(f"{NEW}\n\n{separator}\n{QUOTED}") == NEW
    assert is_furniture(separator)


@pytest.mark.parametrize(
    "text",
    [
        "move 3 troops\nFrom: Alpha\nTo: Beta",  # two header-like lines are not a block
        "I wrote 3 orders:\nattack Barney",  # a verb and a number, but no date, time or address
        "On second thought:\nattack Barney",
        "On turn 3 attack Barney",
        "As I wrote:\nattack Barney",  # a name and a verb are an attribution; "I" and a verb are not
        "We already wrote:\nloot",
        "Orders:\nsupport Charles",
        "--- my orders ---\nA Par - Bur",
        "Date: whenever\nattack Barney",
    ],
)
def test_what_looks_a_little_like_furniture_stays(text: str) -> None:
    assert cut_reply(text) == text


def _order_texts() -> list[tuple[str, str]]:
    return [(game, case["text"]) for game, spec in FORGIVING.items() for case in spec["cases"]]


@pytest.mark.parametrize(("game", "text"), _order_texts())
def test_no_line_of_an_order_text_is_furniture(game: str, text: str) -> None:
    assert not any(is_furniture(line) for line in text.split("\n") if line.strip())


# --- HTML: the quote found by its structure ----------------------------------------------------------


@pytest.mark.parametrize(
    "html",
    [
        '<div>{new}</div><div class="gmail_quote"><div class="gmail_attr">On Mon, X wrote:</div>'
        "{quoted}</div>",
        '<div>{new}</div><div class="yahoo_quoted"><div>On Monday, X wrote:</div><div>{quoted}</div></div>',
        '<p>{new}</p><div class="moz-cite-prefix">On 23/11/2026 08:00, X wrote:<br></div>'
        '<blockquote type="cite">{quoted}</blockquote>',
        '<div>{new}</div><div>On 23 Nov 2026, at 08:00, X wrote:</div><blockquote type="cite">'
        "<div>{quoted}</div></blockquote>",
        '<p>{new}</p><hr><div id="divRplyFwdMsg"><b>From:</b> X<br><b>Sent:</b> Monday</div>'
        "<div>{quoted}</div>",
        '<p>{new}</p><div id="appendonsend"></div><div>{quoted}</div>',
        '<p>{new}</p><div class="zmail_extra"><div>{quoted}</div></div>',
        '<p>{new}</p><div class="protonmail_quote">{quoted}</div>',
        '<p>{new}</p><div id="mail-editor-reference-message-container"><p>{quoted}</p></div>',
        "<p>{new}</p><hr><p><b>From:</b> X<br><b>Sent:</b> Monday<br><b>To:</b> Y</p><p>{quoted}</p>",
        "<p>{new}</p><hr><div><font><b>From: bob@example.com</b> <b>Date: Thu, 24 Mar 2016 08:07:12 -0700</b>"
        "</font></div><div>{quoted}</div>",
    ],
)
def test_html_quotes_are_cut_by_their_structure(html: str) -> None:
    assert cut_reply(html_to_text(html.format(new=NEW, quoted=QUOTED))) == NEW


def test_text_after_a_closed_quote_container_is_the_players() -> None:
    html = f'<div class="gmail_quote"><blockquote>{QUOTED}</blockquote></div><div>{NEW}</div>'
    assert cut_reply(html_to_text(html)) == NEW


# --- an organiser's own patterns ---------------------------------------------------------------------


def _docs_example() -> str:
    """The example file docs/reading-mail.md gives an organiser ("Adding a pattern")."""
    docs = (ROOT / "docs" / "reading-mail.md").read_text(encoding="utf-8")
    return docs.split("### Adding a pattern", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]


def test_the_docs_example_file_adds_patterns(tmp_path: Path) -> None:
    extra = tmp_path / "my-quotes.toml"
    extra.write_text(_docs_example(), encoding="utf-8")
    rules = load_rules((extra,))
    for example in tomllib.loads(_docs_example())["attribution"][0]["examples"]:
        assert cut_reply(f"{NEW}\n{example}\n{QUOTED}", rules) == NEW
    assert cut_reply(f"{NEW}\n----- Originala mesaĝo -----\n{QUOTED}", rules) == NEW
    assert cut_reply(f"{NEW}\nDe: Courier\nDato: lundo\n\n{QUOTED}", rules) == NEW
    html = f'<p>{NEW}</p><div class="my_client_quote">{QUOTED}</div>'
    assert cut_reply(html_to_text(html, rules), rules) == NEW
    html = f'<p>{NEW}</p><div id="my_client_reply"></div><p>{QUOTED}</p>'
    assert cut_reply(html_to_text(html, rules), rules) == NEW
    assert cut_reply(f"{NEW}\nOn Mon, 23 Nov 2026, X wrote:\n{QUOTED}", rules) == NEW  # the shipped stay
    assert cut_reply(f"{NEW}\nJe 2026-11-23 08:00, Courier skribis:\n{QUOTED}") != NEW  # not shipped


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("[[attribution]]\nverbs = 'skribis'\n", "verbs"),
        ("[[attribution]]\nverbs = ['x']\npatterns = ['(']\n", "pattern"),
        ("[separators\n", "quotes.toml"),
    ],
)
def test_a_broken_file_is_named(tmp_path: Path, text: str, complaint: str) -> None:
    extra = tmp_path / "quotes.toml"
    extra.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError, match=complaint):
        load_rules((extra,))
