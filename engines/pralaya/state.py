"""The Pralaya state value, its card tables, seeded setup and the turn step machine (spec §3–§4).

Cards are ints: index ``i`` into :data:`engines.pralaya.data.CARD_IDS` (data order), so the coins
are 0–14 (Copper 0–3, Silver 4–9, Gold 10–14) and the Oceans 63–84. An island cell holds a card
index or ``EMPTY`` (-1). Hands are tuples sorted by card index.

The machine: :func:`start_turn` (START), the COLLECT / DISCARD / BUY decisions applied by
:func:`do_take`, :func:`do_done`, :func:`do_discard`, :func:`do_buy`, :func:`do_pass`, and
:func:`end_turn` (END). Automatic steps loop until a seat has a decision or the game is over.
Every ``do_*`` function expects an action already checked legal and appends its events to ``ev``.

What makes it fast (issue #13; measured in valgrind instructions per action of random playouts
with the legal list enumerated, 30 games for each of 2–5 players: 109,700 before, 79,000 after):

* One flat frozen dataclass of ints and tuples. An action copies the old state's ``__dict__``
  once, the machine updates that dict in place through every automatic step (take → BUY/END →
  refill → START) and :func:`make` turns it into the new State once: no ``dataclasses.replace``
  and no constructor call (``State(...)`` sets 25 frozen fields one by one).
* ``avail`` packs the island's relic cells by cost into one int (three 18-bit masks), so "what can
  Vitality v take?" is a shift and a mask, a take or refill one xor/or, and "one relic left",
  "no relic left" bit tests, instead of scans of a costs tuple. The legal lists come from
  tables indexed by the two 9-bit halves of that mask (row-major order is ASCII order).
* Events are shared frozen values, looked up in one dict under int keys (built once each).
* ``can_buy`` decides the BUY step from the coins' value without building payment texts; the
  coin counts come from three bisections of the sorted hand; setup shuffles with the same
  ``getrandbits`` draws as ``Random.shuffle`` without a call per card.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

from engines.base import Event
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
_FIRST_SIL = data.RELIC_BY_CODE["cop"].qty
_FIRST_GOL = _FIRST_SIL + data.RELIC_BY_CODE["sil"].qty

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
TAKE_TEXT: dict[int, tuple[str, ...]] = {k: tuple("take " + c for c in v) for k, v in CELLS_BY_SIZE.items()}
DISCARD_TEXT: dict[int, tuple[str, ...]] = {
    k: tuple("discard " + c for c in v) for k, v in CELLS_BY_SIZE.items()
}


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


_new = object.__new__
_set = object.__setattr__


def make(fields: dict[str, Any]) -> State:
    """A :class:`State` whose instance dict *is* ``fields`` (taken over, not copied: the caller
    must not touch it afterwards). The turn machine builds each new state this way from one
    dict copy of the old state's fields, about 7× cheaper than the dataclass constructor."""
    new = _new(State)
    _set(new, "__dict__", fields)
    return new


def evolve(s: State, **changes: Any) -> State:
    """A copy of ``s`` with ``changes`` (a fast ``dataclasses.replace`` for this flat value)."""
    d = s.__dict__.copy()
    d.update(changes)
    return make(d)


# ------------------------------------------------------------------ small queries


def coins(hand: tuple[int, ...]) -> tuple[int, int, int]:
    """(gold, silver, copper) counts in a sorted hand (the coins are its lowest indexes)."""
    c = bisect_left(hand, _FIRST_SIL)
    cs = bisect_left(hand, _FIRST_GOL, c)
    return bisect_left(hand, FIRST_NON_COIN, cs) - cs, cs - c, c


def coin_value(hand: tuple[int, ...]) -> int:
    """The currency of the coins in a sorted hand."""
    c = bisect_left(hand, _FIRST_SIL)
    cs = bisect_left(hand, _FIRST_GOL, c)
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
    and second seat; otherwise 4 with a Veda, else 3."""
    offset = (seat - s.first) % s.n
    if s.round == 1 and offset < len(data.ROUND1_VITALITY):
        return data.ROUND1_VITALITY[offset]
    return data.VEDA_VITALITY if s.veda[seat] else data.BASE_VITALITY


# ------------------------------------------------------------------ payments (cached)

_PAY_CACHE: dict[tuple[int, int, int, int, int], tuple[str, ...]] = {}


def _irreducible(g: int, s: int, c: int, price: int) -> list[tuple[int, int, int]]:
    """Payments (x, y, z) ≤ (g, s, c) worth ≥ price where dropping any paid coin falls below it."""
    out = []
    for x in range(g + 1):
        for y in range(s + 1):
            for z in range(c + 1):
                total = 6 * x + 3 * y + z
                if total < price:
                    continue
                smallest = 1 if z else 3 if y else 6 if x else 0
                if smallest and total - smallest < price:
                    out.append((x, y, z))
    return out


def buy_texts(g: int, s: int, c: int, dhoni_price: int, veda_price: int) -> tuple[str, ...]:
    """The sorted ``buy`` actions for a holding of (g, s, c) coins.

    ``dhoni_price``: -2 if no Dhoni can be bought, -1 for Dhoni X on top, else the top price.
    ``veda_price``: 0 if no Veda can be bought, else its price.
    """
    key = (g, s, c, dhoni_price, veda_price)
    hit = _PAY_CACHE.get(key)
    if hit is not None:
        return hit
    out = []
    if dhoni_price == -1:
        out.append(f"buy dhoni {g}g {s}s {c}c")
    elif dhoni_price >= 0:
        out += [f"buy dhoni {x}g {y}s {z}c" for x, y, z in _irreducible(g, s, c, dhoni_price)]
    if veda_price > 0:
        out += [f"buy veda {x}g {y}s {z}c" for x, y, z in _irreducible(g, s, c, veda_price)]
    res = tuple(sorted(out))
    _PAY_CACHE[key] = res
    return res


def buy_actions(s: State, ch: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The legal ``buy`` actions of the active seat (whatever the step), sorted.

    ``ch``: pending changes to ``s`` not yet applied; only a new ``hands`` matters here (the
    turn machine enters BUY right after a take).
    """
    seat = s.active
    if s.dhoni[seat] >= 0:
        return ()
    hands = ch.get("hands", s.hands) if ch else s.hands
    gold, silver, copper = coins(hands[seat])
    pile = s.dhoni_pile
    top_price = DHONI_PRICE[pile[0]] if pile else -2
    dprice = -1 if top_price is None else top_price  # None: Dhoni X
    vprice = 0 if s.veda[seat] else s.veda_price  # a seat without a Veda leaves one in the pile
    return buy_texts(gold, silver, copper, dprice, vprice)


def can_buy(d: dict[str, Any]) -> bool:
    """Whether the active seat of the fields ``d`` has a legal ``buy`` (``bool(buy_actions)``
    without building the texts): Dhoni X on top, or coins worth a Dhoni's or the Veda's price
    (coins worth at least a price always hold an irreducible payment of it)."""
    seat = d["active"]
    if d["dhoni"][seat] >= 0:
        return False
    pile = d["dhoni_pile"]
    price = NEVER
    if pile:
        top_price = DHONI_PRICE[pile[0]]
        if top_price is None:  # Dhoni X: any holding pays it, even no coins
            return True
        price = top_price
    if not d["veda"][seat]:
        veda_price = d["veda_price"]
        if 0 < veda_price < price:
            price = veda_price
    if price == NEVER:
        return False
    hand = d["hands"][seat]  # coin_value(hand), inline
    c = bisect_left(hand, _FIRST_SIL)
    cs = bisect_left(hand, _FIRST_GOL, c)
    return 6 * bisect_left(hand, FIRST_NON_COIN, cs) - 3 * cs - 2 * c >= price


def _half_lists(texts: tuple[str, ...]) -> tuple[list[list[str]], list[list[str]]]:
    """For the cells 0–8 and 9–: the texts of the cells in each mask of the half (row-major
    cell order is ASCII order, so a list of the low half plus one of the high half is sorted)."""
    lo, hi = texts[:9], texts[9:]
    return (
        [[t for i, t in enumerate(lo) if m >> i & 1] for m in range(1 << len(lo))],
        [[t for i, t in enumerate(hi) if m >> i & 1] for m in range(1 << len(hi))],
    )


_TAKE_HALVES = {k: _half_lists(v) for k, v in TAKE_TEXT.items()}
_DISCARD_HALVES = {k: _half_lists(v) for k, v in DISCARD_TEXT.items()}
TAKE_LISTS: dict[int, tuple[list[list[str]], list[list[str]], list[list[str]]]] = {
    n: (lo, [["done", *t] for t in lo], hi)
    for n, (lo, hi) in ((n, _TAKE_HALVES[len(CELLS[n])]) for n in CELLS)
}
"""Per player count: (takes of the cells 0–8 by mask, the same after ``done``, takes of the cells
9– by mask). Never mutate these lists: :func:`legal` returns the sum of two, a new list."""
DISCARD_LISTS: dict[int, tuple[list[list[str]], list[list[str]]]] = {
    n: _DISCARD_HALVES[len(CELLS[n])] for n in CELLS
}


def legal(s: State) -> list[str]:
    """The active seat's legal actions in the current step, ASCII-sorted."""
    step = s.step
    if step == COLLECT:
        aff = s.avail >> AFF_SHIFT[s.v_left] & CELL_BITS
        lo, lo_done, hi = TAKE_LISTS[s.n]
        return (lo_done if s.taken else lo)[aff & 511] + hi[aff >> 9]
    if step == BUY:
        out = list(buy_actions(s))
        out.append("pass")
        return out
    if step == DISCARD:
        relics = s.avail >> RELIC_SHIFT
        lo, hi = DISCARD_LISTS[s.n]
        return lo[relics & 511] + hi[relics >> 9]
    return []


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
    deck is shuffled again with ``rng`` and re-dealt (spec §3.3). Returns ``(island, deck)``.
    """
    while True:
        island = tuple(deck[:cells])
        if any(IS_RELIC_E[c] for c in island):
            return island, tuple(deck[cells:])
        shuffle_deck(rng, deck)


def new_game(seed: int, n: int, opts: dict[str, Any]) -> tuple[State, list[Event]]:
    """Seeded setup (spec §3) and the first START. Returns the state and the setup events."""
    rng = random.Random(seed)
    first_seat = opts["first_seat"]
    first = first_seat if first_seat >= 0 else rng.randrange(n)
    deck = list(range(N_CARDS))
    shuffle_deck(rng, deck)
    rows, cols = data.GRID[n]
    island, rest = deal_island(rng, deck, rows * cols)
    fields = {
        "n": n,
        "first": first,
        "round": 1,
        "turns": 0,
        "active": first,
        "step": COLLECT,
        "v_start": 0,
        "v_left": 0,
        "last": False,
        "island": island,
        "avail": island_avail(island),
        "taken": 0,
        "new": 0,
        "turn_cards": (),
        "deck": rest,
        "hands": ((),) * n,
        "veda": (0,) * n,
        "dhoni": (-1,) * n,
        "dhoni_pile": DHONI_PILE[n],
        "discard": (),
        "end_reason": "",
        "open_hands": opts["open_hands"],
        "veda_price": opts["veda_price"],
        "first_seat": first_seat,
        "fossil_all": opts["fossil_all_players"],
    }
    ev: list[Event] = []
    return start(fields, ev, first, 1, fields["avail"]), ev


# ------------------------------------------------------------------ shared events

_EVENTS: dict[int, Event] = {}
"""Memo of the frequent events (turn, take, discard, refill, done, pass) under small int keys
(the ``*_key`` functions: a kind tag in the low 3 bits). An :class:`Event` is a frozen value
and its ``data`` a read-only ``Mapping``, so identical happenings share one instance (never
mutate ``data``). Bounded by the combinations of seat, round, cell and card: about 13,000
entries (6.5 MB) after 3,000 games."""
_TURN, _TAKE, _DISCARD, _REFILL, _DONE, _PASS = range(6)


def seat_tag(seat: int) -> str:
    return "{s%d}" % seat


def refill_event(cell: str, card: int) -> Event:
    """The ``refill`` event of ``cell`` receiving ``card`` (EMPTY: the deck was empty)."""
    if card == EMPTY:
        return Event("refill", "%s stays empty: the deck is empty" % cell, {"cell": cell, "card": None})
    return Event(
        "refill", "%s refilled: %s" % (cell, CARD_NAME[card]), {"cell": cell, "card": data.CARD_IDS[card]}
    )


def _refill(n: int, cell: int, card: int) -> Event:
    key = (((n << 5 | cell) << 7) + card + 1) << 3 | _REFILL
    hit = _EVENTS.get(key)
    if hit is None:
        hit = _EVENTS[key] = refill_event(CELLS[n][cell], card)
    return hit


def _cell_event(kind: int, seat: int, n: int, cell: int, card: int) -> Event:
    """The ``take`` or ``discard`` event of ``seat`` at ``cell`` (of an island for ``n`` players)."""
    key = (((n << 3 | seat) << 5 | cell) << 7 | card) << 3 | kind
    hit = _EVENTS.get(key)
    if hit is None:
        name = CELLS[n][cell]
        verb, what = ("take", "takes") if kind == _TAKE else ("discard", "discards")
        hit = _EVENTS[key] = Event(
            verb,
            "{s%d} %s %s (%s)" % (seat, what, name, CARD_NAME[card]),
            {"seat": seat, "cell": name, "card": data.CARD_IDS[card]},
        )
    return hit


def turn_event(seat: int, rnd: int, vitality: int, escaped: bool, can_take: bool, last: bool) -> Event:
    """The ``turn`` event that opens a seat's turn."""
    key = ((((rnd << 3 | vitality) << 3 | seat) << 3) + 4 * escaped + 2 * can_take + last) << 3 | _TURN
    hit = _EVENTS.get(key)
    if hit is not None:
        return hit
    tail = " · last relic on the island" if last else ""
    if escaped:
        text = f"Round {rnd} · {seat_tag(seat)}'s turn · escaped: discards a relic{tail}"
    else:
        note = "" if can_take else " · nothing affordable"
        text = f"Round {rnd} · {seat_tag(seat)}'s turn · {vitality} Vitality{note}{tail}"
    hit = _EVENTS[key] = Event("turn", text, {"seat": seat, "round": rnd, "vitality": vitality})
    return hit


def _seat_event(kind: int, seat: int) -> Event:
    """The ``done`` or ``pass`` event of ``seat``."""
    key = seat << 3 | kind
    hit = _EVENTS.get(key)
    if hit is None:
        if kind == _DONE:
            hit = Event("done", "{s%d} is done collecting" % seat, {"seat": seat})
        else:
            hit = Event("pass", "{s%d} buys nothing" % seat, {"seat": seat})
        _EVENTS[key] = hit
    return hit


# ------------------------------------------------------------------ automatic steps
#
# The machine works on ``d``, a fresh dict of the new state's fields (one copy of the old
# state's ``__dict__``), updated in place step after step and made a State once by :func:`make`
# when some seat has a decision or the game is over.


def start(d: dict[str, Any], ev: list[Event], seat: int, rnd: int, avail: int) -> State:
    """START (spec §4) for ``seat`` in round ``rnd`` with the island's ``avail``: set ``last`` and
    Vitality, then COLLECT or DISCARD (or, with nothing affordable, BUY or END)."""
    relics = avail >> RELIC_SHIFT
    last = relics != 0 and not relics & (relics - 1)  # exactly one relic cell
    d["turns"] += 1
    d["taken"] = 0
    d["turn_cards"] = ()
    d["last"] = last
    if d["dhoni"][seat] >= 0:
        ev.append(turn_event(seat, rnd, 0, True, False, last))
        d["step"] = DISCARD
        d["v_start"] = d["v_left"] = 0
        new = _new(State)
        _set(new, "__dict__", d)
        return new
    if rnd == 1 and (offset := (seat - d["first"]) % d["n"]) < len(data.ROUND1_VITALITY):
        v = data.ROUND1_VITALITY[offset]
    else:
        v = data.VEDA_VITALITY if d["veda"][seat] else data.BASE_VITALITY
    can_take = avail >> AFF_SHIFT[v] & CELL_BITS != 0
    key = ((((rnd << 3 | v) << 3 | seat) << 3) + 2 * can_take + last) << 3 | _TURN
    ev.append(_EVENTS.get(key) or turn_event(seat, rnd, v, False, can_take, last))
    d["step"] = COLLECT
    d["v_start"] = d["v_left"] = v
    if can_take:
        new = _new(State)
        _set(new, "__dict__", d)
        return new
    return buy_or_end(d, ev)  # nothing affordable (round 1 only)


def buy_or_end(d: dict[str, Any], ev: list[Event]) -> State:
    """Enter BUY, or skip it (to END) when no ``buy`` is legal."""
    if can_buy(d):
        d["step"] = BUY
        return make(d)
    return end(d, ev)


def _game_over(d: dict[str, Any], ev: list[Event], reason: str, text: str) -> State:
    ev.append(Event("end", f"The game ends: {text}.", {"reason": reason}))
    d["step"] = OVER
    d["end_reason"] = reason
    return make(d)


def end(d: dict[str, Any], ev: list[Event]) -> State:
    """END (spec §4): the end checks, the row-major refill, then the next seat's START."""
    if d["last"]:
        return _game_over(d, ev, "last_card", "only one relic was left at the start of the turn")
    if -1 not in d["dhoni"]:
        return _game_over(d, ev, "all_escaped", "every player has escaped")
    taken = d["taken"]
    if taken:
        island = d["island"]
        deck = d["deck"]
        n = d["n"]
        cells = list(island)
        avail = d["avail"]
        used = new = 0
        n_deck = len(deck)
        while taken:
            low = taken & -taken
            taken ^= low
            i = low.bit_length() - 1
            if used < n_deck:
                card = deck[used]
                used += 1
                cells[i] = card
                avail |= AVAIL_BITS_E[card] << i
                new |= low
            else:
                card = EMPTY
            key = (((n << 5 | i) << 7) + card + 1) << 3 | _REFILL
            ev.append(_EVENTS.get(key) or _refill(n, i, card))
        d["island"] = tuple(cells)
        d["avail"] = avail
        d["deck"] = deck[used:]
        d["taken"] = 0
    else:
        avail = d["avail"]
        new = 0
    d["new"] = new
    if not avail:
        return _game_over(d, ev, "island_empty", "only Oceans are left on the island")
    nxt = d["active"] + 1
    if nxt == d["n"]:
        nxt = 0
    rnd = d["round"] + (nxt == d["first"])
    d["active"] = nxt
    d["round"] = rnd
    return start(d, ev, nxt, rnd, avail)


def start_turn(s: State, ev: list[Event], ch: dict[str, Any]) -> State:
    """START for ``s.active`` in ``s.round`` on the island of ``s`` with the pending changes
    ``ch`` applied (see :func:`start`)."""
    d = s.__dict__.copy()
    d.update(ch)
    return start(d, ev, s.active, s.round, s.avail)


def to_buy(s: State, ev: list[Event], ch: dict[str, Any]) -> State:
    """:func:`buy_or_end` on ``s`` with the pending changes ``ch``."""
    d = s.__dict__.copy()
    d.update(ch)
    return buy_or_end(d, ev)


def end_turn(s: State, ev: list[Event], ch: dict[str, Any]) -> State:
    """:func:`end` on ``s`` with the pending changes ``ch`` of this turn's last decision."""
    d = s.__dict__.copy()
    d.update(ch)
    return end(d, ev)


# ------------------------------------------------------------------ decisions (already legal)


def do_take(s: State, cell: int, ev: list[Event]) -> State:
    """COLLECT: move the card at ``cell`` to the active hand; BUY follows when nothing more fits."""
    d = s.__dict__.copy()
    seat = d["active"]
    island = d["island"]
    card = island[cell]
    hands = d["hands"]
    hand = hands[seat]
    k = bisect_right(hand, card)
    d["hands"] = hands[:seat] + (hand[:k] + (card,) + hand[k:],) + hands[seat + 1 :]
    d["island"] = island[:cell] + (EMPTY,) + island[cell + 1 :]
    avail = d["avail"] ^ AVAIL_BITS_E[card] << cell
    d["avail"] = avail
    v_left = d["v_left"] - COST_E[card]
    d["v_left"] = v_left
    d["taken"] |= 1 << cell
    d["turn_cards"] += (card,)
    key = (((d["n"] << 3 | seat) << 5 | cell) << 7 | card) << 3 | _TAKE
    ev.append(_EVENTS.get(key) or _cell_event(_TAKE, seat, d["n"], cell, card))
    if avail >> AFF_SHIFT[v_left] & CELL_BITS:
        new = _new(State)
        _set(new, "__dict__", d)
        return new
    return buy_or_end(d, ev)


def do_done(s: State, ev: list[Event]) -> State:
    """COLLECT: stop collecting. Leftover Vitality stays in ``v_left`` for this turn's record
    (invariant 4) but is lost: the next START sets it afresh."""
    ev.append(_seat_event(_DONE, s.active))
    return buy_or_end(s.__dict__.copy(), ev)


def do_discard(s: State, cell: int, ev: list[Event]) -> State:
    """DISCARD (escaped seat): the relic at ``cell`` goes to the discard pile; then END."""
    d = s.__dict__.copy()
    island = d["island"]
    card = island[cell]
    d["island"] = island[:cell] + (EMPTY,) + island[cell + 1 :]
    d["avail"] ^= AVAIL_BITS_E[card] << cell
    d["discard"] += (card,)
    d["taken"] |= 1 << cell
    d["turn_cards"] += (card,)
    ev.append(_cell_event(_DISCARD, d["active"], d["n"], cell, card))
    return end(d, ev)


def pay_phrase(x: int, y: int, z: int, joiner: str | None = None) -> str:
    """A payment in words: '1 gold, 1 silver and 2 copper' (or the parts joined by ``joiner``);
    'no coins' when empty."""
    parts = [f"{k} {w}" for k, w in ((x, "gold"), (y, "silver"), (z, "copper")) if k]
    if not parts:
        return "no coins"
    if joiner is not None or len(parts) == 1:
        return (joiner or "").join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def do_buy(s: State, what: str, pay: tuple[int, int, int], ev: list[Event]) -> State:
    """BUY: pay with the lowest-numbered coins of each type (gold, silver, copper order to the
    discard pile) and take the Veda or the top Dhoni; then END."""
    d = s.__dict__.copy()
    seat = d["active"]
    hand = d["hands"][seat]
    x, y, z = pay
    c = bisect_left(hand, _FIRST_SIL)
    cs = bisect_left(hand, _FIRST_GOL, c)
    paid = hand[cs : cs + x] + hand[c : c + y] + hand[:z]
    new_hand = hand[z:c] + hand[c + y : cs] + hand[cs + x :]
    hands = d["hands"]
    d["hands"] = hands[:seat] + (new_hand,) + hands[seat + 1 :]
    d["discard"] += paid
    paid_ids = [data.CARD_IDS[i] for i in paid]
    if what == "veda":
        veda = d["veda"]
        k = d["n"] - veda.count(0) + 1
        d["veda"] = veda[:seat] + (k,) + veda[seat + 1 :]
        ev.append(
            Event(
                "buy",
                f"{seat_tag(seat)} buys a Veda with {pay_phrase(x, y, z)}",
                {"seat": seat, "card": f"ve{k}", "paid": paid_ids},
            )
        )
    else:
        pile = d["dhoni_pile"]
        top = pile[0]
        dhoni = d["dhoni"]
        d["dhoni"] = dhoni[:seat] + (top,) + dhoni[seat + 1 :]
        d["dhoni_pile"] = pile[1:]
        paying = pay_phrase(x, y, z)
        comma = "," if " and " in paying else ""  # "with 1 gold and 1 copper, and escapes"
        ev.append(
            Event(
                "buy",
                f"{seat_tag(seat)} buys {DHONI_NAME[top]} with {paying}{comma} and escapes",
                {"seat": seat, "card": DHONI_IDS[top], "paid": paid_ids},
            )
        )
    return end(d, ev)


def do_pass(s: State, ev: list[Event]) -> State:
    """BUY: buy nothing; then END."""
    ev.append(_seat_event(_PASS, s.active))
    return end(s.__dict__.copy(), ev)
