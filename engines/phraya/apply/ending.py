"""The end of a turn and of the game."""

from __future__ import annotations

from engines import fastcopy
from engines.fastcopy import fields_of
from engines.phraya.apply.write import Events, event, goods_delta, seat_event, write, write_player
from engines.phraya.data import GOODS
from engines.phraya.legal import act_texts
from engines.phraya.state import CARD, HELD, LEGAL, OVER, State, conditions, fresh, price

_COND_NAMES = ("Royal Tithe", "Buddha worshipped", "Market supremacy")


def check_end(s: State, ev: Events) -> State:
    """End the game at once when two of the three conditions hold (docs/rules/phraya.md#end); else keep the
    count on ``s`` (``state.HELD``)."""
    conds = conditions(s)
    held = conds[0] + conds[1] + conds[2]
    if held >= 2:
        names = " and ".join(n for n, c in zip(_COND_NAMES, conds, strict=False) if c)
        return finish_in_place(s, ev, names)
    fastcopy.remember(s, HELD, held)
    return s


def finish(s: State, ev: Events, reason: str) -> State:
    """A copy of ``s`` after the final sale of every boat's goods at current prices, at OVER;
    appends the ``over`` event to ``ev``."""
    return finish_in_place(fresh(s), ev, reason)


def finish_in_place(s: State, ev: Events, reason: str) -> State:
    """:func:`finish` in place (the only write that may follow ``enter_act`` or the move
    step's start in ``advance``, so it drops the legal list they may have left)."""
    fastcopy.forget(s, HELD)
    fastcopy.forget(s, LEGAL)
    sale = []
    for q in range(s.n):
        p = s.players[q]
        got = sum(p.goods[i] * price(s, g) for i, g in enumerate(GOODS))
        sale.append(got)
        s = goods_delta(s, q, [-k for k in p.goods])
        s = write_player(s, q, coins=s.players[q].coins + got)
    s = write(
        s,
        step=OVER,
        end_reason=reason,
        final_sale=tuple(sale),
        card="",
        pending="",
        effects=(),
        passives=(),
        used=(),
    )
    sold = ", ".join(f"{{s{q}}} +{c}" for q, c in enumerate(sale) if c)
    ev.append(
        event(
            "over",
            f"The game ends: {reason}. Final sale: {sold or 'nothing to sell'}.",
            {"reason": reason, "sale": sale},
        )
    )
    return s


def end_turn(s: State, ev: Events) -> State:
    d = fields_of(s)
    nxt = (d["cur"] + 1) % d["n"]
    # the turn's scratch back to empty
    d["card"] = d["pending"] = ""
    d["effects"] = d["passives"] = d["used"] = ()
    d["cur"] = nxt
    d["step"] = CARD
    if nxt == d["first"]:
        rnd = d["round"] + 1
        d["round"] = rnd
        limit = s.opts.round_limit
        if limit and rnd > limit:
            d["round"] = limit
            return finish_in_place(s, ev, f"round limit {limit}")
        ev.append(event("round", f"Round {rnd}.", {"round": rnd}))
    return s


def enter_act(s: State, seat: int, ev: Events) -> State:
    """ACT, or the turn's end when ``end`` is the only choice (else the ACT list is left on
    ``s`` for the engine, see ``state.LEGAL``)."""
    acts = act_texts(s, seat)
    if len(acts) == 1:
        ev.append(seat_event("auto", "{seat} has nothing more to do; the turn ends.", seat))
        return end_turn(s, ev)
    fastcopy.remember(s, LEGAL, (seat, acts))
    return s
