"""templates/ and config/ ship inside the wheel and work from an installed copy."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("courier_judge-*.whl")
    return built


def test_wheel_carries_templates_and_config(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = sorted((ROOT / "templates").rglob("*.j2"))
    assert templates
    for template in templates:
        assert f"courier/_templates/{template.relative_to(ROOT / 'templates')}" in names
    assert "courier/_config/courier.example.toml" in names
    assert any(n.startswith("engine/truce/") for n in names)


def test_installed_copy_runs_init_and_a_tick(wheel: Path, tmp_path: Path) -> None:
    """Unpacked wheel first on the path, run from elsewhere: no file of the checkout is used."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import courier, courier.mail.render as r; "
        "assert courier.__file__.startswith(sys.argv[1]), courier.__file__; "
        "assert str(r.templates_root()).startswith(sys.argv[1]), r.templates_root(); "
        "from courier.tools.cli import main; "
        "config = sys.argv[2] + '/courier.toml'; "
        "sys.exit(main(['init', '--dir', sys.argv[2]]) or "
        "main(['tick', '--config', config, '--now', '2026-12-01T09:00:00+00:00']))"
    )
    game = tmp_path / "game"
    done = subprocess.run(
        [sys.executable, "-c", code, str(site), str(game)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sent = list((game / "mail" / "sent").glob("*/*.eml"))
    assert len(sent) == 3  # the starter's three example players were welcomed
