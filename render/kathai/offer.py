"""The open offer in a hand: who offers what to whom, every addressee's answer so far, and the
offered cards as pictures (only for the parties of the offer, who alone see them)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.kathai.view import OfferView
from render.common import ACCENT, INK, MIN_TEXT, MUTED, PANEL, fit, mix, panel, seat_ink
from render.kathai.art import card_face, card_goods
from render.kathai.board import (
    GAP,
    PAD,
    SALE_H,
    SALE_W,
    X0,
    X1,
    Ctx,
    Run,
    badge,
    draw_runs,
    offer_runs,
    runs_width,
)


def answers_runs(c: Ctx, of: OfferView, viewer: int) -> list[Run]:
    """'Bob declined · Cy to answer · Dee skipped' (the viewer as "you")."""
    awaiting = set(of["awaiting"] or [])
    declined = set(of["declined"] or [])
    runs: list[Run] = []
    entries = [
        (s, "to answer" if s in awaiting else "declined" if s in declined else "answered")
        for s in of["addressees"] or []
    ]
    entries += [(s, "skipped") for s in of["skipped"] or []]
    for i, (s, word) in enumerate(entries):
        if i:
            runs.append((" · ", MIN_TEXT, False, MUTED))
        who = "you" if s == viewer else c.names[s]
        runs.append((who, MIN_TEXT, True, seat_ink(s)))
        runs.append((f" {word}", MIN_TEXT, False, INK if word == "to answer" else MUTED))
    return runs


def grouped_answers(c: Ctx, of: OfferView, viewer: int) -> str:
    """'to answer: you, Ann · declined: Bartholomew… · skipped: Zoë' (names cut to 12)."""
    awaiting = set(of["awaiting"] or [])
    declined = set(of["declined"] or [])
    groups: dict[str, list[int]] = {}
    for s in of["addressees"] or []:
        word = "to answer" if s in awaiting else "declined" if s in declined else "answered"
        groups.setdefault(word, []).append(int(s))
    if of["skipped"]:
        groups["skipped"] = [int(s) for s in of["skipped"]]

    def short(s: int) -> str:
        name = "you" if s == viewer else c.names[s]
        return name if len(name) <= 12 else name[:11] + "…"

    return " · ".join(f"{word}: {', '.join(short(s) for s in seats)}" for word, seats in groups.items())


def draw_hand_offer(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, y: int, viewer: int) -> int:
    """The offer panel of a hand: the offer line, the answers, and the offered cards for an
    addressee (the offerer sees them marked in its own hand)."""
    of = c.view["offer"]
    if not of:
        return y
    top = y + GAP
    give = of["give"] if int(of["by"]) != viewer else None
    h = PAD + 44 + 36 + (SALE_H + 12 if give else 0) + PAD
    panel(d, (X0, top, X1, top + h), outline=mix(ACCENT, PANEL, 0.2), width=4)
    mid = top + PAD + 22
    x = badge(d, c, int(of["by"]), X0 + PAD, mid)
    draw_runs(img, d, x, mid, offer_runs(c, of, int(X1 - PAD - x), viewer))
    runs = answers_runs(c, of, viewer)
    mid2 = mid + 42
    if runs:
        if runs_width(runs) > X1 - X0 - 2 * PAD:  # too long: the seats grouped by answer
            t, f = fit(grouped_answers(c, of, viewer), X1 - X0 - 2 * PAD, MIN_TEXT)
            d.text((X0 + PAD, mid2), t, font=f, fill=INK, anchor="lm")
        else:
            draw_runs(img, d, X0 + PAD, mid2, runs)
    if give:
        cy = mid2 + 22
        for i, card in enumerate(give):
            card_face(
                img,
                X0 + PAD + i * (SALE_W + 8),
                cy,
                SALE_W,
                SALE_H,
                card["items"] or card_goods(card["id"]),
            )
        gx = X0 + PAD + len(give) * (SALE_W + 8) + 8
        if X1 - PAD - gx >= 120:
            t, f = fit(f"what {c.names[int(of['by'])]} gives", X1 - PAD - gx, MIN_TEXT)
            d.text((gx, cy + SALE_H / 2), t, font=f, fill=MUTED, anchor="lm")
    return top + h
