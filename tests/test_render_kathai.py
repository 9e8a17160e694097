"""The Kathai renderer (render/kathai): images and text from views.

``sample_view`` builds hand-made views that follow ``engines.kathai.view.KathaiView`` exactly; it
covers layouts a random playout rarely reaches (five long names, a lock and an open offer with
every answer state at once, a full 7-card sale) and works while the engine is not there.
"""
from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from PIL import Image, ImageChops

from engines import base
from render.common import WIDTH, to_png

GOODS = ("gold", "salt", "silk", "spice", "tea")
PRICES = ((4, 7), (2, 5), (1, 3), (0, 1))
LONG = ["Bartholomew the Magnificent", "Ann", "Chidambaram Subramaniam", "Zoë", "Eve"]
GOLDEN = Path(__file__).parent / "golden"


def _cards() -> dict[str, dict[str, int]]:
    c: list[dict[str, int]] = [{g: n} for n, k in ((1, 2), (2, 2), (3, 1)) for g in GOODS
                               for _ in range(k)]
    c += [{a: 1, b: 1} for i, a in enumerate(GOODS) for b in GOODS[i + 1:]]
    c += [{a: 2, b: 1} for a in GOODS for b in GOODS if b != a]
    return {f"t{i}": d for i, d in enumerate(c, 1)}


CARDS = _cards()


def _key(cid: str) -> int:
    return int(cid[1:])


def _card(cid: str) -> dict[str, Any]:
    items = CARDS[cid]
    text = " + ".join(f"{k} {g}" for g, k in sorted(items.items(), key=lambda p: (-p[1], p[0])))
    return {"id": cid, "items": dict(items), "text": text}


def sample_view(seed: int = 0, n: int = 4, viewer: int | None = None, *, step: str = "reply",
                over: bool = False, lock: bool = True, offer: bool = True,
                final: bool = False, sale_cards: int = 4, hand_size: int | None = None
                ) -> dict[str, Any]:
    """A schema-exact Kathai view with seeded random contents (not a reachable state)."""
    rng = random.Random(seed)
    ids = sorted(CARDS, key=_key)
    rng.shuffle(ids)
    market = list(GOODS)
    rng.shuffle(market)
    hands = []
    for s in range(n):
        k = hand_size if hand_size is not None else rng.randint(1, 7)
        hands.append(sorted((ids.pop() for _ in range(k)), key=_key))
    active = rng.randrange(n)
    slots = [{"pos": p + 1, "goods": g, "bonus": PRICES[p][0] if p < 4 else None,
              "min": PRICES[p][1] if p < 4 else None, "sellable": p < 4}
             for p, g in enumerate(market)]
    sales = []
    for t in range(2 + n if over else 3):
        pos = rng.randint(1, 4)
        want = min(sale_cards if t == 2 else rng.randint(1, 4), len(ids) - 2)
        if want < 1:
            break
        cards = sorted((ids.pop() for _ in range(want)), key=_key)
        g = rng.choice(GOODS)
        sales.append({"seat": t % n, "turn": 3 * t + 1, "goods": g, "pos": pos, "cards": cards,
                      "kept": cards[0], "items": sum(CARDS[c].get(g, 0) for c in cards),
                      "count": len(cards), "bonus": PRICES[pos - 1][0],
                      "points": len(cards) + PRICES[pos - 1][0]})
    scores = [sum(x["points"] for x in sales if x["seat"] == s) for s in range(n)]
    fin = [rng.randint(0, 2) for _ in range(n)] if final or over else None
    if over:
        fin = [0] * n
    lk = None
    if lock:
        p = rng.randrange(4)
        by = (active + 1) % n
        lk = {"pair": market[p:p + 2], "positions": [p + 1, p + 2], "by": by,
              "card": "t7" if viewer == by else None}
    of = None
    if offer and not over:
        others = [s for s in range(n) if s != active]
        skipped = others[-1:] if n > 3 else []
        addressees = [s for s in others if s not in skipped]
        declined = addressees[:1]
        awaiting = addressees[1:]
        party = viewer is not None and (viewer == active or viewer in addressees)
        give = hands[active][:2]
        of = {"by": active, "to": "all", "addressees": addressees, "skipped": skipped,
              "awaiting": awaiting, "declined": declined, "give_count": len(give),
              "give": [_card(c) for c in give] if party else None, "want": "salt", "k": 1,
              "text": f"{{s{active}}} → all: {len(give)} cards for 1 salt"}
    if over:
        step = "over"
    elif not offer and step == "reply":
        step = "main"
    to_move = [] if over else (list(of["awaiting"]) if of and step == "reply" else [active])
    players = [{"seat": s, "hand_size": len(hands[s]), "profit": rng.randint(0, 3),
                "score": scores[s], "sales": sum(1 for x in sales if x["seat"] == s),
                "final_left": None if fin is None else fin[s], "active": s == active,
                "awaited": s in to_move} for s in range(n)]
    me = None
    if viewer is not None:
        hand = hands[viewer]
        totals = {g: sum(CARDS[c].get(g, 0) for c in hand) for g in GOODS}
        sell_now = []
        for slot in slots:
            g = slot["goods"]
            cards = sum(1 for c in hand if CARDS[c].get(g))
            can = slot["sellable"] and cards > 0 and totals[g] >= slot["min"]
            sell_now.append({"goods": g, "pos": slot["pos"], "min": slot["min"],
                             "items": totals[g], "cards": cards, "can_sell": can,
                             "points": cards + slot["bonus"] if can else 0})
        me = {"seat": viewer, "hand": [_card(c) for c in hand], "totals": totals,
              "sell_now": sell_now, "profit": players[viewer]["profit"],
              "received": hand[-1:], "lock_card": lk["card"] if lk else None,
              "offer_for_me": bool(of and viewer in of["awaiting"]),
              "eligible": [c for c in hand if CARDS[c].get("salt")] if of else [],
              "legal_count": 12}
    outcome = None
    sheet = None
    if over:
        order = sorted(range(n), key=lambda s: (-scores[s], -players[s]["profit"]))
        ranks = [0] * n
        for s in range(n):
            ranks[s] = 1 + sum(1 for t in range(n) if (scores[t], players[t]["profit"])
                               > (scores[s], players[s]["profit"]))
        outcome = {"ranks": ranks, "scores": scores, "categories": ["Cards sold", "Bonus"],
                   "breakdown": [{"Cards sold": sum(x["count"] for x in sales if x["seat"] == s),
                                  "Bonus": sum(x["bonus"] for x in sales if x["seat"] == s)}
                                 for s in range(n)],
                   "winners": [s for s in range(n) if ranks[s] == 1], "notes": [""] * n,
                   "profit": [p["profit"] for p in players], "reason": "pile"}
        del order
    who = "{s%d}" % active
    headline = ("Game over" if over else
                f"Turn 14 · {who} " + ("offered a trade" if step == "reply" else "to play"))
    return {
        "game": "kathai", "viewer": viewer, "n_players": n, "to_move": to_move, "over": over,
        "headline": headline,
        "options": {"first_player": "random", "free_asking": False, "allow_gifts": False,
                    "bribe_lock": "pair", "max_offers": 6, "turn_limit": 200},
        "step": step, "active": active, "turn_no": 14, "turn_limit": 200, "market": slots,
        "lock": lk, "pile": 0 if final or over else rng.randint(1, 40),
        "pile_low": bool(final or over), "discard_up": [c for x in sales for c in x["cards"][1:]],
        "discard_down": rng.randint(0, 6), "last_sale": sales[-1] if sales else None,
        "sales": sales, "players": players, "final": fin, "offers_used": 1 if of else 0,
        "max_offers": 6, "traded": False, "offer": of,
        "last": f"{who} offers a trade" if of else f"{who} sold salt", "me": me,
        "outcome": outcome, "sheet": sheet,
    }


# --------------------------------------------------------------------------- helpers

def _registered() -> bool:
    try:
        base.get("kathai")
    except base.BadOption:
        return False
    return True


needs_engine = pytest.mark.skipif(not _registered(), reason="engine kathai not registered yet")
MAX_PNG = 120 * 1024


def _engine() -> base.Engine:
    return base.get("kathai")


def _pick(rng: random.Random, legal: list[str]) -> str:
    """A random legal action: first a verb (uniformly), then one of its texts, so sells, bribes
    and buys happen although offers make up most of the list."""
    verbs = sorted({a.split()[0] for a in legal})
    verb = rng.choice(verbs)
    return rng.choice([a for a in legal if a.split()[0] == verb])


def playout(seed: int, n: int, opts: dict | None = None,
            stop: int | None = None) -> Iterator[Any]:
    """Every state of a seeded random playout, the start included, until the end or ``stop``
    actions."""
    engine = _engine()
    rng = random.Random(1000 + seed)
    state = engine.setup(seed, n, opts or {})
    yield state
    k = 0
    while engine.outcome(state) is None and (stop is None or k < stop):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, _pick(rng, engine.legal_actions(state, seat)))
        k += 1
        yield state


def _check_image(img: Image.Image, min_h: int = 300, png: bool = False) -> None:
    assert img.mode == "RGB" and img.width == WIDTH
    assert min_h <= img.height <= 2400, img.height
    if png:
        assert len(to_png(img)) <= MAX_PNG


def _check_text(s: str, names: list[str] | None = None) -> None:
    assert s.strip(), "empty text"
    assert "{s" not in s, "an unreplaced seat token"
    assert len(s) <= 1900, len(s)
    if names:
        assert names[0] in s


def _kathai():
    from render import kathai
    return kathai


# --------------------------------------------------------------------------- seeded playouts

PLAYOUTS = [(3, 3, {}), (4, 4, {}), (5, 5, {}), (4, 14, {"allow_gifts": True, "free_asking": True,
                                                         "bribe_lock": "goods"})]


@needs_engine
@pytest.mark.parametrize("n,seed,opts", PLAYOUTS, ids=[f"{n}p-s{s}" for n, s, _ in PLAYOUTS])
def test_every_step_of_playouts_renders(n, seed, opts):
    """Board and text (spectator view) and the awaited seats' hands at every step of a seeded
    game; every seat's hand and the PNG sizes every tenth step; the sheet at the end."""
    kathai = _kathai()
    engine = _engine()
    names = LONG[:n] if seed % 2 else None
    steps, offers, locks = 0, 0, 0
    for state in playout(seed, n, opts):
        spectator = engine.view(state, None)
        offers += bool(spectator["offer"])
        locks += bool(spectator["lock"])
        full = steps % 12 == 0
        _check_image(kathai.board(spectator, names), min_h=700, png=full)
        _check_text(kathai.text(spectator, names), names)
        for seat in (range(n) if full else engine.to_move(state)):
            mine = engine.view(state, seat)
            _check_image(kathai.hand(mine, names), png=full)
            _check_text(kathai.text(mine, names), names)
        steps += 1
    assert engine.outcome(state) is not None and steps > 20
    assert offers and locks, "the playout should show offers and locks"
    final = engine.view(state, None)
    assert final["over"] and final["outcome"]
    sheet = kathai.score_sheet(final, names)
    _check_image(sheet, min_h=200, png=True)
    _check_image(kathai.board(final, names), png=True)
    t = kathai.text(final, names)
    _check_text(t, names)
    assert "Result" in t
    for seat in range(n):
        _check_image(kathai.hand(engine.view(state, seat), names), png=True)


@needs_engine
def test_rendering_is_deterministic_and_pure():
    """Same view -> same bytes; rendering never changes the view; a JSON copy renders the same
    (the renderers read nothing but plain view data)."""
    kathai = _kathai()
    engine = _engine()
    states = list(playout(7, 4, stop=80))
    for state in (states[25], states[-1]):
        for viewer in (None, 0, 2):
            v = engine.view(state, viewer)
            before = json.dumps(v, sort_keys=True)
            clone = json.loads(before)
            if viewer is None:
                assert to_png(kathai.board(v)) == to_png(kathai.board(copy.deepcopy(clone)))
            else:
                assert to_png(kathai.hand(v)) == to_png(kathai.hand(clone))
            assert kathai.text(v) == kathai.text(clone)
            assert json.dumps(v, sort_keys=True) == before, "rendering changed the view"


@needs_engine
def test_hand_is_made_from_that_seats_view_only():
    """A seat's hand image depends on nothing but ``view(state, seat)``: it shows that seat's
    cards (and no other seat's), it is the same whatever the other seats hold, and a spectator
    view gives a short notice instead."""
    kathai = _kathai()
    engine = _engine()
    state = next(st for st in playout(4, 4) if engine.view(st, None)["offer"]
                 and engine.view(st, None)["turn_no"] > 6)
    for seat in range(4):
        v = engine.view(state, seat)
        own = {c["id"] for c in v["me"]["hand"]}
        assert v["me"]["seat"] == seat
        text = kathai.text(v)
        others = set()
        for t in range(4):
            if t != seat:
                others |= {c["id"] for c in engine.view(state, t)["me"]["hand"]}
        shown = set(__import__("re").findall(r"\bt\d+\b", text))
        visible = own | set(v["discard_up"]) | {c for s in v["sales"] for c in s["cards"]}
        if v["offer"] and v["offer"]["give"]:
            visible |= {c["id"] for c in v["offer"]["give"]}
        assert shown <= visible, shown - visible
        assert own <= shown
        # everything outside this seat's view is irrelevant: scramble what the seat cannot see
        img = to_png(kathai.hand(v))
        assert img == to_png(kathai.hand(json.loads(json.dumps(v))))
    notice = kathai.hand(engine.view(state, None))
    assert notice.width == WIDTH and notice.height < 300


# --------------------------------------------------------------------------- hand-made views

@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("kind", ["offer", "final", "over", "plain"])
def test_sample_views_every_layout(n, kind):
    """Edge cases a random game rarely shows: long names, every answer state of an `all`
    offer, a 7-card sale, final turns, a lock at each end of the row."""
    kathai = _kathai()
    kw = {"offer": dict(offer=True), "final": dict(final=True, offer=False),
          "over": dict(over=True), "plain": dict(offer=False, lock=False)}[kind]
    for seed, names in enumerate((LONG[:n], None, ["x" * 60] * n,
                                  ["Ann", "Anna", "Annie", "Ann", "A"][:n])):
        if True:
            v = sample_view(seed, n, sale_cards=7, **kw)
            _check_image(kathai.board(v, names), min_h=700, png=True)
            _check_text(kathai.text(v, names))
            for viewer in range(n):
                mine = sample_view(seed, n, viewer=viewer, sale_cards=7, hand_size=7, **kw)
                _check_image(kathai.hand(mine, names), png=True)
                _check_text(kathai.text(mine, names))
            _check_image(kathai.score_sheet(v, names), min_h=200, png=True)


def test_text_stays_under_the_discord_limit_in_the_worst_case():
    kathai = _kathai()
    v = sample_view(1, 5, viewer=2, hand_size=7, sale_cards=7)
    t = kathai.text(v, ["W" * 32] * 5)
    _check_text(t)
    over = sample_view(1, 5, over=True, sale_cards=7)
    _check_text(kathai.text(over, ["W" * 32] * 5))


def test_nothing_is_drawn_below_20px(monkeypatch):
    """The phone rule: a 1000 px board is seen at ~380 px, so no type below 20 px anywhere."""
    import importlib

    common, art, board, hand, sheet, offer = (importlib.import_module(m) for m in (
        "render.common", "render.kathai.art", "render.kathai.board", "render.kathai.hand",
        "render.kathai.sheet", "render.kathai.offer"))
    kathai = _kathai()
    sizes: list[int] = []
    real = common.font

    def spy(size, bold=False, condensed=False):
        sizes.append(size)
        return real(size, bold, condensed)

    for mod in (common, art, board, hand, sheet, offer):
        monkeypatch.setattr(mod, "font", spy)
    for n in (3, 5):
        for kw in (dict(), dict(final=True, offer=False), dict(over=True)):
            kathai.board(sample_view(2, n, sale_cards=7, **kw), LONG[:n])
            kathai.hand(sample_view(2, n, viewer=1, hand_size=7, **kw), LONG[:n])
            kathai.score_sheet(sample_view(2, n, over=True), LONG[:n])
    assert sizes and min(sizes) >= 20, sorted(set(sizes))[:5]


def test_seat_tags_and_goods_letters_tell_seats_and_goods_apart():
    """The second cues: seat initials are unique (else two letters, else numbers), and every
    goods has its own letters."""
    from render.kathai.art import GOODS_ABBR, seat_tags

    assert seat_tags(["Ann", "Bob", "Cy"]) == ["A", "B", "C"]
    assert seat_tags(["Ann", "Anna", "Bob"]) == ["1", "2", "3"] or len(
        set(seat_tags(["Ann", "Anna", "Bob"]))) == 3
    assert seat_tags(["Seat 1", "Seat 2", "Seat 3"]) == ["1", "2", "3"]
    assert len(set(GOODS_ABBR.values())) == 5


@needs_engine
def test_card_data_matches_the_engine():
    from engines.kathai import data
    from render.kathai.art import CARDS as RCARDS

    assert RCARDS == {k: dict(v) for k, v in data.CARDS.items()} == CARDS


# --------------------------------------------------------------------------- golden image

def _diff(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, fraction of pixels off by more than 64)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    hist = diff.histogram()
    total = a.width * a.height
    mean = sum(i * c for k in range(3) for i, c in enumerate(hist[256 * k: 256 * (k + 1)]))
    mean /= total * 3
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)
    far = sum(worst.histogram()[65:])
    return mean, far / total


MAX_MEAN = 1.0
MAX_FAR = 0.001


def _close(a: Image.Image, b: Image.Image) -> tuple[bool, str]:
    if a.size != b.size:
        return False, f"size {a.size} != {b.size}"
    mean, far = _diff(a, b)
    return mean < MAX_MEAN and far < MAX_FAR, f"mean {mean:.3f}, {far:.3%} of pixels off by > 64"


GOLDEN_CASES = [("kathai_board_4p", 4, 4, 96, {})]  # an `all` offer, a lock, a sale


def _golden_board(seed: int, n: int, moves: int, opts: dict) -> Image.Image:
    state = list(playout(seed, n, opts, stop=moves))[-1]
    return _kathai().board(_engine().view(state, None), LONG[:n])


@needs_engine
@pytest.mark.parametrize("name,seed,n,moves,opts", GOLDEN_CASES)
def test_golden_board(name, seed, n, moves, opts):
    """A fixed seed, player count and number of random moves -> the stored board image.
    Regenerate with BAZAAR_UPDATE_GOLDEN=1 (the test then writes the file and skips)."""
    img = _golden_board(seed, n, moves, opts)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("BAZAAR_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        img.save(path, format="PNG", optimize=True)
        pytest.skip(f"wrote {path}")
    if not path.exists():
        pytest.skip(f"{path} not written yet: run with BAZAAR_UPDATE_GOLDEN=1")
    with Image.open(path) as golden:
        ok, why = _close(img, golden)
    assert ok, f"board differs from {path.name}: {why}"


@needs_engine
@pytest.mark.parametrize("name,seed,n,moves,opts", GOLDEN_CASES)
def test_golden_tolerance_sees_one_move(name, seed, n, moves, opts):
    """The tolerance is tight enough that the board one move earlier or later does not pass."""
    path = GOLDEN / f"{name}.png"
    if not path.exists():
        pytest.skip("golden image not written yet")
    with Image.open(path) as opened:
        want = opened.copy()
    for k in (moves - 1, moves + 1):
        ok, why = _close(_golden_board(seed, n, k, opts), want)
        assert not ok, f"the board after {k} moves passes as the golden one ({why})"


# --------------------------------------------------------------------------- what changed

def _public_steps(seed: int, n: int, stop: int | None = None):
    """(previous public view, public view) of every move of a seeded random playout."""
    engine = _engine()
    views = [engine.view(s, None) for s in playout(seed, n, stop=stop)]
    return list(zip(views, views[1:]))


@needs_engine
def test_changes_name_the_sale_the_moved_goods_and_the_answers():
    from render.kathai import changes

    seen = set()
    for before, after in _public_steps(4, 4):
        marks = changes(before, after)
        assert changes(None, after) == frozenset()
        moved = {f"market:{a['pos']}" for a, b in zip(before["market"], after["market"])
                 if a["goods"] != b["goods"]}
        assert {m for m in marks if m.startswith("market:")} == moved
        if len(after["sales"]) > len(before["sales"]):
            seller = after["last_sale"]["seat"]
            assert {"sale", f"score:{seller}"} <= marks and moved, marks
            seen.add("sale")
        elif before["offer"] and after["offer"] and before["offer"]["by"] == after["offer"]["by"]:
            for s in set(before["offer"]["awaiting"]) - set(after["offer"]["awaiting"]):
                assert f"answer:{s}" in marks
                seen.add("answer")
        for s, (p, q) in enumerate(zip(before["players"], after["players"])):
            assert (f"hand:{s}" in marks) == (p["hand_size"] != q["hand_size"])
    assert seen == {"sale", "answer"}


@needs_engine
def test_the_board_marks_changes_only_with_a_previous_view():
    from render.kathai import changes
    from render.common import MARK

    def marked_pixels(img: Image.Image) -> int:
        return sum(k for k, colour in img.getcolors(1 << 24) if colour == MARK)

    kathai = _kathai()
    before, after = next((b, a) for b, a in _public_steps(4, 4) if "sale" in changes(b, a))
    bare, marked = kathai.board(after, LONG[:4]), kathai.board(after, LONG[:4], previous=before)
    assert marked_pixels(bare) == 0
    assert marked_pixels(marked) > 500
    assert to_png(kathai.board(after, LONG[:4], previous=after)) == to_png(bare)
