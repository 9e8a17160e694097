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

import math
import random
from collections.abc import Sequence

from engines.phraya import board, data, flow, turn
from engines.phraya.scoring import majority
from engines.phraya.state import (
    ACT,
    BARGE,
    BASKET,
    CARD,
    CARDS,
    DISCARD,
    GI,
    KING_SPACES,
    MOVE,
    ORDER,
    OVER,
    PREMOVE,
    PRICE,
    REFRESH,
    SETUP_BOAT,
    SETUP_STALL,
    State,
    capacity,
)

FINISH_CAP = 14
"""Actions :func:`evaluate` plays at most to finish a turn (a turn rarely needs more than 8)."""

WIN_WEIGHT = 0.75  # as engines.search.WIN_WEIGHT

SPREAD = (3.0, 25.0)
"""The spread of the logistic win chances: ``SPREAD[0] + SPREAD[1] * time left``, fitted to who
finished ahead in seeded normal games (``python -m benchmarks.spread``, 2026-12-02: 120 games at 2
and 80 at 3 players, the best of a grid): log loss 0.509 against 0.858 for the (1.5, 4.0) before,
which was worse than a coin flip (0.693) from the first third of the game on. Too narrow a spread
made the win chances 0 or 1 for most of a game (a leader's lead of 20 estimated points is far
from safe with half the game left), and the search chose among moves whose rewards differed in the
fourth decimal."""

GOODS = data.GOODS
_PRICES = tuple(data.PRICE_ROWS[g] for g in GOODS)
_VP = tuple(data.TEMPLE_OFFERING_VP[g] for g in GOODS)
_TEMPLE_VP = tuple(data.TEMPLE_OFFERING_VP[g] for g in data.TEMPLE_ROWS)
_KING_ROW = tuple("cfg".index(sp[0]) for sp in KING_SPACES)
_KING_COINS = data.KING_COINS
_STALL_MAJ = tuple(data.STALL_MAJORITY[g] for g in GOODS)
_ORDER_NEED = {oid: tuple(t[2].split().count(g) for g in GOODS) for oid, t in ORDER.items()}
_ORDER_VALUE = {oid: t[3] * 0.3 + t[4] for oid, t in ORDER.items()}


# --------------------------------------------------------------------------- the score estimate


def points(s: State) -> list[int]:
    """Each seat's total on the score sheet if the game ended now (goods sold at current prices):
    the same totals as ``scoring.sheet(s, final=False)``, computed faster."""
    n = s.n
    players = s.players
    prices = [_PRICES[i][s.prices[i]] for i in range(4)]
    coins = [p.coins + sum(p.goods[i] * prices[i] for i in range(4)) for p in players]
    out = [c // 5 for c in coins]
    temple_disks = [0] * n
    for r, row in enumerate(s.temple):
        vp = _TEMPLE_VP[r]
        for q in row:
            out[q] += vp
            temple_disks[q] += 1
    for k, cols in enumerate(data.TEMPLE_SECTIONS):
        cnt = [0] * n
        for row in s.temple:
            for c in cols:
                if c < len(row):
                    cnt[row[c]] += 1
        best = max(cnt)
        ties = cnt.count(best)
        for q in range(n):
            if cnt[q] == 0:
                out[q] += data.TEMPLE_SECTION_PENALTY[k]
            elif cnt[q] == best:
                out[q] += -(-data.TEMPLE_SECTION_VP[k] // ties)
    rows = [[0, 0, 0] for _ in range(n)]
    for i, q in enumerate(s.king):
        if q >= 0:
            rows[q][_KING_ROW[i]] += 1
    king = [sum(r) for r in rows]
    for q, pts in enumerate(majority(king, *data.KING_MAJORITY)):
        out[q] += pts + data.KING_SET_VP * min(rows[q])
    stalls = [[0, 0, 0, 0] for _ in range(n)]
    goods_of = _stall_goods(s.layout)
    for i, q in enumerate(s.owner):
        if q >= 0:
            g = goods_of[i]
            if g >= 0:
                stalls[q][g] += 1
    for q, p in enumerate(players):
        for cid in p.hand + p.discard:
            if cid[0] == "m":
                for e in CARDS[cid].endgame:
                    if e[:3] == "as:":
                        stalls[q][GI[e[3:]]] += 1
    for g in range(4):
        for q, pts in enumerate(majority([stalls[q][g] for q in range(n)], *_STALL_MAJ[g])):
            out[q] += pts
    for q, p in enumerate(players):
        out[q] += sum(ORDER[o][4] for o in p.orders)
        for cid in p.hand + p.discard:
            if cid[0] != "m":
                continue
            for e in CARDS[cid].endgame:
                if e == "2/order":
                    out[q] += 2 * len(p.orders)
                elif e == "2/king":
                    out[q] += 2 * king[q]
                elif e == "2/temple":
                    out[q] += 2 * temple_disks[q]
                elif e[:2] == "3/":
                    out[q] += 3 * stalls[q][GI[e[2:].split("-")[0]]]
                elif e == "2/stall":
                    out[q] += 2 * sum(stalls[q])
                elif e == "1/flower":
                    out[q] += p.flowers
                elif e == "4/favor":
                    out[q] += 4 * p.favors
                elif e == "1/5coins":
                    out[q] += coins[q] // 5
    return out


_GOODS_CACHE: dict[board.Layout, tuple[int, ...]] = {}


def _stall_goods(layout: board.Layout) -> tuple[int, ...]:
    got = _GOODS_CACHE.get(layout)
    if got is None:
        b = board.build(layout)
        got = tuple(GI[b.stalls[x].good] if b.stalls[x].good else -1 for x in board.STALLS)  # type: ignore[index]
        _GOODS_CACHE[layout] = got
    return got


def progress(s: State) -> float:
    """How far the game is, 0 (start) to 1 (its end): the second-nearest of the three end
    conditions (two end it), or the share of the round limit played, whichever is further."""
    king = s.king
    tithe = max(
        sum(1 for x in king[0:6] if x >= 0) / 6,
        sum(1 for x in king[6:11] if x >= 0) / 5,
        sum(1 for x in king[11:16] if x >= 0) / 5,
    )
    buddha = min(1.0, max(len(row) for row in s.temple) / 7)
    total = data.STALLS_PER_PLAYER[s.n]
    supremacy = max((total - p.stalls_left) / total for p in s.players)
    near = sorted((tithe, buddha, supremacy))[1]
    limit = s.opts.round_limit
    return max(near, s.round / limit if limit else 0.0)


def estimate(s: State) -> list[float]:
    """Each seat's expected final score: :func:`points` plus what its resources are still worth
    (scaled by the time left)."""
    base = points(s)
    if s.step == OVER:
        return [float(x) for x in base]
    left = 1.0 - progress(s)
    out = []
    for q, p in enumerate(s.players):
        extra = len(p.baskets) - p.start_baskets
        v = base[q] + left * (
            0.25 * p.coins
            + 0.8 * p.flowers
            + 2.5 * p.favors
            + 0.6 * sum(p.goods)
            + 1.2 * extra
            + 1.5 * (p.rowers - data.ROWERS_START)
        )
        out.append(v)
    return out


def rewards_of(values: Sequence[float], spread: float) -> list[float]:
    """Expected rewards (0.75 the win, 0.25 the share of the others beaten) when each seat's final
    score is ``values[q]`` give or take ``spread``: logistic pairwise chances, and a softmax for the
    win."""
    n = len(values)
    top = max(values)
    w = [math.exp((v - top) / spread) for v in values]
    total = sum(w)
    out = []
    for q in range(n):
        beat = 0.0
        for r in range(n):
            if r != q:
                beat += 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, (values[r] - values[q]) / spread))))
        place = beat / (n - 1) if n > 1 else 1.0
        out.append(WIN_WEIGHT * w[q] / total + (1 - WIN_WEIGHT) * place)
    return out


def evaluate(s: State) -> list[float]:
    """Each seat's expected reward in [0, 1] for a running state (see the module docstring)."""
    start = s.cur
    for _ in range(FINISH_CAP):
        if s.step == OVER or s.step < CARD:
            break
        if s.step == CARD and s.cur != start:
            break
        seat = s.cur
        s = turn.apply(s, seat, policy(s, seat, None, 0.0))[0]
        if s.step == CARD:
            break
    values = estimate(s)
    left = 1.0 - progress(s) if s.step != OVER else 0.0
    return rewards_of(values, SPREAD[0] + SPREAD[1] * left)


# --------------------------------------------------------------------------- the policy


def policy(s: State, seat: int, rng: random.Random | None, eps: float) -> str:
    """A move for ``seat`` (awaited) in ``s``: uniform with probability ``eps`` (with ``rng``),
    else the rules of thumb of the module docstring."""
    legal = flow.kept_legal(s, seat)
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
            oid = s.orders_on[b.restaurants.index(sid)]
            if oid:
                need = _ORDER_NEED[oid]
                missing = sum(max(0, need[i] - p.goods[i]) for i in range(4))
                if missing == 0:
                    v = 6.0 + _ORDER_VALUE[oid]
                else:
                    other = b.stalls[
                        board.banks(sec)[0] if board.banks(sec)[1] == sid else board.banks(sec)[1]
                    ]
                    if other.good is not None:
                        gi = GI[other.good]
                        rest = missing - max(0, need[gi] - p.goods[gi])
                        cost = max(0, need[gi] - p.goods[gi]) * _PRICES[gi][s.prices[gi]]
                        if rest == 0 and cost <= p.coins and need[gi] <= cap[gi]:
                            v = 5.0 + _ORDER_VALUE[oid] - cost * 0.2
        elif kind == "temple":
            if p.disks_left:
                for gi in range(4):
                    if p.goods[gi]:
                        fl = flow.temple_cost(s, GOODS[gi])
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
    if s.barge in board.SECTION_ENDS[sec] and flow.king_choices(s, seat):
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
