"""Kathai prompts: what an awaited seat can do now, as Discord controls
(docs/rules/kathai.md#largest-offer-list: no list is shown whole).

Every prompt here is private (it lists the seat's hand), so it is drawn in the seat's DM and its
My hand answer, where no host button shares the message: it may use all five rows.

* ``main`` / ``trading`` — a :class:`Form` "Your move" of two menus and a Play button (3
  rows), template ``"{do} {cards}"``:

  1. *do*: the move's head, only heads that can lead to a legal move now:
     ``sell <goods>`` (sellable goods the hand can sell), ``bribe <a> <b>`` (unlocked
     neighbouring pairs), ``swap``, ``buy``, ``pass``;
  2. *cards* (multi-select, 0–7): the hand, with contents, plus ``profit`` when the seat may
     bribe with a profit card — the cards sold, paid or swapped;

  then, while offers may be made, a :class:`Dialog` "Make an offer…" of four labelled picks
  (template ``"offer {to} {give} {want} {count}"``): to whom (everyone or a player who can
  take some offer), the cards given, ``for <goods|any>`` (the goods the asked cards must
  show) and how many are asked, 1–7 (0, a gift, with ``allow_gifts``). So sell (goods, then
  cards), bribe (pair, then payment) and swap are one form, an offer is one dialog, and nothing
  needs typing; ``play`` validates the text and explains a mistake. When the only other moves
  are ``pass``/``buy``, they are buttons.
* ``reply`` — the offer's text, a :class:`Pick` of exactly k of the seat's eligible cards
  (template ``"accept {}"``) and a Decline button; a bare Accept button when k = 0; only
  Decline when the seat lacks k eligible cards.

Every prompt that lists hand cards is private (``public=False``).
"""

from __future__ import annotations

from engines.kathai.data import ANY, CARD_TEXT, GOODS, ITEMS, PRICES, SELLABLE, WANTS, describe
from engines.kathai.describe import offer_words
from engines.kathai.legal import (
    awaited,
    bribe_actions,
    can_commit,
    legal_small,
    offer_ks,
    sell_subsets,
    shows,
)
from engines.kathai.notation import seat_text
from engines.kathai.state import ALL, MAIN, OVER, REPLY, State
from engines.prompt import Button, Choice, Dialog, Form, Pick, Prompt

MAX_ASK = 7  # an ask never exceeds the hand limit


def _card_choice(c: int) -> Choice:
    return Choice(label=f"{CARD_TEXT[c]} · {describe(c)}", value=CARD_TEXT[c])


def heads(s: State, seat: int) -> list[tuple[str, str]]:
    """(value, label) of every move head that can lead to a legal move now."""
    out: list[tuple[str, str]] = []
    hand = s.hands[seat]
    small = legal_small(s, seat)
    pairs: list[str] = []
    if can_commit(s):
        for pos in range(SELLABLE):
            g = s.market[pos]
            if sell_subsets(hand, g, PRICES[pos][1]):
                bonus, need = PRICES[pos]
                most = sum(1 for c in hand if ITEMS[c][g]) + bonus
                out.append(
                    (
                        f"sell {GOODS[g]}",
                        f"Sell {GOODS[g]}: up to {most} points (position {pos + 1}: min {need}, +{bonus})",
                    )
                )
        for a in bribe_actions(s, seat):
            head = a.rsplit(" ", 1)[0]
            if head not in pairs:
                pairs.append(head)
    # the order of the terminal's menu (issue #22): sales, pass, swap, buy, offers, bribes
    out.append(("pass", "Pass (end the turn)"))
    if any(a.startswith("swap ") for a in small):
        out.append(("swap", "Swap a card with the pile"))
    if "buy" in small:
        out.append(("buy", "Buy a card with a profit card"))
    gifts = s.opts.allow_gifts
    if s.step != REPLY and s.offers_used < s.opts.max_offers:
        for t in (ALL, *range(s.n)):
            if t != seat and any(offer_ks(s, t, g) for g in range(0 if gifts else 1, len(hand) + 1)):
                who = "everyone" if t == ALL else f"seat s{t}"
                out.append((f"offer {seat_text(t)}", f"Offer cards to {who}"))
    out += [(h, "Bribe: swap " + " and ".join(h.split()[1:])) for h in pairs]
    return out


def hand_line(s: State, seat: int) -> str:
    """``"Hand: gold 1 · salt 7 (sell now: 6 pts) · …"`` in market order."""
    hand = s.hands[seat]
    parts = []
    for pos, g in enumerate(s.market):
        items = sum(ITEMS[c][g] for c in hand)
        if not items:
            continue
        part = f"{GOODS[g]} {items}"
        if pos < SELLABLE and items >= PRICES[pos][1]:
            cards = sum(1 for c in hand if ITEMS[c][g])
            part += f" (sell now: {cards + PRICES[pos][0]} pts)"
        parts.append(part)
    return "Hand: " + (" · ".join(parts) or "empty") + f" · profit cards {len(s.profit[seat])}."


def _main(s: State, seat: int) -> Prompt:
    hs = heads(s, seat)
    offers = [v for v, _ in hs if v.startswith("offer ")]
    moves = [(v, lab) for v, lab in hs if not v.startswith("offer ")]
    if s.step == MAIN:
        text = "Your turn: choose a move and its cards, then Play"
        text += "; or Make an offer…" if offers else "."
        if not s.opts.free_asking and offers:
            text += (
                " An offer commits the turn: even if nobody accepts, you can then no longer sell, "
                "bribe or buy."
            )
    else:
        text = f"Trading ({s.offers_used}/{s.opts.max_offers} offers made): offer again, swap or pass."
    text += " " + hand_line(s, seat)
    if s.offers_used < s.opts.max_offers:
        text += " Players: " + ", ".join("s%d {s%d}" % (q, q) for q in range(s.n) if q != seat) + "."
    controls: list[Button | Form | Dialog] = []
    if all(v in ("pass", "buy") for v, _ in moves):
        for v, lab in moves:
            controls.append(Button(label=lab[:80], action=v, style="secondary" if v == "pass" else "primary"))
    else:
        controls.append(_move_form(s, seat, moves))
    if offers:
        controls.append(offer_dialog(s, seat, offers))
    return Prompt(seat, text, tuple(controls), public=False)


def _move_form(s: State, seat: int, moves: list[tuple[str, str]]) -> Form:
    """The form of every move but offers: the move's head, then its cards, then Play."""
    cards = [_card_choice(c) for c in s.hands[seat]]
    if any(v.startswith("bribe") for v, _ in moves) and s.profit[seat]:
        cards.append(Choice(label="profit · your lowest profit card", value="profit"))
    picks = [Pick("do", "Move…", tuple(Choice(label=lab[:100], value=v) for v, lab in moves))]
    template = "{do}"
    if cards:
        picks.append(Pick("cards", "Cards…", tuple(cards), min=0, max=len(cards)))
        template += " {cards}"
    return Form("move", "Your move", tuple(picks), template, submit="Play")


def offer_dialog(s: State, seat: int, targets: list[str]) -> Dialog:
    """ "Make an offer…": to whom (``targets``: ``offer all`` / ``offer sN``, those that can take
    some offer), which cards of the hand are given, which goods the asked cards must show, how
    many are asked (0, a gift, with ``allow_gifts``). ``play`` checks the offer built."""
    to = tuple(
        Choice(label="Everyone" if t == "offer all" else "{%s}" % t.split()[1], value=t.split()[1])
        for t in targets
    )
    hand = tuple(_card_choice(c) for c in s.hands[seat])
    wants = tuple(
        Choice(label=f"cards showing {w}" if w != "any" else "cards of any goods", value=f"for {w}")
        for w in sorted(WANTS)
    )
    low = 0 if s.opts.allow_gifts else 1
    counts = tuple(
        Choice(label=f"{k} card{'s' if k != 1 else ''}" + (" (a gift)" if k == 0 else ""), value=str(k))
        for k in range(low, MAX_ASK + 1)
    )
    picks = [Pick("to", "To whom", to)]
    template = "offer {to}"
    if hand:
        picks.append(Pick("give", "The cards you give", hand, min=0, max=len(hand)))
        template += " {give}"
    picks += [Pick("want", "The goods you ask for", wants), Pick("count", "How many cards you ask", counts)]
    return Dialog("offer", "Make an offer…", "Make an offer", tuple(picks), template + " {want} {count}")


def _reply(s: State, seat: int) -> Prompt:
    o = s.offer
    assert o is not None
    text = (
        offer_words(o)
        + ". Offered: "
        + (", ".join(f"{CARD_TEXT[c]} ({describe(c)})" for c in o.give) or "nothing")
        + "."
    )
    decline = Button(label="Decline", action="decline", style="danger")
    if o.k == 0:
        return Prompt(
            seat, text, (Button(label="Accept", action="accept", style="success"), decline), public=False
        )
    elig = [c for c in s.hands[seat] if shows(c, o.want)]
    if len(elig) < o.k:
        want = "any goods" if o.want == ANY else WANTS[o.want]
        return Prompt(
            seat, text + f" You hold fewer than {o.k} cards showing {want}.", (decline,), public=False
        )
    pick = Pick(
        "accept",
        f"Give {o.k} card{'s' if o.k > 1 else ''} and accept…",
        tuple(_card_choice(c) for c in elig),
        min=o.k,
        max=o.k,
        template="accept {}",
    )
    return Prompt(seat, text, (pick, decline), public=False)


def build_prompt(s: State, seat: int) -> Prompt:
    """The prompt of ``seat``: controls if it is awaited, else only a line saying who is."""
    if s.step == OVER:
        return Prompt(seat, "The game is over.", ())
    if seat not in awaited(s):
        who = ", ".join("{s%d}" % x for x in awaited(s))
        return Prompt(seat, f"Waiting for {who}.", ())
    if s.step == REPLY:
        return _reply(s, seat)
    return _main(s, seat)
