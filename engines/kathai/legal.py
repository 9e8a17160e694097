"""Which Kathai actions are legal now: whose turn, direct checks with reasons, the legal lists.

:func:`awaited` says who acts; :func:`check` decides one parsed action without enumerating
anything (``is_legal`` and ``apply`` use it, through :func:`why_not`); :func:`legal` lists every
legal text, sorted as plain strings (docs/rules/kathai.md#legal-list-order).

The offer part of a list (up to ~11,000 texts) is ``offer <target> <give> for <want> <k>``
over every target, give set and (want, k) that the hand sizes allow. Which k are allowed
depends only on (gifts, the active hand size, the give size, the target's hand size):
:data:`_KSM` holds them as bit masks and :data:`_TAILS` the sorted ``"<want> <k>"`` texts of
each mask. The give sets of a hand come in text order from :func:`_gives`: that order depends
only on how the hand's ids sort as text, so it is cached per such pattern (about 190 occur over
all hands). A list then costs one string concatenation per text, which is the floor; building
offer lists is most of the time of a random playout. Only the last list is kept (it stays the
same while offers are declined) and it is dropped before the next one is built: keeping more
costs more in memory traffic than their rare repeats save.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from engines.errors import GameOver, IllegalAction, NotYourTurn, RuleError
from engines.kathai.data import ANY, CARD_TEXT, GOODS, HAND_LIMIT, ITEMS, PRICES, SELLABLE, WANTS
from engines.kathai.notation import PROFIT, Move, parse_move, seat_text
from engines.kathai.state import ALL, MAIN, OVER, REPLY, TRADING, State, refused
from engines.play import not_your_turn_reason

# --------------------------------------------------------------------------- offers


def eligible(n_x: int, give: int, k: int) -> bool:
    """Whether a seat holding ``n_x`` cards may answer an offer of ``give`` cards for ``k``."""
    return n_x >= k and n_x - k + give <= HAND_LIMIT


def _ks_mask(gifts: bool, n_p: int, give: int, n_x: int) -> int:
    """Bit k set when an offer of ``give`` of ``n_p`` cards for ``k`` suits a seat holding
    ``n_x`` (the hand limit both ways; k = 0 and give = 0 only with gifts, not both)."""
    if not gifts and give == 0:
        return 0
    lo = 0 if gifts and give else 1
    hi = min(HAND_LIMIT, HAND_LIMIT - n_p + give)
    return sum(1 << k for k in range(lo, hi + 1) if eligible(n_x, give, k))


_H = HAND_LIMIT + 1
_KSM: tuple[int, ...] = tuple(
    _ks_mask(g, n_p, give, n_x)
    for g in (False, True)
    for n_p in range(_H)
    for give in range(_H)
    for n_x in range(_H)
)
"""``_KSM[((gifts * 8 + n_p) * 8 + give) * 8 + n_x]``: the allowed k as a bit mask."""

_KS: tuple[tuple[int, ...], ...] = tuple(tuple(k for k in range(_H) if m >> k & 1) for m in range(1 << _H))
"""``_KS[mask]``: the k of a mask, ascending."""

_SORTED_WANTS = tuple(sorted(range(len(WANTS)), key=lambda w: WANTS[w]))
_TAILS: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{WANTS[w]} {k}" for w in _SORTED_WANTS for k in ks if k or w == ANY) for ks in _KS
)
"""``_TAILS[mask]``: ``"any 1"``, ``"gold 1"``… of the mask's k, sorted as text (k is one digit)."""

_HEADS = {t: f"offer {seat_text(t)} " for t in (ALL, *range(5))}

_RANK = [0] * len(CARD_TEXT)
for _r, _c in enumerate(sorted(range(1, len(CARD_TEXT)), key=CARD_TEXT.__getitem__)):
    _RANK[_c] = _r
"""``_RANK[card]``: the card's place when the texts ``t1``..``t55`` are sorted as strings."""

_REV = tuple(tuple(int(f"{i:0{m}b}"[::-1] or "0", 2) for i in range(1 << m)) for m in range(_H))
"""``_REV[m][mask]``: ``mask`` with its ``m`` bits in reverse order."""


def _row(s: State, give: int) -> int:
    """The start in :data:`_KSM` of the active seat's offers of ``give`` cards."""
    return ((s.opts.allow_gifts * _H + len(s.hands[s.active])) * _H + give) * _H


def offer_ks(s: State, target: int, give: int) -> tuple[int, ...]:
    """The counts k for which an offer of ``give`` cards to ``target`` (a seat or ``ALL``) is
    legal as far as sizes go (hand limit, eligibility, gifts)."""
    p = s.active
    row = _row(s, give)
    seats = [x for x in range(s.n) if x != p] if target == ALL else [target]
    m = 0
    for x in seats:
        m |= _KSM[row + len(s.hands[x])]
    return _KS[m]


def _tails(s: State, target: int) -> tuple[tuple[str, ...], ...]:
    """Per give size 0..len(hand): the sorted tails of the offers to ``target`` (seat or ALL)."""
    p = s.active
    hands = s.hands
    if target == ALL:
        sizes = tuple(sorted({len(hands[x]) for x in range(s.n) if x != p}))
    else:
        sizes = (len(hands[target]),)
    return _tails_of(s.opts.allow_gifts, len(hands[p]), sizes)


@lru_cache(maxsize=1024)
def _tails_of(gifts: bool, n_p: int, sizes: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """:func:`_tails` for an active hand of ``n_p`` and targets holding ``sizes`` cards."""
    out = []
    for give in range(n_p + 1):
        row = ((gifts * _H + n_p) * _H + give) * _H
        m = 0
        for n_x in sizes:
            m |= _KSM[row + n_x]
        out.append(_TAILS[m])
    return tuple(out)


@lru_cache(maxsize=512)
def _give_order(pattern: tuple[int, ...], gifts: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The give sets (bit i for the hand's i-th card) in the order their texts sort, and their
    sizes, for a hand whose cards rank ``pattern`` as texts (the hand in id order); the empty
    set only with gifts. A give text lists ids in id order; texts compare token by token and a
    prefix first, so only the pattern decides the order."""
    keys: list[tuple[int, ...]] = [()]
    for r in pattern:
        keys += [k + (r,) for k in keys]
    order = tuple(sorted(range(0 if gifts else 1, len(keys)), key=keys.__getitem__))
    return order, tuple(len(keys[i]) for i in order)


@lru_cache(maxsize=16)
def _gives(hand: tuple[int, ...], gifts: bool) -> tuple[tuple[str, int], ...]:
    """(``"t1 t5 for "``, size) of every give set of ``hand``, in the order their offer texts
    sort; the empty set (``"for "``) only with gifts."""
    ranks = [_RANK[c] for c in hand]
    srt = sorted(ranks)
    order, sizes = _give_order(tuple([srt.index(r) for r in ranks]), gifts)
    texts = ["for "]  # texts[mask], bit i for hand[-1 - i] (cards prepended, last card first)
    for c in reversed(hand):
        tok = CARD_TEXT[c] + " "
        texts += [tok + t for t in texts]
    rev = _REV[len(hand)]
    return tuple(zip([texts[rev[i]] for i in order], sizes, strict=True))


_OFFERS: dict[tuple[object, ...], list[str]] = {}


def offer_actions(s: State) -> tuple[str, ...]:
    """Every legal ``offer`` text of the active seat, sorted."""
    return tuple(offer_list(s))


def offer_list(s: State) -> list[str]:
    """:func:`offer_actions` as the kept list itself (callers copy it, never change it). Only
    the last list is kept, by what decides it (it stays the same while offers are declined);
    it is dropped before a new one is built, so the new texts reuse the old ones' memory."""
    p = s.active
    hand = s.hands[p]
    key = (p, hand, tuple([len(h) for h in s.hands]), s.opts.allow_gifts)
    hit = _OFFERS.get(key)
    if hit is not None:
        return hit
    _OFFERS.clear()
    gives = _gives(hand, s.opts.allow_gifts)
    out: list[str] = []
    for t in (ALL, *range(s.n)):
        if t == p:
            continue
        tails = _tails(s, t)
        head = _HEADS[t]
        out += [h + x for text, size in gives if (tl := tails[size]) for h in (head + text,) for x in tl]
    _OFFERS[key] = out
    return out


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
    ``free_asking`` while no trade has been carried out
    (docs/rules/kathai.md#offer-commits-the-turn, docs/rules/kathai.md#free-asking)."""
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
    either goods; docs/rules/kathai.md#lock-covers-the-pair)."""
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


def why_not(s: State, seat: int, m: Move) -> RuleError | None:
    """The error ``apply`` raises for ``m`` by ``seat`` (game over, not its turn, or illegal with
    the reason), or None when it is legal."""
    if s.step == OVER:
        return GameOver()
    waiting = awaited(s)
    if seat not in waiting:
        return NotYourTurn(not_your_turn_reason(waiting))
    why = check(s, seat, m)
    return IllegalAction(why) if why is not None else None


def is_legal(s: State, seat: int, text: str) -> str | None:
    """None if ``text`` is legal for ``seat`` now, else the reason (no enumeration)."""
    try:
        m = parse_move(text)
    except RuleError as bad:
        return bad.reason
    err = why_not(s, seat, m)
    return err.reason if err is not None else None


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
