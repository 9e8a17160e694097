"""Build Kathai positions from a readable description (for tests, examples and tutorials).

Every card not placed (hands, profit piles, pile, lock, discards) goes to the pile in id
order when ``pile`` is not given, else face down to ``discard_down`` (out of play), so the
55 cards are always conserved. Profit cards given without sales are recorded as granted
(``spent`` goes negative), which keeps the invariant "profit = sales − spent".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.kathai.data import GOODS, NCARDS
from engines.kathai.rules import KathaiEngine
from engines.kathai.state import MAIN, Lock, Opts, State

M = "silk salt gold tea spice"
"""The base market of the worked examples (positions 1→5; docs/rules/kathai.md#worked-examples)."""


def ids(text: str) -> tuple[int, ...]:
    """``"t3 t17"`` -> (3, 17)."""
    return tuple(int(t[1:]) for t in text.split())


def build(
    n: int = 3,
    *,
    hands: Sequence[str] = (),
    market: str = M,
    active: int = 0,
    pile: str | None = None,
    profit: Sequence[str] = (),
    lock: tuple[str, str, str, int] | None = None,
    scores: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    turn_no: int = 1,
    final: Sequence[int] | None = None,
) -> State:
    """A ``main`` position with seat ``active`` to play (its draw already done).

    ``hands``/``profit``: id texts per seat (missing seats: empty); ``market``: goods by
    position; ``pile``: id text, top first; ``lock``: (goods, goods, card, seat). Raises
    ValueError if a card is placed twice."""
    opts = Opts.of(KathaiEngine().resolve_options(options))
    hs = tuple(tuple(sorted(ids(hands[q]))) if q < len(hands) else () for q in range(n))
    ps = tuple(tuple(sorted(ids(profit[q]))) if q < len(profit) else () for q in range(n))
    lk = _lock(lock)
    used = [c for h in hs for c in h] + [c for p in ps for c in p] + ([lk.card] if lk is not None else [])
    pl, down = _pile(pile, used)
    return State(
        n=n,
        opts=opts,
        pile=pl,
        hands=hs,
        profit=ps,
        discard_up=(),
        discard_down=down,
        market=tuple(GOODS.index(g) for g in market.split()),
        lock=lk,
        scores=tuple(scores) if scores is not None else (0,) * n,
        sales=(),
        spent=tuple(-len(p) for p in ps),
        active=active,
        step=MAIN,
        turn_no=turn_no,
        offers_used=0,
        traded=False,
        offer=None,
        final=tuple(final) if final is not None else ((2,) * n if not pl else None),
        final_turn=turn_no - 1 if (final is not None or not pl) else 0,
        reason="",
        last="",
        fresh=((),) * n,
    )


def _lock(lock: tuple[str, str, str, int] | None) -> Lock | None:
    """``(goods, goods, card, seat)`` as a :class:`Lock` (the pair in goods order)."""
    if lock is None:
        return None
    a, b = sorted((GOODS.index(lock[0]), GOODS.index(lock[1])))
    return Lock(pair=(a, b), card=ids(lock[2])[0], by=lock[3])


def _pile(pile: str | None, used: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The pile and the face-down cards: without ``pile`` every card not ``used`` is the pile
    (in id order), else the cards of neither are face down. Raises ValueError if a card is
    placed twice."""
    rest = [c for c in range(1, NCARDS + 1) if c not in used]
    pl = ids(pile) if pile is not None else tuple(rest)
    placed = used + list(pl) if pile is not None else used
    if len(set(placed)) != len(placed):
        raise ValueError("a card is placed twice")
    down = tuple(c for c in rest if c not in pl) if pile is not None else ()
    return pl, down
