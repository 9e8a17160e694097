"""The Kathai action grammar: parsing and formatting, and sample texts for the property suite.

Rulings: docs/rules/kathai.md#bribe-pair-goods-order, docs/rules/kathai.md#no-leading-zeros,
docs/rules/kathai.md#trade-is-an-exchange.

Canonical forms::

    sell <goods> <id>...                 ids sorted numerically, no duplicates
    bribe <goods> <goods> <id|profit>    the pair in goods order (see below)
    buy | pass | decline
    swap <id>
    offer <all|sN> [<id>...] for <goods|any> <k>    k 0..7; k = 0 only with `any`
    accept [<id>...]

Any case and any white space are accepted; ids and numbers have no leading zeros. A goods may
be typed as its code, its plural or the name the board prints (``Spices``, ``teas``).

The bribe pair (docs/rules/kathai.md#bribe-pair-goods-order): left goods first would need the
state to normalise a typed text. This engine writes it in **goods order** (gold < salt < silk <
spice < tea) so that the parser can normalise it without the state and every action keeps
exactly one text: ``bribe tea gold t7`` parses to ``bribe gold tea t7`` whatever the market. (A
text that ``apply`` accepts must be in the legal list for the shared property suite; an
order-tolerant ``apply`` beside a position-order legal list would break that.)
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import NamedTuple

from engines.errors import BadNotation
from engines.kathai.data import (
    ANY,
    CARD_TEXT,
    GOODS,
    HAND_LIMIT,
    MAX_OFFERS_CAP,
    NAMES,
    NCARDS,
    NGOODS,
    TURN_LIMIT_CAP,
    WANTS,
)
from engines.kathai.state import ALL

PROFIT = 0
"""Bribe payment meaning "my lowest profit card"."""

VERBS = ("accept", "bribe", "buy", "decline", "offer", "pass", "sell", "swap")
_GOODS_IDX = {g: i for i, g in enumerate(GOODS)}
_WANT_IDX = {g: i for i, g in enumerate(WANTS)}
_GOODS_WORDS = {
    **{w: i for i, g in enumerate(GOODS) for w in (g, g + "s", NAMES[g].lower())},
    **_GOODS_IDX,
}
"""Every word a goods may be typed as (lower case): its code, the plural, the name the board
prints ("spices")."""
_CARD_IDX = {CARD_TEXT[c]: c for c in range(1, NCARDS + 1)}
_SEAT_IDX = {f"s{i}": i for i in range(5)}


class Move(NamedTuple):
    """A parsed action. ``ids``: cards (sell, swap, offer give, accept); ``goods``: sold goods;
    ``pair``: bribe goods (goods order); ``pay``: bribe card or :data:`PROFIT`; ``target``: offer
    seat or ``ALL``; ``want``: goods index or ``ANY``; ``k``: cards asked."""

    verb: str
    ids: tuple[int, ...] = ()
    goods: int = -1
    pair: tuple[int, int] = (-1, -1)
    pay: int = -1
    target: int = -2
    want: int = -1
    k: int = -1


def ids_text(ids: tuple[int, ...]) -> str:
    """``"t3 t17"`` for (3, 17)."""
    return " ".join([CARD_TEXT[c] for c in ids])


def seat_text(target: int) -> str:
    """``"all"`` or ``"s2"``."""
    return "all" if target == ALL else f"s{target}"


def offer_text(target: int, give: tuple[int, ...], want: int, k: int) -> str:
    """The canonical text of an offer."""
    g = (" " + ids_text(give)) if give else ""
    return f"offer {seat_text(target)}{g} for {WANTS[want]} {k}"


def format_move(m: Move) -> str:
    """The canonical text of ``m``."""
    v = m.verb
    if v == "sell":
        return f"sell {GOODS[m.goods]} {ids_text(m.ids)}"
    if v == "bribe":
        pay = "profit" if m.pay == PROFIT else CARD_TEXT[m.pay]
        return f"bribe {GOODS[m.pair[0]]} {GOODS[m.pair[1]]} {pay}"
    if v == "swap":
        return f"swap {CARD_TEXT[m.ids[0]]}"
    if v == "offer":
        return offer_text(m.target, m.ids, m.want, m.k)
    if v == "accept":
        return ("accept " + ids_text(m.ids)) if m.ids else "accept"
    return v


def _card(tok: str) -> int:
    c = _CARD_IDX.get(tok)
    if c is None:
        raise BadNotation(f"`{tok[:20]}` is not a card: cards are t1 to t55 (no leading zeros).")
    return c


def _cards(toks: list[str]) -> tuple[int, ...]:
    ids = [_CARD_IDX.get(t, 0) for t in toks]
    if 0 in ids:
        _card(toks[ids.index(0)])  # raises for the first token that is not a card
    if len(set(ids)) != len(ids):
        raise BadNotation("A card is named twice.")
    return tuple(sorted(ids))


def goods_word(tok: str) -> int | None:
    """The goods ``tok`` names (lower case: a code, a plural or the board's name), or None."""
    return _GOODS_WORDS.get(tok)


def _goods(tok: str) -> int:
    g = _GOODS_WORDS.get(tok)
    if g is None:
        raise BadNotation(f"`{tok[:20]}` is not a goods: {', '.join(GOODS)}.")
    return g


def parse_move(text: str) -> Move:
    """Parse any-case, any-spacing text into a :class:`Move`. Raises :class:`BadNotation`."""
    if not isinstance(text, str):
        raise BadNotation("An action is a line of text.")
    return _parse(" ".join(text.lower().split()))


@lru_cache(maxsize=1 << 16)
def _parse(text: str) -> Move:
    """:func:`parse_move` of a lower-cased, single-spaced text (cached: texts recur)."""
    toks = text.split()
    if not toks:
        raise BadNotation("Type an action, e.g. `sell salt t3 t17`, `offer all t5 for tea 1` or `pass`.")
    verb, args = toks[0], toks[1:]
    if verb in ("buy", "pass", "decline"):
        if args:
            raise BadNotation(f"`{verb}` takes nothing after it.")
        return Move(verb)
    if verb == "sell":
        if len(args) < 2:
            raise BadNotation("Write `sell <goods> <cards>`, e.g. `sell salt t13 t31`.")
        return Move("sell", ids=_cards(args[1:]), goods=_goods(args[0]))
    if verb == "swap":
        if len(args) != 1:
            raise BadNotation("Write `swap <card>`, e.g. `swap t5`.")
        return Move("swap", ids=(_card(args[0]),))
    if verb == "accept":
        return Move("accept", ids=_cards(args))
    if verb == "bribe":
        if len(args) != 3:
            raise BadNotation("Write `bribe <goods> <goods> <card|profit>`, e.g. `bribe gold tea t7`.")
        a, b = _goods(args[0]), _goods(args[1])
        if a == b:
            raise BadNotation("A bribe swaps two different goods.")
        pay = PROFIT if args[2] == "profit" else _card(args[2])
        return Move("bribe", pair=(min(a, b), max(a, b)), pay=pay)
    if verb == "offer":
        return _parse_offer(args)
    raise BadNotation(f"`{verb[:20]}` is not a Kathai action: {', '.join(VERBS)}.")


def _parse_offer(args: list[str]) -> Move:
    usage = "Write `offer <all|seat> <cards> for <goods|any> <k>`, e.g. `offer all t1 t2 for salt 1`."
    if len(args) < 4 or args[-3] != "for":
        raise BadNotation(usage)
    target_tok, give_toks, want_tok, k_tok = args[0], args[1:-3], args[-2], args[-1]
    if target_tok == "all":
        target = ALL
    elif target_tok in _SEAT_IDX:
        target = _SEAT_IDX[target_tok]
    else:
        raise BadNotation(f"`{target_tok[:20]}` is not a player: offer to `all` or to a seat such as `s1`.")
    want = ANY if want_tok == "any" else _GOODS_WORDS.get(want_tok)
    if want is None:
        raise BadNotation(f"`{want_tok[:20]}` is not a goods: {', '.join(WANTS)}.")
    if not (k_tok.isdigit() and k_tok.isascii()) or (len(k_tok) > 1 and k_tok[0] == "0"):
        raise BadNotation(f"`{k_tok[:20]}` is not a number of cards (0 to 7, no leading zeros).")
    k = int(k_tok)
    if k > HAND_LIMIT:
        raise BadNotation(f"Ask for at most {HAND_LIMIT} cards, not {k}.")
    if k == 0 and want != ANY:
        raise BadNotation("A gift asks for nothing: write it `for any 0`.")
    give = _cards(give_toks)
    if not give and k == 0:
        raise BadNotation("An offer must give or ask for at least one card.")
    return Move("offer", ids=give, target=target, want=want, k=k)


def parse(text: str) -> str:
    """The canonical text of ``text``. Raises :class:`BadNotation`."""
    if not isinstance(text, str):
        raise BadNotation("An action is a line of text.")
    return _canon(" ".join(text.lower().split()))


_TARGETS = frozenset(["all", *_SEAT_IDX])
_KS = {str(k): k for k in range(HAND_LIMIT + 1)}


@lru_cache(maxsize=1 << 16)
def _canon(text: str) -> str:
    toks = text.split(" ")
    if toks[0] == "offer" and len(toks) >= 5 and toks[1] in _TARGETS and toks[-3] == "for":
        # fast path for the commonest (and most numerous) texts: an already canonical offer
        want, k = toks[-2], _KS.get(toks[-1], -1)
        if want in _WANT_IDX and k >= 0 and (k > 0 or want == "any"):
            last, ok = 0, True
            for tok in toks[2:-3]:
                c = _CARD_IDX.get(tok, 0)
                if c <= last:
                    ok = False
                    break
                last = c
            if ok and (last or k):
                return text
    return format_move(_parse(text))


# --------------------------------------------------------------------------- for the property suite


def action_bound(n_players: int) -> int:
    """(max offers × n + 1) actions a turn times the turn limit, at the options' caps."""
    return (MAX_OFFERS_CAP * n_players + 1) * TURN_LIMIT_CAP


def sample_actions(n_players: int, rng: random.Random, k: int) -> list[str]:
    """``k`` random well-formed canonical texts over every verb (legal or not)."""
    return [format_move(_sample(n_players, rng)) for _ in range(k)]


def _sample(n_players: int, rng: random.Random) -> Move:
    verb = rng.choice(("accept", "bribe", "buy", "decline", "offer", "pass", "sell", "swap"))
    ids = tuple(sorted(rng.sample(range(1, NCARDS + 1), rng.randint(1, 4))))
    if verb == "sell":
        return Move("sell", ids=ids, goods=rng.randrange(NGOODS))
    if verb == "bribe":
        a, b = sorted(rng.sample(range(NGOODS), 2))
        return Move("bribe", pair=(a, b), pay=rng.choice((PROFIT, ids[0])))
    if verb == "swap":
        return Move("swap", ids=ids[:1])
    if verb == "accept":
        return Move("accept", ids=ids[: rng.randint(0, 3)])
    if verb == "offer":
        kk = rng.randint(0, HAND_LIMIT)
        want = len(WANTS) - 1 if kk == 0 else rng.randrange(len(WANTS))
        give = ids[: rng.randint(0 if kk else 1, len(ids))]
        return Move("offer", ids=give, target=rng.choice((ALL, *range(n_players))), want=want, k=kk)
    return Move(verb)
