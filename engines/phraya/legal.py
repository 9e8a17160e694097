"""Whose turn it is and what is legal now (docs/rules/phraya.md#turn): the seat awaited, the
legal list of each step, boat movement as section masks, and what things cost at this moment.

Every function is pure: it reads a :class:`State` (the one write is the legal list kept on a
handed-out state, see :func:`kept_legal`).
"""

from __future__ import annotations

from engines import fastcopy
from engines.fastcopy import peek
from engines.phraya import data
from engines.phraya.data import (
    BASKET,
    CARDS,
    GI,
    KING_SPACES,
    board,
    merchant_mods,
    parse_range,
)
from engines.phraya.state import (
    ACT,
    BARGE,
    CARD,
    DISCARD,
    LEGAL,
    MERCHANT,
    MOVE,
    OVER,
    PREMOVE,
    PRICE,
    REFRESH,
    SETUP_BOAT,
    SETUP_STALL,
    Player,
    State,
    capacity,
    king_pay,
    nsorted,
    order_need,
    setup_order,
    temple_cost,
)


def occupied(s: State, seat: int) -> frozenset[str]:
    """Sections holding another seat's boat."""
    return frozenset(b for q, b in enumerate(s.boats) if q != seat and b)


_SEC_BIT = board.SEC_BIT


_reach = board.reach


def occupied_mask(s: State, seat: int) -> int:
    """:func:`occupied` as a section mask."""
    m = 0
    for q, b in enumerate(s.boats):
        if q != seat and b:
            m |= _SEC_BIT[b]
    return m


def move_mask(s: State, seat: int, start: str | None = None, barge: str | None = None) -> int:
    """:func:`moves_from` as a section mask (0: blocked)."""
    occ = 0
    for q, b in enumerate(s.boats):
        if q != seat and b:
            occ |= _SEC_BIT[b]
    return _reach(start or s.boats[seat], s.players[seat].rowers, barge or s.barge)[0] & ~occ


def moves_from(s: State, seat: int, start: str | None = None, barge: str | None = None) -> tuple[str, ...]:
    """Legal destinations of ``seat``'s normal movement (from ``start``, with the barge at
    ``barge``; defaults: the boat and the barge now), sorted."""
    return board.mask_sections(move_mask(s, seat, start, barge))


def premoves(s: State, seat: int) -> tuple[str, ...]:
    """Ends of exactly-2-section paths, else of 1-section paths (docs/rules/phraya.md#premove)."""
    occ = occupied_mask(s, seat)
    two = _reach(s.boats[seat], 2, s.barge)[1] & ~occ
    return board.mask_sections(two if two else _reach(s.boats[seat], 1, s.barge)[0] & ~occ)


GOODS = data.GOODS


_KING_ROW_START = {
    "c": 0,
    "f": len(data.KING_CHART["c"]),
    "g": len(data.KING_CHART["c"]) + len(data.KING_CHART["f"]),
}


def who(seat: int) -> str:
    return "{s%d}" % seat


def actor(s: State) -> int | None:
    """The seat awaited, or None once the game is over."""
    if s.step == OVER:
        return None
    if s.step == SETUP_BOAT:
        return setup_order(s)[s.setup_i]
    if s.step == SETUP_STALL:
        return setup_order(s)[s.n - 1 - s.setup_i]
    return s.cur


def is_blocked(s: State, seat: int) -> bool:
    """No legal destination now (docs/rules/phraya.md#blocked)."""
    return not move_mask(s, seat)


def barge_choices(s: State, seat: int, effect: str) -> list[str]:
    """Crossings for a ``barge`` effect, minus those leaving ``seat`` no move
    (docs/rules/phraya.md#keep-a-move) while another choice exists."""
    lo, hi = parse_range(effect)
    targets = board.barge_targets(s.barge, lo, hi)
    start, rowers, occ = s.boats[seat], s.players[seat].rowers, occupied_mask(s, seat)
    reach = board.reach
    good = [x for x in targets if reach(start, rowers, x)[0] & ~occ]
    return good if good else list(targets)


def premove_choices(s: State, seat: int) -> list[str]:
    """Premove ends (docs/rules/phraya.md#premove), minus those leaving no normal move
    (docs/rules/phraya.md#keep-a-move) while others exist."""
    ends = premoves(s, seat)
    rowers, barge, occ = s.players[seat].rowers, s.barge, occupied_mask(s, seat)
    reach = board.reach
    good = [e for e in ends if reach(e, rowers, barge)[0] & ~occ]
    return good if good else list(ends)


def card_choices(s: State, seat: int) -> list[str]:
    """Cards ``seat`` may play: any in hand, or when blocked only barge cards (b1 if none)."""
    hand = s.players[seat].hand
    if not is_blocked(s, seat):
        return list(hand)
    barge = [c for c in hand if any(e.startswith("barge") for e in CARDS[c].immediate)]
    if not barge or s.opts.blocked_allow_retrieve:
        barge = barge + [c for c in hand if c == "b1"]
    return barge


def legal(s: State, seat: int) -> list[str]:
    """The sorted legal action texts of ``seat`` ([] if not awaited)."""
    return list(legal_texts(s, seat))


def legal_actions(state: State, seat: int) -> list[str]:
    """The engine's ``legal_actions`` itself: :func:`kept_legal` as a list (natural order); [] if
    ``seat`` is not awaited."""
    got = peek(state, LEGAL, None)
    if got is not None and got[0] == seat:
        return list(got[1])
    out = legal_texts(state, seat)  # kept_legal's miss, written out: no second call and peek
    if out:
        fastcopy.remember(state, LEGAL, (seat, out))
    return list(out)


def kept_legal(s: State, seat: int) -> tuple[str, ...]:
    """:func:`legal_texts`, kept on ``s`` (see ``state.LEGAL``) for its actor. Only for a state
    handed out by ``apply``, ``setup`` or a copy (never one ``apply.apply`` is still writing): such
    a state is never written to again, so its list never changes."""
    got = peek(s, LEGAL, None)
    out: tuple[str, ...]
    if got is not None and got[0] == seat:
        out = got[1]
        return out
    out = legal_texts(s, seat)
    if out:
        fastcopy.remember(s, LEGAL, (seat, out))
    return out


_CARD_LISTS: dict[tuple[tuple[str, ...], bool, bool], tuple[str, ...]] = {}
_MERCHANT_LISTS: dict[str, tuple[str, ...]] = {}
_PRICE_LISTS: dict[tuple[int, str], tuple[str, ...]] = {}
_MOVE_LISTS: dict[int, tuple[str, ...]] = {}


_BARGE_TEXT = {x: "barge " + x for x in board.CROSSINGS}


_PREMOVE_TEXT = {x: "premove " + x for x in board.SECTIONS}


_KEEP = ("keep",)


_KEEP_REFRESH = ("keep", "refresh")


def move_texts(mask: int) -> tuple[str, ...]:
    """The ``move`` actions to the sections of ``mask``, sorted (kept per mask)."""
    got = _MOVE_LISTS.get(mask)
    if got is None:
        got = tuple("move " + x for x in board.mask_sections(mask))
        if len(_MOVE_LISTS) < 1 << 16:
            _MOVE_LISTS[mask] = got
    return got


def legal_texts(s: State, seat: int) -> tuple[str, ...]:
    """:func:`legal` as a tuple. The lists that depend on a few values only (a hand, the
    pending effect, the Merchant's space, a destination mask) are built once per value; the
    barge, premove and move lists come out sorted (crossing and section ids sort as their
    natural keys do), the others go through :func:`nsorted`."""
    step = s.step
    if step >= CARD:
        if step == OVER or s.cur != seat:
            return ()
    elif actor(s) != seat:
        return ()
    if step == ACT:
        return act_texts(s, seat)
    if step == MOVE:
        return move_texts(move_mask(s, seat))
    if step == CARD:
        hand = s.players[seat].hand
        key = (hand, not move_mask(s, seat), s.opts.blocked_allow_retrieve)
        got = _CARD_LISTS.get(key)
        if got is None:
            got = tuple(nsorted("play " + c for c in card_choices(s, seat)))
            if len(_CARD_LISTS) < 1 << 16:
                _CARD_LISTS[key] = got
        return got
    if step == MERCHANT:
        got = _MERCHANT_LISTS.get(s.pending)
        if got is None:
            lo, hi = parse_range(s.pending)
            out: list[str] = []
            for d in range(lo, hi + 1):
                out += ["merchant 0"] if d == 0 else [f"merchant +{d}", f"merchant -{d}"]
            got = _MERCHANT_LISTS[s.pending] = tuple(nsorted(out))
        return got
    if step == PRICE:
        pkey = (s.merchant, s.pending)
        got = _PRICE_LISTS.get(pkey)
        if got is None:
            got = _PRICE_LISTS[pkey] = tuple(nsorted(price_choices(s)))
        return got
    if step == BARGE:
        return tuple([_BARGE_TEXT[x] for x in barge_choices(s, seat, s.pending)])
    if step == REFRESH:
        return _KEEP_REFRESH if s.display[0] else _KEEP
    if step == PREMOVE:
        return tuple([_PREMOVE_TEXT[x] for x in premove_choices(s, seat)])
    out = []
    if step == SETUP_BOAT:
        taken = set(s.boats)
        out = ["boat " + x for x in board.EXTERIOR if x not in taken]
    elif step == SETUP_STALL:
        out = ["stall " + x for x in vacant_ownable(s)]
    elif step == DISCARD:
        p = s.players[seat]
        out = ["done"]
        if s.pending == "g2f":
            if s.supply_flowers > 0:
                out += ["discard " + g for g in GOODS if p.goods[GI[g]] > 0]
        elif p.flowers > 0:
            out.append("discard flower")
    return tuple(nsorted(out))


def vacant_ownable(s: State) -> list[str]:
    """Ownable stalls with no owner, in id order."""
    idx = board.STALL_INDEX
    return [x for x in s.board.ownable if s.owner[idx[x]] < 0]


def _mod(k: int) -> str:
    return f"+{k}" if k > 0 else str(k)


def price_choices(s: State) -> list[str]:
    """The ``price`` actions for the Merchant's space and the pending card's mods."""
    a, b = data.MERCHANT_ROUTE[s.merchant]
    mods = merchant_mods(s.pending)
    if len(mods) == 1:
        return [f"price {a} {_mod(mods[0])}", f"price {b} {_mod(mods[0])}"]
    m1, m2 = _mod(mods[0]), _mod(mods[1])
    return [f"price {a} {m1} {b} {m2}", f"price {b} {m1} {a} {m2}"]


_BUY: dict[str, tuple[tuple[str, ...], ...]] = {
    sid: tuple(
        tuple(f"buy {sid} {n}" if k == 0 else f"buy {sid} {n} favor {k}" for k in range(n + 1))
        for n in range(data.GOODS_SUPPLY + 1)
    )
    for sid in board.STALLS
}
"""``_BUY[stall][n][k]``: the text buying ``n`` goods there, ``k`` of them paid by favors."""


_SELL = {sid: tuple(f"sell {sid} {n}" for n in range(data.GOODS_SUPPLY + 1)) for sid in board.STALLS}


_SCRIBE = {c: (f"scribe {c} coins", f"scribe {c} flowers") for c in CARDS}


_STALL_TEXT = {sid: "stall " + sid for sid in board.STALLS}


_CHEAP = {g: "cheap:" + g for g in GOODS}


_TEMPLE_TEXT = tuple((g, GI[g], "temple " + g, f"temple {g} favor") for g in GOODS)


_MEAT, _FISH = GI["meat"], GI["fish"]


_MAX_ROWERS = data.ROWERS_START + data.ROWER_BENCHES_EXTRA


_PRICE_ROWS = data.PRICE_ROWS


def _goods_choices(s: State, p: Player, sid: str, g: str, out: list[str]) -> None:
    """Append the buys and sells of goods stall ``sid`` (good ``g``) that ``p`` can make."""
    gi = GI[g]
    held = p.goods[gi]
    free = min(capacity(p)[gi] - held, s.supply_goods[gi])
    if free > 0:
        unit = _PRICE_ROWS[g][0] if _CHEAP[g] in s.passives else _PRICE_ROWS[g][s.prices[gi]]
        favors = p.favors
        afford = p.coins // unit  # n - k goods paid in coins: (n - k) * unit <= coins
        buy = _BUY[sid]
        for n in range(1, free + 1):
            top = n if n < favors else favors
            low = n - afford if n > afford else 0
            if low <= top:
                out += buy[n][low : top + 1]
    if held:
        out += _SELL[sid][1 : held + 1]


def _basket_choices(s: State, p: Player, sid: str, out: list[str]) -> None:
    """Append the basket purchases and rower hires ``p`` can make at basket stall ``sid``."""
    tile = s.stall_baskets[s.board.baskets.index(sid)]
    if tile and len(p.baskets) - p.start_baskets < data.BASKET_SPACES_EXTRA:
        if p.coins >= int(BASKET[tile][2]):
            out.append("basket")
        if p.favors > 0:
            out.append("basket favor")
    if p.rowers < _MAX_ROWERS and s.supply_rowers > 0:
        if p.goods[_MEAT] > 0:
            out.append("rower meat")
        if p.goods[_FISH] > 0:
            out.append("rower fish")
        if p.favors > 0:
            out.append("rower favor")


def stall_choices(s: State, seat: int, sid: str) -> list[str]:
    """The interactions with stall ``sid`` for ``seat`` now (ignoring whether it was used)."""
    st = s.board.stalls[sid]
    p = s.players[seat]
    out: list[str] = []
    kind = st.kind
    if kind == "goods":
        _goods_choices(s, p, sid, str(st.good), out)
    elif kind == "basket":
        _basket_choices(s, p, sid, out)
    elif kind == "restaurant":
        oid = s.orders_on[s.board.restaurants.index(sid)]
        if oid:
            need = order_need(s, oid)
            goods = p.goods
            if goods[0] >= need[0] and goods[1] >= need[1] and goods[2] >= need[2] and goods[3] >= need[3]:
                out.append("deliver")
    elif kind == "temple":
        if p.disks_left > 0:
            for g, gi, text, favor_text in _TEMPLE_TEXT:
                if p.goods[gi] == 0:
                    continue
                cost = temple_cost(s, g)
                if cost is None:
                    continue
                if p.flowers >= cost:
                    out.append(text)
                if cost >= 1 and p.favors > 0:
                    out.append(favor_text)
    elif kind == "scribe":
        for c in s.display:
            if not c:
                continue
            card = CARDS[c]
            texts = _SCRIBE[c]
            if p.coins >= card.coins:
                out.append(texts[0])
            if p.flowers >= card.flowers:
                out.append(texts[1])
    elif kind == "admin":
        cost = data.ADMIN_PRICE_DISCOUNT if "stall5" in s.passives else data.ADMIN_PRICE
        if p.stalls_left > 0 and p.coins >= cost:
            out += [_STALL_TEXT[x] for x in vacant_ownable(s)]
    return out


def _king_row(i: int, sp: str) -> tuple[int, int, int, tuple[int, ...], str]:
    c, f, g = king_pay(sp)
    return i, c, f, tuple(g.count(x) for x in GOODS), "king " + sp


_KING = tuple(_king_row(i, sp) for i, sp in enumerate(KING_SPACES))


def king_choices(s: State, seat: int) -> list[str]:
    """``king SPACE`` offerings ``seat`` can pay now."""
    p = s.players[seat]
    if p.disks_left == 0:
        return []
    out = []
    king = s.king
    coins, flowers, goods = p.coins, p.flowers, p.goods
    for i, c, f, need, text in _KING:
        if king[i] >= 0:
            continue
        if (
            coins >= c
            and flowers >= f
            and goods[0] >= need[0]
            and goods[1] >= need[1]
            and goods[2] >= need[2]
            and goods[3] >= need[3]
        ):
            out.append(text)
    return out


_BANKS = {sec: board.banks(sec) for sec in board.SECTIONS}


_SECTION_ENDS = board.SECTION_ENDS


def act_targets(s: State, seat: int) -> list[tuple[str, list[str]]]:
    """ACT choices by target: ``(stall id or "barge", actions)`` for each target not yet used."""
    sec = s.boats[seat]
    out = []
    used = s.used
    for sid in _BANKS[sec]:
        if sid not in used:
            out.append((sid, stall_choices(s, seat, sid)))
    if s.barge in _SECTION_ENDS[sec] and "barge" not in used:
        out.append(("barge", king_choices(s, seat)))
    return out


def act_choices(s: State, seat: int) -> list[str]:
    """``end`` and the choices of :func:`act_targets`, in that order."""
    out = ["end"]
    sec = s.boats[seat]
    used = s.used
    for sid in _BANKS[sec]:
        if sid not in used:
            out += stall_choices(s, seat, sid)
    if s.barge in _SECTION_ENDS[sec] and "barge" not in used:
        out += king_choices(s, seat)
    return out


_ACT_SORTED: dict[tuple[str, ...], tuple[str, ...]] = {}


def act_texts(s: State, seat: int) -> tuple[str, ...]:
    """:func:`act_choices` sorted (the sorted lists are kept per unsorted list: the same few
    hundred come back again and again)."""
    key = tuple(act_choices(s, seat))
    got = _ACT_SORTED.get(key)
    if got is None:
        got = tuple(nsorted(key))
        if len(_ACT_SORTED) < 1 << 15:
            _ACT_SORTED[key] = got
    return got


def to_move(state: State) -> tuple[int, ...]:
    """The one seat awaited, or () once over (the engine's ``to_move`` itself)."""
    s = state
    if CARD <= s.step < OVER:  # the steps after set-up: the seat whose turn it is
        return (s.cur,)
    a = actor(s)
    return () if a is None else (a,)


def check_actor(s: State) -> None:
    """Until the game is over, the seat awaited has a legal action."""
    if s.step != OVER:
        a = actor(s)
        assert a is not None and kept_legal(s, a), "the actor has no legal action"
