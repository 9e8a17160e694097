"""What changed on the Ra board since the board posted before it, computed from the two public
views only (never from private data). The board outlines these places and tags them.

:func:`changes` returns a frozenset of place keys:

* ``"track:<i>"`` — auction-track slot ``i`` (0-based) holds a tile it did not hold before (the
  tile just drawn);
* ``"ra_track"`` — a Ra tile was drawn (the Ra track grew);
* ``"center"`` — the centre sun is another sun (a lot was won);
* ``"tiles:<seat>:<code>"`` — that seat holds a different number of ``code`` (a lot won, tiles
  discarded); ``"won:<seat>"`` when any of its counts grew;
* ``"sun:<seat>:<value>"`` — that seat's sun ``value`` is new or turned face down;
* ``"score:<seat>"`` — that seat's score changed;
* ``"bid:<seat>"`` — that seat bid or passed in the running auction.

With no previous view (the first board) nothing is marked. A new epoch clears the board, so
across an epoch only the scores are marked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _counts(p: Mapping[str, Any]) -> dict[str, int]:
    c = {k: int(v) for k, v in (p.get("tiles") or {}).items()}
    c["trader"] = int(p.get("traders", c.get("trader", 0)) or 0)
    c["crate"] = int(p.get("crates", 0) or 0)
    return c


def _bids(view: Mapping[str, Any]) -> dict[int, Any]:
    a = view.get("auction") or {}
    return {int(b["seat"]): b.get("sun") for b in a.get("bids") or []}


def changes(previous: Mapping[str, Any] | None, view: Mapping[str, Any]) -> frozenset[str]:
    """The places of ``view`` that differ from ``previous`` (see the module docstring); empty
    when ``previous`` is None."""
    if previous is None:
        return frozenset()
    out: set[str] = set()
    before, after = previous.get("players") or [], view.get("players") or []
    for s, (p, q) in enumerate(zip(before, after, strict=False)):
        if p.get("score") != q.get("score"):
            out.add(f"score:{s}")
    if previous.get("epoch") != view.get("epoch"):
        return frozenset(out)
    old_track, new_track = list(previous.get("track") or []), list(view.get("track") or [])
    for i, code in enumerate(new_track):
        if i >= len(old_track) or old_track[i] != code:
            out.add(f"track:{i}")
    if int(view.get("ra_track") or 0) > int(previous.get("ra_track") or 0):
        out.add("ra_track")
    if previous.get("center") != view.get("center"):
        out.add("center")
    for s, (p, q) in enumerate(zip(before, after, strict=False)):
        a, b = _counts(p), _counts(q)
        for code in set(a) | set(b):
            if a.get(code, 0) != b.get(code, 0):
                out.add(f"tiles:{s}:{code}")
                if b.get(code, 0) > a.get(code, 0):
                    out.add(f"won:{s}")
        for v in q.get("up") or []:
            if v not in (p.get("up") or []):
                out.add(f"sun:{s}:{v}")
        for v in q.get("down") or []:
            if v not in (p.get("down") or []):
                out.add(f"sun:{s}:{v}")
    old_bids, new_bids = _bids(previous), _bids(view)
    for s, sun in new_bids.items():
        if s not in old_bids or old_bids[s] != sun:
            out.add(f"bid:{s}")
    return frozenset(out)
