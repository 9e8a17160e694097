"""What a person chooses between in Kathai, in the order worth reading (issue #22).

A turn's legal list runs to thousands of texts, nearly all offers and bribes, sorted as plain
strings, so a numbered list cut at its start never shows a sale, ``pass`` or ``swap``. Here:

* :func:`moves`: each sale worth making with the points it scores (every card of the goods,
  and, when some of them also show another goods, the sale that keeps those), best first; then
  ``pass``, each ``swap`` and ``buy``; in a reply, each answer with the cards it gives, then
  ``decline``.
* :func:`notes`: one line of syntax for offers, with an example naming a real player, and one
  summing up the bribes open now (which pairs, what paying means).
* :func:`read_names`: player names typed in place of seat codes (``offer bilal t5 for salt 1``).

Texts use ``{sN}`` tokens for players, as events do.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.errors import BadNotation
from engines.kathai.data import CARD_TEXT, GOODS, ITEMS, PRICES, SELLABLE, SHOWS, describe
from engines.kathai.legal import (
    awaited,
    bribe_actions,
    can_commit,
    check,
    goods_items,
    legal_small,
    opponents_text,
    refused_ask,
    reply_actions,
)
from engines.kathai.notation import ids_text, parse_move
from engines.kathai.state import ALL, MAIN, REPLY, State

_CARD_WORDS = frozenset(CARD_TEXT[1:])


def _points(k: int, bonus: int) -> str:
    return f"{k} card{'s' if k != 1 else ''} + {bonus} = {k + bonus} point{'s' if k + bonus != 1 else ''}"


def sales(s: State, seat: int) -> list[tuple[str, str, int]]:
    """``(action, label, points)`` of the sales worth making now, best first: per sellable goods,
    every card showing it, and (if different and still enough) only the cards showing nothing
    else, which keeps the others for their other goods."""
    if not can_commit(s):
        return []
    hand = s.hands[seat]
    out: list[tuple[str, str, int]] = []
    for pos in range(SELLABLE):
        g = s.market[pos]
        bonus, need = PRICES[pos]
        full = tuple(c for c in hand if ITEMS[c][g])
        if not full or goods_items(full, g) < need:
            continue
        where = f"{GOODS[g]} at position {pos + 1}"
        out.append(
            (f"sell {GOODS[g]} {ids_text(full)}", f"{_points(len(full), bonus)} ({where})", len(full) + bonus)
        )
        pure = tuple(c for c in full if len(SHOWS[c]) == 1)
        if pure and pure != full and goods_items(pure, g) >= need:
            kept = ", ".join(f"{CARD_TEXT[c]} ({describe(c)})" for c in full if c not in pure)
            label = f"{_points(len(pure), bonus)} ({where}), keeping {kept}"
            out.append((f"sell {GOODS[g]} {ids_text(pure)}", label, len(pure) + bonus))
    out.sort(key=lambda x: -x[2])
    return out


def moves(s: State, seat: int) -> list[tuple[str, str]]:
    """``(action, label)`` of the moves to number for ``seat`` (awaited), in reading order."""
    if seat not in awaited(s):
        return []
    if s.step == REPLY:
        answers = sorted(reply_actions(s, seat), key=lambda a: [int(t[1:]) for t in a.split()[1:]])
        out = [
            (a, "give " + _cards(a.split()[1:])) if a != "accept" else (a, "take the gift") for a in answers
        ]
        return out + [("decline", "refuse the offer")]
    small = set(legal_small(s, seat))
    out = [(a, lab) for a, lab, _ in sales(s, seat)]
    out.append(("pass", "end your turn"))
    out += [
        (f"swap {CARD_TEXT[c]}", f"put {CARD_TEXT[c]} ({describe(c)}) under the pile and draw the top card")
        for c in s.hands[seat]
        if f"swap {CARD_TEXT[c]}" in small
    ]
    if "buy" in small:
        out.append(("buy", "spend a profit card to draw a card"))
    return out


def _cards(ids: Sequence[str]) -> str:
    return ", ".join(f"{t} ({describe(int(t[1:]))})" for t in ids)


def _example_offer(s: State, seat: int) -> str | None:
    """A legal ask naming a real player: the card least useful to what the hand collects, for
    one card of the goods it collects (preferring a card that does not show it), and never an
    ask its addressees have just refused (``legal.refused_ask``)."""
    hand = s.hands[seat]
    if not hand:
        return None
    sellable = sorted(
        (s.market[p] for p in range(SELLABLE)), key=lambda g: (-goods_items(hand, g), s.market.index(g))
    )
    wants = [g for g in sellable if any(not ITEMS[c][g] for c in hand)] + sellable
    for want in wants:
        give = min(hand, key=lambda c: (ITEMS[c][want], sum(ITEMS[c]), c))
        tail = f"{CARD_TEXT[give]} for {GOODS[want]} 1"
        for x in (*((seat + i) % s.n for i in range(1, s.n)), ALL):
            code, shown = ("all", "all") if x == ALL else (f"s{x}", "{s%d}" % x)
            if check(s, seat, parse_move(f"offer {code} {tail}")) is None and not refused_ask(
                s, x, (give,), want, 1
            ):
                return f"offer {shown} {tail}"
    return None


def notes(s: State, seat: int) -> list[str]:
    """Lines on the moves :func:`moves` leaves out: offers (syntax, a real example, what the
    first one commits) and bribes (the pairs open now and what paying means)."""
    if seat not in awaited(s) or s.step == REPLY:
        return []
    out: list[str] = []
    left = s.opts.max_offers - s.offers_used
    example = _example_offer(s, seat) if left > 0 else None
    if example is not None:
        line = (
            "offer <player or all> <your cards> for <goods or any> <how many>: give those cards for "
            f"that many cards showing the goods, e.g. `{example}` ({left} offer{'s' if left != 1 else ''} "
            "left this turn)."
        )
        if s.final is not None and s.final[seat] == 1 and s.final_turn < s.turn_no:
            line += " This is your last turn: a trade now cannot be followed by a sale."
        elif s.step == MAIN and can_commit(s) and not s.opts.free_asking:
            line += (
                " Your first offer commits the turn: if nobody accepts, you can no longer sell, bribe or buy."
            )
        out.append(line)
    bribes = bribe_actions(s, seat) if can_commit(s) else []
    if bribes:
        pairs: list[str] = []
        for p in range(SELLABLE):
            a, b = GOODS[s.market[p]], GOODS[s.market[p + 1]]
            if any(x.startswith(f"bribe {min(a, b)} {max(a, b)} ") for x in bribes):
                pairs.append(f"{a} {b}")
        pay = "a hand card or `profit`" if s.profit[seat] else "a hand card"
        out.append(
            "bribe <goods> <goods> <card or profit>: two neighbouring goods swap places and that pair "
            f"is locked; you pay with {pay}, which is gone. Open pairs now: {', '.join(pairs)} "
            f"(e.g. `bribe {pairs[0]} {bribes[0].rsplit(' ', 1)[1]}`)."
        )
    return out


def read_names(s: State, seat: int, text: str, names: Sequence[str]) -> str:
    """``text`` with a player's name as an offer's target made its seat code. A name matches
    whole, without an ``AI`` prefix, or by the start of one of its words when that fits one
    player only; any case. Raises :class:`BadNotation` naming this game's players when the
    target is neither ``all``, a seat code nor a name."""
    words = text.split()
    if len(words) < 2 or words[0].lower() != "offer":
        return text
    low = [w.lower() for w in words]
    end = next((i for i in range(1, len(low)) if low[i] == "for" or low[i] in _CARD_WORDS), len(low))
    who = " ".join(low[1:end])
    if not who or who == "all" or (len(who) == 2 and who[0] == "s" and who[1].isdigit()):
        return text
    q = _seat_named(who, names[: s.n])
    if q is None:
        raise BadNotation(
            f"`{' '.join(words[1:end])[:40]}` is not a player here: offer to {opponents_text(s, seat)}."
        )
    return " ".join(["offer", f"s{q}", *words[end:]])


def _seat_named(who: str, names: Sequence[str]) -> int | None:
    forms = [" ".join(n.lower().split()) for n in names]
    for q, f in enumerate(forms):
        if who in (f, f.removeprefix("ai ")):
            return q
    starts = {q for q, f in enumerate(forms) if any(w.startswith(who) for w in f.split())}
    return starts.pop() if len(starts) == 1 else None
