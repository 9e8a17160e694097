"""Kathai as Discord-markdown text: the same information as the board (and, for a seat's view,
its hand), at most 1900 characters."""

from __future__ import annotations

from collections.abc import Sequence

from engines.kathai.view import CardView, KathaiView, MeView, OfferView
from render.common import ordinal, score_lines
from render.kathai.art import card_goods, card_id_key, goods_name
from render.kathai.board.table import STEP_LABEL
from render.kathai.layout import Ctx

View = KathaiView
LIMIT = 1900
GOODS_ABBR = {"gold": "Go", "salt": "Sa", "silk": "Si", "spice": "Sp", "tea": "Te"}
"""Short goods names, only for a text that would pass the Discord limit otherwise."""


def goods_abbr(g: str) -> str:
    return GOODS_ABBR.get(g, str(g)[:2].title())


def _card(card: CardView | str, short: bool) -> str:
    cid = card["id"] if isinstance(card, dict) else card
    items = (card["items"] if isinstance(card, dict) else None) or card_goods(cid)
    lab = goods_abbr if short else (lambda g: g)  # the words the notation reads ("1 spice")
    inner = " + ".join(f"{k} {lab(g)}" for g, k in items.items() if k)
    return f"{cid} ({inner})"


def _want(want: str, k: int) -> str:
    cards = f"{k} card{'s' if k != 1 else ''}"
    return f"{cards} of any goods" if want == "any" else f"{cards} showing {goods_name(want)}"


def text(view: View, names: Sequence[str] | None = None, *, moves: bool = True) -> str:
    """The view as Discord markdown (≤ 1900 characters), names for ``{sN}``. ``moves`` is
    accepted like the other games' (this text never lists the legal moves)."""
    c = Ctx(view, names)
    out = ""
    for short in (False, True):
        out = _compose(c, short)
        if len(out) <= LIMIT:
            return out
    return out[: LIMIT - 1] + "…"


def _compose(c: Ctx, short: bool) -> str:
    v = c.view
    lines = _table_lines(c)
    if v["offer"]:
        lines.append(_offer_line(c, v["offer"]))
    lines.append("")
    lines += _player_lines(c)
    if v["me"]:
        lines += _hand_lines(c, v["me"], short)
    lines += _result_lines(c)
    if v["last"]:
        lines.append(f"Last: {c.fmt(v['last'])}")
    return "\n".join(lines)


def _table_lines(c: Ctx) -> list[str]:
    """The turn and step, the headline, the market, the lock, the pile and the last sale."""
    v, nm = c.view, c.names
    step = STEP_LABEL.get(v["step"], str(v["step"]))
    if v["final"] is not None and not v["over"]:
        step = "Final turns"
    lines = [f"**Kathai** · Turn {v['turn_no']} · {step}"]
    if v["headline"]:
        lines.append(c.fmt(v["headline"]))
    slots = sorted(v["market"] or [], key=lambda s: int(s["pos"]))
    mk = []
    for slot in slots:
        g = goods_name(slot["goods"])
        if slot["sellable"]:
            mk.append(f"{slot['pos']} **{g}** (+{slot['bonus']}, min {slot['min']})")
        else:
            mk.append(f"X {g} (unsellable)")
    lines.append("Market: " + " · ".join(mk))
    lock = v["lock"]
    if lock:
        pair = "–".join(goods_name(g) for g in lock["pair"] or [])
        lines.append(f"Lock: {pair} (bribe by {nm[int(lock['by'])]})")
    pile = int(v["pile"] or 0)
    lines.append(
        f"Pile {pile}" + (" (low)" if v["pile_low"] and pile else "") + f" · face down {v['discard_down']}"
    )
    sale = v["last_sale"]
    if sale:
        ids = " ".join(sorted(sale["cards"] or [], key=card_id_key))
        k, pts = int(sale["count"]), int(sale["points"])
        lines.append(
            f"Last sale: {nm[int(sale['seat'])]} sold {goods_name(sale['goods'])} at "
            f"{sale['pos']}: {k} card{'s' if k != 1 else ''} + {sale['bonus']} = "
            f"**{pts}** pt{'s' if pts != 1 else ''} ({ids})"
        )
    return lines


def _offer_line(c: Ctx, of: OfferView) -> str:
    """The open offer and where each addressee stands (skipped seats with the reason)."""
    nm = c.names
    by = int(of["by"])
    to = "all" if of["to"] == "all" else ", ".join(nm[s] for s in of["addressees"] or [])
    give = int(of["give_count"])
    line = (
        f"**Offer:** {nm[by]} → {to}: {give} card{'s' if give != 1 else ''} for "
        f"{_want(of['want'], int(of['k'] or 0))}"
    )
    ans = []
    for a in of["addressees"] or []:
        state = (
            "must answer"
            if a in (of["awaiting"] or [])
            else "declined"
            if a in (of["declined"] or [])
            else "accepted"
        )
        ans.append(f"{nm[a]} {state}")
    why = list(of["skip_reasons"] or [])
    for i, a in enumerate(of["skipped"] or []):
        ans.append(f"{nm[a]} skipped ({why[i]})" if i < len(why) else f"{nm[a]} skipped")
    if ans:
        line += " · " + ", ".join(ans)
    return line


def _player_lines(c: Ctx) -> list[str]:
    v, nm = c.view, c.names
    lines = []
    awaited = set(v["to_move"] or [])
    for p in v["players"] or []:
        s = int(p["seat"])
        mark = " ▶" if s in awaited else ""
        k = int(p["hand_size"])
        bits = [f"{p['score']} pts", f"{k} card{'s' if k != 1 else ''}"]
        bits.append(f"{p['profit']} profit")
        if p["final_left"] is not None and not v["over"]:
            bits.append(f"final turns left {p['final_left']}")
        lines.append(f"**{nm[s]}**{mark} — " + " · ".join(bits))
    return lines


def _hand_lines(c: Ctx, me: MeView, short: bool) -> list[str]:
    """The viewer's hand, its goods, its profit cards and lock card, the offer it is party to."""
    v, nm = c.view, c.names
    seat = int(me["seat"])
    hand = sorted(me["hand"] or [], key=lambda card: card_id_key(card["id"]))
    new = set(me["received"] or [])
    cards = [_card(card, short) + (" *new*" if card["id"] in new else "") for card in hand]
    lines = ["", f"**Your hand ({nm[seat]}, {len(hand)}/7):** " + (", ".join(cards) or "empty")]
    lines.append(_goods_line(c, me))
    extra = [f"Profit cards: {me['profit']}"]
    if me["lock_card"]:
        extra.append(f"your lock card {me['lock_card']}")
    lines.append(" · ".join(extra))
    of = v["offer"]
    if of and of["give"] and (me["offer_for_me"] or int(of["by"]) == seat):
        lines.append("Offered cards: " + ", ".join(_card(x, short) for x in of["give"]))
    if me["offer_for_me"] and of:
        elig = " ".join(sorted(me["eligible"] or [], key=card_id_key))
        lines.append(
            "**You must answer this offer** (accept with "
            f"{of['k']} card(s)" + (f" from {elig}" if elig else "") + " or decline)."
        )
    return lines


def _goods_line(c: Ctx, me: MeView) -> str:
    """Per goods in hand: what selling it now scores, or what it lacks."""
    v = c.view
    rows = []
    # after an offer (or a trade) selling is closed for the rest of the turn
    # (docs/rules/kathai.md#offer-commits-the-turn)
    free = v["options"]["free_asking"] and not v["traded"]
    mine = int(me["seat"]) == v["active"]
    closed = mine and v["step"] in ("trading", "reply") and not free
    can_sell = mine and not closed and v["step"] != "over"
    for r in sorted(me["sell_now"] or [], key=lambda r: int(r["pos"] or 9)):
        g = goods_name(r["goods"])
        items = int(r["items"] or 0)
        if not items:
            continue
        k = int(r["cards"] or 0)
        head = f"{g} {items} on {k} card{'s' if k != 1 else ''}"
        if r["can_sell"]:
            pts = int(r["points"] or 0)
            now = "sell now" if can_sell else "worth"
            rows.append(f"{head} → {now} **{pts}** pt{'s' if pts != 1 else ''}")
        elif int(r["pos"] or 5) >= 5:
            rows.append(f"{head} (unsellable)")
        else:
            rows.append(f"{head} (need {int(r['min'] or 0) - items} more)")
    head = "Goods (no selling this turn: you made an offer)" if closed else "Goods"
    return f"{head}: " + ("; ".join(rows) if rows else "none")


def _result_lines(c: Ctx) -> list[str]:
    v, nm, n = c.view, c.names, c.n
    out = v["outcome"]
    if not v["over"] or not out:
        return []
    order = sorted(range(n), key=lambda s: (out["ranks"][s], s))
    profit = [v["players"][s]["profit"] for s in range(n)]  # the outcome has no profit counts
    ranking = [
        f"{ordinal(out['ranks'][s])} {nm[s]} {out['scores'][s]} pts "
        f"({profit[s]} profit)" + (" 🏆" if s in (out["winners"] or []) else "")
        for s in order
    ]
    lines = ["", "**Result:** " + " · ".join(ranking)]
    if out["reason"] == "turn_limit":
        lines.append("The game ended at the turn limit.")
    return lines


def score_text(view: View, names: Sequence[str] | None = None) -> str:
    """The final score of a finished game's view, best first: points from cards sold and from
    bonuses, each sale, the profit cards (the tie-break), and why a seat scored nothing."""
    out = view["outcome"]
    if not view["over"] or not out:
        return ""
    c = Ctx(view, names)
    sheet = {int(r["seat"]): r for r in view["sheet"] or []}
    how = "the pile ran out" if out["reason"] == "pile" else "the turn limit was reached"
    lines = [f"Final scoring (the game ended because {how})"]
    for s in sorted(range(c.n), key=lambda s: (out["ranks"][s], s)):
        bd = (out["breakdown"] or [])[s] or {}
        sales = sheet[s]["sales"] if s in sheet else []
        zeros: list[tuple[str, str]] = []
        if not sales:
            zeros.append(("Cards sold", "no sales, so no points"))
        elif not bd.get("Bonus"):
            zeros.append(("Bonus", "every sale was at a position with no bonus"))
        lines += score_lines(
            out["ranks"][s],
            c.names[s],
            out["scores"][s],
            [("Cards sold", int(bd.get("Cards sold", 0))), ("Bonus", int(bd.get("Bonus", 0)))],
            zeros,
            note=_profit_note(int(bd.get("Profit cards", 0))),
        )
        for x in sales:
            k = int(x["count"])
            lines.append(
                f"   sold {k} {x['goods']} card{'s' if k != 1 else ''} at position {x['pos']} "
                f"(+{x['bonus']}) = {x['points']}"
            )
    return "\n".join(lines)


def _profit_note(k: int) -> str:
    return f"{k} profit card{'s' if k != 1 else ''}, the tie-break"
