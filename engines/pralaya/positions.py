"""Build consistent Pralaya positions for tests, examples and render fixtures.

:func:`rig` starts from a real state (usually a fresh ``setup``), places the named cards where
asked, puts every other card in the deck, and (by default) runs START again for the active
seat, so the result obeys every invariant (docs/rules/pralaya.md#invariants) and continues like any game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engines import fastcopy
from engines.pralaya import data
from engines.pralaya.apply import start_turn
from engines.pralaya.state import (
    CARD_INDEX,
    CELLS,
    DHONI_INDEX,
    EMPTY,
    IS_OCEAN,
    State,
    island_avail,
)


def ids(text: str) -> list[str]:
    """``"gol1 sil2"`` -> ``["gol1", "sil2"]`` (a shorthand for tests)."""
    return text.split()


def _index(card_id: str) -> int:
    try:
        return CARD_INDEX[card_id]
    except KeyError:
        raise ValueError(f"no relic card {card_id!r}") from None


def rig(
    state: State,
    *,
    island: Mapping[str, str | None] | Sequence[str | None] | None = None,
    hands: Mapping[int, Iterable[str]] | None = None,
    deck_top: Sequence[str] = (),
    discard: Sequence[str] | None = None,
    veda: Iterable[int] | None = None,
    dhoni: Mapping[int, str] | None = None,
    round: int | None = None,
    active: int | None = None,
    start: bool = True,
) -> State:
    """A consistent position derived from ``state``.

    ``island``: ``{cell: id or None}`` (cells not named hold Oceans) or one id/None per cell in
    row-major order; None keeps the island (a cell whose card is placed elsewhere takes the next
    unplaced card of the deck). ``hands``: ``{seat: ids}`` (other seats keep theirs).
    ``deck_top``: ids put on top of the deck, top first. ``discard``: the discard pile (replaces it).
    ``veda``: the seats holding a Veda. ``dhoni``: ``{seat: "dh7"}``; the pile becomes the other
    Dhoni of this player count (X first, then ascending). ``round``/``active``: whose turn.
    ``start``: run START for the active seat (Vitality, ``last``, step; automatic steps follow).

    Cards not placed go to the deck below ``deck_top`` in their current deck order, then data order.
    Returns the new state; raises ValueError for an unknown id or cell or a card placed twice.
    """
    placed: list[int] = []
    new_hands = list(state.hands)
    for seat, cards in (hands or {}).items():
        new_hands[seat] = tuple(sorted(_index(c) for c in cards))
    for h in new_hands:
        placed += h
    top = [_index(c) for c in deck_top]
    pile = tuple(_index(c) for c in discard) if discard is not None else state.discard
    placed += top + list(pile)

    cells = _cells(state, island, placed)
    placed += [c for c in cells if c != EMPTY]
    rest = _rest(state, placed)
    new_veda, dh, dh_pile = _purchases(state, veda, dhoni)

    island_t = tuple(cells)
    out = fastcopy.replace(
        state,
        island=island_t,
        avail=island_avail(island_t),
        deck=tuple(top + rest),
        hands=tuple(new_hands),
        discard=pile,
        veda=tuple(new_veda),
        dhoni=dh,
        dhoni_pile=dh_pile,
        round=state.round if round is None else round,
        active=state.active if active is None else active,
        taken=0,
        new=0,
        turn_cards=(),
        end_reason="",
    )
    return start_turn(out, []) if start else out


def _cells(
    state: State, island: Mapping[str, str | None] | Sequence[str | None] | None, placed: list[int]
) -> list[int]:
    """The island :func:`rig` builds (see there); ``placed``: the cards already placed elsewhere."""
    n = state.n
    names = CELLS[n]
    if island is None:  # keep it, but a cell whose card is placed elsewhere gets a fresh card
        taken_now = set(placed)
        spare = iter(c for c in state.deck if c not in taken_now)
        return [next(spare) if c in taken_now else c for c in state.island]
    elif isinstance(island, Mapping):
        unknown = set(island) - set(names)
        if unknown:
            raise ValueError(f"no cell {sorted(unknown)} on a {n}-player island")
        cells = [EMPTY if (card := island.get(c)) is None else _index(card) for c in names]
        taken_now = set(placed) | {c for c in cells if c != EMPTY}
        oceans = iter(i for i in range(len(IS_OCEAN)) if IS_OCEAN[i] and i not in taken_now)
        return [cells[k] if names[k] in island else next(oceans) for k in range(len(names))]
    if len(island) != len(names):
        raise ValueError(f"the island has {len(names)} cells, not {len(island)}")
    return [EMPTY if c is None else _index(c) for c in island]


def _purchases(
    state: State, veda: Iterable[int] | None, dhoni: Mapping[int, str] | None
) -> tuple[list[int], tuple[int, ...], tuple[int, ...]]:
    """The Veda numbers, the Dhoni owned and the Dhoni pile :func:`rig` builds (see there)."""
    n = state.n
    veda_seats = sorted(set(veda)) if veda is not None else [s for s in range(n) if state.veda[s]]
    new_veda = [0] * n
    for k, s in enumerate(veda_seats):
        new_veda[s] = k + 1
    if dhoni is not None:
        owned = [-1] * n
        for s, d in dhoni.items():
            owned[s] = DHONI_INDEX[d]
        left = tuple(DHONI_INDEX[d] for d in data.DHONI_PILES[n] if DHONI_INDEX[d] not in owned)
        dh, dh_pile = tuple(owned), left
    else:
        dh, dh_pile = state.dhoni, state.dhoni_pile
    return new_veda, dh, dh_pile


def _rest(state: State, placed: list[int]) -> list[int]:
    """The deck below the cards put on top: the cards not ``placed``, in their deck order, then the
    others in data order. Raises ValueError for a card placed twice."""
    if len(placed) != len(set(placed)):
        dup = sorted({data.CARD_IDS[c] for c in placed if placed.count(c) > 1})
        raise ValueError(f"cards placed twice: {dup}")
    used = set(placed)
    old_deck = set(state.deck)
    rest = [c for c in state.deck if c not in used]
    return rest + [c for c in range(len(IS_OCEAN)) if c not in used and c not in old_deck]
