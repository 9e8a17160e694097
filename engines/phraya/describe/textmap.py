"""A text map of the Phraya board for the terminal: the 4×4 islands with the stall on each side,
the channel sections between them with the boats, the crossings with the Royal Barge.

Built from a view only (what its viewer may see), like a renderer; it stays in the engine
package because it is plain text for the terminal's ``board`` command, not drawing.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import format_text

CELL = 16  # an island's width


GAP = 5  # a vertical channel's width


_SERVICE = {
    "restaurant": "Rest",
    "temple": "Temple",
    "basket": "Basket",
    "scribe": "Scribe",
    "admin": "Admin",
}


def letter(view: Mapping[str, Any], seat: int) -> str:
    """A seat's one-letter mark: its colour's initial (P, O, W, B)."""
    return str(view["players"][seat]["color"])[:1].upper()


def stall_tag(view: Mapping[str, Any], st: Mapping[str, Any]) -> str:
    """A stall in at most 6 characters: ``vegP`` (owned by P), ``veg·`` (no owner yet),
    ``veg*`` (public), or the service (``Rest``, ``Temple``…)."""
    if st["kind"] != "goods":
        return _SERVICE[st["kind"]]
    if not st["ownable"]:
        return f"{st['good']}*"
    owner = st["owner"]
    return str(st["good"]) + ("·" if owner is None else letter(view, owner))


def text_map(view: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """The map and its legend (seat tokens replaced by ``names``)."""
    stalls = {st["id"]: st for st in view["board"]["stalls"]}
    boats: dict[str, str] = {}
    for q, at in enumerate(view["boats"]):
        if at:
            boats[at] = boats.get(at, "") + letter(view, q)
    reach = set(view.get("reachable") or ())

    def tag(sid: str | None) -> str:
        return stall_tag(view, stalls[sid]) if sid else ""

    def sec(sid: str) -> str:
        shown = f"[{sid}]" if sid in reach else sid
        return shown + (f" <{boats[sid]}>" if sid in boats else "")

    pad = " " * 6
    out = [pad + "".join(f"{'col ' + str(c):^{CELL}}" + " " * GAP for c in range(4)).rstrip()]
    for r in range(4):
        if r:
            out.append(_channel_row(view, r - 1, sec))
        edge = "".join("+" + "-" * (CELL - 2) + "+" + (" " * GAP if c < 3 else "") for c in range(4))
        top, mid, low = [], [], []
        inner = CELL - 2
        for c in range(4):
            n = tag(f"h{r - 1}{c}s" if r else None)
            s = tag(f"h{r}{c}n" if r < 3 else None)
            w = tag(f"v{c - 1}{r}e" if c else None)
            e = tag(f"v{c}{r}w" if c < 3 else None)
            top.append(f"|{n:^{inner}}|")
            mid.append(f"|{w:<6}" + " " * (inner - 12) + f"{e:>6}|")
            low.append(f"|{s:^{inner}}|")
            if c < 3:
                v = f"v{c}{r}"
                top.append(" " * GAP)
                mid.append(f"{sec(v).split(' ')[0]:^{GAP}}")
                low.append(f"{'<' + boats[v] + '>' if v in boats else '':^{GAP}}")
        out += [pad + edge, pad + "".join(top), f"row {r} " + "".join(mid), pad + "".join(low), pad + edge]
    out = [line.rstrip() for line in out]
    return format_text("\n".join(out + _legend(view, stalls)), names)


def _channel_row(view: Mapping[str, Any], row: int, sec: Any) -> str:
    parts = []
    for c in range(4):
        parts.append(f"{sec(f'h{row}{c}'):^{CELL}}")
        if c < 3:
            x = f"x{row}{c}"
            parts.append(f"{'BARGE' if view['barge'] == x else '+':^{GAP}}")
    return " " * 6 + "".join(parts)


def _legend(view: Mapping[str, Any], stalls: Mapping[str, Mapping[str, Any]]) -> list[str]:
    who = ", ".join(f"{letter(view, q)} = {{s{q}}}" for q in range(view["n_players"]))
    lines = [
        "Key:",
        "Each box is an island; the stalls on its sides face the channel section beside them "
        "(the stall under the top-left island is h00n, the one right of it v00w).",
        f"Owners: {who}; · = no owner yet, * = public (nobody can own it). <P> = a boat; "
        "BARGE = the Royal Barge on a crossing (+).",
    ]
    if view.get("reachable"):
        lines.append(f"[{view['reachable'][0]}] = a section you can move to now.")
    orders = []
    for sid in sorted(stalls):
        o = stalls[sid]["order"]
        if o:
            orders.append(f"{sid} {'+'.join(o['goods'])} → {o['coins']}c {o['vp']}VP")
    if orders:
        lines.append("Rest = restaurant with its order: " + " · ".join(orders))
    return [""] + [w for line in lines for w in textwrap.wrap(line, 100, subsequent_indent="  ")]
