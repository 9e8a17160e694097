"""Phraya as Discord markdown: the same information as the board (and, with ``me``, the hand),
at most 1900 characters. Less important lines are shortened first, then dropped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render.common import num, ordinal, score_lines
from render.phraya.art import GOODS
from render.phraya.cards import card_lines
from render.phraya.model import model
from render.phraya.sheet import category_label

LIMIT = 1900
SHORT = {
    "coins": "coins",
    "temple_offerings": "offerings",
    "temple_majority": "Temple maj.",
    "orders": "orders",
    "cards": "cards",
    "king_majority": "King maj.",
    "king_sets": "King sets",
    "stalls": "stalls",
}


def text(view: dict[str, Any], names: Sequence[str] | None = None, *, moves: bool = True) -> str:
    """The view as Discord markdown text (≤ 1900 characters), names for ``{sN}``; without the
    viewer's legal actions when ``moves`` is false (the terminal lists them itself)."""
    for level in range(5):
        out = _compose(view, names, level, moves)
        if len(out) <= LIMIT:
            return out
    return out[: LIMIT - 1] + "…"


def _compose(view: dict[str, Any], names: Sequence[str] | None, level: int, moves: bool = True) -> str:
    m = model(view, names)
    v = view
    n = m.n
    who = [f"{m.names[q]} ({m.letters[q]})" for q in range(n)]
    if m.over or m.active is None:
        head = m.fmt(v.get("headline")) or "Game over"
    else:  # built from to_move, like the board's header (the awaited seat, set-up included)
        rnd = (
            f"Round {m.round}" + (f"/{v['round_limit']}" if v.get("round_limit") else "")
            if m.round
            else "Set-up"
        )
        head = f"{rnd} · {who[m.active]} {m.step_label}"
    lines = [f"**Phraya** · {head}"]
    body_start = len(lines)
    # board
    boats = " · ".join(f"{who[q]} {m.boats[q] or '–'}" for q in range(n) if q < len(m.boats))
    lines.append(f"Barge {m.barge} · boats: {boats}")
    if m.mark_sections:
        verb = "place a boat on" if m.step == "setup_boat" else "reach"
        lines.append(f"Can {verb}: " + " ".join(m.mark_sections))
    if m.mark_crossings:
        lines.append("Barge can go to: " + " ".join(m.mark_crossings))
    prices = " · ".join(f"{g} {m.price[g]}" for g in GOODS)
    route = v.get("merchant_route") or []
    at = int(v.get("merchant") or 0)
    mer = f" · Merchant at {'/'.join(route[at])}" if route else ""
    lines.append(f"Prices: {prices}{mer}")
    if level < 2 and route and not m.over:
        k = len(route)
        near = [
            f"{'+' if d > 0 else '−'}{abs(d)} {'/'.join(route[(at + d) % k])}" for d in (1, 2, 3, -1, -2, -3)
        ]
        lines.append("Merchant spaces: " + ", ".join(near))
    rest = []
    for sid in m.restaurants:
        o = m.order_on.get(sid)
        rest.append(f"{sid} " + (f"{'+'.join(o['goods'])} → {o['coins']}c {o['vp']}VP" if o else "empty"))
    lines.append("Orders: " + " · ".join(rest))
    bas = [
        f"{sid} {m.basket_on[sid]['price']}c" if sid in m.basket_on else f"{sid} –" for sid in m.basket_stalls
    ]
    lines.append("Baskets: " + " · ".join(bas))
    if level < 3:
        own = []
        for q in range(n):
            mine = [
                f"{sid} {m.stalls[sid].get('good', '')}"
                for sid in sorted(m.stalls)
                if m.stalls[sid].get("owner") == q
            ]
            if mine:
                own.append(f"{m.letters[q]}: " + ", ".join(mine))
        if own:
            lines.append("Stalls: " + " · ".join(own))
    # charts
    t = v.get("temple") or {}
    trows = t.get("rows") or {}
    temple = " · ".join(
        f"{g} " + ("".join(m.letters[s] for s in trows.get(g, [])) or "–") for g in t.get("row_order") or []
    )
    if temple:
        lines.append(f"Temple: {temple}")
    king = v.get("king") or []
    taken = [f"{sp['space']} {m.letters[sp['seat']]}" for sp in king if sp.get("seat") is not None]
    lines.append("King: " + (", ".join(taken) if taken else "empty"))
    cond = v.get("conditions") or {}
    lines.append(
        "Ends (2 of 3): "
        + " · ".join(
            f"{w} {'✔' if cond.get(k) else '✗'}"
            for k, w in (("tithe", "Tithe"), ("buddha", "Buddha"), ("supremacy", "Supremacy"))
        )
    )
    disp = []
    for c in v.get("display") or []:
        if not c:
            disp.append("empty")
            continue
        s = f"{c['id']} {c['name']} ({c['coins']}c/{c['flowers']}fl)"
        if level < 2:
            s += ": " + "; ".join(card_lines(c))
        disp.append(s)
    if not m.over:
        lines.append(f"Market (deck {v.get('deck', 0)}): " + " | ".join(disp))
    lines.append("")
    for q in range(n):
        p: Mapping[str, Any] = m.players[q] if q < len(m.players) else {}
        mark = " ▶" if q == m.active else ""
        goods = " ".join(
            f"{g} {p.get('goods', {}).get(g, 0)}/{p.get('capacity', {}).get(g, 0)}" for g in GOODS
        )
        lines.append(
            f"**{who[q]}**{mark} — {p.get('coins', 0)}c {p.get('flowers', 0)}fl "
            f"{p.get('favors', 0)}fav · {goods} · rowers {p.get('rowers', 2)} · "
            f"stalls {p.get('stalls_left', 0)} · disks {p.get('disks_left', 0)} · "
            f"orders {len(p.get('orders') or [])} ({p.get('orders_vp', 0)}VP) · "
            f"{p.get('hand_count', 0)} card{'s' if p.get('hand_count', 0) != 1 else ''}"
            + (
                f" ({' '.join(c['id'] for c in p['hand'])})"
                if level < 2 and p.get("hand") and not m.over
                else ""
            )
        )
    if level >= 4:  # last resort: the board is in the image; keep the viewer's part whole
        del lines[body_start:]
    me = v.get("me")
    if me:
        lines.append("")
        legal = me.get("legal") or []
        if m.over and v.get("totals"):
            from render.phraya.hand import final_line

            lines.append(f"**{final_line(m, int(me['seat']))}**")
        elif me.get("prompt"):
            lines.append(("**Your move:** " if legal else "") + m.fmt(me["prompt"]))
        if legal and moves:
            lines.append("Actions: " + " ".join(f"`{a}`" for a in legal))
        hand = me.get("hand") or []
        if hand:
            if level < 1:
                lines.append(
                    "Hand: " + " | ".join(f"{c['id']} {c['name']}: {c.get('text', '')}" for c in hand)
                )
            elif level < 3:
                lines.append(
                    "Hand: " + " | ".join(f"{c['id']} {c['name']}: " + "; ".join(card_lines(c)) for c in hand)
                )
            else:
                lines.append("Hand: " + " ".join(c["id"] for c in hand))
        if me.get("passives"):
            lines.append("Active: " + ", ".join(me["passives"]))
        prev = me.get("preview") or {}
        if prev and not v.get("over") and level < 3:
            total = sum(int(x) for x in prev.values())
            lines.append(
                f"Score now: **{num(total)}** ("
                + ", ".join(f"{category_label(c)} {num(int(x))}" for c, x in prev.items() if int(x))
                + ")"
            )
    if v.get("over") and v.get("totals"):  # the end first: the ranking, then the board
        lines[1:1] = _result(v, m.names, n, level) + [""]
    return "\n".join(lines)


def _result(v: Mapping[str, Any], names: Sequence[str], n: int, level: int) -> list[str]:
    """The ranking with each total, the end's reason and (room allowing) each seat's points by
    category."""
    ranks = v.get("ranks") or [1] * n
    order = sorted(range(n), key=lambda q: (ranks[q], q))
    lines = [
        "**Result:** "
        + " · ".join(
            f"{ordinal(ranks[q])} {names[q]} {v['totals'][q]}" + (" 🏆" if ranks[q] == 1 else "")
            for q in order
        )
    ]
    if v.get("end_reason"):
        lines.append(f"Ended by {v['end_reason']}")
    scores = v.get("scores") or []
    if level < 3:
        for q in order:
            row = scores[q] if q < len(scores) else {}
            if row:
                lines.append(
                    f"{names[q]}: " + " · ".join(f"{SHORT.get(c, c)} {num(int(x))}" for c, x in row.items())
                )
    return lines


def _zeros(view: dict[str, Any], seat: int, row: Mapping[str, int]) -> list[tuple[str, str]]:
    """Categories of ``seat`` that scored 0 where a reason helps (coins short of 5, no orders,
    King disks without a majority or a full set)."""
    p: Mapping[str, Any] = (view.get("players") or [{}] * (seat + 1))[seat]
    out: list[tuple[str, str]] = []
    coins = int(p.get("coins", 0))
    if not row.get("coins"):
        out.append((category_label("coins"), f"{coins} coin{'s' if coins != 1 else ''}; 1 point per 5"))
    if not row.get("orders") and not p.get("orders"):
        out.append((category_label("orders"), "no restaurant orders delivered"))
    disks = [sp for sp in view.get("king") or [] if sp.get("seat") == seat]
    if disks and not row.get("king_majority"):
        out.append((category_label("king_majority"), f"{len(disks)} disks: neither first nor second"))
    if disks and not row.get("king_sets"):
        out.append((category_label("king_sets"), "a set needs a disk in each King row"))
    return out


def score_text(view: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The final score of a finished game's view, best first, by category, with the reason for a
    zero where one helps; "" while the game runs."""
    if not view.get("over") or not view.get("totals"):
        return ""
    m = model(view, names)
    totals, scores = view["totals"], view.get("scores") or []
    ranks = view.get("ranks") or [1] * m.n
    reason = f" (ended by {view['end_reason']})" if view.get("end_reason") else ""
    lines = [f"Final scoring{reason}"]
    for q in sorted(range(m.n), key=lambda q: (ranks[q], q)):
        row = scores[q] if q < len(scores) else {}
        parts = [(category_label(c), int(x)) for c, x in row.items()]
        lines += score_lines(ranks[q], m.names[q], int(totals[q]), parts, _zeros(view, q, row))
    return "\n".join(lines)
