"""A full Pralaya state consistent with one seat's view, for the search AI (engines.search).

What a seat's view hides: the other seats' relic hands (their sizes are shown) unless hands are
open, and the deck's order. Everything else is in the view: the island, the discard pile, the
seat's own hand, Veda and Dhoni owners, the step, Vitality, round and seats.

Card counting: every relic not on the island, in the discard pile or in the seat's own (or a
visible) hand is unseen. The Oceans among them are all in the deck (an Ocean never leaves the
island or the deck); the non-Ocean unseen relics fill the hidden hands (their sizes) and the
deck's ``unrevealed`` relics, drawn uniformly; then the deck is shuffled. The view does not hold
the move log, so what a seat could remember of it is not used.

Fields the view does not show are rebuilt to what the rules imply: ``turns`` (turns started so
far: a function of round, first and active seat), ``last`` (one relic on the island at the start
of this turn, counting the cells emptied since), the Veda numbers (1, 2, … in seat order; only
who holds one is shown and nothing depends on the number), ``turn_cards`` (the relics the seat
to move took this turn: cards of its hand whose count is the cells emptied and whose costs sum to
the Vitality spent) and ``end_reason`` once over.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from engines import fastcopy
from engines.pralaya.state import (
    CARD_INDEX,
    COST_E,
    DHONI_INDEX,
    DISCARD,
    EMPTY,
    IS_OCEAN,
    IS_RELIC_E,
    N_CARDS,
    OVER,
    STEP_NAMES,
    State,
    island_avail,
)
from engines.pralaya.view import PralayaView

_STEP = {name: i for i, name in enumerate(STEP_NAMES)}
_OCEANS = frozenset(i for i in range(N_CARDS) if IS_OCEAN[i])


def _ids(cards: list[str] | None) -> list[int]:
    return [CARD_INDEX[c] for c in cards or ()]


def _turn_cards(cards: list[int], count: int, spent: int, rng: random.Random) -> list[int]:
    """``count`` of ``cards`` whose costs sum to ``spent`` (the relics taken this turn), drawn
    uniformly among such sets with ``rng``: a split by cost (how many of cost 1, 2 and 3) with
    the chance of its number of sets, then the cards of each cost. Raises ValueError if none."""
    by_cost: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for c in cards:
        by_cost[COST_E[c]].append(c)
    splits: list[tuple[int, int, int]] = []
    weights: list[int] = []
    for threes in range(count + 1):
        for twos in range(count - threes + 1):
            ones = count - threes - twos
            if ones + 2 * twos + 3 * threes == spent:
                w = comb(len(by_cost[1]), ones) * comb(len(by_cost[2]), twos) * comb(len(by_cost[3]), threes)
                if w:
                    splits.append((ones, twos, threes))
                    weights.append(w)
    if not splits:
        raise ValueError("no cards fit the Vitality spent this turn")
    ones, twos, threes = rng.choices(splits, weights)[0] if len(splits) > 1 else splits[0]
    return rng.sample(by_cost[1], ones) + rng.sample(by_cost[2], twos) + rng.sample(by_cost[3], threes)


@dataclass(frozen=True)
class Known:
    """What one view fixes, read once (:func:`read`): a template state (hidden hands empty, deck
    empty), the hands known, the unseen relics and Oceans, and what the seat to move took."""

    template: State
    hands: tuple[tuple[int, ...] | None, ...]
    sizes: tuple[int, ...]
    relics: tuple[int, ...]
    oceans: tuple[int, ...]
    n_taken: int
    spent: int
    collecting: bool


_last: tuple[PralayaView, Known] | None = None
"""The last view read and what it fixes: the search determinizes the same view object once per
iteration, so it is read once. The pair holds the view, so its ``id`` cannot be reused while
cached; it is replaced in one assignment, so threads sharing it see one pair or the other. Views
are never changed in place (the search's checks prove it leaves them as they were)."""


def determinize(view: PralayaView, rng: random.Random) -> State:
    """A state drawn uniformly from those the viewing seat cannot tell from the true one:
    ``make_view(determinize(v, rng), v["viewer"]) == v``. Raises ValueError for a spectator's view
    (the search only plays seats) or a view that no state fits."""
    global _last
    last = _last
    if last is not None and last[0] is view:
        known = last[1]
    else:
        known = read(view)
        _last = (view, known)
    return sample(known, rng)


def sample(k: Known, rng: random.Random) -> State:
    """One state drawn from those that fit ``k``."""
    s = k.template
    active = s.active
    relics = list(k.relics)
    turn_cards: list[int] = []
    if k.collecting and k.hands[active] is None:  # its hidden hand holds them: draw them first
        turn_cards = _turn_cards(relics, k.n_taken, k.spent, rng)
        drop = set(turn_cards)
        relics = [i for i in relics if i not in drop]
    rng.shuffle(relics)
    at = 0
    full: list[tuple[int, ...]] = []
    for t, h in enumerate(k.hands):
        if h is None:
            size = k.sizes[t]
            if t == active:
                size -= len(turn_cards)
                h = tuple(sorted(turn_cards + relics[at : at + size]))
            else:
                h = tuple(sorted(relics[at : at + size]))
            at += size
        elif k.collecting and t == active:
            turn_cards = _turn_cards(list(h), k.n_taken, k.spent, rng)
        full.append(h)
    deck = relics[at:]
    deck += k.oceans
    rng.shuffle(deck)
    return fastcopy.replace(s, hands=tuple(full), deck=tuple(deck), turn_cards=tuple(turn_cards))


def _hands(view: PralayaView, seat: int) -> tuple[list[tuple[int, ...] | None], list[int], int]:
    """The hands the view shows (None where hidden), every hand's size, and the hidden cards' count."""
    me = view["me"]
    assert me is not None
    hands: list[tuple[int, ...] | None] = []
    sizes = []
    hidden_sizes = 0
    for p in view["players"]:
        sizes.append(p["hand_size"])
        if p["seat"] == seat:
            hands.append(tuple(sorted(_ids(me["hand_ids"]))))
        elif p["hand_ids"] is not None:
            hands.append(tuple(sorted(_ids(p["hand_ids"]))))
        else:
            hands.append(None)
            hidden_sizes += p["hand_size"]
    return hands, sizes, hidden_sizes


def _end_reason(step: int, dhoni: tuple[int, ...], relics_now: int, taken: int) -> str:
    """Why a finished game ended, from what its view shows ("" while it runs)."""
    if step != OVER:
        return ""
    if all(d >= 0 for d in dhoni):
        return "all_escaped"
    return "island_empty" if relics_now == 0 and not taken else "last_card"


def _template(
    view: PralayaView, island: tuple[int, ...], taken: int, new: int, discard: tuple[int, ...]
) -> State:
    """The state the view fixes, with every hand and the deck empty."""
    n, step, active = view["n_players"], _STEP[view["step"]], view["active"]
    veda_count = 0
    veda = []
    for p in view["players"]:  # Veda numbers 1, 2, … in seat order (nothing depends on them)
        veda_count += bool(p["veda"])
        veda.append(veda_count if p["veda"] else 0)
    dhoni = tuple(-1 if p["dhoni"] is None else DHONI_INDEX[p["dhoni"]] for p in view["players"])
    relics_now = sum(IS_RELIC_E[c] for c in island)
    first, rnd, opts = view["first"], view["round"], view["options"]
    return State(
        n=n,
        first=first,
        round=rnd,
        turns=(rnd - 1) * n + (active - first) % n + 1,
        active=active,
        step=step,
        v_start=view["vitality"],
        v_left=view["v_left"],
        last=relics_now + bin(taken).count("1") == 1 and step != OVER,
        island=island,
        avail=island_avail(island),
        taken=taken,
        new=new,
        turn_cards=(),
        deck=(),
        hands=(),
        veda=tuple(veda),
        dhoni=dhoni,
        dhoni_pile=tuple(DHONI_INDEX[d["id"]] for d in view["dhoni"]),
        discard=discard,
        end_reason=_end_reason(step, dhoni, relics_now, taken),
        open_hands=opts["open_hands"],
        veda_price=opts["veda_price"],
        first_seat=opts["first_seat"],
        fossil_all=opts["fossil_all_players"],
    )


def read(view: PralayaView) -> Known:
    """What ``view`` fixes. Raises ValueError for a spectator's view or one no state fits."""
    seat = view["viewer"]
    if seat is None or view["me"] is None:
        raise ValueError("determinize needs a seat's own view")
    island = tuple(EMPTY if c["card"] is None else CARD_INDEX[c["card"]] for c in view["island"])
    taken = new = 0
    for i, c in enumerate(view["island"]):
        taken |= int(c["taken"]) << i
        new |= int(c["new"]) << i
    discard = tuple(_ids(view["discard"]))
    hands, sizes, hidden_sizes = _hands(view, seat)
    seen = set(island)
    seen.update(discard)
    for h in hands:
        if h is not None:
            seen.update(h)
    unseen = [i for i in range(N_CARDS) if i not in seen]
    relics = tuple(i for i in unseen if i not in _OCEANS)
    oceans = tuple(i for i in unseen if i in _OCEANS)
    if len(relics) != hidden_sizes + view["unrevealed"] or len(unseen) - hidden_sizes != view["deck"]:
        raise ValueError("the view's hand sizes and deck counts do not fit its cards")
    template = _template(view, island, taken, new, discard)
    n_taken = bin(taken).count("1")
    step = template.step
    collecting = bool(n_taken) and step not in (OVER, DISCARD)  # the seat to move took relics this turn
    spent = view["vitality"] - view["v_left"]
    return Known(template, tuple(hands), tuple(sizes), relics, oceans, n_taken, spent, collecting)
