"""Who wrote a mail and whether the receiving server's verdict lets it count (known answers in
tests/data/authorship/cases.yaml); the same cases through the tick are in test_hostile_mail.py."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from courier.mail.authorship import auth_refusal, author_of, receiving_results
from tests.helpers.paths import DATA

CASES = yaml.safe_load((DATA / "authorship" / "cases.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["authors"], ids=lambda c: " | ".join(c["from"]))
def test_the_author_is_the_addr_spec(case: dict[str, Any]) -> None:
    author = author_of(case["from"])
    assert author.address == case["author"]
    assert (author.problem is not None) == case["problem"]


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
@pytest.mark.parametrize("case", CASES["verdicts"], ids=lambda c: " | ".join(c["results"]) or "none")
def test_verdicts(case: dict[str, Any], strict: bool) -> None:
    refusal = auth_refusal(
        case["results"], sender="agatha@players.test", trusted=["mx.courier.test"], require_pass=strict
    )
    assert (refusal is not None) == case["strict" if strict else "default"], refusal


@pytest.mark.parametrize("case", CASES["receiving"], ids=lambda c: " / ".join(h[0] for h in c["headers"]))
def test_only_the_receiving_servers_verdicts_count(case: dict[str, Any]) -> None:
    """Each verdict believed starts with what `counts` lists (its authserv-id, or more of its text)."""
    believed = receiving_results([(name, value) for name, value in case["headers"]])
    assert len(believed) == len(case["counts"]), believed
    assert all(value.startswith(start) for value, start in zip(believed, case["counts"], strict=True)), (
        believed
    )
