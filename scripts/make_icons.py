"""Draws the app icons (static/judgeapp/icons/*.png) with the standard library only: a rules book on
the dark theme's colours, full-bleed for "maskable" (the safe zone is the middle 80%).

    python scripts/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "judgeapp" / "icons"
BG = (0x15, 0x17, 0x1B)
ACCENT = (0x5D, 0x9B, 0xFF)
PAGE = (0xE6, 0xE8, 0xEC)
LINE = (0x35, 0x3A, 0x43)


def png(size: int, pixel) -> bytes:
    rows = b"".join(
        b"\x00" + bytes(c for x in range(size) for c in pixel(x / size, y / size))
        for y in range(size)
    )
    chunk = lambda kind, data: (  # noqa: E731
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    )
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def book(u: float, v: float, scale: float) -> tuple[int, int, int] | None:
    """An open book in the middle: two pages with lines, a spine; None outside it."""
    x, y = (u - 0.5) / scale, (v - 0.5) / scale
    if abs(x) > 0.36 or abs(y) > 0.25:
        return None
    if abs(x) < 0.02:
        return ACCENT
    inner = abs(x) - 0.02
    if (
        0.05 < inner < 0.29
        and -0.17 < y < 0.17
        and (int((y + 0.17) / 0.068) % 1 == 0)
        and ((y + 0.17) % 0.068) < 0.022
    ):
        return LINE
    return PAGE


def icon(maskable: bool):
    def pixel(u: float, v: float) -> tuple[int, int, int, int]:
        if not maskable:
            # rounded square with transparent corners
            r, cx, cy = 0.18, min(max(u, 0.18), 0.82), min(max(v, 0.18), 0.82)
            if (u - cx) ** 2 + (v - cy) ** 2 > r * r:
                return (0, 0, 0, 0)
        colour = book(u, v, 0.8 if maskable else 1.0)
        if colour is None:
            disc = (u - 0.5) ** 2 + (v - 0.5) ** 2 < (0.34 if maskable else 0.42) ** 2
            colour = ACCENT if disc else BG
        return (*colour, 255)

    return pixel


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("maskable-512.png", 512, True),
        ("apple-touch-icon.png", 180, True),
    ):
        (OUT / name).write_bytes(png(size, icon(maskable)))
        print(OUT / name)


if __name__ == "__main__":
    main()
