"""The played card and its effects."""

from __future__ import annotations

from engines.fastcopy import fields_of, poke
from engines.phraya import data
from engines.phraya.apply.ending import end_turn, enter_act
from engines.phraya.apply.write import (
    Events,
    event,
    gain_flowers,
    goods_delta,
    seat_event,
    write,
    write_player,
)
from engines.phraya.data import CARDS, GI, board
from engines.phraya.legal import legal, move_mask, move_texts, premove_choices
from engines.phraya.state import ACT, BARGE, DISCARD, LEGAL, MERCHANT, MOVE, PREMOVE, REFRESH, State, nsorted


def play(s: State, seat: int, cid: str, ev: Events) -> State:
    p = s.players[seat]
    s = write_player(s, seat, hand=tuple([c for c in p.hand if c != cid]), discard=(*p.discard, cid))
    card = CARDS[cid]
    d = fields_of(s)
    d["card"] = cid
    d["effects"] = card.immediate
    d["passives"] = card.passive
    d["used"] = ()
    d["pending"] = ""
    ev.append(seat_event("play", f"{{seat}} plays {cid} ({card.name}).", seat, cid))
    return advance(s, ev)


def _head(effect: str) -> tuple[str, int]:
    """An effect's first word, and its amount for ``coins n``."""
    w = effect.split()
    return w[0], int(w[1]) if w[0] == "coins" else 0


_HEADS = {e: _head(e) for c in CARDS.values() for e in c.immediate}


def _retrieve(s: State, seat: int, ev: Events) -> State:
    """Return to Pier (docs/rules/phraya.md#return-to-pier): the discard pile back to hand, a coin a
    card, then the refresh step (or the turn's end when slot 1 is empty)."""
    p = s.players[seat]
    k = len(p.discard) * data.RETRIEVE_COIN_PER_CARD
    s = write_player(s, seat, coins=p.coins + k, hand=tuple(nsorted(p.hand + p.discard)), discard=())
    ev.append(
        event(
            "retrieve",
            f"{{s{seat}}} takes back {len(p.discard)} cards and gains {k} coins.",
            {"seat": seat, "coins": k},
        )
    )
    s = write(s, step=REFRESH, effects=(), pending="")
    if s.display[0]:
        return s
    ev.append(event("auto", f"{{s{seat}}} keeps the market (slot 1 is empty).", {"seat": seat}))
    return end_turn(s, ev)


def advance(s: State, ev: Events) -> State:
    """Resolve queued effects until one needs a choice; then MOVE (or ACT, or the turn's end)."""
    seat = s.cur
    d = fields_of(s)
    while d["effects"]:
        eff = d["effects"][0]
        d["effects"] = d["effects"][1:]
        d["pending"] = eff
        head, k = _HEADS.get(eff) or _head(eff)
        if head == "coins":
            s = write_player(s, seat, coins=s.players[seat].coins + k)
            ev.append(event("coins", f"{{s{seat}}} gains {k} coins.", {"seat": seat, "coins": k}))
        elif head == "flower":
            s, k = gain_flowers(s, seat, 1)
            ev.append(
                event(
                    "flower",
                    f"{{s{seat}}} gains {k} flower{'s' if k != 1 else ''}.",
                    {"seat": seat, "flowers": k},
                )
            )
        elif head == "mer":
            d["step"] = MERCHANT
            return s
        elif head == "barge":
            d["step"] = BARGE
            return s
        elif head in ("g2f", "f2c"):
            d["step"] = DISCARD
            if legal(s, seat) != ["done"]:
                return s
            ev.append(event("auto", f"{{s{seat}}} has nothing to discard.", {"seat": seat}))
        elif head == "boat2":
            d["step"] = PREMOVE
            if premove_choices(s, seat):
                return s
            ev.append(event("auto", f"{{s{seat}}} cannot move before the movement.", {"seat": seat}))
        elif head == "retrieve":
            return _retrieve(s, seat, ev)
        d["pending"] = ""
    d["pending"] = ""
    d["step"] = MOVE
    mask = move_mask(s, seat)
    if mask:
        d[LEGAL] = (seat, move_texts(mask))  # the legal list, for the engine
        return s
    ev.append(event("auto", f"{{s{seat}}} cannot move and acts in place.", {"seat": seat}))
    d["step"] = ACT
    return enter_act(s, seat, ev)


_ADJACENT = {x: tuple(board.STALL_INDEX[b] for b in board.adjacent_stalls(x)) for x in board.CROSSINGS}
"""Per crossing, the ``owner`` indexes of its 8 adjacent stalls."""


def move_barge(s: State, seat: int, x: str, ev: Events) -> State:
    bless = s.pending.split()[2]
    kind, amount = data.BLESSINGS[bless]
    poke(s, "barge", x)
    per = [0] * s.n
    owner = s.owner
    for i in _ADJACENT[x]:
        q = owner[i]
        if q >= 0:
            per[q] += 1
    got = []
    for k in range(s.n):
        q = (seat + k) % s.n
        if not per[q]:
            continue
        if kind == "flowers":
            s, g = gain_flowers(s, q, per[q] * amount)
            got.append(f"{{s{q}}} +{g} flower{'s' if g != 1 else ''}")
        else:
            s = write_player(s, q, coins=s.players[q].coins + per[q] * amount)
            got.append(f"{{s{q}}} +{per[q] * amount} coins")
    ev.append(
        event(
            "barge",
            f"{{s{seat}}} moves the Royal Barge to {x}. Blessings: {', '.join(got) or 'none'}.",
            {"seat": seat, "crossing": x},
        )
    )
    poke(s, "pending", "")
    return s


def discard(s: State, seat: int, what: str, ev: Events) -> State:
    if what == "flower":
        p = s.players[seat]
        s = write_player(s, seat, flowers=p.flowers - 1, coins=p.coins + 3)
        s = write(s, supply_flowers=s.supply_flowers + 1)
        ev.append(event("discard", f"{{s{seat}}} discards a flower for 3 coins.", {"seat": seat}))
        return s
    delta = [0, 0, 0, 0]
    delta[GI[what]] = -1
    s = goods_delta(s, seat, delta)
    s, k = gain_flowers(s, seat, 1)
    ev.append(
        event("discard", f"{{s{seat}}} discards a {what} for {k} flower.", {"seat": seat, "good": what})
    )
    return s


def boat_to(s: State, seat: int, sec: str, ev: Events, verb: str) -> State:
    boats = list(s.boats)
    start = boats[seat]
    boats[seat] = sec
    ev.append(
        event(
            verb,
            f"{{s{seat}}} {'first moves' if verb == 'premove' else 'moves'} {start} → {sec}.",
            {"seat": seat, "from": start, "to": sec},
        )
    )
    d = fields_of(s)
    d["boats"] = tuple(boats)
    d["last_move"] = (start, sec)
    return s


def refresh(s: State, seat: int, ev: Events) -> State:
    disp = list(s.display)
    first = disp.pop(0)
    deck = (*s.deck, first)
    disp.append(deck[0])
    ev.append(
        event(
            "refresh",
            f"{{s{seat}}} refreshes the market: {first} ({CARDS[first].name}) goes under the deck, "
            f"{deck[0]} ({CARDS[deck[0]].name}) comes out.",
            {"seat": seat, "out": first, "in": deck[0]},
        )
    )
    return write(s, display=tuple(disp), deck=deck[1:])
