"""Phraya moves in words: what each legal action does, for lists, autocomplete and buttons.

:func:`label` gives ``"Move h12 · veg 3c (orange) | order fish+meat → 12c 2VP: you can
deliver"``: the action's own text (so the terminal and autocomplete show what to type), then
`` · `` and what it does. Only what the acting seat may see is used (a basket lying on a stall
shows its price, not its goods, unless ``open_baskets``). Nothing here runs on the legal path:
the host asks for labels only to show them.
"""

from __future__ import annotations

from engines.phraya import data
from engines.phraya.data import BASKET, CARDS, GI, ORDER, TEMPLE_ROW, board
from engines.phraya.describe import king_cost
from engines.phraya.legal import act_texts, king_choices, stall_choices
from engines.phraya.state import State, capacity, price, temple_cost, unit_price

MAX_LABEL = 80


def order_text(oid: str) -> str:
    """An order tile in words: ``"fish+meat → 12c 2VP"``."""
    t = ORDER[oid]
    return f"{'+'.join(str(t[2]).split())} → {t[3]}c {t[4]}VP"


def order_at(s: State, sid: str) -> str:
    """The order lying on restaurant ``sid`` ("" if none)."""
    b = s.board
    return s.orders_on[b.restaurants.index(sid)] if sid in b.restaurants else ""


def colour(seat: int) -> str:
    """A seat's piece colour ("purple"), the name its stalls and boat carry on the board."""
    return data.PLAYER_COLORS[seat]


def owner_word(s: State, seat: int, sid: str) -> str:
    """Whose goods stall ``sid`` is, seen by ``seat``: "yours", "orange's", "unowned", "public"."""
    st = s.board.stalls[sid]
    if not st.ownable:
        return "public"
    q = s.owner[board.STALL_INDEX[sid]]
    if q < 0:
        return "unowned"
    return "yours" if q == seat else f"{colour(q)}'s"


def kind_word(s: State, sid: str) -> str:
    """What stall ``sid`` is: ``"veg stall"``, ``"restaurant"``, ``"Temple"``…"""
    st = s.board.stalls[sid]
    if st.kind == "goods":
        return f"{st.good} stall"
    return _KIND_WORD[st.kind]


_KIND_WORD = {
    "restaurant": "restaurant",
    "temple": "Temple",
    "basket": "basket stall",
    "scribe": "Scribe",
    "admin": "Administration",
}


def stall_name(s: State, sid: str) -> str:
    """``"the veg stall h12n"``, ``"the restaurant h02s"``, ``"the Temple v11e"``…"""
    return f"the {kind_word(s, sid)} {sid}"


def service_of(s: State, sec: str, kind: str) -> str | None:
    """The stall of ``kind`` on a bank of section ``sec``, or None."""
    for sid in board.banks(sec):
        if s.board.stalls[sid].kind == kind:
            return sid
    return None


def where(s: State, kind: str) -> str:
    """The sections that have a ``kind`` stall on a bank (e.g. ``"h01, v22"``)."""
    return ", ".join(sid[:3] for sid in board.STALLS if s.board.stalls[sid].kind == kind)


def basket_tile_text(s: State, tile: str) -> str:
    """A basket lying on a stall as its buyer may see it: price, and goods when open."""
    a, b, cost = BASKET[tile]
    if s.opts.open_baskets:
        return f"a {a}/{b} basket for {cost}c"
    return f"a basket for {cost}c"


def plural(k: int, word: str) -> str:
    """``"1 flower"``, ``"2 flowers"``."""
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def admin_cost(s: State) -> int:
    return data.ADMIN_PRICE_DISCOUNT if "stall5" in s.passives else data.ADMIN_PRICE


def bank_tag(s: State, seat: int, sid: str, short: bool = False, verbs: bool = True) -> str:
    """One bank in a few words, led by what ``seat`` could do there now ("buy/sell veg 3c
    (orange's)", "deliver veg+veg → 7c 2VP", "Temple"…); ``short`` leaves out whose stall it is
    and runs the order's arrow together; without ``verbs`` it names the stall only."""
    st = s.board.stalls[sid]
    can = stall_choices(s, seat, sid) if verbs else []
    kind = st.kind
    if kind == "goods":
        g = str(st.good)
        doing = "/".join(v for v in ("buy", "sell") if any(a.startswith(v) for a in can))
        owner = "" if short else f" ({owner_word(s, seat, sid)})"
        return f"{doing + ' ' if doing else ''}{g} {unit_price(s, g)}c{owner}"
    if kind == "restaurant":
        oid = order_at(s, sid)
        if not oid:
            return "restaurant (no order)"
        text = order_text(oid).replace(" → ", "→") if short else order_text(oid)
        return ("deliver " if can else "order ") + text
    if kind == "temple":
        return "offer at the Temple" if can else "Temple"
    if kind == "basket":
        tile = s.stall_baskets[s.board.baskets.index(sid)]
        verb = "buy " if any(a.startswith("basket") for a in can) else ""
        return f"{verb}basket {BASKET[tile][2]}c + rowers" if tile else "rowers (no basket)"
    if kind == "scribe":
        return "buy cards (Scribe)" if can else "Scribe (cards)"
    return f"buy stall {admin_cost(s)}c (Admin)" if can else f"Admin (stalls {admin_cost(s)}c)"


def section_text(s: State, seat: int, sec: str, room: int = MAX_LABEL - 12, verbs: bool = True) -> str:
    """What is on both banks of ``sec`` (and the King when the Barge is at one of its ends), in
    ``room`` characters if the short form fits there; with ``verbs``, what ``seat`` could do."""
    out = ""
    for short in (False, True):
        out = " | ".join(bank_tag(s, seat, sid, short, verbs) for sid in board.banks(sec))
        if s.barge in board.SECTION_ENDS[sec]:
            out += " | " + ("offer to the King" if verbs and king_choices(s, seat) else "King")
        if len(out) <= room:
            break
    return out


def label(s: State, seat: int, action: str) -> str:
    """``action`` with what it does, ≤ :data:`MAX_LABEL` characters."""
    desc = describe(s, seat, action)
    head = action[:1].upper() + action[1:]
    text = f"{head} · {desc}" if desc else head
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def describe(s: State, seat: int, action: str) -> str:
    """What ``action`` (legal for ``seat``) does, in words ("" when unknown)."""
    v, _, rest = action.partition(" ")
    t = rest.split()
    fn = _DESCRIBE.get(v)
    try:
        return fn(s, seat, t) if fn is not None else ""
    except (KeyError, IndexError, ValueError):  # a text that is not legal here: no description
        return ""


def _boat(s: State, seat: int, t: list[str]) -> str:
    return "start beside: " + section_text(s, seat, t[0], MAX_LABEL - 26, verbs=False)


def _move(s: State, seat: int, t: list[str]) -> str:
    return section_text(s, seat, t[0], MAX_LABEL - 4 - len(t[0]) - 9)


def _stall(s: State, seat: int, t: list[str]) -> str:
    sid = t[0]
    g = s.board.stalls[sid].good
    vp = data.STALL_MAJORITY[str(g)]
    how = "" if s.step < 2 else f" for {admin_cost(s)}c"
    count = [0] * s.n
    for i, q in enumerate(s.owner):
        if q >= 0 and s.board.stalls[board.STALLS[i]].good == g:
            count[q] += 1
    best = max((c for q, c in enumerate(count) if q != seat), default=0)
    race = f"(you {count[seat]}, rival {best})"
    return f"own it{how}; most {g} stalls {vp[0]}/{vp[1]} VP {race}"


def _play(s: State, seat: int, t: list[str]) -> str:
    c = CARDS[t[0]]
    return f"{c.name}: {card_effects(s, seat, t[0])}"


def card_effects(s: State, seat: int, cid: str) -> str:
    """A card's effects in short words, with what Return to Pier would give ``seat`` now."""
    c = CARDS[cid]
    parts = [_effect(s, seat, e) for e in c.immediate]
    parts += [_effect(s, seat, e) + " this turn" for e in c.passive]
    parts += ["end: " + _effect(s, seat, e) for e in c.endgame]
    return "; ".join(parts)


def _span(rng: str) -> str:
    lo, hi = rng.split("-")
    return lo if lo == hi else f"{lo}–{hi}"


def _effect(s: State, seat: int, e: str) -> str:
    head, _, rest = e.partition(" ")
    if head == "mer":
        rng, mods = rest.split()
        return f"Merchant {_span(rng)}, prices {mods}"
    if head == "barge":
        rng, bless = rest.split()
        kind, k = data.BLESSINGS[bless]
        return f"Barge {_span(rng)}, +{plural(k, kind[:-1])} per owned stall next to it"
    if e == "retrieve":
        k = len(s.players[seat].discard)
        return f"take back {plural(k, 'discard')}, +{k + 1}c; no move, no stalls"
    short = {
        "coins": f"+{rest} coins",
        "flower": "+1 flower",
        "boat2": "move 2 sections first",
        "g2f": "goods → 1 flower each",
        "f2c": "flowers → 3c each",
        "temple-2": "Temple offerings 2 flowers less",
        "stall5": "stalls cost 5c",
        "2/order": "2 VP per order",
        "2/king": "2 VP per King disk",
        "2/temple": "2 VP per Temple disk",
        "2/stall": "2 VP per stall",
        "1/flower": "1 VP per flower",
        "4/favor": "4 VP per favor",
        "1/5coins": "1 VP per 5c",
    }
    if head in short:
        return short[head]
    if e in short:
        return short[e]
    kind, _, g = e.partition(":")
    if kind == "cheap":
        return f"{g} at the lowest price"
    if kind == "ignore":
        return f"orders need 1 {g} less"
    if kind == "as":
        return f"counts as a {g} stall"
    return f"3 VP per {e[2:].split('-')[0]} stall" if e.startswith("3/") else e


def _merchant(s: State, seat: int, t: list[str]) -> str:
    d = int(t[0])
    route = data.MERCHANT_ROUTE
    a, b = route[(s.merchant + d) % len(route)]
    now = f"{price(s, a)}c/{price(s, b)}c"
    mods = s.pending.split()[2] if s.pending.startswith("mer ") else ""
    then = f"then prices {mods} on them" if mods else "then change their prices"
    if d == 0:
        return f"the Merchant stays at {a}/{b} ({now}); {then}"
    return f"the Merchant to {a}/{b} ({now}); {then}"


def _price(s: State, seat: int, t: list[str]) -> str:
    parts = []
    for i in range(0, len(t), 2):
        g, k = t[i], int(t[i + 1])
        now = s.prices[GI[g]]
        new = min(6, max(0, now + k))
        parts.append(f"{g} {data.PRICE_ROWS[g][now]}→{data.PRICE_ROWS[g][new]}c")
    return "prices: " + ", ".join(parts)


def _barge(s: State, seat: int, t: list[str]) -> str:
    x = t[0]
    kind, amount = data.BLESSINGS[s.pending.split()[2]]
    mine = sum(1 for sid in board.adjacent_stalls(x) if s.owner[board.STALL_INDEX[sid]] == seat)
    others = sum(1 for sid in board.adjacent_stalls(x) if s.owner[board.STALL_INDEX[sid]] not in (-1, seat))
    secs = " ".join(board.CROSS_SECTIONS[x])
    word = kind[:-1]
    return f"you +{plural(mine * amount, word)}, others +{others * amount}; King then meets boats on {secs}"


def _discard(s: State, seat: int, t: list[str]) -> str:
    if t[0] == "flower":
        return "1 flower → 3 coins"
    return f"1 {t[0]} → 1 flower"


def _buy(s: State, seat: int, t: list[str]) -> str:
    sid, n = t[0], int(t[1])
    g = str(s.board.stalls[sid].good)
    fav = int(t[3]) if len(t) > 3 else 0
    paid = (n - fav) * unit_price(s, g)
    pay = [f"{paid}c"] if paid else []
    pay += [plural(fav, "favor")] if fav else []
    out = f"{n} {g} for {' + '.join(pay)}"
    q = s.owner[board.STALL_INDEX[sid]]
    if q >= 0 and q != seat:
        out += f" (1 flower to {colour(q)})"
    have = s.players[seat].goods[GI[g]] + n
    return out + f"; then {have}/{capacity(s.players[seat])[GI[g]]} {g}"


def _sell(s: State, seat: int, t: list[str]) -> str:
    sid, n = t[0], int(t[1])
    g = str(s.board.stalls[sid].good)
    return f"{n} {g} for {n * price(s, g)}c"


def _basket(s: State, seat: int, t: list[str]) -> str:
    sid = service_of(s, s.boats[seat], "basket")
    tile = s.stall_baskets[s.board.baskets.index(str(sid))]
    text = basket_tile_text(s, tile)
    if t:
        text = text.split(" for ")[0] + " for 1 favor"
    return f"buy {text} (2 more goods spaces)"


def _rower(s: State, seat: int, t: list[str]) -> str:
    r = s.players[seat].rowers + 1
    pay = "1 favor" if t[0] == "favor" else f"1 {t[0]}"
    return f"hire a rower for {pay}: move up to {r} sections"


def _deliver(s: State, seat: int, t: list[str]) -> str:
    sid = str(service_of(s, s.boats[seat], "restaurant"))
    return f"the order at {sid}: {order_text(order_at(s, sid))}"


def _temple(s: State, seat: int, t: list[str]) -> str:
    g = t[0]
    cost = temple_cost(s, g) or 0
    pay = "1 favor" if len(t) > 1 else (plural(cost, "flower") if cost else "free")
    col = len(s.temple[TEMPLE_ROW[g]]) + 1
    pay = pay if pay == "free" else "for " + pay
    return f"offer 1 {g} {pay}: {data.TEMPLE_OFFERING_VP[g]} VP, disk in column {col}"


def _scribe(s: State, seat: int, t: list[str]) -> str:
    c = CARDS[t[0]]
    cost = f"{c.coins}c" if t[1] == "coins" else plural(c.flowers, "flower")
    return f"{c.name} for {cost}: {card_effects(s, seat, t[0])}"


def _king(s: State, seat: int, t: list[str]) -> str:
    return f"King's offering on {t[0]} for {king_cost(t[0])}: a disk + 1 favor"


def _end(s: State, seat: int, t: list[str]) -> str:
    left = len(act_texts(s, seat)) - 1
    return "end your turn" + (f" (gives up {plural(left, 'other move')})" if left > 0 else "")


_DESCRIBE = {
    "boat": _boat,
    "premove": _move,
    "move": _move,
    "stall": _stall,
    "play": _play,
    "merchant": _merchant,
    "price": _price,
    "barge": _barge,
    "discard": _discard,
    "done": lambda s, seat, t: "stop discarding",
    "refresh": lambda s, seat, t: (
        f"{s.display[0]} {CARDS[s.display[0]].name} goes under the deck; the next card comes out"
    ),
    "keep": lambda s, seat, t: "leave the card market as it is",
    "buy": _buy,
    "sell": _sell,
    "basket": _basket,
    "rower": _rower,
    "deliver": _deliver,
    "temple": _temple,
    "scribe": _scribe,
    "king": _king,
    "end": _end,
}
