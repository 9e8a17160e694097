"""What the Phraya drawings read from a view (``engines/phraya/view.py``), gathered once:
names and seat letters, stalls by id, the marks of the current step, prices, charts. Tolerant of
missing fields, so a partial view still draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import format_text
from engines.phraya.view.types import BasketView, MeView, OrderView, PhrayaView, PlayerView, StallView
from render.common import seat_names
from render.phraya import layout
from render.phraya.art import GOODS, card_info, seat_letters

STEP_LABEL = {
    "setup_boat": "places a boat",
    "setup_stall": "places a stall",
    "card": "plays a card",
    "merchant": "moves the Merchant",
    "price": "changes prices",
    "barge": "moves the barge",
    "discard": "discards",
    "premove": "moves 2 first",
    "refresh": "may refresh",
    "move": "moves",
    "act": "trades",
    "over": "game over",
}
PRICE_ROWS_DEFAULT = {
    "veg": [1, 2, 3, 4, 5, 6, 7],
    "fruit": [2, 3, 4, 5, 6, 7, 8],
    "fish": [3, 4, 5, 6, 7, 8, 9],
    "meat": [4, 5, 6, 7, 8, 9, 10],
}


@dataclass
class Model:
    view: PhrayaView
    n: int
    names: list[str]
    letters: list[str]
    over: bool
    step: str
    round: int
    active: int | None
    step_label: str
    stalls: dict[str, StallView]
    order_on: dict[str, OrderView]
    basket_on: dict[str, BasketView]
    restaurants: list[str]
    basket_stalls: list[str]
    boats: list[str | None]
    barge: str
    mark_sections: list[str]
    mark_crossings: list[str]
    mark_stalls: list[str]
    active_stalls: list[str]
    last_move: list[str]
    price_rows: dict[str, list[int]]
    price_index: dict[str, int]
    price: dict[str, int]
    players: list[PlayerView]
    me: MeView | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def fmt(self, s: str | None) -> str:
        return format_text(s or "", self.names)


def model(view: PhrayaView, names: Sequence[str] | None = None) -> Model:
    n = int(view["n_players"] or len(view["players"]) or 2)
    nm = seat_names(names, n)
    over = bool(view["over"])
    step = str(view["step"])
    to_move = list(view["to_move"])
    active = None if over else (to_move[0] if to_move else view["current"])
    stalls = {st["id"]: st for st in view["board"]["stalls"]}
    boats = list(view["boats"] or [None] * n)
    sec = boats[active] if active is not None else None
    marks_s, marks_st, act_st = _marks(view, step, active, sec, stalls, boats)
    rows, idx, price = _prices(view)
    return Model(
        view=view,
        n=n,
        names=nm,
        letters=seat_letters(nm, n),
        over=over,
        step=step,
        round=int(view["round"]),
        active=active,
        step_label=_step_label(view, step, active, sec),
        stalls=stalls,
        order_on={sid: st["order"] for sid, st in stalls.items() if st["order"]},
        basket_on={sid: st["basket"] for sid, st in stalls.items() if st["basket"]},
        restaurants=sorted(s for s, st in stalls.items() if st["kind"] == "restaurant"),
        basket_stalls=sorted(s for s, st in stalls.items() if st["kind"] == "basket"),
        boats=boats,
        barge=str(view["barge"] or "x11"),
        mark_sections=marks_s,
        mark_crossings=list(view["barge_targets"]),
        mark_stalls=marks_st,
        active_stalls=act_st,
        last_move=list(view["last_move"]),
        price_rows=rows,
        price_index=idx,
        price=price,
        players=list(view["players"]),
        me=view["me"],
    )


def _marks(
    view: PhrayaView,
    step: str,
    active: int | None,
    sec: str | None,
    stalls: dict[str, StallView],
    boats: list[str | None],
) -> tuple[list[str], list[str], list[str]]:
    """What the current step marks: the sections a boat may reach (or be placed on), the stalls a
    seat may place on, and the two stalls the active boat trades with."""
    marks_s = list(view["reachable"])
    marks_st: list[str] = []
    act_st: list[str] = []
    if step == "setup_boat" and active is not None:
        taken = {x for x in boats if x}
        marks_s = [s for s in layout.SECTIONS if None in layout.crossing_ends(s) and s not in taken]
    if step == "setup_stall":
        marks_st = [s for s, st in stalls.items() if st["ownable"] and st["owner"] is None]
    if step == "act" and sec:
        act_st = [sec + ("n" if sec[0] == "h" else "w"), sec + ("s" if sec[0] == "h" else "e")]
    return marks_s, marks_st, act_st


def _prices(view: PhrayaView) -> tuple[dict[str, list[int]], dict[str, int], dict[str, int]]:
    """Each good's price row, the marker's index on it, and the price it marks."""
    prices = view["prices"]
    rows = {g: list(prices[g]["row"] or PRICE_ROWS_DEFAULT[g]) for g in GOODS}
    idx = {g: int(prices[g]["index"]) for g in GOODS}
    price = {g: rows[g][idx[g]] for g in GOODS}
    return rows, idx, price


def _step_label(view: PhrayaView, step: str, active: int | None, sec: str | None) -> str:
    """What the active seat is doing, with the card in play, a blocked draw or the King nearby."""
    label = STEP_LABEL.get(step, step)
    if step == "move" and active is not None:
        p = view["players"][active]
        r = p["rowers"]
        if r:
            label = f"moves 1–{r} sections"
    turn = view["turn"]
    card = turn["card"]
    if card and step not in ("card", "setup_boat", "setup_stall", "over"):
        info = card_info(str(card))  # the card by its name: an id is only a tag
        label += f" · {info['name'] if info else card}"
    if step == "card" and turn["blocked"]:
        label += " · blocked: barge card"
    if step == "act" and sec and m_barge_adjacent(sec, str(view["barge"])):
        label += " · King here"
    return label


def m_barge_adjacent(section: str, barge: str) -> bool:
    """Whether the barge sits on one of the section's crossings."""
    return barge in layout.crossing_ends(section)
