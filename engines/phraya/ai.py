"""Phraya AI (spec §12): a deterministic heuristic that reads only its own view.

It pursues restaurant orders, Temple offerings, the King's Chart and stall majorities rather than
wandering: the card by its immediate gain, each destination by what its stalls offer, and in
ACT the fixed order deliver → buy for an order → temple → king → admin → scribe → basket/rower →
sell at a high price → end. Ties go to the first action in the (sorted) legal list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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


def _act(view: V, me: V, legal: Sequence[str]) -> str:
    goods = me["goods"]
    sec = view["boats"][view["viewer"]]
    stalls = {st["id"]: st for st in view["board"]["stalls"] if st["section"] == sec}
    if "deliver" in legal:
        return "deliver"
    # buy what the order on this section lacks
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
