"""What changed on the Kathai board since the board posted before it, computed from the two
public views only. The board outlines these places in the house "changed" colour and prints
their label.

:func:`labels` returns ``[(thing, label)]``, the data the board draws (tests check it against
the move log):

* ``("market:<pos>", "moved")`` — the goods at market position ``pos`` (1–5) is another goods
  than before (after a sale or a bribe the goods change places);
* ``("lock", "locked by <name>")`` — a new lock was placed (by that seat);
* ``("sale", "sold by <name>")`` — a new sale was made (the last-sale panel shows it);
* ``("pile", "drawn")`` — cards were drawn from the pile;
* ``("offer", "offer by <name>")`` — a new offer is open;
* ``("answer:<seat>", "declined" | "accepted")`` — that seat answered the offer that was open;
* ``("hand:<seat>", "+1")``, ``("profit:<seat>", "−1")``, ``("score:<seat>", "+6")`` — that
  seat's hand size, profit cards or score changed by that much.

:func:`changes` gives the set of things. With no previous view (the first board) nothing is
marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from engines.kathai.view import KathaiView, OfferView
from render.common import seat_names, signed

View = KathaiView


_COUNTS: tuple[tuple[Literal["hand_size", "profit", "score"], str], ...] = (
    ("hand_size", "hand"),
    ("profit", "profit"),
    ("score", "score"),
)
"""The seat counts whose change is labelled, with the label's name."""


def _market(view: View) -> dict[int, str]:
    return {int(s["pos"]): str(s["goods"]) for s in view["market"] or []}


def _lock(view: View) -> tuple[Any, ...] | None:
    lk = view["lock"]
    if not lk:
        return None
    return (lk["by"], tuple(sorted(lk["pair"] or [])), tuple(lk["positions"] or []))


def _offer_key(of: OfferView | None) -> tuple[Any, ...] | None:
    if not of:
        return None
    return (of["by"], of["to"], of["give_count"], of["want"], of["k"])


def _answers(previous: View, view: View) -> dict[int, str]:
    """Seats that answered the offer open on ``previous``: still open on ``view`` (declined),
    closed by a trade (the one who accepted, when the views tell who) or closed with nobody
    taking it (every addressee declined)."""
    a, b = previous["offer"], view["offer"]
    if not a or int(view["turn_no"] or 0) != int(previous["turn_no"] or 0):
        return {}
    was = [int(s) for s in a["awaiting"] or []]
    if b and _offer_key(a) == _offer_key(b):
        now = set(b["declined"] or [])
        return {s: "declined" for s in was if s in now}
    if b:  # another offer of the same turn: the old one closed unanswered in between
        return {}
    sizes = [
        (p["hand_size"], q["hand_size"]) for p, q in zip(previous["players"], view["players"], strict=False)
    ]
    by = int(a["by"])
    if view["traded"] and not previous["traded"] or sizes[by][0] != sizes[by][1]:
        moved = [s for s in was if sizes[s][0] != sizes[s][1]]  # a trade: who took it
        who = was if len(was) == 1 else moved if len(moved) == 1 else []
        return {s: "accepted" for s in who}
    if previous["traded"] and a["give_count"] == a["k"]:
        return {}  # a trade of equal counts after an earlier one would look the same
    return {s: "declined" for s in was}


def _new_sale(previous: View, view: View) -> bool:
    return len(view["sales"] or []) > len(previous["sales"] or []) or bool(
        view["last_sale"] and view["last_sale"] != previous["last_sale"]
    )


def labels(previous: View | None, view: View, names: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """What changed from ``previous`` to ``view`` as ``[(thing, label)]`` (see the module
    docstring); empty when ``previous`` is None."""
    if previous is None:
        return []
    nm = seat_names(names, int(view["n_players"]))
    out: list[tuple[str, str]] = []
    old, new = _market(previous), _market(view)
    out += [(f"market:{p}", "moved") for p, g in sorted(new.items()) if old.get(p) != g]
    lock = view["lock"]
    if lock and _lock(previous) != _lock(view):
        out.append(("lock", f"locked by {nm[int(lock['by'])]}"))
    if _new_sale(previous, view) and view["last_sale"]:
        out.append(("sale", f"sold by {nm[int(view['last_sale']['seat'])]}"))
    if int(view["pile"] or 0) < int(previous["pile"] or 0):
        out.append(("pile", "drawn"))
    of = view["offer"]
    if of and _offer_key(previous["offer"]) != _offer_key(of):
        out.append(("offer", f"offer by {nm[int(of['by'])]}"))
    out += [(f"answer:{s}", word) for s, word in sorted(_answers(previous, view).items())]
    for s, (p, q) in enumerate(zip(previous["players"] or [], view["players"] or [], strict=False)):
        for key, name in _COUNTS:
            a, b = p[key], q[key]
            if a != b:
                out.append((f"{name}:{s}", signed(int(b or 0) - int(a or 0))))
    return out


def changes(previous: View | None, view: View) -> frozenset[str]:
    """The things of :func:`labels` (the places the board outlines)."""
    return frozenset(thing for thing, _ in labels(previous, view))
