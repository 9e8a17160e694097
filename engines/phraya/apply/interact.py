"""The ACT interactions with the stalls and the King."""

from __future__ import annotations

from engines.fastcopy import peek, poke
from engines.phraya import data
from engines.phraya.apply.ending import check_end
from engines.phraya.apply.write import (
    Events,
    event,
    gain_favor,
    gain_flowers,
    goods_delta,
    write,
    write_player,
)
from engines.phraya.data import BASKET, CARDS, GI, KING_INDEX, ORDER, TEMPLE_ROW, board
from engines.phraya.state import (
    HELD,
    State,
    king_pay,
    nsorted,
    order_need,
    price,
    t4,
    temple_cost,
    unit_price,
)


def place_stall(s: State, seat: int, sid: str, ev: Events) -> State:
    owner = list(s.owner)
    owner[board.STALL_INDEX[sid]] = seat
    p = s.players[seat]
    s = write_player(write(s, owner=tuple(owner)), seat, stalls_left=p.stalls_left - 1)
    ev.append(
        event(
            "stall",
            f"{{s{seat}}} takes the {s.board.stalls[sid].good} stall {sid}.",
            {"seat": seat, "stall": sid},
        )
    )
    return s


def _owner_flower(s: State, seat: int, sid: str, ev: Events) -> State:
    q = s.owner[board.STALL_INDEX[sid]]
    if q >= 0 and q != seat:
        s, k = gain_flowers(s, q, 1)
        if k:
            ev.append(event("owner", f"{{s{q}}} gets a flower as the owner of {sid}.", {"seat": q}))
    return s


def _goods(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Buy or sell at a goods stall (the owner gets a flower)."""
    p = s.players[seat]
    sid = args[0]
    target = sid
    g = str(s.board.stalls[sid].good)
    n = int(args[1])
    gi = GI[g]
    goods = list(p.goods)
    supply = list(s.supply_goods)
    if verb == "buy":
        k = int(args[3]) if len(args) > 3 else 0
        cost = (n - k) * unit_price(s, g)
        goods[gi] += n
        supply[gi] -= n
        s = write_player(s, seat, goods=t4(goods), coins=p.coins - cost, favors=p.favors - k)
        poke(s, "supply_goods", t4(supply))
        poke(s, "supply_favors", s.supply_favors + k)
        favtxt = f"{k} favor{'s' if k > 1 else ''}"
        paid = favtxt if not cost else f"{cost} coins and {favtxt}" if k else f"{cost} coins"
        ev.append(
            event(
                "buy",
                f"{{s{seat}}} buys {n} {g} for {paid}.",
                {"seat": seat, "stall": sid, "n": n, "coins": cost, "favors": k},
            )
        )
    else:
        got = n * price(s, g)
        goods[gi] -= n
        supply[gi] += n
        s = write_player(s, seat, goods=t4(goods), coins=p.coins + got)
        poke(s, "supply_goods", t4(supply))
        ev.append(
            event(
                "sell",
                f"{{s{seat}}} sells {n} {g} for {got} coins.",
                {"seat": seat, "stall": sid, "n": n, "coins": got},
            )
        )
    s = _owner_flower(s, seat, sid, ev)
    return s, target


def _admin(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Place a stall piece at the Administration."""
    p = s.players[seat]
    sec = s.boats[seat]
    target = _service(s, sec, "admin")
    cost = data.ADMIN_PRICE_DISCOUNT if "stall5" in s.passives else data.ADMIN_PRICE
    s = write_player(s, seat, coins=p.coins - cost)
    s = place_stall(s, seat, args[0], ev)
    return s, target


def _basket(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Buy the basket lying on the basket stall."""
    p = s.players[seat]
    sec = s.boats[seat]
    target = _service(s, sec, "basket")
    i = s.board.baskets.index(target)
    tile = s.stall_baskets[i]
    a, b, cost = BASKET[tile]
    if args:
        s = write_player(s, seat, favors=p.favors - 1, baskets=(*p.baskets, tile))
        s = write(s, supply_favors=s.supply_favors + 1)
        paid = "a favor"
    else:
        s = write_player(s, seat, coins=p.coins - int(cost), baskets=(*p.baskets, tile))
        paid = f"{cost} coins"
    on = list(s.stall_baskets)
    on[i] = s.bag[0] if s.bag else ""
    s = write(s, stall_baskets=tuple(on), bag=s.bag[1:])
    ev.append(
        event(
            "basket",
            f"{{s{seat}}} buys a {a}/{b} basket at {target} for {paid}.",
            {"seat": seat, "goods": [a, b]},
        )
    )
    return s, target


def _rower(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Hire a rower at the basket stall."""
    p = s.players[seat]
    sec = s.boats[seat]
    target = _service(s, sec, "basket")
    what = args[0]
    if what == "favor":
        s = write_player(s, seat, favors=p.favors - 1)
        s = write(s, supply_favors=s.supply_favors + 1)
    else:
        delta = [0, 0, 0, 0]
        delta[GI[what]] = -1
        s = goods_delta(s, seat, delta)
    s = write_player(s, seat, rowers=s.players[seat].rowers + 1)
    s = write(s, supply_rowers=s.supply_rowers - 1)
    ev.append(event("rower", f"{{s{seat}}} hires a rower for a {what}.", {"seat": seat}))
    return s, target


def _deliver(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Deliver the order of the restaurant; a new tile fills it."""
    p = s.players[seat]
    sec = s.boats[seat]
    target = _service(s, sec, "restaurant")
    i = s.board.restaurants.index(target)
    oid = s.orders_on[i]
    need = order_need(s, oid)
    s = goods_delta(s, seat, [-k for k in need])
    coins = ORDER[oid][3]
    s = write_player(s, seat, coins=s.players[seat].coins + coins, orders=(*p.orders, oid))
    stacks = list(s.stacks)
    on = list(s.orders_on)
    on[i] = ""
    for j, st in enumerate(stacks):
        if st:
            on[i] = st[0]
            stacks[j] = st[1:]
            break
    s = write(s, orders_on=tuple(on), stacks=tuple(stacks))
    ev.append(
        event(
            "deliver",
            f"{{s{seat}}} delivers the order at {target} ({'+'.join(ORDER[oid][2].split())}) "
            f"for {coins} coins and {ORDER[oid][4]} VP.",
            {"seat": seat, "order": oid, "stall": target, "coins": coins},
        )
    )
    return s, target


def _temple(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Offer a good at the Temple."""
    p = s.players[seat]
    sec = s.boats[seat]
    target = _service(s, sec, "temple")
    g = args[0]
    cost = temple_cost(s, g) or 0
    delta = [0, 0, 0, 0]
    delta[GI[g]] = -1
    s = goods_delta(s, seat, delta)
    p = s.players[seat]
    if len(args) > 1:
        s = write_player(s, seat, favors=p.favors - 1, disks_left=p.disks_left - 1)
        s = write(s, supply_favors=s.supply_favors + 1)
        paid = "a favor"
    else:
        s = write_player(s, seat, flowers=p.flowers - cost, disks_left=p.disks_left - 1)
        s = write(s, supply_flowers=s.supply_flowers + cost)
        paid = f"{cost} flower{'s' if cost != 1 else ''}"
    temple = list(s.temple)
    r = TEMPLE_ROW[g]
    temple[r] = (*temple[r], seat)
    s = write(s, temple=tuple(temple))
    ev.append(
        event(
            "temple",
            f"{{s{seat}}} offers a {g} at the Temple for {paid}.",
            {"seat": seat, "good": g, "column": len(temple[r])},
        )
    )
    return s, target


def _scribe(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Buy a card from the display at the scribe."""
    p = s.players[seat]
    sec = s.boats[seat]
    target = _service(s, sec, "scribe")
    cid, cur = args[0], args[1]
    card = CARDS[cid]
    if cur == "coins":
        s = write_player(s, seat, coins=p.coins - card.coins)
    else:
        s = write_player(s, seat, flowers=p.flowers - card.flowers)
        s = write(s, supply_flowers=s.supply_flowers + card.flowers)
    s = write_player(s, seat, hand=tuple(nsorted((*s.players[seat].hand, cid))))
    disp = [c for c in s.display if c != cid]
    deck = s.deck
    while len(disp) < data.DISPLAY_SLOTS:
        if deck:
            disp.append(deck[0])
            deck = deck[1:]
        else:
            disp.append("")
    s = write(s, display=tuple(disp), deck=deck)
    ev.append(
        event(
            "scribe",
            f"{{s{seat}}} buys {cid} ({card.name}) for "
            f"{card.coins if cur == 'coins' else card.flowers} {cur}.",
            {"seat": seat, "card": cid},
        )
    )
    return s, target


def _king(s: State, seat: int, verb: str, args: list[str], ev: Events) -> tuple[State, str]:
    """Make an offering to the King (the Barge is adjacent)."""
    p = s.players[seat]
    target = "barge"
    sp = args[0]
    c, f, gs = king_pay(sp)
    delta = [0, 0, 0, 0]
    for g in gs:
        delta[GI[g]] -= 1
    s = goods_delta(s, seat, delta)
    p = s.players[seat]
    s = write_player(s, seat, coins=p.coins - c, flowers=p.flowers - f, disks_left=p.disks_left - 1)
    kg = list(s.king)
    kg[KING_INDEX[sp]] = seat
    s = write(s, king=tuple(kg), supply_flowers=s.supply_flowers + f)
    s, fav = gain_favor(s, seat)
    ev.append(
        event(
            "king",
            f"{{s{seat}}} makes an offering to the King on {sp} ({_paid(c, f, gs)})"
            f"{' and gets a favor' if fav else ''}.",
            {"seat": seat, "space": sp},
        )
    )
    return s, target


_TRADES = {
    "buy": _goods,
    "sell": _goods,
    "stall": _admin,
    "basket": _basket,
    "rower": _rower,
    "deliver": _deliver,
    "temple": _temple,
    "scribe": _scribe,
    "king": _king,
}
"""The trade each ACT verb makes: ``(state, target used)``."""


def interact(s: State, seat: int, verb: str, args: list[str], ev: Events) -> State:
    """Apply one ACT interaction and mark its target used."""
    s, target = _TRADES[verb](s, seat, verb, args, ev)
    poke(s, "used", (*s.used, target))
    if verb in _COUNTED or peek(s, HELD, None) is None:  # only these move a disk or a stall piece
        return check_end(s, ev)
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
