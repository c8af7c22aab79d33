"""The running totals as a small SVG line chart, drawn here: no charting library, no service.

Lines are told apart by dash pattern and a seat number at their end, never by colour alone,
so the chart survives a black-and-white printer. Names are escaped like any other text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from markupsafe import Markup

from ..rules.words import _
from . import wording

#: One stroke-dasharray per seat (up to 10 players): solid, dashes, dots and dash-dot mixes.
DASHES = ("", "6 3", "1.5 2", "9 3 2 3", "4 4", "12 3", "5 2 1.5 2 1.5 2", "2 5", "9 2 2 2 2 2",
          "16 4 4 4")
WIDTH, HEIGHT = 360.0, 150.0
LEFT, RIGHT, TOP, BOTTOM = 28.0, 248.0, 8.0, 130.0  # the plot area; the legend sits to its right
FONT_SIZE = 9.0
LABEL_GAP = FONT_SIZE + 1  # end labels a line apart: their boxes (a font size tall) never touch
MAX_LEGEND_NAME = 12


def nice_step(span: float, ticks: int = 4) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks.

    >>> nice_step(200), nice_step(37), nice_step(0)
    (50.0, 10.0, 1.0)
    """
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def spread(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Label positions nearest ``ys`` in their order, ``gap`` apart at least, in [low, high].

    Nearest: the least sum of squared moves. In sorted order, taking k × gap from the k-th
    position turns "gap apart" into "in order": runs out of order are pooled at their mean,
    then all are moved inside the bounds. Without room for them all, the labels are stacked
    down from ``low``.

    >>> spread([50, 51, 52], 7, 0, 100)
    [44.0, 51.0, 58.0]
    >>> spread([100, 100, 0, 96], 10, 0, 100)
    [90.0, 100.0, 0.0, 80.0]
    """
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    runs: list[tuple[float, int]] = []  # (sum of the shifted positions, how many)
    for k, i in enumerate(order):
        total, count = float(ys[i]) - k * gap, 1
        while runs and runs[-1][0] / runs[-1][1] > total / count:
            total, count = total + runs[-1][0], count + runs[-1][1]
            runs.pop()
        runs.append((total, count))
    top = float(max(low, high - (len(ys) - 1) * gap))
    shifted = [min(max(total / count, low), top) for total, count in runs for _ in range(count)]
    placed = [0.0] * len(ys)
    for k, i in enumerate(order):
        placed[i] = shifted[k] + k * gap
    return placed


def shorten(name: str, limit: int) -> str:
    """A name cut to ``limit`` characters, an ellipsis saying so.

    >>> shorten("Bartholomew", 8), shorten("Ann", 8)
    ('Barthol…', 'Ann')
    """
    return name if len(name) <= limit else name[: limit - 1] + "…"


def thinned(line: Sequence[tuple[int, float]], every: int) -> list[tuple[int, float]]:
    """A line through every ``every``-th x only (its first and last points kept): a chart a few
    hundred points wide shows no more of a line of thousands, and its page weighs less.

    >>> thinned([(x, x * 10.0) for x in range(8)], 3)
    [(0, 0.0), (3, 30.0), (6, 60.0), (7, 70.0)]
    >>> thinned([(1, 5.0), (2, 6.0)], 1)
    [(1, 5.0), (2, 6.0)]
    """
    if every <= 1 or len(line) <= 2:
        return list(line)
    return [point for n, point in enumerate(line)
            if n in (0, len(line) - 1) or point[0] % every == 0]


def running_totals_svg(names: Sequence[str], series: Sequence[Sequence[Fraction | None]],
                       ink: str = "#000") -> Markup:
    """An SVG chart of each player's total after every deal (``series[p][0]`` is the start, 0), in
    ``ink`` (black on the sheet, the text's colour on a page); a None is a deal before the player
    joined the game, where their line has not started yet."""
    lines = [[(deal, float(v)) for deal, v in enumerate(line) if v is not None] for line in series]
    return lines_svg(names, lines, _("Running totals"), _("deal"), ink)


def lines_svg(names: Sequence[str], series: Sequence[Sequence[tuple[int, float]]], label: str,
              axis: str, ink: str = "#000") -> Markup:
    """An SVG chart of one line per name through its (x, value) points, x counted from 0 along
    ``axis``; a line may start and end anywhere along it. ``ink`` is the colour of everything
    drawn (``currentColor`` on a page: the text's colour, light or dark)."""
    values = [v for line in series for _, v in line]
    step = nice_step(max(values) - min(values, default=0) if values else 0)
    low = math.floor(min(values + [0.0]) / step) * step
    high = max(math.ceil(max(values + [0.0]) / step) * step, low + step)
    deals = max((x for line in series for x, _ in line), default=0)
    height = max(HEIGHT, TOP + 4 + len(series) * 13 + 8)
    bottom = BOTTOM + height - HEIGHT
    stroke = Markup('fill="none" stroke="{}" stroke-width="1.1"').format(ink)

    def x(deal: int) -> float:
        return round(LEFT + (RIGHT - LEFT) * deal / max(deals, 1), 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - TOP) * (value - low) / (high - low), 1)

    parts = [Markup('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" '
                    'role="img" aria-label="{}" font-family="DejaVu Sans" '
                    'font-size="{}" fill="{}">').format(WIDTH, height, label, FONT_SIZE, ink)]
    # Few elements: each one costs the PDF renderer; the grid is one path, the zero line another.
    ticks = [low + k * step for k in range(round((high - low) / step) + 1)]
    grid = " ".join(f"M{LEFT} {y(t)}H{RIGHT}" for t in ticks if t != 0)
    parts.append(Markup('<path d="{}" stroke="#bbb" stroke-width="0.5"/>'
                        '<path d="M{} {}H{}" stroke="#555" stroke-width="0.6"/>').format(
        grid, LEFT, y(0), RIGHT))
    for tick in ticks:
        parts.append(Markup('<text x="{}" y="{}" text-anchor="end">{}</text>').format(
            LEFT - 3, y(tick) + 3, wording.tick(tick)))
    every = max(1, int(nice_step(deals, 6)))
    for deal in range(every, deals + 1, every):
        parts.append(Markup('<text x="{}" y="{}" text-anchor="middle">{}</text>').format(
            x(deal), bottom + 10, deal))
    parts.append(Markup('<text x="{}" y="{}" text-anchor="end">{}</text>').format(
        RIGHT, height - 1, axis))
    # Between the plot's top and bottom: lower, a label would meet the deal numbers below.
    ends = spread([y(line[-1][1]) if line else bottom for line in series], LABEL_GAP, TOP, bottom)
    for seat, line in enumerate(series):
        dash = DASHES[seat % len(DASHES)] or "none"
        points = " ".join(f"{x(d)},{y(v)}" for d, v in line)
        row = TOP + 4 + seat * 13
        last = line[-1][0] if line else 0
        parts.append(Markup(
            '<polyline points="{}" stroke-dasharray="{}" {}/>'
            '<text x="{}" y="{}" font-weight="bold">{}</text>'
            '<path d="M{} {}H{}" stroke-dasharray="{}" {}/>'
            '<text x="{}" y="{}">{} {}</text>').format(
            points, dash, stroke, x(last) + 3, round(ends[seat] + 3, 1), seat + 1,
            RIGHT + 16, row, RIGHT + 38, dash, stroke, RIGHT + 41, row + 3.2, seat + 1,
            shorten(names[seat], MAX_LEGEND_NAME)))
    parts.append(Markup("</svg>"))
    return Markup("").join(parts)
