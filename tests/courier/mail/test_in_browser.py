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
from courier.tools.cli import main
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


def test_courier_render_check_keeps_the_screenshots_for_a_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`courier render-check GAME --out DIR`: every kind of that game's mail at both widths, as
    whole pages in DIR, one line per problem (none here) and the count."""
    if find_chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")
    out = tmp_path / "shots"
    assert main(["render-check", "truce", "--out", str(out)]) == 0
    assert (
        capsys.readouterr().out
        == f"{len(KINDS) * len(SIZES)} pages looked at, 0 problem(s); screenshots in {out}/\n"
    )
    shots = {p.name for p in out.glob("*.png")}
    assert shots == {f"truce-{kind}-{width}.png" for kind in KINDS for width, _ in SIZES}


def test_courier_render_check_of_an_unknown_game_says_which_are_known(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["render-check", "chess"]) == 2
    assert "unknown game 'chess'; known games: diplomacy" in capsys.readouterr().err
