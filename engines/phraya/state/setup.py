"""Setting up a Phraya game: the options and the first state (docs/rules/phraya.md#setup)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engines.base import BadOption, Option
from engines.phraya import data
from engines.phraya.data import BASKET, MARKET_IDS, ORDER_IDS, board
from engines.phraya.state import SETUP_BOAT, Opts, Player, State

OPTIONS = (
    Option(
        "layout",
        str,
        "default",
        "Board parts: the default layout or a random one.",
        choices=("default", "random"),
    ),
    Option(
        "starting_boats",
        bool,
        False,
        "Advanced: boats start with 2 dealt baskets (and extra coins to even out their prices).",
    ),
    Option("hidden_hands", bool, False, "Other players see only how many cards you hold."),
    Option("open_baskets", bool, False, "Show the goods of the baskets lying on stalls."),
    Option("blocked_allow_retrieve", bool, False, "A blocked player may always play Return to Pier (b1)."),
    Option("round_limit", int, 50, "Safety cap on rounds (0 = none; not at 2 players).", min=0, max=500),
)


def _layout(rng: random.Random, opts: Opts) -> board.Layout:
    """The board parts and sides: drawn with ``layout=random`` (no draw for the default)."""
    if opts.layout != "random":
        return board.DEFAULT_LAYOUT
    tiles = ["A", "B", "C", "D"]
    rng.shuffle(tiles)
    sides = ["ab"[rng.randrange(2)] for _ in data.POSITION_ORDER]
    return tuple((p, tiles[i], sides[i]) for i, p in enumerate(data.POSITION_ORDER))


def _order_stacks(rng: random.Random, n: int) -> tuple[list[list[str]], list[str]]:
    """The four order stacks shuffled type by type, and the tiles removed at 2 players."""
    stacks = []
    removed = []
    for t in range(1, 5):
        st = [o for o in ORDER_IDS if o[1] == str(t)]
        rng.shuffle(st)
        if n == 2:
            removed.append(st.pop(0))
        stacks.append(st)
    return stacks, removed


def _players(n: int, order: list[int], dealt: dict[int, tuple[str, str]]) -> list[Player]:
    """Each seat's start: coins by turn order, the printed baskets or the two dealt ones (with the
    coins that even out the boats' values, docs/rules/phraya.md#starting-boats)."""
    values = {q: -(-(int(BASKET[a][2]) + int(BASKET[c][2])) // 2) for q, (a, c) in dealt.items()}
    top = max(values.values()) if values else 0
    players = []
    for q in range(n):
        coins = data.START_COINS + order.index(q)
        baskets: tuple[str, ...] = data.PRINTED_BASKET_IDS
        if dealt:
            baskets = dealt[q]
            coins += top - values[q]
        players.append(Player(coins=coins, baskets=baskets, stalls_left=data.STALLS_PER_PLAYER[n]))
    return players


def new_game(seed: int, n: int, opts: Opts) -> State:
    """A new game in SETUP_BOAT, built with the random draws of docs/rules/phraya.md#setup-rng in that
    order."""
    rng = random.Random(seed)
    layout = _layout(rng, opts)
    b = board.build(layout)
    first = rng.randrange(n)
    cards = list(MARKET_IDS)
    rng.shuffle(cards)
    display, deck = tuple(cards[: data.DISPLAY_SLOTS]), tuple(cards[data.DISPLAY_SLOTS :])
    bag = list(data.BASKET_IDS)
    rng.shuffle(bag)
    order = [(first + k) % n for k in range(n)]
    dealt: dict[int, tuple[str, str]] = {}
    if opts.starting_boats:
        for q in order:
            dealt[q] = (bag.pop(0), bag.pop(0))
    on_stalls = tuple(bag.pop(0) if bag else "" for _ in b.baskets)
    stacks, removed = _order_stacks(rng, n)
    orders_on = tuple(stacks[0].pop(0) if stacks[0] else "" for _ in b.restaurants)
    players = _players(n, order, dealt)
    g = data.GOODS_SUPPLY
    return State(
        n=n,
        opts=opts,
        layout=layout,
        step=SETUP_BOAT,
        first=first,
        cur=first,
        round=0,
        setup_i=0,
        owner=(-1,) * len(board.STALLS),
        boats=("",) * n,
        barge=data.BARGE_START,
        prices=(data.PRICE_START_INDEX,) * 4,
        merchant=data.MERCHANT_START,
        display=display,
        deck=deck,
        bag=tuple(bag),
        stall_baskets=on_stalls,
        stacks=tuple(tuple(x) for x in stacks),
        removed=tuple(removed),
        orders_on=orders_on,
        king=(-1,) * 16,
        temple=((), (), (), ()),
        supply_goods=(g, g, g, g),
        supply_flowers=data.FLOWERS,
        supply_favors=data.FAVORS,
        supply_rowers=data.ROWER_TILES,
        players=tuple(players),
    )


def setup(seed: int, n: int, o: Mapping[str, Any]) -> State:
    """The first state from resolved options ``o``. Raises :class:`BadOption` for ``round_limit``
    0 at 2 players (two end conditions may never hold there)."""
    if n == 2 and o["round_limit"] == 0:
        raise BadOption(
            "At 2 players the game may never reach two end conditions, so `round_limit` must be at least 1."
        )
    opts = Opts(
        layout=str(o["layout"]),
        starting_boats=bool(o["starting_boats"]),
        hidden_hands=bool(o["hidden_hands"]),
        open_baskets=bool(o["open_baskets"]),
        blocked_allow_retrieve=bool(o["blocked_allow_retrieve"]),
        round_limit=int(o["round_limit"]),
    )
    return new_game(seed, n, opts)
