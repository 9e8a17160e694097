"""Ra seat rows: one per seat on the board (and the viewer's own in the hand): badge, name,
score, suns and status pills on the left, the held tiles in fixed slots on the right. A row is
drawn from its :class:`RowSpec` alone and reused while it shows the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.ra.view import PlayerView, RaView
from render import frame
from render.common import (
    GOOD,
    INK,
    LINE,
    MIN_TEXT,
    NUMBER_TEXT,
    PANEL,
    RGB,
    Pieces,
    fit,
    font,
    mark_box,
    mark_tag,
    on_color,
    ordinal,
    panel,
    seat_color,
    seat_ink,
    stamp,
    text_width,
)
from render.ra.art import CATEGORY_COLOR, CIVS, MONUMENTS, chip, sun
from render.ra.board import BID_RING, NEUTRAL, SUN_PILL, awaited_label, initials_of
from render.ra.layout import BIG_GAP, CHIP_W, CHIP_X, LEFT_W, LEFT_X, ROW_GAP, SMALL_GAP, X0, X1, row_height

LINE1 = (("god", "gold", "pharaoh"), ("nile", "flood"), CIVS)
LINE2 = (MONUMENTS, ("trader", "crate"))


Pill = tuple[str, RGB, RGB]


def seat_status(view: RaView, s: int) -> list[Pill]:
    """Status pills for seat ``s``: (text, fill, text colour). In an auction: the Ra player, the
    seat bidding now, each bid or pass, and each later bidder's place in the order; the rank once
    the game is over."""
    out: list[Pill] = []
    white = (255, 255, 255)
    a = view["auction"]
    p = view["players"][s]
    if a:
        acted = {int(b["seat"]): b["sun"] for b in a["bids"]}
        if s in acted:
            v = acted[s]
            out.append(("passed", NEUTRAL, white) if v is None else (f"bid {v}", SUN_PILL, white))
    if s in view["to_move"]:
        out.append(("▶ " + awaited_label(view), seat_color(s), on_color(seat_color(s))))
    if a:
        if int(a["ra_player"]) == s:
            out.append(("Ra player", CATEGORY_COLOR["ra"], white))
        order = list(a["to_bid"])
        acted_seats = {int(b["seat"]) for b in a["bids"]}
        if s not in acted_seats and s not in view["to_move"] and s in order:
            k = order.index(s)
            out.append(("bids next" if k == 1 else f"bids {ordinal(k + 1)}", NEUTRAL, white))
    elif s == view["current"] and not view["over"] and s not in view["to_move"]:
        out.append(("current", NEUTRAL, white))
    if not p["up"] and not view["over"]:
        out.append(("out of suns", NEUTRAL, white))
    out_ = view["outcome"]
    if view["over"] and out_:
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
    counts = {k: int(v) for k, v in p["tiles"].items()}
    counts["trader"] = int(p["traders"])
    counts["crate"] = int(p["crates"])
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
    a = view["auction"]
    downs = tuple(int(v) for v in p["down"])
    tags: tuple[str, ...] = ("Ra",) if a is not None and int(a["ra_player"]) == s else ()
    tags += tuple(k.split(":", 2)[2] for k in sorted(marks) if k.startswith(f"tag:{s}:"))
    pills = tuple(
        pl for pl in seat_status(view, s) if pl[0] != "Ra player" and not (pl[0] == "out of suns" and downs)
    )
    own = frozenset(
        k for k in marks if k in (f"score:{s}", f"bid:{s}") or k.startswith((f"sun:{s}:", f"tiles:{s}:"))
    )
    score = p["score"]
    bids = {int(b["seat"]): b["sun"] for b in a["bids"]} if a else {}
    bid = bids.get(s)
    return RowSpec(
        n=int(view["n_players"]),
        seat=s,
        name=names[s],
        initial=initials_of(tuple(names))[s],
        score=None if score is None else int(score),
        ups=tuple(int(v) for v in p["up"]),
        downs=downs,
        held=tuple(sorted(counts_of(p).items())),
        traders=bool(view["options"].get("traders", True)),
        awaited=s in view["to_move"],
        tags=tags,
        pills=pills,
        marks=own,
        bid=None if bid is None else int(bid),
    )


ROW_CACHE = 40
"""How many drawn seat rows :func:`draw_seat_row` keeps (about 0.3 MB each; a least recently
used one goes first)."""
_rows = Pieces(ROW_CACHE)  # whole rows are large: a small cache of their own


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
    stamp(
        img,
        (X0, top, X1, top + rh),
        ("ra.row", spec),
        lambda im, dd, x, yy: _draw_row(im, dd, spec, int(x), int(yy)),
        cache=_rows,
    )
    return top + rh


def clear_rows() -> None:
    """Forget the drawn rows (tests draw from a cold cache)."""
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
