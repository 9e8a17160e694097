"""A toy trading game that exercises every prompt shape through the bot: a private offer form
(to whom, which cards, what wanted, Send), several seats awaited at once (every addressee of an
offer to all), a multi-select with min = max = 2 (accepting gives exactly two cards), Decline,
a step with 60 legal actions (shown as labelled menus), and a string option.

Three seats; each seat in turn offers (or skips), the addressees reply (the first accept wins),
then the offerer marks one of 60 numbers. After one round the biggest hand wins.
"""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines import base
from engines import prompt as pr

CARDS = tuple(f"c{i}" for i in range(1, 13))
COLOUR = {c: ("red" if int(c[1:]) % 2 else "blue") for c in CARDS}
MARKS = tuple(f"mark {i}" for i in range(1, 61))


def _key(card: str) -> int:
    return int(card[1:])


@dataclass(frozen=True)
class ParleyState:
    hands: tuple[tuple[str, ...], ...]
    active: int
    step: str  # offer | reply | mark | over
    offer: tuple[Any, ...] = ()  # (to, give, want) while replies are due
    waiting: tuple[int, ...] = ()  # addressees yet to answer
    turns: int = 0
    mood: str = "calm"


class Parley(base.Engine):
    """See the module docstring."""

    name = "toyparley"
    title = "Toy Parley"
    min_players = 3
    max_players = 3
    hidden_hands = True
    summary = "Offer cards, reply, mark a number."
    options = (base.Option("mood", str, "calm", "How the table feels.", choices=("calm", "eager")),)

    def setup(self, seed: int, n_players: int, options: Any = None) -> ParleyState:
        opts = self.resolve_options(options)
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        hands = tuple(tuple(sorted(deck[4 * i : 4 * i + 4], key=_key)) for i in range(n_players))
        return ParleyState(hands, 0, "offer", mood=opts["mood"])

    def to_move(self, state: ParleyState) -> tuple[int, ...]:
        if state.step == "over":
            return ()
        return state.waiting if state.step == "reply" else (state.active,)

    def legal_actions(self, state: ParleyState, seat: int) -> list[str]:
        if seat not in self.to_move(state):
            return []
        if state.step == "offer":
            return ["skip"]  # offers are checked by is_legal (the form builds them)
        if state.step == "reply":
            hand = state.hands[seat]
            accepts = [f"accept {a} {b}" for i, a in enumerate(hand) for b in hand[i + 1 :]]
            return [*accepts, "decline"]
        return list(MARKS)

    def is_legal(self, state: ParleyState, seat: int, text: str) -> str | None:
        try:
            action = self.parse(text)
        except base.BadNotation as err:
            return err.reason
        if seat not in self.to_move(state):
            return base.not_your_turn_reason(self.to_move(state))
        if state.step == "offer" and action.startswith("offer "):
            _, give, _ = self._offer(action)
            if not set(give) <= set(state.hands[seat]):
                return "You can only offer cards from your hand."
            return None
        return None if action in self.legal_actions(state, seat) else "That is not a move of this step."

    def _offer(self, action: str) -> tuple[str, tuple[str, ...], str]:
        words = action.split()
        return words[1], tuple(words[2:-3]), words[-1]

    def apply(self, state: ParleyState, seat: int, action: str) -> tuple[ParleyState, list[base.Event]]:
        reason = self.is_legal(state, seat, action)
        if reason is not None:
            raise base.IllegalAction(reason)
        n = len(state.hands)
        if state.step == "offer":
            if action == "skip":
                return replace(state, step="mark"), [base.Event("skip", "{s%d} makes no offer" % seat)]
            to, give, want = self._offer(action)
            waiting = tuple(s for s in range(n) if s != seat) if to == "all" else (int(to[1:]),)
            who = "everyone" if to == "all" else "{s%s}" % to[1:]
            ev = base.Event(
                "offer",
                "{s%d} offers %d card(s) to %s for 2 %s" % (seat, len(give), who, want),
                {"seat": seat, "to": list(waiting)},
            )
            return replace(state, step="reply", offer=(to, give, want), waiting=waiting), [ev]
        if state.step == "reply":
            if action == "decline":
                left = tuple(s for s in state.waiting if s != seat)
                ev = base.Event("decline", "{s%d} declines" % seat)
                if left:
                    return replace(state, waiting=left), [ev]
                return replace(state, step="mark", waiting=(), offer=()), [
                    ev,
                    base.Event("nodeal", "Nobody trades"),
                ]
            got = tuple(action.split()[1:])
            _, give, _ = state.offer
            hands = list(state.hands)
            a = state.active
            hands[a] = tuple(sorted([c for c in hands[a] if c not in give] + list(got), key=_key))
            hands[seat] = tuple(sorted([c for c in hands[seat] if c not in got] + list(give), key=_key))
            public = base.Event("trade", "{s%d} and {s%d} trade %d card(s) for 2" % (a, seat, len(give)))
            private = base.Event(
                "trade_cards",
                "{s%d} gives %s; {s%d} gives %s" % (a, " ".join(give), seat, " ".join(got)),
                private_to=frozenset((a, seat)),
                twin=public,
            )
            return replace(state, hands=tuple(hands), step="mark", waiting=(), offer=()), [private]
        turns = state.turns + 1
        ev = base.Event("mark", "{s%d} marks %s" % (seat, action.split()[1]))
        if turns >= n:
            return replace(state, step="over", turns=turns), [ev]
        return replace(state, active=(state.active + 1) % n, step="offer", turns=turns), [ev]

    def prompt(self, state: ParleyState, seat: int) -> pr.Prompt:
        if state.step == "offer":
            hand = state.hands[seat]
            form = pr.Form(
                "offer",
                "Make an offer",
                (
                    pr.Pick(
                        "to",
                        "To whom?",
                        (
                            pr.Choice("Everyone", "all"),
                            *(
                                pr.Choice(f"Seat {s + 1}", f"s{s}")
                                for s in range(len(state.hands))
                                if s != seat
                            ),
                        ),
                    ),
                    pr.Pick(
                        "give",
                        "Cards to give",
                        tuple(pr.Choice(f"{c} ({COLOUR[c]})", c) for c in hand),
                        min=1,
                        max=2,
                    ),
                    pr.Pick("want", "Wanted", (pr.Choice("2 red", "red"), pr.Choice("2 blue", "blue"))),
                ),
                "offer {to} {give} for 2 {want}",
                submit="Send offer",
            )
            return pr.Prompt(
                seat, "Make an offer, or skip", (form, pr.Button("Skip", "skip", "secondary")), public=False
            )
        if state.step == "reply":
            hand = state.hands[seat]
            controls: list[pr.Control] = []
            if len(hand) >= 2:
                controls.append(
                    pr.Pick(
                        "accept",
                        "Accept: give exactly 2 cards",
                        tuple(pr.Choice(c, c) for c in hand),
                        min=2,
                        max=2,
                        template="accept {}",
                    )
                )
            controls.append(pr.Button("Decline", "decline", "danger"))
            return pr.Prompt(seat, "Reply to the offer", tuple(controls), public=False)
        return pr.from_legal(seat, "Mark a number", self.legal_actions(state, seat), public=True)

    def timeout_action(self, state: ParleyState, seat: int) -> str:
        return "decline" if state.step == "reply" else ("skip" if state.step == "offer" else "mark 1")

    def view(self, state: ParleyState, viewer: int | None) -> dict[str, Any]:
        over = state.step == "over"
        return {
            "game": self.name,
            "viewer": viewer,
            "n_players": len(state.hands),
            "to_move": list(self.to_move(state)),
            "over": over,
            "mood": state.mood,
            "headline": f"{state.step} ({state.mood})",
            "hands": [list(h) if (viewer == i or over) else len(h) for i, h in enumerate(state.hands)],
        }

    def outcome(self, state: ParleyState) -> base.Outcome | None:
        if state.step != "over":
            return None
        sizes = [len(h) for h in state.hands]
        ranks = tuple(1 + sum(1 for t in sizes if t > s) for s in sizes)
        return base.Outcome(
            ranks,
            tuple(sizes),
            ("cards",),
            tuple({"cards": s} for s in sizes),
            tuple(i for i, r in enumerate(ranks) if r == 1),
        )

    def parse(self, text: str) -> str:
        words = " ".join(str(text).lower().split()).split()
        if words in (["skip"], ["decline"]):
            return words[0]
        if len(words) == 2 and words[0] == "mark" and words[1] in {m.split()[1] for m in MARKS}:
            return " ".join(words)
        if (
            len(words) == 3
            and words[0] == "accept"
            and all(w in CARDS for w in words[1:])
            and words[1] != words[2]
        ):
            return " ".join(["accept", *sorted(words[1:], key=_key)])
        if (
            len(words) in (6, 7)
            and words[0] == "offer"
            and words[1] in ("all", "s0", "s1", "s2")
            and words[-3:-1] == ["for", "2"]
            and words[-1] in ("red", "blue")
        ):
            give = words[2:-3]
            if give and all(g in CARDS for g in give) and len(set(give)) == len(give):
                return " ".join(["offer", words[1], *sorted(give, key=_key), "for", "2", words[-1]])
        raise base.BadNotation(f"`{text}` is not a move of Toy Parley.")

    def choose(self, view: base.View, legal: Sequence[str]) -> str:
        return "decline" if "decline" in legal else legal[0]

    def secrets(self, state: ParleyState, viewer: int | None) -> list[str]:
        if state.step == "over":
            return []
        mine = set(state.hands[viewer]) if viewer is not None else set()
        return [f'"{c}"' for c in CARDS if c not in mine]


def install() -> Callable[[], None]:
    """Register :class:`Parley` and a renderer for it; returns the function that removes both."""
    from PIL import Image

    engine = base.register(Parley())
    mod = types.ModuleType("render.toyparley")
    mod.__dict__.update(
        board=lambda view, names=None: Image.new("RGB", (8, 8), (40, 90, 160)),
        hand=lambda view, names=None: Image.new("RGB", (8, 8), (160, 90, 40)),
        score_sheet=lambda view, names=None: Image.new("RGB", (8, 8), (90, 160, 40)),
        text=lambda view, names=None: f"hands {view['hands']}",
    )
    sys.modules["render.toyparley"] = mod

    def remove() -> None:
        base.unregister(engine.name)
        sys.modules.pop("render.toyparley", None)

    return remove
