"""The Game of Monarchs (board mode) as its players met it by mail (issue 29): the welcome's
starting map, a boost sent after the moves, a chatty boost line, and a hex lost in a battle
between the two other nations."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import address, last_text, text_of, write
from tests.helpers.clock import at
from tests.helpers.monarchs import table


def test_the_welcome_carries_the_nations_starting_map(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    welcome = t.sent(address("Rhea"))[-1]
    assert "The start, Red: see the picture in this mail (map-start-red.svg attached)." in text_of(welcome)
    attached = [part.get_filename() for part in welcome.iter_attachments()]
    assert "map-start-red.svg" in attached


def test_a_mail_with_only_a_boost_keeps_the_moves_sent_before(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Rhea", "3 H6 I5")
    t.tick(at(0, 9))
    write(t, "Rhea", "Sorry, forgot the boost!\n\nboost I5\n\nRhea")
    t.tick(at(0, 10))
    receipt = last_text(t, "Rhea")
    standing = receipt[receipt.index("Your orders that now stand") :]
    assert "3 H6 I5" in standing and "boost I5" in standing
    assert "This mail has only a boost, so it joins your moves from before (3 H6 I5)" in receipt
    t.tick(at(0, 20, 5))
    assert "Red: " in last_text(t, "Rhea") and "I5 (3)" in last_text(t, "Rhea")  # Red holds the centre with 3

    write(t, "Rhea", "2 G5 I5")
    t.tick(at(1, 9))
    write(t, "Rhea", "hold\nboost I5")  # the way to drop the moves and keep a boost
    t.tick(at(1, 10))
    receipt = last_text(t, "Rhea")
    standing = receipt[receipt.index("Your orders that now stand") :]
    assert "2 G5 I5" not in standing and "hold" in standing and "boost I5" in standing


def test_a_boost_without_a_hex_is_offered_one_of_the_players_own(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Rhea", "Sorry forgot the boost!")
    write(t, "Bea", "Sorry forgot the boost!")
    t.tick(at(0, 9))
    red, blue = last_text(t, "Rhea"), last_text(t, "Bea")
    assert "“Sorry forgot the boost!”: a boost names one hex. Did you mean “boost H6”?" in red
    assert "“Sorry forgot the boost!”: a boost names one hex. Did you mean “boost H4”?" in blue
    assert "boost G9" not in red + blue  # Green's hex, the fixed example it used to offer
    assert "One boost a turn: “boost H6”" in red and "One boost a turn: “boost H4”" in blue


def test_a_hex_lost_in_a_battle_between_the_other_two_is_reported(tmp_path: Path) -> None:
    t = table(tmp_path, {"turns": "3"})
    t.tick(at(0, 8, 5))
    write(t, "Gus", "3 K5 I5")
    t.tick(at(0, 20, 5))
    write(t, "Rhea", "3 G5 E5")  # Red leaves G5 empty; Green and Blue both walk in
    write(t, "Gus", "3 I5 G5")
    write(t, "Bea", "3 H4 G5")
    t.tick(at(1, 20, 5))
    red, green = last_text(t, "Rhea"), last_text(t, "Gus")
    assert "Battle on G5: Green 3" in green and "Battle on G5" not in red  # the strengths are theirs
    lost = next(line for line in red.splitlines() if "lost G5" in line)
    assert "Red lost G5: Green and Blue fought a battle there and" in lost
    assert "Red lost G5" not in green


def test_the_turns_map_in_the_mail_shows_the_players_move_and_boost(tmp_path: Path) -> None:
    """Issue 30: the SVG attached to the turn's report draws Red's own move and boost."""
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Rhea", "3 H6 I5\nboost I5")
    t.tick(at(0, 20, 5))
    report = t.sent(address("Rhea"))[-1]
    [svg] = [p.get_content() for p in report.iter_attachments() if p.get_filename() == "map-turn-1-red.svg"]
    svg = svg.decode() if isinstance(svg, bytes) else svg
    assert 'class="move" data-nation="red" data-move="H6-I5" data-regiments="3"' in svg
    assert 'class="boost" data-nation="red" data-hex="I5"' in svg


def test_the_top_line_counts_hexes_won_and_lost_in_battle(tmp_path: Path) -> None:
    """Issue 30's top line: a hex taken in a battle is taken, one lost in a battle is lost (it said
    "0 hexes taken, 0 lost" whenever a battle decided it). The seed is fixed: Red wins both."""
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Rhea", "3 H6 I5")  # Red and Green meet on the free centre
    write(t, "Gus", "3 J6 I5")
    t.tick(at(0, 20, 5))
    red, green = last_text(t, "Rhea"), last_text(t, "Gus")
    assert "Battle on I5: Red 3 (strength 3.99), Green 3 (strength 3.53) — Red won" in red
    assert red.splitlines()[2] == "Red scored 23 this turn (total 23): 1 hex taken, 0 lost"
    assert green.splitlines()[2].endswith(": 0 hexes taken, 0 lost")  # the centre was nobody's

    write(t, "Rhea", "3 G5 H4")  # Red attacks Blue's H4, held by 3
    t.tick(at(1, 20, 5))
    red, blue = last_text(t, "Rhea"), last_text(t, "Bea")
    assert "Battle on H4: Blue 3 (strength 3.65), Red 3 (strength 3.71) — Red won" in red
    assert red.splitlines()[2] == "Red scored 48 this turn (total 71): 1 hex taken, 0 lost"
    assert blue.splitlines()[2] == "Blue scored 34 this turn (total 54): 0 hexes taken, 1 lost"


def test_a_mistyped_hex_is_never_offered_as_a_move_onto_itself(tmp_path: Path) -> None:
    """“2 I6 I5” was answered “Did you mean “2 I5 I5”?”: a move from the centre onto itself. A hex
    offered for the mistyped name neighbours the other one, or nothing is offered."""
    t = table(tmp_path)
    t.tick(at(0, 8, 5))
    write(t, "Gus", "Hello\n2 I6 I5\n2 E3 F5\nGus")
    t.tick(at(0, 9))
    receipt = last_text(t, "Gus")
    said = next(line for line in receipt.splitlines() if "“2 I6 I5”" in line)
    assert said.strip() == "“2 I6 I5”: I6 is not a hex — the hexes nearest that name are I5 and I7."
    assert "Did you mean “2 E3 F4”?" in receipt  # a neighbour of the other hex is still offered
