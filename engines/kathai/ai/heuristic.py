"""The Kathai easy AI seat (a heuristic with trading; it reads only the seat's own view) and the
search's evaluation of a full state.

Definitions (the engine's own, docs/rules/kathai.md#ai-heuristic):

* *target goods*: the goods with the most items in hand among the sellable positions (ties:
  the better position); a goods at position 5 counts half.
* *least useful card*: fewest items of the target goods, then fewest items, then lowest id.

In ``main``, the first rule that applies: sell the best full sale if it scores ≥ 6, the hand
is full or the end is running; bribe with a profit card when a goods already meets the
minimum of the position to its left; buy with two or more profit cards; make one offer a turn
(``offer all <least useful> for <goods one card short of a minimum> 1``); else swap the least
useful card, or pass. In ``reply``: accept when the offered cards add more target items than
the cheapest eligible answer costs, unless the offerer leads by 8 or more. Deterministic;
always falls back to ``pass`` / ``decline``.

In the end game (fixed, issue #12): a seat in its last turn with nothing to sell passes (it
used to bribe with a profit card, losing a tie-break point, or ask for goods it could no
longer sell, handing an opponent a card), and a seat with no turn left declines every ask (it
used to accept, which only helped the asker).

:func:`evaluate` scores a running full state for the search: each seat's estimated final score
(score, what its hand can still sell, profit cards), turned into win chances by a softmax whose
spread grows with the turns left, and into the reward of ``engines.search.rewards`` (win and
rank).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engines.contract import Action
from engines.kathai.data import GOODS, ITEMS, PRICES, SELLABLE
from engines.kathai.state import State
from engines.kathai.view import CardView, KathaiView, MeView

Card = CardView
LEAD = 8


def _num(card_id: str) -> int:
    return int(card_id[1:])


def _items(card: Card, g: str) -> int:
    return int(card["items"].get(g, 0))


def _ids(cards: list[Card]) -> str:
    return " ".join(c["id"] for c in sorted(cards, key=lambda c: _num(c["id"])))


def target_goods(view: KathaiView, me: MeView) -> str:
    """The goods the hand is collecting (see the module docstring)."""
    best, best_key = GOODS[0], (-1.0, 0)
    for slot in view["market"]:
        g = slot["goods"]
        items = float(me["totals"][g]) * (1.0 if slot["sellable"] else 0.5)
        key = (items, -slot["pos"])
        if key > best_key:
            best, best_key = g, key
    return best


def least_useful(hand: list[Card], target: str, avoid: str = "") -> Card | None:
    """The card to part with: fewest target items (never one showing ``avoid`` if possible)."""
    if not hand:
        return None
    pool = [c for c in hand if not avoid or not _items(c, avoid)] or hand
    return min(pool, key=lambda c: (_items(c, target), sum(c["items"].values()), _num(c["id"])))


def _best_sale(view: KathaiView, me: MeView) -> tuple[int, str] | None:
    """(points, text) of the best sale of every card showing a goods, if any is legal."""
    best: tuple[int, str] | None = None
    for slot in view["market"]:
        need, bonus = slot["min"], slot["bonus"]
        if need is None or bonus is None:  # position 5: unsellable
            continue
        g = slot["goods"]
        cards = [c for c in me["hand"] if _items(c, g)]
        if cards and sum(_items(c, g) for c in cards) >= need:
            pts = len(cards) + bonus
            if best is None or pts > best[0]:
                best = (pts, f"sell {g} {_ids(cards)}")
    return best


def _locked(view: KathaiView, a: str, b: str) -> bool:
    lock = view["lock"]
    if lock is None:
        return False
    if view["options"]["bribe_lock"] == "goods":
        return a in lock["pair"] or b in lock["pair"]
    return set(lock["pair"]) == {a, b}


def turns_left(view: KathaiView, seat: int) -> int | None:
    """The seat's final turns left, the current one included (None before the end is
    triggered; the trigger turn itself does not count, so its seat has one more)."""
    final = view["final"]
    return None if final is None else int(final[seat])


def _main(view: KathaiView, me: MeView, legal: Sequence[Action]) -> Action | None:
    hand: list[Card] = me["hand"]
    sale = _best_sale(view, me)
    if (
        sale is not None
        and (sale[0] >= 6 or len(hand) >= 7 or view["final"] is not None)
        and sale[1] in legal
    ):
        return sale[1]
    if turns_left(view, me["seat"]) == 1:
        # the last turn and nothing to sell: a bribe would spend a profit card (the tie-break)
        # and an ask would hand an opponent a card, for goods this seat can no longer sell
        return "pass"
    market = view["market"]
    if me["profit"]:
        for p in range(1, SELLABLE + 1):  # goods at index p (position p + 1) moving left
            g, left = market[p]["goods"], market[p - 1]["goods"]
            if me["totals"][g] >= PRICES[p - 1][1] and not _locked(view, g, left):
                a, b = sorted((g, left), key=GOODS.index)
                text = f"bribe {a} {b} profit"
                if text in legal:
                    return text
    if me["profit"] >= 2 and "buy" in legal:
        return "buy"
    target = target_goods(view, me)
    if view["step"] == "main" and view["offers_used"] == 0:
        short = []
        for slot in market:
            need = slot["min"]
            if need is not None:  # a sellable position
                d = need - me["totals"][slot["goods"]]
                if d > 0:
                    short.append((d > 3, d, slot["pos"], slot["goods"]))
        if short:
            g = min(short)[3]
            card = least_useful(hand, target if target != g else "", avoid=g)
            if card is not None:
                text = f"offer all {card['id']} for {g} 1"
                if text in legal:
                    return text
    card = least_useful(hand, target)
    if card is not None and f"swap {card['id']}" in legal:
        return f"swap {card['id']}"
    return None


def _reply(view: KathaiView, me: MeView, legal: Sequence[Action]) -> Action:
    offer = view["offer"]
    give = offer["give"] if offer is not None else None
    if offer is None or give is None:
        return "decline"
    by = offer["by"]
    if turns_left(view, me["seat"]) == 0:
        return "decline"  # no turn left to sell what it gets: a trade would only help the asker
    scores = [p["score"] for p in view["players"]]
    others = [sc for q, sc in enumerate(scores) if q != by]
    if others and scores[by] - max(others) >= LEAD:
        return "decline"
    target = target_goods(view, me)
    gain = sum(_items(c, target) for c in give)
    hand = {c["id"]: c for c in me["hand"]}
    options = []
    for a in legal:
        if a == "accept" or a.startswith("accept "):
            ids = a.split()[1:]
            cost = sum(_items(hand[i], target) for i in ids if i in hand)
            options.append((cost, [_num(i) for i in ids], a))
    if not options:
        return "decline"
    cost, _, best = min(options)
    return best if gain > cost else "decline"


def choose(view: KathaiView, legal: Sequence[Action]) -> Action:
    """The AI's move: one of ``legal``, from the seat's own ``view`` only."""
    if not legal:
        raise ValueError("no legal action to choose from")
    me = view["me"]
    if me is None:
        return legal[0]
    pick = _reply(view, me, legal) if "decline" in legal else _main(view, me, legal) or "pass"
    if pick in legal:
        return pick
    for fallback in ("pass", "decline"):
        if fallback in legal:
            return fallback
    return legal[0]


def totals(hand: tuple[int, ...]) -> list[int]:
    """Items of each goods in ``hand``."""
    if not hand:
        return [0, 0, 0, 0, 0]
    return [sum(col) for col in zip(*[ITEMS[c] for c in hand], strict=True)]


WIN_WEIGHT = 0.75
"""As ``engines.search.WIN_WEIGHT``: the share of the reward that is the win."""


# --------------------------------------------------------------------------- evaluation


def turns_remaining(s: State) -> float:
    """About how many more turns each seat has: the pile drains about one card a turn (the
    draws, less the turns at a full hand), then two final turns each."""
    if s.final is not None:
        return float(max(s.final))
    return len(s.pile) / (0.8 * s.n) + 2.0


def hand_value(s: State, hand: tuple[int, ...], left: float) -> float:
    """What ``hand`` should still score in ``left`` more turns: the best goods' sale (in full if
    its minimum is met, else in proportion to the items it has), plus a share of the other
    goods' (none once at most one turn is left, when only one sale can still be made; nothing
    once the seat has no turn left)."""
    t = totals(hand)
    vals: list[float] = []
    for pos, g in enumerate(s.market):
        if not t[g]:
            continue
        cards = sum(1 for c in hand if ITEMS[c][g])
        p = min(pos, SELLABLE - 1)
        bonus, need = PRICES[p]
        v = float(cards + bonus)
        if t[g] < need:
            v *= 0.6 * t[g] / need
        if pos >= SELLABLE:
            v *= 0.7
        vals.append(v)
    if not vals or left <= 0.0:
        return 0.0
    vals.sort(reverse=True)
    if left <= 1.0:
        return vals[0]
    return vals[0] + 0.35 * sum(vals[1:])


def estimate(s: State, seat: int, left: float) -> float:
    """The seat's expected final score: its score, what its hand should still score, and a
    little for each profit card (a bribe, a card, the tie-break)."""
    return s.scores[seat] + hand_value(s, s.hands[seat], left) + 0.4 * len(s.profit[seat])


def evaluate(s: State) -> list[float]:
    """Each seat's expected reward in [0, 1] (win share and rank, as engines.search scores a
    finished game) from the estimated final scores."""
    n = s.n
    left = turns_remaining(s)
    final = s.final
    est = [estimate(s, q, float(final[q]) if final is not None else left) for q in range(n)]
    temp = 2.0 + 0.35 * left
    top = max(est)
    ex = [math.exp((e - top) / temp) for e in est]
    z = sum(ex)
    out = []
    for q in range(n):
        win = ex[q] / z
        place = sum(1.0 / (1.0 + math.exp((est[r] - est[q]) / temp)) for r in range(n) if r != q) / (n - 1)
        out.append(WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * place)
    return out
