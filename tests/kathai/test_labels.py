"""The labels the Kathai board draws on what changed (``render.kathai.labels``: "sold by",
"locked by", "offer by", "declined", "accepted", "moved", "drawn", the score, hand and profit
changes) proved against the move log.

Seeded whole games at 3, 4 and 5 players (the AI seats' moves with random ones between) are cut
into batches of one to four moves, as the bot posts a board after one move or after a few; for
each board the labels against the previous board must agree with the moves of the batch and the
engine's states (which the renderer never sees: it gets only the two public views)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from engines import base
from engines.kathai import ENGINE as E
from engines.kathai.view import KathaiView
from render.common import signed
from render.kathai import labels

NAMES = ["Asha", "Bilal", "Chen", "Dara", "Emeka"]
SEEDS = (1, 2, 3)


@dataclass
class Board:
    """One posted board: the views before and after, the moves between, the hand sizes."""

    previous: KathaiView
    view: KathaiView
    moves: list[tuple[int, str]] = field(default_factory=list)  # (seat, action) in order
    batch: int = 1

    def last(self, verb: str) -> int | None:
        """The seat that made the last ``verb`` move of the batch, None if nobody did."""
        seats = [s for s, a in self.moves if a.split()[0] == verb]
        return seats[-1] if seats else None

    def who(self, verb: str) -> str:
        """The name of the seat that made the last ``verb`` move of the batch."""
        seat = self.last(verb)
        assert seat is not None, (verb, self.moves)
        return NAMES[seat]

    def made(self, verb: str, seat: int | None = None) -> bool:
        return any(a.split()[0] == verb and (seat is None or s == seat) for s, a in self.moves)


def boards(seed: int, n: int) -> list[Board]:
    """Every board of a seeded whole game, posted after batches of 1–4 moves (single moves for
    odd seeds: every move is a board)."""
    engine = E
    rng = random.Random(seed * 31 + n)
    state = engine.setup(seed, n, {})
    out: list[Board] = []
    current = Board(engine.view(state, None), engine.view(state, None))
    size = 1
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        legal = engine.legal_actions(state, seat)
        if rng.random() < 0.6:
            action = engine.choose(engine.view(state, seat), legal)
        else:  # a verb first, then one of its moves: sells and bribes happen despite the offers
            verb = rng.choice(sorted({a.split()[0] for a in legal}))
            action = rng.choice([a for a in legal if a.split()[0] == verb])
        state, _ = engine.apply(state, seat, action)
        current.moves.append((seat, action))
        if len(current.moves) >= size or engine.outcome(state) is not None:
            current.view = engine.view(state, None)
            current.batch = size
            out.append(current)
            current = Board(current.view, current.view)
            size = 1 if seed % 2 else rng.randint(1, 4)
    return out


def check(b: Board, n: int) -> set[str]:
    """Asserts every label of the board against the batch; returns the kinds of label seen."""
    got = dict(labels(b.previous, b.view, NAMES[:n]))
    seen = set()
    assert len(got) == len(labels(b.previous, b.view, NAMES[:n])), "one label per thing"
    for thing, label in got.items():
        kind = thing.split(":")[0]
        seen.add(kind if kind != "answer" else label)
        if thing == "sale":
            assert label == f"sold by {b.who('sell')}", (label, b.moves)
        elif thing == "lock":
            assert label == f"locked by {b.who('bribe')}", (label, b.moves)
        elif thing == "offer":
            assert label == f"offer by {b.who('offer')}", (label, b.moves)
        elif kind == "answer":
            s = int(thing.split(":")[1])
            verb = {"declined": "decline", "accepted": "accept"}[label]
            assert b.made(verb, s), (thing, label, b.moves)
        elif kind == "market":
            assert label == "moved" and (b.made("sell") or b.made("bribe")), b.moves
        elif thing == "pile":
            assert label == "drawn" and b.view["pile"] < b.previous["pile"]
        else:  # hand / profit / score: the change, signed
            s = int(thing.split(":")[1])
            now, was = b.view["players"][s], b.previous["players"][s]
            change = {
                "hand": now["hand_size"] - was["hand_size"],
                "profit": now["profit"] - was["profit"],
                "score": now["score"] - was["score"],
            }[kind]
            assert label == signed(change)
            if kind == "score":
                new = b.view["sales"][len(b.previous["sales"]) :]
                assert label == signed(sum(x["points"] for x in new if x["seat"] == s))
                assert b.made("sell", s)
    # and the other way: what the moves did is labelled
    if b.made("sell"):
        assert "sale" in got and ("market:5" in got or b.batch > 1), (got, b.moves)
        assert f"score:{b.last('sell')}" in got
    if b.made("bribe") and b.view["lock"] and b.view["lock"] != b.previous["lock"]:
        assert got.get("lock") == f"locked by {NAMES[b.view['lock']['by']]}"
    if b.made("offer") and b.view["offer"] and b.view["offer"] != b.previous["offer"]:
        assert got.get("offer") == f"offer by {NAMES[b.view['offer']['by']]}"
    of = b.previous["offer"]
    closed = of and not b.view["offer"]
    equal = of and b.previous["traded"] and of["give_count"] == of["k"]  # looks like a trade
    if b.batch == 1 and b.moves[0][1].split()[0] == "decline" and not (closed and equal):
        assert got.get(f"answer:{b.moves[0][0]}") == "declined", (got, b.moves)
    accepted = b.batch == 1 and b.moves[0][1].split()[0] == "accept"
    if accepted and of is not None and (len(of["awaiting"]) == 1 or of["give_count"] != of["k"]):
        assert got.get(f"answer:{b.moves[0][0]}") == "accepted", (got, b.moves)
    moved = {p for p in range(5) if b.view["market"][p]["goods"] != b.previous["market"][p]["goods"]}
    assert {f"market:{p + 1}" for p in moved} == {t for t in got if t.startswith("market:")}
    return seen


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_label_of_whole_games_agrees_with_the_move_log(n: int) -> None:
    seen: set[str] = set()
    count = 0
    for seed in SEEDS:
        for b in boards(seed, n):
            seen |= check(b, n)
            count += 1
    assert count > 100
    assert {"sale", "lock", "offer", "declined", "accepted", "market", "pile", "score", "hand"} <= seen, seen


def test_the_first_board_has_no_labels() -> None:
    engine = base.get("kathai")
    view = engine.view(engine.setup(1, 4, {}), None)
    assert labels(None, view) == []
    assert labels(view, view) == []


def test_the_board_draws_each_label() -> None:
    """What ``labels`` returns is what the board prints: a sale, a lock and an answer are drawn
    (the spy sees their words on the board drawn with the previous view, not without)."""
    from PIL import ImageDraw

    from render.kathai import board

    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(d: ImageDraw.ImageDraw, xy: Any, s: Any, *a: Any, **kw: Any) -> None:
        drawn.append(str(s))
        real(d, xy, s, *a, **kw)

    found = {"sold": False, "declined": False, "moved": False}
    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign,assignment]
    try:
        for b in boards(1, 4):
            got = dict(labels(b.previous, b.view, NAMES[:4]))
            drawn.clear()
            board(b.view, NAMES[:4], b.previous)
            text = " | ".join(drawn)
            if "sale" in got:
                assert "just sold" in text
                found["sold"] = True
            for thing, label in got.items():
                if thing.startswith("answer:") and label == "declined":
                    assert "declined" in text
                    found["declined"] = True
                if thing.startswith("market:"):
                    assert "moved" in text
                    found["moved"] = True
                if thing.startswith("score:"):
                    assert label in drawn
    finally:
        ImageDraw.ImageDraw.text = real  # type: ignore[method-assign]
    assert all(found.values()), found
