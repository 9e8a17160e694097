"""What a Kathai host asks besides the controls: the turn clock's move, warnings before an
irreversible move, answers it may give at once, button labels and the numbered menu."""

from __future__ import annotations

from engines.kathai.data import CARD_TEXT, describe
from engines.kathai.describe import want_words
from engines.kathai.legal import awaited, legal, reply_actions
from engines.kathai.notation import PROFIT, parse_move
from engines.kathai.prompts import menu as mn
from engines.kathai.state import MAIN, State
from engines.outcome import Menu


def timeout_action(s: State, seat: int) -> str:
    """``decline`` for an addressee, ``pass`` for the active seat (never a trade)."""
    if seat not in awaited(s):
        return "pass"
    return "decline" if s.offer is not None else "pass"


def irreversible(s: State, seat: int, action: str) -> str | None:
    """A bribe: the two goods swap places and stay locked, and its payment is gone. The
    first offer of a turn (without ``free_asking``): it commits the turn to trading."""
    if action.startswith("bribe "):
        return (
            "A bribe swaps the two goods and locks them, and the card you pay with is gone "
            "(once the next player has drawn, it cannot be taken back)."
        )
    if action.startswith("offer ") and s.step == MAIN and not s.opts.free_asking:
        return commit_warning(s, seat)
    return None


def private_action(action: str) -> bool:
    """Whether ``action``'s text names a card a spectator never sees
    (docs/rules/kathai.md#hidden-information): the card a swap puts under the pile, a bribe
    paid with a hand card (it lies face down as the lock, docs/rules/kathai.md#face-down-cards),
    the cards of an offer (only its parties see them, docs/rules/kathai.md#skipped-seats) and
    of an accept (a trade shows others only how many cards moved). Not a sale: every sold card
    is public (docs/rules/kathai.md#sold-cards-public); nor a bribe paid with "profit", an
    offer giving nothing or an accept of an ask for nothing, which name no card."""
    m = parse_move(action)
    if m.verb == "swap":
        return True
    if m.verb == "bribe":
        return m.pay != PROFIT
    return m.verb in ("offer", "accept") and bool(m.ids)


def commit_warning(s: State, seat: int) -> str:
    """What a first offer gives up (docs/rules/kathai.md#offer-commits-the-turn): selling,
    bribing and buying for the rest of the turn, whatever the answer; names the best sale it
    rules out, if any."""
    text = (
        "An offer commits your turn to trading: even if nobody accepts, you can no longer "
        "sell, bribe or buy this turn (only offer again, swap or pass)."
    )
    best = mn.sales(s, seat)
    if best:
        action, _, points = best[0]
        text += f" You could `{action}` now for {points} point{'s' if points != 1 else ''}."
    return text


def auto_answer(s: State, seat: int) -> tuple[str, str] | None:
    """``decline`` when it is the seat's only answer to an offer (no k cards showing the
    goods asked)."""
    o = s.offer
    if o is None or seat not in awaited(s) or reply_actions(s, seat):
        return None
    few = "no card" if o.k == 1 else f"fewer than {o.k} cards"
    return "decline", f"{{s{seat}}} holds {few} showing {want_words(o.want)}: nothing to accept with."


def action_label(action: str) -> str:
    """A short label: the action text with card contents for single cards."""
    m = parse_move(action)
    if m.verb == "accept" and m.ids:
        return (f"{action} — give " + ", ".join(f"{CARD_TEXT[c]} ({describe(c)})" for c in m.ids))[:80]
    if m.verb == "swap" or (m.verb == "bribe" and m.pay != PROFIT):
        card = m.ids[0] if m.verb == "swap" else m.pay
        return f"{action} ({describe(card)})"[:80]
    return action[:80]


def menu(s: State, seat: int) -> Menu | None:
    """Sales with their points, pass, swaps, buy (or a reply's answers), then a line of syntax
    each for offers and bribes."""
    if seat not in awaited(s):
        return None
    return Menu(tuple(mn.moves(s, seat)), tuple(mn.notes(s, seat)), len(legal(s, seat)))
