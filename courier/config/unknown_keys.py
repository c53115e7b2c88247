"""Settings nobody reads: a misspelt key in ``courier.toml`` or a game's Config tab is pointed out
with a "did you mean", never silently ignored. The deployment's keys are those of
courier/config/schema.py."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from difflib import get_close_matches
from typing import Any

from courier.config.schema import TABLES
from engine.core import ConfigDefaults, KnownOptions, Ruleset

DEPLOYMENT_KEYS: Mapping[str, frozenset[str]] = {table.name: frozenset(table.settings) for table in TABLES}


def unknown_deployment_keys(data: Mapping[str, Any]) -> list[str]:
    """One line per key of ``courier.toml`` that no part of Courier reads."""
    problems = _unknown(data, DEPLOYMENT_KEYS[""], "")
    for table, known in DEPLOYMENT_KEYS.items():
        value = data.get(table) if table else None
        for entry in value if isinstance(value, list) else [value] if isinstance(value, dict) else []:
            if isinstance(entry, dict):
                problems += _unknown(entry, known, f"[{table}] ")
    return problems


def unknown_config_keys(
    config: Mapping[str, str], ruleset: Ruleset, shell_keys: Collection[str]
) -> list[str]:
    """One line per key of a game's Config tab that neither the shell nor the game reads. A game that
    does not list its keys (no ``option_keys``) is not checked."""
    if not isinstance(ruleset, KnownOptions):
        return []
    known = set(shell_keys) | set(ruleset.option_keys)
    if isinstance(ruleset, ConfigDefaults):
        known |= set(ruleset.default_config)
    return [f"Config `{k}`{_did_you_mean(k, known)}" for k in config if not _known_config_key(k, known)]


SHOWN_KEYS = 50  # unknown keys listed in the one folded warning


def folded(lines: list[str]) -> list[str]:
    """Many unknown keys make one warning (one mail to the organiser), not one each: a sheet pasted
    with 5,000 stray keys must not send 5,000 mails. The first ``SHOWN_KEYS`` are listed."""
    if len(lines) < 2:
        return lines
    more = len(lines) - SHOWN_KEYS
    listed = "; ".join(lines[:SHOWN_KEYS]) + (
        f"; …and {more} more keys that are not settings" if more > 0 else ""
    )
    return [f"{len(lines)} keys are not settings: {listed}"]


def _known_config_key(key: str, known: Collection[str]) -> bool:
    """``retreat_duration`` is a phase's clock; ``deck_file`` names the data file of option ``deck``."""
    return (
        key in known
        or key.endswith("_duration")
        or (key.endswith("_file") and key.removesuffix("_file") in known)
    )


def _unknown(table: Mapping[str, Any], known: Collection[str], where: str) -> list[str]:
    return [f"{where}`{key}`{_did_you_mean(key, known)}" for key in table if key not in known]


def _did_you_mean(key: str, known: Iterable[str]) -> str:
    close = get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    return f" is not a setting; did you mean `{close[0]}`?" if close else " is not a setting; it is ignored."
