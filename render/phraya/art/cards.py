"""The Phraya card tiles: short effect labels, the card tile drawn on the market, in the hand
and in the text view."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from engines.phraya.view.types import CardView
from render.common import ACCENT, BG, INK, LINE, MIN_TEXT, MUTED, NUMBER_TEXT, PANEL, font, text_width, wrap
from render.phraya.art import icon, paste
from render.phraya.art.draw import text_at

EFFECT_SHORT = {
    "boat2": "boat 2 first",
    "g2f": "goods → flowers",
    "f2c": "flower → 3 coins",
    "retrieve": "take back discards",
    "temple-2": "Temple −2 flowers",
    "stall5": "Admin stall 5 coins",
    "2/order": "2 VP/order",
    "2/king": "2 VP/King disk",
    "2/temple": "2 VP/Temple disk",
    "2/stall": "2 VP/stall",
    "1/flower": "1 VP/flower",
    "4/favor": "4 VP/favor",
    "1/5coins": "1 VP/5 coins",
}


def effect_short(e: str) -> str:
    """A short label of one effect code (docs/rules/phraya.md#cards) for the market tiles."""
    head, _, rest = e.partition(" ")
    if head == "mer":
        rng, mods = rest.split()
        lo, hi = rng.split("-")
        return f"Merchant {lo if lo == hi else lo + '–' + hi}: {mods.replace('-', '−')}"
    if head == "barge":
        rng, bless = rest.split()
        lo, hi = rng.split("-")
        gift = {"1fl": "1 flower", "2fl": "2 flowers", "2c": "2 coins"}.get(bless, bless)
        return f"Barge {lo if lo == hi else lo + '–' + hi}, bless {gift}"
    if head == "coins":
        return f"+{rest} coins"
    if head == "flower":
        return "+1 flower"
    if e.startswith("cheap:"):
        return f"{e[6:]} at lowest price"
    if e.startswith("ignore:"):
        return f"order needs 1 {e[7:]} less"
    if e.startswith("as:"):
        return f"as a {e[3:]} stall"
    if e.startswith("3/"):
        return f"3 VP/{e[2:].split('-')[0]} stall"
    return EFFECT_SHORT.get(e, e)


def card_lines(card: CardView) -> list[str]:
    """The effects of a card as short lines: immediate, then 'Turn: …', then 'End: …'."""
    out = [effect_short(e) for e in card["immediate"]]
    out += ["Turn: " + effect_short(e) for e in card["passive"]]
    out += ["End: " + effect_short(e) for e in card["endgame"]]
    return out


def draw_card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    card: CardView | None,
    box: tuple[int, int, int, int],
    hot: bool = False,
    price: bool = True,
    words: bool = False,
    names: bool = True,
) -> None:
    """One card tile: its cost as pictures (coins, flowers) with the id as a small tag, its
    name and its effects (short, or the engine's words), all at 26 px or more."""
    x0, y0, x1, y1 = box
    if not card:
        d.rounded_rectangle(box, radius=10, fill=BG, outline=LINE, width=2)
        d.text(((x0 + x1) / 2, (y0 + y1) / 2), "empty", font=font(MIN_TEXT), fill=MUTED, anchor="mm")
        return
    d.rounded_rectangle(box, radius=10, fill=PANEL, outline=ACCENT if hot else LINE, width=4 if hot else 2)
    w = x1 - x0 - 20
    numf = font(NUMBER_TEXT, True)
    x = x0 + 10
    if price:
        for ic, amount in (("coin", card["coins"]), ("flower", card["flowers"])):
            if amount:
                paste(img, icon(ic, 28), x, y0 + 10)
                d.text((x + 32, y0 + 25), str(amount), font=numf, fill=INK, anchor="lm")
                x += 42 + text_width(str(amount), numf)
    d.text((x1 - 10, y0 + 25), str(card["id"]), font=font(MIN_TEXT, False, True), fill=MUTED, anchor="rm")
    yy = y0 + 46
    if names:
        text_at(d, (x0 + 10, yy), card["name"], 28, INK, True, max_width=w, condensed=True)
        yy += 36
    f = font(MIN_TEXT, False, True)
    lh = 32
    lines = []
    if words and card["text"]:
        for part in word_parts(card):
            lines += wrap_lines(part, w, f)
    else:
        for ln in card_lines(card):
            lines += wrap_lines(ln, w, f)
    room = (y1 - yy - 4) // lh
    for ln in lines[:room]:
        d.text((x0 + 10, yy), ln, font=f, fill=INK)
        yy += lh


def word_parts(card: CardView) -> list[str]:
    """The engine's effect words of a card, one part per effect, passive ones prefixed "This
    turn:" and endgame ones "End:"."""
    parts = str(card["text"]).split("; ")
    ni, np_ = len(card["immediate"]), len(card["passive"])
    if len(parts) != ni + np_ + len(card["endgame"]):
        return parts
    return [
        ("This turn: " if ni <= i < ni + np_ else "End: " if i >= ni + np_ else "") + p
        for i, p in enumerate(parts)
    ]


def wrap_lines(s: str, w: int, f: ImageFont.FreeTypeFont) -> list[str]:
    return wrap(s, w, f)
