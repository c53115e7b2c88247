"""Where the Star Trek map draws each system: Courier's own drawn positions, not the variant's
coordinates. Drawn at the variant's x and z, lanes ran straight through systems they do not
connect (rigel–khitomer through starbase375, benzar–breen_gateway through freecloud and clarus), and
players ordered moves along lanes that do not exist. These positions keep the variant's geography
roughly (Federation top left, Klingons top right, Breen bottom left, Gorn bottom right) and were
chosen so that no lane passes within a disc of a system it does not join, and no name runs into
another or into a system; tests/engine/startrek/test_pictures.py holds both.

The core is one portrait picture 600 wide (a phone's shape); the two hyperspace layers share a
second. Each position is (x, y, where the name goes: below, above, left or right of the disc)."""

from __future__ import annotations

# The core, 49 systems; y runs 75..1010 in its picture.
CORE: dict[str, tuple[float, float, str]] = {
    "tygokor": (370, 75, "below"),
    "archanis": (140, 90, "above"),
    "boreth": (450, 100, "above"),
    "andoria": (215, 125, "above"),
    "tellar": (85, 155, "below"),
    "qonos": (460, 175, "below"),
    "khitomer": (275, 195, "below"),
    "narendra": (340, 215, "below"),
    "earth": (110, 255, "below"),
    "rigel": (185, 260, "below"),
    "organia": (405, 260, "below"),
    "benzar": (255, 285, "below"),
    "nimbus": (425, 335, "left"),
    "starbase375": (220, 345, "below"),
    "vulcan": (40, 375, "below"),
    "galorndon": (350, 405, "above"),
    "remus": (555, 405, "below"),
    "betazed": (115, 415, "above"),
    "romulus": (455, 435, "below"),
    "ds9": (295, 470, "below"),
    "risa": (55, 490, "below"),
    "bajor": (205, 490, "above"),
    "abraxas": (490, 500, "right"),
    "ferenginar": (135, 515, "below"),
    "rator": (390, 515, "below"),
    "cardassia": (310, 560, "below"),
    "trill": (85, 570, "below"),
    "cestus": (510, 585, "below"),
    "chintoka": (220, 630, "above"),
    "ssgaron": (560, 640, "below"),
    "kelvas": (430, 650, "below"),
    "clarus": (140, 670, "below"),
    "freecloud": (220, 705, "below"),
    "volchok": (55, 710, "below"),
    "rakal": (285, 710, "above"),
    "gornar": (565, 725, "below"),
    "seudath": (460, 740, "below"),
    "gamma_outpost": (320, 795, "above"),
    "septimus": (410, 810, "below"),
    "frozen_passage": (165, 835, "left"),
    "breen": (105, 865, "below"),
    "portas": (45, 875, "below"),
    "gorn_colony": (500, 875, "below"),
    "breen_gateway": (260, 885, "below"),
    "gorn_fortress": (420, 930, "below"),
    "breen_fortress": (30, 935, "right"),
    "dozaria": (240, 955, "below"),
    "breen_core": (175, 980, "below"),
    "breen_citadel": (75, 1010, "above"),
}

# Upper hyperspace (on top of the second picture) and lower hyperspace (under it); y within each band.
UPPER: dict[str, tuple[float, float]] = {
    "hyperspace_alpha": (90, 40),
    "hyperspace_beta": (300, 40),
    "hyperspace_gamma": (510, 40),
    "transwarp_north": (200, 95),
    "transwarp_south": (400, 95),
    "hyperspace_delta": (300, 215),
    "wormhole_terminus_a": (150, 270),
    "wormhole_terminus_b": (450, 270),
    "quantum_corridor": (300, 330),
    "void_passage": (510, 330),
}
LOWER: dict[str, tuple[float, float]] = {
    "underspace_alpha": (90, 40),
    "underspace_beta": (300, 40),
    "underspace_gamma": (510, 40),
    "mycelial_north": (160, 125),
    "mycelial_south": (440, 125),
    "underspace_delta": (300, 165),
    "quantum_realm": (300, 250),
    "mirror_passage": (300, 320),
}
