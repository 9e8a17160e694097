"""Kathai determinization for the search AI: a full state consistent with one seat's view.

What a seat's view hides (docs/rules/kathai.md#hidden-information): the other hands, the pile's
order, which of the publicly kept sale cards are still profit cards and which were spent, the
lock card (unless the seat placed it), the face-down ``discard_down`` cards, the cards of an
offer the seat is not a party to, and ``final_turn`` (whether the end was triggered in this very
turn).

Card counting: every card the seat sees (its hand, every sold card, the cards of an open offer
it is a party to, its own lock card) is placed where the view says; the *unknown* cards (all the
others) are dealt uniformly at random to the other hands, the pile (in a random order) and the
face-down cards, with the sizes the view shows. Profit cards are always kept sale cards (the
lowest id of a sale), so each seat's profit pile is drawn from its own kept cards; the kept cards
spent since are face down (``discard_down`` or the lock). Spending takes the lowest id at the
time, which depends on the order of buys and sales that the view does not keep, so which kept
cards remain is drawn at random too (their identity never matters to play: they are out of play
either way).

Not used (the view does not hold them): what earlier public events said (a trade's "each shows
salt", a card swapped under the pile); only the last event line is in the view.

``view(determinize(v, rng), v["viewer"]) == v`` exactly; tests/kathai/test_search.py checks it.
"""

from __future__ import annotations

import random

from engines.kathai.data import FINAL_TURNS, GOODS, NCARDS, WANTS
from engines.kathai.state import ALL, STEP_NAMES, Lock, Offer, Opts, Refusal, Sale, State, with_refused
from engines.kathai.view import KathaiView, MeView

_CARD = {f"t{i}": i for i in range(1, NCARDS + 1)}
_GOODS = {g: i for i, g in enumerate(GOODS)}
_WANTS = {w: i for i, w in enumerate(WANTS)}
_STEPS = {name: i for i, name in enumerate(STEP_NAMES)}
_ALL_CARDS = frozenset(range(1, NCARDS + 1))


def _target(text: str) -> int:
    return ALL if text == "all" else int(text[1:])


def _trigger_now(view: KathaiView, me: MeView | None) -> bool | None:
    """Whether the end was triggered in the current turn when the view alone decides it, else
    None. With every seat still at two final turns the pile was emptied by the draw of this turn
    or of the previous one (a ``buy`` that empties it ends its turn and leaves its buyer at
    one); the active seat itself knows which, in ``main`` before any trade: it drew this turn
    exactly when it received a card."""
    final = view["final"]
    if final is None or any(f != FINAL_TURNS for f in final):
        return False
    if me is not None and view["viewer"] == view["active"] and view["step"] == "main":
        return bool(me["received"])
    return None


def _sales(view: KathaiView) -> tuple[Sale, ...]:
    return tuple(
        Sale(
            seat=x["seat"],
            turn=x["turn"],
            goods=_GOODS[x["goods"]],
            pos=x["pos"] - 1,
            cards=tuple(_CARD[c] for c in x["cards"]),
            items=x["items"],
            bonus=x["bonus"],
            points=x["points"],
        )
        for x in view["sales"]
    )


def _profits(
    view: KathaiView, sales: tuple[Sale, ...], own_lock: int, unknown: list[int], rng: random.Random
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Each seat's profit pile, drawn from its kept sale cards still unaccounted for (unknown
    cards only in built positions), and the kept cards left over (spent: face down)."""
    kept: list[list[int]] = [[] for _ in range(view["n_players"])]
    for x in sales:
        if x.cards[0] != own_lock:
            kept[x.seat].append(x.cards[0])
    profit = []
    spent: list[int] = []
    for q, p in enumerate(view["players"]):
        want, mine = p["profit"], kept[q]
        if want >= len(mine):
            pq = mine + [unknown.pop() for _ in range(want - len(mine))]
        else:
            rng.shuffle(mine)
            pq, rest = mine[:want], mine[want:]
            spent += rest
        profit.append(tuple(sorted(pq)))
    return profit, spent


def _hands(
    view: KathaiView, hand: tuple[int, ...], given: tuple[int, ...], unknown: list[int]
) -> list[tuple[int, ...]]:
    """The hands: the viewer's own, the offerer's offered cards it saw, the rest from the end of
    ``unknown`` (taken off it) in the sizes the view shows."""
    offer_v = view["offer"]
    offerer = offer_v["by"] if offer_v is not None else -1
    hands: list[tuple[int, ...]] = []
    for q, p in enumerate(view["players"]):
        if q == view["viewer"]:
            hands.append(hand)
            continue
        fixed = given if q == offerer else ()
        take = p["hand_size"] - len(fixed)
        drawn = unknown[-take:] if take else []
        del unknown[len(unknown) - take :]
        hands.append(tuple(sorted((*fixed, *drawn))))
    return hands


def _lock(view: KathaiView, own_lock: int, out_of_play: list[int], rng: random.Random) -> Lock | None:
    """The lock: its card is the viewer's own, else one of the face-down cards (taken off)."""
    lock_v = view["lock"]
    if lock_v is None:
        return None
    pair = tuple(sorted(_GOODS[g] for g in lock_v["pair"]))
    card = own_lock or out_of_play.pop(rng.randrange(len(out_of_play)))
    return Lock(pair=(pair[0], pair[1]), card=card, by=lock_v["by"], turn=max(0, view["turn_no"] - 1))


def _offer(
    view: KathaiView, given: tuple[int, ...], hands: list[tuple[int, ...]], rng: random.Random
) -> Offer | None:
    """The open offer; a seat not party to it gets any ``give_count`` cards of the offerer's."""
    offer_v = view["offer"]
    if offer_v is None:
        return None
    give = given
    if offer_v["give"] is None:
        give = tuple(sorted(rng.sample(hands[offer_v["by"]], offer_v["give_count"])))
    return Offer(
        by=offer_v["by"],
        target=_target(offer_v["to"]),
        give=give,
        want=_WANTS[offer_v["want"]],
        k=offer_v["k"],
        addressees=tuple(offer_v["addressees"]),
        skipped=tuple(offer_v["skipped"]),
        declined=tuple(offer_v["declined"]),
    )


def _final_turn(view: KathaiView, me: MeView, rng: random.Random) -> int:
    """The turn the end was triggered in (0 before): this one or the last, drawn when unknown."""
    if view["final"] is None:
        return 0
    now = _trigger_now(view, me)
    if now is None:
        now = rng.random() < 0.5
    return view["turn_no"] if now else view["turn_no"] - 1


def determinize(view: KathaiView, rng: random.Random) -> State:
    """A state drawn uniformly from those the viewer of ``view`` cannot tell from the truth (see
    the module docstring); ``view`` is not changed. Raises ValueError for a spectator's view."""
    viewer = view["viewer"]
    me = view["me"]
    if viewer is None or me is None:
        raise ValueError("determinize needs a seat's own view, not a spectator's")
    n, players = view["n_players"], view["players"]
    hand = tuple(sorted(_CARD[c["id"]] for c in me["hand"]))
    sales = _sales(view)
    own_lock, given = _seen(view)
    known = set(hand) | {c for x in sales for c in x.cards}
    if own_lock:
        known.add(own_lock)
    known.update(given)
    unknown = list(_ALL_CARDS - known)
    rng.shuffle(unknown)
    profit, out_of_play = _profits(view, sales, own_lock, unknown, rng)
    hands = _hands(view, hand, given, unknown)
    pile_n = view["pile"]
    pile = tuple(unknown[len(unknown) - pile_n :]) if pile_n else ()
    del unknown[len(unknown) - pile_n :]
    out_of_play += unknown
    lock = _lock(view, own_lock, out_of_play, rng)
    if len(out_of_play) != view["discard_down"]:
        raise ValueError("the view's card counts do not add up to 55")
    rng.shuffle(out_of_play)
    offer = _offer(view, given, hands, rng)
    final_turn = _final_turn(view, me, rng)
    outcome = view["outcome"]
    received = tuple(sorted(_CARD[c] for c in me["received"]))
    state = State(
        n=n,
        opts=Opts(**view["options"]),
        pile=pile,
        hands=tuple(hands),
        profit=tuple(profit),
        discard_up=tuple(_CARD[c] for c in view["discard_up"]),
        discard_down=tuple(out_of_play),
        market=tuple(_GOODS[slot["goods"]] for slot in view["market"]),
        lock=lock,
        scores=tuple(p["score"] for p in players),
        sales=sales,
        spent=tuple(players[q]["sales"] - players[q]["profit"] for q in range(n)),
        active=view["active"],
        step=_STEPS[view["step"]],
        turn_no=view["turn_no"],
        offers_used=view["offers_used"],
        traded=view["traded"],
        offer=offer,
        final=tuple(view["final"]) if view["final"] is not None else None,
        final_turn=final_turn,
        reason=outcome["reason"] if outcome is not None else "",
        last=view["last"],
        fresh=tuple(received if q == viewer else () for q in range(n)),
    )
    mem = view["refused"]
    if not mem:
        return state
    return with_refused(state, _refusals(view))


def _seen(view: KathaiView) -> tuple[int, tuple[int, ...]]:
    """The viewer's own lock card (0 if none) and the offered cards it saw (as a party)."""
    lock_v, offer_v = view["lock"], view["offer"]
    own_lock_id = lock_v["card"] if lock_v is not None else None
    given: tuple[int, ...] = ()
    if offer_v is not None and offer_v["give"] is not None:
        given = tuple(sorted(_CARD[c["id"]] for c in offer_v["give"]))
    return (_CARD[own_lock_id] if own_lock_id is not None else 0), given


def _refusals(view: KathaiView) -> tuple[Refusal, ...]:
    return tuple(
        (r["seat"], tuple(_CARD[c] for c in r["give"]), _WANTS[r["want"]], r["k"]) for r in view["refused"]
    )
