"""A full Ra state consistent with one seat's view, for the search AI (``engines.search``).

What a seat cannot see in Ra is little: the order of the bag (the view gives its counts by code)
and, with ``hidden_scores``, the other seats' running totals. Those totals are not secret in
substance: every epoch's net change per seat is public in the history, so a total is the
starting score plus the epoch totals so far (exactly what the engine computes). Everything else
is read off the view as it is. The bag is a uniform shuffle of the remaining counts.

The one state field the view does not carry is ``p_after_god`` (owed discards came from a god
taking a disaster, only with ``god_takes_disaster``). It is rebuilt from the track: an auction
always empties the track before discards are owed, so owed discards with tiles on the track came
from a god; with an empty track both readings continue the game identically (no god target is
left, so the turn passes on from the same seat either way).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engines import fastcopy
from engines.ra import data
from engines.ra.state import (
    IDX,
    KIND_NAMES,
    NCODES,
    OPTION_NAMES,
    STEP_NAMES,
    TRADER,
    EpochScore,
    State,
)
from engines.ra.view import AuctionView, PendingView, RaView

_KIND = {k: i for i, k in enumerate(KIND_NAMES)}
_STEP = {k: i for i, k in enumerate(STEP_NAMES)}
_CATS = data.CATEGORIES


def _row(counts: Mapping[str, int]) -> tuple[int, ...]:
    row = [0] * NCODES
    for code, k in counts.items():
        row[IDX[code]] = k
    return tuple(row)


def determinize(view: RaView, rng: random.Random) -> State:
    """A state whose ``view(state, view["viewer"])`` equals ``view``: the bag's remaining tiles
    in a uniformly random order drawn with ``rng``, every other field as the view shows it.
    Raises ValueError for a spectator's view (it has no seat to search for)."""
    if view["viewer"] is None:
        raise ValueError("determinize needs a seat's own view, not a spectator's")
    players = view["players"]
    tiles = []
    for p in players:
        row = list(_row(p["tiles"]))
        row[TRADER] = p["traders"]
        tiles.append(tuple(row))
    history, totals = _history(view)
    opts = view["options"]
    track = tuple(IDX[c] for c in view["track"])
    return fastcopy.build(
        State,
        n=view["n_players"],
        opts=tuple(bool(opts[k]) for k in OPTION_NAMES),
        bag=_bag(view, rng),
        bag_pos=0,
        epoch=view["epoch"],
        step=_STEP[view["step"]],
        cur=view["current"],
        ra_track=view["ra_track"],
        track=track,
        center=view["center"],
        up=tuple(tuple(p["up"]) for p in players),
        down=tuple(tuple(p["down"]) for p in players),
        tiles=tuple(tiles),
        score=tuple(p["score"] if p["score"] is not None else totals[p["seat"]] for p in players),
        crates=tuple(p["crates"] for p in players),
        box=_row(view["box"]),
        history=history,
        **_auction(view["auction"]),
        **_pending(view["pending"], bool(track)),
    )


def _bag(view: RaView, rng: random.Random) -> tuple[int, ...]:
    """The bag's remaining tiles in a uniform order: sorted by independent uniform keys (faster
    here than ``rng.shuffle``'s randbelow per element; a tie of two 53-bit keys is as good as
    impossible)."""
    tiles_left = [IDX[code] for code, k in view["bag"].items() for _ in range(k)]
    rand = rng.random
    keys = [rand() for _ in tiles_left]
    return tuple([tiles_left[i] for i in sorted(range(len(tiles_left)), key=keys.__getitem__)])


def _history(view: RaView) -> tuple[tuple[EpochScore, ...], list[int]]:
    """The scored epochs as the state keeps them, and each seat's running total (the start
    plus its public epoch totals: what a hidden total must be)."""
    totals = [data.START_SCORE] * view["n_players"]
    history = []
    for epoch in view["history"]:
        rows = []
        for r in epoch["rows"]:
            q = r["seat"]
            totals[q] += r["epoch_total"]
            points = tuple(r["points"][c] for c in _CATS)
            rows.append((points, r["floor"], r["epoch_total"], totals[q]))
        history.append((epoch["epoch"], tuple(rows)))
    return tuple(history), totals


def _auction(auction: AuctionView | None) -> dict[str, Any]:
    """The state's auction fields (none while no auction runs: the defaults stand)."""
    if auction is None:
        return {}
    high = auction["high"]
    return {
        "a_ra": auction["ra_player"],
        "a_kind": _KIND[auction["kind"]],
        "a_order": tuple(auction["order"]),
        "a_idx": auction["idx"],
        "a_bids": tuple(b["sun"] or 0 for b in auction["bids"]),
        "a_high": high["sun"] if high else 0,
        "a_high_seat": high["seat"] if high else -1,
    }


def _pending(pending: PendingView | None, track: bool) -> dict[str, Any]:
    """The state's owed-discard fields; ``p_after_god`` from the track (module docstring)."""
    if pending is None:
        return {}
    return {
        "p_seat": pending["seat"],
        "p_left": (pending["river"], pending["civ"], pending["monument"]),
        "p_after_god": track,
    }
