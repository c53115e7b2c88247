"""The standings chart (Truce, Veneer) at a phone's width: players level with each other both show
(issue 30: tied lines printed over each other), each line with its own point marker, and the key
says who is tied."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine.chart import DODGE, WIDTH, standings_chart

SVG = "{http://www.w3.org/2000/svg}"


def test_tied_lines_are_drawn_apart_with_different_markers_and_named_tied() -> None:
    root = ET.fromstring(
        standings_chart("coins", {"Ann": [3, 4], "Bob": [3, 4], "Cy": [3, 6]}, x_label="turn")
    )
    lines = {p.get("data-player"): p.get("points", "").split() for p in root.iter(f"{SVG}polyline")}
    ys = {name: [float(pt.split(",")[1]) for pt in points] for name, points in lines.items()}
    assert [b - a for a, b in zip(ys["Ann"], ys["Bob"], strict=True)] == [DODGE, DODGE]  # side by side
    shapes = {e.get("data-player"): e.get("data-shape") for e in root.iter() if e.get("class") == "marker"}
    assert len(set(shapes.values())) == 3  # tied points still differ in shape
    key = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert key == ["Ann 4 (tied)", "Bob 4 (tied)", "Cy 6"]
    assert root.get("width") == str(WIDTH) == "600"


def test_a_long_name_is_shown_whole_in_the_key() -> None:
    name = "Maximilian Bartholomew-Featherstonehaugh"
    root = ET.fromstring(standings_chart("coins", {name: [3, 4], "Bob": [3, 5]}, x_label="turn"))
    key = [t for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert key[0].text == f"{name} 4"
