"""``courier init``: a commented starter deployment file and one game workbook to edit."""

from __future__ import annotations

from pathlib import Path

from courier.backends.workbook import XlsxWorkbook
from courier.data import shipped_dir


def write_starter(directory: Path, *, game: str) -> list[str]:
    """Write ``courier.toml`` and the game's workbook unless they exist; one line per file saying
    what was done (an existing file is kept: run again, ``courier init`` overwrites nothing)."""
    directory.mkdir(parents=True, exist_ok=True)
    done: list[str] = []
    config = directory / "courier.toml"
    if config.exists():
        done.append(f"kept {config}: it exists, left as it is")
    else:
        example = (shipped_dir("config") / "courier.example.toml").read_text(encoding="utf-8")
        config.write_text(example.replace("truce", game), encoding="utf-8")
        done.append(f"wrote {config}")
    workbook = directory / f"{game}-1.xlsx"
    existed = workbook.exists()
    XlsxWorkbook(workbook).init(game=game)
    kept = f"kept {workbook}: it exists; only tabs it lacked were added"
    done.append(kept if existed else f"wrote {workbook}")
    return done
