"""What changed on the Ra board since the board posted before it, computed from the two public
views only (never from private data). The board outlines these places and tags them.

:func:`changes` returns a frozenset of place keys:

* ``"track:<i>"`` — auction-track slot ``i`` (0-based) holds a tile it did not hold before (the
  tile just drawn);
* ``"ra_track"`` — a Ra tile was drawn (the Ra track grew);
* ``"center"`` — the centre sun is another sun (a lot was won);
* ``"tiles:<seat>:<code>"`` — that seat holds a different number of ``code`` (a lot won, tiles
  discarded, a God used);
* ``"won:<seat>"`` — that seat won a lot (one of its suns turned face down);
* ``"sun:<seat>:<value>"`` — that seat's sun ``value`` is new or turned face down;
* ``"score:<seat>"`` — that seat's score changed;
* ``"bid:<seat>"`` — that seat bid or passed in the running auction.

With no previous view (the first board) nothing is marked. A new epoch clears the board, so
across an epoch only the scores and the tiles drawn since (every tile on the tracks) are marked.
"""

from __future__ import annotations

from engines.ra.view import PlayerView, RaView


def _counts(p: PlayerView) -> dict[str, int]:
    c = {k: int(v) for k, v in p["tiles"].items()}
    c["trader"] = int(p["traders"])
    c["crate"] = int(p["crates"])
    return c


def _bids(view: RaView) -> dict[int, int | None]:
    a = view["auction"]
    return {b["seat"]: b["sun"] for b in a["bids"]} if a else {}


def _same_auction(previous: RaView, view: RaView) -> bool:
    """Whether ``view``'s auction is the one running in ``previous`` (same Ra player, kind,
    track and centre, and its bids go on from the earlier ones) rather than a later one."""
    a, b = previous["auction"], view["auction"]
    if not a or not b:
        return False
    old, new = list(a["bids"]), list(b["bids"])
    return (
        a["ra_player"] == b["ra_player"]
        and a["kind"] == b["kind"]
        and previous["track"] == view["track"]
        and previous["center"] == view["center"]
        and new[: len(old)] == old
    )


def changes(previous: RaView | None, view: RaView) -> frozenset[str]:
    """The places of ``view`` that differ from ``previous`` (see the module docstring); empty
    when ``previous`` is None."""
    if previous is None:
        return frozenset()
    out: set[str] = set()
    before, after = previous["players"], view["players"]
    for s, (p, q) in enumerate(zip(before, after, strict=False)):
        if p["score"] != q["score"]:
            out.add(f"score:{s}")
    if previous["epoch"] != view["epoch"]:  # the board was cleared in between
        out.update(f"track:{i}" for i in range(len(view["track"])))
        if int(view["ra_track"]):
            out.add("ra_track")
        return frozenset(out)
    old_track, new_track = list(previous["track"]), list(view["track"])
    for i, code in enumerate(new_track):
        if i >= len(old_track) or old_track[i] != code:
            out.add(f"track:{i}")
    if int(view["ra_track"]) > int(previous["ra_track"]):
        out.add("ra_track")
    if previous["center"] != view["center"]:
        out.add("center")
    for s, (p, q) in enumerate(zip(before, after, strict=False)):
        a, b = _counts(p), _counts(q)
        for code in set(a) | set(b):
            if a.get(code, 0) != b.get(code, 0):
                out.add(f"tiles:{s}:{code}")
        if set(q["down"]) - set(p["down"]):
            out.add(f"won:{s}")  # a sun turns face down only when its seat wins a lot
        for v in q["up"]:
            if v not in p["up"]:
                out.add(f"sun:{s}:{v}")
        for v in q["down"]:
            if v not in p["down"]:
                out.add(f"sun:{s}:{v}")
    old_bids, new_bids = (_bids(previous) if _same_auction(previous, view) else {}), _bids(view)
    for s, sun in new_bids.items():
        if s not in old_bids or old_bids[s] != sun:
            out.add(f"bid:{s}")
    return frozenset(out)


SEAT_TAGS = ("just won", "discarded", "used a God")
"""The tags a seat row may carry, most important first; a row shows one."""


def seat_tag(marks: frozenset[str], p: PlayerView, q: PlayerView, s: int) -> str:
    """The one tag seat ``s``'s row carries ('' for none): "just won" when it won a lot, else
    "discarded" when it holds fewer of a kind other than Gods, else "used a God"; ``p`` and ``q``
    are the seat's previous and current player views."""
    if f"won:{s}" in marks:
        return "just won"
    a, b = _counts(p), _counts(q)
    lost = {c for c in a if b.get(c, 0) < a[c]}
    if lost - {"god"}:
        return "discarded"
    return "used a God" if lost else ""


def labels(previous: RaView | None, view: RaView) -> list[tuple[str, str]]:
    """What the board says changed, as data: ``(thing, label)`` pairs in board order, e.g.
    ``("track:3:flood", "drawn")`` (the tile drawn into that auction-track slot),
    ``("ra_track:2", "drawn")`` (the Ra tile drawn into that Ra-track slot),
    ``("seat:1", "just won")``, ``("seat:2", "bid 9")``, ``("seat:0", "passed")``,
    ``("seat:1", "discarded")``, ``("seat:1", "used a God")`` (one tag per seat, see
    :func:`seat_tag`) and ``("seat:0", "score")``. Empty for the first board."""
    marks = changes(previous, view)
    if not marks:
        return []
    out: list[tuple[str, str]] = []
    track = list(view["track"])
    for i, code in enumerate(track):
        if f"track:{i}" in marks:
            out.append((f"track:{i}:{code}", "drawn"))
    if "ra_track" in marks:
        out.append((f"ra_track:{int(view['ra_track']) - 1}", "drawn"))
    assert previous is not None
    before, after = previous["players"], view["players"]
    bids = _bids(view)
    same_epoch = previous["epoch"] == view["epoch"]
    for s, (p, q) in enumerate(zip(before, after, strict=False)):
        tag = seat_tag(marks, p, q, s) if same_epoch else ""
        if tag:
            out.append((f"seat:{s}", tag))
        if f"bid:{s}" in marks:
            v = bids.get(s)
            out.append((f"seat:{s}", "passed" if v is None else f"bid {v}"))
    for s in range(len(after)):
        if f"score:{s}" in marks:
            out.append((f"seat:{s}", "score"))
    return out
