"""The running-totals chart: SVG drawn by the app, lines told apart without colour, names escaped."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise
from xml.etree import ElementTree

from scorekeeper.chart import DASHES, running_totals_svg, spread

SVG = "{http://www.w3.org/2000/svg}"


def chart(names: list[str], series: list[list[int]]) -> ElementTree.Element:
    markup = running_totals_svg(names, [[Fraction(v) for v in line] for line in series])
    return ElementTree.fromstring(str(markup))


def test_one_line_per_player_each_with_its_own_dash_pattern() -> None:
    root = chart(["Ann", "Bob", "Cy"], [[0, 11, 23], [0, 1, 12], [0, 10, 10]])
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 3
    assert len({line.get("stroke-dasharray") for line in lines}) == 3
    assert all(line.get("stroke") == "#000" for line in lines)  # black: told apart by dashes
    assert [len(line.get("points", "").split()) for line in lines] == [3, 3, 3]
    assert len(set(DASHES)) == len(DASHES) == 10


def test_higher_totals_are_drawn_higher_up() -> None:
    root = chart(["Ann", "Bob"], [[0, 30], [0, -10]])
    ends = [float(line.get("points", "").split()[-1].split(",")[1]) for line in root.iter(f"{SVG}polyline")]
    assert ends[0] < ends[1]  # SVG y grows downwards


def test_the_legend_escapes_names() -> None:
    markup = str(running_totals_svg(["<i>x</i>", "A & B"], [[Fraction(0), Fraction(1)]] * 2))
    assert "<i>" not in markup and "&lt;i&gt;x&lt;/i&gt;" in markup
    assert "A &amp; B" in markup
    texts = "".join(ElementTree.fromstring(markup).itertext())
    assert "<i>x</i>" in texts


def test_end_labels_are_kept_apart() -> None:
    placed = spread([50.0, 50.5, 51.0, 90.0], 8, 0, 100)
    ordered = sorted(placed)
    assert all(b - a >= 8 - 1e-9 for a, b in pairwise(ordered))
    assert placed[3] == 90.0


def test_no_path_grows_with_anything_but_the_deals() -> None:
    root = chart(["A"] * 8, [[0, *range(1, 26)]] * 8)
    numbers = re.findall(r"-?\d+(?:\.\d+)?", " ".join(l.get("points", "") for l in root.iter(f"{SVG}polyline")))
    assert len(numbers) == 8 * 26 * 2
