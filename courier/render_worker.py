"""A helper process that draws PNGs for the tick (``python -m courier.render_worker``).

It reads SVGs from stdin and writes their PNGs to stdout, each as a 4-byte big-endian length and the
bytes, then exits. A separate process, not a fork: it holds none of the tick's files (the tick's lock
included), and if the tick is killed its pipes close and it ends too."""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterator

import resvg_py

FONT = "DejaVu Sans"
LENGTH = struct.Struct(">I")


def render_png(svg: str) -> bytes:
    return bytes(
        resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", font_family=FONT, sans_serif_family=FONT)
    )


def pack(items: list[bytes]) -> bytes:
    return b"".join(LENGTH.pack(len(item)) + item for item in items)


def unpack(data: bytes) -> Iterator[bytes]:
    at = 0
    while at < len(data):
        (size,) = LENGTH.unpack_from(data, at)
        yield data[at + LENGTH.size : at + LENGTH.size + size]
        at += LENGTH.size + size


def main() -> None:
    svgs = [item.decode("utf-8") for item in unpack(sys.stdin.buffer.read())]
    sys.stdout.buffer.write(pack([render_png(svg) for svg in svgs]))


if __name__ == "__main__":
    main()
