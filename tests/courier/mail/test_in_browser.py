"""Every kind of mail of every game, as the tick makes it, opened in headless Chromium (issue 30):
at 400 px (a phone) and 1200 px no sideways scrolling, the result/what-to-do/deadline block on the
first screen, every picture loaded. And no mail heavier than 400 KB with its pictures.

The screenshots stay in tests/courier/mail/screenshots (ignored by git) for a person to look at;
`courier render-check` makes the same for any checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from courier.mail.compose import KINDS, mail_bytes
from courier.tools.browser import Browser, find_chromium
from courier.tools.render_check import SIZES, check_mail, summary
from courier.tools.sample_mail import SampleMail, sample_mail
from engine import RULESETS

SCREENSHOTS = Path(__file__).parent / "screenshots"
LIMIT = 400 * 1024  # bytes a mail may weigh with its pictures


@pytest.fixture(scope="module")
def mail(tmp_path_factory: pytest.TempPathFactory) -> list[SampleMail]:
    return sample_mail(tmp_path_factory.mktemp("games"))


def test_every_kind_of_every_game_is_looked_at(mail: list[SampleMail]) -> None:
    assert {(m.game, m.kind) for m in mail} == {(g, k) for g in RULESETS for k in KINDS}


def test_no_mail_is_heavier_than_400_kb(mail: list[SampleMail]) -> None:
    sizes = {f"{m.game} {m.kind}": len(mail_bytes(m.message)) for m in mail}
    assert {k: v for k, v in sizes.items() if v > LIMIT} == {}
    assert max(sizes.values()) > 20_000  # the maps are in: a report with a picture weighs more


def test_every_mail_fits_a_phone_and_a_desktop(mail: list[SampleMail]) -> None:
    if find_chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")
    SCREENSHOTS.mkdir(exist_ok=True)
    with Browser() as browser:
        checked = check_mail(browser, mail, SCREENSHOTS, whole=False)  # first screens: quicker
    assert len(checked) == len(mail) * len(SIZES)
    assert summary(checked) == []
    pictures = [i for c in checked for i in c.measures["images"]]
    assert pictures and all(p["shownWidth"] <= 1200 for p in pictures)
