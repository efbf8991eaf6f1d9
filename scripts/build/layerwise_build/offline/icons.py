"""The site's mark as PNG icons for its web app manifest, drawn at build time: three stacked bars, wider from top to
bottom (the layers of a model), in the page's colour on a rounded square of the theme's primary colour, smoothed by drawing at four times the size and
averaging. PNG needs nothing more than zlib: a signature, a header chunk, the compressed rows, an end chunk."""
import functools
import struct
import zlib

import numpy as np

SIZES = (192, 512)  # Chromium's install criteria want one of at least 144 px; 512 px is the splash screen's
SUPERSAMPLE = 4
CORNER = 0.2  # the square's corner radius, as a share of its side
BARS = ((0.30, 0.34), (0.50, 0.26), (0.70, 0.18))  # (centre height, inset from each side) of each layer
BAR_HEIGHT, BAR_RADIUS = 0.12, 0.06


def rgb(colour):
    """'#4051b5' -> (64, 81, 181)."""
    value = colour.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"{colour!r} is not a colour written #rrggbb")
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))


def _inside_rounded_box(x, y, left, top, right, bottom, radius):
    """Whether each point (x, y) lies inside the box with rounded corners (a signed distance <= 0)."""
    cx, cy = (left + right) / 2, (top + bottom) / 2
    qx = np.abs(x - cx) - ((right - left) / 2 - radius)
    qy = np.abs(y - cy) - ((bottom - top) / 2 - radius)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0)
    return outside <= radius


@functools.lru_cache(maxsize=4)  # `mkdocs serve` rebuilds and the tests' builds draw the same icons again
def mark(size, background, foreground):
    """The mark as an array (size, size, 4) of RGBA bytes: ``background`` and ``foreground`` are '#rrggbb'."""
    n = size * SUPERSAMPLE
    centres = (np.arange(n, dtype=np.float32) + 0.5) / n
    x, y = np.meshgrid(centres, centres)  # (n, n) each, in the unit square
    square = _inside_rounded_box(x, y, 0, 0, 1, 1, CORNER)
    bars = np.zeros_like(square)
    for centre, inset in BARS:
        bars |= _inside_rounded_box(x, y, inset, centre - BAR_HEIGHT / 2, 1 - inset, centre + BAR_HEIGHT / 2,
                                    BAR_RADIUS)

    def coverage(shape):  # (size, size): the share of each pixel's samples inside the shape
        return shape.reshape(size, SUPERSAMPLE, size, SUPERSAMPLE).mean(axis=(1, 3))

    alpha, ink = coverage(square), coverage(bars & square)
    back, fore = np.array(rgb(background), np.float32), np.array(rgb(foreground), np.float32)
    # the bars sit inside the square, so a pixel's colour is the mix of the two by the bars' share of its square part
    share = np.divide(ink, alpha, out=np.zeros_like(ink), where=alpha > 0)[..., None]
    colour = back * (1 - share) + fore * share
    return np.round(np.dstack([colour, alpha * 255])).astype(np.uint8)


def png(rgba):
    """PNG bytes of an array (height, width, 4) of RGBA bytes: 8 bits a channel, no filter on any row."""
    height, width, _ = rgba.shape
    rows = b"".join(b"\0" + rgba[row].tobytes() for row in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA, deflate, no filter, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
