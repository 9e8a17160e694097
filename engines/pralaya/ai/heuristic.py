"""The Pralaya AI's easy level (docs/rules/pralaya.md#ai, with the escape rule of
docs/rules/pralaya.md#ai-escape-rule): a deterministic
heuristic that reads only the seat's own view.

S(h) is the score (docs/rules/pralaya.md#scoring) of hand h as if escaped, plus partial credit for
unfinished sets: 2.5 for an unpaired Manuscript, 6.5 per Urn in an unfinished set of 3, 2 per
Fossil. The Fossil majority
(15) is included only when every hand is visible (``open_hands`` or game over).

Time left is read from the island, not the deck (issue #12): most games end because the island
holds one relic or none, long before the deck runs out of relics. :func:`end_risk` is the chance
that the game is over before this seat's turn comes round again, from the island's relic count,
the deck's share of relics and how many relics each seat in between takes (a pessimistic 3, 4
with a Veda, 1 for an escaped seat's discard). The target price is the Dhoni this seat should
expect to pay if it waits (the one left after half the other seats still on the island escape).

* COLLECT: take the affordable cell maximising (S(h+c) − S(h) + w·currency) / cost, with w = 3
  while the seat's coins fall short of the target price, else 0.5; ties go to the first cell.
  After the first take, ``done`` when the best value is ≤ 0.
* BUY: the Dhoni (least currency paid) if legal and this is the last turn, or the risk of the
  game ending before the seat could buy again exceeds ``ESCAPE_RISK`` (the seat's next turn when
  its coins reach the target price; else the turns it needs to collect the shortfall at
  ``COIN_GAIN`` a turn, plus one). Else a Veda (cheapest payment ≤ 6) if the seat has none and the
  game will very likely last the turns needed to earn back the coins it costs. Else ``pass``.
  With the first rule (R ≤ 6·k, R counting the deck) 15%-40% of AI seats never escaped; over 300
  seeded easy-only games per player count this escapes 98.6%, 97.0%, 96.1% and 96.4% (2-5p) of
  the seats that had a Dhoni among their legal moves.
* DISCARD: the highest cost, then the highest currency, then the first cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import comb
from typing import Any

from engines.pralaya.data import COIN_VALUE
from engines.pralaya.scoring import category_points, fossil_leader

W_COINS = 0.5
W_COINS_LATE = 3.0
PARTIAL = {"man": 2.5, "urn": 6.5, "fos": 2.0}
ESCAPE_RISK = 0.02
COIN_GAIN = 2  # currency a turn a seat short of coins may hope to collect
VEDA_RISK = 0.02
VEDA_CYCLES = 4
REMOVE, REMOVE_VEDA = 3, 4


def _paid(action: str) -> int:
    """Currency of a ``buy … <g>g <s>s <c>c`` action."""
    g, s, c = (int(tok[:-1]) for tok in action.split()[2:5])
    return 6 * g + 3 * s + c


def potential(counts: Mapping[str, int], veda: bool, others_fossils: Sequence[int] | None) -> float:
    """S(h): the score as if escaped plus partial credit. ``others_fossils``: the Fossil counts
    the seat competes with when they are known (None: the majority is unknown and left out)."""
    mine = counts.get("fos", 0)
    majority = False
    if others_fossils is not None:
        everyone = [mine, *others_fossils]
        majority = fossil_leader(everyone, range(len(everyone))) == 0
    total: float = sum(category_points(counts, veda, True, fossil_majority=majority).values())
    total += PARTIAL["man"] * (counts.get("man", 0) % 2)
    total += PARTIAL["urn"] * (counts.get("urn", 0) % 3)
    total += PARTIAL["fos"] * mine
    return total


def end_risk(relics: int, refills: int, deck: int, unrevealed: int, removals: tuple[int, ...]) -> float:
    """The chance that the game is over before this seat's next turn starts.

    ``relics``: non-Ocean cards on the island now; ``refills``: cells this seat emptied this turn
    (refilled from the deck at its end); ``deck``/``unrevealed``: cards in the deck and how many
    of them are relics; ``removals``: for each later seat before this one comes round again, in
    turn order, how many relics it takes off the island (1 for an escaped seat's discard).

    The game ends after a turn that starts with one relic, or when a refill leaves none; each
    refill draws relics with the deck's share of them (a binomial, the share kept fixed). Exact
    over that model, by the distribution of the island's relic count.
    """
    # Only the deck's share of relics matters (in 64ths), and the deck's size only while it may
    # run out within these turns: the cache below then answers most calls.
    share = round(64 * unrevealed / deck) if deck else 0
    return _end_risk(relics, refills, min(deck, refills + sum(removals)), share, removals)


@lru_cache(maxsize=65536)
def _end_risk(relics: int, refills: int, deck: int, share: int, removals: tuple[int, ...]) -> float:
    p = share / 64
    pmf = [[comb(d, h) * p**h * (1.0 - p) ** (d - h) for h in range(d + 1)] for d in range(5)]
    size = relics + refills + 1
    dist = [0.0] * size
    dist[relics] = 1.0
    over = 0.0
    left = deck
    for k, remove in enumerate((refills, *removals)):
        nxt = [0.0] * size
        for count in range(size):
            prob = dist[count]
            if not prob:
                continue
            if k and count <= 1:  # a later seat's turn starts with one relic: the game's last turn
                over += prob
                continue
            took = refills if k == 0 else min(count, remove)
            after = count - (0 if k == 0 else took)
            row = pmf[min(took, left, 4)]
            for hit, q in enumerate(row):
                nxt[after + hit] += prob * q
        left = max(0, left - remove)
        over += nxt[0]  # only Oceans after the refill
        nxt[0] = 0.0
        dist = nxt
    return over


def _others_fossils(view: Mapping[str, Any], seat: int) -> list[int] | None:
    """Fossil counts of the seats this seat would compete with, if all hands are visible."""
    players = view["players"]
    if any(p["hand"] is None for p in players):
        return None
    fossil_all = view["options"].get("fossil_all_players", False)
    return [p["hand"].get("fos", 0) for p in players if p["seat"] != seat and (fossil_all or p["escaped"])]


def _collect(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    me = view["me"]
    seat = me["seat"]
    hand: dict[str, int] = dict(me["hand"])
    veda = bool(view["players"][seat]["veda"])
    others = _others_fossils(view, seat)
    base = potential(hand, veda, others)
    short = me["currency"] < target_price(view)
    w = W_COINS_LATE if short else W_COINS
    cells = {c["cell"]: c for c in view["island"]}
    best, best_value = None, 0.0
    for action in legal:
        if not action.startswith("take "):
            continue
        cell = cells[action[5:]]
        code = cell["code"]
        hand[code] = hand.get(code, 0) + 1
        gain = potential(hand, veda, others) - base
        hand[code] -= 1
        value = (gain + w * COIN_VALUE.get(code, 0)) / cell["cost"]
        if best is None or value > best_value:
            best, best_value = action, value
    if "done" in legal and (best is None or best_value <= 0):
        return "done"
    return best if best is not None else legal[0]


def later_removals(view: Mapping[str, Any], cycles: int = 1) -> tuple[int, ...]:
    """What :func:`end_risk` needs of the seats after the viewer's: for each turn in order until the
    viewer's turn comes round ``cycles`` times (the viewer's own later turns included, the last
    one excepted), the relics that turn takes off the island."""
    seat = view["me"]["seat"]
    players = view["players"]
    n = len(players)
    out = []
    for k in range(1, cycles * n):
        p = players[(seat + k) % n]
        out.append(1 if p["escaped"] else REMOVE_VEDA if p["veda"] else REMOVE)
    return tuple(out)


def target_price(view: Mapping[str, Any]) -> int:
    """The Dhoni price this seat should expect to pay if it does not escape now: the one it gets
    if half the other seats still on the island (rounded up) escape first (Dhoni X, which takes
    all coins, counts 0)."""
    pile = view["dhoni"]
    if not pile:
        return 0
    others = sum(1 for p in view["players"] if not p["escaped"]) - 1
    price = pile[min((max(0, others) + 1) // 2, len(pile) - 1)]["price"]
    return 0 if price == "X" else int(price)


def view_risk(view: Mapping[str, Any], cycles: int = 1) -> float:
    """:func:`end_risk` from the viewer's own view (the viewer is the seat to move)."""
    relics = sum(1 for c in view["island"] if c["code"] not in (None, "oce"))
    refills = sum(1 for c in view["island"] if c["taken"])
    if view["step"] == "discard":
        refills += 1
    return end_risk(relics, refills, view["deck"], view["unrevealed"], later_removals(view, cycles))


def _buy(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    seat = view["me"]["seat"]
    relics_now = sum(1 for c in view["island"] if c["code"] not in (None, "oce"))
    last = relics_now + sum(1 for c in view["island"] if c["taken"]) == 1
    dhoni = [a for a in legal if a.startswith("buy dhoni ")]
    if dhoni:
        cash = view["me"]["currency"]
        # passing risks the game ending first, or the others buying what this seat can afford
        need = target_price(view) - cash
        horizon = 1 if need <= 0 else 2 + (need - 1) // COIN_GAIN
        if last or view_risk(view, horizon) > ESCAPE_RISK:
            return min(dhoni, key=_paid)  # min keeps the first of equals
    veda = [a for a in legal if a.startswith("buy veda ")]
    if veda and not view["players"][seat]["veda"]:
        cheapest = min(veda, key=_paid)
        # the coins still needed for the Dhoni after paying for the Veda, and the time to get them
        need = target_price(view) - (view["me"]["currency"] - _paid(cheapest))
        horizon = VEDA_CYCLES + max(0, need - 1) // COIN_GAIN
        if _paid(cheapest) <= 6 and view_risk(view, horizon) < VEDA_RISK:
            return cheapest
    return "pass"


def _discard(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    cells = {c["cell"]: c for c in view["island"]}
    options = [a for a in legal if a.startswith("discard ")]
    if not options:
        return legal[0]
    return min(options, key=lambda a: (-(cells[a[8:]]["cost"] or 0), -cells[a[8:]]["currency"]))


def choose(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    """The AI's action for the seat whose ``view`` this is; the first legal action if its pick
    is not in ``legal`` (or ``legal`` does not match the view's step)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    step = view.get("step")
    if view.get("me") is None:
        return legal[0]
    if step == "collect":
        pick = _collect(view, legal)
    elif step == "buy":
        pick = _buy(view, legal)
    elif step == "discard":
        pick = _discard(view, legal)
    else:
        pick = legal[0]
    return pick if pick in legal else legal[0]
