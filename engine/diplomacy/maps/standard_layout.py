"""Where each province of the standard map is drawn: a schematic of our own (no artwork copied),
one point per province on a 1000 × 800 canvas placed by the map's geography, plus a point per
coast of a split-coast province. Facts only; the drawing is ``engine.diplomacy._svg``."""

WIDTH, HEIGHT = 1000, 800

CENTRES: dict[str, tuple[float, float]] = {
    # the north and the British Isles
    "nao": (105, 170), "nwg": (385, 85), "bar": (650, 40), "iri": (140, 345), "cly": (235, 205),
    "edi": (290, 215), "lvp": (245, 262), "yor": (295, 280), "wal": (230, 315), "lon": (290, 330),
    "eng": (235, 385), "nth": (365, 250),
    # Scandinavia and the Baltic
    "nwy": (460, 150), "swe": (535, 205), "fin": (615, 135), "stp": (730, 150), "ska": (455, 232),
    "den": (460, 280), "bal": (545, 285), "bot": (595, 215), "hel": (400, 300),
    # the Low Countries, Germany, Russia
    "hol": (405, 345), "bel": (365, 380), "kie": (455, 335), "ber": (510, 325), "pru": (580, 320),
    "lvn": (665, 265), "mos": (775, 265), "war": (625, 385), "sil": (545, 375), "ruh": (410, 395),
    "mun": (460, 430), "ukr": (730, 375), "sev": (840, 380),
    # France and Iberia
    "pic": (315, 385), "bre": (250, 430), "par": (310, 455), "bur": (370, 450), "gas": (265, 515),
    "mar": (345, 530), "spa": (185, 600), "por": (90, 600), "mao": (95, 460),
    # the Mediterranean
    "naf": (180, 755), "wes": (265, 685), "tun": (365, 755), "lyo": (320, 610), "tys": (420, 650),
    "ion": (545, 725), "aeg": (670, 695), "eas": (770, 740), "adr": (520, 565),
    # Italy and the Balkans
    "pie": (395, 505), "tus": (425, 560), "rom": (460, 605), "nap": (515, 665), "apu": (525, 615),
    "ven": (450, 515), "tyr": (480, 470), "boh": (525, 420), "vie": (560, 465), "bud": (625, 470),
    "gal": (650, 420), "tri": (520, 515), "ser": (600, 540), "alb": (570, 595), "gre": (610, 655),
    "rum": (695, 510), "bul": (670, 580),
    # Turkey and the Black Sea
    "bla": (820, 495), "con": (735, 620), "ank": (830, 590), "arm": (925, 580), "smy": (820, 665),
    "syr": (925, 685),
}  # fmt: skip

COASTS: dict[str, tuple[float, float]] = {
    "spa/nc": (175, 548), "spa/sc": (210, 650),
    "stp/nc": (735, 90), "stp/sc": (672, 200),
    "bul/ec": (715, 565), "bul/sc": (655, 618),
}  # fmt: skip
