"""The Jinja environment for mail templates, and event lines.

Templates ship inside the wheel as the package ``courier._templates``; an organiser may put files
with the same relative names in an override directory, searched first. Organiser templates are
untrusted, so the whole environment is sandboxed; HTML templates are autoescaped.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import css_inline
import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from courier.data import shipped_dir
from courier.errors import CourierError

__all__ = [
    "RenderError",
    "format_columns",
    "inline_styles",
    "make_environment",
    "render_event",
    "render_template",
    "templates_root",
]

log = logging.getLogger(__name__)


class RenderError(CourierError):
    """A template failed to render: an operator's problem (usually an organiser's override)."""


def templates_root() -> Path:
    """The packaged templates, or the repository's ``templates/`` when Courier is not installed."""
    return shipped_dir("templates")


def _autoescape(name: str | None) -> bool:
    return name is not None and name.endswith(".html.j2")


def make_environment(override_dir: Path | None = None) -> jinja2.Environment:
    """A sandboxed environment that finds ``override_dir/<name>`` before the packaged template."""
    search = [override_dir] if override_dir is not None else []
    loader = jinja2.FileSystemLoader([*search, templates_root()])
    env = SandboxedEnvironment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=_autoescape,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["columns"] = format_columns
    env.filters["inline_code"] = inline_code
    return env


_INLINE_CODE = re.compile(r"`([^`\n]+)`")


def inline_code(text: str) -> Markup:
    """A line for HTML with its `backticked` words as <code> (the text part keeps the backticks):
    escaped first, so a player's words can never become markup."""
    return Markup(_INLINE_CODE.sub(r"<code>\1</code>", str(escape(text))))


def render_template(env: jinja2.Environment, name: str, variables: dict[str, Any]) -> str:
    """Render one template; any failure becomes a ``RenderError`` naming the template."""
    try:
        return env.get_template(name).render(variables)
    except jinja2.TemplateError as e:
        raise RenderError(f"template {name}: {type(e).__name__}: {e}") from e


# The <style> rules copied into each element's style attribute, for mail programs that drop <style>
# (Gmail's apps in some accounts, Outlook); @media rules (dark mode, wide screens) stay in <style>.
# Nothing is fetched: an organiser's template may not make Courier load a stylesheet.
_INLINER = css_inline.CSSInliner(keep_at_rules=True, keep_link_tags=False, load_remote_stylesheets=False)


def inline_styles(html: str) -> str:
    """``html`` with its stylesheet inlined; a failure is a ``RenderError`` (an organiser's CSS)."""
    try:
        return _INLINER.inline(html)
    except ValueError as e:
        raise RenderError(f"the mail's styles cannot be inlined: {e}") from e


def render_event(env: jinja2.Environment, game: str, event: object) -> str:
    """One line for an event, from ``<game>/events/<EventName>.txt.j2`` with the event as ``e``.

    Without such a template the line is built from the event's fields, so a new event never stops
    a report from going out.
    """
    name = f"{game}/events/{type(event).__name__}.txt.j2"
    try:
        env.get_template(name)
    except jinja2.TemplateNotFound:
        log.debug("no template %s; using the field list", name)
        return fallback_event_line(event)
    return " ".join(render_template(env, name, {"e": event}).split())


def fallback_event_line(event: object) -> str:
    """``AttackSucceeded: attacker=Barney, target=Agatha, coins=1`` (the audience is left out)."""
    title = type(event).__name__
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        return title
    fields = [
        f"{f.name}={_plain_value(getattr(event, f.name))}"
        for f in dataclasses.fields(event)
        if f.name != "audience"
    ]
    return f"{title}: {', '.join(fields)}" if fields else title


def _plain_value(value: object) -> str:
    if isinstance(value, (set, frozenset)):
        return "[" + ", ".join(sorted(_plain_value(v) for v in value)) + "]"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_plain_value(v) for v in value) + "]"
    return str(value)


def format_columns(rows: Sequence[Sequence[object]], headers: Sequence[object] = ()) -> str:
    """Rows as left-aligned monospace columns, with a rule under the headers when there are any."""
    table = [[str(cell) for cell in row] for row in ([headers] if headers else []) + list(rows)]
    if not table:
        return ""
    widths = [max(len(row[i]) for row in table if i < len(row)) for i in range(max(map(len, table)))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in table]
    if headers:
        lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
