"""Small helpers the games share to draw their maps as SVG text (pure: strings in, strings out)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def svg_text(
    x: float,
    y: float,
    content: str,
    *,
    size: int,
    ink: str,
    bold: bool = False,
    anchor: str = "middle",
    klass: str,
) -> str:
    """One escaped ``<text>`` element; ``klass`` lets tests find what was drawn where."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text class={quoteattr(klass)} x="{x:.1f}" y="{y:.1f}" font-size="{size}"{weight} '
        f'fill="{ink}" text-anchor="{anchor}">{escape(content)}</text>'
    )
