"""The Pralaya state value: how it encodes cards, the island and whose turn; the seeded deal;
the invariants every state keeps (docs/rules/pralaya.md#setup,
docs/rules/pralaya.md#invariants).

Cards are ints: index ``i`` into :data:`engines.pralaya.data.CARD_IDS` (data order), so the coins
are 0–14 (Copper 0–3, Silver 4–9, Gold 10–14) and the Oceans 63–84. An island cell holds a card
index or ``EMPTY`` (-1). Hands are tuples sorted by card index.

What makes it fast (issue #13): one flat frozen dataclass of ints and tuples, copied through
:mod:`engines.fastcopy`; ``avail`` packs the island's relic cells by cost into one int (three
18-bit masks), so "what can Vitality v take?" is a shift and a mask, a take or refill one xor/or,
and "one relic left", "no relic left" bit tests; the coin counts come from three bisections of
the sorted hand; setup shuffles with the same ``getrandbits`` draws as ``Random.shuffle`` without
a call per card. The turn machine that moves from one state to the next is :mod:`.apply`.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines import fastcopy
from engines.options import Option
from engines.outcome import Outcome
from engines.pralaya import data

# ------------------------------------------------------------------ card tables

EMPTY = -1
N_CARDS = data.N_RELIC_CARDS
CARD_CODE: tuple[str, ...] = tuple(c.rstrip("0123456789") for c in data.CARD_IDS)
CARD_NAME: tuple[str, ...] = tuple(data.RELIC_BY_CODE[c].name for c in CARD_CODE)
IS_OCEAN: tuple[bool, ...] = tuple(c == data.OCEAN for c in CARD_CODE)
CARD_CUR: tuple[int, ...] = tuple(data.RELIC_BY_CODE[c].currency for c in CARD_CODE)
NEVER = 99  # the cost of what cannot be taken
# Cost by card index, with a sentinel at the end so that ``COST_E[EMPTY]`` (index -1) is NEVER too.
COST_E: tuple[int, ...] = tuple(
    NEVER if (cost := data.RELIC_BY_CODE[c].cost) is None else cost for c in CARD_CODE
) + (NEVER,)
# True for a non-Ocean card; False for an Ocean and (through the sentinel) for EMPTY.
IS_RELIC_E: tuple[bool, ...] = tuple(not o for o in IS_OCEAN) + (False,)
CARD_INDEX: dict[str, int] = {cid: i for i, cid in enumerate(data.CARD_IDS)}

# ``State.avail`` packs three 18-bit cell masks (bit i: cell i in row-major order): bits 0–17 the
# cells whose relic costs 1, bits 18–35 those costing at most 2, bits 36–53 every relic cell.
# ``avail >> AFF_SHIFT[v] & CELL_BITS`` is then the mask of the cells that Vitality v can take.
CELL_BITS = (1 << 18) - 1
RELIC_SHIFT = 36
AFF_SHIFT: tuple[int, ...] = (54, 0, 18) + (RELIC_SHIFT,) * 13  # Vitality 0 (nothing), 1, 2, 3+
# The bits a card sets in ``avail`` at cell 0 (shift left by the cell), by card index + sentinel.
AVAIL_BITS_E: tuple[int, ...] = tuple(
    sum(1 << 18 * k for k in range(cost - 1, 3)) if cost <= 3 else 0 for cost in COST_E
)
FIRST_NON_COIN = sum(data.RELIC_BY_CODE[c].qty for c in ("cop", "sil", "gol"))  # 15
FIRST_SIL = data.RELIC_BY_CODE["cop"].qty
FIRST_GOL = FIRST_SIL + data.RELIC_BY_CODE["sil"].qty

DHONI_IDS: tuple[str, ...] = tuple(d.id for d in data.DHONI)
DHONI_PRICE: tuple[int | None, ...] = tuple(d.price for d in data.DHONI)
DHONI_NAME: tuple[str, ...] = tuple(d.name for d in data.DHONI)
DHONI_INDEX: dict[str, int] = {d: i for i, d in enumerate(DHONI_IDS)}
DHONI_X = DHONI_INDEX["dhx"]
DHONI_PILE: dict[int, tuple[int, ...]] = {
    n: tuple(DHONI_INDEX[d] for d in pile) for n, pile in data.DHONI_PILES.items()
}

# Steps (``State.step``)
COLLECT, DISCARD, BUY, OVER = 0, 1, 2, 3
STEP_NAMES = ("collect", "discard", "buy", "over")


def cell_names(n_players: int) -> tuple[str, ...]:
    """The island's cell names for ``n_players`` in row-major order: a1…a5, b1…, c1…"""
    rows, cols = data.GRID[n_players]
    return tuple(f"{data.ROW_LETTERS[r]}{c + 1}" for r in range(rows) for c in range(cols))


CELLS: dict[int, tuple[str, ...]] = {n: cell_names(n) for n in data.GRID}
CELLS_BY_SIZE: dict[int, tuple[str, ...]] = {len(c): c for c in CELLS.values()}


# ------------------------------------------------------------------ the state value


@dataclass(frozen=True)
class State:
    """One Pralaya position. A value: never mutated; every change makes a new one.

    ``veda[s]``: 0 if seat ``s`` has no Veda, else k for ``ve<k>``. ``dhoni[s]``: -1 or an index
    into :data:`DHONI_IDS`; holding a Dhoni means escaped. ``dhoni_pile``: indexes, top first.
    ``taken``/``new``: bitmasks of cells emptied this turn / refilled at the end of the last turn.
    ``avail``: the island's relic cells as bitmasks by cost (see :data:`AVAIL_BITS_E`; derived
    from ``island`` and kept beside it because every step asks "what is affordable?";
    :func:`island_avail` computes it). ``costs`` (a property) lists each cell's cost.
    ``turn_cards``: cards taken (or discarded) this turn. ``deck[0]`` is the top card.
    ``end_reason``: "" while running, else last_card | all_escaped | island_empty.
    """

    n: int
    first: int
    round: int
    turns: int
    active: int
    step: int
    v_start: int
    v_left: int
    last: bool
    island: tuple[int, ...]
    avail: int
    taken: int
    new: int
    turn_cards: tuple[int, ...]
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    veda: tuple[int, ...]
    dhoni: tuple[int, ...]
    dhoni_pile: tuple[int, ...]
    discard: tuple[int, ...]
    end_reason: str
    open_hands: bool
    veda_price: int
    first_seat: int
    fossil_all: bool

    @property
    def costs(self) -> tuple[int, ...]:
        """The cost of each cell's card, NEVER for an Ocean or an empty cell."""
        return island_costs(self.island)


# ------------------------------------------------------------------ small queries


def coins(hand: tuple[int, ...]) -> tuple[int, int, int]:
    """(gold, silver, copper) counts in a sorted hand (the coins are its lowest indexes)."""
    c = bisect_left(hand, FIRST_SIL)
    cs = bisect_left(hand, FIRST_GOL, c)
    return bisect_left(hand, FIRST_NON_COIN, cs) - cs, cs - c, c


def coin_value(hand: tuple[int, ...]) -> int:
    """The currency of the coins in a sorted hand."""
    c = bisect_left(hand, FIRST_SIL)
    cs = bisect_left(hand, FIRST_GOL, c)
    return 6 * bisect_left(hand, FIRST_NON_COIN, cs) - 3 * cs - 2 * c


def relics_on_island(island: tuple[int, ...]) -> int:
    """How many island cells hold a non-Ocean card."""
    return sum(map(IS_RELIC_E.__getitem__, island))


def island_costs(island: tuple[int, ...]) -> tuple[int, ...]:
    """The ``costs`` tuple of an island (NEVER for an Ocean or an empty cell)."""
    return tuple(COST_E[c] for c in island)


def island_avail(island: tuple[int, ...]) -> int:
    """The ``avail`` masks of an island (see :data:`AVAIL_BITS_E`)."""
    out = 0
    for i, c in enumerate(island):
        out |= AVAIL_BITS_E[c] << i
    return out


def hand_counts(hand: tuple[int, ...]) -> dict[str, int]:
    """``{code: count}`` of a hand, codes in data order."""
    out: dict[str, int] = {}
    for i in hand:
        code = CARD_CODE[i]
        out[code] = out.get(code, 0) + 1
    return out


def veda_left(s: State) -> int:
    """Veda cards still in the pile."""
    return s.veda.count(0)  # the pile holds n: one for each seat without a Veda


def round1_or_base_vitality(s: State, seat: int) -> int:
    """The Vitality ``seat`` starts its turn with (not escaped): round 1 gives 1 and 2 to the first
    and second seat; otherwise 4 with a Veda, else 3 (docs/rules/pralaya.md#round-one-vitality)."""
    offset = (seat - s.first) % s.n
    if s.round == 1 and offset < len(data.ROUND1_VITALITY):
        return data.ROUND1_VITALITY[offset]
    return data.VEDA_VITALITY if s.veda[seat] else data.BASE_VITALITY


# ------------------------------------------------------------------ setup


_RANDOM = random.Random
_SHUFFLE_STEPS: tuple[tuple[int, int, int], ...] = tuple(
    (i, i + 1, (i + 1).bit_length()) for i in range(N_CARDS - 1, 0, -1)
)


def shuffle_deck(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)`` for the 85-card deck, step for step: CPython's ``Random.shuffle``
    (3.11, unchanged since 3.2) swaps ``deck[i]`` with ``deck[_randbelow(i + 1)]`` for i from the
    end down to 1, and ``_randbelow(m)`` draws ``getrandbits(m.bit_length())`` until below m.
    The same draws, without a Python call per card (tests/test_pralaya_speed.py compares both).
    Any other generator class (a subclass may draw differently) shuffles with its own method."""
    if type(rng) is not _RANDOM:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i, m, k in _SHUFFLE_STEPS:
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def deal_island(rng: random.Random, deck: list[int], cells: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Deal ``cells`` cards from the top of the shuffled ``deck`` in row-major order.

    If no dealt card is a non-Ocean, the cards go back on top (restoring ``deck``) and the whole
    deck is shuffled again with ``rng`` and re-dealt (docs/rules/pralaya.md#setup-redeal). Returns
    ``(island, deck)``.
    """
    while True:
        island = tuple(deck[:cells])
        if any(IS_RELIC_E[c] for c in island):
            return island, tuple(deck[cells:])
        shuffle_deck(rng, deck)


OPTIONS: tuple[Option, ...] = (
    Option("open_hands", bool, False, "Relic hands are visible to everyone."),
    Option(
        "veda_price",
        int,
        data.VEDA_PRICE,
        "Price of a Veda (a stand-in: the printed price is unknown).",
        min=1,
        max=10,
    ),
    Option(
        "first_seat",
        int,
        -1,
        "Seat that plays first (-1: chosen at random from the seed).",
        min=-1,
        max=4,
    ),
    Option(
        "fossil_all_players",
        bool,
        False,
        "Fossils of players who did not escape also count for the majority (they still score nothing).",
    ),
)
"""The game's options (docs/rules/pralaya.md#options); ``deal`` reads them resolved (every name present)."""


def deal(seed: int, n: int, opts: Mapping[str, Any]) -> State:
    """Seeded setup (docs/rules/pralaya.md#setup): the first seat, the shuffled deck and the dealt island,
    before the first seat's START (:func:`engines.pralaya.apply.begin` runs it)."""
    rng = random.Random(seed)
    first_seat = opts["first_seat"]
    first = first_seat if first_seat >= 0 else rng.randrange(n)
    deck = list(range(N_CARDS))
    shuffle_deck(rng, deck)
    rows, cols = data.GRID[n]
    island, rest = deal_island(rng, deck, rows * cols)
    return fastcopy.build(
        State,
        n=n,
        first=first,
        round=1,
        turns=0,
        active=first,
        step=COLLECT,
        v_start=0,
        v_left=0,
        last=False,
        island=island,
        avail=island_avail(island),
        taken=0,
        new=0,
        turn_cards=(),
        deck=rest,
        hands=((),) * n,
        veda=(0,) * n,
        dhoni=(-1,) * n,
        dhoni_pile=DHONI_PILE[n],
        discard=(),
        end_reason="",
        open_hands=opts["open_hands"],
        veda_price=opts["veda_price"],
        first_seat=first_seat,
        fossil_all=opts["fossil_all_players"],
    )


# ------------------------------------------------------------------ invariants
# (docs/rules/pralaya.md#invariants)

MAX_TURNS = 65  # after round 1 every turn removes one of the 63 relics; 2 round-1 turns may not


def _check_cards(s: State) -> None:
    """1–3: every card in one place, Oceans never leave island and deck, the Dhoni pile's order."""
    n = s.n
    rows, cols = data.GRID[n]
    assert len(s.island) == rows * cols, "island size"
    assert s.avail == island_avail(s.island), "avail matches the island"
    assert len(s.hands) == len(s.veda) == len(s.dhoni) == n
    cards = (
        list(s.deck) + [c for c in s.island if c != EMPTY] + [c for h in s.hands for c in h] + list(s.discard)
    )
    assert sorted(cards) == list(range(N_CARDS)), "every relic id is in exactly one place"
    owned_veda = [v for v in s.veda if v]
    assert len(set(owned_veda)) == len(owned_veda) and all(1 <= v <= n for v in owned_veda), "Veda ids"
    owned_dhoni = [d for d in s.dhoni if d >= 0]
    assert sorted(owned_dhoni + list(s.dhoni_pile)) == sorted(DHONI_INDEX[d] for d in data.DHONI_PILES[n]), (
        "Dhoni pile + owned = the Dhoni of this player count"
    )
    assert not any(IS_OCEAN[c] for h in s.hands for c in h), "an Ocean in a hand"
    assert not any(IS_OCEAN[c] for c in s.discard), "an Ocean in the discard"
    assert all(list(h) == sorted(h) for h in s.hands)
    pile = s.dhoni_pile
    if DHONI_X in pile:
        assert pile[0] == DHONI_X, "Dhoni X must be on top"
    prices = [p for p in (DHONI_PRICE[d] for d in pile) if p is not None]  # all but Dhoni X
    assert prices == sorted(prices), "Dhoni below X ascend"


def _check_turn(s: State, legal: list[str]) -> None:
    """4–5: Vitality, the cells emptied this turn, whose step it is; ``legal``: the active seat's
    legal list (never empty while the game runs)."""
    assert 0 <= s.v_left <= data.VEDA_VITALITY, "V_left out of range"
    if s.end_reason != "island_empty":  # (that end comes after the refill has cleared ``taken``)
        assert bin(s.taken).count("1") == len(s.turn_cards), "one emptied cell per card taken this turn"
        assert all(s.island[i] == EMPTY for i in range(len(s.island)) if s.taken >> i & 1)
    if s.v_start > 0:  # a collecting turn (an escaped seat's turn starts with 0)
        assert s.v_left + sum(COST_E[c] for c in s.turn_cards) == s.v_start, "V_left + cost taken = V"
    else:
        assert s.v_left == 0
    assert s.turns <= MAX_TURNS, "too many turns"
    if s.step == OVER:
        return
    assert relics_on_island(s.island) + len(s.turn_cards) >= 1
    assert s.last == (relics_on_island(s.island) + len(s.turn_cards) == 1), "last flag"
    assert (s.step == DISCARD) == (s.dhoni[s.active] >= 0), "escaped seats discard, others collect"
    if s.step == DISCARD:
        assert s.v_start == 0 and not s.turn_cards
    else:
        assert s.v_start == round1_or_base_vitality(s, s.active), "start Vitality"
    assert legal, "the active seat has no legal action"
    assert s.end_reason == ""


def _check_scores(s: State, out: Outcome | None) -> None:
    """10: only escaped seats score, each total the sum of its categories, escaped seats never tie."""
    assert s.end_reason in ("last_card", "all_escaped", "island_empty")
    assert out is not None
    n = s.n
    for seat in range(n):
        b, total = out.breakdown[seat], out.scores[seat]
        if s.dhoni[seat] >= 0:
            assert b is not None and total == sum(b[c] for c in data.CATEGORIES), "total = sum of categories"
        else:
            assert b is None and total is None, "only escaped seats score"
    escaped_ranks = [out.ranks[t] for t in range(n) if s.dhoni[t] >= 0]
    assert len(set(escaped_ranks)) == len(escaped_ranks), "escaped seats never tie"
    assert all(out.ranks[t] == len(escaped_ranks) + 1 for t in range(n) if s.dhoni[t] < 0)


def check_invariants(s: State, legal: list[str], outcome: Outcome | None) -> None:
    """The invariants (docs/rules/pralaya.md#invariants) on one state, given the active seat's legal list
    and the outcome; raises AssertionError naming what broke."""
    _check_cards(s)
    _check_turn(s, legal)
    if s.step == OVER:
        _check_scores(s, outcome)
