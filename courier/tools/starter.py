"""``courier init``: a commented starter deployment file and one game workbook to edit."""

from __future__ import annotations

from pathlib import Path

from courier.backends.workbook import XlsxWorkbook
from courier.data import shipped_dir


def write_starter(directory: Path, *, game: str) -> list[Path]:
    """Write ``courier.toml`` and the game's workbook unless they exist. Returns what was written."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    config = directory / "courier.toml"
    if not config.exists():
        example = (shipped_dir("config") / "courier.example.toml").read_text(encoding="utf-8")
        config.write_text(example.replace("truce", game), encoding="utf-8")
        written.append(config)
    workbook = directory / f"{game}-1.xlsx"
    existed = workbook.exists()
    XlsxWorkbook(workbook).init(game=game)
    if not existed:
        written.append(workbook)
    return written
