"""QR codes of links: drawn inline on a page (SVG), printed on a sheet (a PNG of one pixel per
module) and shown in a terminal (``flask address``).

Each is drawn from one matrix of modules, made by zxing-cpp at error correction level M (a
fifteenth of the code may be soiled or covered and it still scans), with the mask the QR standard
chooses. Dark modules on white with a light border of 2 modules, whatever the page's colours, so
a code scans in dark mode too. A worker keeps the matrices and the codes it made: a round's cards
ask for the same links again (another paper, another language), and so does the director's page
at each change of the night; each code takes well under a millisecond to make.
"""

from __future__ import annotations

import functools
import io

import zxingcpp
from markupsafe import Markup
from PIL import Image

#: Light modules around the code, on each side.
BORDER = 2

Matrix = tuple[tuple[bool, ...], ...]


@functools.lru_cache(maxsize=1024)
def matrix(url: str) -> Matrix:
    """The modules of the QR code of ``url``, row by row, dark ones True, without a border.

    >>> code = matrix("https://example.org/")
    >>> len(code), {len(row) for row in code}, code[0][:8]
    (25, {25}, (True, True, True, True, True, True, True, False))
    """
    made = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    image = memoryview(made.to_image(scale=1, add_quiet_zones=False))
    height, width = image.shape
    pixels = image.tobytes()
    return tuple(tuple(pixels[y * width + x] < 128 for x in range(width)) for y in range(height))


def _bordered(url: str) -> Matrix:
    code = matrix(url)
    size = len(code) + 2 * BORDER
    light = (False,) * size
    return ((light,) * BORDER + tuple((False,) * BORDER + row + (False,) * BORDER for row in code)
            + (light,) * BORDER)


@functools.lru_cache(maxsize=1024)
def svg(url: str) -> Markup:
    """The QR code as inline SVG: a white square and a path of the dark runs of each row, sized
    by the page (it has a viewBox and no size of its own), drawn with crisp edges (no faint seam
    where two rows' runs meet).

    >>> str(svg("https://example.org/")).startswith(
    ...     '<svg viewBox="0 0 29 29" class="qr-code" shape-rendering="crispEdges">')
    True
    """
    code = _bordered(url)
    size = len(code)
    runs = []
    for y, row in enumerate(code):
        x = 0
        while x < size:
            if row[x]:
                start = x
                while x < size and row[x]:
                    x += 1
                runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
            x += 1
    return Markup(f'<svg viewBox="0 0 {size} {size}" class="qr-code" shape-rendering="crispEdges">'
                  f'<path fill="#fff" '
                  f'd="M0 0h{size}v{size}h-{size}z"/><path fill="#000" d="{"".join(runs)}"/></svg>')


@functools.lru_cache(maxsize=1024)
def png(url: str) -> bytes:
    """The QR code for a printed sheet: a PNG of one pixel per module (some 300 bytes), to be drawn
    large with its pixels kept square. A PDF draws it far faster than an SVG path."""
    code = _bordered(url)
    image = Image.frombytes("L", (len(code), len(code)),
                            bytes(0 if dark else 255 for row in code for dark in row))
    out = io.BytesIO()
    image.convert("1").save(out, format="PNG", optimize=True)
    return out.getvalue()


def terminal(url: str) -> str:
    """The QR code in a terminal's characters: two rows of modules to a line, drawn with half
    blocks (light on a dark terminal, as a scanner reads it)."""
    code = _bordered(url)
    size = len(code)
    rows = [*code, (False,) * size] if size % 2 else list(code)
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        # a dark module is left blank: the terminal's dark background shows through
        lines.append("".join(" ▄▀█"[(not a) * 2 + (not b)] for a, b in zip(top, bottom)))
    return "\n".join(lines)
