"""The 61-hex board: labels, neighbours, distance, home bases and the starting map
(``/work/shared/monarchs-board.md``: letters A..Q, rows 1..9, centre I5)."""

from __future__ import annotations

from functools import cache

NATIONS = ("red", "green", "blue")
LETTER = {"r": "red", "g": "green", "b": "blue"}
HOMES = {"red": "A5", "green": "M9", "blue": "M1"}
CENTRE = "I5"
LETTERS = "ABCDEFGHIJKLMNOPQ"

# The starting map, row 9 first, exactly as the board facts print it: owner letter + regiments.
_START = """
E9:r2 G9:g2 I9:g K9:g M9:g5
D8:r F8:r2 H8:g2 J8:g L8:g N8:g
C7:r E7:r G7:r2 I7:g2 K7:g M7:g O7:g
B6:r D6:r F6:r H6:r3 J6:g3 L6:g N6:g P6:g
A5:r5 C5:r E5:r G5:r3 I5:- K5:g3 M5:g2 O5:g2 Q5:g2
B4:r D4:r F4:r2 H4:b3 J4:b3 L4:b2 N4:b2 P4:b2
C3:r E3:r2 G3:b2 I3:b K3:b M3:b O3:b
D2:r2 F2:b2 H2:b J2:b L2:b N2:b
E1:b2 G1:b I1:b K1:b M1:b5
"""


def _is_hex(letter: int, row: int) -> bool:
    return 1 <= row <= 9 and (letter + row) % 2 == 1 and abs(letter - 8) <= 8 - abs(row - 5)


def coordinates(name: str) -> tuple[int, int]:
    """``E3`` → (4, 3): letter index (A = 0) and row."""
    return LETTERS.index(name[0]), int(name[1:])


def label(letter: int, row: int) -> str:
    return f"{LETTERS[letter]}{row}"


HEXES: tuple[str, ...] = tuple(
    label(letter, row) for row in range(9, 0, -1) for letter in range(17) if _is_hex(letter, row)
)
_HEX_SET = frozenset(HEXES)


def is_hex(name: str) -> bool:
    return name in _HEX_SET


@cache
def neighbours(name: str) -> tuple[str, ...]:
    letter, row = coordinates(name)
    steps = ((-2, 0), (2, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))
    return tuple(
        label(letter + dl, row + dr)
        for dl, dr in steps
        if 0 <= letter + dl < 17 and _is_hex(letter + dl, row + dr)
    )


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a)


def distance(a: str, b: str) -> int:
    (la, ra), (lb, rb) = coordinates(a), coordinates(b)
    dx, dy = abs(la - lb), abs(ra - rb)
    return dy + max(0, (dx - dy) // 2)


def home_of(hex_name: str) -> str | None:
    """The nation whose home base ``hex_name`` is, if any."""
    return next((n for n, home in HOMES.items() if home == hex_name), None)


def starting_map() -> tuple[dict[str, str | None], dict[str, tuple[str, int]]]:
    """Owners of all 61 hexes (``None`` for the centre) and the regiments on them."""
    owners: dict[str, str | None] = {}
    armies: dict[str, tuple[str, int]] = {}
    for cell in _START.split():
        name, code = cell.split(":")
        if code == "-":
            owners[name] = None
            continue
        owners[name] = LETTER[code[0]]
        if code[1:]:  # a bare owner letter is an owned hex with no regiments on it
            armies[name] = (LETTER[code[0]], int(code[1:]))
    return owners, armies


def near_names(word: str) -> list[str]:
    """Real hexes whose names are one step from ``word``: the same letter a row up or down
    (``F5`` → F4, F6), else the same row a letter either side."""
    text = word.strip().upper()
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit():
        return []
    letter, row = LETTERS.index(text[0]), int(text[1:])
    for candidates in ([(letter, row - 1), (letter, row + 1)], [(letter - 1, row), (letter + 1, row)]):
        near = [label(lt, rw) for lt, rw in candidates if 0 <= lt < 17 and _is_hex(lt, rw)]
        if near:
            return near
    return []
