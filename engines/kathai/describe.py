"""Kathai texts for people: the rules summary, offers and skips in words, the headline.

Seat numbers in texts are ``{sN}`` tokens (hosts put names in).
"""

from __future__ import annotations

from engines.kathai.data import ANY, CARD_TEXT, HAND_LIMIT, WANTS, describe
from engines.kathai.scoring import outcome
from engines.kathai.state import ALL, OVER, REPLY, TRADING, Offer, State

SUMMARY = (
    "Kathai (Cathay, Michael Andersch), 3–5 players. Collect goods cards and sell them into a "
    "price row of five positions (+4 for 7 items, +2 for 5, +1 for 3, +0 for 1, unsellable). "
    "Each turn you draw (up to 7 cards), then: trade with other players (`offer … for …`, "
    "then a swap with the pile or pass), sell one goods (cards + bonus; the goods drops to "
    "unsellable, keep one card as a profit card), bribe two neighbouring goods into each "
    "other's places (the pair stays locked), buy a card with a profit card, or pass.\n"
    "When the pile is empty everyone has two more turns (one for whoever bought the last "
    "card). Most points wins; ties go to the most profit cards.\n"
    "Narrowings of the rulebook: a trade is an ask for k cards showing one goods (no "
    "free-form counter-offers), at most `max_offers` asks a turn; the profit card kept is the "
    "lowest sold id (its content never matters); the first player is random unless "
    "`first_player=seat0`."
)
"""The rules in a few lines, for /rules and the terminal."""

_S = tuple("{s%d}" % q for q in range(5))
CARD_WORDS = tuple(f"{CARD_TEXT[c]} ({describe(c)})" for c in range(len(CARD_TEXT)))
"""``"t40 (2 salt + 1 gold)"`` per card (index 0 unused)."""


def S(seat: int) -> str:
    """The ``{sN}`` token of a seat."""
    return _S[seat]


def cards_words(cards: tuple[int, ...]) -> str:
    """``"t3 (1 salt), t40 (2 salt + 1 gold)"``."""
    return ", ".join([CARD_WORDS[c] for c in cards])


def plural(k: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def want_words(want: int) -> str:
    """``"salt"`` or ``"any goods"``."""
    return "any goods" if want == ANY else WANTS[want]


def offer_words(o: Offer) -> str:
    """``"{s0} → all: 2 cards for 1 salt"`` (public: card count only)."""
    ask = f"{o.k} card{'s' if o.k != 1 else ''} showing {want_words(o.want)}" if o.k else "nothing"
    to = "all" if o.target == ALL else S(o.target)
    return f"{S(o.by)} → {to}: {plural(len(o.give), 'card')} for {ask}"


def skip_reason(n_x: int, give: int, k: int) -> str:
    """Why a seat holding ``n_x`` cards cannot answer an ask of ``give`` cards for ``k``."""
    if n_x < k:
        return f"{plural(n_x, 'card')} in hand, fewer than the {k} asked"
    return f"{n_x} cards in hand, {n_x - k + give} after the trade, over the limit of {HAND_LIMIT}"


def headline(state: State) -> str:
    """One line: turn, who acts and what step (``{sN}`` tokens)."""
    s = state
    if s.step == OVER:
        out = outcome(s)
        assert out is not None
        who = " and ".join("{s%d}" % w for w in out.winners)
        return f"Game over · {who} {'win' if len(out.winners) > 1 else 'wins'} with {max(s.scores)}"
    head = f"Turn {s.turn_no} · "
    if s.final is not None:
        head += "final turns · "
    if s.step == REPLY:
        o = s.offer
        assert o is not None
        wait = ", ".join("{s%d}" % x for x in o.addressees if x not in o.declined)
        return head + offer_words(o) + f" · waiting for {wait}"
    step = "trading" if s.step == TRADING else "to play"
    return head + "{s%d} %s · pile %d" % (s.active, step, len(s.pile))
