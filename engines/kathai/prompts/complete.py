"""``/move`` autocomplete for Kathai: the distinct next tokens of legal texts
(docs/rules/kathai.md#largest-offer-list).

Offers are completed from their structure (target, ascending ids, ``for``, want, k) with a
size check per step, so the ~11,000 offer texts are never built to answer a keystroke.
"""

from __future__ import annotations

from engines.kathai.data import ANY, CARD_TEXT, GOODS, SELLABLE, WANTS
from engines.kathai.legal import awaited, legal_small, lock_blocks, offer_ks
from engines.kathai.notation import goods_word, seat_text
from engines.kathai.prompts.menu import sales
from engines.kathai.state import ALL, REPLY, State
from engines.prompt import going_on, next_tokens

_CARD_NUM = {CARD_TEXT[c]: c for c in range(1, len(CARD_TEXT))}
_WANT_NUM = {w: i for i, w in enumerate(WANTS)}
HEAD_ORDER = ("sell", "pass", "swap", "buy", "accept", "decline", "offer", "bribe")
"""The order of the first words offered: the moves a person chooses between first."""


def _targets(s: State) -> list[tuple[str, int]]:
    return [(seat_text(t), t) for t in (ALL, *range(s.n)) if t != s.active]


def _sizes_ok(s: State, t: int, lo: int, hi: int) -> bool:
    """Whether some give size in ``lo..hi`` allows an offer to ``t``."""
    return any(offer_ks(s, t, g) for g in range(lo, hi + 1))


def offer_next(s: State, toks: list[str]) -> list[str]:
    """The possible next tokens of a legal offer after ``offer`` + ``toks`` (complete words)."""
    hand = s.hands[s.active]
    gifts = s.opts.allow_gifts
    if not toks:
        return [name for name, t in _targets(s) if _sizes_ok(s, t, 0 if gifts else 1, len(hand))]
    target = dict(_targets(s)).get(toks[0])
    if target is None:
        return []
    rest = toks[1:]
    cut = rest.index("for") if "for" in rest else len(rest)
    give: list[int] = []
    for tok in rest[:cut]:
        c = _CARD_NUM.get(tok)
        if c is None or c not in hand or (give and c <= give[-1]):
            return []
        give.append(c)
    if cut == len(rest):
        out = []
        if offer_ks(s, target, len(give)):
            out.append("for")
        later = [c for c in hand if not give or c > give[-1]]
        for i, c in enumerate(later):
            left = len(later) - i - 1
            if _sizes_ok(s, target, len(give) + 1, len(give) + 1 + left):
                out.append(CARD_TEXT[c])
        return sorted(out)
    ks = offer_ks(s, target, len(give))
    after = rest[cut + 1 :]
    if not after:
        return sorted(w for i, w in enumerate(WANTS) if any(k or i == ANY for k in ks))
    want = _WANT_NUM.get(after[0])
    if want is None or len(after) > 1:
        return []
    return [str(k) for k in ks if k or want == ANY]


def bribe_next(s: State, seat: int, toks: list[str]) -> list[str]:
    """The possible next tokens of a legal bribe after ``bribe`` + ``toks``, its pair in either
    order (docs/rules/kathai.md#bribe-pair-goods-order): the goods of unlocked neighbouring pairs
    as the board shows them, left first; then each one's neighbours; then the payments."""
    pays = [CARD_TEXT[c] for c in s.hands[seat]] + (["profit"] if s.profit[seat] else [])
    pairs = [(s.market[p], s.market[p + 1]) for p in range(SELLABLE)]
    pairs = [(a, b) for a, b in pairs if not lock_blocks(s, (min(a, b), max(a, b)))]
    if not pays or not pairs:
        return []
    if not toks:
        return [GOODS[g] for g in s.market if any(g in pair for pair in pairs)]
    a = goods_word(toks[0])
    if len(toks) == 1:
        return [GOODS[x if y == a else y] for x, y in pairs if a in (x, y)]
    if len(toks) == 2 and (a, goods_word(toks[1])) in {*pairs, *((y, x) for x, y in pairs)}:
        return pays
    return []


def complete(s: State, seat: int, prefix: str, limit: int = 25) -> list[tuple[str, str]]:
    """Up to ``limit`` (value, label) pairs: the typed words plus one more token of a legal
    text; a complete legal text is offered whole. A value that is not yet a whole action is
    labelled with what comes next (:func:`engines.prompt.going_on`)."""
    if seat not in awaited(s):
        return []
    words = prefix.lower().split()
    partial = "" if not words or prefix[-1:].isspace() else words.pop()
    small = legal_small(s, seat)
    can_offer = s.step != REPLY and s.offers_used < s.opts.max_offers and bool(offer_next(s, []))
    out: list[tuple[str, str]] = []
    if words and words[0] == "offer":
        toks = offer_next(s, words[1:]) if can_offer else []
    elif words and words[0] == "bribe":
        toks = bribe_next(s, seat, words[1:]) if any(a.startswith("bribe ") for a in small) else []
    elif not words:
        # what a person chooses between first (issue #22): each sale whole with its points,
        # then the verbs in the terminal menu's order
        out = [(a, label) for a, label, _ in sales(s, seat) if a.startswith(partial)]
        heads = {a.split(" ", 1)[0] for a in small} | ({"offer"} if can_offer else set())
        toks = sorted(heads, key=lambda h: (HEAD_ORDER.index(h) if h in HEAD_ORDER else len(HEAD_ORDER), h))
    else:
        toks = [v.rsplit(" ", 1)[-1] for v, _ in next_tokens(small, prefix, limit)]
    legal = set(small)
    starts = {" ".join(t[:i]) for t in (a.split(" ") for a in small) for i in range(1, len(t))}
    for tok in toks:
        if tok.startswith(partial) and len(out) < limit:
            value = " ".join([*words, tok])
            out.append((value, _label(value, legal, starts)))
    return out[:limit]


_HINTS = {
    "sell": ("the goods to sell", "the cards to sell", "more cards"),
    "swap": ("a card of your hand",),
    "accept": ("the cards you show", "more cards"),
    "bribe": ("two goods side by side", "the goods beside it", "a card to pay, or profit"),
}


def _hint(toks: list[str]) -> str:
    """What comes after ``toks`` (the words of a text that may go on)."""
    if toks[0] == "offer":
        if len(toks) == 1:
            return "to whom: all or a player"
        if "for" not in toks:
            return "the cards you give, or for"
        return "the goods you ask, or any" if toks[-1] == "for" else "how many cards"
    hints = _HINTS.get(toks[0], ("the next word",))
    return hints[min(len(toks), len(hints)) - 1]


def _label(value: str, legal: set[str], starts: set[str]) -> str:
    """The label of ``value``: itself when it is a whole action and nothing can follow it, else
    it with what comes next (``starts``: the beginnings of the ``legal`` texts but offers); an
    offer's target named as a player token (hosts put the player's name in:
    ``offer {s1} … then …``)."""
    toks = value.split(" ")
    if toks[0] == "offer":
        if "for" in toks and len(toks) - toks.index("for") == 3:
            return value
        if len(toks) > 1 and toks[1] != "all":
            value = " ".join([toks[0], "{%s}" % toks[1], *toks[2:]])
        return going_on(value, _hint(toks))
    if toks[0] == "bribe":
        return value if len(toks) == 4 else going_on(value, _hint(toks))
    if value not in starts:  # a whole action
        return value
    return going_on(value, _hint(toks), whole=value in legal)
