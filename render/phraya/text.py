"""Phraya as Discord markdown: the same information as the board (and, with ``me``, the hand),
at most 1900 characters. Less important lines are shortened first, then dropped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.phraya.view.types import CardView, MeView, PhrayaView
from render.common import num, ordinal, score_lines
from render.phraya.art import GOODS
from render.phraya.art.cards import card_lines
from render.phraya.layout.model import Model, model
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


def text(view: PhrayaView, names: Sequence[str] | None = None, *, moves: bool = True) -> str:
    """The view as Discord markdown text (≤ 1900 characters), names for ``{sN}``; without the
    viewer's legal actions when ``moves`` is false (the terminal lists them itself)."""
    for level in range(5):
        out = _compose(view, names, level, moves)
        if len(out) <= LIMIT:
            return out
    return out[: LIMIT - 1] + "…"


def _compose(view: PhrayaView, names: Sequence[str] | None, level: int, moves: bool = True) -> str:
    """The text at shortening ``level`` (0 whole … 4 the viewer's part only)."""
    m = model(view, names)
    who = [f"{m.names[q]} ({m.letters[q]})" for q in range(m.n)]
    lines = [f"**Phraya** · {_headline(m, who)}"]
    lines += _board_lines(m, who, level)
    lines += _chart_lines(m, level)
    lines.append("")
    lines += _seat_lines(m, who, level)
    if level >= 4:  # last resort: the board is in the image; keep the viewer's part whole
        del lines[1:]
    me = view["me"]
    if me:
        lines.append("")
        lines += _viewer_lines(m, me, level, moves)
    if view["over"] and view["totals"]:  # the end first: the ranking, then the board
        lines[1:1] = _result(view, m.names, m.n, level) + [""]
    return "\n".join(lines)


def _headline(m: Model, who: list[str]) -> str:
    """Who is to do what in which round, or the game's end."""
    v = m.view
    if m.over or m.active is None:
        return m.fmt(v["headline"]) or "Game over"
    # built from to_move, like the board's header (the awaited seat, set-up included)
    rnd = f"Round {m.round}" + (f"/{v['round_limit']}" if v["round_limit"] else "") if m.round else "Set-up"
    return f"{rnd} · {who[m.active]} {m.step_label}"


def _board_lines(m: Model, who: list[str], level: int) -> list[str]:
    """The river (boats, barge, marked moves), prices and Merchant, orders, baskets and stalls."""
    boats = " · ".join(f"{who[q]} {m.boats[q] or '–'}" for q in range(m.n) if q < len(m.boats))
    lines = [f"Barge {m.barge} · boats: {boats}"]
    if m.mark_sections:
        verb = "place a boat on" if m.step == "setup_boat" else "reach"
        lines.append(f"Can {verb}: " + " ".join(m.mark_sections))
    if m.mark_crossings:
        lines.append("Barge can go to: " + " ".join(m.mark_crossings))
    lines += _price_lines(m, level)
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
        lines += _stall_lines(m)
    return lines


def _price_lines(m: Model, level: int) -> list[str]:
    """The prices and where the Merchant stands; room allowing, the spaces it could move to."""
    v = m.view
    prices = " · ".join(f"{g} {m.price[g]}" for g in GOODS)
    route = v["merchant_route"]
    at = int(v["merchant"])
    mer = f" · Merchant at {'/'.join(route[at])}" if route else ""
    lines = [f"Prices: {prices}{mer}"]
    if level < 2 and route and not m.over:
        k = len(route)
        near = [
            f"{'+' if d > 0 else '−'}{abs(d)} {'/'.join(route[(at + d) % k])}" for d in (1, 2, 3, -1, -2, -3)
        ]
        lines.append("Merchant spaces: " + ", ".join(near))
    return lines


def _stall_lines(m: Model) -> list[str]:
    """Each seat's stalls with their goods (nothing when no stall is owned)."""
    own = []
    for q in range(m.n):
        mine = [
            f"{sid} {m.stalls[sid]['good'] or ''}" for sid in sorted(m.stalls) if m.stalls[sid]["owner"] == q
        ]
        if mine:
            own.append(f"{m.letters[q]}: " + ", ".join(mine))
    return ["Stalls: " + " · ".join(own)] if own else []


def _chart_lines(m: Model, level: int) -> list[str]:
    """The Temple and King charts, the end conditions and (while the game runs) the market."""
    v = m.view
    lines = []
    t = v["temple"]
    trows = t["rows"]
    temple = " · ".join(
        f"{g} " + ("".join(m.letters[s] for s in trows.get(g, [])) or "–") for g in t["row_order"]
    )
    if temple:
        lines.append(f"Temple: {temple}")
    taken = [f"{sp['space']} {m.letters[sp['seat']]}" for sp in v["king"] if sp["seat"] is not None]
    lines.append("King: " + (", ".join(taken) if taken else "empty"))
    cond = v["conditions"]
    lines.append(
        "Ends (2 of 3): "
        + " · ".join(
            f"{w} {'✔' if cond.get(k) else '✗'}"
            for k, w in (("tithe", "Tithe"), ("buddha", "Buddha"), ("supremacy", "Supremacy"))
        )
    )
    disp = []
    for c in v["display"] or []:
        if not c:
            disp.append("empty")
            continue
        s = f"{c['id']} {c['name']} ({c['coins']}c/{c['flowers']}fl)"
        if level < 2:
            s += ": " + "; ".join(card_lines(c))
        disp.append(s)
    if not m.over:
        lines.append(f"Market (deck {v['deck']}): " + " | ".join(disp))
    return lines


def _seat_lines(m: Model, who: list[str], level: int) -> list[str]:
    """One line per seat: coins, flowers, favours, goods, rowers, pieces left, orders and cards."""
    lines = []
    for q in range(m.n):
        p = m.players[q]
        mark = " ▶" if q == m.active else ""
        goods = " ".join(f"{g} {p['goods'].get(g, 0)}/{p['capacity'].get(g, 0)}" for g in GOODS)
        lines.append(
            f"**{who[q]}**{mark} — {p['coins']}c {p['flowers']}fl "
            f"{p['favors']}fav · {goods} · rowers {p['rowers']} · "
            f"stalls {p['stalls_left']} · disks {p['disks_left']} · "
            f"orders {len(p['orders'])} ({p['orders_vp']}VP) · "
            f"{p['hand_count']} card{'s' if p['hand_count'] != 1 else ''}"
            + (f" ({' '.join(c['id'] for c in p['hand'])})" if level < 2 and p["hand"] and not m.over else "")
        )
    return lines


def _viewer_lines(m: Model, me: MeView, level: int, moves: bool) -> list[str]:
    """The viewer's part: final line or prompt, legal actions, hand, active cards, score so far."""
    v = m.view
    lines = []
    legal = me["legal"]
    if m.over and v["totals"]:
        from render.phraya.hand import final_line

        lines.append(f"**{final_line(m, int(me['seat']))}**")
    elif me["prompt"]:
        lines.append(("**Your move:** " if legal else "") + m.fmt(me["prompt"]))
    if legal and moves:
        lines.append("Actions: " + " ".join(f"`{a}`" for a in legal))
    hand = me["hand"] or []
    if hand:
        lines.append(_hand_line(hand, level))
    if me["passives"]:
        lines.append("Active: " + ", ".join(me["passives"]))
    prev = me["preview"]
    if prev and not v["over"] and level < 3:
        total = sum(int(x) for x in prev.values())
        lines.append(
            f"Score now: **{num(total)}** ("
            + ", ".join(f"{category_label(c)} {num(int(x))}" for c, x in prev.items() if int(x))
            + ")"
        )
    return lines


def _hand_line(hand: list[CardView], level: int) -> str:
    """The viewer's cards: whole texts, then their short lines, then only their ids."""
    if level < 1:
        return "Hand: " + " | ".join(f"{c['id']} {c['name']}: {c['text']}" for c in hand)
    if level < 3:
        return "Hand: " + " | ".join(f"{c['id']} {c['name']}: " + "; ".join(card_lines(c)) for c in hand)
    return "Hand: " + " ".join(c["id"] for c in hand)


def _result(v: PhrayaView, names: Sequence[str], n: int, level: int) -> list[str]:
    """The ranking with each total, the end's reason and (room allowing) each seat's points by
    category."""
    ranks = v["ranks"] or [1] * n
    totals = v["totals"] or [0] * n
    order = sorted(range(n), key=lambda q: (ranks[q], q))
    lines = [
        "**Result:** "
        + " · ".join(
            f"{ordinal(ranks[q])} {names[q]} {totals[q]}" + (" 🏆" if ranks[q] == 1 else "") for q in order
        )
    ]
    if v["end_reason"]:
        lines.append(f"Ended by {v['end_reason']}")
    scores = v["scores"] or []
    if level < 3:
        for q in order:
            row = scores[q] if q < len(scores) else {}
            if row:
                lines.append(
                    f"{names[q]}: " + " · ".join(f"{SHORT.get(c, c)} {num(int(x))}" for c, x in row.items())
                )
    return lines


def _zeros(view: PhrayaView, seat: int, row: Mapping[str, int]) -> list[tuple[str, str]]:
    """Categories of ``seat`` that scored 0 where a reason helps (coins short of 5, no orders,
    King disks without a majority or a full set)."""
    p = view["players"][seat]
    out: list[tuple[str, str]] = []
    coins = int(p["coins"])
    if not row["coins"]:
        out.append((category_label("coins"), f"{coins} coin{'s' if coins != 1 else ''}; 1 point per 5"))
    if not row["orders"] and not p["orders"]:
        out.append((category_label("orders"), "no restaurant orders delivered"))
    disks = [sp for sp in view["king"] if sp["seat"] == seat]
    if disks and not row.get("king_majority"):
        out.append((category_label("king_majority"), f"{len(disks)} disks: neither first nor second"))
    if disks and not row.get("king_sets"):
        out.append((category_label("king_sets"), "a set needs a disk in each King row"))
    return out


def score_text(view: PhrayaView, names: Sequence[str] | None = None) -> str:
    """The final score of a finished game's view, best first, by category, with the reason for a
    zero where one helps; "" while the game runs."""
    if not view["over"] or not view["totals"]:
        return ""
    m = model(view, names)
    totals, scores = view["totals"], view["scores"] or []
    ranks = view["ranks"] or [1] * m.n
    reason = f" (ended by {view['end_reason']})" if view["end_reason"] else ""
    lines = [f"Final scoring{reason}"]
    for q in sorted(range(m.n), key=lambda q: (ranks[q], q)):
        row = scores[q] if q < len(scores) else {}
        parts = [(category_label(c), int(x)) for c, x in row.items()]
        lines += score_lines(ranks[q], m.names[q], int(totals[q]), parts, _zeros(view, q, row))
    return "\n".join(lines)
