"""A helper process that draws PNGs for the tick (``python -m courier.mail.render_worker``).

It reads SVGs from stdin and writes each one's PNG to stdout as soon as it is drawn, each item a
4-byte big-endian length and the bytes; it ends at the end of its input. A separate process, not a
fork: it holds none of the tick's files (the tick's lock included), and if the tick is killed its
pipes close and it ends too."""

from __future__ import annotations

import struct
import sys
from typing import IO

import resvg_py

FONT = "DejaVu Sans"
LENGTH = struct.Struct(">I")


def render_png(svg: str) -> bytes:
    return bytes(
        resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", font_family=FONT, sans_serif_family=FONT)
    )


def write_item(stream: IO[bytes], item: bytes) -> None:
    stream.write(LENGTH.pack(len(item)) + item)
    stream.flush()


def read_item(stream: IO[bytes]) -> bytes | None:
    """The next item, or None at the end of the stream (a short read is an end too)."""
    head = stream.read(LENGTH.size)
    if len(head) < LENGTH.size:
        return None
    (size,) = LENGTH.unpack(head)
    item = stream.read(size)
    return item if len(item) == size else None


def main() -> None:
    while (svg := read_item(sys.stdin.buffer)) is not None:
        write_item(sys.stdout.buffer, render_png(svg.decode("utf-8")))


if __name__ == "__main__":
    main()
