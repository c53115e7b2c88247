"""Issue 29 QA: `courier render-check` printed `WARNING … Config deadlnes is not a setting` lines:
the sample deployment misspells the key on purpose (its organiser's error mail), and the person
running the check should not be warned about a sample."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from courier.tools.browser import find_chromium
from courier.tools.cli import main
from courier.tools.sample_mail import sample_mail
from tests.conftest import text_of


def test_the_samples_misspelt_key_reaches_its_organisers_mail_not_stderr(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        found = sample_mail(tmp_path, ("truce",))
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    told = [m.message for m in found if m.kind == "organiser"]
    assert told and "deadlnes" in text_of(told[0])


def test_courier_render_check_prints_only_its_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    if find_chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")
    with caplog.at_level(logging.WARNING):
        assert main(["render-check", "truce", "--out", str(tmp_path / "shots")]) == 0
    assert "is not a setting" not in caplog.text + capsys.readouterr().err
