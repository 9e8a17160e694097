"""Text for the terminal: Discord markdown made plain, "You" given its grammar, and move lines.

The renderers and engines write for Discord (``**bold**``, ```code```) and about a named seat
("{s0} takes a2", "{s0}'s turn"). In a terminal the markup is noise, and when the person is
called "You" the sentences must read "You take a2", "Your turn", "You win".
"""

from __future__ import annotations

import re

YOU = "You"

_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_CODE = re.compile(r"`([^`\n]*)`")
# *italic*: the opening star follows no word character and precedes a non-space; the closing one
# the reverse, so a lone stand-in mark ("price 4*", "(*stand-in price)") is kept.
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])")
_STRIKE = re.compile(r"~~(.+?)~~")


def plain(text: str) -> str:
    """``text`` without Discord markdown: bold, italics, code and strike-through marks removed,
    their contents kept."""
    text = _CODE.sub(r"\1", text)
    text = _BOLD.sub(lambda m: m.group(1) or m.group(2), text)
    text = _STRIKE.sub(r"\1", text)
    return _ITALIC.sub(r"\1", text)


_IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
_VERB_AFTER_YOU = re.compile(r"\bYou (\w+)\b")
_POSSESSIVE = re.compile(r"\bYou's\b")
# a second verb of the same clause: "You buy Dhoni X and escapes"
_AND_VERB = re.compile(r"(\bYou [^.;:·!?\n]*? and )([a-z]+s)\b")
# words after which "You" is an object ("waiting for You", "gives You 2 cards")
_OBJECT_AFTER = (
    "for",
    "to",
    "with",
    "from",
    "by",
    "than",
    "and",
    "of",
    "gives",
    "pays",
    "asks",
    "offers",
    "outbids",
    "beats",
    "lets",
    "against",
)
_AFTER_COMMA = re.compile(r"(?<=, )You\b(?!')")
_OBJECT = re.compile(r"\b(" + "|".join(_OBJECT_AFTER) + r") You\b")


def _plural(verb: str) -> str:
    """The form of a third-person singular verb that goes with "you" ("takes" -> "take")."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if len(verb) < 3 or not verb.islower() or not verb.endswith("s") or verb.endswith("ss"):
        return verb
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def second_person(text: str) -> str:
    """``text`` about a seat named "You" rewritten in the second person: "You's turn" -> "Your
    turn", "You takes" -> "You take", "You is" -> "You are", "You buy X and escapes" -> "You buy X
    and escape", "waiting for You" -> "waiting for you". Text without "You" is returned unchanged."""
    if YOU not in text:
        return text
    text = _POSSESSIVE.sub("Your", text)
    text = _VERB_AFTER_YOU.sub(lambda m: f"You {_plural(m.group(1))}", text)
    text = _AND_VERB.sub(lambda m: m.group(1) + _plural(m.group(2)), text)
    text = _OBJECT.sub(lambda m: f"{m.group(1)} you", text)
    return _AFTER_COMMA.sub("you", text)  # "AI Chen gives t13, you give t17"


def description(action: str, label: str) -> str:
    """What ``label`` (the game's label for ``action``) adds to the action's text: "" when it
    only repeats it; "Great Statue (1 V)" for ("take a1", "Take a1 · Great Statue (1 V)")."""
    if label.strip().lower() == action.lower():
        return ""
    head = label[: len(action)]
    rest = label[len(action) :]
    if head.lower() == action.lower():
        for sep in (" · ", " — ", ": ", " - "):
            if rest.startswith(sep):
                return rest[len(sep) :].strip()
        if rest.startswith(" (") and rest.endswith(")"):
            return rest[2:-1].strip()
    return label.strip()


def move_lines(actions: list[str], labels: list[str], numbers: list[int] | None = None) -> list[str]:
    """One numbered line per move: ``"  [1] take a1 — Great Statue (1 V)"``; ``numbers`` (default
    1, 2, …) are the moves' numbers."""
    numbers = numbers if numbers is not None else list(range(1, len(actions) + 1))
    width = len(str(max(numbers, default=1)))
    out = []
    for k, a, lab in zip(numbers, actions, labels, strict=True):
        desc = description(a, lab)
        out.append(f"  [{k:>{width}}] {a}" + (f" — {desc}" if desc else ""))
    return out
