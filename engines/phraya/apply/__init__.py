"""What a Phraya action does (docs/rules/phraya.md#turn): each verb's effect, the effect queue of
a played card, the steps that resolve themselves, the end of a turn and of the game
(docs/rules/phraya.md#end). ``write`` holds the in-place writes, ``effects`` the card and its
effects, ``interact`` the trades of the ACT step, ``ending`` the end of a turn and of the game.

``apply`` assumes the action is in the legal list (the engine checks that first).

Speed: ``apply`` copies the state once (:func:`engines.fastcopy.thaw_dict`) and every helper then
writes into that private copy in place (``write``, ``write_player``, :func:`engines.fastcopy.poke`;
a helper that writes several fields writes the copy's dict, :func:`engines.fastcopy.fields_of`),
so an action costs one copy of the state however many fields it touches; :class:`Player` values
stay immutable (a changed seat gets a new one). Nothing outside this package sees the copy before
``apply`` returns it, and from then on nobody writes to it again.
"""

from __future__ import annotations

from engines import fastcopy
from engines.fastcopy import fields_of, peek
from engines.phraya import data
from engines.phraya.apply.effects import advance, boat_to, discard, move_barge, play, refresh
from engines.phraya.apply.ending import check_end, end_turn, enter_act
from engines.phraya.apply.interact import interact, place_stall
from engines.phraya.apply.write import Events, event, seat_event, write
from engines.phraya.data import GI
from engines.phraya.legal import legal
from engines.phraya.state import (
    ACT,
    BARGE,
    CARD,
    DISCARD,
    HELD,
    LEGAL,
    MERCHANT,
    MOVE,
    OVER,
    PREMOVE,
    PRICE,
    REFRESH,
    SETUP_BOAT,
    SETUP_STALL,
    State,
    t4,
)


def _on_setup_boat(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """A boat placed at set-up; the stalls follow the last one."""
    boats = list(s.boats)
    boats[seat] = args[0]
    s = write(s, boats=tuple(boats), setup_i=s.setup_i + 1)
    ev.append(event("boat", f"{{s{seat}}} places the boat on {args[0]}.", {"seat": seat, "section": args[0]}))
    if s.setup_i == s.n:
        s = write(s, step=SETUP_STALL, setup_i=0)
    return s


def _on_setup_stall(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """A starting stall; round 1 follows the last one."""
    s = place_stall(s, seat, args[0], ev)
    s = write(s, setup_i=s.setup_i + 1)
    if s.setup_i == s.n:
        s = write(s, step=CARD, cur=s.first, round=1, setup_i=0)
        ev.append(event("round", f"Round 1: {{s{s.first}}} starts.", {"round": 1, "seat": s.first}))
    return s


def _on_merchant(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """The Merchant moved."""
    pos = (s.merchant + int(args[0])) % len(data.MERCHANT_ROUTE)
    a, b = data.MERCHANT_ROUTE[pos]
    d = fields_of(s)
    d["merchant"] = pos
    d["step"] = PRICE
    ev.append(
        event(
            "merchant",
            f"{{s{seat}}} moves the Merchant {args[0]} to {a}/{b}.",
            {"seat": seat, "position": pos},
        )
    )
    return s


def _on_price(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """The price changes of the Merchant's space."""
    prices = list(s.prices)
    words = []
    for i in range(0, len(args), 2):
        g, k = args[i], int(args[i + 1])
        gi = GI[g]
        prices[gi] = max(0, min(len(data.PRICE_ROWS[g]) - 1, prices[gi] + k))
        words.append(f"{g} {args[i + 1]} → {data.PRICE_ROWS[g][prices[gi]]}")
    d = fields_of(s)
    d["prices"] = t4(prices)
    d["pending"] = ""
    ev.append(
        event(
            "price",
            f"{{s{seat}}} changes prices: {', '.join(words)}.",
            {"seat": seat, "prices": list(prices)},
        )
    )
    s = advance(s, ev)
    return s


def _on_barge(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """The Royal Barge moved, with its blessings."""
    s = move_barge(s, seat, args[0], ev)
    s = advance(s, ev)
    return s


def _on_discard(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """A discard, or ``done``."""
    if verb == "done":
        s = write(s, pending="")
        s = advance(s, ev)
    else:
        s = discard(s, seat, args[0], ev)
        if legal(s, seat) == ["done"]:
            ev.append(event("auto", f"{{s{seat}}} has nothing more to discard.", {"seat": seat}))
            s = advance(write(s, pending=""), ev)
    return s


def _on_premove(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """The two-section move before the movement."""
    s = boat_to(s, seat, args[0], ev, "premove")
    s = advance(write(s, pending=""), ev)
    return s


def _on_refresh(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """The market refreshed or kept; the turn ends."""
    if verb == "refresh":
        s = refresh(s, seat, ev)
    else:
        ev.append(seat_event("keep", "{seat} keeps the market as it is.", seat))
    s = end_turn(s, ev)
    return s


_thaw_dict = fastcopy.thaw_dict

_STEPS = {
    SETUP_BOAT: _on_setup_boat,
    SETUP_STALL: _on_setup_stall,
    MERCHANT: _on_merchant,
    PRICE: _on_price,
    BARGE: _on_barge,
    DISCARD: _on_discard,
    PREMOVE: _on_premove,
    REFRESH: _on_refresh,
}
"""What an action does at each step but ACT, CARD and MOVE (written out in :func:`apply`)."""


def apply(s: State, seat: int, action: str) -> tuple[State, Events]:
    """The state after ``seat`` plays the legal ``action``, with the events, every
    self-resolving step after it applied, and the end of the game checked."""
    ev: Events = []
    s, d = _thaw_dict(s)  # the one copy of the action: ``state.fresh``, written out
    d[LEGAL] = None  # no list kept (cheaper than forget: no call)
    verb, _, rest = action.partition(" ")
    args = rest.split()
    step = d["step"]
    if step == ACT:  # the commonest steps without a call of their own (the others: _STEPS)
        if verb == "end":
            ev.append(seat_event("end", "{seat} ends the turn.", seat))
            s = end_turn(s, ev)
        else:
            s = interact(s, seat, verb, args, ev)
            if s.step != OVER:
                s = enter_act(s, seat, ev)
    elif step == CARD:
        s = play(s, seat, args[0], ev)
    elif step == MOVE:
        s = boat_to(s, seat, args[0], ev, "move")
        d["step"] = ACT  # (boat_to writes the same copy)
        s = enter_act(s, seat, ev)
    else:
        s = _STEPS[step](s, seat, verb, args, ev)
    if s.step != OVER:
        # the count kept on the state is current unless a stall piece was just placed at set-up
        # (an ACT interaction counts again itself)
        held = peek(s, HELD, None)
        if held is None or held >= 2 or step == SETUP_STALL:
            s = check_end(s, ev)
    return s, ev
