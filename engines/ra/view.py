"""The Ra view: what one viewer (a seat, or None for spectators) may see of a state.

Everything is public except the bag order (replaced by counts) and, with ``hidden_scores``, the
other seats' totals until the game is over. The schema (agreed with ``render/ra``)::

    {"game": "ra", "viewer": seat | None, "n_players": n, "to_move": [seat], "over": bool,
     "headline": "Epoch 2 · Auction (voluntary) · {s2} to bid · high 9 by {s1}",
     "options": {option: value, ...},             # every option of spec §9
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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from engines.ra import data
from engines.ra.scoring import epoch_rows, outcome
from engines.ra.state import (
    AUCTION,
    CODES,
    DISCARD,
    GOD_MORE,
    KIND_NAMES,
    NCODES,
    O_HIDDEN,
    OPTION_NAMES,
    OVER,
    STEP_NAMES,
    TRADER,
    TURN,
    VOLUNTARY,
    State,
)

if TYPE_CHECKING:
    from engines.ra.rules import RaEngine

_CAT_WORD = ("river", "civilization", "monument")

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


_KIND_WORDS = ("Ra tile", "voluntary", "full track")  # by KIND_NAMES index, for the headline


def _or_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def headline(state: State) -> str:
    """One line: epoch, step, who acts, and the auction's high bid."""
    s = state
    if s.step == OVER:
        out = outcome(s)
        who = " and ".join(f"{{s{w}}}" for w in out.winners)
        return f"Game over · {who} {'win' if len(out.winners) > 1 else 'wins'} with {max(s.score)}"
    head = f"Epoch {s.epoch} · "
    if s.step == TURN:
        return head + f"{{s{s.cur}}} to play · Ra {s.ra_track}/{data.RA_LIMIT[s.n]} · track {len(s.track)}/8"
    if s.step == GOD_MORE:
        return head + f"{{s{s.cur}}} may use another god"
    if s.step == AUCTION:
        bidder = s.a_order[s.a_idx]
        if s.a_high:
            return head + (
                f"Auction ({_KIND_WORDS[s.a_kind]}) · {{s{bidder}}} to bid · "
                f"high {s.a_high} by {{s{s.a_high_seat}}}"
            )
        if s.a_kind == VOLUNTARY and bidder == s.a_ra:
            if len(s.a_order) == 1:
                return head + (
                    f"Auction ({_KIND_WORDS[s.a_kind]}) · {{s{bidder}}} must bid: "
                    "nobody else has a sun to bid"
                )
            return head + f"Auction ({_KIND_WORDS[s.a_kind]}) · everyone passed: {{s{bidder}}} must bid"
        return head + f"Auction ({_KIND_WORDS[s.a_kind]}) · {{s{bidder}}} to bid · no bid yet"
    cat = next(i for i, k in enumerate(s.p_left) if k)
    k = s.p_left[cat]
    return head + f"{{s{s.p_seat}}} must discard {k} {_CAT_WORD[cat]} tile{'s' if k > 1 else ''}"


def prompt(state: State, seat: int, legal: list[str]) -> str:
    """What ``seat`` is asked to do now (or who is awaited)."""
    s = state
    if s.step == OVER:
        return "The game is over."
    if not legal:
        actor = (
            s.cur if s.step in (TURN, GOD_MORE) else (s.a_order[s.a_idx] if s.step == AUCTION else s.p_seat)
        )
        return f"Waiting for {{s{actor}}}."
    if s.step == TURN:
        options = []
        if "draw" in legal:
            options.append("draw a tile")
        if "invoke" in legal:
            options.append("invoke Ra")
        if any(a.startswith("god ") for a in legal):
            options.append("use a god")
        return "Your turn: " + _or_list(options) + "."
    if s.step == GOD_MORE:
        return "Use another god, or done."
    if s.step == AUCTION:
        bids = [a.split()[1] for a in legal if a.startswith("bid ")]
        if "pass" not in legal:
            choice = "Bid " + _or_list(bids)
        elif bids:
            choice = "Bid " + ", ".join(bids) + " or pass"
        else:
            choice = "You can only pass"
        if s.a_high:
            return f"High bid {s.a_high} ({{s{s.a_high_seat}}}). {choice}."
        if "pass" not in legal:
            return f"You must bid: you invoked Ra on this track. {choice}."
        return f"No bid yet. {choice}."
    cat = next(i for i, k in enumerate(s.p_left) if k)
    k = s.p_left[cat]
    if k == 1:
        return f"Discard 1 {_CAT_WORD[cat]} tile."
    return f"Discard {k} {_CAT_WORD[cat]} tiles, one at a time."


def view(engine: RaEngine, state: State, viewer: int | None) -> RaView:
    """The JSON-serialisable view of ``state`` for ``viewer`` (schema in the module docstring).
    Never contains the bag order."""
    s = state
    n = s.n
    over = s.step == OVER
    hidden = s.opts[O_HIDDEN] and not over
    to_move = list(engine.to_move(s))

    def visible(seat: int) -> bool:
        return not hidden or seat == viewer

    auction: AuctionView | None = None
    if s.step == AUCTION:
        acted = s.a_order[: s.a_idx]
        auction = {
            "ra_player": s.a_ra,
            "kind": KIND_NAMES[s.a_kind],
            "order": list(s.a_order),
            "idx": s.a_idx,
            "high": {"sun": s.a_high, "seat": s.a_high_seat} if s.a_high else None,
            "bids": [{"seat": q, "sun": b or None} for q, b in zip(acted, s.a_bids, strict=True)],
            "to_bid": list(s.a_order[s.a_idx :]),
            "forced": s.a_kind == VOLUNTARY and s.a_high == 0,
        }
    pending: PendingView | None = None
    if s.step == DISCARD:
        pending = {"seat": s.p_seat, "civ": s.p_left[1], "monument": s.p_left[2], "river": s.p_left[0]}
    players: list[PlayerView] = [
        {
            "seat": q,
            "up": list(s.up[q]),
            "down": list(s.down[q]),
            "tiles": _counts(s.tiles[q]),
            "traders": s.tiles[q][TRADER],
            "crates": s.crates[q],
            "score": s.score[q] if visible(q) else None,
        }
        for q in range(n)
    ]
    history: list[EpochView] = [
        {
            "epoch": epoch,
            "rows": [
                {
                    "seat": q,
                    "points": dict(zip(data.CATEGORIES, points, strict=True)),
                    "floor": floor,
                    "epoch_total": total,
                    "running_total": running if visible(q) else None,
                }
                for q, (points, floor, total, running) in enumerate(rows)
            ],
        }
        for epoch, rows in s.history
    ]
    me: MeView | None = None
    if viewer is not None:
        legal = engine.legal_actions(s, viewer)
        preview = epoch_rows(s)[viewer] if not over else (0,) * len(data.CATEGORIES)
        me = {
            "seat": viewer,
            "score": s.score[viewer],
            "legal": legal,
            "prompt": prompt(s, viewer, legal),
            "preview": dict(zip(data.CATEGORIES, preview, strict=True)),
        }
    out = engine.outcome(s)
    return {
        "game": "ra",
        "viewer": viewer,
        "n_players": n,
        "to_move": to_move,
        "over": over,
        "headline": headline(s),
        "options": dict(zip(OPTION_NAMES, s.opts, strict=True)),
        "epoch": s.epoch,
        "step": STEP_NAMES[s.step],
        "current": s.cur,
        "ra_track": s.ra_track,
        "ra_limit": data.RA_LIMIT[n],
        "track": [CODES[c] for c in s.track],
        "center": s.center,
        "bag": _bag_counts(s),
        "bag_total": len(s.bag) - s.bag_pos,
        "box": _counts(s.box),
        "auction": auction,
        "pending": pending,
        "players": players,
        "history": history,
        "me": me,
        "outcome": out.as_dict() if out is not None else None,
    }
