"""Draw the app's icons: a white spade on the app's green, as SVG and as the PNGs a phone installs.

    .venv/bin/python scripts/icons.py [out-dir]      (default: static/icons/)

The spade is two circles, a triangle pointing up between them and a stem: the same shapes are
written into icon.svg and drawn with Pillow, so the SVG and the PNGs show one picture. Pillow
draws without smoothing, so each PNG is drawn four times larger and scaled down. The output is
the same bytes on every run; tests/web/test_web_offline.py draws it again and compares.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
#: The app's green and the spade's white (app.css: --accent and --accent-fg of the light theme).
GREEN, WHITE = "#0b6e4f", "#ffffff"
#: The drawing's own units: a 512 square.
UNIT = 512
#: The corner radius of the icon's square (the maskable icon has square corners: the phone cuts it).
CORNER = 96
#: The maskable icon's spade is smaller: a phone may cut the icon down to the circle of 80 %.
MASKABLE_SCALE = 0.8
#: Drawn this many times larger, then scaled down: smooth edges.
SUPERSAMPLE = 4
#: The PNGs: file name, size in pixels, maskable.
PNGS = [("icon-192.png", 192, False), ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True)]

Point = tuple[float, float]
Circle = tuple[Point, float]


def _tangent(apex: Point, circle: Circle, side: int) -> Point:
    """Where a line from ``apex`` touches ``circle`` on its left (-1) or right (+1) side."""
    (cx, cy), r = circle
    dx, dy = apex[0] - cx, apex[1] - cy
    angle = math.atan2(dy, dx) + side * math.acos(r / math.hypot(dx, dy))
    return cx + r * math.cos(angle), cy + r * math.sin(angle)


def spade(scale: float = 1.0) -> tuple[list[Circle], list[list[Point]]]:
    """The spade's circles and polygons in a 512 square, centred, scaled about the centre."""
    apex, lobe, radius, spread = (256.0, 108.0), 288.0, 64.0, 58.0
    left, right = ((256.0 - spread, lobe), radius), ((256.0 + spread, lobe), radius)
    body = [apex, _tangent(apex, left, -1), (256.0, lobe + radius * 0.7), _tangent(apex, right, 1)]
    stem = [(256.0, lobe - 8.0), (200.0, 404.0), (312.0, 404.0)]

    def at(point: Point) -> Point:
        return (256 + (point[0] - 256) * scale, 256 + (point[1] - 256) * scale)

    circles = [(at(centre), r * scale) for centre, r in (left, right)]
    return circles, [[at(p) for p in shape] for shape in (body, stem)]


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def svg() -> str:
    """The icon as SVG: the rounded green square and the spade."""
    circles, polygons = spade()
    shapes = [f'<circle cx="{_number(x)}" cy="{_number(y)}" r="{_number(r)}"/>'
              for (x, y), r in circles]
    shapes += ['<polygon points="{}"/>'.format(" ".join(f"{_number(x)},{_number(y)}"
                                                        for x, y in polygon))
               for polygon in polygons]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {UNIT} {UNIT}">'
            f'<rect width="{UNIT}" height="{UNIT}" rx="{CORNER}" fill="{GREEN}"/>'
            f'<g fill="{WHITE}">{"".join(shapes)}</g></svg>\n')


def png(size: int, maskable: bool) -> Image.Image:
    """The icon drawn at ``size`` pixels: rounded and transparent at the corners, or maskable
    (a full green square with a smaller spade)."""
    big = size * SUPERSAMPLE
    k = big / UNIT
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=GREEN)
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=CORNER * k, fill=GREEN)
    circles, polygons = spade(MASKABLE_SCALE if maskable else 1.0)
    for (x, y), r in circles:
        draw.ellipse(((x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k), fill=WHITE)
    for polygon in polygons:
        draw.polygon([(x * k, y * k) for x, y in polygon], fill=WHITE)
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    return small.convert("RGB") if maskable else small


def write(out: Path) -> list[Path]:
    """Write icon.svg and the PNGs into ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "icon.svg"]
    written[0].write_text(svg())
    for name, size, maskable in PNGS:
        png(size, maskable).save(out / name, optimize=True)
        written.append(out / name)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "static" / "icons"):
        print(path)
