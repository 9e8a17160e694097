"""The orders column of the Phraya board: each restaurant's order tile, with its goods, coins and
VP, and what its section's marks say."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import (
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    font,
    mark_box,
)
from render.phraya.art import (
    goods_row,
    icon,
    paste_c,
)
from render.phraya.layout.model import Model
from render.phraya.marks import Changes


def draw_orders(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, w: int, ch: Changes
) -> int:
    """Each restaurant's order (the goods it wants, the coins and VP it pays) and each basket
    stall's price, under the stall's id tag."""
    d.text((x, y), "Orders", font=font(MIN_TEXT, True), fill=MUTED)
    y += 36
    num = font(NUMBER_TEXT, True)
    tagf = font(MIN_TEXT, False, True)
    for sid in m.restaurants:
        o = m.order_on.get(sid)
        box = (x, y, x + w, y + 86)
        d.rounded_rectangle(box, radius=8, fill=PANEL, outline=LINE, width=2)
        paste_c(img, icon("bowl", 30), x + 20, y + 20)
        d.text((x + 40, y + 20), sid, font=tagf, fill=MUTED, anchor="lm")
        if o:
            t = f"{o['vp']}VP"
            d.text((x + w - 8, y + 22), t, font=num, fill=INK, anchor="rm")
            gx = goods_row(img, o["goods"], x + 8, y + 62, 32, 2)
            paste_c(img, icon("coin", 28), gx + 16, y + 62)
            d.text((gx + 34, y + 62), str(o["coins"]), font=num, fill=INK, anchor="lm")
        else:
            d.text((x + 10, y + 62), "no order", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
        if sid in ch.stalls:
            mark_box(d, box, radius=8)
        y += 92
    y += 6
    d.text((x, y), "Baskets", font=font(MIN_TEXT, True), fill=MUTED)
    y += 36
    for sid in m.basket_stalls:
        b = m.basket_on.get(sid)
        paste_c(img, icon("basket", 30), x + 16, y + 20)
        d.text((x + 36, y + 20), sid, font=tagf, fill=MUTED, anchor="lm")
        if b:
            goods = b["goods"]
            if goods:  # open baskets: the two goods, then the price
                goods_row(img, goods, x + 96, y + 20, 26, 0)
            else:
                paste_c(img, icon("coin", 28), x + w - 46, y + 20)
            d.text((x + w - 4, y + 21), str(b["price"]), font=num, fill=INK, anchor="rm")
        else:
            d.text((x + w - 4, y + 21), "–", font=num, fill=MUTED, anchor="rm")
        y += 44
    return y
