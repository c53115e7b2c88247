"""The map of Talossa as data, and the validator any organiser's map goes through."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.talossa import TALOSSA_MAP, MapError, find_map, load_map
from tests.helpers.paths import ROOT

PROVINCES = {
    "Atatürk",
    "Benito",
    "Fiôvâ",
    "Florencia",
    "Maricopa",
    "Maritiimi-Maxhestic",
    "Vuode",
    "Cézembre",
}


def test_talossa_has_forty_lands_in_its_real_provinces() -> None:
    talossa = find_map("talossa")
    assert len(talossa.lands) >= 40
    assert {land.province for land in talossa.lands.values()} == PROVINCES
    assert all(land.name and len(land.centre) == 2 for land in talossa.lands.values())
    assert any(land.edge for land in talossa.lands.values()) and not all(
        land.edge for land in talossa.lands.values()
    )


def test_cezembre_is_an_island_reached_by_sea_from_the_lake_shore() -> None:
    talossa = find_map("talossa")
    island = {k for k, land in talossa.lands.items() if land.province == "Cézembre"}
    shore = {n for k in island for n in talossa.neighbours(k)} - island
    assert shore and all(talossa.land(k).province == "Maritiimi-Maxhestic" for k in shore)


def broken(change: Any) -> list[str]:
    data = copy.deepcopy(TALOSSA_MAP)
    change(data["lands"])
    with pytest.raises(MapError) as caught:
        load_map(data)
    return caught.value.problems


def test_one_sided_borders_are_named() -> None:
    problems = broken(lambda lands: lands[0]["neighbours"].remove(lands[0]["neighbours"][0]))
    assert problems == ["ata-gazi borders ata-kopru, but ata-kopru does not list ata-gazi"]


def test_unknown_neighbours_get_a_suggestion() -> None:
    problems = broken(lambda lands: lands[0]["neighbours"].append("vuo-abavilla"))
    assert problems == ["land ata-kopru: unknown neighbour vuo-abavilla (did you mean vuo-abbavilla?)"]


def test_a_land_nobody_can_reach_is_reported() -> None:
    def cut(lands: list[dict[str, Any]]) -> None:
        for land in lands:
            if land["province"] == "Cézembre":
                land["neighbours"] = [n for n in land["neighbours"] if n.startswith("cez")]
            else:
                land["neighbours"] = [n for n in land["neighbours"] if not n.startswith("cez")]

    assert broken(cut) == ["no way from ata-kopru to cez-nord, cez-sud: every land must be reachable"]


def test_two_lands_with_one_name_are_reported() -> None:
    problems = broken(lambda lands: lands[1].update(name="KOPRU"))
    assert problems == ["“kopru” names two lands: ata-kopru and ata-gazi"]


def test_missing_fields_are_reported() -> None:
    problems = broken(lambda lands: lands[0].pop("centre"))
    assert problems[0] == "land #1 (ata-kopru) lacks centre"


def test_the_organisers_copy_in_config_is_the_engines_map() -> None:
    path = ROOT / "config" / "talossa" / "talossa-map.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == TALOSSA_MAP and load_map(data) == find_map("talossa")
