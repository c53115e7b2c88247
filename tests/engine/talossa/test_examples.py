"""Talossan RISK's "did you mean" (issue 29): an action that could not be read is answered with one
built from the writer's own line and lands, never the rule-book's example naming another's land."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import last_text, write
from tests.helpers.clock import at
from tests.helpers.talossa import table

# Cy holds Farwell, Di Ankara Street; the rule-book's example is Al's Abbavilla and Bea's Downer.
CASES = {
    "Cy": ("Attack Downer with 2", "Q: Farwell >> Downer, 2"),
    "Di": ("conquer to the north, 3 units", "Q: Ankara Street >> (north), 3"),
}


def test_did_you_mean_is_built_from_the_players_line_and_own_lands(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    for player, (line, _) in CASES.items():
        write(t, player, line)
    t.tick(at(0, 9))
    for player, (line, meant) in CASES.items():
        refused = last_text(t, player).split("Not understood")[1].split("\n\n")[0]
        assert line in refused and f"Did you mean “{meant}”?" in refused
        assert "Abbavilla" not in refused


def test_the_order_forms_examples_name_only_the_players_own_lands_and_neighbours(tmp_path: Path) -> None:
    """The form's examples were fixed (`R: Abbavilla, 3 · Q: Abbavilla >> Downer`), naming Al's and
    Bea's lands in every player's mail (issue 29 QA)."""
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    form = last_text(t, "Cy").split("# Action Plan for Cyland")[1]
    examples = "\n".join(line for line in form.splitlines() if "R: " in line or "S: +" in line)
    assert "R: Farwell, 3" in examples and "Q: Farwell >> " in examples and "S: +Farwell" in examples
    assert "Abbavilla" not in form and "Downer" not in form and "Ankara Street" not in form
    di = last_text(t, "Di").split("# Action Plan for Dilonia")[1]
    assert "R: Ankara Street, 3" in di and "Farwell" not in di and "Abbavilla" not in di
