"""Ra board sections, on one fixed canvas per player count (:func:`board_height`): the house
header (``render.frame.header``), the table (Ra track, centre sun, bag, the eight auction-track
slots), one status band (the running auction, the discards a disaster demands, whose turn, or
the winner), one row per seat, and the legend. Each ``draw_*`` function draws at ``y`` and
returns the y below what it drew. Text is at least ``MIN_TEXT`` (26 px) and the numbers a player
decides by (suns, bids, scores, tile counts) at ``NUMBER_TEXT`` (34 px) or close to it for the
tile counts in their chips. ``marks`` (see ``render.ra.marks``) are outlined and tagged."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.ra.view import PendingView, PlayerView, RaView
from render import frame
from render.common import (
    ACCENT,
    GOOD,
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    RGB,
    WIDTH,
    canvas,
    crop_to,
    fit,
    font,
    mark_box,
    mark_tag,
    mix,
    on_color,
    ordinal,
    panel,
    seat_color,
    seat_initials,
    seat_ink,
    text_width,
    wrap,
)
from render.ra.art import (
    CATEGORY_COLOR,
    CIVS,
    DANGER,
    MONUMENTS,
    chip,
    icon,
    paste,
    ra_slot,
    sun,
    track_tile,
)

M = frame.MARGIN  # outer margin
X0, X1 = M, WIDTH - M  # panel edges
PAD = 20  # inner padding of panels
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
LINE1 = (("god", "gold", "pharaoh"), ("nile", "flood"), CIVS)
LINE2 = (MONUMENTS, ("trader", "crate"))

# --------------------------------------------------------------------------- the fixed layout
TABLE_TOP = frame.HEADER_H + 8
TABLE_H = 196
BAND_TOP = TABLE_TOP + TABLE_H + 8
BAND_H = 56
ROWS_TOP = BAND_TOP + BAND_H + 8
ROW_GAP = 6
ROW_H = {2: 128, 3: 128, 4: 120, 5: 110}
"""A seat row's height by player count (the 5-player board is the densest)."""
LEGEND_H = 50
CHIP_W = 52
SMALL_GAP, BIG_GAP = 4, 12
CHIPS_W = 10 * CHIP_W + 7 * SMALL_GAP + 2 * BIG_GAP  # the wider of the two chip lines
CHIP_X = X1 - 10 - CHIPS_W
LEFT_X = X0 + 22  # the seat row's left block, right of its colour bar
LEFT_W = CHIP_X - 10 - LEFT_X


@lru_cache(maxsize=64)
def initials_of(names: tuple[str, ...]) -> list[str]:
    """:func:`render.common.seat_initials`, remembered (every row of every board asks)."""
    return seat_initials(names)


def row_height(n: int) -> int:
    """A seat row's height at ``n`` players."""
    return ROW_H.get(n, ROW_H[5])


def board_height(n: int) -> int:
    """The board's fixed height at ``n`` players (the caption strip comes on top of it)."""
    return ROWS_TOP + n * (row_height(n) + ROW_GAP) + LEGEND_H


def fmt(text: str | None, names: Sequence[str]) -> str:
    """Engine text with ``{sN}`` replaced by names ('' for None)."""
    return format_text(text or "", list(names))


def awaited_label(view: RaView) -> str:
    """'to play', 'to bid'… for the step the game is in."""
    return STEP_VERB.get(view.get("step", ""), "to play")


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
    over = bool(view.get("over"))
    if title is None:
        title = f"Epoch {int(view.get('epoch', 1))} of 3"
        step = None if over else STEP_LABEL.get(view.get("step", ""), str(view.get("step", "")))
    else:
        step = None
    seats = list(view.get("to_move") or []) if right_seats is None else list(right_seats)
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
    track = list(view.get("track") or [])
    x, yc = X0 + PAD, top + 36
    limit = int(view.get("ra_limit") or 0)
    filled = int(view.get("ra_track") or 0)
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
    bt = str(int(view.get("bag_total") or 0))
    nf = font(NUMBER_TEXT, True)
    d.text((xr, yc), bt, font=nf, fill=INK, anchor="rm")
    xr -= text_width(bt, nf) + 6
    paste(img, icon("bag", 40, (150, 118, 80)), xr - 40, yc - 22)
    xr -= 40 + 20
    ssz = 54
    sun(img, d, xr - ssz, yc - ssz / 2, ssz, int(view.get("center") or 0), True)
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
    owed = ((p.get("river"), "Nile/flood"), (p.get("civ"), "civilization"), (p.get("monument"), "monument"))
    parts = [f"{k} {w}" for k, w in owed if k]
    if not parts:
        return "tiles"
    total = sum(int(k or 0) for k, _w in owed)
    head = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return head + (" tiles" if total != 1 else " tile")


def owed_short(p: PendingView) -> str:
    """'2 Nile/flood, 1 civ, 2 monuments': the owed discards in few words."""
    owed = (
        (p.get("river"), "Nile/flood", "Nile/flood"),
        (p.get("civ"), "civ", "civs"),
        (p.get("monument"), "monument", "monuments"),
    )
    parts = [f"{k} {one if k == 1 else many}" for k, one, many in owed if k]
    return ", ".join(parts) or "tiles"


def draw_band(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """One band of the same height in every state: the running auction, the discards a disaster
    demands, whose turn and what they may do, or the winners. Returns the y below."""
    top = y + 8
    box = (X0, top, X1, top + BAND_H)
    a, p = view.get("auction"), view.get("pending")
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
    a = view.get("auction")
    if a is None:
        return
    x, yc = X0 + PAD, top + BAND_H / 2
    rp = int(a.get("ra_player", view.get("current", 0)))
    f = font(28, True)
    d.text((x, yc), "Auction", font=f, fill=ACCENT, anchor="lm")
    x += text_width("Auction", f) + 14
    right = X1 - PAD
    high = a.get("high")
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
    if a.get("forced"):
        pf = font(MIN_TEXT, True)
        fw = text_width("forced", pf) + 22
        d.rounded_rectangle((right - fw, yc - 18, right, yc + 18), radius=18, fill=DANGER)
        d.text((right - fw / 2, yc), "forced", font=pf, fill=(255, 255, 255), anchor="mm")
        right -= fw + 12
    kind = KIND_LABEL.get(a.get("kind", ""), str(a.get("kind", "")))
    t, kf = fit(f"{kind} by ", max(60, (right - x) // 2), 28)
    d.text((x, yc), t, font=kf, fill=INK, anchor="lm")
    x += text_width(t, kf)
    t, nf = fit(names[rp], max(60, right - x - 8), 28, True)
    d.text((x, yc), t, font=nf, fill=seat_ink(rp), anchor="lm")


def band_text(view: RaView, names: Sequence[str]) -> str:
    """The band's sentence outside an auction or a disaster: whose turn and what they may do,
    or who won."""
    out = view.get("outcome")
    if view.get("over") and out:
        win = list(out.get("winners") or [])
        scores = list(out.get("scores") or [])
        who = " and ".join(names[s] for s in win)
        pts = f"{scores[win[0]]} pts" if win and win[0] < len(scores) else ""
        return f"{who} {'share the win' if len(win) > 1 else 'wins'} with {pts}"
    seats = list(view.get("to_move") or [])
    if not seats:
        return ""
    s = seats[0]
    gods = int((view["players"][s].get("tiles") or {}).get("god", 0))
    if view.get("step") == "god_more":
        return f"{names[s]} may use another God, or be done"
    if not view["players"][s].get("up"):
        return f"{names[s]} has no sun left to bid"
    return f"{names[s]} to draw or invoke Ra" + (", or use a God" if gods and view.get("track") else "")


def _turn_band(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], top: int) -> None:
    s = band_text(view, names)
    if not s:
        return
    over = bool(view.get("over"))
    t, f = fit(s, X1 - X0 - 2 * PAD, 28, True)
    d.text((X0 + PAD, top + BAND_H / 2), t, font=f, fill=GOOD if over else INK, anchor="lm")


# --------------------------------------------------------------------------- seat rows

Pill = tuple[str, RGB, RGB]


def seat_status(view: RaView, s: int) -> list[Pill]:
    """Status pills for seat ``s``: (text, fill, text colour). In an auction: the Ra player, the
    seat bidding now, each bid or pass, and each later bidder's place in the order; the rank once
    the game is over."""
    out: list[Pill] = []
    white = (255, 255, 255)
    a = view.get("auction")
    p = view["players"][s]
    if a:
        acted = {int(b["seat"]): b.get("sun") for b in a.get("bids") or []}
        if s in acted:
            v = acted[s]
            out.append(("passed", NEUTRAL, white) if v is None else (f"bid {v}", SUN_PILL, white))
    if s in (view.get("to_move") or []):
        out.append(("▶ " + awaited_label(view), seat_color(s), on_color(seat_color(s))))
    if a:
        if int(a.get("ra_player", -1)) == s:
            out.append(("Ra player", CATEGORY_COLOR["ra"], white))
        order = list(a.get("to_bid") or [])
        acted_seats = {int(b["seat"]) for b in a.get("bids") or []}
        if s not in acted_seats and s not in (view.get("to_move") or []) and s in order:
            k = order.index(s)
            out.append(("bids next" if k == 1 else f"bids {ordinal(k + 1)}", NEUTRAL, white))
    elif s == view.get("current") and not view.get("over") and s not in (view.get("to_move") or []):
        out.append(("current", NEUTRAL, white))
    if not p.get("up") and not view.get("over"):
        out.append(("out of suns", NEUTRAL, white))
    out_ = view.get("outcome")
    if view.get("over") and out_:
        rank = out_["ranks"][s]
        win = s in out_.get("winners", [])
        out.append((("winner" if win else ordinal(rank)), GOOD if win else NEUTRAL, white))
    return out


def chip_layout(
    x: float, w: int, traders: bool, small_gap: int, big_gap: int
) -> list[list[tuple[float, str]]]:
    """The x of every chip slot, line by line, grouped as scoring groups them."""
    lines = (LINE1, LINE2 if traders else (MONUMENTS,))
    out = []
    for groups in lines:
        cx, row = x, []
        for g in groups:
            for code in g:
                row.append((cx, code))
                cx += w + small_gap
            cx += big_gap - small_gap
        out.append(row)
    return out


def counts_of(p: PlayerView) -> dict[str, int]:
    """A seat's held tiles by code, with its traders and crates."""
    counts = {k: int(v) for k, v in (p.get("tiles") or {}).items()}
    counts["trader"] = int(p.get("traders", counts.get("trader", 0)) or 0)
    counts["crate"] = int(p.get("crates", 0) or 0)
    return counts


def draw_chips(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    counts: Mapping[str, int],
    x: float,
    y: float,
    w: int,
    h: int,
    traders: bool,
    small_gap: int = SMALL_GAP,
    big_gap: int = BIG_GAP,
    changed: frozenset[str] = frozenset(),
    line_gap: int = 6,
) -> float:
    """The held tiles (``counts``, see :func:`counts_of`) in two lines of fixed slots, grouped
    as scoring groups them (gods, gold, pharaohs · Nile, flood · civilizations / monuments ·
    traders, crates); a held kind is a solid chip with its picture (and its count from two), a
    missing one a ghost. Codes in ``changed`` are outlined. Returns the y below."""
    ghosts = _ghosts(traders, w, h, small_gap, big_gap, line_gap, img.getpixel((int(x), int(y))))
    img.paste(ghosts, (int(x), int(y)))  # every slot empty, then the held chips over theirs
    for row in chip_layout(int(x), w, traders, small_gap, big_gap):
        for cx, code in row:
            k = int(counts.get(code, 0))
            if k:
                chip(img, d, cx, y, w, h, code, k)
            if code in changed:
                mark_box(d, (cx - 3, y - 3, cx + w + 3, y + h + 3), width=4)
        y += h + line_gap
    return y - line_gap


@lru_cache(maxsize=16)
def _ghosts(
    traders: bool, w: int, h: int, small_gap: int, big_gap: int, line_gap: int, bg: object
) -> Image.Image:
    """The chip lines with every slot empty (a ghost), on ``bg``: one paste instead of twenty.
    A held chip's piece covers its whole box, so drawing it over its ghost gives the pixels of
    drawing it alone."""
    layout = chip_layout(0, w, traders, small_gap, big_gap)
    width = max(int(row[-1][0]) + w for row in layout) + 1
    height = len(layout) * (h + line_gap) - line_gap + 1
    colour = bg if isinstance(bg, tuple) else PANEL
    img = Image.new("RGB", (width, height), colour)
    d = ImageDraw.Draw(img)
    for li, row in enumerate(layout):
        for cx, code in row:
            chip(img, d, cx, li * (h + line_gap), w, h, code, 0)
    return img


# pill words shortened when the full ones do not fit beside a seat's suns
SHORT_PILL = {"▶ to discard": "▶ discard", "▶ to play": "▶ play", "▶ to bid": "▶ bid", "bids next": "next"}


def _pills(
    d: ImageDraw.ImageDraw, pills: list[Pill], x: float, yc: float, right: float, bid_mark: bool
) -> None:
    """The status pills from ``x`` on, as many as fit before ``right`` (full words, else short
    ones); the bid or pass is outlined when ``bid_mark``."""
    pf = font(MIN_TEXT, True, True)
    for text, fill, fg in pills:
        for t in (text, SHORT_PILL.get(text, text)):
            w = text_width(t, pf) + 18
            if x + w <= right:
                break
        else:
            continue
        d.rounded_rectangle((x, yc - 18, x + w, yc + 18), radius=18, fill=fill)
        d.text((x + w / 2, yc), t, font=pf, fill=fg, anchor="mm")
        if bid_mark and (t.startswith("bid ") or t == "passed"):
            mark_box(d, (x - 4, yc - 22, x + w + 4, yc + 22), radius=22, width=4)
        x += w + 6


@dataclass(frozen=True)
class RowSpec:
    """Everything one seat row shows: the row is drawn from this alone, so equal specs draw
    equal rows (and a drawn row is reused, see :func:`draw_seat_row`)."""

    n: int
    seat: int
    name: str
    initial: str
    score: int | None
    ups: tuple[int, ...]
    downs: tuple[int, ...]
    held: tuple[tuple[str, int], ...]
    traders: bool
    awaited: bool
    tags: tuple[str, ...]  # "Ra" for the Ra player, then the change tag ("just won"…)
    pills: tuple[Pill, ...]
    marks: frozenset[str]  # this seat's change marks
    bid: int | None = None  # the sun this seat bids in the running auction


def row_spec(view: RaView, names: Sequence[str], s: int, marks: frozenset[str]) -> RowSpec:
    """The :class:`RowSpec` of seat ``s`` in ``view``."""
    p = view["players"][s]
    a = view.get("auction")
    downs = tuple(int(v) for v in p.get("down") or [])
    tags: tuple[str, ...] = ("Ra",) if a is not None and int(a.get("ra_player", -1)) == s else ()
    tags += tuple(k.split(":", 2)[2] for k in sorted(marks) if k.startswith(f"tag:{s}:"))
    pills = tuple(
        pl for pl in seat_status(view, s) if pl[0] != "Ra player" and not (pl[0] == "out of suns" and downs)
    )
    own = frozenset(
        k for k in marks if k in (f"score:{s}", f"bid:{s}") or k.startswith((f"sun:{s}:", f"tiles:{s}:"))
    )
    score = p.get("score")
    bids = {int(b["seat"]): b.get("sun") for b in (a.get("bids") or [])} if a else {}
    bid = bids.get(s)
    return RowSpec(
        n=int(view["n_players"]),
        seat=s,
        name=names[s],
        initial=initials_of(tuple(names))[s],
        score=None if score is None else int(score),
        ups=tuple(int(v) for v in p.get("up") or []),
        downs=downs,
        held=tuple(sorted(counts_of(p).items())),
        traders=bool((view.get("options") or {}).get("traders", True)),
        awaited=s in (view.get("to_move") or []),
        tags=tags,
        pills=pills,
        marks=own,
        bid=None if bid is None else int(bid),
    )


ROW_CACHE = 40
"""How many drawn seat rows :func:`draw_seat_row` keeps (about 0.3 MB each; a least recently
used one goes first)."""
_rows: OrderedDict[tuple[RowSpec, str, object], Image.Image] = OrderedDict()
_rows_lock = threading.Lock()


def draw_seat_row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: RaView,
    names: Sequence[str],
    s: int,
    y: int,
    marks: frozenset[str] = frozenset(),
) -> int:
    """One seat's row: badge, name (with a "Ra" badge for the Ra player and the seat's change
    tag from ``marks``: "just won", "discarded", "used a God") and score on the first line, the
    suns (grey when spent) and status pills on the second, the held tiles on the right. The
    awaited seat is outlined in its colour; what changed since the previous board (``marks``)
    is outlined. A row is a pure function of its :class:`RowSpec`, so one drawn before is
    pasted again (rows change one or two at a time). Returns the y below."""
    spec = row_spec(view, names, s, marks)
    top, rh = y + ROW_GAP, row_height(spec.n)
    w, h = X1 - X0 + 1, rh + 1
    bg = img.getpixel((X0, top))
    plain = all(img.getpixel(c) == bg for c in ((X1, top), (X0, top + rh), (X1, top + rh)))
    if not plain:
        _draw_row(img, d, spec, X0, top)
        return top + rh
    key = (spec, img.mode, bg)
    with _rows_lock:
        piece = _rows.get(key)
        if piece is not None:
            _rows.move_to_end(key)
    if piece is None:
        piece = Image.new(img.mode, (w, h), bg)
        _draw_row(piece, ImageDraw.Draw(piece), spec, 0, 0)
        with _rows_lock:
            _rows[key] = piece
            while len(_rows) > ROW_CACHE:
                _rows.popitem(last=False)
    img.paste(piece, (X0, top))
    return top + rh


def clear_rows() -> None:
    """Forget the drawn rows (tests draw from a cold cache)."""
    with _rows_lock:
        _rows.clear()


def _draw_row(img: Image.Image, d: ImageDraw.ImageDraw, spec: RowSpec, ox: int, oy: int) -> None:
    """Draw the row of ``spec`` with its top-left corner at (ox, oy)."""
    s, marks, rh = spec.seat, spec.marks, row_height(spec.n)
    col = seat_color(s)
    x1 = ox + X1 - X0
    panel(d, (ox, oy, x1, oy + rh), outline=col if spec.awaited else LINE, width=4 if spec.awaited else 2)
    d.rounded_rectangle((ox + 2, oy + 2, ox + 14, oy + rh - 2), radius=5, fill=col)
    x = ox + LEFT_X - X0
    right = x + LEFT_W
    yc = oy + 26
    frame.seat_badge(d, (x + 17, yc), s, spec.initial, 17)
    st = f"{'?' if spec.score is None else spec.score} pts"
    sf = font(NUMBER_TEXT, True)
    sw = text_width(st, sf)
    d.text((right, yc), st, font=sf, fill=INK, anchor="rm")
    if f"score:{s}" in marks:
        mark_box(d, (right - sw - 8, yc - 23, right + 6, yc + 23), width=4)
    tf = font(MIN_TEXT, True)
    tags_w = sum(text_width(t, tf) + 16 + 6 for t in spec.tags)
    t, nf = fit(spec.name, int(right - sw - 12 - tags_w - (x + 42)), 28, True)
    d.text((x + 42, yc), t, font=nf, fill=seat_ink(s), anchor="lm")
    tx = x + 42 + text_width(t, nf) + 8
    for tag in spec.tags:
        w = text_width(tag, tf) + 16
        if tag != "Ra":
            mark_tag(d, (tx + w, yc - 17), tag)
        else:
            d.rounded_rectangle((tx, yc - 17, tx + w, yc + 17), radius=8, fill=CATEGORY_COLOR["ra"])
            d.text((tx + w / 2, yc), tag, font=tf, fill=(255, 255, 255), anchor="mm")
        tx += w + 6
    # suns (face up bright, face down grey), then the status pills
    dsz = 54 if rh < 120 else 56
    sy = oy + rh - dsz - 8
    sx = x
    for v, up in [(v, True) for v in spec.ups] + [(v, False) for v in spec.downs]:
        sun(img, d, sx, sy, dsz, v, up)
        if up and v == spec.bid:  # the sun this seat bids: ringed in the bid's colour
            d.ellipse((sx - 3, sy - 3, sx + dsz + 3, sy + dsz + 3), outline=BID_RING, width=5)
        if f"sun:{s}:{v}" in marks:
            mark_box(d, (sx - 3, sy - 3, sx + dsz + 3, sy + dsz + 3), radius=30, width=4)
        sx += dsz + 4
    _pills(d, list(spec.pills), sx + 6, sy + dsz / 2, right + 6, f"bid:{s}" in marks)
    # tiles
    ch = (rh - 14 - 6) // 2
    changed = frozenset(k.split(":", 2)[2] for k in marks if k.startswith(f"tiles:{s}:"))
    draw_chips(img, d, dict(spec.held), ox + CHIP_X - X0, oy + 7, CHIP_W, ch, spec.traders, changed=changed)


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
    opts = view.get("options") or {}
    box = sum(int(v) for v in (view.get("box") or {}).values())
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


def draw_headline(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """The engine's one-line summary (names filled in), wrapped to at most two lines."""
    s = fmt(view.get("headline"), names)
    if not s:
        return y
    f = font(MIN_TEXT)
    lines = wrap(s, X1 - X0 - 8, f)[:2]
    y += 10
    for line in lines:
        d.text((X0 + 4, y), line, font=f, fill=INK)
        y += 34
    return y


def group_caption(word: str, counts: Mapping[str, int]) -> str:
    """A group's caption with its count of types: 'Civilizations · 3 types' and the like."""
    for codes, name in ((CIVS, "Civilizations"), (MONUMENTS, "Monuments")):
        if word == name:
            k = sum(1 for c in codes if counts.get(c))
            return f"{name} · {k} type{'s' if k != 1 else ''}"
    return word


def new_canvas(height: int = 2400) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A canvas to draw on (crop a tall one with :func:`crop` once the height is known)."""
    return canvas(height)


def crop(img: Image.Image, y: int) -> Image.Image:
    """``img`` cut to height ``y`` plus the bottom margin."""
    return crop_to(img, y, M)
