"""The Pralaya renderer (render/pralaya): images and text from views.

``sample_view`` builds hand-made views that follow the agreed view schema exactly; it is used for
edge cases a random playout rarely reaches (five long names, every relic type in one hand, all
flags at once) and while the engine is not there.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image, ImageChops

from engines import base
from engines.pralaya import data as pdata
from engines.pralaya.view import PralayaView
from render import pralaya
from render.common import PANEL, SEAT_COLORS, WIDTH, contrast, num, seat_ink, to_png
from render.pralaya.art.cards import CARDS, set_progress
from tests.pralaya.helpers import me, result

CATS = list(pdata.CATEGORIES)


def _hand_counts(ids: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for cid in ids:
        code = cid.rstrip("0123456789")
        out[code] = out.get(code, 0) + 1
    return out


def sample_view(
    seed: int = 0,
    n: int = 3,
    viewer: int | None = None,
    *,
    step: str = "collect",
    over: bool = False,
    open_hands: bool = False,
    hand_size: int = 6,
    taken: int = 2,
    new: int = 2,
) -> PralayaView:
    """A schema-exact Pralaya view with seeded random contents (not a reachable state)."""
    rng = random.Random(seed)
    rows, cols = pdata.GRID[n]
    pool = list(pdata.CARD_IDS)
    rng.shuffle(pool)
    island = []
    cells = [f"{r}{c}" for r in "abc"[:rows] for c in range(1, cols + 1)]
    taken_cells = set(rng.sample(cells, taken))
    new_cells = set(rng.sample([c for c in cells if c not in taken_cells], new))
    for cell in cells:
        if cell in taken_cells:
            island.append(
                {
                    "cell": cell,
                    "card": None,
                    "code": None,
                    "name": None,
                    "cost": None,
                    "currency": 0,
                    "taken": True,
                    "new": False,
                }
            )
            continue
        cid = pool.pop()
        code = cid.rstrip("0123456789")
        rel = pdata.RELIC_BY_CODE[code]
        island.append(
            {
                "cell": cell,
                "card": cid,
                "code": code,
                "name": rel.name,
                "cost": rel.cost,
                "currency": rel.currency,
                "taken": False,
                "new": cell in new_cells,
            }
        )
    non_ocean = [c for c in pool if not c.startswith("oce")]
    first = rng.randrange(n)
    active = (first + 2) % n
    dhoni_pile = list(pdata.DHONI_PILES[n])
    players = []
    hands = []
    for s in range(n):
        k = min(hand_size + s % 2, len(non_ocean) - 5 - 2 * (n - 1 - s))
        ids = [non_ocean.pop() for _ in range(max(0, k))]
        hands.append(ids)
        has_dhoni = s == (active + 1) % n
        dh = dhoni_pile.pop(1) if has_dhoni and len(dhoni_pile) > 1 else None
        price = pdata.DHONI_BY_ID[dh].price if dh else None
        show = over or open_hands or viewer == s
        players.append(
            {
                "seat": s,
                "hand_size": len(ids),
                "hand": _hand_counts(ids) if show else None,
                "hand_ids": sorted(ids) if show else None,
                "veda": s % 2 == 0,
                "dhoni": dh,
                "dhoni_price": ("X" if price is None else price) if dh else None,
                "escaped": dh is not None,
            }
        )
    discard = [non_ocean.pop() for _ in range(5)]
    me = None
    if viewer is not None:
        ids = hands[viewer]
        hc = _hand_counts(ids)
        currency = sum(pdata.COIN_VALUE.get(c, 0) * k for c, k in hc.items())
        bd = {c: rng.randint(-6, 20) for c in CATS}
        legal = (
            ([f"take {c['cell']}" for c in island if c["code"] not in (None, "oce")][:8] + ["done"])
            if step == "collect"
            else ["buy veda 0g 1s 1c", "pass"]
        )
        me = {
            "seat": viewer,
            "hand": hc,
            "hand_ids": sorted(ids),
            "currency": currency,
            "provisional": {
                "categories": CATS,
                "breakdown": bd,
                "total": sum(bd.values()),
                "fossil_known": open_hands,
                "dhoni": None,
                "paid": 0,
                "short": 0,
            },
            "legal": legal if viewer == active and not over else [],
        }
    outcome = None
    if over:
        scores = [None if not p["escaped"] and s % 3 else 10 + 7 * s for s, p in enumerate(players)]
        esc = sorted((s for s in range(n) if scores[s] is not None), key=lambda s: -(scores[s] or 0))
        ranks = [0] * n
        for i, s in enumerate(esc):
            ranks[s] = i + 1
        for s in range(n):
            if scores[s] is None:
                ranks[s] = len(esc) + 1
        outcome = {
            "ranks": ranks,
            "scores": scores,
            "categories": CATS,
            "breakdown": [
                None if scores[s] is None else {c: (scores[s] if c == "Coins" else 0) for c in CATS}
                for s in range(n)
            ],
            "winners": [s for s in range(n) if ranks[s] == 1],
            "notes": ["" for _ in range(n)],
        }
    return cast(
        PralayaView,
        {
            "game": "pralaya",
            "viewer": viewer,
            "n_players": n,
            "to_move": [] if over else [active],
            "over": over,
            "headline": ("Game over" if over else f"Round 3 · {{s{active}}} collecting · 2 Vitality left"),
            "options": {
                "open_hands": open_hands,
                "veda_price": 4,
                "first_seat": -1,
                "fossil_all_players": False,
            },
            "round": 3,
            "first": first,
            "active": active,
            "step": "over" if over else step,
            "vitality": 3,
            "v_left": 2 if step == "collect" else 0,
            "rows": rows,
            "cols": cols,
            "island": island,
            "deck": len(pool),
            "unrevealed": 31,
            "discard": discard,
            "veda": {"left": n - sum(bool(p["veda"]) for p in players), "price": 4, "stand_in": True},
            "dhoni": [
                {"id": d, "price": "X" if pdata.DHONI_BY_ID[d].price is None else pdata.DHONI_BY_ID[d].price}
                for d in dhoni_pile
            ],
            "players": players,
            "me": me,
            "outcome": outcome,
        },
    )


# --------------------------------------------------------------------------- helpers

GOLDEN = Path(__file__).parent.parent / "golden"
from render.pralaya.hand import result_line  # noqa: E402
from render.pralaya.sheet import ranked  # noqa: E402

LONG = ["Bartholomew the Magnificent", "Ann", "Chidambaram Subramaniam", "Zoë", "Eve"]


def _engine() -> base.Engine:
    return base.get("pralaya")


def playout(seed: int, n: int, opts: dict[str, Any] | None = None, stop: int | None = None) -> Iterator[Any]:
    """Every state of a seeded random playout (random legal actions chosen by a seeded
    ``random.Random``), the start included, until the end or ``stop`` actions."""
    engine = _engine()
    rng = random.Random(1000 + seed)
    state = engine.setup(seed, n, opts or {})
    yield state
    k = 0
    while engine.outcome(state) is None and (stop is None or k < stop):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        k += 1
        yield state


def _check_image(img: Image.Image, n: int, min_h: int = 300) -> None:
    assert img.mode == "RGB" and img.width == WIDTH
    assert min_h <= img.height <= 2400, img.height


def _check_board(img: Image.Image, n: int) -> None:
    # one fixed size per player count
    from render.pralaya.layout import board_height

    assert img.mode == "RGB" and img.size == (WIDTH, board_height(n))


def _check_text(s: str) -> None:
    assert s.strip(), "empty text"
    assert "{s" not in s, "an unreplaced seat token"
    assert len(s) <= 1900, len(s)


# --------------------------------------------------------------------------- seeded playouts


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_step_of_playouts_renders(n: int) -> None:
    """Board (spectator view) and hand (awaited seat) at every step of two seeded games per
    player count; the score sheet and the final board at the end; text all along."""
    engine = _engine()
    for seed in (n, 10 + n):
        names = LONG[:n] if seed % 2 else None
        steps = 0
        for state in playout(seed, n):
            spectator = engine.view(state, None)
            _check_board(pralaya.board(spectator, names), n)
            _check_text(pralaya.text(spectator, names))
            for seat in engine.to_move(state):
                mine = engine.view(state, seat)
                _check_image(pralaya.hand(mine, names), n)
                _check_text(pralaya.text(mine, names))
            steps += 1
        assert engine.outcome(state) is not None and steps > 10
        final = engine.view(state, None)
        assert final["over"] and final["outcome"]
        sheet = pralaya.score_sheet(final, names)
        _check_image(sheet, n)
        assert sheet.height <= 1100
        # the board keeps its size at the end; the sheet is a picture of its own, ranking first
        _check_board(pralaya.board(final, names), n)
        order = ranked(final)
        outcome = result(state)
        assert sorted(seat for seat, _, _ in order) == list(range(n))
        scored = [(place, total) for _, place, total in order if total is not None]
        assert scored == sorted(scored, key=lambda pt: pt[0])
        assert all(total is None for _, _, total in order[len(scored) :])
        for seat, _, total in order:
            assert total == outcome.scores[seat]
            said = result_line(engine.view(state, seat), seat)
            assert (str(total) in said and "finished" in said) if total is not None else "not escape" in said
        text = pralaya.text(final, names)
        _check_text(text)
        assert "Result" in text
        # each seat's final private view: its hand and its real score (or none)
        out = result(state)
        for seat in range(n):
            mine = engine.view(state, seat)
            _check_image(pralaya.hand(mine, names), n)
            t = pralaya.text(mine, names)
            _check_text(t)
            if out.scores[seat] is None:
                assert "Would have scored (did not escape)" in t
            else:
                assert f"Final score: **{out.scores[seat]}**" in t


def test_open_hands_add_a_second_picture_of_the_hands() -> None:
    """With ``open_hands`` the same game (the option changes no rule) shows every hand's
    grouped counts in a second picture (``extra``) of one size per player count; the board
    keeps its size, and hidden hands have no second picture."""
    engine = _engine()
    hidden = list(playout(5, 4, {}, stop=24))[-1]
    shown = list(playout(5, 4, {"open_hands": True}, stop=24))[-1]
    v_hidden, v_shown = engine.view(hidden, None), engine.view(shown, None)
    assert all(p["hand"] is None for p in v_hidden["players"])
    assert any(p["hand"] for p in v_shown["players"])
    assert pralaya.board(v_shown).size == pralaya.board(v_hidden).size
    assert pralaya.extra(v_hidden) is None
    hands = pralaya.extra(v_shown)
    assert hands is not None and hands.size == (WIDTH, hands_height(4))
    empty = pralaya.extra(engine.view(list(playout(5, 4, {"open_hands": True}, stop=1))[-1], None))
    assert empty is not None and empty.size == hands.size
    assert ImageChops.difference(hands, empty).getbbox() is not None
    t = pralaya.text(v_shown)
    name = next(CARDS[c].name for p in v_shown["players"] for c in (p["hand"] or {}))
    assert name in t


def test_spectator_view_is_hand_free_and_enough() -> None:
    """The board is drawn from the spectator view alone: it holds no hand contents and no
    private block, renders, and is not modified by rendering."""
    engine = _engine()
    for n in (2, 5):
        state = list(playout(8, n, stop=15))[-1]
        v = engine.view(state, None)
        assert v["me"] is None
        assert all(p["hand"] is None and p["hand_ids"] is None for p in v["players"])
        before = json.dumps(v, sort_keys=True)
        _check_board(pralaya.board(v, LONG), n)
        notice = pralaya.hand(v)  # a spectator has no hand: a short notice, not an error
        assert notice.width == WIDTH and notice.height < 300
        pralaya.text(v)
        assert json.dumps(v, sort_keys=True) == before, "rendering changed the view"


def test_hand_text_lists_the_legal_moves_and_names() -> None:
    engine = _engine()
    state = list(playout(9, 3, stop=7))[-1]
    seat = engine.to_move(state)[0]
    v = engine.view(state, seat)
    t = pralaya.text(v, ["Ann", "Bob", "Cleo"])
    assert ["Ann", "Bob", "Cleo"][seat] in t
    for a in engine.legal_actions(state, seat):
        assert f"`{a}`" in t
    # names missing or short: seats are named "Seat N"
    t2 = pralaya.text(v, ["Ann"])
    assert "Ann" in t2 and "Seat 2" in t2 and "Seat 3" in t2
    _check_text(t2)


def test_rendering_is_deterministic() -> None:
    engine = _engine()
    v = engine.view(list(playout(2, 3, stop=12))[-1], None)
    assert to_png(pralaya.board(copy.deepcopy(v))) == to_png(pralaya.board(v))


# --------------------------------------------------------------------------- hand-made views


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("open_hands,over", [(False, False), (True, False), (False, True)])
def test_sample_views_every_layout(n: int, open_hands: bool, over: bool) -> None:
    """Edge cases a random game rarely shows: long names, every flag at once, big hands."""
    for names in (LONG[:n], None, ["x" * 60] * n):
        v = sample_view(n, n, open_hands=open_hands, over=over, hand_size=9)
        _check_board(pralaya.board(v, names), n)
        _check_text(pralaya.text(v, names))
        mine = sample_view(n, n, viewer=v["active"], open_hands=open_hands, over=over, hand_size=9)
        _check_image(pralaya.hand(mine, names), n)
        _check_text(pralaya.text(mine, names))
        _check_image(pralaya.score_sheet(v, names), n, min_h=100)


def test_text_stays_under_the_discord_limit_in_the_worst_case() -> None:
    v = sample_view(1, 5, viewer=2, open_hands=True, hand_size=10, taken=0, new=6)
    me(v)["legal"] = [f"take {c['cell']}" for c in v["island"]][:18] + ["done"]
    t = pralaya.text(v, ["W" * 32] * 5)
    _check_text(t)
    assert "take a1" in t


# --------------------------------------------------------------------------- helpers


def test_helpers() -> None:
    assert [set_progress("man", k) for k in (0, 1, 2, 3)] == [None, "1/2 to a pair", "1 pair", "1 pair + 1/2"]
    assert set_progress("urn", 2) == "2/3 to a set" and set_progress("urn", 6) == "2 sets"
    assert set_progress("gol", 3) is None
    assert num(-18) == "−18" and num(0) == "0" and num(7) == "7"
    for seat in range(len(SEAT_COLORS)):
        assert contrast(seat_ink(seat), PANEL) >= 4.5


# --------------------------------------------------------------------------- golden image


def _diff(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, fraction of pixels off by more than 64)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    hist = diff.histogram()
    total = a.width * a.height
    mean: float = sum(i * c for k in range(3) for i, c in enumerate(hist[256 * k : 256 * (k + 1)]))
    mean = mean / (total * 3)
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)  # largest channel difference
    far = sum(worst.histogram()[65:])
    return mean, far / total


MAX_MEAN = 1.0  # mean absolute difference per channel (0-255)
MAX_FAR = 0.001  # share of pixels with a channel off by more than 64 (a step tag alone is ~0.15 %)


def _close(a: Image.Image, b: Image.Image) -> tuple[bool, str]:
    if a.size != b.size:
        return False, f"size {a.size} != {b.size}"
    mean, far = _diff(a, b)
    return mean < MAX_MEAN and far < MAX_FAR, f"mean {mean:.3f}, {far:.3%} of pixels off by > 64"


GOLDEN_CASES = [("pralaya_board_4p", 3, 4, 20, {}), ("pralaya_board_5p_open", 4, 5, 31, {"open_hands": True})]


def _golden_board(seed: int, n: int, moves: int, opts: dict[str, Any]) -> Image.Image:
    state = list(playout(seed, n, opts, stop=moves))[-1]
    return pralaya.board(_engine().view(state, None), LONG[:n])


@pytest.mark.parametrize("name,seed,n,moves,opts", GOLDEN_CASES)
def test_golden_board(name: str, seed: int, n: int, moves: int, opts: dict[str, Any]) -> None:
    """A fixed seed, player count and number of random moves -> the stored board image.
    Regenerate with BAZAAR_UPDATE_GOLDEN=1 (the test then writes the file and skips)."""
    img = _golden_board(seed, n, moves, opts)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("BAZAAR_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        img.save(path, format="PNG", optimize=True)  # lossless RGB: the comparison stays exact
        pytest.skip(f"wrote {path}")
    assert path.exists(), f"{path} is missing: run with BAZAAR_UPDATE_GOLDEN=1"
    ok, why = _close(img, Image.open(path))
    assert ok, f"board differs from {path.name}: {why}"


@pytest.mark.parametrize("name,seed,n,moves,opts", GOLDEN_CASES)
def test_golden_tolerance_sees_one_move(
    name: str, seed: int, n: int, moves: int, opts: dict[str, Any]
) -> None:
    """The tolerance is tight enough that the board one move earlier or later does not pass."""
    path = GOLDEN / f"{name}.png"
    if not path.exists():
        pytest.skip("golden image not written yet")
    want = Image.open(path)
    for k in (moves - 1, moves + 1):
        ok, why = _close(_golden_board(seed, n, k, opts), want)
        assert not ok, f"the board after {k} moves passes as the golden one ({why})"


# --------------------------------------------------------------------------- the last move marked

from render.frame import HEADER_H  # noqa: E402
from render.pralaya.layout import (  # noqa: E402
    GAP,
    TILE_H,
    TURN_H,
    board_height,
    grid_layout,
    hands_height,  # noqa: E402
)
from render.pralaya.layout import M as MARGIN  # noqa: E402
from render.pralaya.marks import DRAWN, SANK, TAKEN, changes  # noqa: E402


def _steps(seed: int, n: int) -> Iterator[tuple[PralayaView, PralayaView]]:
    """(previous public view, public view) after every move of a seeded playout."""
    engine = _engine()
    prev = None
    for state in playout(seed, n):
        v = engine.view(state, None)
        if prev is not None:
            yield prev, v
        prev = v


def test_changes_name_the_cells_taken_drawn_and_sunk_and_nothing_without_previous() -> None:
    seen = set()
    for prev, v in _steps(4, 5):
        ch = changes(prev, v)
        assert not changes(None, v) and not changes(v, v)
        before = {c["cell"]: c for c in prev["island"]}
        for c in v["island"]:
            old = before[c["cell"]]
            mark = ch.cells.get(c["cell"])
            if old["card"] == c["card"]:
                assert mark is None
            elif c["card"] is None:
                assert mark in (TAKEN, "discarded")
            else:
                assert mark == (SANK if c["code"] == "oce" else DRAWN)
            if mark:
                seen.add(mark)
        for p, q in zip(prev["players"], v["players"], strict=True):
            if p["hand_size"] != q["hand_size"]:
                assert "hand" in ch.players[q["seat"]]
        if prev["veda"]["left"] != v["veda"]["left"]:
            assert "veda" in ch.supply
    assert {TAKEN, DRAWN, SANK} <= seen, seen


def _cell_box(view: PralayaView, name: str) -> tuple[int, int, int, int]:
    widths, heights = grid_layout(view)
    cols = view["cols"]
    i = next(k for k, c in enumerate(view["island"]) if c["cell"] == name)
    r, c = divmod(i, cols)
    x = MARGIN + sum(widths[:c]) + GAP * c
    y = HEADER_H + 6 + TURN_H + 4 + sum(heights[:r]) + GAP * r  # below the header and the turn line
    return x, y, x + widths[c], y + heights[r]


def test_the_board_rings_a_taken_cell_only_when_given_the_previous_view() -> None:
    prev, v = next((p, q) for p, q in _steps(6, 4) if TAKEN in changes(p, q).cells.values())
    cell = next(k for k, m in changes(prev, v).cells.items() if m == TAKEN)
    plain, marked = pralaya.board(v), pralaya.board(v, previous=prev)
    assert plain.size == marked.size
    x0, y0, x1, y1 = _cell_box(v, cell)
    ring = (x0 - 8, y0 - 8, x1 + 8, y1 + 8)
    assert ImageChops.difference(plain.crop(ring), marked.crop(ring)).getbbox() is not None
    assert to_png(pralaya.board(v, previous=None)) == to_png(plain)
    # the header above the grid is not touched by the marks
    top = (0, 0, WIDTH, HEADER_H + TURN_H)
    assert ImageChops.difference(plain.crop(top), marked.crop(top)).getbbox() is None


def test_the_grid_keeps_its_geometry_as_cells_sink() -> None:
    """Sunk rows and columns keep their place and size: the board is one size through a game."""
    v = sample_view(3, 5, taken=0, new=0)
    cols = v["cols"]
    for k, c in enumerate(v["island"]):
        if k < cols or k % cols == 1:  # the first row and the second column sink
            c.update({"code": "oce", "card": "oce1", "name": "Ocean", "cost": None})
    widths, heights = grid_layout(v)
    assert heights == [TILE_H] * 3
    assert max(widths) - min(widths) <= 1
    assert sum(widths) + GAP * (cols - 1) == WIDTH - 2 * MARGIN
    full = sample_view(3, 5, taken=0, new=0)
    assert grid_layout(full) == (widths, heights)
    assert pralaya.board(v).size == pralaya.board(full).size == (WIDTH, board_height(3))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_board_of_whole_games_has_the_fixed_size(n: int) -> None:
    """Every posted board (caption included) of seeded whole games is 1000 × canvas_height, at
    most 1100 tall; the open-hands picture keeps one size too."""
    import render

    engine = _engine()
    want = render.canvas_height("pralaya", n)
    assert want <= 1100
    for seed, opts in ((1, {}), (2, {"open_hands": True})):
        prev = None
        sizes: set[tuple[int, int]] = set()
        extras: set[tuple[int, int]] = set()
        for state in playout(seed, n, opts):
            v = engine.view(state, None)
            imgs = render.board_images("pralaya", v, LONG[:n], caption=["Ann takes a1"], previous=prev)
            sizes.add(imgs[0].size)
            extras.update(im.size for im in imgs[1:])
            prev = v
        assert sizes == {(WIDTH, want)}
        assert extras == (set() if not opts else {(WIDTH, hands_height(n))})
