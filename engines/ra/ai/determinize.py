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

from engines.ra import data
from engines.ra.state import (
    IDX,
    KIND_NAMES,
    NCODES,
    OPTION_NAMES,
    STEP_NAMES,
    TRADER,
    State,
    Work,
)

_KIND = {k: i for i, k in enumerate(KIND_NAMES)}
_STEP = {k: i for i, k in enumerate(STEP_NAMES)}
_CATS = data.CATEGORIES


def _row(counts: Mapping[str, int]) -> tuple[int, ...]:
    row = [0] * NCODES
    for code, k in counts.items():
        row[IDX[code]] = k
    return tuple(row)


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    """A state whose ``view(state, view["viewer"])`` equals ``view``: the bag's remaining tiles
    in a uniformly random order drawn with ``rng``, every other field as the view shows it.
    Raises ValueError for a spectator's view (it has no seat to search for)."""
    seat = view["viewer"]
    if seat is None:
        raise ValueError("determinize needs a seat's own view, not a spectator's")
    n = view["n_players"]
    tiles_left = [IDX[code] for code, k in view["bag"].items() for _ in range(k)]
    # a uniform order: sort by independent uniform keys (faster here than rng.shuffle's
    # randbelow per element; a tie of two 53-bit keys is as good as impossible)
    rand = rng.random
    keys = [rand() for _ in tiles_left]
    bag = [tiles_left[i] for i in sorted(range(len(tiles_left)), key=keys.__getitem__)]
    players = view["players"]
    tiles = []
    for p in players:
        row = list(_row(p["tiles"]))
        row[TRADER] = p["traders"]
        tiles.append(tuple(row))
    start = data.START_SCORE
    totals = [start] * n
    history = []
    for epoch in view["history"]:
        rows = []
        for r in epoch["rows"]:
            q = r["seat"]
            totals[q] += r["epoch_total"]
            points = tuple(r["points"][c] for c in _CATS)
            rows.append((points, r["floor"], r["epoch_total"], totals[q]))
        history.append((epoch["epoch"], tuple(rows)))
    scores = tuple(p["score"] if p["score"] is not None else totals[p["seat"]] for p in players)
    opts = view["options"]
    track = tuple(IDX[c] for c in view["track"])
    step = _STEP[view["step"]]
    w = Work.__new__(Work)
    w.__dict__.update(
        n=n,
        opts=tuple(bool(opts[k]) for k in OPTION_NAMES),
        bag=tuple(bag),
        bag_pos=0,
        epoch=view["epoch"],
        step=step,
        cur=view["current"],
        ra_track=view["ra_track"],
        track=track,
        center=view["center"],
        up=tuple(tuple(p["up"]) for p in players),
        down=tuple(tuple(p["down"]) for p in players),
        tiles=tuple(tiles),
        score=scores,
        crates=tuple(p["crates"] for p in players),
        box=_row(view["box"]),
        a_ra=-1,
        a_kind=0,
        a_order=(),
        a_idx=0,
        a_bids=(),
        a_high=0,
        a_high_seat=-1,
        p_seat=-1,
        p_left=(0, 0, 0),
        p_after_god=False,
        history=tuple(history),
    )
    auction = view["auction"]
    if auction is not None:
        high = auction["high"]
        w.a_ra = auction["ra_player"]
        w.a_kind = _KIND[auction["kind"]]
        w.a_order = tuple(auction["order"])
        w.a_idx = auction["idx"]
        w.a_bids = tuple(b["sun"] or 0 for b in auction["bids"])
        w.a_high = high["sun"] if high else 0
        w.a_high_seat = high["seat"] if high else -1
    pending = view["pending"]
    if pending is not None:
        w.p_seat = pending["seat"]
        w.p_left = (pending["river"], pending["civ"], pending["monument"])
        w.p_after_god = bool(track)
    return w.freeze()
