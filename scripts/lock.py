"""Writes requirements.lock from two resolutions of pyproject.toml (``make lock``): what the app
needs to run, then, below the line ``TEST_MARK``, what the test tools add. The second resolution is
made with the first as its constraint, so a package in both has one pin and the same hashes, and
the part above the line is the whole of what ``make run`` installs.

    python scripts/lock.py RUN ALL < header > requirements.lock
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: The line between the two parts (the Makefile's TEST_MARK).
TEST_MARK = "# ---- test tools only (make test), below this line ----"


def blocks(text: str) -> dict[str, str]:
    """The pinned packages of a compiled requirements file, each with its hashes and comments, by
    name.

    >>> blocks("# header\\nflask==3.1 \\\\\\n    --hash=sha256:ab\\n    # via scorekeeper\\n")
    {'flask': 'flask==3.1 \\\\\\n    --hash=sha256:ab\\n    # via scorekeeper\\n'}
    """
    found: dict[str, str] = {}
    name = ""
    for line in text.splitlines(keepends=True):
        pin = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==", line)
        if pin:
            name = pin.group(1).lower()
            found[name] = line
        elif name and line.startswith((" ", "\t")):
            found[name] += line
        else:
            name = ""
    return found


def merged(run: str, everything: str) -> str:
    """The run part, the line, then the packages only the test tools need."""
    first, all_of = blocks(run), blocks(everything)
    for name, block in first.items():
        pin = block.split(" ", 1)[0]
        if not all_of.get(name, "").startswith(pin + " "):
            raise SystemExit(f"{name}: pinned as {pin} to run, not so with the test tools")
    rest = {name: block for name, block in all_of.items() if name not in first}
    return "".join(first.values()) + TEST_MARK + "\n" + "".join(rest.values())


if __name__ == "__main__":
    sys.stdout.write(sys.stdin.read() + merged(Path(sys.argv[1]).read_text(),
                                               Path(sys.argv[2]).read_text()))
