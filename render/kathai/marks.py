"""What changed on the Kathai board since the board posted before it, computed from the two
public views only. The board outlines these places and tags them.

:func:`changes` returns a frozenset of place keys:

* ``"market:<pos>"`` — the goods at market position ``pos`` (1–5) is another goods than before:
  its price changed (after a sale the sold goods drops to the end and the others move up);
* ``"lock"`` — the lock was placed, moved or lifted;
* ``"sale"`` — a new sale was made (the last-sale panel shows it);
* ``"pile"`` — cards were drawn from the pile;
* ``"offer"`` — a new offer is open; ``"answer:<seat>"`` — that seat answered the open offer;
* ``"hand:<seat>"``, ``"profit:<seat>"``, ``"score:<seat>"`` — that seat's hand size, profit
  cards or score changed.

With no previous view (the first board) nothing is marked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _market(view: Mapping[str, Any]) -> dict[int, str]:
    return {int(s["pos"]): str(s["goods"]) for s in view.get("market") or []}


def _lock(view: Mapping[str, Any]) -> tuple[Any, ...] | None:
    lk = view.get("lock")
    if not lk:
        return None
    return (lk.get("by"), tuple(sorted(lk.get("pair") or [])), tuple(lk.get("positions") or []))


def _offer_key(of: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    if not of:
        return None
    return (of.get("by"), of.get("to"), of.get("give_count"), of.get("want"), of.get("k"))


def changes(previous: Mapping[str, Any] | None, view: Mapping[str, Any]) -> frozenset[str]:
    """The places of ``view`` that differ from ``previous`` (see the module docstring); empty
    when ``previous`` is None."""
    if previous is None:
        return frozenset()
    out: set[str] = set()
    old, new = _market(previous), _market(view)
    out |= {f"market:{p}" for p, g in new.items() if old.get(p) != g}
    if _lock(previous) != _lock(view):
        out.add("lock")
    if len(view.get("sales") or []) > len(previous.get("sales") or []) or (
        view.get("last_sale") and view.get("last_sale") != previous.get("last_sale")
    ):
        out.add("sale")
    if int(view.get("pile") or 0) < int(previous.get("pile") or 0):
        out.add("pile")
    a, b = previous.get("offer"), view.get("offer")
    if b and _offer_key(a) != _offer_key(b):
        out.add("offer")
    elif a and b:
        was = set(a.get("awaiting") or [])
        out |= {f"answer:{s}" for s in was - set(b.get("awaiting") or [])}
    for s, (p, q) in enumerate(zip(previous.get("players") or [], view.get("players") or [], strict=False)):
        for key, name in (("hand_size", "hand"), ("profit", "profit"), ("score", "score")):
            if p.get(key) != q.get(key):
                out.add(f"{name}:{s}")
    return frozenset(out)
