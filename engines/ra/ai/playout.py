"""What the search AI (``engines.search``) plays out in Ra: the moves worth searching, a cheap
playout policy on the full state, and the valuation that policy and ``heuristic.evaluate`` share.

Both rest on one estimate, :func:`row_value`: the points a seat's held tiles are still worth
from now to the end of the game (this epoch's gods, gold, civilizations and traders; pharaohs,
niles and monuments also for the epochs still to come, since they are kept), and on
:func:`sun_value`: what a seat's suns are worth (the share of the tiles still to come out this
epoch that its face-up suns can buy, its sun total for the next epochs or the final ±5). A lot's
value to a seat is the difference its tiles (and their disasters) make to ``row_value``, less the
crates its traders hand the other seats.

The policy (:func:`policy`) bids its lowest sun that wins when the lot is worth more than the
sun (its share of the epoch's remaining tiles, and what it costs next epoch to swap it for the
centre sun), invokes Ra on a lot worth enough, uses a god on a tile worth more than the god,
and discards what costs least; with a small probability it plays a random legal move instead,
so that the search sees varied continuations.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.ra import data
from engines.ra.legal import god_targets, legal_actions, pending_category
from engines.ra.notation import BID_TEXT, DISCARD_TEXT, GOD_TEXT
from engines.ra.scoring import monument_points
from engines.ra.state import (
    AUCTION,
    CIV,
    DISCARD,
    DROUGHT,
    EARTHQUAKE,
    FLOOD,
    FUNERAL,
    GOD,
    GOD_MORE,
    GOLD,
    MON,
    NILE,
    O_TRADERS,
    PENDING_CODES,
    PHARAOH,
    RA,
    TRADER,
    TURN,
    UNREST,
    VOLUNTARY,
    State,
)

EPOCHS = data.EPOCHS
CIV_BY_TYPES = data.CIV_BY_TYPES
MON_KEEP = 0.85
"""Share of the final monument points counted for monuments held before the last epoch (they
are kept, but a disaster may still take some)."""
PHARAOH_LINEAR = 0.4
"""Points per pharaoh per epoch left, besides the most/fewest comparison (which is flat between
thresholds, so a race a tile or two away still counts)."""
PHARAOH_FUTURE = 0.6
"""Share of this epoch's pharaoh points expected again in each later epoch."""
NILE_FUTURE = 0.6
"""Points per nile in each later epoch (it scores if a flood is taken then)."""
TRADER_EXTRA = 0.3
"""A trader tile's value besides its point: the crates it earns when others take traders."""
TILE_WORTH = 1.2
"""What one tile still to come out this epoch is worth on average to whoever buys it."""
SUN_FUTURE = 0.25
"""Points per unit of sun total above the table's mean, for the epochs after this one."""
EPSILON = 0.08
"""Chance that the playout policy plays a uniformly random legal move."""
_DISASTERS = (FUNERAL, DROUGHT, UNREST, EARTHQUAKE)


# --------------------------------------------------------------------------- valuation


def _civ_points(row: Sequence[int]) -> int:
    a, b, c, d, e = CIV
    return CIV_BY_TYPES[(row[a] > 0) + (row[b] > 0) + (row[c] > 0) + (row[d] > 0) + (row[e] > 0)]


def _pharaoh_points(p: int, others: Sequence[int]) -> int:
    hi = max(others)
    lo = min(others)
    if p > hi:
        return data.PHARAOH_MOST
    if p < lo:
        return data.PHARAOH_FEWEST
    if p == hi == lo:
        return 0
    if p == hi:
        return data.PHARAOH_MOST
    if p == lo:
        return data.PHARAOH_FEWEST
    return 0


_ROW_MEMO: dict[tuple[object, ...], float] = {}
_LOT_MEMO: dict[tuple[object, ...], float] = {}
_MEMO_MAX = 200_000


def _memo_put(memo: dict[tuple[object, ...], float], key: tuple[object, ...], value: float) -> float:
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = value
    return value


def row_value(state: State, seat: int, row: Sequence[int]) -> float:
    """The points the tiles ``row`` (held counts, indexed like ``TILE_ORDER``) would still earn
    ``seat`` from now to the end of the game (crates and suns apart). A pure function of the
    row, the other seats' pharaohs, the epoch and the Traders option (remembered)."""
    tiles = state.tiles
    others = tuple([tiles[q][PHARAOH] for q in range(state.n) if q != seat])
    key = (tuple(row), others, state.epoch, state.opts[O_TRADERS])
    got = _ROW_MEMO.get(key)
    if got is not None:
        return got
    return _memo_put(_ROW_MEMO, key, _row_value(row, others, EPOCHS - state.epoch, state.opts[O_TRADERS]))


def _row_value(row: Sequence[int], others: Sequence[int], left: int, traders: bool) -> float:
    p = row[PHARAOH]
    ph = _pharaoh_points(p, others)
    v = 2.0 * row[GOD] + 3.0 * row[GOLD]
    v += ph * (1.0 + PHARAOH_FUTURE * left) + PHARAOH_LINEAR * p * (1 + left)
    nile, flood = row[NILE], row[FLOOD]
    if flood:
        v += nile + flood
    else:
        v += 0.3 * nile
    v += NILE_FUTURE * left * nile
    v += _civ_points(row)
    if traders:
        v += (1.0 + TRADER_EXTRA) * row[TRADER]
    mons = [row[m] for m in MON]
    if any(mons):
        v += monument_points(mons) * (1.0 if left == 0 else MON_KEEP)
    return v


def _cheapest_loss(state: State, seat: int, row: list[int], codes: Sequence[int], k: int) -> None:
    """Take ``k`` tiles of ``codes`` from ``row``, one at a time, each time the one whose loss
    lowers :func:`row_value` least (all of them if ``row`` holds no more than ``k``)."""
    for _ in range(k):
        best, best_v = -1, -1e9
        for c in codes:
            if row[c]:
                row[c] -= 1
                v = row_value(state, seat, row)
                row[c] += 1
                if v > best_v:
                    best, best_v = c, v
        if best < 0:
            return
        row[best] -= 1


def lot_value(state: State, seat: int, lot: Sequence[int] | None = None) -> float:
    """What winning ``lot`` (tile indices; default the auction track) is worth to ``seat``: the
    change in :func:`row_value` once its disasters have hit, less the crates its traders give
    the other seats (shared among them)."""
    track = state.track if lot is None else lot
    if not track:
        return 0.0
    tiles = state.tiles
    n = state.n
    before = tiles[seat]
    key = (tuple(track), seat, tiles, state.epoch, state.opts[O_TRADERS])
    got = _LOT_MEMO.get(key)
    if got is not None:
        return got
    row = list(before)
    hits = [0, 0, 0, 0]
    traders = 0
    for c in track:
        if c in _DISASTER_INDEX:
            hits[_DISASTER_INDEX[c]] += 1
        else:
            row[c] += 1
            if c == TRADER:
                traders += 1
    if hits[0]:
        row[PHARAOH] = max(0, row[PHARAOH] - 2 * hits[0])
    if hits[1]:
        k = 2 * hits[1]
        f = min(k, row[FLOOD])
        row[FLOOD] -= f
        row[NILE] = max(0, row[NILE] - (k - f))
    if hits[2]:
        _cheapest_loss(state, seat, row, CIV, 2 * hits[2])
    if hits[3]:
        _cheapest_loss(state, seat, row, MON, 2 * hits[3])
    v = row_value(state, seat, row) - row_value(state, seat, before)
    if traders and state.opts[O_TRADERS]:
        given = sum(tiles[q][TRADER] for q in range(n) if q != seat) * traders
        v -= given / (n - 1)
    return _memo_put(_LOT_MEMO, key, v)


_DISASTER_INDEX = {c: i for i, c in enumerate(_DISASTERS)}


def tiles_to_come(state: State) -> float:
    """The expected number of tiles still to reach the auction track this epoch (the track's
    plus the draws expected before the Ra track fills)."""
    remaining = state.bag[state.bag_pos :]
    n_left = len(remaining)
    ra_left = remaining.count(RA)
    need = data.RA_LIMIT[state.n] - state.ra_track
    others = n_left - ra_left
    draws = need * others / (ra_left + 1) if ra_left >= need else others
    return len(state.track) + draws


def per_sun(state: State) -> float:
    """What one face-up sun is worth this epoch: its share of the tiles still to come (at most
    a full track), at :data:`TILE_WORTH` a tile."""
    suns = sum(len(u) for u in state.up)
    if not suns:
        return 0.0
    return TILE_WORTH * min(float(data.AUCTION_SLOTS), tiles_to_come(state) / suns)


def sun_cost(state: State, seat: int, sun: int, unit: float) -> float:
    """What bidding ``sun`` costs ``seat`` if it wins: the purchase the sun could still make
    this epoch (``unit``, weighted by its rank), and swapping it for the centre sun (next epoch's
    bidding power, or the final sun race)."""
    top = data.MAX_SUN[state.n]
    cost = unit * (0.5 + sun / top)
    swap = sun - state.center
    if state.epoch < EPOCHS:
        cost += SUN_FUTURE * swap
    else:
        cost += 0.3 * swap
    return cost


def sun_value(state: State, seat: int, unit: float, mean_total: float) -> float:
    """What ``seat``'s suns are worth to the end of the game: each face-up sun's purchase this
    epoch, and its sun total against the table's mean (later epochs' bidding power, the final
    race)."""
    top = data.MAX_SUN[state.n]
    v = sum(unit * (0.5 + s / top) for s in state.up[seat])
    total = sum(state.up[seat]) + sum(state.down[seat])
    v += (SUN_FUTURE if state.epoch < EPOCHS else 0.3) * (total - mean_total)
    return v


# --------------------------------------------------------------------------- what to search

EMPTY_SWAP = 3
"""Invoking Ra on an empty track (a forced bid: a sun swap) is searched only when the centre
sun beats the seat's lowest sun by more than this."""


def search_actions(state: State, seat: int, legal: list[str]) -> list[str]:
    """The moves worth searching among ``legal`` (never empty): in an auction, pass, the
    lowest sun that wins and, unless the seat bids last, the highest (a bid in between costs
    more than the lowest without stopping more rivals than the highest; the last bidder has no
    rival left to stop); on a turn, invoking on an empty track only when the swap gains a much
    better centre sun."""
    step = state.step
    if step == AUCTION:
        bids = [a for a in legal if a != "pass"]
        if not bids:
            return legal
        last = state.a_idx == len(state.a_order) - 1
        out = [bids[0]] if last or len(bids) == 1 else [bids[0], bids[-1]]
        if "pass" in legal:
            out.append("pass")
        return out
    if step == TURN and not state.track and "draw" in legal:
        up = state.up[seat]
        if not up or state.center <= up[0] + EMPTY_SWAP:
            return [a for a in legal if a != "invoke"]
    return legal


# --------------------------------------------------------------------------- playout policy

GOD_MARGIN = 1.0
"""How much more than the god's own 2 points a tile must be worth to spend a god on it."""
INVOKE_BASE = 5.5
INVOKE_PER_TILE = 0.4
"""Invoke Ra when the lot is worth at least ``INVOKE_BASE - INVOKE_PER_TILE × tiles``, or more
than the seat's lowest sun costs."""


def _best_god(state: State, seat: int) -> tuple[int, float]:
    best, best_v = -1, -1e9
    for c in god_targets(state, seat):
        v = lot_value(state, seat, (c,))
        if v > best_v:
            best, best_v = c, v
    return best, best_v


def policy(state: State, seat: int, legal: Sequence[str]) -> str:
    """The greedy move of the playout policy for the awaited ``seat`` (one of ``legal``)."""
    step = state.step
    if step == AUCTION:
        up = state.up[seat]
        high = state.a_high
        bids = [v for v in up if v > high]
        if not bids:
            return "pass"
        low = bids[0]
        forced = state.a_kind == VOLUNTARY and high == 0 and seat == state.a_ra
        if forced:
            return BID_TEXT[low]
        value = lot_value(state, seat)
        unit = per_sun(state)
        if value >= sun_cost(state, seat, low, unit) + 0.5:
            return BID_TEXT[low]
        return "pass"
    if step == TURN:
        track = state.track
        if track and state.tiles[seat][GOD]:
            c, v = _best_god(state, seat)
            if c >= 0 and v >= 2.0 + GOD_MARGIN:
                return GOD_TEXT[c]
        if "draw" not in legal:
            return "invoke" if "invoke" in legal else legal[0]
        if track:
            value = lot_value(state, seat)
            if value >= INVOKE_BASE - INVOKE_PER_TILE * len(track):
                return "invoke"
            up = state.up[seat]
            if up and len(track) >= 3 and value >= sun_cost(state, seat, up[0], per_sun(state)) + 1.5:
                return "invoke"
        return "draw"
    if step == GOD_MORE:
        c, v = _best_god(state, seat)
        return GOD_TEXT[c] if c >= 0 and v >= 2.0 + GOD_MARGIN else "done"
    if step == DISCARD:
        row = list(state.tiles[seat])
        best, best_v = legal[0], -1e9
        for c in PENDING_CODES[pending_category(state)]:
            if row[c]:
                row[c] -= 1
                v = row_value(state, seat, row)
                row[c] += 1
                if v > best_v:
                    best, best_v = DISCARD_TEXT[c], v
        return best
    return legal[0]


def playout_action(state: State, seat: int, rng: random.Random) -> str:
    """The playout's move: :func:`policy`, or with probability :data:`EPSILON` a uniformly
    random legal move."""
    legal = legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EPSILON:
        return legal[rng.randrange(len(legal))]
    return policy(state, seat, legal)
