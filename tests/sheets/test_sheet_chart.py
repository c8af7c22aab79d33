"""The running-totals chart: SVG drawn by the app, lines told apart without
colour, names escaped."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from itertools import pairwise
from xml.etree import ElementTree

import pytest

from scorekeeper.play.chart import DASHES, HEIGHT, running_totals_svg, spread

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
    ends = [float(line.get("points", "").split()[-1].split(",")[1])
            for line in root.iter(f"{SVG}polyline")]
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
    numbers = re.findall(r"-?\d+(?:\.\d+)?",
                         " ".join(l.get("points", "") for l in root.iter(f"{SVG}polyline")))
    assert len(numbers) == 8 * 26 * 2


def end_labels(root: ElementTree.Element) -> list[float]:
    """The baselines of the seat numbers at the lines' ends, in seat order."""
    labels = [t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert [t.text for t in labels] == [str(seat + 1) for seat in range(len(labels))]
    return [float(t.get("y", "")) for t in labels]


def line_ends(root: ElementTree.Element) -> list[float]:
    return [float(line.get("points", "").split()[-1].split(",")[1])
            for line in root.iter(f"{SVG}polyline")]


@pytest.mark.parametrize(
    "finals",
    [[40, 40], [40, 41], [7] * 10, [100, 99, 98, 97, 0, 1, 2, 50, 51, 100], [0, 0, 0, -300, 5000]],
)
def test_end_labels_never_overlap_and_keep_the_order_of_the_totals(finals: list[int]) -> None:
    root = chart([f"P{seat}" for seat in range(len(finals))],
                 [[0, total // 2, total] for total in finals])
    baselines = end_labels(root)
    size = float(root.get("font-size", ""))
    # Each label's box is a font size tall: baselines a font size apart never overlap.
    assert all(b - a >= size for a, b in pairwise(sorted(baselines)))
    assert all(size <= y <= HEIGHT for y in baselines)
    # Higher totals higher up (SVG y grows downwards); tied seats in seat order.
    by_total = sorted(range(len(finals)), key=lambda seat: (-finals[seat], seat))
    assert sorted(range(len(finals)), key=lambda seat: baselines[seat]) == by_total


def test_an_end_label_with_room_sits_at_its_line_end() -> None:
    root = chart(["Ann", "Bob", "Cy"], [[0, 100], [0, 50], [0, 0]])
    assert [round(y - end, 1)
            for y, end in zip(end_labels(root), line_ends(root))] == [3.0, 3.0, 3.0]


def test_spread_labels_of_any_totals_are_apart_in_bounds_and_in_order() -> None:
    rng = random.Random(10)
    for _ in range(500):
        ys = [rng.choice([rng.uniform(0, 120), 0.0, 60.0, 120.0])
              for _ in range(rng.randint(1, 10))]
        placed = spread(ys, 10, 0, 120)
        assert all(b - a >= 10 - 1e-9 for a, b in pairwise(sorted(placed)))
        assert all(-1e-9 <= y <= 120 + 1e-9 for y in placed)
        assert all(placed[i] < placed[j]
                   for i in range(len(ys)) for j in range(len(ys)) if ys[i] < ys[j])


def test_spread_moves_labels_no_further_than_they_must() -> None:
    assert spread([10.0, 50.0], 10, 0, 100) == [10.0, 50.0]
    assert spread([50.0, 50.0], 10, 0, 100) == [45.0, 55.0]  # a tie: each moves half the gap
    assert spread([0.0, 0.0, 0.0], 10, 0, 100) == [0.0, 10.0, 20.0]  # pushed inside the bound
