"""The ``offer`` part of a Kathai legal list: thousands of texts, built in sorted order.

A list is ``offer <target> <give> for <want> <k>`` over every target, give set and (want, k)
that the hand sizes allow. Which k are allowed depends only on (gifts, the active hand size, the
give size, the target's hand size): :data:`_KSM` holds them as bit masks and :data:`_TAILS` the
sorted ``"<want> <k>"`` texts of each mask. The give sets of a hand come in text order from
:func:`_gives`: that order depends only on how the hand's ids sort as text, so it is cached per
such pattern (about 190 occur over all hands). A list then costs one string concatenation per
text, and that is the floor. In random play (4 players) the legal list averages ~1,300 texts a
step; a trade changes the active hand, so ~20% of steps need a new offer list of ~3,200 texts:
~630 new strings per action, at ~80-110 ns each on the reference machine, about 60-65% of all
the time. Only the last list is kept (it stays the same while offers are declined) and it is
dropped before the next one is built: keeping more lists costs more in memory traffic than
their rare repeats save (only ~11% of a new list's texts were in the previous one).
"""

from __future__ import annotations

from functools import lru_cache

from engines.kathai.data import ANY, CARD_TEXT, HAND_LIMIT, WANTS
from engines.kathai.notation import seat_text
from engines.kathai.state import ALL, State


def eligible(n_x: int, give: int, k: int) -> bool:
    """Whether a seat holding ``n_x`` cards may answer an offer of ``give`` cards for ``k``."""
    return n_x >= k and n_x - k + give <= HAND_LIMIT


def _ks_mask(gifts: bool, n_p: int, give: int, n_x: int) -> int:
    """Bit k set when an offer of ``give`` of ``n_p`` cards for ``k`` suits a seat holding
    ``n_x`` (the hand limit both ways; k = 0 and give = 0 only with gifts, not both)."""
    if not gifts and give == 0:
        return 0
    lo = 0 if gifts and give else 1
    hi = min(HAND_LIMIT, HAND_LIMIT - n_p + give)
    return sum(1 << k for k in range(lo, hi + 1) if eligible(n_x, give, k))


_H = HAND_LIMIT + 1
_KSM: tuple[int, ...] = tuple(
    _ks_mask(g, n_p, give, n_x)
    for g in (False, True)
    for n_p in range(_H)
    for give in range(_H)
    for n_x in range(_H)
)
"""``_KSM[((gifts * 8 + n_p) * 8 + give) * 8 + n_x]``: the allowed k as a bit mask."""

_KS: tuple[tuple[int, ...], ...] = tuple(tuple(k for k in range(_H) if m >> k & 1) for m in range(1 << _H))
"""``_KS[mask]``: the k of a mask, ascending."""

_SORTED_WANTS = tuple(sorted(range(len(WANTS)), key=lambda w: WANTS[w]))
_TAILS: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{WANTS[w]} {k}" for w in _SORTED_WANTS for k in ks if k or w == ANY) for ks in _KS
)
"""``_TAILS[mask]``: ``"any 1"``, ``"gold 1"``… of the mask's k, sorted as text (k is one digit)."""

_HEADS = {t: f"offer {seat_text(t)} " for t in (ALL, *range(5))}

_RANK = [0] * len(CARD_TEXT)
for _r, _c in enumerate(sorted(range(1, len(CARD_TEXT)), key=CARD_TEXT.__getitem__)):
    _RANK[_c] = _r
"""``_RANK[card]``: the card's place when the texts ``t1``..``t55`` are sorted as strings."""

_REV = tuple(tuple(int(f"{i:0{m}b}"[::-1] or "0", 2) for i in range(1 << m)) for m in range(_H))
"""``_REV[m][mask]``: ``mask`` with its ``m`` bits in reverse order."""


def _row(s: State, give: int) -> int:
    """The start in :data:`_KSM` of the active seat's offers of ``give`` cards."""
    return ((s.opts.allow_gifts * _H + len(s.hands[s.active])) * _H + give) * _H


def offer_ks(s: State, target: int, give: int) -> tuple[int, ...]:
    """The counts k for which an offer of ``give`` cards to ``target`` (a seat or ``ALL``) is
    legal as far as sizes go (hand limit, eligibility, gifts)."""
    p = s.active
    row = _row(s, give)
    seats = [x for x in range(s.n) if x != p] if target == ALL else [target]
    m = 0
    for x in seats:
        m |= _KSM[row + len(s.hands[x])]
    return _KS[m]


def _tails(s: State, target: int) -> tuple[tuple[str, ...], ...]:
    """Per give size 0..len(hand): the sorted tails of the offers to ``target`` (seat or ALL)."""
    p = s.active
    hands = s.hands
    if target == ALL:
        sizes = tuple(sorted({len(hands[x]) for x in range(s.n) if x != p}))
    else:
        sizes = (len(hands[target]),)
    return _tails_of(s.opts.allow_gifts, len(hands[p]), sizes)


@lru_cache(maxsize=1024)
def _tails_of(gifts: bool, n_p: int, sizes: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """:func:`_tails` for an active hand of ``n_p`` and targets holding ``sizes`` cards."""
    out = []
    for give in range(n_p + 1):
        row = ((gifts * _H + n_p) * _H + give) * _H
        m = 0
        for n_x in sizes:
            m |= _KSM[row + n_x]
        out.append(_TAILS[m])
    return tuple(out)


@lru_cache(maxsize=512)
def _give_order(pattern: tuple[int, ...], gifts: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The give sets (bit i for the hand's i-th card) in the order their texts sort, and their
    sizes, for a hand whose cards rank ``pattern`` as texts (the hand in id order); the empty
    set only with gifts. A give text lists ids in id order; texts compare token by token and a
    prefix first, so only the pattern decides the order."""
    keys: list[tuple[int, ...]] = [()]
    for r in pattern:
        keys += [k + (r,) for k in keys]
    order = tuple(sorted(range(0 if gifts else 1, len(keys)), key=keys.__getitem__))
    return order, tuple(len(keys[i]) for i in order)


@lru_cache(maxsize=16)
def _gives(hand: tuple[int, ...], gifts: bool) -> tuple[tuple[str, int], ...]:
    """(``"t1 t5 for "``, size) of every give set of ``hand``, in the order their offer texts
    sort; the empty set (``"for "``) only with gifts."""
    ranks = [_RANK[c] for c in hand]
    srt = sorted(ranks)
    order, sizes = _give_order(tuple([srt.index(r) for r in ranks]), gifts)
    texts = ["for "]  # texts[mask], bit i for hand[-1 - i] (cards prepended, last card first)
    for c in reversed(hand):
        tok = CARD_TEXT[c] + " "
        texts += [tok + t for t in texts]
    rev = _REV[len(hand)]
    return tuple(zip([texts[rev[i]] for i in order], sizes, strict=True))


_OFFERS: dict[tuple[object, ...], list[str]] = {}


def offer_actions(s: State) -> tuple[str, ...]:
    """Every legal ``offer`` text of the active seat, sorted."""
    return tuple(offer_list(s))


def offer_list(s: State) -> list[str]:
    """:func:`offer_actions` as the kept list itself (callers copy it, never change it). Only
    the last list is kept, by what decides it (it stays the same while offers are declined);
    it is dropped before a new one is built, so the new texts reuse the old ones' memory."""
    p = s.active
    hand = s.hands[p]
    key = (p, hand, tuple([len(h) for h in s.hands]), s.opts.allow_gifts)
    hit = _OFFERS.get(key)
    if hit is not None:
        return hit
    _OFFERS.clear()
    gives = _gives(hand, s.opts.allow_gifts)
    out: list[str] = []
    for t in (ALL, *range(s.n)):
        if t == p:
            continue
        tails = _tails(s, t)
        head = _HEADS[t]
        out += [h + x for text, size in gives if (tl := tails[size]) for h in (head + text,) for x in tl]
    _OFFERS[key] = out
    return out
