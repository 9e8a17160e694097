"""The Pralaya search's playout policy and action list: the easy level's ideas on the full state.

:func:`playout_action` works on a full :class:`State` (never through ``view``), for the search's
playouts only. It plays like the easy level (engines.pralaya.ai.heuristic) with a table of marginal values
(:func:`_gain`, the easy level's S(h + c) − S(h) exactly) instead of re-scoring the hand, and a
little randomness (``EPSILON``) so that playouts differ:

* COLLECT: the affordable cell with the best marginal value per Vitality (coins count ``w`` more
  per currency while the seat is short of its target Dhoni price); ``done`` once nothing is worth
  taking. With chance ``EPSILON`` a uniformly random take instead.
* BUY: the Dhoni (least currency paid) under the easy level's escape rule (:func:`must_escape`);
  else the Veda under the easy level's condition; else ``pass``.
* DISCARD: the relic of highest cost, then currency (an escaped seat starves the others of coins).

:func:`search_actions` narrows what the search weighs (see there). Playouts run to the end of the
game (about 45 actions): a depth-limited playout scored by a hand-made evaluation of the running
game was measured weaker (20 paired 2-player games against easy at 100 iterations: edge +0.20
and 16 of 20 search seats escaped, against +0.35 and 19 of 20 with full playouts).
"""

from __future__ import annotations

import random

from engines.outcome import Outcome
from engines.pralaya.ai.heuristic import (
    COIN_GAIN,
    ESCAPE_RISK,
    REMOVE,
    REMOVE_VEDA,
    VEDA_CYCLES,
    VEDA_RISK,
    W_COINS,
    W_COINS_LATE,
    end_risk,
)
from engines.pralaya.legal import DISCARD_TEXT, TAKE_TEXT, buy_actions, legal
from engines.pralaya.state import (
    AFF_SHIFT,
    BUY,
    CARD_CODE,
    CARD_CUR,
    CELL_BITS,
    COLLECT,
    COST_E,
    DHONI_PRICE,
    DHONI_X,
    DISCARD,
    IS_RELIC_E,
    RELIC_SHIFT,
    State,
    coins,
)
from engines.search import rewards

ESCAPE_REWARD = 0.4
"""The share of a search reward paid for escaping at all (see :func:`search_rewards`)."""

EPSILON = 0.1
"""The chance that a collecting step takes a random affordable relic instead of the best."""
SEARCH_TAKES = 3
"""How many kinds of relic the search considers taking at a time (the policy's best)."""

_LO = tuple(tuple(i for i in range(9) if m >> i & 1) for m in range(512))
_HI = tuple(tuple(i + 9 for i in range(9) if m >> i & 1) for m in range(512))


def _cells(mask: int) -> tuple[int, ...]:
    """The cells (row-major indices) whose bits are set in an 18-bit ``mask``, in order."""
    return _LO[mask & 511] + _HI[mask >> 9]


_CODES = ("cop", "sil", "gol", "dem", "man", "urn", "gre", "pac", "pun", "bra", "fos")
_TYPE = tuple(_CODES.index(c) if c in _CODES else -1 for c in CARD_CODE)


def _counts(hand: tuple[int, ...]) -> list[int]:
    out = [0] * len(_CODES)
    for c in hand:
        out[_TYPE[c]] += 1
    return out


def _gain(k: list[int], t: int, veda: bool) -> float:
    """The easy level's S(h + c) − S(h) for a relic of type index ``t``, from the counts ``k``."""
    if t != 8 and not k[t]:  # a new type: each Pundit held counts one more
        return k[8] + _gain_of_type(k, t, veda)
    return _gain_of_type(k, t, veda)


def _gain_of_type(k: list[int], t: int, veda: bool) -> float:
    if t <= 2:
        return (1, 3, 6)[t]
    if t == 3:  # Demon Statue
        return 0.0 if k[9] else 2.0 * (-3) ** k[7]
    if t == 4:
        return 2.5  # an unpaired one counts 2.5, and the pair's second brings it to 5
    if t == 5:
        return 7.0 if k[5] % 3 == 2 else 6.5
    if t == 6:
        return 2.0 * k[6] + 1.0
    if t == 7:  # Demonic Pact: multiplies the Demon Statues by -3
        return 0.0 if k[9] else 2.0 * k[3] * ((-3) ** (k[7] + 1) - (-3) ** k[7])
    if t == 8:  # Pundit: each scores the types held (Veda and Dhoni included)
        types = sum(1 for x in k if x) + int(veda) + 1
        return (k[8] + 1) * (types + (0 if k[8] else 1)) - k[8] * types
    if t == 9:  # Brahmin: Demon Statues to 0, 15 with a Veda
        return (15.0 if veda else 0.0) - 2.0 * k[3] * float((-3) ** k[7])
    return 2.0  # Fossil


def target_price(s: State, seat: int) -> int:
    """:func:`engines.pralaya.ai.heuristic.target_price` on the full state."""
    pile = s.dhoni_pile
    if not pile:
        return 0
    others = s.dhoni.count(-1) - 1
    price = DHONI_PRICE[pile[min((max(0, others) + 1) // 2, len(pile) - 1)]]
    return 0 if price is None else price


def risk(s: State, seat: int, cycles: int) -> float:
    """:func:`engines.pralaya.ai.heuristic.view_risk` on the full state (``seat`` is the one to move)."""
    n = s.n
    rem = []
    for k in range(1, cycles * n):
        t = (seat + k) % n
        rem.append(1 if s.dhoni[t] >= 0 else REMOVE_VEDA if s.veda[t] else REMOVE)
    relics = (s.avail >> RELIC_SHIFT).bit_count()
    refills = bin(s.taken).count("1") + (s.step != COLLECT and s.step != BUY)
    unrevealed = sum(map(IS_RELIC_E.__getitem__, s.deck))
    return end_risk(relics, refills, len(s.deck), unrevealed, tuple(rem))


def must_escape(s: State, seat: int) -> bool:
    """The easy level's escape rule on the full state (a Dhoni is assumed legal): the last turn,
    or the game may end before ``seat`` could buy one again (its next turn, or the turns it
    needs to collect the coins of a later Dhoni)."""
    if s.last:
        return True
    g, sv, c = coins(s.hands[seat])
    need = target_price(s, seat) - (6 * g + 3 * sv + c)
    horizon = 1 if need <= 0 else 2 + (need - 1) // COIN_GAIN
    return risk(s, seat, horizon) > ESCAPE_RISK


def search_actions(s: State, seat: int) -> list[str]:
    """What the search considers for ``seat`` (to move) in the full state ``s``.

    * COLLECT: one cell per kind of relic (two Demon Statues are the same choice), the
      ``SEARCH_TAKES`` best by the policy's value, and ``done`` when legal.
    * DISCARD: one cell per kind of relic.
    * BUY: the Dhoni alone (least currency paid) on the game's last turn, when the game may end
      before the seat's next turn (``risk`` over one turn above ``ESCAPE_RISK``: the issue's
      rule), or when a priced Dhoni (not X) is on top and the easy rule (:func:`must_escape`)
      escapes; else the search weighs the Dhoni (least currency paid), the Veda (least paid)
      and ``pass``. Priced Dhoni follow the rule because the playouts model the seat's later
      turns with it: a search free to wait on Dhoni 4 too was measured drowning more than those
      playouts foresee (100 games against easy at 3 players: 132/141 of its seats escaped, 94%,
      with the rule free for every Dhoni; 136/142, 96%, with this rule, at a cost: normal's edge
      there fell from +0.140 to +0.070, 95% CI -0.031 … +0.171). Dhoni X, which takes every
      coin, is the search's.

    Why the search decides its own escapes (it followed the easy rule, :func:`must_escape`,
    before): Monte Carlo values of each move at the easy level's decisions (200 paired samples of
    a determinization and an easy-like playout, 2 players) differ by under 0.01 in win chance
    between the takes of a turn, but by up to +0.575 at a BUY step, where passing on Dhoni X in
    round 1 beats the easy rule's escape with no coins (score 0) by far. With the rule forcing
    its escapes the search had nothing to gain over easy but noise (40-game edges within ±0.05
    of 0); deciding them, 40 games against easy gave +0.150 at 2 players and +0.150 at 3, with
    93-94% of its seats escaping, which :func:`search_rewards` then fixed. The takes are three
    (not five) kinds for the same reason: the budget goes to ``done``, the buys and discards.
    """
    if s.step == COLLECT:
        return _search_takes(s, seat)
    if s.step == DISCARD:
        return _search_discards(s)
    if s.step == BUY:
        return _search_buys(s, seat)
    return legal(s)


def _search_takes(s: State, seat: int) -> list[str]:
    """One take per kind of relic, the ``SEARCH_TAKES`` best by the policy's value, and ``done``."""
    v = s.v_left
    island = s.island
    names = TAKE_TEXT[len(island)]
    hand = s.hands[seat]
    k = _counts(hand)
    veda = bool(s.veda[seat])
    g, sv, c = coins(hand)
    w = W_COINS_LATE if 6 * g + 3 * sv + c < target_price(s, seat) else W_COINS
    scored = []
    kinds = set()
    for i in _cells(s.avail >> AFF_SHIFT[v] & CELL_BITS):
        card = island[i]
        t = _TYPE[card]
        if t not in kinds:
            kinds.add(t)
            scored.append(((_gain(k, t, veda) + w * CARD_CUR[card]) / COST_E[card], -i))
    scored.sort(reverse=True)
    out = ["done"] if s.taken else []
    out += [names[-i] for _, i in scored[:SEARCH_TAKES]]
    return out


def _search_discards(s: State) -> list[str]:
    """One discard per kind of relic on the island."""
    names = DISCARD_TEXT[len(s.island)]
    kinds = set()
    out = []
    for i in _cells(s.avail >> RELIC_SHIFT & CELL_BITS):
        if _TYPE[s.island[i]] not in kinds:
            kinds.add(_TYPE[s.island[i]])
            out.append(names[i])
    return out


def _search_buys(s: State, seat: int) -> list[str]:
    """The Dhoni alone when the escape rule says so, else the Dhoni, the Veda and ``pass``."""
    acts = legal(s)
    dhoni = [a for a in acts if a.startswith("buy dhoni")]
    if dhoni and (
        s.last or risk(s, seat, 1) > ESCAPE_RISK or (s.dhoni_pile[0] != DHONI_X and must_escape(s, seat))
    ):
        return [min(dhoni, key=_paid)]
    vedas = [a for a in acts if a.startswith("buy veda")]
    out = [min(dhoni, key=_paid)] if dhoni else []
    if vedas:
        out.append(min(vedas, key=_paid))
    out.append("pass")
    return out


def search_rewards(outcome: Outcome) -> list[float]:
    """Each seat's reward in [0, 1] for the search: a seat that did not escape gets 0; one that
    escaped gets ``ESCAPE_REWARD`` plus the rest of :func:`engines.search.rewards` (win and rank).

    Without it, escaping in last place pays what drowning pays (0: both rank last at 3 players,
    and the loser of 2 has rank 2 either way), so the search gambled on a later, dearer Dhoni when
    passing on Dhoni X looked better for the win: 7% of its seats that could escape did not
    (40-game arenas against easy: 34/36 at 2 players, 53/57 at 3), against the issue's 95%.
    With 0.25, 57/58 against easy at 3 players, but 56/60 for normal against hard; 0.4 is used
    (37/37 against easy and 39/40 against hard at 2 players, 40 games each).
    """
    base = rewards(outcome)
    return [
        0.0 if score is None else ESCAPE_REWARD + (1.0 - ESCAPE_REWARD) * r
        for score, r in zip(outcome.scores, base, strict=True)
    ]


def _paid(action: str) -> int:
    g, sv, c = (int(tok[:-1]) for tok in action.split()[2:5])
    return 6 * g + 3 * sv + c


def playout_action(s: State, seat: int, rng: random.Random) -> str:
    """The policy's move for ``seat`` (the seat to move) in the full state ``s``."""
    step = s.step
    if step == COLLECT:
        names = TAKE_TEXT[len(s.island)]
        v = s.v_left
        cells = _cells(s.avail >> AFF_SHIFT[v] & CELL_BITS)
        if not cells:
            return "done"
        if rng.random() < EPSILON:
            return names[cells[rng.randrange(len(cells))]]
        hand = s.hands[seat]
        k = _counts(hand)
        veda = bool(s.veda[seat])
        g, sv, c = coins(hand)
        short = 6 * g + 3 * sv + c < target_price(s, seat)
        w = W_COINS_LATE if short else W_COINS
        best, best_value = -1, 0.0
        for i in cells:
            card = s.island[i]
            value = (_gain(k, _TYPE[card], veda) + w * CARD_CUR[card]) / COST_E[card]
            if best < 0 or value > best_value:
                best, best_value = i, value
        if s.taken and best_value <= 0:
            return "done"
        return names[best]
    if step == BUY:
        acts = buy_actions(s)
        dhoni = [a for a in acts if a.startswith("buy dhoni")]
        if dhoni and must_escape(s, seat):
            return min(dhoni, key=_paid)
        vedas = [a for a in acts if a.startswith("buy veda")]
        if vedas:
            cheapest = min(vedas, key=_paid)
            g, sv, c = coins(s.hands[seat])
            need = target_price(s, seat) - (6 * g + 3 * sv + c - _paid(cheapest))
            horizon = VEDA_CYCLES + max(0, need - 1) // COIN_GAIN
            if _paid(cheapest) <= 6 and risk(s, seat, horizon) < VEDA_RISK:
                return cheapest
        return "pass"
    names = DISCARD_TEXT[len(s.island)]
    best, key = -1, (-1, -1)
    for i in _cells(s.avail >> RELIC_SHIFT & CELL_BITS):
        card = s.island[i]
        if (COST_E[card], CARD_CUR[card]) > key:
            best, key = i, (COST_E[card], CARD_CUR[card])
    return names[best]
