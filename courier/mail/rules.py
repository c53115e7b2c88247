"""Each game's rules for its players, as shipped data: ``templates/<game>/rules.txt.j2`` (an
organiser's own templates folder may replace it). Its first paragraph is the short summary every
welcome carries; the whole text answers a player's ``rules`` command."""

from __future__ import annotations

import jinja2

from courier.mail.render import render_template

RULES = "{game}/rules.txt.j2"


def rules_text(env: jinja2.Environment, game: str) -> str:
    """The whole rules text of ``game`` ("" for a game that ships none)."""
    try:
        env.get_template(RULES.format(game=game))
    except jinja2.TemplateNotFound:
        return ""
    return render_template(env, RULES.format(game=game), {}).strip()


def rules_summary(text: str) -> str:
    """The first paragraph, as one line: what the game is about."""
    return " ".join(text.split("\n\n", 1)[0].split())
