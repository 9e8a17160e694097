"""Why a Phraya action is refused: one specific sentence per case, as Ra and Pralaya give.

:func:`why` runs only when ``apply`` refuses an action (never on the legal path), so it may be
slow: it re-derives what the rules check and names the first thing that fails ("You have 7
coins; 3 fish cost 15."), then what the step asks now.
"""

from __future__ import annotations

from engines.base import BadNotation
from engines.phraya import data, notation
from engines.phraya.data import CARDS, GI, KING_INDEX, board, parse_range
from engines.phraya.describe import king_cost
from engines.phraya.describe.moves import (
    admin_cost,
    basket_tile_text,
    kind_word,
    order_at,
    order_text,
    plural,
    service_of,
    stall_name,
    where,
)
from engines.phraya.legal import card_choices, is_blocked, kept_legal, occupied_mask
from engines.phraya.state import (
    ACT,
    BARGE,
    CARD,
    DISCARD,
    MERCHANT,
    MOVE,
    PREMOVE,
    PRICE,
    REFRESH,
    SETUP_BOAT,
    SETUP_STALL,
    State,
    capacity,
    order_need,
    temple_cost,
    unit_price,
)

_NOW = {
    SETUP_BOAT: "place your boat on a free outer section",
    SETUP_STALL: "place your starting stall on a vacant goods stall",
    CARD: "play a card from your hand",
    MERCHANT: "move the Merchant",
    PRICE: "change the prices of the Merchant's two goods",
    BARGE: "move the Royal Barge",
    DISCARD: "discard for your card, or say `done`",
    PREMOVE: "move your boat 2 sections first",
    REFRESH: "refresh the card market or keep it",
    MOVE: "move your boat",
}


_STEP_OF = {
    "boat": SETUP_BOAT,
    "play": CARD,
    "merchant": MERCHANT,
    "price": PRICE,
    "barge": BARGE,
    "discard": DISCARD,
    "done": DISCARD,
    "premove": PREMOVE,
    "refresh": REFRESH,
    "keep": REFRESH,
    "move": MOVE,
}


_WHEN = {
    SETUP_BOAT: "boats are placed only at set-up",
    SETUP_STALL: "starting stalls are placed only at set-up",
    CARD: "a card is played at the start of your turn",
    MERCHANT: "the Merchant moves only when your card says so",
    PRICE: "prices change only after the Merchant moves",
    BARGE: "the Royal Barge moves only when your card says so",
    DISCARD: "discarding happens only when your card says so",
    PREMOVE: "a move first happens only when your card says so",
    REFRESH: "the market is refreshed only just before you move",
    MOVE: "your boat moves after your card's effects",
    ACT: "stalls and the King are used after your boat moves",
}


def why(s: State, seat: int, action: str) -> str:
    """Why ``action`` is not legal for the awaited ``seat`` now (a sentence with ``{sN}`` tokens),
    followed by what the step asks."""
    try:
        canon = notation.parse(action)
    except BadNotation as err:
        return err.reason
    verb, _, rest = canon.partition(" ")
    args = rest.split()
    now = " " + now_text(s, seat)
    wanted = SETUP_STALL if verb == "stall" and s.step == SETUP_STALL else _STEP_OF.get(verb, ACT)
    if wanted != s.step and s.step < CARD <= wanted:
        return f"`{canon}` is not possible yet: the turns begin once set-up is done." + now
    if wanted != s.step:
        return f"`{canon}` is not possible now: {_WHEN[wanted]}." + now
    specific = _SPECIFIC[wanted](s, seat, verb, args)
    return (specific or f"`{canon}` is not possible now.") + now


def now_text(s: State, seat: int) -> str:
    """What the step asks of ``seat``, with examples from its legal list."""
    legal = kept_legal(s, seat)
    if s.step == ACT:
        verbs = sorted({a.split()[0] for a in legal} - {"end"})
        can = f" (you can: {', '.join(verbs)})" if verbs else " (nothing else is possible)"
        return f"Now use the stalls on both banks of your section{can}, then `end`."
    eg = [a for a in legal if a != "done"][:2]
    shown = " or ".join(f"`{a}`" for a in eg)
    return f"Now {_NOW.get(s.step, 'nothing can be played')}" + (f", e.g. {shown}." if shown else ".")


def _setup_boat(s: State, seat: int, verb: str, a: list[str]) -> str:
    sec = a[0]
    if sec not in board.EXTERIOR:
        return f"{sec} is not an outer section: boats start on a section at the edge of the board."
    if sec in s.boats:
        return "{s%d}'s boat is already on %s." % (s.boats.index(sec), sec)
    return ""


def _stall_taken(s: State, sid: str) -> str | None:
    st = s.board.stalls[sid]
    if st.kind != "goods":
        return f"{sid} is a {kind_word(s, sid)}, not a goods stall: nobody can own it."
    if not st.ownable:
        return f"{sid} is the public {st.good} stall: nobody can own it."
    q = s.owner[board.STALL_INDEX[sid]]
    if q >= 0:
        return "%s already belongs to {s%d}." % (stall_name(s, sid), q)
    return None


def _setup_stall(s: State, seat: int, verb: str, a: list[str]) -> str:
    return _stall_taken(s, a[0]) or ""


def _card(s: State, seat: int, verb: str, a: list[str]) -> str:
    cid = a[0]
    hand = s.players[seat].hand
    if cid in s.display:
        return f"{cid} ({CARDS[cid].name}) is in the card market: buy it at a Scribe first."
    if cid not in hand:
        held = ", ".join(f"{c} {CARDS[c].name}" for c in hand)
        where_ = "in your discard pile" if cid in s.players[seat].discard else "not yours"
        return f"{cid} ({CARDS[cid].name}) is {where_}; your hand: {held}."
    if is_blocked(s, seat):
        ok = ", ".join(card_choices(s, seat))
        return f"Your boat is blocked (no section to move to): play a card that moves the Royal Barge ({ok})."
    return ""


def _merchant(s: State, seat: int, verb: str, a: list[str]) -> str:
    lo, hi = parse_range(s.pending)
    span = str(lo) if lo == hi else f"{lo} to {hi}"
    return f"This card moves the Merchant {span} space{'s' if hi > 1 else ''}, forwards (+) or back (-)."


def _price(s: State, seat: int, verb: str, a: list[str]) -> str:
    g1, g2 = data.MERCHANT_ROUTE[s.merchant]
    bad = [g for g in a[::2] if g not in (g1, g2)]
    if bad:
        return f"The Merchant is at {g1}/{g2}: only their prices change, not {bad[0]}'s."
    mods = s.pending.split()[2].split("/")
    if len(mods) == 1:
        return f"This card changes one of {g1}/{g2} by {mods[0]}, no other change."
    return f"This card changes one of {g1}/{g2} by {mods[0]} and the other by {mods[1]}."


def _barge(s: State, seat: int, verb: str, a: list[str]) -> str:
    x = a[0]
    lo, hi = parse_range(s.pending)
    if x == s.barge:
        return f"The Royal Barge is already at {x}: it must move."
    if x not in board.barge_targets(s.barge, lo, hi):
        span = str(lo) if lo == hi else f"{lo} to {hi}"
        return (
            f"{x} is not {span} channel section{'s' if hi > 1 else ''} from the Barge at {s.barge} "
            "(it sails only along inner channels)."
        )
    return f"With the Barge at {x} your boat could not move at all; another crossing leaves you a move."


def _discard(s: State, seat: int, verb: str, a: list[str]) -> str:
    p = s.players[seat]
    what = a[0] if a else ""
    if s.pending == "g2f":
        if what == "flower":
            return "This card turns goods into flowers, not flowers into coins."
        if s.supply_flowers <= 0:
            return "The supply has no flowers left."
        return f"You hold no {what}."
    if what != "flower":
        return "This card turns flowers into coins, not goods into flowers."
    return f"You have {plural(p.flowers, 'flower')}."


def _move(s: State, seat: int, verb: str, a: list[str]) -> str:
    sec = a[0]
    start = s.boats[seat]
    if sec == start:
        return f"Your boat is already on {sec}: it must move."
    for q, b in enumerate(s.boats):
        if b == sec and q != seat:
            return "{s%d}'s boat is on %s: you may pass it but not stop there." % (q, sec)
    if verb == "premove":
        return f"{sec} is not where a 2-section move first can end (a path of exactly 2 sections)."
    rowers = s.players[seat].rowers
    occ = occupied_mask(s, seat)
    bit = board.SEC_BIT[sec]
    if board.reach(start, rowers, "")[0] & bit & ~occ:
        return (
            f"Every way to {sec} within your {plural(rowers, 'rower')} passes the Royal Barge's "
            f"crossing {s.barge}, which boats cannot cross."
        )
    for far in range(rowers + 1, 9):
        if board.reach(start, far, s.barge)[0] & bit:
            return (
                f"{sec} is {far} sections away; your {plural(rowers, 'rower')} move you at most "
                f"{rowers} (hire rowers at a basket stall)."
            )
    return f"{sec} cannot be reached from {start} (boats go on through crossings, never back)."


def _refresh(s: State, seat: int, verb: str, a: list[str]) -> str:
    return "The market's first slot is empty: there is nothing to refresh."


def _act(s: State, seat: int, verb: str, a: list[str]) -> str:
    if verb == "end":
        return ""
    if verb == "king":
        return _king(s, seat, a)
    sec = s.boats[seat]
    kind = {
        "buy": "goods",
        "sell": "goods",
        "stall": "admin",
        "basket": "basket",
        "rower": "basket",
        "deliver": "restaurant",
        "temple": "temple",
        "scribe": "scribe",
    }[verb]
    if kind == "goods":
        sid = a[0]
        if sid not in board.banks(sec):
            mine = " and ".join(f"{b} ({kind_word(s, b)})" for b in board.banks(sec))
            return f"{sid} is not on a bank of your section {sec}; its banks are {mine}."
        if s.board.stalls[sid].kind != "goods":
            return f"{sid} is a {kind_word(s, sid)}: nothing is bought or sold there."
    else:
        sid = service_of(s, sec, kind) or ""
        if not sid:
            name = {
                "admin": "Administration",
                "basket": "basket stall",
                "restaurant": "restaurant",
                "temple": "Temple",
                "scribe": "Scribe",
            }[kind]
            return f"There is no {name} beside your section {sec}; there is one on {where(s, kind)}."
    if sid in s.used:
        return f"You already used {stall_name(s, sid)} this turn (each stall once a turn)."
    return _ACT_CHECKS[verb](s, seat, sid, a)


def _buy(s: State, seat: int, sid: str, a: list[str]) -> str:
    p = s.players[seat]
    g = str(s.board.stalls[sid].good)
    gi, n = GI[g], int(a[1])
    fav = int(a[3]) if len(a) > 3 else 0
    free = capacity(p)[gi] - p.goods[gi]
    if n > free:
        return (
            f"Your baskets hold {capacity(p)[gi]} {g} and you carry {p.goods[gi]}: room for {free} "
            f"more, not {n} (buy baskets at a basket stall)."
        )
    if n > s.supply_goods[gi]:
        return f"The supply has only {s.supply_goods[gi]} {g} left."
    if fav > p.favors:
        return f"You have {plural(p.favors, 'favor')}, not {fav}."
    cost = (n - fav) * unit_price(s, g)
    fav_note = f" (a favor pays for one: you have {plural(p.favors, 'favor')})" if p.favors > fav else ""
    return f"{n - fav} {g} at {unit_price(s, g)}c each cost {cost} coins; you have {p.coins}{fav_note}."


def _sell(s: State, seat: int, sid: str, a: list[str]) -> str:
    g = str(s.board.stalls[sid].good)
    held = s.players[seat].goods[GI[g]]
    return f"You carry {held} {g}; you cannot sell {a[1]}."


def _stall(s: State, seat: int, sid: str, a: list[str]) -> str:
    p = s.players[seat]
    taken = _stall_taken(s, a[0])
    if taken:
        return taken
    if p.stalls_left <= 0:
        return "You have no stall pieces left."
    return f"A stall costs {admin_cost(s)} coins; you have {p.coins}."


def _basket(s: State, seat: int, sid: str, a: list[str]) -> str:
    p = s.players[seat]
    tile = s.stall_baskets[s.board.baskets.index(sid)]
    if not tile:
        return f"{stall_name(s, sid)} has no basket left."
    if len(p.baskets) - p.start_baskets >= data.BASKET_SPACES_EXTRA:
        return f"Your boat has no free basket space (all {data.BASKET_SPACES_EXTRA} are filled)."
    if a:
        return "You have no favor."
    return f"There is {basket_tile_text(s, tile)}; you have {plural(p.coins, 'coin')}."


def _rower(s: State, seat: int, sid: str, a: list[str]) -> str:
    p = s.players[seat]
    if p.rowers >= data.ROWERS_START + data.ROWER_BENCHES_EXTRA:
        return f"Your boat already has all {p.rowers} rowers."
    if s.supply_rowers <= 0:
        return "The supply has no rowers left."
    what = a[0]
    return "You have no favor." if what == "favor" else f"You carry no {what} to pay the rower with."


def _deliver(s: State, seat: int, sid: str, a: list[str]) -> str:
    oid = order_at(s, sid)
    if not oid:
        return f"{stall_name(s, sid)} has no order left."
    need = order_need(s, oid)
    have = s.players[seat].goods
    short = [f"{need[i] - have[i]} {g}" for i, g in enumerate(data.GOODS) if need[i] > have[i]]
    return f"The order at {sid} ({order_text(oid)}) needs {', '.join(short)} more than you carry."


def _temple(s: State, seat: int, sid: str, a: list[str]) -> str:
    p = s.players[seat]
    g = a[0]
    if p.disks_left <= 0:
        return "You have no disks left."
    if p.goods[GI[g]] <= 0:
        return f"You carry no {g} to offer."
    cost = temple_cost(s, g)
    if cost is None:
        return f"The Temple's {g} row is full."
    if len(a) > 1:
        return "This offering costs no flowers: no favor is needed." if cost == 0 else "You have no favor."
    return f"The next {g} offering costs {plural(cost, 'flower')}; you have {p.flowers}."


def _scribe(s: State, seat: int, sid: str, a: list[str]) -> str:
    cid, cur = a
    if cid not in s.display:
        shown = ", ".join(f"{c} {CARDS[c].name}" for c in s.display if c)
        return f"{cid} is not in the card market (it shows {shown or 'nothing'})."
    card, p = CARDS[cid], s.players[seat]
    cost, have = (card.coins, p.coins) if cur == "coins" else (card.flowers, p.flowers)
    return f"{cid} {card.name} costs {cost} {cur}; you have {have}."


def _king(s: State, seat: int, a: list[str]) -> str:
    sec = s.boats[seat]
    if s.barge not in board.SECTION_ENDS[sec]:
        return f"The Royal Barge at {s.barge} is not at an end of your section {sec}."
    if "barge" in s.used:
        return "You already made an offering to the King this turn."
    q = s.king[KING_INDEX[a[0]]]
    if q >= 0:
        return "{s%d} already holds the King's space %s." % (q, a[0])
    if s.players[seat].disks_left <= 0:
        return "You have no disks left."
    p = s.players[seat]
    have = {"c": f"{plural(p.coins, 'coin')}", "f": f"{plural(p.flowers, 'flower')}"}.get(a[0][0])
    if have is None:
        held = [f"{p.goods[i]} {g}" for i, g in enumerate(data.GOODS) if p.goods[i]]
        have = ", ".join(held) if held else "no goods"
    return f"The King's space {a[0]} costs {king_cost(a[0])}; you have {have}."


_ACT_CHECKS = {
    "buy": _buy,
    "sell": _sell,
    "stall": _stall,
    "basket": _basket,
    "rower": _rower,
    "deliver": _deliver,
    "temple": _temple,
    "scribe": _scribe,
}


_SPECIFIC = {
    SETUP_BOAT: _setup_boat,
    SETUP_STALL: _setup_stall,
    CARD: _card,
    MERCHANT: _merchant,
    PRICE: _price,
    BARGE: _barge,
    DISCARD: _discard,
    PREMOVE: _move,
    REFRESH: _refresh,
    MOVE: _move,
    ACT: _act,
}
