"""The Pralaya view as plain text (Discord markdown), for the terminal and DM text.

Same information as the images, at most :data:`LIMIT` characters: when the full text is longer
it is rebuilt with short card names and fewer words, and only then cut.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.pralaya.view import MeView, PralayaView
from render.common import ordinal, score_lines
from render.pralaya.art.cards import info, set_progress, sort_key
from render.pralaya.hand import action_label
from render.pralaya.layout import fmt, names_for, price_text

LIMIT = 1900


def _card(code: str, short: bool) -> str:
    card = info(code)
    if card is None:
        return code
    return card.short if short else card.name


def _counts(hand: dict[str, int], short: bool, progress: bool = False) -> str:
    items = []
    for code in sorted((c for c, k in hand.items() if k), key=sort_key):
        s = f"{_card(code, short)} ×{hand[code]}"
        prog = set_progress(code, hand[code]) if progress else None
        items.append(f"{s} ({prog})" if prog else s)
    return ", ".join(items) if items else "nothing"


def _island(view: PralayaView, short: bool) -> list[str]:
    cols = int(view["cols"])
    cells = view["island"]
    out = []
    for r in range(0, len(cells), cols):
        parts = []
        for c in cells[r : r + cols]:
            code = c["code"]
            if code is None:
                s = f"{c['cell']} taken" if c["taken"] else f"{c['cell']} empty"
            elif code == "oce":
                s = f"{c['cell']} ocean"
            else:
                name = _card(code, short) if short else (c["name"] or _card(code, False))
                s = f"{c['cell']} {name} {c.get('cost')}"
            if c["new"]:
                s += " (new)"
            parts.append(s)
        out.append(" · ".join(parts))
    return out


def _players(view: PralayaView, nm: Sequence[str], short: bool) -> list[str]:
    out = []
    over = bool(view["over"])
    for p in view["players"]:
        s = int(p["seat"])
        mark = "▶ " if (not over and s == view["active"]) else "• "
        bits = [f"{mark}**{nm[s]}**" + (" (first)" if s == view["first"] else "")]
        hs = int(p["hand_size"])
        bits.append(f"{hs} card" + ("" if hs == 1 else "s"))
        if p["veda"]:
            bits.append("Veda")
        if p["dhoni"]:
            bits.append(f"Dhoni {price_text(p.get('dhoni_price'))}")
        if p["escaped"]:
            bits.append("escaped")
        line = " · ".join(bits)
        me = view["me"]
        mine = me is not None and me["seat"] == s  # own hand: listed under "Your hand"
        hand = p["hand"]
        if hand is not None and any(hand.values()) and not mine:
            line += f"\n   {_counts(hand, short)}"
        out.append(line)
    return out


def _buy_line(view: PralayaView, me: MeView, mine: Mapping[str, Any]) -> str:
    """The seat's coins and what they buy (or that it escaped)."""
    cur = int(me["currency"])
    veda = view["veda"] or {}
    dhoni = view["dhoni"] or []
    buy = [f"Coins: {cur} currency (gold 6, silver 3, copper 1)"]
    if view["over"]:
        buy.append("Veda owned" if mine["veda"] else "no Veda")
    elif mine["escaped"]:
        buy.append("escaped, coins only score")
    else:
        buy.append("Veda owned" if mine["veda"] else f"Veda {veda.get('price')}")
        if dhoni:
            buy.append(f"top Dhoni {price_text(dhoni[0].get('price'))}")
    return " · ".join(buy)


def _score_line(view: PralayaView, me: MeView, mine: Mapping[str, Any]) -> str:
    """The seat's score: final, "if escaped now", or how many coins it lacks to escape."""
    seat = me["seat"]
    prov = me["provisional"]
    res = view["outcome"]
    score = res["scores"][seat] if res is not None and seat < len(res["scores"]) else None
    if view["over"] and res is not None and score is not None:  # the final score, from the outcome
        prov = {
            "categories": res["categories"],
            "breakdown": res["breakdown"][seat] or {},
            "total": score,
            "fossil_known": True,
            "dhoni": None,
            "paid": 0,
            "short": 0,
        }
    known = bool(prov["fossil_known"])
    bd = prov["breakdown"] or {}
    parts = []
    for cat in prov["categories"] or []:
        if cat == "Fossils" and not known:
            parts.append("Fossils ?")
        elif bd.get(cat):
            parts.append(f"{cat} {bd[cat]}")
    if view["over"]:  # the result block above has the final scores
        title = "Final score" if mine["escaped"] else "Would have scored (did not escape)"
    elif mine["escaped"]:
        title = "Score now"
    elif prov["short"]:  # the coins do not pay the top Dhoni yet
        need = f"{prov.get('dhoni')}: {prov['short']} more in coins needed"
        title = f"Cannot escape yet ({need}) · score so far"
    elif prov["dhoni"]:
        paid = int(prov["paid"] or 0)
        title = f"If escaped now (after paying {paid} for {prov['dhoni']})" if paid else "If escaped now"
    else:
        title = "If escaped now"
    return f"{title}: **{prov.get('total', 0)}**" + (f" ({', '.join(parts)})" if parts else "")


def _me(view: PralayaView, nm: Sequence[str], short: bool, moves: bool = True) -> list[str]:
    me = view["me"]
    if not me:
        return []
    seat = int(me["seat"])
    mine: Mapping[str, Any] = next((p for p in view["players"] if p["seat"] == seat), {})
    hand = me["hand"] or {}
    out = [f"**Your hand** ({sum(hand.values())}): {_counts(hand, short, progress=True)}"]
    out.append(_buy_line(view, me, mine))
    out.append(_score_line(view, me, mine))
    legal = list(me["legal"] or [])
    if legal and moves:
        if short:
            out.append("Moves: " + ", ".join(f"`{a}`" for a in legal))
        else:
            out.append("Moves: " + " · ".join(_move(a, view) for a in legal))
    elif not legal and not view["over"]:
        active = view["active"]
        out.append(f"Waiting for {nm[active] if active is not None else '?'}.")
    return out


def _move(action: str, view: PralayaView) -> str:
    """```take b4` (Gold Coin, 3 V)``: the action in code, what it means in brackets."""
    label = action_label(action, view)
    extra = label[len(action) :].lstrip(" ·")
    return f"`{action}`" + (f" ({extra.replace(' (', ', ').rstrip(')')})" if extra else "")


def _result(view: PralayaView, nm: Sequence[str]) -> list[str]:
    out_d = view["outcome"]
    if not out_d:
        return []
    scores = out_d.get("scores") or []
    ranks = out_d.get("ranks") or []
    players = {int(p["seat"]): p for p in view["players"]}
    lines = ["**Result**"]
    for s in sorted(range(len(scores)), key=lambda s: (ranks[s], s)):
        if scores[s] is None:
            lines.append(f"{ordinal(ranks[s])} {nm[s]}: did not escape")
        else:
            via = price_text(players[s].get("dhoni_price") if s in players else None)
            win = " 🏆" if s in (out_d.get("winners") or []) else ""
            lines.append(f"{ordinal(ranks[s])} **{nm[s]}**: {scores[s]} pts (Dhoni {via}){win}")
    return lines


def _build(view: PralayaView, nm: Sequence[str], short: bool, moves: bool = True) -> str:
    lines = [f"**Pralaya** · {fmt(str(view.get('headline', '')), nm)}"]
    lines += _result(view, nm)
    lines.append("**Island** (cell, relic, Vitality cost)")
    lines += _island(view, short)
    veda = view["veda"] or {}
    discard = view["discard"] or []
    last = f" (last: {_card(discard[-1].rstrip('0123456789'), short)})" if discard else ""
    lines.append(
        f"Deck {view.get('deck', 0)} · relics unseen {view.get('unrevealed', 0)} · "
        f"discarded {len(discard)}{last}"
    )
    dh = ", ".join(price_text(x.get("price")) for x in view["dhoni"] or []) or "none"
    lines.append(f"Veda {veda.get('left', 0)} left, price {veda.get('price')} · Dhoni (top first) {dh}")
    lines.append("**Players**")
    lines += _players(view, nm, short)
    lines += _me(view, nm, short, moves)
    return "\n".join(lines)


def text(view: PralayaView, names: Sequence[str] | None = None, *, moves: bool = True) -> str:
    """The view as Discord-markdown text of at most 1900 characters, names substituted; without
    the viewer's legal moves when ``moves`` is false (the terminal lists them itself)."""
    nm = names_for(view, names)
    s = _build(view, nm, short=False, moves=moves)
    if len(s) > LIMIT:
        s = _build(view, nm, short=True, moves=moves)
    if len(s) > LIMIT:
        s = s[: LIMIT - 1] + "…"
    return s


def _fossil_reason(view: PralayaView, seat: int, nm: Sequence[str]) -> str | None:
    """Why ``seat``'s Fossils scored nothing, or None if it holds none."""
    players = {int(p["seat"]): p for p in view["players"]}
    fossils = {s: int((p["hand"] or {}).get("fos", 0)) for s, p in players.items()}
    mine = fossils.get(seat, 0)
    if not mine:
        return None
    all_players = bool((view["options"] or {}).get("fossil_all_players"))
    rivals = [s for s in players if s != seat and (all_players or players[s].get("escaped"))]
    best = max((fossils[s] for s in rivals), default=0)
    if best > mine:
        top = next(s for s in rivals if fossils[s] == best)
        gone = "" if players[top].get("escaped") else " (did not escape, but counts)"
        return f"{nm[top]} has more ({best} to {mine}){gone}; only the most Fossils score"
    tied = [nm[s] for s in rivals if fossils[s] == mine]
    each = f"{mine} each"
    return f"tied with {', '.join(tied)} ({each}), a tie scores nothing"


def _zeros(view: PralayaView, seat: int, bd: Mapping[str, int], nm: Sequence[str]) -> list[tuple[str, str]]:
    """The categories ``seat`` holds relics for but that scored 0, each with its reason."""
    p: Mapping[str, Any] = next((x for x in view["players"] if int(x["seat"]) == seat), {})
    hand = p["hand"] or {}
    out: list[tuple[str, str]] = []

    def held(code: str) -> int:
        return int(hand.get(code, 0))

    if not bd.get("Demon Statues") and held("dem") and held("bra"):
        out.append(("Demon Statues", "the Brahmin cancels them"))
    if not bd.get("Manuscripts") and held("man"):
        out.append(("Manuscripts", "one Manuscript; they score in pairs"))
    if not bd.get("Urns") and held("urn"):
        out.append(("Urns", f"{held('urn')} Urn{'s' if held('urn') > 1 else ''}; they score in sets of 3"))
    if not bd.get("Brahmin") and held("bra") and not p["veda"]:
        out.append(("Brahmin", "it scores only with a Veda"))
    if not bd.get("Fossils"):
        why = _fossil_reason(view, seat, nm)
        if why:
            out.append(("Fossils", why))
    return out


def score_text(view: PralayaView, names: Sequence[str] | None = None) -> str:
    """The final score of a finished game's view, by category, best first, with the reason for
    each category a seat holds relics for that scored nothing; "" while the game runs."""
    out_d = view["outcome"]
    if not out_d:
        return ""
    nm = names_for(view, names)
    scores, ranks = out_d.get("scores") or [], out_d.get("ranks") or []
    cats = out_d.get("categories") or []
    lines = ["Final scoring"]
    for s in sorted(range(len(scores)), key=lambda s: (ranks[s], s)):
        bd = (out_d.get("breakdown") or [])[s]
        if bd is None:
            lines += score_lines(ranks[s], nm[s], None, (), note="did not escape, so scores nothing")
            continue
        lines += score_lines(
            ranks[s], nm[s], scores[s], [(c, int(bd.get(c, 0))) for c in cats], _zeros(view, s, bd, nm)
        )
    return "\n".join(lines)
