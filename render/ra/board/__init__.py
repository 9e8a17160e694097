"""Ra board sections, on one fixed canvas per player count (``layout.board_height``): the house
header (``render.frame.header``), the table (Ra track, centre sun, bag, the eight auction-track
slots), one status band (the running auction, the discards a disaster demands, whose turn, or
the winner), one row per seat (``board.rows``), and the legend (``render.frame.legend``).
Each ``draw_*`` function draws at ``y`` and returns the y below what it drew. Text is at least
``MIN_TEXT`` (26 px); the numbers a player decides by (suns, the high bid, scores, the bag, tile
counts) are at ``NUMBER_TEXT`` (34 px). ``marks`` (see ``render.ra.marks``) are outlined and
tagged."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.ra.view import PendingView, RaView
from render import frame
from render.common import (
    ACCENT,
    GOOD,
    INK,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    fit,
    font,
    mark_box,
    mark_tag,
    mix,
    panel,
    seat_initials,
    seat_ink,
    text_width,
)
from render.ra.art import (
    DANGER,
    chip,
    icon,
    paste,
    ra_slot,
    sun,
    track_tile,
)
from render.ra.layout import BAND_H, PAD, TABLE_H, X0, X1

GOLDEN = frame.HEADER_TITLE
NEUTRAL = (112, 106, 99)  # grey pills (passed, out of suns, lower ranks)
SUN_PILL = (150, 104, 10)  # a bid's pill
BID_RING = (96, 62, 0)  # the ring round the sun a seat bids

STEP_LABEL = {
    "turn": "Turn",
    "god_more": "Gods",
    "auction": "Auction",
    "discard": "Discard",
    "over": "Game over",
}
STEP_VERB = {
    "turn": "to play",
    "god_more": "to play",
    "auction": "to bid",
    "discard": "to discard",
    "over": "",
}
KIND_LABEL = {"ra_tile": "Ra tile drawn", "voluntary": "Ra invoked", "full": "Ra invoked · full track"}


@lru_cache(maxsize=64)
def initials_of(names: tuple[str, ...]) -> list[str]:
    """:func:`render.common.seat_initials`, remembered (every row of every board asks)."""
    return seat_initials(names)


def fmt(text: str | None, names: Sequence[str]) -> str:
    """Engine text with ``{sN}`` replaced by names ('' for None)."""
    return format_text(text or "", list(names))


def awaited_label(view: RaView) -> str:
    """'to play', 'to bid'… for the step the game is in."""
    return STEP_VERB.get(view["step"], "to play")


# --------------------------------------------------------------------------- header


def draw_header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: RaView,
    names: Sequence[str],
    right_label: str | None = None,
    right_seats: Sequence[int] | None = None,
    title: str | None = None,
) -> int:
    """The house header band (:func:`render.frame.header`): the sun, "RA", the epoch (or
    ``title``), the step; on the right the awaited seats (or ``right_label`` with
    ``right_seats``). Returns the y below the band."""
    over = view["over"]
    if title is None:
        title = f"Epoch {int(view['epoch'])} of 3"
        step = None if over else STEP_LABEL.get(view["step"], str(view["step"]))
    else:
        step = None
    seats = list(view["to_move"]) if right_seats is None else list(right_seats)
    label = awaited_label(view) if right_label is None else right_label
    if right_label is None and not seats:
        label = ""  # a sheet, or nobody awaited: "Game over" at the end, else nothing
    return frame.header(
        img,
        d,
        "Ra",
        title,
        icon=icon("sun", 40, GOLDEN),
        pill=step,
        label=label,
        seats=seats,
        names=names,
        over=over and right_label is None and not seats,
    )


# --------------------------------------------------------------------------- table


def draw_table(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: RaView,
    y: int,
    marks: frozenset[str] = frozenset(),
) -> int:
    """The Ra track, the centre sun and the bag on one line, then the 8-slot auction track in
    two rows of four (tile names stay large). Returns the y below."""
    top = y + 8
    panel(d, (X0, top, X1, top + TABLE_H))
    track = list(view["track"])
    x, yc = X0 + PAD, top + 36
    limit = int(view["ra_limit"])
    filled = int(view["ra_track"])
    lf = font(MIN_TEXT, True)
    d.text((x, yc), "Ra track", font=lf, fill=MUTED, anchor="lm")
    sx = x + text_width("Ra track", lf) + 12
    size = 40
    for i in range(limit):
        ra_slot(img, d, sx + i * (size + 5), yc - size / 2, size, i < filled, i == limit - 1)
    if "ra_track" in marks and filled:
        bx = sx + (filled - 1) * (size + 5)
        mark_box(d, (bx - 5, yc - size / 2 - 5, bx + size + 5, yc + size / 2 + 5))
    # the bag, then the centre sun, right-aligned
    xr = X1 - PAD
    bt = str(int(view["bag_total"]))
    nf = font(NUMBER_TEXT, True)
    d.text((xr, yc), bt, font=nf, fill=INK, anchor="rm")
    xr -= text_width(bt, nf) + 6
    paste(img, icon("bag", 40, (150, 118, 80)), xr - 40, yc - 22)
    xr -= 40 + 20
    ssz = 54
    sun(img, d, xr - ssz, yc - ssz / 2, ssz, int(view["center"]), True)
    if "center" in marks:
        mark_box(d, (xr - ssz - 5, yc - ssz / 2 - 5, xr + 5, yc + ssz / 2 + 5), radius=30)
    xr -= ssz + 10
    d.text((xr, yc), "Centre", font=lf, fill=MUTED, anchor="rm")
    # the auction track
    tx0, col_gap = X0 + 12, 6
    tw, th, gap = (X1 - X0 - 2 * 12 - 3 * col_gap) // 4, 54, 8
    yy = top + 70
    for i in range(8):
        tx, ty = tx0 + (i % 4) * (tw + col_gap), yy + (i // 4) * (th + gap)
        track_tile(img, d, tx, ty, tw, th, track[i] if i < len(track) else None, i + 1)
        if f"track:{i}" in marks and i < len(track):
            mark_box(d, (tx - 4, ty - 4, tx + tw + 4, ty + th + 4))
            mark_tag(d, (tx + tw + 2, ty + (th - 34) / 2), "drawn")
    return top + TABLE_H


# --------------------------------------------------------------------------- the status band


def owed_text(p: PendingView) -> str:
    """'2 Nile/flood, 1 civilization and 2 monument tiles' for a pending-discard record."""
    owed = ((p["river"], "Nile/flood"), (p["civ"], "civilization"), (p["monument"], "monument"))
    parts = [f"{k} {w}" for k, w in owed if k]
    if not parts:
        return "tiles"
    total = sum(int(k or 0) for k, _w in owed)
    head = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return head + (" tiles" if total != 1 else " tile")


def owed_short(p: PendingView) -> str:
    """'2 Nile/flood, 1 civ, 2 monuments': the owed discards in few words."""
    owed = (
        (p["river"], "Nile/flood", "Nile/flood"),
        (p["civ"], "civ", "civs"),
        (p["monument"], "monument", "monuments"),
    )
    parts = [f"{k} {one if k == 1 else many}" for k, one, many in owed if k]
    return ", ".join(parts) or "tiles"


def draw_band(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """One band of the same height in every state: the running auction, the discards a disaster
    demands, whose turn and what they may do, or the winners. Returns the y below."""
    top = y + 8
    box = (X0, top, X1, top + BAND_H)
    a, p = view["auction"], view["pending"]
    if a:
        panel(d, box, outline=mix(ACCENT, PANEL, 0.35), width=3)
        _auction_band(img, d, view, names, top)
    elif p:
        panel(d, box, outline=mix(DANGER, PANEL, 0.4), width=3)
        head = "Disaster"
        hf = font(28, True)
        d.text((X0 + PAD, top + BAND_H / 2), head, font=hf, fill=DANGER, anchor="lm")
        x = X0 + PAD + text_width(head, hf) + 14
        seat = int(p["seat"])
        t, nf = fit(names[seat], 220, 28, True)
        d.text((x, top + BAND_H / 2), t, font=nf, fill=seat_ink(seat), anchor="lm")
        x += text_width(t, nf) + 10
        rest, rf = fit("must discard " + owed_short(p), X1 - PAD - x, 28)
        d.text((x, top + BAND_H / 2), rest, font=rf, fill=INK, anchor="lm")
    else:
        panel(d, box)
        _turn_band(d, view, names, top)
    return top + BAND_H


def _auction_band(
    img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], top: int
) -> None:
    a = view["auction"]
    if a is None:
        return
    x, yc = X0 + PAD, top + BAND_H / 2
    rp = int(a["ra_player"])
    f = font(28, True)
    d.text((x, yc), "Auction", font=f, fill=ACCENT, anchor="lm")
    x += text_width("Auction", f) + 14
    right = X1 - PAD
    high = a["high"]
    if high:
        t, hf = fit(names[int(high["seat"])], 200, 28, True)
        d.text((right, yc), t, font=hf, fill=seat_ink(int(high["seat"])), anchor="rm")
        right -= text_width(t, hf) + 8
        sun(img, d, right - 48, yc - 24, 48, int(high["sun"]), True)
        right -= 56
        d.text((right, yc), "high", font=font(MIN_TEXT), fill=MUTED, anchor="rm")
        right -= text_width("high", font(MIN_TEXT)) + 14
    else:
        d.text((right, yc), "no bid yet", font=font(MIN_TEXT), fill=MUTED, anchor="rm")
        right -= text_width("no bid yet", font(MIN_TEXT)) + 14
    if a["forced"]:
        pf = font(MIN_TEXT, True)
        fw = text_width("forced", pf) + 22
        d.rounded_rectangle((right - fw, yc - 18, right, yc + 18), radius=18, fill=DANGER)
        d.text((right - fw / 2, yc), "forced", font=pf, fill=(255, 255, 255), anchor="mm")
        right -= fw + 12
    kind = KIND_LABEL.get(a["kind"], str(a["kind"]))
    t, kf = fit(f"{kind} by ", max(60, (right - x) // 2), 28)
    d.text((x, yc), t, font=kf, fill=INK, anchor="lm")
    x += text_width(t, kf)
    t, nf = fit(names[rp], max(60, right - x - 8), 28, True)
    d.text((x, yc), t, font=nf, fill=seat_ink(rp), anchor="lm")


def band_text(view: RaView, names: Sequence[str]) -> str:
    """The band's sentence outside an auction or a disaster: whose turn and what they may do,
    or who won."""
    out = view["outcome"]
    if view["over"] and out:
        win = list(out.get("winners") or [])
        scores = list(out.get("scores") or [])
        who = " and ".join(names[s] for s in win)
        pts = f"{scores[win[0]]} pts" if win and win[0] < len(scores) else ""
        return f"{who} {'share the win' if len(win) > 1 else 'wins'} with {pts}"
    seats = list(view["to_move"])
    if not seats:
        return ""
    s = seats[0]
    gods = view["players"][s]["tiles"].get("god", 0)
    if view["step"] == "god_more":
        return f"{names[s]} may use another God, or be done"
    if not view["players"][s]["up"]:
        return f"{names[s]} has no sun left to bid"
    return f"{names[s]} to draw or invoke Ra" + (", or use a God" if gods and view["track"] else "")


def _turn_band(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], top: int) -> None:
    s = band_text(view, names)
    if not s:
        return
    over = view["over"]
    t, f = fit(s, X1 - X0 - 2 * PAD, 28, True)
    d.text((X0 + PAD, top + BAND_H / 2), t, font=f, fill=GOOD if over else INK, anchor="lm")


# --------------------------------------------------------------------------- legend


@lru_cache(maxsize=1)
def _legend_pictures() -> tuple[Image.Image, Image.Image, Image.Image]:
    """Small pictures for the legend: a ghost chip, a spent sun, the changed mark."""
    ghost = Image.new("RGB", (34, 32), PANEL)
    chip(ghost, ImageDraw.Draw(ghost), 0, 0, 33, 31, "pyramid", 0)
    spent = Image.new("RGB", (32, 32), frame.HEADER_TEXT)
    spent.paste(PANEL, (0, 0, 32, 32))
    sun(spent, ImageDraw.Draw(spent), 0, 0, 32, 0, False)
    changed = Image.new("RGB", (34, 30), PANEL)
    mark_box(ImageDraw.Draw(changed), (2, 2, 31, 27), radius=8, width=4)
    return ghost, spent, changed


def legend_items(view: RaView) -> list[tuple[Image.Image | None, str]]:
    """The legend: what a ghost chip, a grey sun and the changed mark mean, the tiles out of the
    game, and the options that differ from the defaults (as many as fit one line)."""
    ghost, spent, changed = _legend_pictures()
    opts = view["options"]
    box = sum(int(v) for v in view["box"].values())
    items: list[tuple[Image.Image | None, str]] = [
        (ghost, "not held"),
        (spent, "spent"),
        (changed, "changed"),
        (None, f"out of the game: {box}"),
    ]
    for on, word in (
        (not opts.get("traders", True), "no Traders"),
        (bool(opts.get("hidden_scores")), "hidden scores"),
        (bool(opts.get("god_takes_disaster")), "gods take disasters"),
        (opts.get("score_floor_zero") is False, "no score floor"),
    ):
        if on:
            items.append((None, word))
    f = font(MIN_TEXT)
    room, kept = X1 - X0, []
    for pic, text in items:
        w = (pic.width + 6 if pic is not None else 0) + text_width(text, f) + 22
        if w > room:
            break
        kept.append((pic, text))
        room -= w
    return kept


def draw_legend(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, y: int) -> int:
    """The legend line (:func:`render.frame.legend`). Returns the y below."""
    return frame.legend(img, d, y + 4, legend_items(view))
