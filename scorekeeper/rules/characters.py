"""The characters a name, a title or a reason may not hold (RULES.md §8): what is invisible or
disguises the text, and what breaks a line; how a message names them, and text as a page may
show it again."""

from __future__ import annotations

import unicodedata

from .words import N_, _

#: Unicode's control (Cc), format (Cf: zero-width, bidirectional overrides …), surrogate and
#: private-use characters: none of them belongs in a name, a title or a reason.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co"})
#: Letters, marks and symbols that show nothing (Unicode's ignorable fillers, the blank braille
#: cell): a name of them looks empty, and one ending in them looks like another's.
_BLANK = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
_JOINER = "\u200d"  # joins emoji into one (👩‍👧); alone, it hides
VISIBLE = frozenset("LNPS")


def _joins_emoji(text: str, at: int) -> bool:
    """Whether the zero-width joiner at ``at`` sits inside an emoji sequence (symbol ZWJ symbol)."""
    before, after = text[at - 1: at], text[at + 1: at + 2]
    return (bool(before) and bool(after) and unicodedata.category(after) == "So"
            and unicodedata.category(before) in ("So", "Sk", "Mn"))


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that would be invisible or disguise the text, if any.

    >>> hidden_character("Ann"), hidden_character("\U0001f469\u200d\U0001f467")
    (None, None)
    >>> [hex(ord(hidden_character(text)))
    ...  for text in ("A\u200bnn", "Bob\u202e", "A" + chr(0), "Bob\u3164")]
    ['0x200b', '0x202e', '0x0', '0x3164']
    """
    for at, char in enumerate(text):
        if _hides(text, at):
            return char
    return None


def _hides(text: str, at: int) -> bool:
    char = text[at]
    return ((unicodedata.category(char) in _HIDDEN or char in _BLANK)
            and not (char == _JOINER and _joins_emoji(text, at)))


_CONTROL_NAMES = {"\x00": N_("null"), "\x1b": N_("escape"), "\x7f": N_("delete"),
                  "\x08": N_("backspace")}


def visible(value: object) -> str:
    """Text as a page may show it again: without the invisible characters ``hidden_character``
    finds (a refused entry is shown back for correcting, never written raw into the page).

    >>> visible("rev" + chr(0) + "oke" + chr(27) + "[2J")
    'revoke[2J'
    """
    text = "" if value is None else str(value)
    if hidden_character(text) is None:
        return text
    return "".join(char for at, char in enumerate(text) if not _hides(text, at))


def character_name(char: str) -> str:
    """How a message names an invisible character: its Unicode name (in English: Unicode names no
    other), else its code point."""
    control = _CONTROL_NAMES.get(char)
    return _(control) if control else unicodedata.name(char, f"U+{ord(char):04X}").lower()


#: What breaks a line or jumps to a column: refused inside a name or a title (RULES.md §8: no
#: control characters), which is written on one line.
LINE_BREAKS = frozenset("\n\r\t\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029")
