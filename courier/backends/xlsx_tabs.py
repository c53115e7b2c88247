"""Reading and replacing whole tabs of an .xlsx without loading the rest of the file.

openpyxl loads and saves every tab to change one, and History grows by a row per public event, so
publishing a game at round 50 cost five times what it cost at round 1. Here only the tab's own XML
part is rewritten (what comes before and after its cells is kept, but its column widths, which
follow what the cells hold) and every other part of the zip is copied as it was. Strings are
written inline, so the shared-string table, which every read of the workbook loads whole, holds no
History.

History only grows (a round's rows never change), so a tab whose first rows are those written last
time keeps their XML and only the new rows are written: the zip comment records, for each tab
written here, how many rows it got, a digest of them and the CRC of its part. Any other program
saving the file (Excel, LibreOffice, openpyxl) drops the comment or changes the CRC, and the tab is
written whole again.

What this cannot write (a date, which needs a cell style; a tab the file lacks; a part it cannot
find) makes ``replace_cells`` return False, and the caller falls back to openpyxl."""

from __future__ import annotations

import hashlib
import json
import math
import os
import posixpath
import re
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.reader.excel import ExcelReader
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from courier.backends.files import ChangedMeanwhile, FileStamp, atomic_writer, changed_since
from courier.backends.sheet_tables import column_widths, find_title

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELATIONSHIP = "http://schemas.openxmlformats.org/package/2006/relationships"
WORKBOOK_PART = "xl/workbook.xml"
WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"

# XML 1.0 has no place for these either; openpyxl's pattern covers the C0 controls only.
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")
_SHEET_DATA = re.compile(rb"<sheetData\s*/>|<sheetData(?:\s[^>]*)?>.*?</sheetData>", re.DOTALL)
_DIMENSION = re.compile(rb"<dimension\s[^>]*/>")
_COLS = re.compile(rb"<cols\s*/>|<cols(?:\s[^>]*)?>.*?</cols>", re.DOTALL)


def replace_cells(path: Path, tabs: Mapping[str, Sequence[Sequence[Any]]]) -> bool:
    """Give each tab (found by title) exactly these rows; True when done, False when the file needs
    openpyxl (nothing written then). Raises ``ChangedMeanwhile`` (nothing written) when someone saved
    the file while this wrote it: every other part is copied from the file as read."""
    with path.open("rb") as handle:
        read = FileStamp.of(os.fstat(handle.fileno()))
        try:
            return _rewrite(handle, path, tabs, read)
        except zipfile.BadZipFile as e:  # torn by a save in place while this read it?
            if changed_since(path, read):
                raise ChangedMeanwhile(f"{path} was saved by someone else while Courier read it") from e
            raise


def _rewrite(
    handle: BinaryIO, path: Path, tabs: Mapping[str, Sequence[Sequence[Any]]], read: FileStamp
) -> bool:
    with zipfile.ZipFile(handle) as old:
        parts = _tab_parts(old)
        if parts is None:
            return False
        written = _Written.all_in(old.comment)
        replaced: dict[str, bytes] = {}
        for title, rows in tabs.items():
            found = find_title(parts, title)
            if found is None:
                return False
            member = parts[found]
            sheet = _with_rows(old.read(member), rows, written.get(member), old.getinfo(member).CRC)
            if sheet is None:
                return False
            replaced[member], written[member] = sheet
        with (
            atomic_writer(path, unless_changed_since=read) as file,
            zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as new,
        ):
            for info in old.infolist():
                new.writestr(info, replaced.get(info.filename) or old.read(info))
            new.comment = _Written.comment(written)
    return True


@dataclass(frozen=True)
class _Written:
    """What ``replace_cells`` last wrote into one tab's part: its rows, how wide, and the part's CRC."""

    rows: int
    width: int
    digest: str
    crc: int

    @staticmethod
    def all_in(comment: bytes) -> dict[str, _Written]:
        try:
            recorded = json.loads(comment.decode("utf-8")).get("courier-tabs", {})
            return {member: _Written(*fields) for member, fields in recorded.items()}
        except (ValueError, TypeError, AttributeError):
            return {}  # no comment, or another program's

    @staticmethod
    def comment(written: Mapping[str, _Written]) -> bytes:
        fields = {m: [w.rows, w.width, w.digest, w.crc] for m, w in written.items()}
        return json.dumps({"courier-tabs": fields}).encode("utf-8")


def _digest(rows: Sequence[Sequence[Any]]) -> str:
    return hashlib.sha256(json.dumps(rows, default=str).encode("utf-8")).hexdigest()


def _kept(written: _Written | None, crc: int, rows: Sequence[Sequence[Any]]) -> tuple[int, int]:
    """(How many rows the part holds, how wide) when it is as this wrote it and those rows are
    ``rows``' first ones; else (0, 0): it is written whole."""
    if written is None or written.crc != crc or written.rows > len(rows):
        return 0, 0
    return (written.rows, written.width) if _digest(rows[: written.rows]) == written.digest else (0, 0)


def _with_rows(
    sheet: bytes, rows: Sequence[Sequence[Any]], written: _Written | None, crc: int
) -> tuple[bytes, _Written] | None:
    """The sheet part holding ``rows``, written after the rows it already holds when those are
    ``rows``' first ones, as ``written`` recorded; None when only openpyxl can write it."""
    kept, width = _kept(written, crc, rows)
    found = _SHEET_DATA.search(sheet)
    if found is None:
        return None
    data, new_width = _rows_xml(rows[kept:], first=kept + 1)
    if data is None:
        return None
    width = max(width, new_width)
    # Kept: what this wrote last time, ``<sheetData>`` and its rows.
    data = (found.group()[: -len(b"</sheetData>")] if kept else b"<sheetData>") + data
    corner = f"{get_column_letter(max(width, 1))}{max(len(rows), 1)}"
    head = _DIMENSION.sub(f'<dimension ref="A1:{corner}"/>'.encode(), sheet[: found.start()], count=1)
    head = _COLS.sub(b"", head) + _cols_xml(rows)  # <cols> comes right before <sheetData>
    part = head + data + b"</sheetData>" + sheet[found.end() :]
    return part, _Written(len(rows), width, _digest(rows), zlib.crc32(part))


def _cols_xml(rows: Sequence[Sequence[Any]]) -> bytes:
    """Each column as wide as its longest text (``column_widths``), as ``<cols>`` says it."""
    cols = "".join(
        f'<col min="{n}" max="{n}" width="{w}" customWidth="1"/>'
        for n, w in enumerate(column_widths(rows), start=1)
    )
    return f"<cols>{cols}</cols>".encode() if cols else b""


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


def _rows_xml(rows: Sequence[Sequence[Any]], *, first: int) -> tuple[bytes | None, int]:
    """(These rows' XML, numbered from ``first``, or None when a value needs openpyxl; the last
    column holding a value)."""
    lines: list[str] = []
    width = 0
    for number, row in enumerate(rows, start=first):
        cells = []
        for column, value in enumerate(row, start=1):
            cell = _cell_xml(f"{get_column_letter(column)}{number}", value)
            if cell is None:
                return None, 0
            if cell:
                cells.append(cell)
                width = max(width, column)
        lines.append(f'<row r="{number}">{"".join(cells)}</row>')
    return "".join(lines).encode(), width


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
