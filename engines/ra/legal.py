"""Whose turn it is in Ra and what is legal now.

:func:`to_move` names the one seat awaited; :func:`legal_actions` lists its actions in the
canonical order (docs/rules/ra.md#action-order). The lists come from tables built at import or
filled on first use (a turn's texts, each set of face-up suns' bids), and the last answer is
remembered by state identity (:data:`LAST`), so that ``apply`` right after ``legal_actions``
does not enumerate again.
"""

from __future__ import annotations

from engines.contract import Action
from engines.ra import data
from engines.ra.notation import BID_TEXT, DISCARD_TEXT, GOD_TEXT
from engines.ra.state import (
    AUCTION,
    DISASTER,
    DISCARD,
    GOD,
    GOD_MORE,
    O_GOD_DISASTER,
    O_INVOKE_EMPTY,
    OVER,
    PENDING_CODES,
    TURN,
    VOLUNTARY,
    State,
)

_ONE = tuple((s,) for s in range(max(data.SUN_SETS)))
"""``_ONE[seat]``: the 1-tuple ``to_move`` answers, made once."""

_TURN = ((((), ("invoke",))), (("draw",), ("draw", "invoke")))
"""``_TURN[may draw][may invoke]``: a turn's legal texts before any god."""

_BIDS: dict[tuple[int, ...], tuple[tuple[Action, ...], ...]] = {}
"""Face-up suns -> for each high bid, the bid texts above it and ``pass`` (at most a few
thousand keys: the sets of up to five of the 16 suns)."""

_MAX_SUN = max(data.MAX_SUN.values())

LAST: list[object] = [None, -1, ()]
"""The last answer of :func:`legal_actions`: ``[state, seat, actions as a tuple]``."""


def to_move(state: State) -> tuple[int, ...]:
    """The one seat awaited, or () once the game is over."""
    step = state.step
    if step == AUCTION:
        return _ONE[state.a_order[state.a_idx]]
    if step == TURN or step == GOD_MORE:  # noqa: SIM109 (hot: a tuple test builds the tuple)
        return _ONE[state.cur]
    if step == DISCARD:
        return _ONE[state.p_seat]
    return ()


def legal_actions(state: State, seat: int) -> list[Action]:
    """The legal action texts of ``seat`` (docs/rules/ra.md#action-order); [] if it is not
    awaited. The answer is remembered in :data:`LAST`."""
    step = state.step
    if step == AUCTION:
        if seat != state.a_order[state.a_idx]:
            acts: tuple[Action, ...] = ()
        else:
            high = state.a_high
            row = state.up[seat]
            acts = (_BIDS.get(row) or _bids(row))[high]
            if not high and seat == state.a_ra and state.a_kind == VOLUNTARY:
                acts = acts[:-1]  # the Ra player of a voluntary auction may not pass before a bid
    elif step == TURN:
        if seat != state.cur:
            acts = ()
        else:
            track = state.track
            bag_left = state.bag_pos < len(state.bag)
            acts = _TURN[len(track) < data.AUCTION_SLOTS and bag_left][
                bool(track) or not bag_left or state.opts[O_INVOKE_EMPTY]
            ]
            if track and state.tiles[seat][GOD]:
                acts += tuple([GOD_TEXT[c] for c in god_targets(state, seat)])
    else:
        acts = tuple(_other_steps(state, seat))
    last = LAST
    last[0] = state
    last[1] = seat
    last[2] = acts
    return list(acts)


def legal_tuple(state: State, seat: int) -> tuple[Action, ...]:
    """:func:`legal_actions` as a tuple, from :data:`LAST` when it last answered for this very
    state and seat."""
    last = LAST
    if last[0] is not state or last[1] != seat:
        legal_actions(state, seat)
    return last[2]  # type: ignore[return-value]


def _other_steps(state: State, seat: int) -> list[Action]:
    """The legal list of the steps other than TURN and AUCTION."""
    step = state.step
    if step == GOD_MORE:
        if seat != state.cur:
            return []
        return [GOD_TEXT[c] for c in god_targets(state, seat)] + ["done"]
    if step == DISCARD:
        if seat != state.p_seat:
            return []
        cat = pending_category(state)
        row = state.tiles[seat]
        return [DISCARD_TEXT[c] for c in PENDING_CODES[cat] if row[c]]
    return []


def _bids(row: tuple[int, ...]) -> tuple[tuple[Action, ...], ...]:
    got = _BIDS[row] = tuple(
        (*[BID_TEXT[v] for v in row if v > high], "pass") for high in range(_MAX_SUN + 1)
    )
    return got


def god_targets(w: State, seat: int) -> list[int]:
    """Distinct track codes a god may take (ascending ``TILE_ORDER``); [] if ``seat`` holds no
    god (docs/rules/ra.md#god-takes-disaster)."""
    if not w.tiles[seat][GOD]:
        return []
    allow_disaster = w.opts[O_GOD_DISASTER]
    return [c for c in sorted(set(w.track)) if c != GOD and (allow_disaster or c not in DISASTER)]


def pending_category(w: State) -> int:
    """The pending category now owed (river, then civ, then monument), or -1."""
    for i, k in enumerate(w.p_left):
        if k:
            return i
    return -1


def invariants(state: State) -> None:
    """While the game runs, the awaited seat has a legal action."""
    if state.step != OVER:
        assert legal_actions(state, to_move(state)[0]), "the actor has no legal action"
