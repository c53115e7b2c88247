"""`courier tick --dry-run` before a game starts deals exactly as the real tick then does (issue 29: a
Diplomacy game's powers came out swapped and the seed's hash differed, as each drew its own seed).
The deployment names no fixed seed, as an organiser's does not."""

from __future__ import annotations

import io
import re
from datetime import datetime
from pathlib import Path

from courier.config.deployment import load_deployment
from courier.tools.dryrun import dry_run
from tests.conftest import Table, address, text_of
from tests.helpers.clock import at
from tests.helpers.diplomacy import CONFIG

NAMES = ["Anna", "Ed", "Fran", "Gerd", "Ida", "Rus", "Tur"]  # no Role: the powers are dealt


def unseeded(root: Path) -> Table:
    t = Table(root, {**CONFIG}, [{"name": n, "email": address(n)} for n in NAMES])
    toml = t.deployment.path
    toml.write_text(toml.read_text().replace('seed = "test seed"\n', ""), encoding="utf-8")
    t.deployment = load_deployment(toml)
    assert all(g.seed is None for g in t.deployment.games)
    return t


def dealt(text: str) -> tuple[str, str]:
    """The power a welcome names, and the seed's hash it publishes."""
    power = re.search(r"\b(Austria|England|France|Germany|Italy|Russia|Turkey)\b", text)
    digest = re.search(r"\b[0-9a-f]{64}\b", text)
    assert power and digest, text
    return power.group(1), digest.group(0)


def dry_welcomes(t: Table, when: datetime) -> dict[str, tuple[str, str]]:
    out = io.StringIO()
    assert dry_run(t.deployment, now=when, out=out) == []
    mails = out.getvalue().split("--- To: ")[1:]
    return {address_line.split("\n", 1)[0]: dealt(address_line) for address_line in mails}


def test_the_dry_run_deals_as_the_tick(tmp_path: Path) -> None:
    t = unseeded(tmp_path)
    shown = dry_welcomes(t, at(0, 8, 5))
    assert dry_welcomes(t, at(0, 8, 5)) == shown  # twice the same
    t.tick(at(0, 8, 5))
    for name in NAMES:
        welcome = next(m for m in t.sent(name) if m["X-Courier-Kind"] == "welcome")
        assert dealt(text_of(welcome)) == shown[address(name)]
