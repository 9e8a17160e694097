"""The Ra renderer: every step of seeded random playouts renders (board, hand, text), score
sheets render at the end and after each epoch, the board never needs private data, and a golden
image pins the board's look (regenerate with BAZAAR_UPDATE_GOLDEN=1)."""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from engines import base
from engines.ra.rules import RaEngine
from engines.ra.state import State
from engines.ra.view import AuctionView, MeView, PlayerView, RaView
from render import ra
from render.caption import HEIGHT as CAPTION_H
from render.common import PNG_LIMIT, WIDTH
from render.frame import MAX_HEIGHT
from tests.ra.helpers import own

NAMES = ["Ann", "Bartholomew the Magnificent", "Cy", "Dora Delacroix-Montgomery", "Eve"]


GOLDEN = Path(__file__).parent.parent / "golden"  # tests/golden, shared by the games


def _registered() -> bool:
    try:
        base.get("ra")
    except base.BadOption:
        return False
    return True


needs_engine = pytest.mark.skipif(not _registered(), reason="engine ra not registered yet")


def _playout(
    seed: int, n: int, opts: dict[str, Any], limit: int | None = None
) -> tuple[RaEngine, list[State]]:
    """(engine, [states]) of a game played with seeded random legal actions, all states kept."""
    engine = base.get("ra")
    assert isinstance(engine, RaEngine)
    rng = random.Random(seed)
    state = engine.setup(seed, n, opts)
    states = [state]
    while engine.outcome(state) is None and (limit is None or len(states) <= limit):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        states.append(state)
    return engine, states


def _check_size(img: Image.Image) -> None:
    """A hand or a sheet: 1000 px wide, at most as tall as a posted board."""
    assert img.mode == "RGB"
    assert img.width == WIDTH
    assert 300 <= img.height <= MAX_HEIGHT, img.height


def _check_board(img: Image.Image, n: int) -> None:
    """A board: exactly 1000 × board_height(n), the same through the game."""
    assert img.mode == "RGB"
    assert img.size == (WIDTH, ra.board_height(n)), img.size


def _check_text(s: str, names: list[str] | None) -> None:
    assert s.strip()
    assert "{s" not in s
    assert len(s) <= 1900
    if names:
        assert names[0] in s


PLAYOUTS = [
    (2, {}, 1, {"turn", "auction", "over"}),
    (3, {}, 25, {"turn", "auction", "discard", "over"}),
    (4, {}, 3, {"turn", "auction", "over"}),
    (5, {}, 7, {"turn", "auction", "god_more", "over"}),
    (2, {"traders": False, "hidden_scores": True}, 5, {"turn", "auction", "over"}),
    (
        3,
        {"god_takes_disaster": True, "drought_floods_first": False, "auto_pass": False},
        6,
        {"turn", "auction", "over"},
    ),
    (
        5,
        {"traders": False, "score_floor_zero": False, "hidden_scores": True},
        24,
        {"turn", "auction", "over"},
    ),
]


def _sample(n: int = 3) -> RaView:
    """A hand-built spectator view of ``n`` seats in a discard step (a test changes its items)."""
    players: list[PlayerView] = [
        {
            "seat": s,
            "up": [2 + s, 9 + s],
            "down": [5 + s],
            "traders": 1,
            "crates": 2,
            "tiles": {"pharaoh": s + 1, "nile": 2, "flood": 1, "art": 1, "pyramid": 3},
            "score": 10 + s,
        }
        for s in range(n)
    ]
    return {
        "game": "ra",
        "viewer": None,
        "n_players": n,
        "to_move": [1],
        "over": False,
        "headline": "Epoch 3 · {s1} must discard 2 river tiles",
        "options": {"traders": True, "hidden_scores": False, "score_floor_zero": True},
        "epoch": 3,
        "step": "discard",
        "current": 0,
        "ra_track": 4,
        "ra_limit": 8,
        "track": ["god", "gold", "pharaoh", "nile", "flood", "trader", "funeral", "step-pyramid"],
        "center": 7,
        "bag": {"pharaoh": 3},
        "bag_total": 3,
        "box": {"god": 4},
        "auction": None,
        "pending": {"seat": 1, "civ": 1, "monument": 2, "river": 2},
        "players": players,
        "history": [],
        "me": None,
        "outcome": None,
    }


def _bidding(auction: AuctionView, me: MeView) -> RaView:
    """Seat 2's view of a five-seat auction (the sample's players), seat 2 to bid."""
    return {
        **_sample(5),
        "step": "auction",
        "pending": None,
        "auction": auction,
        "to_move": [2],
        "viewer": 2,
        "me": me,
    }


def _diff_stats(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, fraction of pixels whose largest channel
    difference exceeds 64)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    total = a.width * a.height
    hist = diff.histogram()
    mean = sum(i * c for k in range(3) for i, c in enumerate(hist[k * 256 : (k + 1) * 256])) / (3 * total)
    r, g, bl = diff.split()
    big = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    return mean, sum(big.histogram()[65:]) / total


def _mark_pixels(img: Image.Image) -> int:
    """How many pixels are exactly the change-mark colour (outlines are drawn unblended)."""
    from render.common import MARK

    colours = img.getcolors(1 << 24)
    assert colours is not None  # None only past the limit of 1 << 24 colours
    return sum(k for k, colour in colours if colour == MARK)


def _steps(seed: int, n: int, limit: int) -> list[tuple[RaView, RaView]]:
    """(previous public view, public view) of each move of a seeded random playout."""
    engine, states = _playout(seed, n, {}, limit=limit)
    views = [engine.view(s, None) for s in states]
    return list(zip(views, views[1:], strict=False))


@needs_engine
@pytest.mark.parametrize(
    "n,opts,seed,must", PLAYOUTS, ids=[f"{n}p-{'-'.join(o) or 'default'}" for n, o, _, _ in PLAYOUTS]
)
def test_every_step_of_playouts_renders(n: int, opts: dict[str, Any], seed: int, must: set[str]) -> None:
    engine, states = _playout(seed, n, opts)
    names = NAMES[:n] if seed % 2 else None
    steps = set()
    previous = None
    for i, state in enumerate(states):
        public = engine.view(state, None)
        steps.add(public["step"])
        board = ra.board(public, names, previous=previous)
        _check_board(board, n)
        if i % 25 == 0 or i == len(states) - 1:
            png = render.board_png("ra", public, names, caption=["a caption line"], previous=previous)
            assert len(png) <= PNG_LIMIT, len(png)
        previous = public
        _check_text(ra.text(public, names), names)
        for seat in engine.to_move(state):
            private = engine.view(state, seat)
            _check_size(ra.hand(private, names))
            _check_text(ra.text(private, names), names)
    final = engine.view(states[-1], None)
    assert final["over"] and final["outcome"]
    _check_size(ra.score_sheet(final, names))
    for entry in final["history"]:
        _check_size(ra.epoch_sheet(final, entry["epoch"], names))
    assert must <= steps, f"the playout no longer reaches {must - steps}: pick another seed"


@needs_engine
def test_sheets_between_epochs_and_hidden_scores() -> None:
    engine, states = _playout(8, 4, {"hidden_scores": True})
    mid = next(s for s in states if len(engine.view(s, None)["history"]) == 1)
    public = engine.view(mid, None)
    assert public["players"][0]["score"] is None
    _check_size(ra.score_sheet(public, NAMES))  # the sheet so far, standings hidden as "?"
    _check_size(ra.epoch_sheet(public, 1, NAMES))
    with pytest.raises(ValueError):
        ra.epoch_sheet(public, 2, NAMES)
    text = ra.text(public, NAMES)
    assert text.count("— ? pts") == 4  # nobody's total leaks to spectators
    own = ra.text(engine.view(mid, 2), NAMES)
    assert own.count("— ? pts") == 3  # a player sees their own total only


@needs_engine
def test_board_uses_only_the_public_view() -> None:
    """The board of a spectator view equals the board of the same view carrying a player's
    private part: nothing private is drawn, so the bot can only ever pass view(state, None)."""
    engine, states = _playout(9, 3, {"hidden_scores": True}, limit=40)
    state = states[-1]
    public = engine.view(state, None)
    assert public["me"] is None and public["viewer"] is None
    seat = engine.to_move(state)[0]
    leaky = copy.deepcopy(public)
    leaky["me"] = engine.view(state, seat)["me"]
    a, b = ra.board(public, NAMES), ra.board(leaky, NAMES)
    assert ImageChops.difference(a, b).getbbox() is None
    with pytest.raises(ValueError):
        ra.hand(public, NAMES)  # a spectator view has no hand to show


@needs_engine
def test_hand_shows_the_prompt_and_legal_actions_in_text() -> None:
    engine, states = _playout(10, 3, {}, limit=30)
    state = states[-1]
    seat = engine.to_move(state)[0]
    v = engine.view(state, seat)
    text = ra.text(v, NAMES)
    for action in own(v)["legal"]:
        assert f"`{action}`" in text
    assert base.format_text(own(v)["prompt"], NAMES[:3]) in text


@needs_engine
def test_rendering_is_deterministic() -> None:
    engine, states = _playout(12, 5, {}, limit=60)
    v = engine.view(states[-1], None)
    assert ra.board(v, NAMES).tobytes() == ra.board(json.loads(json.dumps(v)), NAMES).tobytes()


def test_board_heights_fit_the_square_canvas() -> None:
    """One height per player count, the caption strip included at most MAX_HEIGHT."""
    for n in range(2, 6):
        assert CAPTION_H + ra.board_height(n) <= MAX_HEIGHT
        assert render.canvas_height("ra", n) == CAPTION_H + ra.board_height(n)
    assert ra.board_height(5) > ra.board_height(4) > ra.board_height(3) > ra.board_height(2)


def test_sample_views_every_section() -> None:
    v = _sample(5)
    _check_board(ra.board(v, NAMES), 5)
    assert "must discard 2 Nile/flood, 1 civilization and 2 monument tiles" in ra.text(v, NAMES)
    auction: AuctionView = {
        "ra_player": 2,
        "kind": "voluntary",
        "order": [3, 4, 0, 1, 2],
        "idx": 4,
        "high": None,
        "bids": [{"seat": s, "sun": None} for s in (3, 4, 0, 1)],
        "to_bid": [2],
        "forced": True,
    }
    v = _bidding(
        auction,
        {
            "seat": 2,
            "score": 12,
            "legal": ["bid 4", "bid 11"],
            "prompt": "You must bid: you invoked Ra on this track. Bid 4 or 11.",
            "preview": {
                "Gods": 0,
                "Gold": 0,
                "Pharaohs": 5,
                "Nile & floods": 3,
                "Civilizations": -5,
                "Traders": 3,
                "Monuments": 6,
                "Suns": -5,
            },
        },
    )
    _check_board(ra.board(v, NAMES), 5)
    _check_size(ra.hand(v, NAMES))
    text = ra.text(v, NAMES)
    assert "(must bid)" in text and "= **+7**" in text


def test_text_stays_under_the_discord_limit_with_everything_held() -> None:
    tiles = {
        c: 5
        for c in (
            "god",
            "gold",
            "pharaoh",
            "nile",
            "flood",
            "astronomy",
            "agriculture",
            "writing",
            "religion",
            "art",
            "fortress",
            "obelisk",
            "palace",
            "pyramid",
            "temple",
            "statue",
            "step-pyramid",
            "sphinx",
        )
    }
    v = _sample(5)
    for p in v["players"]:
        p["tiles"] = dict(tiles)
    long_names = [n * 3 for n in NAMES]
    s = ra.text(v, long_names)
    assert len(s) <= 1900 and "{s" not in s
    _check_board(ra.board(v, long_names), 5)
    _check_size(
        ra.hand(
            {**v, "viewer": 1, "me": {"seat": 1, "score": 11, "legal": [], "prompt": "", "preview": {}}},
            long_names,
        )
    )


def test_golden_tolerance_catches_a_real_change() -> None:
    img = ra.board(_sample(3), NAMES)
    same = _diff_stats(img, img.copy())
    assert same == (0.0, 0.0)
    changed = img.copy()
    changed.paste((0, 0, 0), (0, 0, 200, 120))  # a blacked-out corner (the header's sun and "RA")
    mean, over = _diff_stats(img, changed)
    assert over > 0.005


@needs_engine
@pytest.mark.parametrize("name,seed,n,moves,opts", [("ra_board_4p", 2024, 4, 142, {})])
def test_golden_board(name: str, seed: int, n: int, moves: int, opts: dict[str, Any]) -> None:
    """A fixed playout's board matches the stored PNG within a small tolerance.
    Regenerate with BAZAAR_UPDATE_GOLDEN=1 (the test then writes the file and skips)."""
    engine, states = _playout(seed, n, opts, limit=moves)
    assert len(states) == moves + 1, "the golden playout ended early: pick another seed"
    # with the board before it, so that the change marks are pinned too
    img = ra.board(engine.view(states[-1], None), NAMES[:n], previous=engine.view(states[-2], None))
    assert img.size == (WIDTH, ra.board_height(n))
    path = GOLDEN / f"{name}.png"
    if os.environ.get("BAZAAR_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        img.save(path)
        pytest.skip(f"wrote {path}")
    assert path.exists(), f"{path} is missing: run with BAZAAR_UPDATE_GOLDEN=1"
    want = Image.open(path)
    assert want.size == img.size, f"size {img.size} != golden {want.size}"
    mean, over = _diff_stats(img, want)
    assert mean < 1.0 and over < 0.005, f"board differs from {path}: mean {mean:.3f}, {over:.2%} pixels"


def test_interim_sheet_is_offered_once_per_scored_epoch_before_the_end() -> None:
    """``interim_sheet`` answers the batch that scored epoch 1 or 2 with that epoch's sheet, and
    every other batch (and the final epoch, shown by ``score_sheet``) with None."""
    engine = base.get("ra")
    state = engine.setup(4, 3, {})
    rng = random.Random(4)
    offered = []
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        found = ra.interim_sheet(engine.view(state, None), events, ["A", "B", "C"])
        if found is not None:
            caption, img = found
            assert img.width == WIDTH and img.height > 300
            offered.append(caption)
        else:
            assert not any(e.kind == "epoch_score" for e in events) or engine.outcome(state)
    assert offered == ["Epoch 1 scoring", "Epoch 2 scoring"]


@needs_engine
def test_changes_name_the_tile_drawn_the_lot_won_and_the_suns_moved() -> None:
    seen = set()
    for before, after in _steps(2024, 4, 160):
        marks = ra.changes(before, after)
        assert ra.changes(None, after) == frozenset()
        if before["epoch"] != after["epoch"]:
            assert all(m.startswith(("score:", "track:", "ra_track")) for m in marks)
            continue
        grown = len(after["track"]) > len(before["track"])
        if grown:
            assert f"track:{len(after['track']) - 1}" in marks
            seen.add("drawn")
        if len(after["track"]) < len(before["track"]) and after["center"] != before["center"]:
            # a lot was won: the centre sun changed, the winner's tiles grew, its new sun is marked
            winner = next(
                s
                for s, (p, q) in enumerate(zip(before["players"], after["players"], strict=True))
                if set(q["down"]) - set(p["down"])
            )
            assert "center" in marks
            new_sun = (set(after["players"][winner]["down"]) - set(before["players"][winner]["down"])).pop()
            assert f"sun:{winner}:{new_sun}" in marks
            p, q = before["players"][winner], after["players"][winner]
            grew = [c for c in q["tiles"] if q["tiles"][c] > p["tiles"].get(c, 0)]
            assert all(f"tiles:{winner}:{c}" in marks for c in grew)
            assert f"won:{winner}" in marks  # its new face-down sun says it won
            seen.add("won")
        if after == before:
            assert marks == frozenset()
    assert seen == {"drawn", "won"}, "the playout should draw tiles and win lots"


@needs_engine
def test_the_board_marks_changes_only_with_a_previous_view() -> None:
    steps = _steps(2024, 4, 160)
    before, after = next((b, a) for b, a in steps if len(a["track"]) > len(b["track"]) and a["track"])
    bare = ra.board(after, NAMES[:4])
    marked = ra.board(after, NAMES[:4], previous=before)
    assert _mark_pixels(marked) > _mark_pixels(bare) + 200  # the bare board: the legend's swatch only
    assert ImageChops.difference(bare, ra.board(after, NAMES[:4], previous=after)).getbbox() is None


@needs_engine
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_end_names_each_rank_once(n: int) -> None:
    """Each final hand says its seat's rank and total; the final board's band names the winner;
    no text says "game over" (the header alone does, once); the final sheet fits the canvas."""
    from render.common import ordinal
    from render.ra.board import band_text
    from render.ra.hand import final_line

    engine, states = _playout(40 + n, n, {})
    final = engine.view(states[-1], None)
    out = final["outcome"]
    assert out is not None
    names = NAMES[:n]
    for seat in range(n):
        line = final_line(engine.view(states[-1], seat), names, seat)
        score = f"{out['scores'][seat]} pts"
        assert score in line, line
        if seat in out["winners"]:
            assert line.startswith("You won"), line
        else:
            assert f"{ordinal(out['ranks'][seat])} of {n}" in line, line
        assert "game over" not in line.lower()
        text = ra.text(engine.view(states[-1], seat), names)
        assert line in text and text.lower().count("game over") == 1, text
    band = band_text(final, names)
    assert names[out["winners"][0]] in band and "game over" not in band.lower()
    _check_size(ra.score_sheet(final, names))


@needs_engine
def test_reused_rows_draw_the_same_pixels_as_fresh_ones() -> None:
    """Seat rows are remembered by everything they show (render.ra.board.rows.RowSpec): a board
    drawn after other games' boards equals the same board drawn with no row remembered."""
    import sys

    rows = sys.modules["render.ra.board.rows"]
    steps = _steps(2024, 4, 120)[::7]
    cold = []
    for before, after in steps:
        rows.clear_rows()
        cold.append(ra.board(after, NAMES[:4], previous=before))
    for before, after in _steps(77, 4, 120)[::5]:  # other rows, other names
        ra.board(after, NAMES[1:5], previous=before)
    for (before, after), want in zip(steps, cold, strict=True):
        assert ra.board(after, NAMES[:4], previous=before).tobytes() == want.tobytes()
    assert len(rows._rows) <= rows.ROW_CACHE


def test_a_hand_with_many_actions_still_fits() -> None:
    """Five players in an auction, a three-line prompt and two rows of actions: the hand stays
    within MAX_HEIGHT, the table left out rather than the text shrunk."""
    from render.ra.hand import hand_image

    auction: AuctionView = {
        "ra_player": 0,
        "kind": "voluntary",
        "order": [1, 2, 3, 4, 0],
        "idx": 1,
        "high": {"sun": 9, "seat": 1},
        "bids": [{"seat": 1, "sun": 9}],
        "to_bid": [2, 3, 4, 0],
        "forced": False,
    }
    me: MeView = {
        "seat": 2,
        "score": 12,
        "legal": [f"bid {v}" for v in range(10, 17)] + ["pass"] * 6,
        "prompt": "High bid 9 (Bartholomew). Bid one of your suns above it or pass this auction. " * 3,
        "preview": {
            "Gods": 2,
            "Gold": 3,
            "Pharaohs": 5,
            "Nile & floods": 3,
            "Civilizations": -5,
            "Traders": 3,
            "Monuments": 6,
            "Suns": -5,
        },
    }
    v = _bidding(auction, me)
    assert hand_image(v, NAMES, table=False).height < MAX_HEIGHT
    _check_size(ra.hand(v, NAMES))
