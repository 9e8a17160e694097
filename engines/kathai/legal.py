"""Which Kathai actions are legal: direct checks with reasons, and the full legal lists.

:func:`check` decides one parsed action without enumerating anything (``is_legal`` and
``apply`` use it); :func:`legal` lists every legal text, sorted as plain strings (ruling
§14.9). The offer part of a list (up to ~11,000 texts) comes from ``offers.py``.
"""

from __future__ import annotations

from itertools import combinations

from engines.kathai.data import ANY, CARD_TEXT, GOODS, HAND_LIMIT, ITEMS, PRICES, SELLABLE, WANTS
from engines.kathai.notation import PROFIT, Move
from engines.kathai.offers import eligible, offer_list
from engines.kathai.offers import offer_actions as offer_actions  # re-exported for callers and tests
from engines.kathai.state import ALL, MAIN, OVER, REPLY, TRADING, State, refused

# --------------------------------------------------------------------------- shared facts


def awaited(s: State) -> tuple[int, ...]:
    """The seats that may act now: the active seat, or the addressees still to answer."""
    if s.step == OVER:
        return ()
    if s.step == REPLY:
        o = s.offer
        assert o is not None
        if not o.declined:
            return o.addressees
        return tuple([x for x in o.addressees if x not in o.declined])
    return (s.active,)


def can_commit(s: State) -> bool:
    """Whether sell, bribe and buy are open: in ``main``, or in ``trading`` with
    ``free_asking`` while no trade has been carried out (rulings 5, §14.7)."""
    return s.step == MAIN or (s.step == TRADING and s.opts.free_asking and not s.traded)


def offer_targets(s: State, give: int, k: int) -> tuple[int, ...]:
    """The opponents of the active seat eligible for an offer of ``give`` cards for ``k``."""
    p = s.active
    return tuple(x for x in range(s.n) if x != p and eligible(len(s.hands[x]), give, k))


def goods_items(cards: tuple[int, ...], g: int) -> int:
    """Items of goods ``g`` on ``cards``."""
    return sum(ITEMS[c][g] for c in cards)


def shows(card: int, want: int) -> bool:
    """Whether ``card`` may answer an ask for ``want`` (a goods or ``ANY``)."""
    return want == ANY or ITEMS[card][want] > 0


def lock_blocks(s: State, pair: tuple[int, int]) -> bool:
    """Whether the lock forbids a bribe of ``pair`` (the pair, or with ``bribe_lock=goods``
    either goods, ruling 11)."""
    lock = s.lock
    if lock is None:
        return False
    if s.opts.bribe_lock == "goods":
        return pair[0] in lock.pair or pair[1] in lock.pair
    return lock.pair == pair


def opponents_text(s: State, seat: int) -> str:
    """``"all, {s1} (s1) or {s2} (s2)"``: the targets ``seat`` may name in an offer."""
    who = ["all"] + ["{s%d} (s%d)" % (x, x) for x in range(s.n) if x != seat]
    return ", ".join(who[:-1]) + " or " + who[-1]


def refused_ask(s: State, target: int, give: tuple[int, ...], want: int, k: int) -> bool:
    """Whether every seat an ask of the active seat would reach has declined, this turn and
    without trading since, the same ask (``want``, ``k``) for cards that ``give`` does not
    strictly add to: the same ask, a kinder one, or one for other cards just as many, was
    refused, so this one would only ask the same people for the same goods again. Only a
    kinder give (the refused cards and more) may still be sent."""
    mem = refused(s)
    if not mem:
        return False
    seats = offer_targets(s, len(give), k) if target == ALL else (target,)
    mine = set(give)
    return bool(seats) and all(
        any(r[0] == x and r[2] == want and r[3] == k and not mine > set(r[1]) for r in mem) for x in seats
    )


# --------------------------------------------------------------------------- checking one


def check(s: State, seat: int, m: Move) -> str | None:
    """None if ``m`` is legal for ``seat`` now, else the reason (``{sN}`` tokens). Does not
    check game over or whose turn it is beyond the verb's step (callers do)."""
    v = m.verb
    if s.step == REPLY:
        if v not in ("accept", "decline"):
            return "An offer is open: its addressees answer `accept …` or `decline` first."
        if v == "decline":
            return None
        return _check_accept(s, seat, m)
    if v in ("accept", "decline"):
        return "There is no offer to answer."
    hand = s.hands[seat]
    if v == "pass":
        return None
    if v == "offer":
        return _check_offer(s, seat, m)
    if v == "swap":
        if s.traded:
            return "You traded this turn: a swap with the pile is no longer allowed."
        if not s.pile:
            return "The pile is empty: no swap."
        if m.ids[0] not in hand:
            return f"You do not hold {CARD_TEXT[m.ids[0]]}."
        return None
    if not can_commit(s):
        if s.traded:
            return "You traded this turn: only more offers, or pass."
        return "You have made an offer this turn: only more offers, swap or pass."
    if v == "buy":
        if not s.profit[seat]:
            return "Buying a card costs a profit card, and you have none."
        if len(hand) >= HAND_LIMIT:
            return f"You hold {HAND_LIMIT} cards: no room to buy one."
        if not s.pile:
            return "The pile is empty: nothing to buy."
        return None
    if v == "sell":
        return _check_sell(s, hand, m)
    return _check_bribe(s, seat, m)


def _check_sell(s: State, hand: tuple[int, ...], m: Move) -> str | None:
    g = m.goods
    pos = s.market.index(g)
    name = GOODS[g]
    if pos >= SELLABLE:
        return f"{name} is at position 5: it cannot be sold now."
    for c in m.ids:
        if c not in hand:
            return f"You do not hold {CARD_TEXT[c]}."
        if not ITEMS[c][g]:
            return f"{CARD_TEXT[c]} shows no {name}."
    need = PRICES[pos][1]
    have = goods_items(m.ids, g)
    if have < need:
        return f"{name} at position {pos + 1} needs {need} {name}; these cards show {have}."
    return None


def _check_bribe(s: State, seat: int, m: Move) -> str | None:
    a, b = m.pair
    pa, pb = s.market.index(a), s.market.index(b)
    if abs(pa - pb) != 1:
        return f"{GOODS[a]} and {GOODS[b]} are not next to each other."
    if lock_blocks(s, m.pair):
        lk = s.lock
        assert lk is not None
        what = " and ".join(GOODS[g] for g in lk.pair)
        return f"The bribe card on {what} forbids that switch."
    if m.pay == PROFIT:
        if not s.profit[seat]:
            return "You have no profit card to pay with."
    elif m.pay not in s.hands[seat]:
        return f"You do not hold {CARD_TEXT[m.pay]}."
    return None


def _check_offer(s: State, seat: int, m: Move) -> str | None:
    if s.offers_used >= s.opts.max_offers:
        m_ = s.opts.max_offers
        return f"You have made {m_} offer{'s' if m_ != 1 else ''} this turn, the most allowed: swap or pass."
    give, k = m.ids, m.k
    if not s.opts.allow_gifts:
        if not give:
            return "A trade is an exchange: offer at least one card."
        if k < 1:
            return "A trade is an exchange: ask for at least one card."
    hand = s.hands[seat]
    for c in give:
        if c not in hand:
            return f"You do not hold {CARD_TEXT[c]}."
    if len(hand) - len(give) + k > HAND_LIMIT:
        return f"You would hold more than {HAND_LIMIT} cards after that trade."
    t = m.target
    if t == ALL:
        if not offer_targets(s, len(give), k):
            return "No opponent can take that trade within the hand limit."
        return None
    if t >= s.n or t == seat:
        what = f"There is no s{t} in this {s.n}-player game" if t >= s.n else "You cannot trade with yourself"
        return f"{what}: offer to {opponents_text(s, seat)}."
    if not eligible(len(s.hands[t]), len(give), k):
        return "{s%d} cannot take that trade (too few cards, or over the hand limit)." % t
    return None


def _check_accept(s: State, seat: int, m: Move) -> str | None:
    o = s.offer
    assert o is not None
    if len(m.ids) != o.k:
        return f"The offer asks for exactly {o.k} card{'s' if o.k != 1 else ''}."
    hand = s.hands[seat]
    for c in m.ids:
        if c not in hand:
            return f"You do not hold {CARD_TEXT[c]}."
        if not shows(c, o.want):
            return f"{CARD_TEXT[c]} shows no {WANTS[o.want]}."
    return None


# --------------------------------------------------------------------------- listing all


def legal(s: State, seat: int) -> list[str]:
    """Every legal text of ``seat`` now, sorted; [] if it is not awaited."""
    if seat not in awaited(s):
        return []
    if s.step == REPLY:
        return reply_actions(s, seat) + ["decline"]
    before, after = _small(s, seat)
    if s.offers_used < s.opts.max_offers:
        before += offer_list(s)
    before += after
    return before


def legal_small(s: State, seat: int) -> list[str]:
    """The legal texts of ``seat`` other than offers (sorted); [] if it is not awaited."""
    if seat not in awaited(s):
        return []
    if s.step == REPLY:
        return reply_actions(s, seat) + ["decline"]
    before, after = _small(s, seat)
    return before + after


def _small(s: State, seat: int) -> tuple[list[str], list[str]]:
    """The sorted non-offer texts of the active seat: those sorting before ``offer`` and
    those after."""
    hand = s.hands[seat]
    before: list[str] = []  # verbs sorting before "offer": bribe, buy
    after: list[str] = ["pass"]
    if can_commit(s):
        before = bribe_actions(s, seat)
        if s.profit[seat] and len(hand) < HAND_LIMIT and s.pile:
            before.append("buy")
        after += sell_actions(s, hand)
    if not s.traded and s.pile:
        after += [f"swap {CARD_TEXT[c]}" for c in hand]
    before.sort()
    after.sort()
    return before, after


def reply_actions(s: State, seat: int) -> list[str]:
    """The sorted ``accept`` texts of an addressee (without ``decline``)."""
    o = s.offer
    assert o is not None
    if o.k == 0:
        return ["accept"]
    w = o.want
    cards = [CARD_TEXT[c] for c in s.hands[seat] if w == ANY or ITEMS[c][w]]
    return sorted(["accept " + " ".join(combo) for combo in combinations(cards, o.k)])


def sell_subsets(hand: tuple[int, ...], g: int, need: int) -> list[tuple[int, ...]]:
    """Every set of hand cards showing ``g`` with at least ``need`` items of it."""
    cards = [c for c in hand if ITEMS[c][g]]
    out = []
    for mask in range(1, 1 << len(cards)):
        combo = tuple(c for i, c in enumerate(cards) if mask >> i & 1)
        if goods_items(combo, g) >= need:
            out.append(combo)
    return out


def sell_actions(s: State, hand: tuple[int, ...]) -> list[str]:
    """Every legal ``sell`` text (unsorted): the texts and item counts of every set of cards
    showing the goods are built up card by card."""
    out: list[str] = []
    for pos in range(SELLABLE):
        g = s.market[pos]
        need = max(PRICES[pos][1], 1)  # never the empty set
        texts = ["sell " + GOODS[g]]
        items = [0]
        for c in hand:
            k = ITEMS[c][g]
            if k:
                tok = " " + CARD_TEXT[c]
                texts += [t + tok for t in texts]
                items += [i + k for i in items]
        out += [t for t, i in zip(texts, items, strict=True) if i >= need]
    return out


def bribe_actions(s: State, seat: int) -> list[str]:
    """Every legal ``bribe`` text (unsorted)."""
    pays = [CARD_TEXT[c] for c in s.hands[seat]]
    if s.profit[seat]:
        pays.append("profit")
    out = []
    for p in range(SELLABLE):
        a, b = s.market[p], s.market[p + 1]
        pair = (min(a, b), max(a, b))
        if lock_blocks(s, pair):
            continue
        head = f"bribe {GOODS[pair[0]]} {GOODS[pair[1]]} "
        out += [head + pay for pay in pays]
    return out
