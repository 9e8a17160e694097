"""What the Kathai search AI plays with on full states: its candidate moves, a playout policy and
an evaluation (engines.search; the state comes from ``determinize.py``).

* :func:`search_actions`: a small candidate set instead of the legal list (whose offers run to
  thousands of texts): each goods' full sale, one bribe per open pair whose goods moving up the
  hand shows at least 2 of (paid with a profit card, else the least useful card), buy, three
  asks (the least useful one or two cards for one card of the goods nearest its minimum, one
  card for the next goods), a swap of the least useful card, pass; in a reply, the one or two
  cheapest answers and ``decline``. At most 16 moves, usually 5 to 10.
* :func:`playout_action`: the heuristic of ``heuristic.py`` on the full state (sell a good sale, bribe
  a goods that meets the next minimum up, buy, one ask a turn, swap; accept an ask that adds
  more of what the hand collects than it costs), with a small share of random candidates.

The evaluation that scores a playout's last state is ``heuristic.evaluate``.

Card values: a goods' weight for a seat grows with the items of it the seat holds and with its
position (the unsellable goods counts half); a card's value is its items times those weights.
The least useful card has the lowest value (ties: the lowest id).
"""

from __future__ import annotations

import random

from engines.kathai.ai.heuristic import totals
from engines.kathai.data import GOODS, HAND_LIMIT, ITEMS, PRICES, SELLABLE
from engines.kathai.legal import can_commit, eligible, lock_blocks, refused_ask, shows
from engines.kathai.notation import ids_text
from engines.kathai.state import ALL, MAIN, REPLY, State

POS_WEIGHT = (1.0, 1.0, 0.8, 0.6, 0.5)
"""How much a goods at each position (1..5) is worth collecting."""
SELL_AT = 6
"""A sale scoring this much is taken at once by the playout policy (as by ``heuristic.py``)."""
LEAD = 8
"""An ask from a seat leading by this much is declined."""
EPSILON = 0.1
"""Share of playout moves drawn uniformly from the candidates."""


def weights(s: State, t: list[int]) -> list[float]:
    """The weight of each goods for a seat whose hand shows ``t``."""
    w = [0.0] * 5
    for pos, g in enumerate(s.market):
        w[g] = (t[g] + 1.0) * POS_WEIGHT[pos]
    return w


def card_value(c: int, w: list[float]) -> float:
    row = ITEMS[c]
    return row[0] * w[0] + row[1] * w[1] + row[2] * w[2] + row[3] * w[3] + row[4] * w[4]


def by_use(hand: tuple[int, ...], w: list[float], avoid: int = -1) -> list[int]:
    """``hand`` from the least useful card up (cards showing ``avoid`` last)."""
    return sorted(hand, key=lambda c: (avoid >= 0 and ITEMS[c][avoid] > 0, card_value(c, w), c))


def sales(
    s: State, hand: tuple[int, ...], t: list[int] | None = None
) -> list[tuple[int, int, tuple[int, ...]]]:
    """(points, goods, cards) of each goods' full sale (every card showing it) that is legal
    (``t``: the hand's totals, if known)."""
    if t is None:
        t = totals(hand)
    out = []
    for pos in range(SELLABLE):
        g = s.market[pos]
        bonus, need = PRICES[pos]
        if t[g] >= need:
            cards = tuple(c for c in hand if ITEMS[c][g])
            out.append((len(cards) + bonus, g, cards))
    return out


def _sell_text(g: int, cards: tuple[int, ...]) -> str:
    return f"sell {GOODS[g]} {ids_text(cards)}"


def _bribes(s: State, seat: int, w: list[float], t: list[int] | None = None) -> list[tuple[int, str]]:
    """(position of the goods moving left, text) of one bribe per open pair (with ``t``, the
    hand's totals: only pairs whose goods moving left the hand shows at least 2 of)."""
    hand = s.hands[seat]
    if s.profit[seat]:
        pay = "profit"
    elif hand:
        pay = f"t{by_use(hand, w)[0]}"
    else:
        return []
    out = []
    for p in range(1, SELLABLE + 1):
        a, b = s.market[p - 1], s.market[p]
        pair = (a, b) if a < b else (b, a)
        if (t is None or t[b] >= 2) and not lock_blocks(s, pair):
            out.append((p, f"bribe {GOODS[pair[0]]} {GOODS[pair[1]]} {pay}"))
    return out


def _shortfalls(s: State, t: list[int]) -> list[int]:
    """Sellable goods below their minimum, nearest first (then the better position)."""
    short = []
    for pos in range(SELLABLE):
        g = s.market[pos]
        d = PRICES[pos][1] - t[g]
        if d > 0:
            short.append((d > 3, d, pos, g))
    short.sort()
    return [x[3] for x in short]


def _offer_ok(s: State, seat: int, give: int, k: int) -> bool:
    if len(s.hands[seat]) - give + k > HAND_LIMIT:
        return False
    return any(eligible(len(s.hands[x]), give, k) for x in range(s.n) if x != seat)


def _offers(s: State, seat: int, t: list[int], w: list[float], many: bool) -> list[str]:
    """Asks for one card of the goods nearest a minimum (two goods and two sizes if ``many``),
    leaving out an ask every addressee has declined this turn (``legal.refused_ask``) and,
    after a trade, the cards it brought (no trading them straight back)."""
    if s.offers_used >= s.opts.max_offers:
        return []
    hand = s.hands[seat]
    got = s.fresh[seat] if s.traded else ()  # never give back what a trade just brought
    out = []
    for i, g in enumerate(_shortfalls(s, t)[: 2 if many else 1]):
        order = [c for c in by_use(hand, w, avoid=g) if c not in got]
        for size in (1, 2) if many and i == 0 else (1,):
            give = tuple(sorted(order[:size]))
            if len(give) == size and _offer_ok(s, seat, size, 1) and not refused_ask(s, ALL, give, g, 1):
                out.append(f"offer all {ids_text(give)} for {GOODS[g]} 1")
    return out


def _answers(s: State, seat: int, w: list[float], most: int) -> list[tuple[float, str]]:
    """(cost, text) of the ``most`` cheapest answers to the open ask."""
    o = s.offer
    assert o is not None
    if o.k == 0:
        return [(0.0, "accept")]
    cards = [c for c in s.hands[seat] if shows(c, o.want)]
    if len(cards) < o.k:
        return []
    cards.sort(key=lambda c: (card_value(c, w), c))
    out = []
    # the cheapest k, then the cheapest k with the next card swapped in for the dearest one
    first = tuple(cards[: o.k])
    out.append((sum(card_value(c, w) for c in first), "accept " + ids_text(tuple(sorted(first)))))
    if most > 1 and len(cards) > o.k:
        second = tuple(cards[: o.k - 1]) + (cards[o.k],)
        out.append((sum(card_value(c, w) for c in second), "accept " + ids_text(tuple(sorted(second)))))
    return out


def search_actions(s: State, seat: int) -> list[str]:
    """The candidate moves of ``seat`` (awaited) in ``s``: all legal, a handful (module doc)."""
    if s.step == REPLY:
        hand = s.hands[seat]
        w = weights(s, totals(hand))
        return [a for _, a in _answers(s, seat, w, 2)] + ["decline"]
    hand = s.hands[seat]
    t = totals(hand)
    w = weights(s, t)
    out: list[str] = []
    if can_commit(s):
        out += [_sell_text(g, cards) for _, g, cards in sales(s, hand, t)]
        out += [a for _, a in _bribes(s, seat, w, t)]
        if s.profit[seat] and len(hand) < HAND_LIMIT and s.pile:
            out.append("buy")
    out += _offers(s, seat, t, w, many=True)
    if not s.traded and s.pile and hand:
        out.append(f"swap t{by_use(hand, w)[0]}")
    out.append("pass")
    return out


def policy(s: State, seat: int) -> str:
    """The playout policy's greedy move (the heuristic of ``heuristic.py`` on the full state)."""
    hand = s.hands[seat]
    if s.step == REPLY:
        o = s.offer
        assert o is not None
        others = [s.scores[q] for q in range(s.n) if q != o.by]
        if s.scores[o.by] - max(others) >= LEAD:
            return "decline"
        if o.k and sum(1 for c in hand if shows(c, o.want)) < o.k:
            return "decline"
        w = weights(s, totals(hand))
        answers = _answers(s, seat, w, 1)
        if not answers:
            return "decline"
        cost, text = answers[0]
        gain = sum(card_value(c, w) for c in o.give)
        return text if gain > cost else "decline"
    t = totals(hand)
    w = weights(s, t)
    if can_commit(s):
        best = max(sales(s, hand, t), default=None)
        if best is not None and (best[0] >= SELL_AT or len(hand) >= HAND_LIMIT or s.final is not None):
            return _sell_text(best[1], best[2])
        if s.profit[seat]:
            for p, text in _bribes(s, seat, w):
                if t[s.market[p]] >= PRICES[p - 1][1]:
                    return text
            if len(s.profit[seat]) >= 2 and len(hand) < HAND_LIMIT and s.pile:
                return "buy"
    if s.step == MAIN and s.offers_used == 0:
        asks = _offers(s, seat, t, w, many=False)
        if asks:
            return asks[0]
    if not s.traded and s.pile and hand:
        return f"swap t{by_use(hand, w)[0]}"
    return "pass"


def playout_action(s: State, seat: int, rng: random.Random) -> str:
    """The policy's move, or with probability :data:`EPSILON` a random candidate."""
    if rng.random() < EPSILON:
        acts = search_actions(s, seat)
        return acts[rng.randrange(len(acts))]
    return policy(s, seat)
