"""The Phraya board's tracks: the Merchant's route, the Temple and the King's Chart (each
``draw_*`` draws at ``y`` and returns the y below), with rings on what the last move changed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.phraya.view import KingSpaceView
from render.common import ACCENT, INK, LINE, MUTED, PANEL, WIDTH, font, text_width
from render.phraya.art import GOLD_DARK, GOOD_COLOR, goods_row, icon, paste_c, seat_disc
from render.phraya.changes import NONE, Changes
from render.phraya.draw import M, mark_ring, text_at
from render.phraya.layers import layer
from render.phraya.model import Model


def title(d: ImageDraw.ImageDraw, x: int, y: int, s: str, note: str = "", w: int = 0) -> int:
    d.text((x, y), s, font=font(24, True), fill=MUTED)
    if note:
        tw = text_width(s, font(24, True)) + 14
        text_at(d, (x + tw, y + 2), note, 20, MUTED, max_width=max(40, w - tw) if w else None)
    return y + 32


def draw_merchant(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, ch: Changes = NONE) -> int:
    """The Merchant's loop of 12 spaces, each labelled with its distance from him (+ = right):
    drawn once per route, position and ring (:func:`render.phraya.layers.layer`)."""
    route = m.view.get("merchant_route") or []
    if not route:
        return y
    key = ("merchant", repr(route), int(m.view.get("merchant") or 0), bool(ch.merchant))
    layer(img, M, y, WIDTH - M, y + 72, key, lambda im, dd, lx, ly: _merchant(im, dd, m, lx, ly, ch))
    return y + 72


def _merchant(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x0: int, y: int, ch: Changes = NONE
) -> None:
    v = m.view
    route = v.get("merchant_route") or []
    at = int(v.get("merchant") or 0)
    d.text((x0, y + 6), "Merchant", font=font(24, True, True), fill=MUTED)
    d.text((x0, y + 38), "+ = right", font=font(20), fill=MUTED)
    lw = 112
    k = len(route)
    cw = (WIDTH - 2 * M - lw) // k
    for i, pair in enumerate(route):
        off = (i - at) % k
        if off > k // 2:
            off -= k
        x = x0 + lw + i * cw
        here = off == 0
        box = (x + 2, y, x + cw - 2, y + 72)
        d.rounded_rectangle(
            box,
            radius=8,
            fill=(252, 232, 160) if here else PANEL,
            outline=GOLD_DARK if here else LINE,
            width=4 if here else 1,
        )
        goods_row(img, pair, x + (cw - 56) / 2, y + 17, 26, 4)
        lab = "here" if here else (f"+{off}" if off > 0 else f"−{-off}")
        text_at(d, (x + cw / 2, y + 50), lab, 28, INK if abs(off) <= 3 else MUTED, True, "mm", cw - 6)
        if here and ch.merchant:
            mark_ring(d, box, radius=8, inside=True)


def draw_temple(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, w: int, ch: Changes = NONE
) -> int:
    """The Temple: 4 rows × 8 columns, disks as seat letters, the flower cost of each column and
    the next free space of each row outlined; section VP (majority / none) underneath."""
    t = m.view.get("temple") or {}
    rows = t.get("rows") or {}
    order = t.get("row_order") or ["meat", "fish", "fruit", "veg"]
    cols = int(t.get("columns") or 8)
    cost = t.get("flower_cost") or [0, 1, 1, 2, 2, 3, 3, 4]
    secs = t.get("sections") or [[0, 1, 2], [3, 4, 5], [6, 7]]
    svp = t.get("section_vp") or [10, 7, 4]
    spen = t.get("section_penalty") or [-7, -4, -2]
    ovp = t.get("offering_vp") or {"meat": 5, "fish": 4, "fruit": 3, "veg": 2}
    cond = (m.view.get("conditions") or {}).get("buddha")
    lw, rh = 62, 38
    cw = (w - lw) // cols
    key: tuple[Any, ...] = (
        "temple",
        w,
        bool(cond),
        tuple(order),
        cols,
        tuple(cost),
        tuple(map(tuple, secs)),
        tuple(svp),
    )
    key += (tuple(spen), tuple((g, ovp.get(g, "")) for g in order))
    height = 32 + 26 + 4 * rh + 2 + 32

    def grid(im: Image.Image, dd: ImageDraw.ImageDraw, lx: int, ly: int) -> None:
        _temple_grid(im, dd, lx, ly, w, bool(cond), order, cols, cost, secs, svp, spen, ovp)

    layer(img, x, y, x + w + 8, y + height - 1, key, grid)
    y += 32 + 26
    for r, g in enumerate(order):
        yy = y + r * rh
        seats = rows.get(g) or []
        for c in range(cols):
            bx = x + lw + c * cw
            box = (bx + 2, yy + 2, bx + cw - 2, yy + rh - 2)
            if c < len(seats):
                q = int(seats[c])
                seat_disc(img, q, m.letters[q], bx + cw / 2, yy + rh / 2, 32)
                if (g, c) in ch.temple:
                    mark_ring(d, box, radius=6, inside=True)
            elif c == len(seats):
                d.rounded_rectangle(box, radius=6, outline=ACCENT, width=3)
    return y + 4 * rh + 2 + 32


def _temple_grid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    w: int,
    cond: bool,
    order: Sequence[str],
    cols: int,
    cost: Sequence[int],
    secs: Sequence[Sequence[int]],
    svp: Sequence[int],
    spen: Sequence[int],
    ovp: Mapping[str, Any],
) -> None:
    """The Temple without its disks: title, flower costs, offering VP, the empty spaces and the
    sections' VP underneath."""
    y = title(
        d, x, y, "Temple", "Buddha ✔ (last 2 columns)" if cond else "Buddha: a disk in the last 2 columns", w
    )
    lw = 62
    cw = (w - lw) // cols
    for c in range(cols):
        cx = x + lw + c * cw + cw / 2
        paste_c(img, icon("flower", 20), cx - 11, y + 12)
        d.text((cx + 12, y + 12), str(cost[c]), font=font(22, True), fill=INK, anchor="mm")
    y += 26
    rh = 38
    for r, g in enumerate(order):
        yy = y + r * rh
        paste_c(img, icon(g, 30), x + 17, yy + rh / 2)
        d.text((x + 52, yy + rh / 2), str(ovp.get(g, "")), font=font(22, True), fill=MUTED, anchor="mm")
        for c in range(cols):
            bx = x + lw + c * cw
            box = (bx + 2, yy + 2, bx + cw - 2, yy + rh - 2)
            d.rounded_rectangle(
                box, radius=6, fill=PANEL if c < 6 else (244, 232, 206), outline=LINE, width=1
            )
    y += 4 * rh + 2
    for k, cols_k in enumerate(secs):
        x0 = x + lw + cols_k[0] * cw + 2
        x1 = x + lw + (cols_k[-1] + 1) * cw - 2
        d.line((x0, y + 2, x1, y + 2), fill=GOLD_DARK, width=3)
        s = f"{svp[k]} / {spen[k]}".replace("-", "−")
        text_at(d, ((x0 + x1) / 2, y + 6), s, 20, INK, True, "ma", x1 - x0)
    d.text((x, y + 6), "VP", font=font(20, True), fill=MUTED)


def draw_king(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, w: int, ch: Changes = NONE
) -> int:
    """The King's Chart: rows of coin, flower and goods spaces with their ids and costs; taken
    spaces show the disk. Drawn once per look (:func:`render.phraya.layers.layer`): the key
    holds the spaces, the letters of the seats on them, the Tithe and the rings."""
    spaces = m.view.get("king") or []
    if not spaces:
        return y
    seats = sorted({int(sp["seat"]) for sp in spaces if sp.get("seat") is not None})
    cond = bool((m.view.get("conditions") or {}).get("tithe"))
    key = ("king", w, repr(spaces), tuple((q, m.letters[q]) for q in seats), cond, tuple(sorted(ch.king)))
    bottom = y + 32 + 68 * len({sp["row"] for sp in spaces})
    layer(img, x, y, x + w + 4, bottom, key, lambda im, dd, lx, ly: _king(im, dd, m, lx, ly, w, ch))
    return bottom


def _king(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, w: int, ch: Changes = NONE
) -> int:
    spaces = m.view.get("king") or []
    cond = (m.view.get("conditions") or {}).get("tithe")
    y = title(d, x, y, "King", "Tithe ✔ (a full row)" if cond else "Tithe: a full row", w)
    rows: dict[str, list[KingSpaceView]] = {}
    for sp in spaces:
        rows.setdefault(sp["row"], []).append(sp)
    cw = min(78, w // max(len(r) for r in rows.values()))
    rh = 68
    for r, (row, items) in enumerate(rows.items()):
        yy = y + r * rh
        for k, sp in enumerate(items):
            bx = x + k * cw
            box = (bx + 2, yy + 2, bx + cw - 2, yy + rh - 2)
            seat = sp.get("seat")
            d.rounded_rectangle(
                box, radius=8, fill=PANEL if seat is None else (236, 230, 216), outline=LINE, width=1
            )
            d.text(
                (bx + 6, yy + 2),
                sp["space"],
                font=font(28, True, True),
                fill=(90, 84, 76) if seat is None else MUTED,
            )
            cx, cy = bx + cw / 2, yy + 48
            if seat is not None:
                seat_disc(img, int(seat), m.letters[int(seat)], cx + 14, cy - 14, 36)
                if sp["space"] in ch.king:
                    mark_ring(d, box, radius=8, inside=True)
                continue
            cost = str(sp.get("cost", ""))
            if row == "g":
                gs = [t for t in cost.replace("+", " ").split() if t in GOOD_COLOR]
                goods_row(img, gs, cx - len(gs) * 14 + 2, cy, 26, 2)
            else:
                num = cost.split()[0] if cost else "?"
                paste_c(img, icon("coin" if row == "c" else "flower", 22), cx - 20, cy)
                d.text((cx + 12, cy + 1), num, font=font(28, True), fill=INK, anchor="mm")
    return y + len(rows) * rh
