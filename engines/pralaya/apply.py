"""What a Pralaya action does (docs/rules/pralaya.md#turn): the turn machine, its events, and ``apply``.

The machine: :func:`start` (START), the COLLECT / DISCARD / BUY decisions applied by
:func:`do_take`, :func:`do_done`, :func:`do_discard`, :func:`do_buy`, :func:`do_pass`, and
:func:`end` (END). Automatic steps loop until a seat has a decision or the game is over. Every
``do_*`` function expects an action already checked legal and appends its events to ``ev``.

An action copies the old state once (:func:`engines.fastcopy.thaw_dict`) and edits the copy's
dict through every automatic step (take → BUY/END → refill → START) before handing the copy out:
one copy an action, no constructor call. Events are shared
frozen values, looked up in one dict under int keys.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from engines import fastcopy
from engines.errors import GameOver, IllegalAction, NotYourTurn
from engines.events import Event, public_event
from engines.pralaya import data
from engines.pralaya.describe import pay_phrase, why_illegal
from engines.pralaya.legal import buy_actions, can_buy_with
from engines.pralaya.notation import BUY_DHONI, BUY_VEDA, DISCARD_V, DONE, PASS, SPACE, TAKE
from engines.pralaya.state import (
    AFF_SHIFT,
    AVAIL_BITS_E,
    BUY,
    CARD_NAME,
    CELL_BITS,
    CELLS,
    COLLECT,
    COST_E,
    DHONI_IDS,
    DHONI_NAME,
    DISCARD,
    EMPTY,
    FIRST_GOL,
    FIRST_SIL,
    OVER,
    RELIC_SHIFT,
    State,
)

_thaw_dict = fastcopy.thaw_dict

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
        return public_event(
            "refill", "%s stays empty: the deck is empty" % cell, {"cell": cell, "card": None}
        )
    return public_event(
        "refill", "%s refilled: %s" % (cell, CARD_NAME[card]), {"cell": cell, "card": data.CARD_IDS[card]}
    )


def _refill_event(n: int, cell: int, card: int) -> Event:
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
        hit = _EVENTS[key] = public_event(
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
    hit = _EVENTS[key] = public_event("turn", text, {"seat": seat, "round": rnd, "vitality": vitality})
    return hit


def _seat_event(kind: int, seat: int) -> Event:
    """The ``done`` or ``pass`` event of ``seat``."""
    key = seat << 3 | kind
    hit = _EVENTS.get(key)
    if hit is None:
        if kind == _DONE:
            hit = public_event("done", "{s%d} is done collecting" % seat, {"seat": seat})
        else:
            hit = public_event("pass", "{s%d} buys nothing" % seat, {"seat": seat})
        _EVENTS[key] = hit
    return hit


# ------------------------------------------------------------------ automatic steps
#
# The machine works on ``d``, the dict of the action's one copy of the old state
# (:func:`engines.fastcopy.thaw_dict`), updated in place step after step until some seat has a
# decision or the game is over; the decision (``do_*``) then hands the copy out.


def start(d: dict[str, Any], ev: list[Event], seat: int, rnd: int, avail: int) -> None:
    """START (docs/rules/pralaya.md#turn) for ``seat`` in round ``rnd`` with the island's ``avail``:
    set ``last`` and Vitality, then COLLECT or DISCARD (or, with nothing affordable, BUY or END)."""
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
        return
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
        return
    buy_or_end(d, ev)  # nothing affordable (docs/rules/pralaya.md#at-least-one-relic)


def buy_or_end(d: dict[str, Any], ev: list[Event]) -> None:
    """Enter BUY, or skip it (to END) when no ``buy`` is legal."""
    seat = d["active"]
    if can_buy_with(d["dhoni"][seat], d["dhoni_pile"], d["veda"][seat], d["veda_price"], d["hands"][seat]):
        d["step"] = BUY
        return
    end(d, ev)


def _game_over(d: dict[str, Any], ev: list[Event], reason: str, text: str) -> None:
    ev.append(public_event("end", f"The game ends: {text}.", {"reason": reason}))
    d["step"] = OVER
    d["end_reason"] = reason


def end(d: dict[str, Any], ev: list[Event]) -> None:
    """END (docs/rules/pralaya.md#turn): the end checks (all escaped before the refill:
    docs/rules/pralaya.md#all-escaped-before-refill), the row-major refill of the cells taken
    (a cell stays empty once the deck is empty: docs/rules/pralaya.md#refill-row-major), then the
    next seat's START."""
    if d["last"]:
        _game_over(d, ev, "last_card", "only one relic was left at the start of the turn")
        return
    if -1 not in d["dhoni"]:
        _game_over(d, ev, "all_escaped", "every player has escaped")
        return
    taken = d["taken"]
    avail = d["avail"]
    new = 0
    if taken:
        deck = d["deck"]
        n = d["n"]
        cells = list(d["island"])
        used = 0
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
            ev.append(_EVENTS.get(key) or _refill_event(n, i, card))
        d["island"] = tuple(cells)
        d["avail"] = avail
        d["deck"] = deck[used:]
        d["taken"] = 0
    d["new"] = new
    if not avail:
        _game_over(d, ev, "island_empty", "only Oceans are left on the island")
        return
    nxt = d["active"] + 1
    if nxt == d["n"]:
        nxt = 0
    rnd = d["round"] + (nxt == d["first"])
    d["active"] = nxt
    d["round"] = rnd
    start(d, ev, nxt, rnd, avail)


def begin(s: State) -> tuple[State, list[Event]]:
    """START for the first seat of a freshly dealt state (:func:`engines.pralaya.state.deal`)."""
    ev: list[Event] = []
    out, d = _thaw_dict(s)
    start(d, ev, s.active, s.round, s.avail)
    return out, ev


def start_turn(s: State, ev: list[Event]) -> State:
    """START again for ``s.active`` in ``s.round`` on the island of ``s`` (see :func:`start`)."""
    out, d = _thaw_dict(s)
    start(d, ev, s.active, s.round, s.avail)
    return out


def end_turn(s: State, ev: list[Event]) -> State:
    """:func:`end` on ``s`` (the turn's last decision made)."""
    out, d = _thaw_dict(s)
    end(d, ev)
    return out


# ------------------------------------------------------------------ decisions (already legal)


def do_take(s: State, cell: int, ev: list[Event]) -> State:
    """COLLECT: move the card at ``cell`` to the active hand; BUY follows when nothing more fits."""
    out, d = _thaw_dict(s)
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
    n = d["n"]
    key = (((n << 3 | seat) << 5 | cell) << 7 | card) << 3 | _TAKE
    ev.append(_EVENTS.get(key) or _cell_event(_TAKE, seat, n, cell, card))
    if not avail >> AFF_SHIFT[v_left] & CELL_BITS:
        buy_or_end(d, ev)
    return out


def do_done(s: State, ev: list[Event]) -> State:
    """COLLECT: stop collecting. Leftover Vitality stays in ``v_left`` for this turn's record
    (invariant 4) but is lost: the next START sets it afresh (docs/rules/pralaya.md#one-relic-at-a-time)."""
    ev.append(_seat_event(_DONE, s.active))
    out, d = _thaw_dict(s)
    buy_or_end(d, ev)
    return out


def do_discard(s: State, cell: int, ev: list[Event]) -> State:
    """DISCARD (escaped seat): the relic at ``cell`` goes to the discard pile; then END."""
    out, d = _thaw_dict(s)
    island = d["island"]
    card = island[cell]
    d["island"] = island[:cell] + (EMPTY,) + island[cell + 1 :]
    d["avail"] ^= AVAIL_BITS_E[card] << cell
    d["discard"] += (card,)
    d["taken"] |= 1 << cell
    d["turn_cards"] += (card,)
    ev.append(_cell_event(_DISCARD, d["active"], d["n"], cell, card))
    end(d, ev)
    return out


def _pay(s: State, d: dict[str, Any], seat: int, pay: tuple[int, int, int]) -> list[str]:
    """Move the paid coins (the lowest-numbered of each type, in gold, silver, copper order) from
    ``seat``'s hand to the discard pile; returns their ids."""
    hand = s.hands[seat]
    x, y, z = pay
    c = bisect_left(hand, FIRST_SIL)
    cs = bisect_left(hand, FIRST_GOL, c)
    paid = hand[cs : cs + x] + hand[c : c + y] + hand[:z]
    new_hand = hand[z:c] + hand[c + y : cs] + hand[cs + x :]
    d["hands"] = s.hands[:seat] + (new_hand,) + s.hands[seat + 1 :]
    d["discard"] = s.discard + paid
    return [data.CARD_IDS[i] for i in paid]


def do_buy(s: State, what: str, pay: tuple[int, int, int], ev: list[Event]) -> State:
    """BUY: pay (see :func:`_pay`) and take the Veda or the top Dhoni; then END."""
    out, d = _thaw_dict(s)
    seat = s.active
    paid_ids = _pay(s, d, seat, pay)
    paying = pay_phrase(*pay)
    if what == "veda":
        veda = s.veda
        k = s.n - veda.count(0) + 1
        d["veda"] = veda[:seat] + (k,) + veda[seat + 1 :]
        text = f"{seat_tag(seat)} buys a Veda with {paying}"
        ev.append(public_event("buy", text, {"seat": seat, "card": f"ve{k}", "paid": paid_ids}))
    else:
        pile = s.dhoni_pile
        top = pile[0]
        d["dhoni"] = s.dhoni[:seat] + (top,) + s.dhoni[seat + 1 :]
        d["dhoni_pile"] = pile[1:]
        comma = "," if " and " in paying else ""  # "with 1 gold and 1 copper, and escapes"
        text = f"{seat_tag(seat)} buys {DHONI_NAME[top]} with {paying}{comma} and escapes"
        ev.append(public_event("buy", text, {"seat": seat, "card": DHONI_IDS[top], "paid": paid_ids}))
    end(d, ev)
    return out


def do_pass(s: State, ev: list[Event]) -> State:
    """BUY: buy nothing; then END."""
    ev.append(_seat_event(_PASS, s.active))
    out, d = _thaw_dict(s)
    end(d, ev)
    return out


# ------------------------------------------------------------------ apply


def apply(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
    """Apply one canonical action of the active seat and run the automatic steps after it.

    Returns ``(new state, events)``. Raises :class:`GameOver`, :class:`NotYourTurn`, or
    :class:`IllegalAction` with a reason (``s`` is never changed).
    """
    s = state
    if s.step == OVER:
        raise GameOver()
    if seat != s.active:
        raise NotYourTurn("It is not your turn: waiting for {s%d}." % s.active)
    dec = SPACE[s.n].get(action)
    ev: list[Event] = []
    if dec is not None:
        verb, arg = dec
        step = s.step
        if step == COLLECT:
            if verb == TAKE:
                if s.avail >> AFF_SHIFT[s.v_left] + arg & 1:
                    return do_take(s, arg, ev), ev
            elif verb == DONE and s.taken:
                return do_done(s, ev), ev
        elif step == BUY:
            if verb == PASS:
                return do_pass(s, ev), ev
            if verb in (BUY_VEDA, BUY_DHONI) and action in buy_actions(s):
                return do_buy(s, "veda" if verb == BUY_VEDA else "dhoni", arg, ev), ev
        elif step == DISCARD and verb == DISCARD_V and s.avail >> RELIC_SHIFT + arg & 1:
            return do_discard(s, arg, ev), ev
    raise IllegalAction(why_illegal(s, action))


def setup_event(s: State) -> Event:
    """The ``turn`` event of the first seat of a new game (what setup produced)."""
    seat = s.active
    can_take = s.step != BUY or bool(s.taken)
    return turn_event(seat, s.round, s.v_start, s.dhoni[seat] >= 0, can_take, s.last)
