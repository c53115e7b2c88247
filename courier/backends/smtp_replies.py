"""Which SMTP replies mean "this account may not send now" (a daily limit, a throttle) rather than
"this mail is wrong", read from ``config/smtp_replies.toml``: the providers' replies are data, one
entry each, so a new one is a line there and a test case at once."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import Any

from courier.data import shipped_dir

__all__ = ["ReplyRule", "limit_rule", "reply_rules"]

_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


@dataclass(frozen=True)
class ReplyRule:
    """One entry of the file: a reply code (or class, "4xx") and a pattern, and what it means."""

    provider: str
    code: str
    match: re.Pattern[str]
    means: str  # "limit" (the account's quota for the day) or "throttle" (too fast now)
    wait: timedelta  # how long sending holds after it
    example: str
    at: str  # "data" or "login": where in the dialogue the provider sends it

    def fits(self, code: int, text: str) -> bool:
        same = self.code == str(code) or (self.code.endswith("xx") and self.code[0] == str(code)[0])
        return same and bool(self.match.search(text))


def _wait(text: str, where: str) -> timedelta:
    found = re.fullmatch(r"(\d+)\s*([mhd])", text.strip())
    if not found:
        raise ValueError(f"{where}: wait = {text!r} is not like '10m', '1h' or '24h'")
    return timedelta(**{_UNITS[found[2]]: int(found[1])})


def _rule(entry: dict[str, Any], number: int) -> ReplyRule:
    where = f"config/smtp_replies.toml, reply {number}"
    if entry.get("means") not in ("limit", "throttle"):
        raise ValueError(f"{where}: means must be 'limit' or 'throttle', not {entry.get('means')!r}")
    return ReplyRule(
        provider=str(entry["provider"]),
        code=str(entry["code"]),
        match=re.compile(str(entry.get("match", "")), re.IGNORECASE),
        means=str(entry["means"]),
        wait=_wait(str(entry["wait"]), where),
        example=str(entry["example"]),
        at=str(entry.get("at", "data")),
    )


@cache
def reply_rules() -> tuple[ReplyRule, ...]:
    """Every entry, in the file's order (the first that fits wins). A broken file is a bug of the
    release, not of a deployment: it raises, and the tests read it."""
    with (shipped_dir("config") / "smtp_replies.toml").open("rb") as file:
        entries = tomllib.load(file)["reply"]
    return tuple(_rule(entry, n) for n, entry in enumerate(entries, 1))


def limit_rule(code: int, text: str) -> ReplyRule | None:
    """The entry a reply fits (its text on one line, enhanced status code included), if any."""
    return next((rule for rule in reply_rules() if rule.fits(code, text)), None)
