"""One player's private Pralaya view: relics grouped by type with set progress, coins against the
Veda and Dhoni prices, the score "if escaped now", owned Veda/Dhoni, and the legal moves."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.pralaya import data as pdata
from engines.pralaya.view import MeView, PralayaView
from render.common import (
    BAD,
    GOOD,
    INK,
    LINE,
    MUTED,
    PANEL,
    WIDTH,
    draw_text,
    fit,
    font,
    num,
    ordinal,
    panel,
    seat_initials,
    seat_ink,
    tint,
)
from render.frame import HEADER_H, seat_badge
from render.pralaya.art.cards import info, set_progress, sort_key
from render.pralaya.art.icons import paste_icon, pips
from render.pralaya.art.pieces import section_title, top
from render.pralaya.layout import INNER, STEP_LABEL, VITALITY, M, crop, names_for, new_canvas, price_text

PER_ROW = 3
TILE_W = (INNER - (PER_ROW - 1) * 8) // PER_ROW
TILE_H = 122
PAY = re.compile(r"(\d+)g (\d+)s (\d+)c")


# --------------------------------------------------------------------------- relic tiles


def _relic_tiles(img: Image.Image, d: ImageDraw.ImageDraw, hand: Mapping[str, int], y: int) -> int:
    codes = sorted((c for c, k in hand.items() if k), key=sort_key)
    if not codes:
        draw_text(d, (M + 4, y + 4), "No relics yet.", 28, fill=MUTED)
        return y + 40
    for i, code in enumerate(codes):
        r, c = divmod(i, PER_ROW)
        x0 = M + c * (TILE_W + 8)
        y0 = y + r * (TILE_H + 8)
        card = info(code)
        color = card.color if card else MUTED
        d.rounded_rectangle(
            (x0, y0, x0 + TILE_W, y0 + TILE_H),
            radius=8,
            fill=tint(color, 0.86),
            outline=tint(color, 0.35),
            width=2,
        )
        paste_icon(img, code if card else "back", (x0 + 10, y0 + 10), 44)
        d.text((x0 + TILE_W - 12, y0 + 10), f"×{hand[code]}", font=font(32, True), fill=INK, anchor="ra")
        name = card.name if card else code
        s, f = fit(name, TILE_W - 20, 28, bold=True, min_size=28)
        if s.endswith("…") and card:  # "Ancient Manuscript" → "Manuscript"
            s, f = fit(card.short, TILE_W - 20, 28, bold=True, min_size=28)
        d.text((x0 + 10, y0 + 60), s, font=f, fill=INK)
        prog = set_progress(code, hand[code])
        hint = prog or (card.hint if card else "")
        s, f = fit(hint, TILE_W - 20, 26)
        d.text((x0 + 10, y0 + 92), s, font=f, fill=INK if prog else MUTED)
    rows = (len(codes) + PER_ROW - 1) // PER_ROW
    return y + rows * (TILE_H + 8) - 8


# --------------------------------------------------------------------------- coins and prices


def _purchase_lines(view: PralayaView, mine: Mapping[str, Any], cur: int) -> list[tuple[str, str, Any]]:
    """What the seat's coins buy, as (icon, text, colour) lines; at the end, how the game left it."""
    veda = view["veda"] or {}
    dhoni = view["dhoni"] or []
    lines: list[tuple[str, str, Any]] = []
    if view["over"]:  # purchases are over: say how the game left this seat
        if mine["escaped"]:
            lines.append(("dhoni", f"Escaped on Dhoni {price_text(mine.get('dhoni_price'))}", GOOD))
        else:
            lines.append(("dhoni", "Did not escape: no score", BAD))
        lines.append(("veda", "Veda owned" if mine["veda"] else "No Veda", INK if mine["veda"] else MUTED))
    elif mine["escaped"]:
        lines.append(
            ("dhoni", f"Escaped on Dhoni {price_text(mine.get('dhoni_price'))}: coins now only score", INK)
        )
        lines.append(("", "Each turn you discard a relic from the island.", MUTED))
    else:
        if mine["veda"]:
            lines.append(("veda", f"Veda owned: {pdata.VEDA_VITALITY} Vitality a turn", GOOD))
        elif not veda["left"]:
            lines.append(("veda", "No Veda left", MUTED))
        else:
            price = int(veda["price"])
            if cur >= price:
                lines.append(("veda", f"✓ Veda affordable (price {price})", GOOD))
            else:
                lines.append(("veda", f"Veda costs {price}: {price - cur} more needed", INK))
        if not dhoni:
            lines.append(("dhoni", "No Dhoni left", MUTED))
        else:
            top = dhoni[0].get("price")
            if price_text(top) == "X":
                lines.append(("dhoni", f"✓ Dhoni X: escape now for all your coins ({cur})", GOOD))
            elif cur >= int(top):
                lines.append(("dhoni", f"✓ Dhoni {top} affordable: you can escape", GOOD))
            else:
                lines.append(("dhoni", f"Dhoni {top}: {int(top) - cur} more needed to escape", INK))
    return lines


def _coins_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    me: MeView,
    mine: Mapping[str, Any],  # the seat's player entry ({} if missing)
    y: int,
) -> int:
    h = 150
    panel(d, (M, y, WIDTH - M, y + h), radius=10)
    hand = me["hand"] or {}
    cur = int(me["currency"])
    x = M + 18
    draw_text(d, (x, y + 10), "CURRENCY", 26, fill=MUTED, bold=True)
    draw_text(d, (x, y + 34), str(cur), 48, bold=True, fill=INK)
    cx = x
    for code in ("gol", "sil", "cop"):
        k = int(hand.get(code, 0))
        paste_icon(img, code, (cx, y + 102), 30)
        d.text((cx + 34, y + 118), f"×{k}", font=font(26, True), fill=INK if k else MUTED, anchor="lm")
        cx += 88
    bx = M + 290  # right part: what the coins buy
    lines = _purchase_lines(view, mine, cur)
    ly = y + 18
    for kind, s, col in lines:
        if kind:
            paste_icon(img, kind, (bx, ly), 36)
        draw_text(
            d, (bx + 46, ly + 18), s, 28, fill=col, bold=True, anchor="lm", max_width=WIDTH - M - 20 - bx - 46
        )
        ly += 62
    return y + h


# --------------------------------------------------------------------------- provisional score


def _score_panel(d: ImageDraw.ImageDraw, me: MeView, final: Mapping[str, Any] | None, y: int) -> int:
    """The breakdown and total: ``final`` (from the outcome) once the game is over and the seat
    scored, else the provisional score "if escaped now"."""
    prov: Mapping[str, Any] = final or me["provisional"] or {}
    cats = list(prov["categories"] or [])
    bd = prov["breakdown"] or {}
    known = bool(prov["fossil_known"])
    per_col = (len(cats) + 1) // 2
    h = 24 + per_col * 40 + (32 if not known else 0)
    panel(d, (M, y, WIDTH - M, y + h), radius=10)
    col_w = 290
    for i, cat in enumerate(cats):
        c, r = divmod(i, per_col)
        x = M + 20 + c * (col_w + 30)
        yy = y + 12 + r * 40
        d.text((x, yy + 18), cat, font=font(26), fill=INK, anchor="lm")
        v = bd.get(cat, 0)
        if cat == "Fossils" and not known:
            s, col = "?", MUTED
        else:
            s, col = num(v), (BAD if v < 0 else MUTED if v == 0 else INK)
        d.text((x + col_w, yy + 18), s, font=font(28, True), fill=col, anchor="rm")
        d.line((x, yy + 37, x + col_w, yy + 37), fill=LINE, width=1)
    # the total, big, on the right
    tx = WIDTH - M - 20
    draw_text(d, (tx, y + 16), "TOTAL", 26, fill=MUTED, bold=True, anchor="ra")
    total = int(prov["total"])
    draw_text(d, (tx, y + 40), num(total), 52, bold=True, fill=BAD if total < 0 else INK, anchor="ra")
    if not known:
        draw_text(
            d,
            (M + 20, y + h - 30),
            "Fossil majority (15) not counted: other hands are hidden.",
            26,
            fill=MUTED,
            max_width=INNER - 40,
        )
    return y + h


# --------------------------------------------------------------------------- legal moves


def action_label(action: str, view: PralayaView) -> str:
    """A readable label for an action text, naming the card or the coins paid."""
    parts = action.split()
    cells = {c["cell"]: c for c in view["island"]}
    if parts and parts[0] in ("take", "discard") and len(parts) == 2:
        cell: Mapping[str, Any] = cells.get(parts[1]) or {}
        name = cell["name"]
        if name:
            cost = cell["cost"]
            extra = f" ({cost} V)" if parts[0] == "take" and cost else ""
            return f"{action} · {name}{extra}"
    if parts and parts[0] == "buy":
        m = PAY.search(action)
        if m:
            g, s, c = (int(v) for v in m.groups())
            return f"{action} · pays {6 * g + 3 * s + c}"
    if action == "done":
        return "done · stop collecting"
    if action == "pass":
        return "pass · buy nothing"
    return action


def result_line(view: PralayaView, seat: int) -> str:
    """The seat's result at the end: its rank and score, or that it did not escape."""
    out = view["outcome"]
    if out is not None and seat < len(out["scores"]) and (score := out["scores"][seat]) is not None:
        scores, ranks = out["scores"], out["ranks"]
        tied = sum(1 for r, v in zip(ranks, scores, strict=False) if v is not None and r == ranks[seat]) > 1
        return f"You finished {ordinal(ranks[seat])}{' (tied)' if tied else ''} with {score} pts"
    return "You did not escape, so you score nothing"


def _whose(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str], seat: int
) -> int:
    """Under the header: whose hand this is and, on the seat's own turn, the Vitality left; at
    the end, the seat's rank. Returns the y below."""
    y = HEADER_H + 8
    cy = y + 28
    seat_badge(d, (M + 22, cy), seat, seat_initials(names)[seat], 20)
    if view["over"]:
        msg = result_line(view, seat)
    else:
        msg = f"{names[seat]}'s hand" + (" · your turn" if seat == view["active"] else "")
    s, f = fit(msg, INNER - 320 if not view["over"] else INNER - 60, 30, bold=True)
    d.text((M + 52, cy), s, font=f, fill=seat_ink(seat), anchor="lm")
    mine: Mapping[str, Any] = next((p for p in view["players"] if p["seat"] == seat), {})
    if not view["over"] and seat == view["active"] and not mine["escaped"]:
        vit, left = int(view["vitality"]), int(view["v_left"])
        nf = font(38, True)
        rx = WIDTH - M - 4
        d.text((rx, cy), str(left), font=nf, fill=VITALITY, anchor="rm")
        total = max(vit, left)
        px = rx - font(38, True).getlength(str(left)) - 12 - (total * 26 - 4 if total else 0)
        pips(img, (px, cy - 11), total, left, 22, VITALITY, gap=4)
        d.text((px - 10, cy), "Vitality", font=font(26), fill=MUTED, anchor="rm")
    return y + 64


def _moves(d: ImageDraw.ImageDraw, view: PralayaView, me: MeView, names: Sequence[str], y: int) -> int:
    legal = list(me["legal"] or [])
    if not legal:
        active = view["active"]
        who = names[active] if active is not None else "?"
        step = STEP_LABEL.get(view["step"], "")
        draw_text(
            d, (M + 4, y), f"Not your turn: waiting for {who} ({step}).", 28, fill=MUTED, max_width=INNER - 8
        )
        return y + 36
    cols = 2
    cw = (INNER - (cols - 1) * 10) // cols
    for i, a in enumerate(legal):
        r, c = divmod(i, cols)
        x0 = M + c * (cw + 10)
        y0 = y + r * 52
        d.rounded_rectangle((x0, y0, x0 + cw, y0 + 44), radius=8, fill=PANEL, outline=INK, width=2)
        s, lf = fit(action_label(a, view), cw - 20, 28, bold=True, min_size=26)
        d.text((x0 + 10, y0 + 22), s, font=lf, fill=INK, anchor="lm")
    rows = (len(legal) + cols - 1) // cols
    return y + rows * 52 - 8


# --------------------------------------------------------------------------- the hand


def hand(view: PralayaView, names: Sequence[str] | None = None) -> Image.Image:
    """The private view of ``view["me"]``: relics by type, coins against the prices, the score if
    escaped now, and the legal moves. A spectator view (no ``me``) gives a short notice image.
    Returns an RGB image WIDTH px wide."""
    nm = names_for(view, names)
    me = view["me"]
    img, d = new_canvas(2400)
    top(img, d, view, nm)
    if not me:
        draw_text(d, (M + 4, HEADER_H + 16), "Spectator view: no hand to show.", 28, fill=MUTED)
        return crop(img, HEADER_H + 56)
    seat = int(me["seat"])
    mine: Mapping[str, Any] = next((p for p in view["players"] if p["seat"] == seat), {})
    y = _whose(img, d, view, nm, seat)
    hand_counts = me["hand"] or {}
    total = sum(hand_counts.values())
    y = section_title(d, y + 2, "Relics in hand", f"{total} card" + ("" if total == 1 else "s"))
    y = _relic_tiles(img, d, hand_counts, y) + 16
    y = section_title(d, y, "Coins and purchases")
    y = _coins_panel(img, d, view, me, mine, y) + 16
    final: dict[str, Any] | None = None
    if view["over"]:
        out = view["outcome"]
        score = out["scores"][seat] if out is not None and seat < len(out["scores"]) else None
        title = "Final score" if score is not None else "Would have scored (did not escape)"
        if out is not None and score is not None:
            final = {
                "categories": out["categories"],
                "breakdown": out["breakdown"][seat] or {},
                "total": score,
                "fossil_known": True,
            }
    elif mine["escaped"]:
        title = "Score now"
    else:  # the engine's preview has paid for the top Dhoni, or says how many coins are missing
        prov = me["provisional"] or {}
        short, paid = int(prov["short"] or 0), int(prov["paid"] or 0)
        if short:
            title = f"Score so far ({short} coins short of {prov.get('dhoni')})"
        else:
            title = "If you escaped now" + (f" (after paying {paid})" if paid else "")
    y = section_title(d, y, title)
    y = _score_panel(d, me, final, y) + 16
    if view["over"]:  # the result is said once, at the top
        return crop(img, y - 16)
    y = section_title(d, y, "Your moves")
    y = _moves(d, view, me, nm, y)
    return crop(img, y)
