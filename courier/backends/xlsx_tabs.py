"""Reading and replacing whole tabs of an .xlsx without loading the rest of the file.

openpyxl loads and saves every tab to change one, and History grows by a row per player per round,
so publishing a game at round 50 cost five times what it cost at round 1. Here only the tab's own
XML part is rewritten (what comes before and after its cells, such as column widths, is kept) and
every other part of the zip is copied as it was. Strings are written inline, so the shared-string
table, which every read of the workbook loads whole, holds no History.

What this cannot write (a date, which needs a cell style; a tab the file lacks; a part it cannot
find) makes ``replace_cells`` return False, and the caller falls back to openpyxl."""

from __future__ import annotations

import math
import posixpath
import re
import zipfile
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.reader.excel import ExcelReader
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from courier.backends._sheet_tables import find_title
from courier.backends.files import atomic_writer

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELATIONSHIP = "http://schemas.openxmlformats.org/package/2006/relationships"
WORKBOOK_PART = "xl/workbook.xml"
WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"

# XML 1.0 has no place for these either; openpyxl's pattern covers the C0 controls only.
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")
_SHEET_DATA = re.compile(rb"<sheetData\s*/>|<sheetData(?:\s[^>]*)?>.*?</sheetData>", re.DOTALL)
_DIMENSION = re.compile(rb"<dimension\s[^>]*/>")


def replace_cells(path: Path, tabs: Mapping[str, Sequence[Sequence[Any]]]) -> bool:
    """Give each tab (found by title) exactly these rows; True when done, False when the file needs
    openpyxl (nothing written then)."""
    cells = {title: _cells_xml(rows) for title, rows in tabs.items()}
    with zipfile.ZipFile(path) as old:
        parts = _tab_parts(old)
        if parts is None:
            return False
        replaced: dict[str, bytes] = {}
        for title, (data, dimension) in cells.items():
            found = find_title(parts, title)
            if data is None or found is None:
                return False
            sheet = _with_cells(old.read(parts[found]), data, dimension)
            if sheet is None:
                return False
            replaced[parts[found]] = sheet
        with atomic_writer(path) as file, zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as new:
            for info in old.infolist():
                new.writestr(info, replaced.get(info.filename) or old.read(info))
    return True


def _tab_parts(archive: zipfile.ZipFile) -> dict[str, str] | None:
    """Tab title → the zip member holding its cells, as the workbook part and its relationships say."""
    try:
        workbook = ElementTree.fromstring(archive.read(WORKBOOK_PART))
        rels = ElementTree.fromstring(archive.read(WORKBOOK_RELS))
    except (KeyError, ElementTree.ParseError):
        return None
    targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{{{PACKAGE_RELATIONSHIP}}}Relationship")}
    parts: dict[str, str] = {}
    for sheet in workbook.iter(f"{{{MAIN}}}sheet"):
        target = targets.get(sheet.get(f"{{{RELATIONSHIP}}}id"))
        if target:
            member = target.lstrip("/") if target.startswith("/") else posixpath.join("xl", target)
            parts[sheet.get("name", "")] = posixpath.normpath(member)
    names = set(archive.namelist())
    return {title: member for title, member in parts.items() if member in names}


def _with_cells(sheet: bytes, data: bytes, dimension: bytes) -> bytes | None:
    """The sheet part with its cells replaced; None when it has no ``<sheetData>`` this can find
    (a namespace prefix, say)."""
    found = _SHEET_DATA.search(sheet)
    if found is None:
        return None
    head, tail = sheet[: found.start()], sheet[found.end() :]
    head = _DIMENSION.sub(dimension, head, count=1)
    return head + data + tail


def _cells_xml(rows: Sequence[Sequence[Any]]) -> tuple[bytes | None, bytes]:
    """(``<sheetData>`` for these rows or None when a value needs openpyxl, ``<dimension>``)."""
    lines: list[str] = []
    width = 0
    for number, row in enumerate(rows, start=1):
        cells = []
        for column, value in enumerate(row, start=1):
            cell = _cell_xml(f"{get_column_letter(column)}{number}", value)
            if cell is None:
                return None, b""
            if cell:
                cells.append(cell)
                width = max(width, column)
        lines.append(f'<row r="{number}">{"".join(cells)}</row>')
    corner = f"{get_column_letter(max(width, 1))}{max(len(rows), 1)}"
    dimension = f'<dimension ref="A1:{corner}"/>'.encode()
    return ("<sheetData>" + "".join(lines) + "</sheetData>").encode(), dimension


def _cell_xml(ref: str, value: Any) -> str | None:
    """One cell, written as openpyxl would store it (text stays text, "=…" included); "" for an
    empty cell; None for a value only openpyxl can write."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int | Decimal) or (isinstance(value, float) and math.isfinite(value)):
        return f'<c r="{ref}"><v>{value}</v></c>'
    if isinstance(value, str | float):
        return f'<c r="{ref}" t="inlineStr"><is>{_text(str(value))}</is></c>'
    return None


def _text(value: str) -> str:
    # Control characters would make the file unreadable; one odd name must not block publishing.
    clean = _NOT_XML.sub("\ufffd", ILLEGAL_CHARACTERS_RE.sub("\ufffd", value))
    space = ' xml:space="preserve"' if clean != clean.strip() else ""
    return f"<t{space}>{escape(clean)}</t>"


class _ReaderWithout(ExcelReader):
    """openpyxl's read-only reader, leaving one tab out: openpyxl parses the start of every tab it
    lists, and History grows by a row per player per round while a read never needs it."""

    def __init__(self, path: Path, left_out: str) -> None:
        super().__init__(path, read_only=True, data_only=True)
        self.left_out = left_out

    def read_worksheets(self) -> None:
        for sheet, rel in self.parser.find_sheets():
            if rel.target not in self.valid_files or "chartsheet" in rel.Type:
                continue
            if find_title([sheet.name], self.left_out):
                continue
            tab = ReadOnlyWorksheet(self.wb, sheet.name, rel.target, self.shared_strings)
            tab.sheet_state = sheet.state or "visible"
            self.wb._sheets.append(tab)  # type: ignore[attr-defined]  # as openpyxl's own reader does


def read_without(path: Path, left_out: str) -> Workbook:
    """The workbook as ``openpyxl.load_workbook(path, read_only=True, data_only=True)`` gives it,
    without the tab titled ``left_out``."""
    reader = _ReaderWithout(path, left_out)
    reader.read()
    book: Workbook = reader.wb
    return book
