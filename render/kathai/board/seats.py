"""The Kathai seat cards (one per seat, in seat order, in one row of fixed height) and the
board's legend row.

A seat card holds the house badge and the name, the score, the hand size and profit cards
(each an icon with its count at 34 px) and a status line: to play, to answer, declined,
skipped, offering, the final turns left as pips, the place at the end. What changed since the
previous board is outlined in the house "changed" colour, the score with its change beside it."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import frame
from render.common import (
    GOOD,
    INK,
    LINE,
    MARK,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    fit,
    font,
    mark_box,
    mix,
    ordinal,
    seat_color,
    seat_ink,
    text_width,
)
from render.kathai.art import DANGER, hand_icon, pips, profit_icon
from render.kathai.board.table import awaited_verb
from render.kathai.layout import GAP, SEATS_H, X0, X1, Ctx, badge, stamped


def seat_note(c: Ctx, s: int, labels: dict[str, str]) -> tuple[str, Any, bool]:
    """The seat card's status: (text, colour, bold)."""
    v = c.view
    out = v["outcome"] if v["over"] else None
    if out:
        rank = int(out["ranks"][s])
        return (
            ordinal(rank) + (" · winner" if s in (out["winners"] or []) else ""),
            GOOD if rank == 1 else INK,
            True,
        )
    if f"answer:{s}" in labels:
        return labels[f"answer:{s}"], MARK, True
    of = v["offer"]
    if of is not None and s in of["awaiting"]:
        return "▶ to answer", seat_ink(s), True
    if of is not None and s in of["declined"]:
        return "declined", MUTED, False
    if of is not None and s in of["skipped"]:
        return "skipped", MUTED, False
    if s in (v["to_move"] or []):
        return "▶ " + awaited_verb(v).replace(" or pass", ""), seat_ink(s), True
    if int(v["active"]) == s:
        return "offering", MUTED, False
    return "", MUTED, False


def draw_seats(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, y: int, labels: dict[str, str]) -> int:
    """One card per seat, in seat order: badge and name, score, hand size, profit cards and a
    status (to play, to answer, declined, final turns left, the rank at the end)."""
    top = y + GAP
    n = c.n
    gap = 8
    w = (X1 - X0 - gap * (n - 1)) // n
    for s in range(n):
        _seat_card(img, d, c, s, X0 + s * (w + gap), top, w, labels)
    return top + SEATS_H


def _seat_card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    c: Ctx,
    s: int,
    x0: float,
    top: int,
    w: float,
    labels: dict[str, str],
) -> None:
    v = c.view
    p = v["players"][s]
    out = v["outcome"] if v["over"] else None
    winner = bool(out and s in (out["winners"] or []))
    awaited = s in (v["to_move"] or [])
    edge = GOOD if winner else seat_color(s) if awaited else LINE
    fill = mix(GOOD, PANEL, 0.88) if winner else PANEL
    d.rounded_rectangle(
        (x0, top, x0 + w, top + SEATS_H),
        radius=10,
        fill=fill,
        outline=edge,
        width=5 if awaited or winner else 2,
    )
    x1 = x0 + w
    mid = top + 12 + 17
    x = badge(d, c, s, x0 + 10, mid)
    t, f = fit(c.names[s], int(x1 - 10 - x), 28, True, min_size=MIN_TEXT)
    d.text((x, mid), t, font=f, fill=seat_ink(s), anchor="lm")
    # score
    sy = top + 84
    score = p["score"]
    sf = font(48, True)
    st = "?" if score is None else str(score)
    d.text((x0 + 12, sy), st, font=sf, fill=INK, anchor="lm")
    px = x0 + 12 + text_width(st, sf) + 6
    d.text((px, sy + 6), "pts", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    if f"score:{s}" in labels:
        mark_box(d, (x0 + 5, sy - 30, x1 - 5, sy + 30), radius=8, width=4)
        d.text((x1 - 14, sy), labels[f"score:{s}"], font=font(NUMBER_TEXT, True), fill=MARK, anchor="rm")
    # hand and profit
    hy = top + 132
    nf = font(NUMBER_TEXT, True)
    stamped(img, x0 + 12, hy - 17, 41, 35, ("hand",), lambda im, dd, px, py: hand_icon(dd, px, py, 34))
    hx = round(x0 + 12) + 46
    k = str(int(p["hand_size"] or 0))
    d.text((hx, hy), k, font=nf, fill=INK, anchor="lm")
    hx2 = hx + text_width(k, nf)
    if f"hand:{s}" in labels:
        mark_box(d, (x0 + 5, hy - 24, hx2 + 6, hy + 24), radius=8, width=4)
    px = max(hx2 + 18, x0 + w / 2)
    stamped(img, px, hy - 17, 36, 36, ("profit",), lambda im, dd, px, py: profit_icon(dd, px, py, 34))
    px = round(px)
    px2 = px + 40
    pr = str(int(p["profit"] or 0))
    d.text((px2, hy), pr, font=nf, fill=INK, anchor="lm")
    if f"profit:{s}" in labels:
        mark_box(d, (px - 6, hy - 24, px2 + text_width(pr, nf) + 6, hy + 24), radius=8, width=4)
    _seat_status(d, c, s, x0, top, w, labels)


def _seat_status(
    d: ImageDraw.ImageDraw, c: Ctx, s: int, x0: float, top: int, w: float, labels: dict[str, str]
) -> None:
    """The seat card's bottom line: its status and, in the final turns, the turns left."""
    v = c.view
    p = v["players"][s]
    x1 = x0 + w
    ny = top + SEATS_H - 26
    note, col, bold = seat_note(c, s, labels)
    fl = p["final_left"]
    right = x1 - 10
    if fl is not None and not v["over"]:  # the final turns left, as pips on the right
        fl = int(fl)
        right = x1 - 12 - 2 * 29
        pips(d, right + 4, ny - 12, fl, 2, 24, DANGER)
        if not note:
            words = ("final turns", "final") if fl else ("no turns left", "done")
            room = right - x0 - 16
            note = next((t for t in words if text_width(t, font(MIN_TEXT, True)) <= room), words[-1])
            col, bold = DANGER if fl else MUTED, True
    if note and note.startswith("▶ to ") and text_width(note, font(MIN_TEXT, bold)) > right - x0 - 16:
        note = "▶ " + note[5:]  # "▶ answer" where "▶ to answer" does not fit
    if note:
        t, f = fit(note, int(right - x0 - 16), MIN_TEXT if len(note) > 8 else 28, bold)
        d.text((x0 + 12, ny), t, font=f, fill=col, anchor="lm")


# --------------------------------------------------------------------------- legend


def draw_legend(img: Image.Image, d: ImageDraw.ImageDraw, y: int) -> int:
    """The one legend row: the changed mark, the seat cards' icons and the final-turn pips."""
    return frame.legend(img, d, y + 6, _legend_items())


_LEGEND: list[tuple[Image.Image | None, str]] = []


def _legend_items() -> list[tuple[Image.Image | None, str]]:
    if not _LEGEND:
        bg = (246, 241, 230)
        mark = Image.new("RGB", (34, 34), bg)
        md = ImageDraw.Draw(mark)
        mark_box(md, (2, 2, 31, 31), radius=8, width=4)
        hand = Image.new("RGB", (44, 34), bg)
        hand_icon(ImageDraw.Draw(hand), 1, 0, 34)
        prof = Image.new("RGB", (36, 34), bg)
        profit_icon(ImageDraw.Draw(prof), 1, 0, 34)
        pip = Image.new("RGB", (24, 24), bg)
        pips(ImageDraw.Draw(pip), 0, 0, 1, 1, 23, DANGER)
        _LEGEND.extend(
            [
                (mark, "just changed"),
                (hand, "cards in hand"),
                (prof, "profit cards"),
                (pip, "final turns left"),
            ]
        )
    return _LEGEND
