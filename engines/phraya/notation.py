"""The Phraya action grammar (docs/rules/phraya.md#notation): parsing to canonical text, and well-formed
samples.

Canonical text is lowercase, single-spaced, verb first. The parser lower-cases and collapses
white space and rejects everything else with :class:`BadNotation`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engines.base import BadNotation
from engines.phraya import data
from engines.phraya.data import CARDS, KING_SPACES, MARKET_IDS, board

GOODS = frozenset(data.GOODS)


SECTIONS = frozenset(board.SECTIONS)


CROSSINGS = frozenset(board.CROSSINGS)


STALLS = frozenset(board.STALLS)


CARD_IDS = frozenset(CARDS)


MARKET = frozenset(MARKET_IDS)


SPACES = frozenset(KING_SPACES)


_NOARG = frozenset({"done", "refresh", "keep", "deliver", "end", "basket"})


MAX_MERCHANT = len(data.MERCHANT_ROUTE) - 1


MAX_MOD = 6


MAX_BUY = data.GOODS_SUPPLY


FORMS = (
    "boat S",
    "stall ID",
    "play C",
    "merchant +d/-d/0",
    "price G ±k [G ±k]",
    "barge X",
    "discard G|flower",
    "done",
    "premove S",
    "move S",
    "refresh",
    "keep",
    "buy ID n [favor k]",
    "sell ID n",
    "basket [favor]",
    "rower meat|fish|favor",
    "deliver",
    "temple G [favor]",
    "scribe C coins|flowers",
    "king SPACE",
    "end",
)


def _bad(text: str, why: str = "") -> BadNotation:
    shown = text[:40]
    forms = ", ".join(f"`{f}`" for f in FORMS)
    return BadNotation(f"`{shown}` is not a Phraya move{': ' + why if why else ''}. Moves: {forms}.")


def _count(tok: str, hi: int) -> int | None:
    """A positive count without leading zeros, at most ``hi``."""
    if not tok.isdigit() or tok[0] == "0" or len(tok) > 3:
        return None
    v = int(tok)
    return v if 1 <= v <= hi else None


def _signed(tok: str, hi: int) -> int | None:
    if len(tok) < 2 or tok[0] not in "+-":
        return None
    v = _count(tok[1:], hi)
    return None if v is None else (v if tok[0] == "+" else -v)


def parse(text: str) -> str:
    """The canonical text of ``text``; raises :class:`BadNotation` if it is not well formed."""
    if not isinstance(text, str):
        raise _bad(repr(text))
    t = text.strip().lower().split()
    if not t:
        raise BadNotation("Empty move. Moves: " + ", ".join(f"`{f}`" for f in FORMS) + ".")
    canon = " ".join(t)
    v, a = t[0], t[1:]
    ok = False
    if v in _NOARG and not a:
        ok = True
    elif v in ("boat", "move", "premove") and len(a) == 1:
        ok = a[0] in SECTIONS
    elif v == "stall" and len(a) == 1:
        ok = a[0] in STALLS
    elif v == "play" and len(a) == 1:
        ok = a[0] in CARD_IDS
    elif v == "merchant" and len(a) == 1:
        ok = a[0] == "0" or _signed(a[0], MAX_MERCHANT) is not None
    elif v == "price" and len(a) in (2, 4):
        ok = all(a[i] in GOODS and _signed(a[i + 1], MAX_MOD) is not None for i in range(0, len(a), 2)) and (
            len(a) == 2 or a[0] != a[2]
        )
    elif v == "barge" and len(a) == 1:
        ok = a[0] in CROSSINGS
    elif v == "discard" and len(a) == 1:
        ok = a[0] in GOODS or a[0] == "flower"
    elif v == "buy" and len(a) in (2, 4):
        n = _count(a[1], MAX_BUY) if len(a) > 1 else None
        ok = a[0] in STALLS and n is not None
        if ok and len(a) == 4:
            k = _count(a[3], MAX_BUY)
            ok = a[2] == "favor" and k is not None and n is not None and k <= n
    elif v == "sell" and len(a) == 2:
        ok = a[0] in STALLS and _count(a[1], MAX_BUY) is not None
    elif v == "basket" and len(a) == 1:
        ok = a[0] == "favor"
    elif v == "rower" and len(a) == 1:
        ok = a[0] in ("meat", "fish", "favor")
    elif v == "temple" and len(a) in (1, 2):
        ok = a[0] in GOODS and (len(a) == 1 or a[1] == "favor")
    elif v == "scribe" and len(a) == 2:
        ok = a[0] in MARKET and a[1] in ("coins", "flowers")
    elif v == "king" and len(a) == 1:
        ok = a[0] in SPACES
    if not ok:
        raise _bad(canon)
    return canon


def sample(rng: random.Random, k: int) -> list[str]:
    """``k`` well-formed action texts drawn with ``rng``, cycling through every verb."""
    goods = sorted(GOODS)
    secs = sorted(SECTIONS)
    stalls = sorted(STALLS)
    gens: list[Callable[[], str]] = [
        lambda: "boat " + rng.choice(secs),
        lambda: "stall " + rng.choice(stalls),
        lambda: "play " + rng.choice(sorted(CARD_IDS)),
        lambda: "merchant " + rng.choice(["0", "+1", "-1", "+2", "-2", "+3", "-3"]),
        lambda: _sample_price(rng, goods),
        lambda: "barge " + rng.choice(sorted(CROSSINGS)),
        lambda: "discard " + rng.choice([*goods, "flower"]),
        lambda: "done",
        lambda: "premove " + rng.choice(secs),
        lambda: "move " + rng.choice(secs),
        lambda: rng.choice(["refresh", "keep"]),
        lambda: _sample_buy(rng, stalls),
        lambda: f"sell {rng.choice(stalls)} {rng.randint(1, 5)}",
        lambda: rng.choice(["basket", "basket favor"]),
        lambda: "rower " + rng.choice(["meat", "fish", "favor"]),
        lambda: "deliver",
        lambda: "temple " + rng.choice(goods) + rng.choice(["", " favor"]),
        lambda: f"scribe {rng.choice(sorted(MARKET))} {rng.choice(['coins', 'flowers'])}",
        lambda: "king " + rng.choice(sorted(SPACES)),
        lambda: "end",
    ]
    start = rng.randrange(len(gens))
    return [gens[(start + i) % len(gens)]() for i in range(k)]


def _sample_price(rng: random.Random, goods: list[str]) -> str:
    a, b = rng.sample(goods, 2)
    m1, m2 = rng.choice(["+1", "+2", "+3", "-1", "-2", "-3"]), rng.choice(["-1", "-2", "+1", "+2"])
    return f"price {a} {m1} {b} {m2}" if rng.random() < 0.7 else f"price {a} {m1}"


def _sample_buy(rng: random.Random, stalls: list[str]) -> str:
    n = rng.randint(1, 5)
    sid = rng.choice(stalls)
    if rng.random() < 0.5:
        return f"buy {sid} {n}"
    return f"buy {sid} {n} favor {rng.randint(1, n)}"


def action_bound(n_players: int) -> int:
    """An upper bound on a game's actions: 2 set-up actions a seat, then at most 35 a turn over the
    default 50 rounds."""
    return 2 * n_players + 35 * n_players * 50
