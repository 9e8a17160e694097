"""What a Kathai action does: the transitions, turn start and turn end, and their events.

Every function takes a state known to allow the move (see ``legal.check``) and returns the new
state; events are appended to ``ev``. Seat numbers in texts are ``{sN}`` tokens.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.events import Event
from engines.fastcopy import make
from engines.kathai.data import (
    CARD_TEXT,
    FINAL_TURNS,
    FINAL_TURNS_LAST_BUYER,
    GOODS,
    HAND_LIMIT,
    PRICES,
    WANTS,
    describe,
)
from engines.kathai.describe import CARD_WORDS, S, cards_words, offer_words, plural, skip_reason, want_words
from engines.kathai.legal import goods_items, offer_targets
from engines.kathai.notation import PROFIT, Move, ids_text, seat_text
from engines.kathai.state import (
    ALL,
    MAIN,
    OVER,
    REFUSED,
    REPLY,
    TRADING,
    Lock,
    Offer,
    Sale,
    State,
    declined_by,
    put,
    put_int,
    refused,
    upd,
)


def _event(
    kind: str,
    text: str,
    data: Mapping[str, object],
    private_to: int | frozenset[int] | None = None,
    twin: Event | None = None,
) -> Event:
    """``Event(kind, text, data, private_to, twin)`` made from a dict of its fields by
    :func:`engines.fastcopy.make`, without the frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` per field); ``tests/kathai/test_rules.py`` checks it equals the
    constructor's."""
    return make(Event, {"kind": kind, "text": text, "data": data, "private_to": private_to, "twin": twin})


def _say(ev: list[Event], kind: str, text: str, data: Mapping[str, object]) -> str:
    ev.append(_event(kind, text, data))
    return text


def _private(
    ev: list[Event],
    kind: str,
    to: int | frozenset[int],
    text: str,
    public: str,
    data: Mapping[str, object],
    pdata: Mapping[str, object],
) -> str:
    """A private event with its public twin; returns the public text."""
    ev.append(_event(kind, text, pdata, to, _event(kind, public, data)))
    return public


# --------------------------------------------------------------------------- turn start / end


def start_turn(s: State, seat: int, ev: list[Event]) -> State:
    """Seat ``seat``'s turn begins: counters reset, the automatic draw (rule: below 7 cards and
    a pile left). Emptying the pile triggers the end (two more turns each)."""
    turn = s.turn_no + 1
    ss = S(seat)
    ev.append(_event("turn", f"Turn {turn}: {ss} to play.", {"seat": seat, "turn": turn}))
    hand = s.hands[seat]
    if len(hand) < HAND_LIMIT and s.pile:
        card, pile = s.pile[0], s.pile[1:]
        _private(
            ev,
            "draw",
            seat,
            f"{ss} draws {CARD_WORDS[card]}.",
            f"{ss} draws a card.",
            {"seat": seat},
            {"seat": seat, "card": CARD_TEXT[card]},
        )
        final, final_turn = s.final, s.final_turn
        if not pile:
            final, final_turn = (FINAL_TURNS,) * s.n, turn
            ev.append(
                _event(
                    "final", "The pile is empty: after this turn everyone has two more turns.", {"seat": seat}
                )
            )
        return upd(
            s,
            active=seat,
            step=MAIN,
            turn_no=turn,
            offers_used=0,
            traded=False,
            offer=None,
            pile=pile,
            hands=put(s.hands, seat, tuple(sorted(hand + (card,)))),
            fresh=put(s.fresh, seat, (card,)),
            final=final,
            final_turn=final_turn,
            **{REFUSED: ()},
        )
    return upd(
        s,
        active=seat,
        step=MAIN,
        turn_no=turn,
        offers_used=0,
        traded=False,
        offer=None,
        fresh=put(s.fresh, seat, ()),
        **{REFUSED: ()},
    )


def end_turn(s: State, ev: list[Event]) -> State:
    """The active seat's turn ends: final-turn counting, the turn limit, the next seat."""
    final = s.final
    if final is not None and s.final_turn < s.turn_no:
        final = put_int(final, s.active, final[s.active] - 1)
        s = upd(s, final=final)
    if final is not None:
        nxt = next(((s.active + i) % s.n for i in range(1, s.n + 1) if final[(s.active + i) % s.n] > 0), None)
        if nxt is None:
            return _game_over(s, "pile", ev)
    else:
        nxt = (s.active + 1) % s.n
    if s.turn_no >= s.opts.turn_limit:
        return _game_over(s, "turn_limit", ev)
    return start_turn(s, nxt, ev)


def _game_over(s: State, reason: str, ev: list[Event]) -> State:
    top = max(s.scores)
    why = "the final turns are played" if reason == "pile" else f"turn {s.turn_no} was the last"
    text = (
        f"Game over ({why}). Scores: "
        + ", ".join(f"{S(q)} {s.scores[q]}" for q in range(s.n))
        + f"; best {top}."
    )
    ev.append(_event("over", text, {"reason": reason, "scores": list(s.scores)}))
    return upd(s, step=OVER, reason=reason, offer=None, last=text, **{REFUSED: ()})


# --------------------------------------------------------------------------- actions


def do_sell(s: State, m: Move, ev: list[Event]) -> State:
    """Sell ``m.ids`` as goods ``m.goods``: score, keep the lowest id, shift the row, clear
    the lock; the turn ends."""
    p, g, ids = s.active, m.goods, m.ids
    pos = s.market.index(g)
    bonus = PRICES[pos][0]
    points = len(ids) + bonus
    items = goods_items(ids, g)
    market = s.market[:pos] + s.market[pos + 1 :] + (g,)
    down = s.discard_down
    if s.lock is not None:
        down = down + (s.lock.card,)
    hand = tuple(c for c in s.hands[p] if c not in ids)
    sale = Sale(seat=p, turn=s.turn_no, goods=g, pos=pos, cards=ids, items=items, bonus=bonus, points=points)
    s = upd(
        s,
        hands=put(s.hands, p, hand),
        profit=put(s.profit, p, tuple(sorted(s.profit[p] + (ids[0],)))),
        discard_up=s.discard_up + ids[1:],
        discard_down=down,
        market=market,
        lock=None,
        scores=put_int(s.scores, p, s.scores[p] + points),
        sales=s.sales + (sale,),
    )
    text = (
        f"{S(p)} sells {GOODS[g]} at position {pos + 1}: {ids_text(ids)} ({items} "
        f"{GOODS[g]}) for {len(ids)} + {bonus} = {plural(points, 'point')}, keeping a profit card. "
        f"Market: {' '.join(GOODS[x] for x in market)}."
    )
    s = upd(
        s,
        last=_say(
            ev,
            "sell",
            text,
            {
                "seat": p,
                "goods": GOODS[g],
                "pos": pos + 1,
                "cards": [CARD_TEXT[c] for c in ids],
                "points": points,
            },
        ),
    )
    return end_turn(s, ev)


def do_bribe(s: State, m: Move, ev: list[Event]) -> State:
    """Swap the two goods, put the payment face down on them as the new lock; the turn ends."""
    p = s.active
    a, b = m.pair
    market = list(s.market)
    pa, pb = market.index(a), market.index(b)
    market[pa], market[pb] = b, a
    down = s.discard_down + ((s.lock.card,) if s.lock is not None else ())
    hands, profit, spent = s.hands, s.profit, s.spent
    if m.pay == PROFIT:
        card = profit[p][0]
        profit = put(profit, p, profit[p][1:])
        spent = put_int(spent, p, spent[p] + 1)
        paid = "a profit card"
    else:
        card = m.pay
        hands = put(hands, p, tuple(c for c in hands[p] if c != card))
        paid = "a card from the hand"
    left, right = (a, b) if pa > pb else (b, a)  # after the swap, position order
    s = upd(
        s,
        market=tuple(market),
        discard_down=down,
        hands=hands,
        profit=profit,
        spent=spent,
        lock=Lock(pair=m.pair, card=card, by=p, turn=s.turn_no),
    )
    where = f"{GOODS[left]} and {GOODS[right]} (positions {min(pa, pb) + 1}–{max(pa, pb) + 1})"
    public = f"{S(p)} bribes with {paid}: now {where}; that pair is locked."
    data = {"seat": p, "pair": [GOODS[left], GOODS[right]], "profit": m.pay == PROFIT}
    s = upd(
        s,
        last=_private(
            ev,
            "bribe",
            p,
            public + f" (Your card: {CARD_TEXT[card]}.)",
            public,
            data,
            {**data, "card": CARD_TEXT[card]},
        ),
    )
    return end_turn(s, ev)


def do_buy(s: State, ev: list[Event]) -> State:
    """Spend the lowest profit card, draw one; emptying the pile gives this seat one final
    turn and the others two; the turn ends."""
    p = s.active
    spent_card = s.profit[p][0]
    card, pile = s.pile[0], s.pile[1:]
    s = upd(
        s,
        profit=put(s.profit, p, s.profit[p][1:]),
        spent=put_int(s.spent, p, s.spent[p] + 1),
        discard_down=s.discard_down + (spent_card,),
        pile=pile,
        hands=put(s.hands, p, tuple(sorted(s.hands[p] + (card,)))),
        fresh=put(s.fresh, p, (card,)),
    )
    public = f"{S(p)} spends a profit card and draws a card."
    s = upd(
        s,
        last=_private(
            ev,
            "buy",
            p,
            f"{S(p)} spends a profit card and draws {CARD_TEXT[card]} ({describe(card)}).",
            public,
            {"seat": p},
            {"seat": p, "card": CARD_TEXT[card]},
        ),
    )
    if not pile:
        final = put_int((FINAL_TURNS,) * s.n, p, FINAL_TURNS_LAST_BUYER)
        s = upd(s, final=final, final_turn=s.turn_no)
        ev.append(
            _event(
                "final",
                f"The pile is empty: {S(p)} bought the last card and has one more "
                "turn; everyone else has two.",
                {"seat": p},
            )
        )
    return end_turn(s, ev)


def do_swap(s: State, m: Move, ev: list[Event]) -> State:
    """Put the card under the pile and draw the top card; the turn ends."""
    p, card = s.active, m.ids[0]
    pile = s.pile + (card,)
    got, pile = pile[0], pile[1:]
    hand = tuple(sorted([c for c in s.hands[p] if c != card] + [got]))
    s = upd(s, pile=pile, hands=put(s.hands, p, hand), fresh=put(s.fresh, p, (got,)))
    public = f"{S(p)} puts a card under the pile and draws the top card."
    s = upd(
        s,
        last=_private(
            ev,
            "swap",
            p,
            f"{S(p)} puts {CARD_TEXT[card]} under the pile and draws {CARD_TEXT[got]} ({describe(got)}).",
            public,
            {"seat": p},
            {"seat": p, "out": CARD_TEXT[card], "in": CARD_TEXT[got]},
        ),
    )
    return end_turn(s, ev)


def do_pass(s: State, ev: list[Event]) -> State:
    """The turn ends."""
    s = upd(s, last=_say(ev, "pass", f"{S(s.active)} ends the turn.", {"seat": s.active}))
    return end_turn(s, ev)


def do_offer(s: State, m: Move, ev: list[Event]) -> State:
    """Open an offer: the eligible addressees must answer (several at once)."""
    p = s.active
    if m.target == ALL:
        addressees = offer_targets(s, len(m.ids), m.k)
        skipped = tuple(x for x in range(s.n) if x != p and x not in addressees)
    else:
        addressees, skipped = (m.target,), ()
    o = Offer(by=p, target=m.target, give=m.ids, want=m.want, k=m.k, addressees=addressees, skipped=skipped)
    why = [f"{S(x)} skipped: {skip_reason(len(s.hands[x]), len(m.ids), m.k)}" for x in skipped]
    public = offer_words(o) + (" (" + "; ".join(why) + ")" if why else "") + "."
    data = {
        "seat": p,
        "to": seat_text(m.target),
        "give": len(m.ids),
        "want": WANTS[m.want],
        "k": m.k,
        "addressees": list(addressees),
        "skipped": list(skipped),
    }
    gives = cards_words(m.ids) if m.ids else "nothing"
    private = public + f" Offered: {gives}."
    _private(
        ev,
        "offer",
        frozenset((p, *addressees)),
        private,
        public,
        data,
        {**data, "cards": [CARD_TEXT[c] for c in m.ids]},
    )
    return upd(s, step=REPLY, offer=o, offers_used=s.offers_used + 1, last=public)


def do_accept(s: State, seat: int, m: Move, ev: list[Event]) -> State:
    """Carry out the trade with ``seat`` at once; the active seat goes on in ``trading``."""
    o = s.offer
    assert o is not None
    p = o.by
    hp = tuple(sorted([c for c in s.hands[p] if c not in o.give] + list(m.ids)))
    hx = tuple(sorted([c for c in s.hands[seat] if c not in m.ids] + list(o.give)))
    hands = put(put(s.hands, p, hp), seat, hx)
    fresh = put(put(s.fresh, p, m.ids), seat, o.give)
    want = want_words(o.want)
    public = (
        f"{S(p)} and {S(seat)} trade: {plural(len(o.give), 'card')} for "
        f"{plural(o.k, 'card')} (each shows {want})."
    )
    private = (
        f"{S(p)} and {S(seat)} trade: {S(p)} gives {ids_text(o.give) or 'nothing'}, "
        f"{S(seat)} gives {ids_text(m.ids) or 'nothing'}."
    )
    data = {"seat": seat, "by": p, "give": len(o.give), "k": o.k, "want": WANTS[o.want]}
    _private(
        ev,
        "trade",
        frozenset((p, seat)),
        private,
        public,
        data,
        {**data, "given": [CARD_TEXT[c] for c in o.give], "received": [CARD_TEXT[c] for c in m.ids]},
    )
    # the partner's hand changed: its refusals no longer say what it would answer now; asks
    # whose cards the offerer gave away cannot be made again
    mem = tuple(r for r in refused(s) if r[0] != seat and set(r[1]) <= set(hp))
    return upd(
        s, hands=hands, fresh=fresh, traded=True, step=TRADING, offer=None, last=public, **{REFUSED: mem}
    )


def do_decline(s: State, seat: int, ev: list[Event]) -> State:
    """``seat`` declines; once every addressee has, the active seat goes on in ``trading``."""
    o = s.offer
    assert o is not None
    mem = refused(s) + ((seat, o.give, o.want, o.k),)
    o = declined_by(o, seat)
    text = _say(ev, "decline", f"{S(seat)} declines.", {"seat": seat})
    if len(o.declined) == len(o.addressees):
        text = _say(ev, "declined", f"{S(o.by)}'s offer is declined by everyone.", {"seat": o.by})
        return upd(s, offer=None, step=TRADING, last=text, **{REFUSED: mem})
    return upd(s, offer=o, last=text, **{REFUSED: mem})


# --------------------------------------------------------------------------- the dispatch


def play(s: State, seat: int, m: Move, ev: list[Event]) -> State:
    """Carry out the legal move ``m`` of ``seat``, appending its events to ``ev``."""
    v = m.verb
    if v == "sell":
        return do_sell(s, m, ev)
    if v == "bribe":
        return do_bribe(s, m, ev)
    if v == "buy":
        return do_buy(s, ev)
    if v == "swap":
        return do_swap(s, m, ev)
    if v == "pass":
        return do_pass(s, ev)
    if v == "offer":
        return do_offer(s, m, ev)
    if v == "accept":
        return do_accept(s, seat, m, ev)
    return do_decline(s, seat, ev)


def first_turn(s: State) -> State:
    """The dealt state (``state.deal``) with the first seat's turn started (its draw)."""
    return start_turn(s, s.active, [])


def setup_events(s: State) -> list[Event]:
    """The market, who starts, and each seat's private draw of the first turn."""
    market = " ".join(GOODS[g] for g in s.market)
    ev = [
        Event(
            "setup",
            f"Kathai for {s.n}. Market (1→5): {market}. {{s{s.active}}} starts.",
            {"seat": s.active, "market": [GOODS[g] for g in s.market]},
        )
    ]
    for q in range(s.n):
        cards = " ".join(CARD_TEXT[c] for c in s.hands[q])
        ev.append(
            Event(
                "hand",
                f"{{s{q}}} holds {cards}.",
                {"seat": q},
                private_to=q,
                twin=Event("hand", f"{{s{q}}} holds {len(s.hands[q])} cards.", {"seat": q}),
            )
        )
    return ev
