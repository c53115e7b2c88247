"""Who a round waits for (issue 29): a player is awaited while no valid orders of theirs stand. A mail
with nothing usable in it (a typo, only a Truce gift) is no orders: its writer is still reminded,
early resolution still waits, `courier status` still lists them. Seats nobody waits for (kicked,
resigned, played by the bot, away) are not listed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from courier.tools.cli import main
from tests.conftest import BASE_CONFIG, Table, address
from tests.helpers.clock import at


def status_line(t: Table, capsys: pytest.CaptureFixture[str], *, now: str) -> str:
    capsys.readouterr()
    assert main(["status", "--config", str(t.deployment.path), "--now", now]) == 0
    return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("truce-1"))


def reminded(t: Table, name: str) -> bool:
    return any(m["X-Courier-Kind"] == "reminder" for m in t.sent(name))


def test_a_typo_or_a_gift_alone_is_no_orders_for_the_reminder(make_table: Callable[..., Table]) -> None:
    t = make_table()
    t.tick(at(0, 8, 5))
    t.order("Agatha", "loot")
    t.order("Barney", "atack Celeste")  # not understood
    t.order("Celeste", "gift 1 to Darcy")  # took effect on receipt; no action stands
    t.tick(at(0, 9))
    t.tick(at(0, 19, 5))  # the 1 h reminder before 20:00
    assert not reminded(t, "Agatha")
    assert reminded(t, "Barney") and reminded(t, "Celeste") and reminded(t, "Darcy")


def test_early_resolution_waits_for_valid_orders_from_everyone(make_table: Callable[..., Table]) -> None:
    t = make_table({"early_resolution": "yes"})
    t.tick(at(0, 8, 5))
    for name in ("Agatha", "Barney", "Celeste"):
        t.order(name, "defend")
    t.order("Darcy", "Hi all, see you at the table!")  # nothing readable
    t.tick(at(0, 9))
    t.tick(at(0, 10))  # well past the settle time
    journal = t.journal()
    try:
        assert journal.rounds("truce-1") == []  # still waiting for Darcy's orders
    finally:
        journal.close()
    t.order("Darcy", "defend")
    t.tick(at(0, 10, 5))
    t.tick(at(0, 10, 20))
    journal = t.journal()
    try:
        assert [r["phase_key"] for r in journal.rounds("truce-1")] == ["round-1"]
    finally:
        journal.close()


def test_status_lists_only_those_the_round_waits_for(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["Agatha", "Barney", "Celeste", "Darcy", "Emmett", "Fiona"]
    rows = [{"name": n, "email": "bot" if n == "Fiona" else address(n), "secret": ""} for n in names]
    t = Table(tmp_path_factory.mktemp("status"), dict(BASE_CONFIG), rows)
    t.tick(at(0, 8, 5))
    assert (
        main(
            [
                "kick",
                "truce-1",
                "Agatha",
                "--config",
                str(t.deployment.path),
                "--now",
                at(0, 8, 10).isoformat(),
            ]
        )
        == 0
    )
    t.order("Barney", "away until 2026-12-05")
    t.order("Celeste", "atack Darcy")  # not understood: still awaited
    t.order("Darcy", "defend")
    t.tick(at(0, 9))
    line = status_line(t, capsys, now=at(0, 9, 5).isoformat())
    assert line.split("  ")[-1].strip() == "Celeste, Emmett"
