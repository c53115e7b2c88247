"""The map of Talossa, as data in the documented map format (see ``engine.talossa._map``).

Schematic, not surveyed: the seven mainland provinces of the Kingdom of Talossa laid out roughly as
they lie along the Lake Michigan shore (Fiôvâ and Atatürk in the north, Benito and Florencia in the
west and south-west, Vuode in the middle, Maricopa in the south, Maritiimi-Maxhestic on the lake
shore), with the island of Cézembre out in the lake, linked by sea to the lake-shore lands. Land
names are partly real (Abbavilla, Lupularia, Bradford Beach...) and partly invented. Coordinates are
centre points on a 900 × 600 picture, x to the east and y to the south. Lands touching only at a
corner do not border each other (seed, VI.10).
"""

from __future__ import annotations

from typing import Any


def land(
    key: str, name: str, province: str, centre: tuple[int, int], *, edge: bool, neighbours: str
) -> dict[str, Any]:
    return {
        "key": key,
        "name": name,
        "province": province,
        "centre": list(centre),
        "edge": edge,
        "neighbours": neighbours.split(),
    }


TALOSSA_MAP: dict[str, Any] = {
    "name": "talossa",
    "title": "Talossa",
    "size": [900, 600],
    "lands": [
        # Atatürk
        land(
            "ata-kopru", "Köprü", "Atatürk", (350, 50), edge=True, neighbours="ata-gazi ata-ankara fio-estreu"
        ),
        land(
            "ata-gazi",
            "Gazi Ridge",
            "Atatürk",
            (450, 50),
            edge=True,
            neighbours="ata-point ata-park ata-kopru",
        ),
        land(
            "ata-point",
            "Atatürk Point",
            "Atatürk",
            (550, 50),
            edge=True,
            neighbours="mm-maxhestic ata-tepe ata-gazi",
        ),
        land(
            "ata-ankara",
            "Ankara Street",
            "Atatürk",
            (350, 150),
            edge=False,
            neighbours="ata-kopru ata-park vuo-abbavilla fio-ovra",
        ),
        land(
            "ata-park",
            "Atatürk Park",
            "Atatürk",
            (450, 150),
            edge=False,
            neighbours="ata-gazi ata-tepe vuo-downer ata-ankara",
        ),
        land(
            "ata-tepe",
            "Tepe",
            "Atatürk",
            (550, 150),
            edge=False,
            neighbours="ata-point mm-bluff vuo-lakepark ata-park",
        ),
        # Benito
        land(
            "ben-lupularia",
            "Lupularia",
            "Benito",
            (50, 250),
            edge=True,
            neighbours="fio-vale ben-riverwest ben-mill",
        ),
        land(
            "ben-riverwest",
            "Riverwest",
            "Benito",
            (150, 250),
            edge=False,
            neighbours="fio-glenmor ben-falls ben-holton ben-lupularia",
        ),
        land(
            "ben-falls",
            "Benito Falls",
            "Benito",
            (250, 250),
            edge=False,
            neighbours="fio-ovra vuo-abbavilla ben-bluff ben-riverwest",
        ),
        land(
            "ben-mill",
            "Old Mill",
            "Benito",
            (50, 350),
            edge=True,
            neighbours="ben-lupularia ben-holton flo-market",
        ),
        land(
            "ben-holton",
            "Holton Bridge",
            "Benito",
            (150, 350),
            edge=False,
            neighbours="ben-riverwest ben-bluff flo-brady ben-mill",
        ),
        land(
            "ben-bluff",
            "River Bluff",
            "Benito",
            (250, 350),
            edge=False,
            neighbours="ben-falls vuo-farwell flo-commerce ben-holton",
        ),
        # Fiôvâ
        land(
            "fio-heights", "Fiôvâ Heights", "Fiôvâ", (50, 50), edge=True, neighbours="fio-santursule fio-vale"
        ),
        land(
            "fio-santursule",
            "Sant Ursule",
            "Fiôvâ",
            (150, 50),
            edge=True,
            neighbours="fio-estreu fio-glenmor fio-heights",
        ),
        land(
            "fio-estreu",
            "Estréu",
            "Fiôvâ",
            (250, 50),
            edge=True,
            neighbours="ata-kopru fio-ovra fio-santursule",
        ),
        land(
            "fio-vale",
            "Fiôvâ Vale",
            "Fiôvâ",
            (50, 150),
            edge=True,
            neighbours="fio-heights fio-glenmor ben-lupularia",
        ),
        land(
            "fio-glenmor",
            "Glenmôr",
            "Fiôvâ",
            (150, 150),
            edge=False,
            neighbours="fio-santursule fio-ovra ben-riverwest fio-vale",
        ),
        land(
            "fio-ovra",
            "Ovrâ",
            "Fiôvâ",
            (250, 150),
            edge=False,
            neighbours="fio-estreu ata-ankara ben-falls fio-glenmor",
        ),
        # Florencia
        land(
            "flo-market",
            "Florencia Market",
            "Florencia",
            (50, 450),
            edge=True,
            neighbours="ben-mill flo-brady flo-gate",
        ),
        land(
            "flo-brady",
            "Brady",
            "Florencia",
            (150, 450),
            edge=False,
            neighbours="ben-holton flo-commerce flo-pulaski flo-market",
        ),
        land(
            "flo-commerce",
            "Commerce",
            "Florencia",
            (250, 450),
            edge=False,
            neighbours="ben-bluff mar-juneau flo-cathedral flo-brady",
        ),
        land(
            "flo-gate",
            "Florencia Gate",
            "Florencia",
            (50, 550),
            edge=True,
            neighbours="flo-market flo-pulaski",
        ),
        land(
            "flo-pulaski",
            "Pulaski",
            "Florencia",
            (150, 550),
            edge=True,
            neighbours="flo-brady flo-cathedral flo-gate",
        ),
        land(
            "flo-cathedral",
            "Cathedral Square",
            "Florencia",
            (250, 550),
            edge=True,
            neighbours="flo-commerce mar-ogden flo-pulaski",
        ),
        # Maricopa
        land(
            "mar-juneau",
            "Juneau",
            "Maricopa",
            (350, 450),
            edge=False,
            neighbours="vuo-farwell mar-prospect mar-ogden flo-commerce",
        ),
        land(
            "mar-prospect",
            "Prospect",
            "Maricopa",
            (450, 450),
            edge=False,
            neighbours="vuo-nord mar-mesa mar-yankee mar-juneau",
        ),
        land(
            "mar-mesa",
            "Maricopa Mesa",
            "Maricopa",
            (550, 450),
            edge=False,
            neighbours="vuo-oakland mm-harbour mar-saguaro mar-prospect",
        ),
        land(
            "mar-ogden",
            "Ogden",
            "Maricopa",
            (350, 550),
            edge=True,
            neighbours="mar-juneau mar-yankee flo-cathedral",
        ),
        land(
            "mar-yankee",
            "Yankee Hill",
            "Maricopa",
            (450, 550),
            edge=True,
            neighbours="mar-prospect mar-saguaro mar-ogden",
        ),
        land(
            "mar-saguaro",
            "Saguaro",
            "Maricopa",
            (550, 550),
            edge=True,
            neighbours="mar-mesa mm-breakwater mar-yankee",
        ),
        # Maritiimi-Maxhestic
        land(
            "mm-maxhestic",
            "Port Maxhestic",
            "Maritiimi-Maxhestic",
            (650, 50),
            edge=True,
            neighbours="mm-bluff ata-point",
        ),
        land(
            "mm-bluff",
            "Maritiimi Bluff",
            "Maritiimi-Maxhestic",
            (650, 150),
            edge=True,
            neighbours="mm-maxhestic mm-lighthouse ata-tepe cez-nord",
        ),
        land(
            "mm-lighthouse",
            "Lighthouse Point",
            "Maritiimi-Maxhestic",
            (650, 250),
            edge=True,
            neighbours="mm-bluff mm-beach vuo-lakepark cez-nord",
        ),
        land(
            "mm-beach",
            "Bradford Beach",
            "Maritiimi-Maxhestic",
            (650, 350),
            edge=True,
            neighbours="mm-lighthouse mm-harbour vuo-oakland cez-sud",
        ),
        land(
            "mm-harbour",
            "Maritiimi Harbour",
            "Maritiimi-Maxhestic",
            (650, 450),
            edge=True,
            neighbours="mm-beach mm-breakwater mar-mesa cez-sud",
        ),
        land(
            "mm-breakwater",
            "Breakwater",
            "Maritiimi-Maxhestic",
            (650, 550),
            edge=True,
            neighbours="mm-harbour mar-saguaro",
        ),
        # Vuode
        land(
            "vuo-abbavilla",
            "Abbavilla",
            "Vuode",
            (350, 250),
            edge=False,
            neighbours="ata-ankara vuo-downer vuo-farwell ben-falls",
        ),
        land(
            "vuo-downer",
            "Downer",
            "Vuode",
            (450, 250),
            edge=False,
            neighbours="ata-park vuo-lakepark vuo-nord vuo-abbavilla",
        ),
        land(
            "vuo-lakepark",
            "Lake Park",
            "Vuode",
            (550, 250),
            edge=False,
            neighbours="ata-tepe mm-lighthouse vuo-oakland vuo-downer",
        ),
        land(
            "vuo-farwell",
            "Farwell",
            "Vuode",
            (350, 350),
            edge=False,
            neighbours="vuo-abbavilla vuo-nord mar-juneau ben-bluff",
        ),
        land(
            "vuo-nord",
            "Vuode Nord",
            "Vuode",
            (450, 350),
            edge=False,
            neighbours="vuo-downer vuo-oakland mar-prospect vuo-farwell",
        ),
        land(
            "vuo-oakland",
            "Oakland",
            "Vuode",
            (550, 350),
            edge=False,
            neighbours="vuo-lakepark mm-beach mar-mesa vuo-nord",
        ),
        # Cézembre
        land(
            "cez-nord",
            "Cézembre Nord",
            "Cézembre",
            (800, 200),
            edge=True,
            neighbours="cez-sud mm-bluff mm-lighthouse",
        ),
        land(
            "cez-sud",
            "Cézembre Sud",
            "Cézembre",
            (800, 400),
            edge=True,
            neighbours="cez-nord mm-beach mm-harbour",
        ),
    ],
}
