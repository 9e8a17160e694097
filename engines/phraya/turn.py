"""Applying Phraya actions (spec §4, §8): each verb's effect, the effect queue of a played card,
the steps that resolve themselves, the end of a turn and the end of the game (§7).

``apply`` assumes the action is in the legal list (the engine checks that first).

Speed: ``apply`` copies the state once (:func:`state.fresh`) and every helper here then writes
into that private copy in place (``_put``, ``_with_player``...), so an action costs one copy of
the state's field dict however many fields it touches; :class:`Player` values stay immutable
(a changed seat gets a new one). Nothing outside this module ever sees the copy before
``apply`` returns it, and from then on nobody writes to it again.
"""

from __future__ import annotations

from typing import Any

from engines.base import Event
from engines.phraya import board, data
from engines.phraya.flow import (
    Events,
    act_texts,
    king_pay,
    legal,
    move_texts,
    order_need,
    premove_choices,
    t4,
    temple_cost,
    unit_price,
)
from engines.phraya.state import (
    ACT,
    BARGE,
    BASKET,
    CARD,
    CARDS,
    DISCARD,
    GI,
    HELD,
    KING_INDEX,
    LEGAL,
    MERCHANT,
    MOVE,
    ORDER,
    OVER,
    PREMOVE,
    PRICE,
    REFRESH,
    SETUP_BOAT,
    SETUP_STALL,
    TEMPLE_ROW,
    Player,
    State,
    conditions,
    fresh,
    move_mask,
    nsorted,
    price,
)

_new = object.__new__
_osa = object.__setattr__


def _ev(kind: str, text: str, data: dict[str, Any]) -> Event:
    """``Event(kind, text, data)`` (public), built without the dataclass ``__init__``."""
    e = _new(Event)
    _osa(e, "__dict__", {"kind": kind, "text": text, "data": data, "private_to": None, "twin": None})
    return e


def _put(s: State, **changes: Any) -> State:
    """Write ``changes`` into ``apply``'s own copy ``s`` (in place); returns ``s``."""
    s.__dict__.update(changes)
    return s


def _with_player(s: State, seat: int, **changes: Any) -> State:
    """Give ``seat`` a new :class:`Player` with ``changes`` in ``apply``'s own copy ``s``."""
    ps = list(s.players)
    d = ps[seat].__dict__.copy()
    d.update(changes)
    p = _new(Player)
    _osa(p, "__dict__", d)
    ps[seat] = p
    s.__dict__["players"] = tuple(ps)
    return s


def _gain_flowers(s: State, seat: int, k: int) -> tuple[State, int]:
    """Give ``seat`` up to ``k`` flowers from the supply; returns the state and how many."""
    k = min(k, s.supply_flowers)
    if k <= 0:
        return s, 0
    p = s.players[seat]
    s = _with_player(s, seat, flowers=p.flowers + k)
    return _put(s, supply_flowers=s.supply_flowers - k), k


def _gain_favor(s: State, seat: int) -> tuple[State, int]:
    if s.supply_favors <= 0:
        return s, 0
    p = s.players[seat]
    s = _with_player(s, seat, favors=p.favors + 1)
    return _put(s, supply_favors=s.supply_favors - 1), 1


def _goods_delta(s: State, seat: int, delta: list[int]) -> State:
    """``seat`` takes ``delta[i]`` of good i from the supply (negative: gives back)."""
    p = s.players[seat]
    goods = t4([p.goods[i] + delta[i] for i in range(4)])
    supply = t4([s.supply_goods[i] - delta[i] for i in range(4)])
    s = _with_player(s, seat, goods=goods)
    return _put(s, supply_goods=supply)


GOODS = data.GOODS
_COND_NAMES = ("Royal Tithe", "Buddha worshipped", "Market supremacy")


def apply(s: State, seat: int, action: str) -> tuple[State, Events]:
    """The state after ``seat`` plays the legal ``action``, with the events, every
    self-resolving step after it applied, and the end of the game checked."""
    ev: Events = []
    d = s.__dict__.copy()  # ``fresh(s)``, written out: once per action
    if LEGAL in d:
        del d[LEGAL]
    s = _new(State)
    _osa(s, "__dict__", d)
    verb, _, rest = action.partition(" ")
    args = rest.split()
    step = s.step
    if step == SETUP_BOAT:
        boats = list(s.boats)
        boats[seat] = args[0]
        s = _put(s, boats=tuple(boats), setup_i=s.setup_i + 1)
        ev.append(
            _ev("boat", f"{{s{seat}}} places the boat on {args[0]}.", {"seat": seat, "section": args[0]})
        )
        if s.setup_i == s.n:
            s = _put(s, step=SETUP_STALL, setup_i=0)
    elif step == SETUP_STALL:
        s = _place_stall(s, seat, args[0], ev)
        s = _put(s, setup_i=s.setup_i + 1)
        if s.setup_i == s.n:
            s = _put(s, step=CARD, cur=s.first, round=1, setup_i=0)
            ev.append(_ev("round", f"Round 1: {{s{s.first}}} starts.", {"round": 1, "seat": s.first}))
    elif step == CARD:
        s = _play(s, seat, args[0], ev)
    elif step == MERCHANT:
        pos = (s.merchant + int(args[0])) % len(data.MERCHANT_ROUTE)
        a, b = data.MERCHANT_ROUTE[pos]
        s = _put(s, merchant=pos, step=PRICE)
        ev.append(
            _ev(
                "merchant",
                f"{{s{seat}}} moves the Merchant {args[0]} to {a}/{b}.",
                {"seat": seat, "position": pos},
            )
        )
    elif step == PRICE:
        prices = list(s.prices)
        words = []
        for i in range(0, len(args), 2):
            g, k = args[i], int(args[i + 1])
            gi = GI[g]
            prices[gi] = max(0, min(len(data.PRICE_ROWS[g]) - 1, prices[gi] + k))
            words.append(f"{g} {args[i + 1]} → {data.PRICE_ROWS[g][prices[gi]]}")
        s = _put(s, prices=t4(prices), pending="")
        ev.append(
            _ev(
                "price",
                f"{{s{seat}}} changes prices: {', '.join(words)}.",
                {"seat": seat, "prices": list(prices)},
            )
        )
        s = _advance(s, ev)
    elif step == BARGE:
        s = _barge(s, seat, args[0], ev)
        s = _advance(s, ev)
    elif step == DISCARD:
        if verb == "done":
            s = _put(s, pending="")
            s = _advance(s, ev)
        else:
            s = _discard(s, seat, args[0], ev)
            if legal(s, seat) == ["done"]:
                ev.append(_ev("auto", f"{{s{seat}}} has nothing more to discard.", {"seat": seat}))
                s = _advance(_put(s, pending=""), ev)
    elif step == PREMOVE:
        s = _boat_to(s, seat, args[0], ev, "premove")
        s = _advance(_put(s, pending=""), ev)
    elif step == REFRESH:
        if verb == "refresh":
            s = _refresh(s, seat, ev)
        else:
            ev.append(_ev("keep", f"{{s{seat}}} keeps the market as it is.", {"seat": seat}))
        s = _end_turn(s, ev)
    elif step == MOVE:
        s = _boat_to(s, seat, args[0], ev, "move")
        s.__dict__["step"] = ACT
        s = _enter_act(s, seat, ev)
    elif step == ACT:
        if verb == "end":
            ev.append(_ev("end", f"{{s{seat}}} ends the turn.", {"seat": seat}))
            s = _end_turn(s, ev)
        else:
            s = _interact(s, seat, verb, args, ev)
            if s.step != OVER:
                s = _enter_act(s, seat, ev)
    if s.step != OVER:
        # the count kept on the state is current unless a stall piece was just placed at set-up
        # (an ACT interaction counts again itself)
        held = s.__dict__.get(HELD)
        if held is None or held >= 2 or step == SETUP_STALL:
            s = _check_end(s, ev)
    return s, ev


# --------------------------------------------------------------------------- end of game


def _check_end(s: State, ev: Events) -> State:
    """End the game at once when two of the three conditions hold (spec §7); else keep the
    count on ``s`` (``state.HELD``)."""
    conds = conditions(s)
    held = conds[0] + conds[1] + conds[2]
    if held >= 2:
        names = " and ".join(n for n, c in zip(_COND_NAMES, conds, strict=False) if c)
        return _finish(s, ev, names)
    s.__dict__[HELD] = held
    return s


def finish(s: State, ev: Events, reason: str) -> State:
    """A copy of ``s`` after the final sale of every boat's goods at current prices, at OVER;
    appends the ``over`` event to ``ev``."""
    return _finish(fresh(s), ev, reason)


def _finish(s: State, ev: Events, reason: str) -> State:
    """:func:`finish` in place (the only write that may follow ``_enter_act`` or the move
    step's start in ``_advance``, so it drops the legal list they may have left)."""
    s.__dict__.pop(HELD, None)
    s.__dict__.pop(LEGAL, None)
    sale = []
    for q in range(s.n):
        p = s.players[q]
        got = sum(p.goods[i] * price(s, g) for i, g in enumerate(GOODS))
        sale.append(got)
        s = _goods_delta(s, q, [-k for k in p.goods])
        s = _with_player(s, q, coins=s.players[q].coins + got)
    s = _put(
        s,
        step=OVER,
        end_reason=reason,
        final_sale=tuple(sale),
        card="",
        pending="",
        effects=(),
        passives=(),
        used=(),
    )
    sold = ", ".join(f"{{s{q}}} +{c}" for q, c in enumerate(sale) if c)
    ev.append(
        _ev(
            "over",
            f"The game ends: {reason}. Final sale: {sold or 'nothing to sell'}.",
            {"reason": reason, "sale": sale},
        )
    )
    return s


def _end_turn(s: State, ev: Events) -> State:
    d = s.__dict__
    nxt = (s.cur + 1) % s.n
    d["card"] = d["pending"] = ""
    d["effects"] = d["passives"] = d["used"] = ()
    d["cur"] = nxt
    d["step"] = CARD
    if nxt == s.first:
        rnd = d["round"] = s.round + 1
        limit = s.opts.round_limit
        if limit and rnd > limit:
            d["round"] = limit
            return _finish(s, ev, f"round limit {limit}")
        ev.append(_ev("round", f"Round {rnd}.", {"round": rnd}))
    return s


# --------------------------------------------------------------------------- the card and its effects


def _play(s: State, seat: int, cid: str, ev: Events) -> State:
    p = s.players[seat]
    hand = tuple([c for c in p.hand if c != cid])
    s = _with_player(s, seat, hand=hand, discard=(*p.discard, cid))
    card = CARDS[cid]
    d = s.__dict__
    d["card"] = cid
    d["effects"] = card.immediate
    d["passives"] = card.passive
    d["used"] = ()
    d["pending"] = ""
    ev.append(_ev("play", f"{{s{seat}}} plays {cid} ({card.name}).", {"seat": seat, "card": cid}))
    return _advance(s, ev)


def _head(effect: str) -> tuple[str, int]:
    """An effect's first word, and its amount for ``coins n``."""
    w = effect.split()
    return w[0], int(w[1]) if w[0] == "coins" else 0


_HEADS = {e: _head(e) for c in CARDS.values() for e in c.immediate}


def _advance(s: State, ev: Events) -> State:
    """Resolve queued effects until one needs a choice; then MOVE (or ACT, or the turn's end)."""
    seat = s.cur
    d = s.__dict__
    while s.effects:
        eff = s.effects[0]
        d["effects"] = s.effects[1:]
        d["pending"] = eff
        head, k = _HEADS.get(eff) or _head(eff)
        if head == "coins":
            s = _with_player(s, seat, coins=s.players[seat].coins + k)
            ev.append(_ev("coins", f"{{s{seat}}} gains {k} coins.", {"seat": seat, "coins": k}))
        elif head == "flower":
            s, k = _gain_flowers(s, seat, 1)
            ev.append(
                _ev(
                    "flower",
                    f"{{s{seat}}} gains {k} flower{'s' if k != 1 else ''}.",
                    {"seat": seat, "flowers": k},
                )
            )
        elif head == "mer":
            d["step"] = MERCHANT
            return s
        elif head == "barge":
            d["step"] = BARGE
            return s
        elif head in ("g2f", "f2c"):
            d["step"] = DISCARD
            if legal(s, seat) != ["done"]:
                return s
            ev.append(_ev("auto", f"{{s{seat}}} has nothing to discard.", {"seat": seat}))
        elif head == "boat2":
            d["step"] = PREMOVE
            if premove_choices(s, seat):
                return s
            ev.append(_ev("auto", f"{{s{seat}}} cannot move before the movement.", {"seat": seat}))
        elif head == "retrieve":
            p = s.players[seat]
            k = len(p.discard) * data.RETRIEVE_COIN_PER_CARD
            s = _with_player(s, seat, coins=p.coins + k, hand=tuple(nsorted(p.hand + p.discard)), discard=())
            ev.append(
                _ev(
                    "retrieve",
                    f"{{s{seat}}} takes back {len(p.discard)} cards and gains {k} coins.",
                    {"seat": seat, "coins": k},
                )
            )
            s = _put(s, step=REFRESH, effects=(), pending="")
            if s.display[0]:
                return s
            ev.append(_ev("auto", f"{{s{seat}}} keeps the market (slot 1 is empty).", {"seat": seat}))
            return _end_turn(s, ev)
        d["pending"] = ""
    d["pending"] = ""
    d["step"] = MOVE
    mask = move_mask(s, seat)
    if mask:
        d[LEGAL] = (seat, move_texts(mask))  # the legal list, for the engine (``state.LEGAL``)
        return s
    ev.append(_ev("auto", f"{{s{seat}}} cannot move and acts in place.", {"seat": seat}))
    d["step"] = ACT
    return _enter_act(s, seat, ev)


def _enter_act(s: State, seat: int, ev: Events) -> State:
    """ACT, or the turn's end when ``end`` is the only choice (else the ACT list is left on
    ``s`` for the engine, see ``state.LEGAL``)."""
    acts = act_texts(s, seat)
    if len(acts) == 1:
        ev.append(_ev("auto", f"{{s{seat}}} has nothing more to do; the turn ends.", {"seat": seat}))
        return _end_turn(s, ev)
    s.__dict__[LEGAL] = (seat, acts)
    return s


_ADJACENT = {x: tuple(board.STALL_INDEX[b] for b in board.adjacent_stalls(x)) for x in board.CROSSINGS}
"""Per crossing, the ``owner`` indexes of its 8 adjacent stalls."""


def _barge(s: State, seat: int, x: str, ev: Events) -> State:
    bless = s.pending.split()[2]
    kind, amount = data.BLESSINGS[bless]
    s = _put(s, barge=x)
    per = [0] * s.n
    owner = s.owner
    for i in _ADJACENT[x]:
        q = owner[i]
        if q >= 0:
            per[q] += 1
    got = []
    for k in range(s.n):
        q = (seat + k) % s.n
        if not per[q]:
            continue
        if kind == "flowers":
            s, g = _gain_flowers(s, q, per[q] * amount)
            got.append(f"{{s{q}}} +{g} flower{'s' if g != 1 else ''}")
        else:
            s = _with_player(s, q, coins=s.players[q].coins + per[q] * amount)
            got.append(f"{{s{q}}} +{per[q] * amount} coins")
    ev.append(
        _ev(
            "barge",
            f"{{s{seat}}} moves the Royal Barge to {x}. Blessings: {', '.join(got) or 'none'}.",
            {"seat": seat, "crossing": x},
        )
    )
    return _put(s, pending="")


def _discard(s: State, seat: int, what: str, ev: Events) -> State:
    if what == "flower":
        p = s.players[seat]
        s = _with_player(s, seat, flowers=p.flowers - 1, coins=p.coins + 3)
        s = _put(s, supply_flowers=s.supply_flowers + 1)
        ev.append(_ev("discard", f"{{s{seat}}} discards a flower for 3 coins.", {"seat": seat}))
        return s
    delta = [0, 0, 0, 0]
    delta[GI[what]] = -1
    s = _goods_delta(s, seat, delta)
    s, k = _gain_flowers(s, seat, 1)
    ev.append(_ev("discard", f"{{s{seat}}} discards a {what} for {k} flower.", {"seat": seat, "good": what}))
    return s


def _boat_to(s: State, seat: int, sec: str, ev: Events, verb: str) -> State:
    boats = list(s.boats)
    start = boats[seat]
    boats[seat] = sec
    ev.append(
        _ev(
            verb,
            f"{{s{seat}}} {'first moves' if verb == 'premove' else 'moves'} {start} → {sec}.",
            {"seat": seat, "from": start, "to": sec},
        )
    )
    d = s.__dict__
    d["boats"] = tuple(boats)
    d["last_move"] = (start, sec)
    return s


def _refresh(s: State, seat: int, ev: Events) -> State:
    disp = list(s.display)
    first = disp.pop(0)
    deck = (*s.deck, first)
    disp.append(deck[0])
    ev.append(
        _ev(
            "refresh",
            f"{{s{seat}}} refreshes the market: {first} ({CARDS[first].name}) goes under the deck, "
            f"{deck[0]} ({CARDS[deck[0]].name}) comes out.",
            {"seat": seat, "out": first, "in": deck[0]},
        )
    )
    return _put(s, display=tuple(disp), deck=deck[1:])


# --------------------------------------------------------------------------- interactions


def _place_stall(s: State, seat: int, sid: str, ev: Events) -> State:
    owner = list(s.owner)
    owner[board.STALL_INDEX[sid]] = seat
    p = s.players[seat]
    s = _with_player(_put(s, owner=tuple(owner)), seat, stalls_left=p.stalls_left - 1)
    ev.append(
        _ev(
            "stall",
            f"{{s{seat}}} takes the {s.board.stalls[sid].good} stall {sid}.",
            {"seat": seat, "stall": sid},
        )
    )
    return s


def _owner_flower(s: State, seat: int, sid: str, ev: Events) -> State:
    q = s.owner[board.STALL_INDEX[sid]]
    if q >= 0 and q != seat:
        s, k = _gain_flowers(s, q, 1)
        if k:
            ev.append(_ev("owner", f"{{s{q}}} gets a flower as the owner of {sid}.", {"seat": q}))
    return s


def _interact(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """Apply one ACT interaction and mark its target used."""
    p = s.players[seat]
    sec = s.boats[seat]
    target = ""
    if verb in ("buy", "sell"):
        sid = args[0]
        target = sid
        g = str(s.board.stalls[sid].good)
        n = int(args[1])
        gi = GI[g]
        goods = list(p.goods)
        supply = list(s.supply_goods)
        d = s.__dict__
        if verb == "buy":
            k = int(args[3]) if len(args) > 3 else 0
            cost = (n - k) * unit_price(s, g)
            goods[gi] += n
            supply[gi] -= n
            s = _with_player(s, seat, goods=t4(goods), coins=p.coins - cost, favors=p.favors - k)
            d["supply_goods"] = t4(supply)
            d["supply_favors"] = s.supply_favors + k
            favtxt = f"{k} favor{'s' if k > 1 else ''}"
            paid = favtxt if not cost else f"{cost} coins and {favtxt}" if k else f"{cost} coins"
            ev.append(
                _ev(
                    "buy",
                    f"{{s{seat}}} buys {n} {g} for {paid}.",
                    {"seat": seat, "stall": sid, "n": n, "coins": cost, "favors": k},
                )
            )
        else:
            got = n * price(s, g)
            goods[gi] -= n
            supply[gi] += n
            s = _with_player(s, seat, goods=t4(goods), coins=p.coins + got)
            d["supply_goods"] = t4(supply)
            ev.append(
                _ev(
                    "sell",
                    f"{{s{seat}}} sells {n} {g} for {got} coins.",
                    {"seat": seat, "stall": sid, "n": n, "coins": got},
                )
            )
        s = _owner_flower(s, seat, sid, ev)
    elif verb == "stall":
        target = _service(s, sec, "admin")
        cost = data.ADMIN_PRICE_DISCOUNT if "stall5" in s.passives else data.ADMIN_PRICE
        s = _with_player(s, seat, coins=p.coins - cost)
        s = _place_stall(s, seat, args[0], ev)
    elif verb == "basket":
        target = _service(s, sec, "basket")
        i = s.board.baskets.index(target)
        tile = s.stall_baskets[i]
        a, b, cost = BASKET[tile]
        if args:
            s = _with_player(s, seat, favors=p.favors - 1, baskets=(*p.baskets, tile))
            s = _put(s, supply_favors=s.supply_favors + 1)
            paid = "a favor"
        else:
            s = _with_player(s, seat, coins=p.coins - int(cost), baskets=(*p.baskets, tile))
            paid = f"{cost} coins"
        on = list(s.stall_baskets)
        on[i] = s.bag[0] if s.bag else ""
        s = _put(s, stall_baskets=tuple(on), bag=s.bag[1:])
        ev.append(
            _ev(
                "basket",
                f"{{s{seat}}} buys a {a}/{b} basket at {target} for {paid}.",
                {"seat": seat, "goods": [a, b]},
            )
        )
    elif verb == "rower":
        target = _service(s, sec, "basket")
        what = args[0]
        if what == "favor":
            s = _with_player(s, seat, favors=p.favors - 1)
            s = _put(s, supply_favors=s.supply_favors + 1)
        else:
            delta = [0, 0, 0, 0]
            delta[GI[what]] = -1
            s = _goods_delta(s, seat, delta)
        s = _with_player(s, seat, rowers=s.players[seat].rowers + 1)
        s = _put(s, supply_rowers=s.supply_rowers - 1)
        ev.append(_ev("rower", f"{{s{seat}}} hires a rower for a {what}.", {"seat": seat}))
    elif verb == "deliver":
        target = _service(s, sec, "restaurant")
        i = s.board.restaurants.index(target)
        oid = s.orders_on[i]
        need = order_need(s, oid)
        s = _goods_delta(s, seat, [-k for k in need])
        coins = ORDER[oid][3]
        s = _with_player(s, seat, coins=s.players[seat].coins + coins, orders=(*p.orders, oid))
        stacks = list(s.stacks)
        on = list(s.orders_on)
        on[i] = ""
        for j, st in enumerate(stacks):
            if st:
                on[i] = st[0]
                stacks[j] = st[1:]
                break
        s = _put(s, orders_on=tuple(on), stacks=tuple(stacks))
        ev.append(
            _ev(
                "deliver",
                f"{{s{seat}}} delivers the order at {target} ({'+'.join(ORDER[oid][2].split())}) "
                f"for {coins} coins and {ORDER[oid][4]} VP.",
                {"seat": seat, "order": oid, "stall": target, "coins": coins},
            )
        )
    elif verb == "temple":
        target = _service(s, sec, "temple")
        g = args[0]
        cost = temple_cost(s, g) or 0
        delta = [0, 0, 0, 0]
        delta[GI[g]] = -1
        s = _goods_delta(s, seat, delta)
        p = s.players[seat]
        if len(args) > 1:
            s = _with_player(s, seat, favors=p.favors - 1, disks_left=p.disks_left - 1)
            s = _put(s, supply_favors=s.supply_favors + 1)
            paid = "a favor"
        else:
            s = _with_player(s, seat, flowers=p.flowers - cost, disks_left=p.disks_left - 1)
            s = _put(s, supply_flowers=s.supply_flowers + cost)
            paid = f"{cost} flower{'s' if cost != 1 else ''}"
        temple = list(s.temple)
        r = TEMPLE_ROW[g]
        temple[r] = (*temple[r], seat)
        s = _put(s, temple=tuple(temple))
        ev.append(
            _ev(
                "temple",
                f"{{s{seat}}} offers a {g} at the Temple for {paid}.",
                {"seat": seat, "good": g, "column": len(temple[r])},
            )
        )
    elif verb == "scribe":
        target = _service(s, sec, "scribe")
        cid, cur = args[0], args[1]
        card = CARDS[cid]
        if cur == "coins":
            s = _with_player(s, seat, coins=p.coins - card.coins)
        else:
            s = _with_player(s, seat, flowers=p.flowers - card.flowers)
            s = _put(s, supply_flowers=s.supply_flowers + card.flowers)
        s = _with_player(s, seat, hand=tuple(nsorted((*s.players[seat].hand, cid))))
        disp = [c for c in s.display if c != cid]
        deck = s.deck
        while len(disp) < data.DISPLAY_SLOTS:
            if deck:
                disp.append(deck[0])
                deck = deck[1:]
            else:
                disp.append("")
        s = _put(s, display=tuple(disp), deck=deck)
        ev.append(
            _ev(
                "scribe",
                f"{{s{seat}}} buys {cid} ({card.name}) for "
                f"{card.coins if cur == 'coins' else card.flowers} {cur}.",
                {"seat": seat, "card": cid},
            )
        )
    elif verb == "king":
        target = "barge"
        sp = args[0]
        c, f, gs = king_pay(sp)
        delta = [0, 0, 0, 0]
        for g in gs:
            delta[GI[g]] -= 1
        s = _goods_delta(s, seat, delta)
        p = s.players[seat]
        s = _with_player(s, seat, coins=p.coins - c, flowers=p.flowers - f, disks_left=p.disks_left - 1)
        kg = list(s.king)
        kg[KING_INDEX[sp]] = seat
        s = _put(s, king=tuple(kg), supply_flowers=s.supply_flowers + f)
        s, fav = _gain_favor(s, seat)
        ev.append(
            _ev(
                "king",
                f"{{s{seat}}} makes an offering to the King on {sp} ({_paid(c, f, gs)})"
                f"{' and gets a favor' if fav else ''}.",
                {"seat": seat, "space": sp},
            )
        )
    d = s.__dict__
    d["used"] = (*s.used, target)
    if verb in _COUNTED or HELD not in d:  # only these move a disk or a stall piece
        return _check_end(s, ev)
    return s


_COUNTED = frozenset(("king", "temple", "stall"))


def _paid(coins: int, flowers: int, goods: tuple[str, ...]) -> str:
    """What a King's offering cost, in words."""
    if coins:
        return f"{coins} coins"
    return f"{flowers} flowers" if flowers else "+".join(goods)


def _service(s: State, sec: str, kind: str) -> str:
    """The stall of ``kind`` on section ``sec``."""
    for sid in board.banks(sec):
        if s.board.stalls[sid].kind == kind:
            return sid
    raise AssertionError(f"no {kind} stall on {sec}")
