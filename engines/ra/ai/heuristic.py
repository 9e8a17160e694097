"""Ra's heuristics: the easy AI (:func:`choose`) and the search's evaluation (:func:`evaluate`).

The easy AI (docs/rules/ra.md#easy-ai) values tiles with stand-in weights and reads only its own
view. It is deterministic: ties go to the first action in list order, and anything that is not
legal falls back to the first legal action. The evaluation turns each seat's estimated final
score (its total so far plus what ``playout.py`` says its tiles, crates and suns are still
worth) into the search's reward.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engines.ra import data
from engines.ra.ai.playout import per_sun, row_value, sun_value
from engines.ra.state import O_TRADERS, State
from engines.ra.view import RaView
from engines.search import WIN_WEIGHT

W = data.AI_WEIGHTS
_CIVS = frozenset(data.CIVS)
_MONS = frozenset(data.MONUMENTS)
_HITS = {d: data.DISASTER_HITS[d] for d in data.DISASTERS}
_CATEGORY_CODES = {
    "pharaoh": ("pharaoh",),
    "river": ("nile", "flood"),
    "civ": data.CIVS,
    "monument": data.MONUMENTS,
}


def tile_value(code: str, held: Mapping[str, int], epoch: int, own_traders: int, opp_traders: float) -> float:
    """What one more ``code`` is worth to a seat holding ``held`` (the weights of
    docs/rules/ra.md#easy-ai)."""
    if code == "god":
        return W["god"]
    if code == "gold":
        return W["gold"]
    if code == "pharaoh":
        return W["pharaoh"]
    if code == "flood":
        return W["flood"] + W["flood_per_nile"] * held.get("nile", 0)
    if code == "nile":
        return W["nile_with_flood"] if held.get("flood", 0) else W["nile_without_flood"]
    if code in _CIVS:
        return W["civ_dup"] if held.get(code, 0) else W["civ_new"]
    if code in _MONS:
        have = held.get(code, 0)
        v = W["monument"] + (W["monument_bonus"] if have == 0 or have + 1 in (3, 4, 5) else 0.0)
        return v * (W["monument_final_factor"] if epoch == data.EPOCHS else 1.0)
    if code == "trader":
        return W["trader"] + W["trader_own"] * own_traders - W["trader_opp"] * opp_traders
    if code in _HITS:
        exposed = sum(held.get(c, 0) for c in _CATEGORY_CODES[_HITS[code]])
        return W["disaster_per_tile"] * min(2, exposed)
    return 0.0


def _seat(view: RaView) -> int:
    """The seat whose own view ``view`` is (a spectator's view has none to play for)."""
    me = view["me"]
    if me is None:
        raise ValueError("the heuristic reads a seat's own view, not a spectator's")
    return me["seat"]


def _context(view: RaView) -> tuple[int, dict[str, int], int, int, float]:
    seat = _seat(view)
    players = view["players"]
    held = dict(players[seat]["tiles"])
    own = players[seat]["traders"]
    opps = [p["traders"] for p in players if p["seat"] != seat]
    return seat, held, view["epoch"], own, (sum(opps) / len(opps) if opps else 0.0)


def lot_value(view: RaView, track: Sequence[str] | None = None) -> float:
    """V: the value of the whole track to the viewer, adding tiles one by one (so a second tile
    of a new civilization type counts as a duplicate); disasters are valued against the
    holdings plus the lot's other tiles, which they hit."""
    _seat, held, epoch, own, opp = _context(view)
    tiles = list(view["track"] if track is None else track)
    total = 0.0
    for code in tiles:
        if code in _HITS:
            continue
        total += tile_value(code, held, epoch, own, opp)
        held[code] = held.get(code, 0) + 1
        if code == "trader":
            own += 1
    for code in tiles:
        if code in _HITS:
            total += tile_value(code, held, epoch, own, opp)
    return total


def _best_god(view: RaView, legal: Sequence[str]) -> tuple[str | None, float]:
    _seat, held, epoch, own, opp = _context(view)
    best, best_v = None, float("-inf")
    for a in legal:
        if a.startswith("god "):
            v = tile_value(a[4:], held, epoch, own, opp)
            if v > best_v:
                best, best_v = a, v
    return best, best_v


def _discard(view: RaView, legal: Sequence[str]) -> str:
    _seat, held, *_ = _context(view)
    codes = [a.split(" ", 1)[1] for a in legal]
    if set(codes) <= {"nile", "flood"}:
        if held.get("flood", 0) >= 2 or not held.get("nile", 0):
            return "discard flood" if "flood" in codes else legal[0]
        return "discard nile"
    if set(codes) <= _CIVS:
        for c in codes:
            if held.get(c, 0) >= 2:
                return "discard " + c
        return legal[0]
    loose = [c for c in codes if held.get(c, 0) not in (3, 4, 5)]
    pool = loose or codes
    best = max(pool, key=lambda c: held.get(c, 0))  # max keeps the first of equals
    return "discard " + best


def _best_sun_extra(view: RaView, sun: int) -> float:
    """How much more a lot must be worth before the seat spends ``sun`` when it is its best
    face-up sun and it holds others: a lot worth the threshold of an ordinary sun is a poor
    use of the sun that wins most later auctions, above all early in the epoch, when most of
    the epoch's tiles are still to come (the old heuristic bid 13 on the first three-tile lot)."""
    up = view["players"][_seat(view)]["up"]
    if len(up) < 2 or sun != max(up):
        return 0.0
    to_come = 1.0 - float(view["ra_track"]) / float(view["ra_limit"])
    return W["best_sun_base"] + W["best_sun_early"] * to_come


def _choose(view: RaView, legal: Sequence[str]) -> str:
    step = view["step"]
    if step == "discard":
        return _discard(view, legal)
    if step == "god_more":
        best, v = _best_god(view, legal)
        return best if best is not None and v >= W["god_min"] else "done"
    if step == "auction":
        bids = [int(a.split()[1]) for a in legal if a.startswith("bid ")]
        if not bids:
            return "pass"
        low = min(bids)
        if "pass" not in legal:
            return f"bid {low}"
        threshold = W["bid_base"] + W["bid_per_sun"] * low
        if view["epoch"] == data.EPOCHS:
            threshold += W["bid_final_extra"]
        threshold += _best_sun_extra(view, low)
        return f"bid {low}" if lot_value(view) >= threshold else "pass"
    if step == "turn":
        best, v = _best_god(view, legal)
        if best is not None and v >= W["god_min"]:
            return best
        track = view["track"]
        if track and (
            len(track) >= data.AUCTION_SLOTS
            or lot_value(view) >= W["invoke_base"] - W["invoke_per_tile"] * len(track)
        ):
            return "invoke"
        return "draw"
    return legal[0]


def choose(view: RaView, legal: Sequence[str]) -> str:
    """The AI's action for the seat whose own view is ``view``; always one of ``legal``.
    Raises ValueError if ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if not view["me"]:
        return legal[0]
    pick = _choose(view, legal)
    return pick if pick in legal else legal[0]


# --------------------------------------------------------------------------- evaluation (search)

TEMP_END = 2.0
TEMP_START = 6.0
"""The evaluation's temperature in points: ``TEMP_END + TEMP_START × the share of the game
still to play``."""


def estimated_scores(state: State) -> list[float]:
    """Each seat's estimated final score: its total so far, what its tiles, crates and suns are
    still worth."""
    n = state.n
    unit = per_sun(state)
    mean_total = sum(sum(u) + sum(d) for u, d in zip(state.up, state.down, strict=True)) / n
    traders = state.opts[O_TRADERS]
    out = []
    for s in range(n):
        v = state.score[s] + row_value(state, s, state.tiles[s]) + sun_value(state, s, unit, mean_total)
        if traders:
            v += state.crates[s]
        out.append(v)
    return out


def _left_fraction(state: State) -> float:
    """Roughly how much of the game is still to play (1 at the start, 0 at the end)."""
    epoch_left = 1.0 - state.ra_track / data.RA_LIMIT[state.n]
    return max(0.0, (data.EPOCHS - state.epoch + epoch_left) / data.EPOCHS)


def evaluate(state: State) -> list[float]:
    """Each seat's expected reward in [0, 1], as ``engines.search.rewards`` scores a finished
    game: 0.75 × a softmax win chance + 0.25 × the expected share of seats beaten, both from
    :func:`estimated_scores` at a temperature that falls as the game nears its end."""
    est = estimated_scores(state)
    n = len(est)
    temp = TEMP_END + TEMP_START * _left_fraction(state)
    top = max(est)
    weights = [math.exp((e - top) / temp) for e in est]
    total = sum(weights)
    out = []
    for s in range(n):
        beaten = 0.0
        for t in range(n):
            if t != s:
                beaten += 1.0 / (1.0 + math.exp(-(est[s] - est[t]) / temp))
        place = beaten / (n - 1) if n > 1 else 1.0
        out.append(WIN_WEIGHT * weights[s] / total + (1.0 - WIN_WEIGHT) * place)
    return out
