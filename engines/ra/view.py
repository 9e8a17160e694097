"""The Ra view: what one viewer (a seat, or None for spectators) may see of a state.

Everything is public except the bag order (replaced by counts) and, with ``hidden_scores``, the
other seats' totals until the game is over. The schema (agreed with ``render/ra``)::

    {"game": "ra", "viewer": seat | None, "n_players": n, "to_move": [seat], "over": bool,
     "headline": "Epoch 2 · Auction (voluntary) · {s2} to bid · high 9 by {s1}",
     "options": {option: value, ...},             # docs/rules/ra.md#options
     "epoch": 1..3, "step": "turn" | "god_more" | "auction" | "discard" | "over",
     "current": seat,                             # whose turn (the Ra player in an auction)
     "ra_track": int, "ra_limit": int, "track": [code, ...], "center": int,
     "bag": {code: count}, "bag_total": int, "box": {code: count},   # counts > 0 only
     "auction": None | {"ra_player", "kind": "ra_tile" | "voluntary" | "full", "order": [seats],
                        "idx", "high": None | {"sun", "seat"}, "bids": [{"seat", "sun" | None}],
                        "to_bid": [seats still to act, current first],
                        "forced": bool},          # voluntary with no bid yet: the Ra player
                                                  # will have to bid if everyone passes
     "pending": None | {"seat", "civ", "monument", "river"},   # discards still owed
     "players": [{"seat", "up": [...], "down": [...], "tiles": {code: count > 0},
                  "traders": int, "crates": int, "score": int | None}],
     "history": [{"epoch", "rows": [{"seat", "points": {category: int}, "floor": int,
                                     "epoch_total": int, "running_total": int | None}]}],
     "me": None | {"seat", "score", "legal": [actions], "prompt": str,
                   "preview": {category: int}},  # this epoch's rows if it ended now
     "outcome": None | Outcome.as_dict()}

``score`` and ``running_total`` are None for the other seats while ``hidden_scores`` hides them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Literal, TypedDict

from engines.ra import data
from engines.ra.describe import headline, prompt_text
from engines.ra.legal import legal_actions, to_move
from engines.ra.scoring import epoch_rows, outcome
from engines.ra.state import (
    AUCTION,
    CODES,
    DISCARD,
    KIND_NAMES,
    NCODES,
    O_HIDDEN,
    OPTION_NAMES,
    OVER,
    STEP_NAMES,
    TRADER,
    VOLUNTARY,
    State,
)

# --------------------------------------------------------------------------- the view's shape
# The schema of the module docstring as types; the renderers in ``render/ra`` take them, so the
# type checker holds them to what the engine returns.


class HighBid(TypedDict):
    sun: int
    seat: int


class Bid(TypedDict):
    seat: int
    sun: int | None  # None: passed


class AuctionView(TypedDict):
    ra_player: int
    kind: str  # "ra_tile" | "voluntary" | "full"
    order: list[int]
    idx: int
    high: HighBid | None
    bids: list[Bid]
    to_bid: list[int]  # seats still to act, current first
    forced: bool  # voluntary with no bid yet: the Ra player will have to bid if everyone passes


class PendingView(TypedDict):
    """Discards still owed."""

    seat: int
    civ: int
    monument: int
    river: int


class PlayerView(TypedDict):
    seat: int
    up: list[int]
    down: list[int]
    tiles: dict[str, int]  # counts > 0 only
    traders: int
    crates: int
    score: int | None  # None while hidden_scores hides it


class HistoryRow(TypedDict):
    seat: int
    points: dict[str, int]  # by data.CATEGORIES
    floor: int
    epoch_total: int
    running_total: int | None  # None while hidden_scores hides it


class EpochView(TypedDict):
    epoch: int
    rows: list[HistoryRow]


class MeView(TypedDict):
    seat: int
    score: int
    legal: list[str]
    prompt: str
    preview: dict[str, int]  # this epoch's points if it ended now


class RaView(TypedDict):
    """What :func:`view` returns (and ``RaEngine.view``)."""

    game: Literal["ra"]
    viewer: int | None
    n_players: int
    to_move: list[int]
    over: bool
    headline: str
    options: dict[str, bool]
    epoch: int
    step: str  # "turn" | "god_more" | "auction" | "discard" | "over"
    current: int
    ra_track: int
    ra_limit: int
    track: list[str]
    center: int
    bag: dict[str, int]
    bag_total: int
    box: dict[str, int]
    auction: AuctionView | None
    pending: PendingView | None
    players: list[PlayerView]
    history: list[EpochView]
    me: MeView | None
    outcome: dict[str, Any] | None  # Outcome.as_dict()


def _counts(values: Iterable[int]) -> dict[str, int]:
    return {CODES[c]: k for c, k in enumerate(values) if k}


def _bag_counts(state: State) -> dict[str, int]:
    counts = [0] * NCODES
    for c in state.bag[state.bag_pos :]:
        counts[c] += 1
    return _counts(counts)


def view(state: State, viewer: int | None) -> RaView:
    """The JSON-serialisable view of ``state`` for ``viewer`` (schema in the module docstring).
    Never contains the bag order."""
    s = state
    over = s.step == OVER
    hidden = s.opts[O_HIDDEN] and not over
    out = outcome(s) if over else None
    return {
        "game": "ra",
        "viewer": viewer,
        "n_players": s.n,
        "to_move": list(to_move(s)),
        "over": over,
        "headline": headline(s),
        "options": dict(zip(OPTION_NAMES, s.opts, strict=True)),
        "epoch": s.epoch,
        "step": STEP_NAMES[s.step],
        "current": s.cur,
        "ra_track": s.ra_track,
        "ra_limit": data.RA_LIMIT[s.n],
        "track": [CODES[c] for c in s.track],
        "center": s.center,
        "bag": _bag_counts(s),
        "bag_total": len(s.bag) - s.bag_pos,
        "box": _counts(s.box),
        "auction": _auction(s) if s.step == AUCTION else None,
        "pending": _pending(s) if s.step == DISCARD else None,
        "players": _players(s, viewer, hidden),
        "history": _history(s, viewer, hidden),
        "me": _me(s, viewer) if viewer is not None else None,
        "outcome": out.as_dict() if out is not None else None,
    }


def _auction(s: State) -> AuctionView:
    acted = s.a_order[: s.a_idx]
    return {
        "ra_player": s.a_ra,
        "kind": KIND_NAMES[s.a_kind],
        "order": list(s.a_order),
        "idx": s.a_idx,
        "high": {"sun": s.a_high, "seat": s.a_high_seat} if s.a_high else None,
        "bids": [{"seat": q, "sun": b or None} for q, b in zip(acted, s.a_bids, strict=True)],
        "to_bid": list(s.a_order[s.a_idx :]),
        "forced": s.a_kind == VOLUNTARY and s.a_high == 0,
    }


def _pending(s: State) -> PendingView:
    return {"seat": s.p_seat, "civ": s.p_left[1], "monument": s.p_left[2], "river": s.p_left[0]}


def _players(s: State, viewer: int | None, hidden: bool) -> list[PlayerView]:
    return [
        {
            "seat": q,
            "up": list(s.up[q]),
            "down": list(s.down[q]),
            "tiles": _counts(s.tiles[q]),
            "traders": s.tiles[q][TRADER],
            "crates": s.crates[q],
            "score": s.score[q] if not hidden or q == viewer else None,
        }
        for q in range(s.n)
    ]


def _history(s: State, viewer: int | None, hidden: bool) -> list[EpochView]:
    return [
        {
            "epoch": epoch,
            "rows": [
                {
                    "seat": q,
                    "points": dict(zip(data.CATEGORIES, points, strict=True)),
                    "floor": floor,
                    "epoch_total": total,
                    "running_total": running if not hidden or q == viewer else None,
                }
                for q, (points, floor, total, running) in enumerate(rows)
            ],
        }
        for epoch, rows in s.history
    ]


def _me(s: State, viewer: int) -> MeView:
    legal = legal_actions(s, viewer)
    preview = epoch_rows(s)[viewer] if s.step != OVER else (0,) * len(data.CATEGORIES)
    return {
        "seat": viewer,
        "score": s.score[viewer],
        "legal": legal,
        "prompt": prompt_text(s, viewer, legal),
        "preview": dict(zip(data.CATEGORIES, preview, strict=True)),
    }


def secrets(state: State, viewer: int | None) -> Iterable[str]:
    """The JSON text of the next nine bag codes, when nine or more remain. Nine consecutive
    codes can never appear by chance in a view (the track holds at most eight), so any match is
    a leak of the bag order."""
    rest = state.bag[state.bag_pos : state.bag_pos + 9]
    if len(rest) == 9:
        return [json.dumps([CODES[c] for c in rest])[1:-1]]
    return []
