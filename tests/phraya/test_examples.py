"""Phraya's worked examples (docs/rules/phraya.md#examples): the rulebook's example turn (E1), its 85 VP
scoring example (E2) and the rulings' examples E3-E12."""

from __future__ import annotations

import pytest

from engines.base import BadOption
from engines.phraya import ENGINE as E
from engines.phraya import data, scoring
from engines.phraya import legal as flow
from engines.phraya.data import GI
from engines.phraya.positions import SEAT, build, seats
from engines.phraya.state import (
    ACT,
    CARD,
    MOVE,
    OVER,
    PREMOVE,
    REFRESH,
    Opts,
    State,
    capacity,
    price,
    temple_cost,
)
from engines.phraya.state import conditions as state_conditions
from engines.phraya.state.setup import new_game

P, O, W, B = SEAT["P"], SEAT["O"], SEAT["W"], SEAT["B"]  # noqa: E741 (the seats as the rules write them)


def play(s: State, *actions: str) -> State:
    for a in actions:
        seat = E.to_move(s)[0]
        assert a in E.legal_actions(s, seat), (a, E.legal_actions(s, seat))
        s, _ = E.apply(s, seat, a)
        E.invariants(s)
    return s


def legal(s: State) -> list[str]:
    return E.legal_actions(s, E.to_move(s)[0])


def e1(extra_hand: tuple[str, ...] = ()) -> State:
    return build(
        4,
        boats={P: "h12", O: "v22", W: "h01", B: "h20"},
        barge="x21",
        owners={"h22s": B},
        merchant=1,
        prices={"veg": 6, "fish": 6},
        orders_on={"h22n": "r2a", "h02s": "r1c", "h01s": "r1a", "h21n": "r1b"},
        players={
            P: {
                "coins": 6,
                "goods": {"fish": 2, "meat": 1},
                "baskets": ("p1", "p2", "k04"),
                "hand": ("b1", "b2", "m01", *extra_hand),
                "discard": ("b3", "b4", "b5"),
            }
        },
        king={"c1": W, "c2": O, "f1": P, "f2": W, "g1": P, "g2": W},
    )


def e2() -> State:
    temple = {
        "meat": seats("O W P O W B P -"),
        "fruit": seats("O B P O W"),
        "veg": seats("O W B W"),
        "fish": [],
    }
    king = {}
    for row, text in (("c", "O W P O W B"), ("f", "O W"), ("g", "O W P")):
        for i, q in enumerate(seats(text)):
            king[f"{row}{i + 1}"] = q
    owners = {
        "h00s": O,
        "h03s": O,
        "h02n": O,
        "h12n": W,
        "v03w": W,
        "h11n": W,
        "h20n": W,
        "h12s": P,
        "h01n": P,
        "h22s": B,
        "v02e": B,
        "h11s": B,
        "h23n": B,
    }
    zero: dict[str, object] = {"coins": 0}
    return build(
        4,
        owners=owners,
        temple=temple,
        king=king,
        prices={"fish": 7},
        players={
            O: {
                "coins": 3,
                "goods": {"fish": 2},
                "baskets": ("p1", "p2", "k16"),
                "orders": ("r1a", "r3a", "r3e"),
                "hand": ("b1", "b2", "b3", "b4", "b5", "m01", "m22", "m03"),
            },
            P: zero,
            W: zero,
            B: zero,
        },
        boats={P: "h00", O: "h03", W: "h20", B: "h23"},
    )


def test_e1_the_rulebook_example_turn() -> None:
    s = e1()
    E.invariants(s)
    s = play(s, "play m01")
    assert legal(s) == ["merchant +1", "merchant +2", "merchant -1", "merchant -2"]
    s = play(s, "merchant +1")
    assert s.merchant == 2
    assert legal(s) == ["price fish +2 veg -2", "price veg +2 fish -2"]
    s = play(s, "price fish +2 veg -2")
    assert price(s, "fish") == 8 and price(s, "veg") == 4 and s.players[P].coins == 8
    assert s.step == MOVE
    assert [a.split()[1] for a in legal(s)] == [
        "h02",
        "h03",
        "h10",
        "h11",
        "h13",
        "h22",
        "h23",
        "v01",
        "v02",
        "v10",
        "v11",
        "v12",
        "v20",
        "v21",
        "v23",
    ]
    s = play(s, "move h22")
    assert legal(s) == ["buy h22s 1", "buy h22s 2", "end", "king c3", "king g4"]
    assert capacity(s.players[P])[GI["veg"]] == 2
    s = play(s, "buy h22s 2")
    assert s.players[P].coins == 0 and s.players[P].goods[GI["veg"]] == 2
    assert s.players[B].flowers == 1
    s = play(s, "deliver")
    assert s.players[P].coins == 13 and s.players[P].orders == ("r2a",)
    assert s.orders_on[s.board.restaurants.index("h22n")] not in ("", "r2a")
    assert legal(s) == ["end", "king c3", "king c4", "king c5"]
    s = play(s, "king c3")
    # only `end` was left: the turn ended by itself
    assert s.step == CARD and s.cur == O
    p = s.players[P]
    assert (p.coins, p.goods, p.favors, p.orders) == (5, (0, 0, 2, 0), 1, ("r2a",))
    assert price(s, "veg") == 4 and price(s, "fish") == 8
    kd = scoring.king_disks(s, P)
    assert kd == {"c": 1, "f": 1, "g": 1}
    assert sum(kd.values()) == sum(scoring.king_disks(s, W).values()) == 3


def test_e2_the_85_vp_scoring_example() -> None:
    s = e2()
    assert state_conditions(s)[:2] == (True, True)
    from engines.phraya.apply.ending import finish

    s = finish(s, [], "Royal Tithe and Buddha worshipped")
    E.invariants(s)
    assert s.players[O].coins == 17
    rows = scoring.sheet(s)
    want = {
        O: dict(
            coins=3,
            temple_offerings=18,
            temple_majority=8,
            orders=12,
            cards=11,
            king_majority=9,
            king_sets=8,
            stalls=16,
        ),
        W: dict(
            coins=0,
            temple_offerings=17,
            temple_majority=5,
            orders=0,
            cards=0,
            king_majority=9,
            king_sets=8,
            stalls=19,
        ),
        P: dict(
            coins=0,
            temple_offerings=13,
            temple_majority=0,
            orders=0,
            cards=0,
            king_majority=0,
            king_sets=0,
            stalls=11,
        ),
        B: dict(
            coins=0,
            temple_offerings=10,
            temple_majority=-2,
            orders=0,
            cards=0,
            king_majority=0,
            king_sets=0,
            stalls=21,
        ),
    }
    for q, row in want.items():
        assert rows[q] == row, (q, rows[q])
    out = scoring.outcome(s)
    assert out.scores[O] == 85 and out.scores[W] == 58 and out.scores[P] == 24 and out.scores[B] == 29
    assert out.winners == (O,) and out.ranks == (4, 1, 2, 3)


def test_e3_setup() -> None:
    s = E.setup(1, 4, {})
    order = [(s.first + k) % 4 for k in range(4)]
    assert [s.players[q].coins for q in order] == [8, 9, 10, 11]
    assert all(p.stalls_left == 5 for p in s.players)
    assert len(s.display) == 4 and len(s.deck) == 21 and len(s.bag) == 14
    assert [len(x) for x in s.stacks] == [1, 5, 5, 5]
    s2 = E.setup(1, 2, {})
    assert all(p.stalls_left == 7 for p in s2.players)
    assert [len(x) for x in s2.stacks] == [0, 4, 4, 4] and len(s2.removed) == 4
    with pytest.raises(BadOption):
        E.setup(1, 2, {"round_limit": 0})


def test_e3_starting_boats_coins() -> None:
    # find a seed whose dealt prices are (2,3), (4,5), (3,4), (5,6) is not needed: check the rule
    s = E.setup(3, 4, {"starting_boats": True})
    assert len(s.bag) == 6
    order = [(s.first + k) % 4 for k in range(4)]
    vals = {}
    for q in order:
        a, b = s.players[q].baskets
        vals[q] = -(-(data.BASKET_TILES[int(a[1:]) - 1][2] + data.BASKET_TILES[int(b[1:]) - 1][2]) // 2)
    top = max(vals.values())
    for k, q in enumerate(order):
        assert s.players[q].coins == 8 + k + top - vals[q]
    # docs/rules/phraya.md#example-e3: prices (2,3) (4,5) (3,4) (5,6) -> values 3 5 4 6 -> extra 3 1 2 0
    v = [-(-(a + b) // 2) for a, b in ((2, 3), (4, 5), (3, 4), (5, 6))]
    assert v == [3, 5, 4, 6] and [max(v) - x for x in v] == [3, 1, 2, 0]


def test_e3_setup_rng_calls() -> None:
    import random

    rng = random.Random(5)
    first = rng.randrange(3)
    cards = [f"m{i:02d}" for i in range(1, 26)]
    rng.shuffle(cards)
    s = new_game(5, 3, Opts())
    assert s.first == first and s.display == tuple(cards[:4]) and s.deck == tuple(cards[4:])
    rng = random.Random(5)
    t = ["A", "B", "C", "D"]
    rng.shuffle(t)
    sides = ["ab"[rng.randrange(2)] for _ in range(4)]
    s = new_game(5, 3, Opts(layout="random"))
    assert s.layout == tuple(zip(("NW", "NE", "SE", "SW"), t, sides, strict=True))


def test_e4_return_to_pier() -> None:
    s = build(
        4,
        boats={P: "h12"},
        fill_boats=True,
        players={P: {"coins": 0, "hand": ("b1", "m05"), "discard": ("b2", "b3", "b4", "b5")}},
    )
    s = play(s, "play b1")
    assert s.players[P].coins == 5 and len(s.players[P].hand) == 6 and s.step == REFRESH
    disp, top = s.display, s.deck[0]
    s = play(s, "refresh")
    assert s.display == (*disp[1:], top) and s.deck[-1] == disp[0]
    assert s.step == CARD and s.cur == O and s.boats[P] == "h12"


def test_e5_temple_costs() -> None:
    # P at h00, whose north bank is a Temple
    s = build(
        4,
        boats={P: "h00"},
        temple={"meat": [O, W, B]},
        step=ACT,
        players={P: {"coins": 0, "flowers": 1, "goods": {"meat": 1}}},
    )
    assert temple_cost(s, "meat") == 2
    assert not any(a.startswith("temple meat") for a in legal(s))
    s = build(
        4,
        boats={P: "h00"},
        temple={"meat": [O, W, B]},
        step=ACT,
        players={P: {"coins": 0, "flowers": 1, "favors": 1, "goods": {"meat": 1}}},
    )
    assert "temple meat favor" in legal(s) and "temple meat" not in legal(s)
    s = build(
        4,
        boats={P: "h00"},
        temple={"meat": [O, W, B]},
        step=ACT,
        passives=("temple-2",),
        players={P: {"coins": 0, "flowers": 1, "favors": 1, "goods": {"meat": 1}}},
    )
    assert temple_cost(s, "meat") == 0
    assert "temple meat" in legal(s) and "temple meat favor" not in legal(s)


def test_e5_via_monks_blessing() -> None:
    s = build(
        4,
        boats={P: "h01"},
        temple={"meat": [O, W, B]},
        fill_boats=True,
        players={
            P: {
                "coins": 0,
                "flowers": 1,
                "goods": {"meat": 1},
                "hand": ("b1", "m17"),
                "discard": ("b2", "b3", "b4", "b5"),
            }
        },
    )
    s = play(s, "play m17", "move h00")
    assert "temple meat" in legal(s)
    s = play(s, "temple meat")
    assert s.players[P].flowers == 1 and s.temple[0] == (O, W, B, P)


def test_e6_majority_ties() -> None:
    assert scoring.majority([1, 2, 2, 0], 14, 7) == [0, 11, 11, 0]
    assert scoring.majority([1, 3, 0, 1], 10, 5) == [3, 10, 0, 3]  # B3 P1 O1 (seat order O B W P)
    assert scoring.majority([3, 3, 3, 0], 12, 6) == [6, 6, 6, 0]
    assert scoring.majority([4, 2, 2], 12, 6) == [12, 3, 3]
    # fruit: O one stall + m03 vs P one stall -> O 12, P 6
    s = build(4, owners={"h03s": O, "h12s": P}, players={O: {"hand": ("b1", "b2", "b3", "b4", "b5", "m03")}})
    rows = scoring.sheet(s)
    assert rows[O]["stalls"] == 12 and rows[P]["stalls"] == 6
    s = build(4, king={"c3": P, "f2": P, "g1": P, "c2": O, "f1": O})
    rows = scoring.sheet(s)
    assert rows[P]["king_sets"] == 8 and rows[O]["king_sets"] == 0


def test_e7_temple_sections() -> None:
    a, b_, c, d = 0, 1, 2, 3
    s = build(4, temple={"meat": [a, b_, c, a, a, b_, c], "fish": [b_, a]})
    rows = scoring.sheet(s)
    assert [rows[q]["temple_majority"] for q in (a, b_, c, d)] == [10, 3, 0, -13]
    assert [rows[q]["temple_offerings"] for q in (a, b_, c)] == [19, 14, 10]


def test_e8_blocked() -> None:
    s = build(4, boats={P: "v13"}, barge="x21")
    assert flow.is_blocked(s, P)
    assert legal(s) == ["play b4", "play b5"]
    s2 = build(
        4, boats={P: "v13"}, barge="x21", players={P: {"hand": ("b1", "b2"), "discard": ("b3", "b4", "b5")}}
    )
    assert legal(s2) == ["play b1"]
    s = play(s, "play b4")
    assert legal(s) == ["barge x11", "barge x20", "barge x22"]
    s = play(s, "barge x11")
    assert s.step == MOVE
    assert [a.split()[1] for a in legal(s)] == ["h20", "h21", "h22", "h23", "v02", "v03", "v12", "v22", "v23"]


def test_e8_blocked_allow_retrieve() -> None:
    s = build(4, boats={P: "v13"}, barge="x21", opts=Opts(blocked_allow_retrieve=True))
    assert legal(s) == ["play b1", "play b4", "play b5"]


def test_e9_blessing() -> None:
    s = build(4, boats={P: "h23"}, barge="x01", owners={"h11n": O, "h12n": O, "v11w": W, "v02e": B})
    s = play(s, "play b4")
    assert legal(s) == ["barge x00", "barge x02", "barge x11"]
    s = play(s, "barge x11")
    assert [s.players[q].flowers for q in (O, W, B)] == [2, 1, 0]
    s = build(
        4,
        boats={P: "h23"},
        barge="x01",
        players={P: {"hand": ("b1", "m12"), "discard": ("b2", "b3", "b4", "b5")}},
    )
    s = play(s, "play m12")
    assert legal(s) == ["barge x10", "barge x12", "barge x21"]


def test_e10_immediate_end() -> None:
    king = {f"c{i}": O for i in range(1, 7)}
    s = build(
        4,
        boats={P: "h10"},
        king=king,
        step=ACT,
        prices={"meat": 6},
        owners={"h11n": P, "h11s": P, "h12n": P, "h12s": P},
        players={P: {"coins": 12, "goods": {"meat": 1}}},
    )
    assert state_conditions(s) == (True, False, False)
    assert "sell h10s 1" in legal(s)
    s = play(s, "stall v12w")
    assert s.step == OVER and E.outcome(s) is not None
    assert s.players[P].coins == 8 and s.players[P].goods == (0, 0, 0, 0)


def test_e11_prices() -> None:
    hand = ("b1", "m06")
    disc = ("b2", "b3", "b4", "b5")
    # v12e is a veg* stall on v12 (x11-x21); P at h11 moves there after m06
    s = build(
        4,
        boats={P: "h11"},
        barge="x00",
        fill_boats=True,
        owners={"v12e": O},
        prices={"veg": 5},
        players={
            P: {"coins": 2, "favors": 1, "hand": hand, "discard": disc, "baskets": ("p1", "p2", "k01", "k04")}
        },
    )
    s = play(s, "play m06", "merchant +1")
    a, b_ = data.MERCHANT_ROUTE[1]
    s = play(s, f"price {a} +1 {b_} -1")
    s = play(s, "move v12")
    assert capacity(s.players[P])[GI["veg"]] == 3
    acts = legal(s)
    assert "buy v12e 3 favor 1" in acts and "buy v12e 3" not in acts
    flowers = s.players[O].flowers
    s = play(s, "buy v12e 3 favor 1")
    assert s.players[P].coins == 0 and s.players[O].flowers == flowers + 1
    # veg at its maximum: +1 keeps it at 7 and fruit drops one box
    s = build(
        4,
        boats={P: "h12"},
        merchant=11,
        fill_boats=True,
        prices={"veg": 7, "fruit": 5},
        players={P: {"hand": ("b1", "b2"), "discard": ("b3", "b4", "b5")}},
    )
    s = play(s, "play b2", "merchant +1")
    assert "price veg +1 fruit -1" in legal(s)
    s = play(s, "price veg +1 fruit -1")
    assert price(s, "veg") == 7 and price(s, "fruit") == 4
    # m03 with merchant 0 changes the goods of the current space
    s = build(
        4,
        boats={P: "h12"},
        fill_boats=True,
        players={P: {"hand": ("b1", "m03"), "discard": ("b2", "b3", "b4", "b5")}},
    )
    s = play(s, "play m03")
    assert "merchant 0" in legal(s)
    s = play(s, "merchant 0")
    assert legal(s) == ["price fruit +2 veg -1", "price veg +2 fruit -1"]


def test_e12_premove() -> None:
    s = e1(extra_hand=("m16",))
    s = play(s, "play m16")
    assert s.step == PREMOVE
    assert [a.split()[1] for a in legal(s)] == [
        "h02",
        "h03",
        "h10",
        "h22",
        "h23",
        "v01",
        "v02",
        "v10",
        "v20",
        "v23",
    ]
    s = play(s, "premove h10")
    assert s.step == MOVE and s.boats[P] == "h10"
    assert "move h11" in legal(s)  # the normal move may retrace the premove
