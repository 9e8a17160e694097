"""The Phraya view (docs/rules/phraya.md#hidden-information): everything a renderer needs, for one viewer.

Public: board (geometry, stalls, owners, orders, basket prices), boats, barge, charts, the card
market, supplies, and every player's coins, flowers, favors, goods, baskets, rowers, pieces,
discard, orders and (unless ``hidden_hands``) hand. Hidden from everyone: deck order, bag, the
order stacks (counts only), the 2-player removed tiles and the goods of baskets lying on stalls
(unless ``open_baskets``). ``me`` holds the viewer's private panel (legal actions, playable cards,
capacity and free space, passives, a score preview). Field names are stable: only add fields.
"""

from __future__ import annotations

from functools import cache

from engines.phraya import data
from engines.phraya.data import BASKET, CARDS, GI, KING_SPACES, ORDER, board
from engines.phraya.describe import effect_words, king_cost
from engines.phraya.legal import kept_legal, moves_from, premoves, to_move
from engines.phraya.prompts import instruction
from engines.phraya.scoring import outcome, sheet
from engines.phraya.state import (
    ACT,
    BARGE,
    CARD,
    DISCARD,
    MERCHANT,
    MOVE,
    OVER,
    PREMOVE,
    PRICE,
    REFRESH,
    SETUP_BOAT,
    SETUP_STALL,
    STEP_NAMES,
    State,
    capacity,
    conditions,
    price,
    put,
    put_player,
)
from engines.phraya.view.types import (
    BasketView,
    BoardView,
    CardView,
    CrossingView,
    IslandView,
    KingSpaceView,
    MeView,
    OrderView,
    PhrayaView,
    PlayerView,
    PriceView,
    SectionView,
    StallView,
    TempleView,
    TurnView,
)


def card_view(cid: str) -> CardView:
    """The card ``cid`` with its effects in words."""
    c = CARDS[cid]
    text = _card_text(cid)
    return CardView(
        id=c.id,
        name=c.name,
        coins=c.coins,
        flowers=c.flowers,
        immediate=list(c.immediate),
        passive=list(c.passive),
        endgame=list(c.endgame),
        text=text,
    )


@cache
def _card_text(cid: str) -> str:
    c = CARDS[cid]
    return "; ".join(effect_words(e) for e in (*c.immediate, *c.passive, *c.endgame))


def order_view(oid: str) -> OrderView:
    t = ORDER[oid]
    return OrderView(id=oid, type=t[1], goods=t[2].split(), coins=t[3], vp=t[4])


def _geometry() -> tuple[list[IslandView], list[CrossingView], list[SectionView]]:
    islands = []
    for isl in board.ISLANDS:
        i, j = int(isl[1]), int(isl[2])
        x, y = board.coords(isl)
        sides = [board.island_stall(i, j, sd) for sd in "NESW"]
        islands.append(IslandView(id=isl, row=i, col=j, x=x, y=y, stalls=[s for s in sides if s is not None]))
    crossings = []
    for xid in board.CROSSINGS:
        x, y = board.coords(xid)
        crossings.append(
            CrossingView(
                id=xid, row=int(xid[1]), col=int(xid[2]), x=x, y=y, sections=list(board.CROSS_SECTIONS[xid])
            )
        )
    sections = []
    for sec in board.SECTIONS:
        x, y = board.coords(sec)
        ends = board.SECTION_ENDS[sec]
        sections.append(
            SectionView(
                id=sec,
                orient=sec[0],
                ends=list(ends),
                interior=None not in ends,
                banks=list(board.banks(sec)),
                x=x,
                y=y,
            )
        )
    return islands, crossings, sections


_GEOMETRY = _geometry()


def headline(s: State) -> str:
    """One line: round, who acts and what step (or the result)."""
    if s.step == OVER:
        return f"Game over ({s.end_reason})"
    who = "{s%d}" % s.cur
    if s.step == SETUP_BOAT:
        return f"Set-up · {who} places a boat on an outer channel"
    if s.step == SETUP_STALL:
        return f"Set-up · {who} places a starting stall"
    what = {
        CARD: "plays a card",
        MERCHANT: "moves the Merchant",
        PRICE: "changes prices",
        BARGE: "moves the Royal Barge",
        DISCARD: "discards",
        PREMOVE: "moves 2 sections first",
        REFRESH: "may refresh the market",
        MOVE: "moves the boat",
        ACT: "trades",
    }[s.step]
    limit = f"/{s.opts.round_limit}" if s.opts.round_limit else ""
    return f"Round {s.round}{limit} · {who} {what}"


def _stall_views(s: State) -> list[StallView]:
    """Every stall: where it is, what it is, its owner, the order or basket lying on it."""
    b = s.board
    rest_order = dict(zip(b.restaurants, s.orders_on, strict=False))
    stall_basket = dict(zip(b.baskets, s.stall_baskets, strict=False))
    stalls: list[StallView] = []
    for i, sid in enumerate(board.STALLS):
        st = b.stalls[sid]
        isl, side = board.stall_island(sid)
        x, y = board.coords(sid)
        order = None
        basket = None
        if st.kind == "restaurant" and rest_order.get(sid):
            order = order_view(rest_order[sid])
        if st.kind == "basket" and stall_basket.get(sid):
            t = BASKET[stall_basket[sid]]
            basket = BasketView(
                price=int(t[2]), goods=[str(t[0]), str(t[1])] if s.opts.open_baskets else None
            )
        stalls.append(
            StallView(
                id=sid,
                section=sid[:3],
                bank=sid[3],
                island=isl,
                side=side,
                x=x,
                y=y,
                kind=st.kind,
                good=st.good,
                ownable=st.ownable,
                owner=s.owner[i] if s.owner[i] >= 0 else None,
                order=order,
                basket=basket,
            )
        )
    return stalls


def _board_view(s: State) -> BoardView:
    islands, crossings, sections = _GEOMETRY
    return BoardView(
        size=4,
        islands=islands,
        crossings=crossings,
        sections=sections,
        stalls=_stall_views(s),
        layout=[list(t) for t in s.layout],
    )


def _player_views(s: State, viewer: int | None) -> list[PlayerView]:
    """Every seat's holdings; the hand only where ``viewer`` may see it."""
    over = s.step == OVER
    players: list[PlayerView] = []
    for q, p in enumerate(s.players):
        show = not s.opts.hidden_hands or q == viewer or over
        cap = capacity(p)
        players.append(
            PlayerView(
                seat=q,
                color=data.PLAYER_COLORS[q],
                coins=p.coins,
                flowers=p.flowers,
                favors=p.favors,
                goods=dict(zip(data.GOODS, p.goods, strict=False)),
                capacity=dict(zip(data.GOODS, cap, strict=False)),
                baskets=[_basket_goods(k) for k in p.baskets],
                basket_spaces=data.BASKET_SPACES_EXTRA - (len(p.baskets) - p.start_baskets),
                rowers=p.rowers,
                stalls_left=p.stalls_left,
                disks_left=p.disks_left,
                stalls_owned=[board.STALLS[i] for i, o in enumerate(s.owner) if o == q],
                hand=[card_view(c) for c in p.hand] if show else None,
                hand_count=len(p.hand),
                discard=list(p.discard),
                market_cards=[c for c in (*p.hand, *p.discard) if c[0] == "m"]
                if show
                else [c for c in p.discard if c[0] == "m"],
                orders=[order_view(o) for o in p.orders],
                orders_vp=sum(ORDER[o][4] for o in p.orders),
                boat=s.boats[q] or None,
            )
        )
    return players


def _me_view(s: State, viewer: int) -> MeView:
    """``viewer``'s private panel."""
    over = s.step == OVER
    cur = s.cur
    legal = list(kept_legal(s, viewer))
    p = s.players[viewer]
    cap = capacity(p)
    return MeView(
        seat=viewer,
        legal=legal,
        prompt=instruction(s, viewer, legal),
        hand=[card_view(c) for c in p.hand],
        playable=[a.split()[1] for a in legal if a.startswith("play ")],
        capacity=dict(zip(data.GOODS, cap, strict=False)),
        free={g: cap[GI[g]] - p.goods[GI[g]] for g in data.GOODS},
        passives=list(s.passives) if viewer == cur else [],
        preview=sheet(_as_seen(s, viewer), final=over)[viewer],
    )


def _marks(s: State) -> tuple[list[str], list[str], bool]:
    """The destinations (MOVE, PREMOVE) or Barge crossings (BARGE) to mark, and whether the
    active boat is blocked (CARD)."""
    cur = s.cur
    reachable: list[str] = []
    targets: list[str] = []
    if s.step == MOVE:
        reachable = list(moves_from(s, cur))
    elif s.step == PREMOVE:
        reachable = list(premoves(s, cur))
    elif s.step == BARGE:
        targets = [a.split()[1] for a in kept_legal(s, cur)]
    blocked = s.step == CARD and not moves_from(s, cur)
    return reachable, targets, blocked


def _price_views(s: State) -> dict[str, PriceView]:
    """Each good's price box, price and row."""
    return {
        g: PriceView(index=s.prices[GI[g]], price=price(s, g), row=list(data.PRICE_ROWS[g]))
        for g in data.GOODS
    }


def _king_views(s: State) -> list[KingSpaceView]:
    """The King's chart, space by space."""
    return [
        KingSpaceView(space=sp, row=sp[0], cost=king_cost(sp), seat=s.king[i] if s.king[i] >= 0 else None)
        for i, sp in enumerate(KING_SPACES)
    ]


def _temple_view(s: State) -> TempleView:
    """The Temple rows and their fixed costs and values."""
    return TempleView(
        rows={g: list(s.temple[i]) for i, g in enumerate(data.TEMPLE_ROWS)},
        row_order=list(data.TEMPLE_ROWS),
        columns=data.TEMPLE_COLUMNS,
        flower_cost=list(data.TEMPLE_FLOWER_COST),
        sections=[list(x) for x in data.TEMPLE_SECTIONS],
        section_vp=list(data.TEMPLE_SECTION_VP),
        section_penalty=list(data.TEMPLE_SECTION_PENALTY),
        offering_vp=dict(data.TEMPLE_OFFERING_VP),
    )


def _options(s: State) -> dict[str, object]:
    """The game's options."""
    return {
        "layout": s.opts.layout,
        "starting_boats": s.opts.starting_boats,
        "hidden_hands": s.opts.hidden_hands,
        "open_baskets": s.opts.open_baskets,
        "blocked_allow_retrieve": s.opts.blocked_allow_retrieve,
        "round_limit": s.opts.round_limit,
    }


def _supply(s: State) -> dict[str, int]:
    """What the supply holds: each good, flowers, favors, rower tiles."""
    return {
        **dict(zip(data.GOODS, s.supply_goods, strict=False)),
        "flowers": s.supply_flowers,
        "favors": s.supply_favors,
        "rowers": s.supply_rowers,
    }


def view(s: State, viewer: int | None) -> PhrayaView:
    """The JSON-serialisable view of ``s`` for ``viewer`` (schema: :class:`PhrayaView`). Never
    contains the deck or bag order, the order stacks, or (unless ``open_baskets``) the goods of
    baskets lying on stalls; with ``hidden_hands`` no other seat's hand."""
    over = s.step == OVER
    cur = s.cur
    reachable, targets, blocked = _marks(s)
    players = _player_views(s, viewer)
    tithe, buddha, supremacy = conditions(s)
    out = outcome(s) if over else None
    me = _me_view(s, viewer) if viewer is not None else None
    return PhrayaView(
        game="phraya",
        viewer=viewer,
        n_players=s.n,
        to_move=list(to_move(s)),
        over=over,
        headline=headline(s),
        options=_options(s),
        step=STEP_NAMES[s.step],
        current=cur,
        first=s.first,
        round=s.round,
        round_limit=s.opts.round_limit,
        board=_board_view(s),
        boats=[x or None for x in s.boats],
        barge=s.barge,
        reachable=reachable,
        barge_targets=targets,
        last_move=list(s.last_move),
        prices=_price_views(s),
        merchant=s.merchant,
        merchant_route=[list(r) for r in data.MERCHANT_ROUTE],
        merchant_start=data.MERCHANT_START,
        king=_king_views(s),
        temple=_temple_view(s),
        display=[card_view(c) if c else None for c in s.display],
        deck=len(s.deck),
        bag=len(s.bag),
        stacks=[len(x) for x in s.stacks],
        removed=len(s.removed),
        supply=_supply(s),
        players=players,
        turn=TurnView(
            card=s.card or None,
            pending=s.pending or None,
            effects_left=list(s.effects),
            passives=list(s.passives),
            used=list(s.used),
            blocked=blocked,
        ),
        conditions={"tithe": tithe, "buddha": buddha, "supremacy": supremacy},
        end_reason=s.end_reason,
        final_sale=list(s.final_sale),
        categories=list(data.CATEGORIES),
        scores=[dict(b) if b is not None else {} for b in out.breakdown] if out else None,
        totals=[int(t) if t is not None else 0 for t in out.scores] if out else None,
        ranks=list(out.ranks) if out else None,
        me=me,
    )


def _as_seen(s: State, viewer: int) -> State:
    """``s`` as ``viewer`` knows it, for the score preview: with ``hidden_hands`` (before the
    end) the other seats' hands without their market cards, whose ``as:G`` stalls would otherwise
    show in the viewer's stall majorities."""
    if not s.opts.hidden_hands or s.step == OVER:
        return s
    players = tuple(
        p if q == viewer else put_player(p, hand=tuple(c for c in p.hand if c[0] != "m"))
        for q, p in enumerate(s.players)
    )
    return put(s, players=players)


def _basket_goods(k: str) -> list[str]:
    if k[0] == "p":
        return list(data.BOAT_PRINTED_BASKETS[int(k[1]) - 1])
    t = BASKET[k]
    return [str(t[0]), str(t[1])]


def secrets(state: State, viewer: int | None) -> list[str]:
    """Ids that no view may hold: baskets in the bag or lying on stalls (their goods are
    hidden), cards in the deck, order tiles in the stacks or removed; with
    ``hidden_hands`` the market cards in other seats' hands."""
    out = [f'"{k}"' for k in state.bag] + [f'"{k}"' for k in state.stall_baskets if k]
    out += [f'"{c}"' for c in state.deck]
    out += [f'"{o}"' for st in state.stacks for o in st] + [f'"{o}"' for o in state.removed]
    if state.opts.hidden_hands and state.step != OVER:
        for q, p in enumerate(state.players):
            if q != viewer:
                out += [f'"{c}"' for c in p.hand if c[0] == "m"]
    return out
