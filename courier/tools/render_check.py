"""``courier render-check``: every kind of mail of every game, looked at in headless Chromium at a
phone's width and a desktop's, as a player would see it.

Each mail's HTML part is written to a file with its inline pictures beside it (``cid:`` sources
rewritten to the files), opened at 400 px and at 1200 px, measured, and photographed. A problem is
a page wider than its window (the player would scroll sideways), the block that says the result,
what to do now and the deadline (``id="courier-now"``) not on the first screen, or a picture that
did not load. The screenshots stay in the output folder for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from courier.tools.browser import Browser
from courier.tools.sample_mail import SampleMail, sample_mail

__all__ = ["SIZES", "Checked", "check_mail", "problems_of", "render_check", "write_page"]

SIZES = ((400, 800), (1200, 900))  # a phone's window (CSS pixels) and a desktop's

MEASURE = """(async () => {
  const images = [...document.images];
  await Promise.all(images.map(i => i.complete ? null : new Promise(r => { i.onload = i.onerror = r; })));
  const now = document.getElementById("courier-now");
  const box = now ? now.getBoundingClientRect() : null;
  return {
    scrollWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
    screen: window.innerHeight,
    nowTop: box ? box.top : null,
    nowBottom: box ? box.bottom : null,
    images: images.map(i => ({src: i.getAttribute("src"), naturalWidth: i.naturalWidth,
                               shownWidth: i.getBoundingClientRect().width})),
  };
})()"""


@dataclass(frozen=True)
class Checked:
    """One mail at one window size: what was measured, where its screenshot is, what is wrong."""

    game: str
    kind: str
    width: int
    measures: dict[str, Any]
    screenshot: Path
    problems: tuple[str, ...]


def write_page(message: EmailMessage, folder: Path, name: str) -> Path:
    """The mail's HTML part as ``folder/name.html``, its inline pictures as files beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    html_part = message.get_body(("html",))
    assert html_part is not None, "every mail has an HTML part"
    html = str(html_part.get_content())
    for part in message.walk():
        cid = str(part.get("Content-ID", "")).strip("<>")
        if cid and part.get_content_maintype() == "image":
            file = folder / f"{name}-{part.get_filename() or 'picture'}"
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            file.write_bytes(payload)
            html = html.replace(f"cid:{cid}", file.name)
    page = folder / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    return page


def problems_of(measures: dict[str, Any], *, needs_now: bool = True) -> tuple[str, ...]:
    """What a player would notice: sideways scrolling, the summary below the first screen, a picture
    that did not load."""
    found = []
    scroll, viewport, screen = (int(str(measures[k])) for k in ("scrollWidth", "viewport", "screen"))
    if scroll > viewport:
        found.append(f"the page is {scroll} px wide in a {viewport} px window")
    bottom = measures.get("nowBottom")
    if bottom is None and needs_now:
        found.append('no block id="courier-now" (result, what to do, deadline)')
    elif bottom is not None and float(str(bottom)) > screen:
        found.append(f"the result/what-to-do/deadline block ends at {bottom} px, below the first screen")
    images = measures.get("images")
    for image in images if isinstance(images, list) else []:
        if not image["naturalWidth"]:
            found.append(f"the picture {image['src']} did not load")
    return tuple(found)


def check_mail(
    browser: Browser, mail: Iterable[SampleMail], folder: Path, *, whole: bool = True
) -> list[Checked]:
    """Every mail at every size in ``SIZES``, screenshots (whole pages, or first screens) in ``folder``."""
    checked = []
    for sample in mail:
        name = f"{sample.game}-{sample.kind}"
        page = write_page(sample.message, folder / "pages", name)
        for width, height in SIZES:
            shown = browser.page(page, width, height, MEASURE, whole=whole)
            screenshot = folder / f"{name}-{width}.png"
            screenshot.write_bytes(shown.png)
            problems = problems_of(shown.measures)
            checked.append(Checked(sample.game, sample.kind, width, shown.measures, screenshot, problems))
    return checked


def render_check(folder: Path, games: Sequence[str] = ()) -> list[Checked]:
    """Play every game's sample mail in ``folder/games``, look at it, keep the screenshots in ``folder``."""
    mail = sample_mail(folder / "games", tuple(games))
    with Browser() as browser:
        return check_mail(browser, mail, folder)


def summary(checked: Sequence[Checked]) -> list[str]:
    """One line per problem, ``game kind width: problem``."""
    return [f"{c.game} {c.kind} {c.width} px: {p}" for c in checked for p in c.problems]
