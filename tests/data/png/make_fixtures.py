#!/usr/bin/env python3
"""Writes the PNG fixtures of tests/unit/test_png.cpp with Pillow (an encoder independent of
fhnsim's decoder; it picks each row's filter adaptively, so Sub, Up, Average and Paeth rows occur).
Every pixel follows a formula the test recomputes. Run: /usr/bin/python3 make_fixtures.py"""
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
W, H = 13, 7


def image(mode, pixel):
    img = Image.new(mode, (W, H))
    img.putdata([pixel(x, y) for y in range(H) for x in range(W)])
    return img


image("L", lambda x, y: (x * 37 + y * 91) % 256).save(HERE / "gray8.png")
image("I;16", lambda x, y: (x * 5003 + y * 7919) % 65536).save(HERE / "gray16.png")
image("1", lambda x, y: 255 * ((x + y) % 2)).save(HERE / "gray1.png")
image("LA", lambda x, y: ((x * 37 + y * 91) % 256, (x * y * 17) % 256)).save(HERE / "gray_alpha8.png")
image("RGB", lambda x, y: ((x * 37) % 256, (y * 91) % 256, ((x + y) * 53) % 256)).save(HERE / "rgb8.png")
image("RGBA", lambda x, y: ((x * 37) % 256, (y * 91) % 256, ((x + y) * 53) % 256,
                            (x * y * 17) % 256)).save(HERE / "rgba8.png")
palette = image("P", lambda x, y: (x + 2 * y) % 4)
palette.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 40, 80, 200])
palette.save(HERE / "palette.png", transparency=bytes([255, 255, 128, 0]))

# A disc of radius 3 about (10, 5) on a 20 x 10 sheet at dx = 0.5, one pixel per node (41 x 21):
# dark (0) in the disc, white (255) outside; row 0 is the top (y = 10).
NX, NY = 41, 21
disc = Image.new("L", (NX, NY))
disc.putdata([0 if ((i * 0.5 - 10) ** 2 + ((NY - 1 - r) * 0.5 - 5) ** 2) <= 9 else 255
              for r in range(NY) for i in range(NX)])
disc.save(HERE / "disc_41x21.png")

# The same grey picture as gray8.png, its rows filtered by hand with each type of the standard's
# section 9.2 in turn (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth, then 4 and 3 again), written
# chunk by chunk: Pillow chose Sub for every row.
import struct
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


rows = [[(x * 37 + y * 91) % 256 for x in range(W)] for y in range(H)]
data = bytearray()
for y, row in enumerate(rows):
    kind = [0, 1, 2, 3, 4, 4, 3][y]
    up = rows[y - 1] if y > 0 else [0] * W
    data.append(kind)
    for x in range(W):
        a = row[x - 1] if x > 0 else 0
        b, c = up[x], (up[x - 1] if x > 0 else 0)
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        data.append((row[x] - predictor) % 256)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


(HERE / "filters.png").write_bytes(b"\x89PNG\r\n\x1a\n" +
                                   chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 0, 0, 0, 0)) +
                                   chunk(b"IDAT", zlib.compress(bytes(data))) +
                                   chunk(b"IEND", b""))

# A header that declares 16384 x 16384 pixels of RGBA at 16 bits (about 4 GB to decode) over a
# few bytes of image data: a hostile picture, refused before anything that size is allocated
# (tests/unit/test_hostile_pictures.cpp).
(HERE / "declares_16384x16384_rgba16.png").write_bytes(
    b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16384, 16384, 16, 6, 0, 0, 0)) +
    chunk(b"IDAT", zlib.compress(bytes(64))) + chunk(b"IEND", b""))
