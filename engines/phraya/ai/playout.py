"""What the search AI needs of Phraya besides determinize: a cheap playout policy on the full
state, an evaluation of a running game, and the fast score estimate both use.

* :func:`policy` picks a move for the seat awaited from the legal list with a few rules of thumb
  (deliver, King, Temple, stalls, buying for an order, the destination whose stalls offer most),
  or a uniform one with probability ``eps``.
* :func:`evaluate` finishes the turn under way with the policy (greedily, at most
  :data:`FINISH_CAP` actions, so that every leaf is scored at the same point of a turn: when the
  next seat is about to play a card), estimates each seat's final score (:func:`estimate`: the
  score sheet as if the game ended now, plus what coins, flowers, favors, goods, baskets and rowers
  are still worth with the time left) and turns the estimates into expected rewards the way
  :func:`engines.search.rewards` scores a finished game (0.75 the win, 0.25 the rank), with win
  chances from logistic comparisons whose spread narrows as the game nears its end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.phraya import data
from engines.phraya.data import BASKET, CARDS, GI, KING_SPACES, ORDER, board
from engines.phraya.legal import kept_legal, king_choices
from engines.phraya.state import (
    ACT,
    BARGE,
    CARD,
    DISCARD,
    MOVE,
    PREMOVE,
    PRICE,
    REFRESH,
    SETUP_BOAT,
    SETUP_STALL,
    Player,
    State,
    capacity,
    temple_cost,
)

GOODS = data.GOODS


_PRICES = tuple(data.PRICE_ROWS[g] for g in GOODS)


_VP = tuple(data.TEMPLE_OFFERING_VP[g] for g in GOODS)


_TEMPLE_VP = tuple(data.TEMPLE_OFFERING_VP[g] for g in data.TEMPLE_ROWS)


_KING_ROW = tuple("cfg".index(sp[0]) for sp in KING_SPACES)


_KING_COINS = data.KING_COINS


_STALL_MAJ = tuple(data.STALL_MAJORITY[g] for g in GOODS)


_ORDER_NEED = {oid: tuple(t[2].split().count(g) for g in GOODS) for oid, t in ORDER.items()}


_ORDER_VALUE = {oid: t[3] * 0.3 + t[4] for oid, t in ORDER.items()}


def policy(s: State, seat: int, rng: random.Random | None, eps: float) -> str:
    """A move for ``seat`` (awaited) in ``s``: uniform with probability ``eps`` (with ``rng``),
    else the rules of thumb of the module docstring."""
    legal = kept_legal(s, seat)
    if len(legal) == 1:
        return legal[0]
    if rng is not None and eps > 0 and rng.random() < eps:
        return legal[rng.randrange(len(legal))]
    step = s.step
    if step == ACT:
        return _act(s, seat, legal)
    if step in (MOVE, PREMOVE):
        return _best(legal, lambda a: _dest(s, seat, a.split()[1]))
    if step == CARD:
        return _best(legal, lambda a: _card(s, seat, a.split()[1]))
    if step == PRICE:
        return _best(legal, lambda a: _price(s, seat, a))
    if step == BARGE:
        return _best(legal, lambda a: _barge(s, seat, a.split()[1]))
    if step == DISCARD:
        p = s.players[seat]
        if "discard flower" in legal and p.flowers > 2:
            return "discard flower"
        return "done"
    if step == REFRESH:
        return "keep"
    if step == SETUP_STALL:
        return _best(legal, lambda a: _stall(s, seat, a.split()[1]))
    if step == SETUP_BOAT and rng is not None:
        return legal[rng.randrange(len(legal))]
    return legal[0]


def _best(legal: Sequence[str], score: object) -> str:
    best, top = legal[0], -1e9
    for a in legal:
        v = score(a)  # type: ignore[operator]
        if v > top:
            best, top = a, v
    return best


def _card(s: State, seat: int, cid: str) -> float:
    p = s.players[seat]
    if cid == "b1":
        return 3.0 + len(p.discard) if len(p.hand) <= 2 or len(p.discard) >= 4 else -5.0
    c = CARDS[cid]
    v = 0.0
    for e in c.immediate:
        head = e.split()[0]
        if head == "coins":
            v += int(e.split()[1])
        elif head == "flower":
            v += 1.5
        elif head == "mer" or head == "barge":
            v += 1.0
        elif e == "boat2":
            v += 0.5
        elif e == "f2c":
            v += 2.5 * max(0, p.flowers - 2)
    return v + 0.5 * len(c.passive)


def _price(s: State, seat: int, action: str) -> float:
    t = action.split()[1:]
    p = s.players[seat]
    v = 0.0
    for i in range(0, len(t), 2):
        g, k = GI[t[i]], int(t[i + 1])
        v += k * (p.goods[g] - 0.5)
    return v


def _barge(s: State, seat: int, x: str) -> float:
    v = 0.0
    for sid in board.adjacent_stalls(x):
        q = s.owner[board.STALL_INDEX[sid]]
        if q >= 0:
            v += 1.0 if q == seat else -0.5
    if x in board.SECTION_ENDS[s.boats[seat]]:
        v += 1.0
    return v


def _stall(s: State, seat: int, sid: str) -> float:
    g = _stall_goods(s.layout)[board.STALL_INDEX[sid]]
    counts = [0] * s.n
    goods_of = _stall_goods(s.layout)
    for i, q in enumerate(s.owner):
        if q >= 0 and goods_of[i] == g:
            counts[q] += 1
    mine = counts[seat]
    top = max(c for q, c in enumerate(counts) if q != seat) if s.n > 1 else 0
    first, second = _STALL_MAJ[g]
    gain = first if mine + 1 > top else (first + second) / 2 if mine + 1 == top else second / 2
    return gain - 0.5 * mine


def _order_value(s: State, p: Player, sec: str, sid: str, cap: tuple[int, int, int, int]) -> float:
    """What the order at restaurant ``sid`` is worth to ``p`` there: deliverable now, or after
    buying what it lacks at the other stall of section ``sec``."""
    b = s.board
    oid = s.orders_on[b.restaurants.index(sid)]
    if not oid:
        return 0.0
    need = _ORDER_NEED[oid]
    missing = sum(max(0, need[i] - p.goods[i]) for i in range(4))
    if missing == 0:
        return 6.0 + _ORDER_VALUE[oid]
    other = b.stalls[board.banks(sec)[0] if board.banks(sec)[1] == sid else board.banks(sec)[1]]
    if other.good is not None:
        gi = GI[other.good]
        rest = missing - max(0, need[gi] - p.goods[gi])
        cost = max(0, need[gi] - p.goods[gi]) * _PRICES[gi][s.prices[gi]]
        if rest == 0 and cost <= p.coins and need[gi] <= cap[gi]:
            return 5.0 + _ORDER_VALUE[oid] - cost * 0.2
    return 0.0


def _dest(s: State, seat: int, sec: str) -> float:
    p = s.players[seat]
    b = s.board
    best = 0.0
    cap = capacity(p)
    for sid in board.banks(sec):
        st = b.stalls[sid]
        kind = st.kind
        v = 0.0
        if kind == "restaurant":
            v = _order_value(s, p, sec, sid, cap)
        elif kind == "temple":
            if p.disks_left:
                for gi in range(4):
                    if p.goods[gi]:
                        fl = temple_cost(s, GOODS[gi])
                        if fl is not None and (p.flowers >= fl or p.favors):
                            v = max(v, 2.0 + _VP[gi])
        elif kind == "admin":
            if p.stalls_left and p.coins >= (5 if "stall5" in s.passives else 10):
                v = 7.0
        elif kind == "scribe":
            for c in s.display:
                if (
                    c
                    and (CARDS[c].coins <= p.coins - 2 or CARDS[c].flowers <= p.flowers)
                    and CARDS[c].endgame
                ):
                    v = 3.0
                    break
        elif kind == "basket":
            i = b.baskets.index(sid)
            tile = s.stall_baskets[i]
            if tile and len(p.baskets) - p.start_baskets < 2 and p.coins >= int(BASKET[tile][2]) + 2:
                v = 3.0
            if p.rowers < 3 and (p.goods[2] or p.goods[3] or p.favors):
                v = max(v, 2.5)
        elif kind == "goods":
            gi = GI[str(st.good)]
            if p.goods[gi] < cap[gi] and s.prices[gi] <= 2 and p.coins >= 6:
                v = 1.0
            if p.goods[gi] and s.prices[gi] >= 5:
                v = max(v, 1.0 + 0.3 * p.goods[gi])
        best += v if v > best else v * 0.3
    if s.barge in board.SECTION_ENDS[sec] and king_choices(s, seat):
        best = max(best, 6.0) + 1.0
    return best


def _act(s: State, seat: int, legal: Sequence[str]) -> str:
    if "deliver" in legal:
        return "deliver"
    p = s.players[seat]
    sec = s.boats[seat]
    b = s.board
    # buy what the order on this section lacks, if that completes it
    for sid in board.banks(sec):
        st = b.stalls[sid]
        if st.kind == "restaurant" and sid not in s.used:
            oid = s.orders_on[b.restaurants.index(sid)]
            if oid:
                need = _ORDER_NEED[oid]
                lack = [max(0, need[i] - p.goods[i]) for i in range(4)]
                for a in legal:
                    if a.startswith("buy "):
                        t = a.split()
                        gi = GI[str(b.stalls[t[1]].good)]
                        if sum(lack) == lack[gi] and int(t[2]) == lack[gi]:
                            return a
    kings = [a for a in legal if a.startswith("king ")]
    if kings:
        ok = [a for a in kings if a[5] != "c" or p.coins - _KING_COINS[int(a[6:]) - 1] >= 2]
        if ok:
            mine = [0, 0, 0]
            for i, q in enumerate(s.king):
                if q == seat:
                    mine[_KING_ROW[i]] += 1
            return _best(ok, lambda a: -3 * mine["cfg".index(a[5])] - int(a[6:]))
    temples = [a for a in legal if a.startswith("temple ")]
    if temples:
        return _best(temples, lambda a: _VP[GI[a.split()[1]]] - (1.5 if a.endswith("favor") else 0))
    stalls = [a for a in legal if a.startswith("stall ")]
    if stalls:
        return _best(stalls, lambda a: _stall(s, seat, a.split()[1]))
    for a in legal:
        if (
            a.startswith("scribe ")
            and CARDS[a.split()[1]].endgame
            and (a.endswith("flowers") or p.coins >= CARDS[a.split()[1]].coins + 4)
        ):
            return a
    if "basket" in legal and len(p.baskets) - p.start_baskets < 2:
        return "basket"
    for a in legal:
        if a.startswith("rower ") and a != "rower favor" and p.rowers < 3:
            return a
    for a in legal:
        if a.startswith("sell "):
            t = a.split()
            gi = GI[str(b.stalls[t[1]].good)]
            if s.prices[gi] >= 4 and int(t[2]) == p.goods[gi]:
                return a
    return "end"


_GOODS_CACHE: dict[board.Layout, tuple[int, ...]] = {}


def _stall_goods(layout: board.Layout) -> tuple[int, ...]:
    got = _GOODS_CACHE.get(layout)
    if got is None:
        b = board.build(layout)
        got = tuple(GI[b.stalls[x].good] if b.stalls[x].good else -1 for x in board.STALLS)  # type: ignore[index]
        _GOODS_CACHE[layout] = got
    return got
