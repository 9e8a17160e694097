"""Phraya AI (docs/rules/phraya.md#ai): a deterministic heuristic that reads only its own view.

It pursues restaurant orders, Temple offerings, the King's Chart and stall majorities rather than
wandering: the card by its immediate gain, each destination by what its stalls offer, and in
ACT the fixed order deliver → buy for an order → temple → king → admin → scribe → basket/rower →
sell at a high price → end. Ties go to the first action in the (sorted) legal list.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engines.phraya import data
from engines.phraya.ai.playout import _KING_ROW, _PRICES, _STALL_MAJ, _TEMPLE_VP, _stall_goods, policy
from engines.phraya.apply import apply
from engines.phraya.data import CARDS, GI, ORDER
from engines.phraya.scoring import majority
from engines.phraya.state import CARD, OVER, Player, State

GOODS = ("veg", "fruit", "fish", "meat")


V = Mapping[str, Any]


def choose(view: V, legal: Sequence[str]) -> str:
    """The heuristic's pick from ``legal`` (never empty)."""
    if len(legal) == 1:
        return legal[0]
    step = view["step"]
    me = view["players"][view["viewer"]]
    try:
        if step == "card":
            return _card(view, me, legal)
        if step == "price":
            return _price(view, me, legal)
        if step == "barge":
            return _best(legal, lambda a: _barge_gain(view, a.split()[1]))
        if step == "discard":
            return _discard(view, me, legal)
        if step in ("move", "premove"):
            return _best(legal, lambda a: _dest_value(view, me, a.split()[1]))
        if step == "act":
            return _act(view, me, legal)
        if step == "refresh":
            return "keep"
        if step == "setup_stall":  # was the first id listed, whatever its good and majority
            return _best(legal, lambda a: _stall_value(view, a.split()[1]))
        if step == "setup_boat":  # likewise: start where the stalls offer most
            return _best(legal, lambda a: _dest_value(view, me, a.split()[1]))
    except (KeyError, IndexError, ValueError):
        pass
    return legal[0]


def _best(legal: Sequence[str], score: Any) -> str:
    best, top = legal[0], None
    for a in legal:
        v = score(a)
        if top is None or v > top:
            best, top = a, v
    return best


def _needed(view: V) -> dict[str, int]:
    """Goods the visible restaurant orders ask for (max per good over the orders)."""
    need = {g: 0 for g in GOODS}
    for st in view["board"]["stalls"]:
        if st["order"]:
            for g in GOODS:
                need[g] = max(need[g], st["order"]["goods"].count(g))
    return need


def _card(view: V, me: V, legal: Sequence[str]) -> str:
    cards = {c["id"]: c for c in view["me"]["hand"]}
    ids = [a.split()[1] for a in legal]
    if view["turn"]["blocked"]:
        barge = [
            a
            for a, c in zip(legal, ids, strict=False)
            if any(e.startswith("barge") for e in cards[c]["immediate"])
        ]
        return barge[0] if barge else legal[0]
    if "b1" in ids and (len(me["hand"] or ids) <= 2 or len(me["discard"]) >= 4):
        return "play b1"

    def gain(a: str) -> float:
        c = cards[a.split()[1]]
        if c["id"] == "b1":
            return -10
        v = 0.0
        for e in c["immediate"]:
            head = e.split()[0]
            if head == "coins":
                v += int(e.split()[1])
            elif head == "flower":
                v += 2
            elif head == "mer":
                v += 1.5
            elif head == "barge" or e == "boat2":
                v += 1
            elif e == "f2c":
                v += 3 * max(0, me["flowers"] - 2) - 1
            elif e == "g2f":
                v += 0.5
        v += 0.5 * len(c["passive"])
        return v

    return _best(legal, gain)


def _price(view: V, me: V, legal: Sequence[str]) -> str:
    need = _needed(view)

    def gain(a: str) -> int:
        t = a.split()[1:]
        v = 0
        for i in range(0, len(t), 2):
            g, k = t[i], int(t[i + 1])
            v += k * me["goods"][g] - k * max(0, need[g] - me["goods"][g])
        return v

    return _best(legal, gain)


def _crossing_stalls(view: V, x: str) -> list[V]:
    secs = next(c["sections"] for c in view["board"]["crossings"] if c["id"] == x)
    return [st for st in view["board"]["stalls"] if st["section"] in secs]


def _barge_gain(view: V, x: str) -> int:
    me = view["viewer"]
    v = 0
    for st in _crossing_stalls(view, x):
        if st["owner"] is not None:
            v += 1 if st["owner"] == me else -1
    # being able to reach the King next is worth something too
    boat = view["boats"][me]
    if boat and x in next(s["ends"] for s in view["board"]["sections"] if s["id"] == boat):
        v += 1
    return v


def _discard(view: V, me: V, legal: Sequence[str]) -> str:
    need = _needed(view)
    for a in legal:
        if a.startswith("discard ") and a != "discard flower":
            g = a.split()[1]
            if me["goods"][g] > need[g]:
                return a
    if "discard flower" in legal and me["flowers"] > 2:
        return "discard flower"
    return "done"


def _affordable_king(view: V, me: V) -> bool:
    for sp in view["king"]:
        if sp["seat"] is None:
            cost = sp["cost"].split()
            if sp["row"] == "c" and me["coins"] - int(cost[0]) >= 3:
                return True
            if sp["row"] == "f" and me["flowers"] >= int(cost[0]):
                return True
    return False


def _dest_value(view: V, me: V, sec: str) -> float:
    stalls = [st for st in view["board"]["stalls"] if st["section"] == sec]
    goods = me["goods"]
    best = 0.0
    for st in stalls:
        kind = st["kind"]
        v = 0.0
        if kind == "restaurant" and st["order"]:
            o = st["order"]
            missing = sum(max(0, o["goods"].count(g) - goods[g]) for g in GOODS)
            other = [x for x in stalls if x is not st and x["kind"] == "goods"]
            if missing == 0:
                v = o["coins"] + 3 * o["vp"]
            elif other and missing == sum(
                max(0, o["goods"].count(g) - goods[g]) for g in GOODS if g == other[0]["good"]
            ):
                g = other[0]["good"]
                if missing * view["prices"][g]["price"] <= me["coins"]:
                    v = o["coins"] + 3 * o["vp"] - missing * view["prices"][g]["price"]
        elif kind == "temple":
            tv = view["temple"]
            for g in GOODS:
                row = tv["rows"][g]
                if (
                    goods[g]
                    and len(row) < tv["columns"]
                    and (me["flowers"] >= tv["flower_cost"][len(row)] or me["favors"])
                ):
                    v = max(v, tv["offering_vp"][g] + 2)
        elif kind == "admin" and me["coins"] >= 12 and me["stalls_left"] > 0:
            v = 8
        elif kind == "scribe":
            if any(
                c and c["endgame"] and (c["coins"] <= me["coins"] or c["flowers"] <= me["flowers"])
                for c in view["display"]
            ):
                v = 3
        elif kind == "basket":
            extra = len(me["baskets"]) - 2
            if st["basket"] and extra < 2 and me["coins"] >= st["basket"]["price"]:
                v = 4
            if me["rowers"] < 3 and (goods["meat"] or goods["fish"] or me["favors"]):
                v = max(v, 3)
        elif kind == "goods":
            need = _needed(view)
            g = st["good"]
            if need[g] > goods[g] and me["capacity"][g] > goods[g]:
                v = 1
        best = max(best, v)
    secv = next(s for s in view["board"]["sections"] if s["id"] == sec)
    if view["barge"] in secv["ends"] and _affordable_king(view, me):
        best = max(best, 6)
    return best


def _buy_for_order(stalls: Mapping[str, V], goods: V, legal: Sequence[str]) -> str | None:
    """The buy that gives exactly what the order on this section lacks of a good, if listed."""
    for st in stalls.values():
        if st["kind"] == "restaurant" and st["order"]:
            o = st["order"]
            for a in legal:
                t = a.split()
                if t[0] == "buy":
                    g = stalls[t[1]]["good"]
                    lack = o["goods"].count(g) - goods[g]
                    if lack > 0 and int(t[2]) == lack:
                        return a
    return None


def _act(view: V, me: V, legal: Sequence[str]) -> str:
    goods = me["goods"]
    sec = view["boats"][view["viewer"]]
    stalls = {st["id"]: st for st in view["board"]["stalls"] if st["section"] == sec}
    if "deliver" in legal:
        return "deliver"
    buy = _buy_for_order(stalls, goods, legal)
    if buy is not None:
        return buy
    for pref in ("temple ",):
        opts = [a for a in legal if a.startswith(pref)]
        if opts:
            return _best(
                opts,
                lambda a: (
                    {"meat": 5, "fish": 4, "fruit": 3, "veg": 2}[a.split()[1]]
                    - (2 if a.endswith("favor") else 0)
                ),
            )
    kings = [a for a in legal if a.startswith("king ")]
    if kings:
        mine = {"c": 0, "f": 0, "g": 0}
        for sp in view["king"]:
            if sp["seat"] == view["viewer"]:
                mine[sp["row"]] += 1
        ok = [a for a in kings if a[5] != "c" or me["coins"] - _king_coins(view, a[5:]) >= 3]
        if ok:
            return _best(ok, lambda a: -mine[a[5]] * 10 - int(a[6:]))
    stalls_a = [a for a in legal if a.startswith("stall ")]
    if stalls_a:
        return _best(stalls_a, lambda a: _stall_value(view, a.split()[1]))
    scribes = [a for a in legal if a.startswith("scribe ") and a.endswith("flowers")]
    scribes += [a for a in legal if a.startswith("scribe ") and a.endswith("coins") and me["coins"] >= 10]
    if scribes:
        return scribes[0]
    if "basket" in legal and len(me["baskets"]) - 2 < 2:
        return "basket"
    rowers = [a for a in legal if a.startswith("rower ") and a != "rower favor"]
    if rowers and me["rowers"] < 3:
        return rowers[0]
    need = _needed(view)
    for a in legal:
        t = a.split()
        if t[0] == "sell":
            g = stalls[t[1]]["good"]
            if view["prices"][g]["index"] >= 4 and int(t[2]) == max(1, goods[g] - need[g]):
                return a
    for a in legal:
        t = a.split()
        if t[0] == "buy" and len(t) == 3 and t[2] == "1":
            g = stalls[t[1]]["good"]
            if need[g] > goods[g] and view["prices"][g]["index"] <= 2:
                return a
    return "end" if "end" in legal else legal[0]


def _king_coins(view: V, space: str) -> int:
    for sp in view["king"]:
        if sp["space"] == space:
            return int(sp["cost"].split()[0])
    return 0


def _stall_value(view: V, sid: str) -> float:
    me = view["viewer"]
    st = next(x for x in view["board"]["stalls"] if x["id"] == sid)
    g = st["good"]
    counts: dict[int, int] = {}
    for x in view["board"]["stalls"]:
        if x["good"] == g and x["owner"] is not None:
            counts[x["owner"]] = counts.get(x["owner"], 0) + 1
    mine = counts.get(me, 0)
    top = max((c for q, c in counts.items() if q != me), default=0)
    value = {"veg": 14, "fruit": 12, "fish": 10, "meat": 8}[g]
    return value - 3 * abs(top - mine)


FINISH_CAP = 14
"""Actions :func:`evaluate` plays at most to finish a turn (a turn rarely needs more than 8)."""


WIN_WEIGHT = 0.75  # as engines.search.WIN_WEIGHT


SPREAD = (3.0, 25.0)
"""The spread of the logistic win chances: ``SPREAD[0] + SPREAD[1] * time left``, fitted to who
finished ahead in seeded normal games (``python -m benchmarks.spread``: 120 games at 2 and 80 at 3
players, the best of a grid): log loss 0.509 against 0.858 for the (1.5, 4.0) before,
which was worse than a coin flip (0.693) from the first third of the game on. Too narrow a spread
made the win chances 0 or 1 for most of a game (a leader's lead of 20 estimated points is far
from safe with half the game left), and the search chose among moves whose rewards differed in the
fourth decimal."""


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
        out[q] += _card_points(p, king[q], temple_disks[q], stalls[q], coins[q])
    return out


def _card_points(p: Player, king: int, temple: int, stalls: list[int], coins: int) -> int:
    """What the end-game effects of ``p``'s market cards score (as ``scoring.card_points``)."""
    out = 0
    for cid in p.hand + p.discard:
        if cid[0] != "m":
            continue
        for e in CARDS[cid].endgame:
            if e == "2/order":
                out += 2 * len(p.orders)
            elif e == "2/king":
                out += 2 * king
            elif e == "2/temple":
                out += 2 * temple
            elif e[:2] == "3/":
                out += 3 * stalls[GI[e[2:].split("-")[0]]]
            elif e == "2/stall":
                out += 2 * sum(stalls)
            elif e == "1/flower":
                out += p.flowers
            elif e == "4/favor":
                out += 4 * p.favors
            elif e == "1/5coins":
                out += coins // 5
    return out


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
        s = apply(s, seat, policy(s, seat, None, 0.0))[0]
        if s.step == CARD:
            break
    values = estimate(s)
    left = 1.0 - progress(s) if s.step != OVER else 0.0
    return rewards_of(values, SPREAD[0] + SPREAD[1] * left)
