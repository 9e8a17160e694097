"""The Kathai engine (spec /shared/specs/kathai.md): the protocol methods.

The state is in ``state.py``, the state machine in ``flow.py``, legality and the legal lists in
``legal.py``, the grammar in ``notation.py``, autocomplete in ``complete.py``, the view in
``view.py``, scoring in ``scoring.py``, prompts in ``prompts.py`` and the AI in ``ai.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engines.base import (
    Action,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    Menu,
    NotYourTurn,
    Option,
    Outcome,
    RuleError,
    View,
    not_your_turn_reason,
)
from engines.kathai import complete as cmp
from engines.kathai import flow, scoring
from engines.kathai import legal as lg
from engines.kathai import view as kview
from engines.kathai.data import ANY as ANY_WANT
from engines.kathai.data import (
    CARD_TEXT,
    DEAL,
    GOODS,
    HAND_LIMIT,
    MAX_OFFERS,
    NCARDS,
    NGOODS,
    PRICES,
    SELLABLE,
    TOTAL_ITEMS,
    TURN_LIMIT,
    WANTS,
)
from engines.kathai.notation import PROFIT, Move, format_move, parse, parse_move
from engines.kathai.state import ALL, MAIN, OVER, Opts, State

if TYPE_CHECKING:
    from engines.prompt import Prompt

MAX_OFFERS_CAP = 12
TURN_LIMIT_CAP = 1000

OPTIONS = (
    Option(
        "first_player",
        str,
        "random",
        "Who starts: random, or seat0 (seat the youngest first).",
        choices=("random", "seat0"),
    ),
    Option(
        "free_asking",
        bool,
        False,
        "A refused ask does not commit the turn: sell, bribe and buy stay open until a trade.",
    ),
    Option("allow_gifts", bool, False, "Trades may be one-sided (give nothing, or ask `any 0`)."),
    Option(
        "bribe_lock",
        str,
        "pair",
        "The lock forbids switching back the pair (pair) or moving either locked goods (goods).",
        choices=("pair", "goods"),
    ),
    Option("max_offers", int, MAX_OFFERS, "Offers a player may make per turn.", min=1, max=MAX_OFFERS_CAP),
    Option(
        "turn_limit",
        int,
        TURN_LIMIT,
        "The game ends after this many turns (stalled games).",
        min=1,
        max=TURN_LIMIT_CAP,
    ),
)


class KathaiEngine(Engine):
    """Kathai (Cathay) for 3–5 players."""

    name = "kathai"
    title = "Kathai"
    min_players = 3
    max_players = 5
    options = OPTIONS
    hidden_hands = True
    # Random play almost always picks an offer (thousands of texts against a few others), so
    # random games stall until the turn limit; short limits keep the shared property suite at
    # about a minute for Kathai. Full games are played by the AI tests.
    property_options = (
        {"max_offers": 2, "turn_limit": 6},
        {
            "max_offers": 1,
            "turn_limit": 8,
            "free_asking": True,
            "allow_gifts": True,
            "bribe_lock": "goods",
            "first_player": "seat0",
        },
    )
    demo_options = ({},)
    # The search (engines.search): playouts of 20 actions (about one round) then ``evaluate``
    # (20 beat 40 against easy). Normal plays 40 iterations, not 80: it still beats easy (arena,
    # 40 games each, edge in wins: 3p +0.175, 4p +0.175 at 40; +0.188, +0.225 at 80), and hard,
    # at eight times its budget, beats it clearly (40 games: 3p +0.388, 95% CI +0.284 … +0.491;
    # 4p +0.350, +0.244 … +0.456). CPU of one core a move (time.process_time, 3p and 4p):
    # normal median 23-25 ms, max 37; hard median 191-199 ms, max 256. Wall ms a move in those
    # arenas on a loaded machine (load 5-10 on 2 cores): normal median 99-125, p99 196-292;
    # hard median 822-915, p99 1525-1981.
    search_iterations = {"normal": 40, "hard": 320}
    playout_depth = 20
    # 3-5 players: 4, the middle of the box's range, is assumed the commonest table (no table
    # statistics exist yet); the arena then plays 3 (the minimum) and 4.
    common_players = 4
    summary = (
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

    # ------------------------------------------------------------------ set-up
    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game as spec §3 (same RNG calls in the same order). Raises :class:`BadOption`."""
        self.check_players(n_players)
        o = self.resolve_options(options)
        opts = Opts.of(o)
        rng = random.Random(seed)
        pile = [f"t{i}" for i in range(1, NCARDS + 1)]
        rng.shuffle(pile)
        cards = [int(t[1:]) for t in pile]
        n = n_players
        hands = tuple(tuple(sorted(cards[DEAL * s : DEAL * s + DEAL])) for s in range(n))
        market = list(GOODS)
        rng.shuffle(market)
        first = rng.randrange(n) if opts.first_player == "random" else 0
        s = State(
            n=n,
            opts=opts,
            pile=tuple(cards[DEAL * n :]),
            hands=hands,
            profit=((),) * n,
            discard_up=(),
            discard_down=(),
            market=tuple(GOODS.index(g) for g in market),
            lock=None,
            scores=(0,) * n,
            sales=(),
            spent=(0,) * n,
            active=first,
            step=0,
            turn_no=0,
            offers_used=0,
            traded=False,
            offer=None,
            final=None,
            final_turn=0,
            reason="",
            last="",
            fresh=((),) * n,
        )
        return flow.start_turn(s, first, [])

    def events_on_setup(self, state: State) -> list[Event]:
        """The market, who starts, and each seat's private draw of the first turn."""
        market = " ".join(GOODS[g] for g in state.market)
        ev = [
            Event(
                "setup",
                f"Kathai for {state.n}. Market (1→5): {market}. {{s{state.active}}} starts.",
                {"seat": state.active, "market": [GOODS[g] for g in state.market]},
            )
        ]
        for s in range(state.n):
            cards = " ".join(CARD_TEXT[c] for c in state.hands[s])
            ev.append(
                Event(
                    "hand",
                    f"{{s{s}}} holds {cards}.",
                    {"seat": s},
                    private_to=s,
                    twin=Event("hand", f"{{s{s}}} holds {len(state.hands[s])} cards.", {"seat": s}),
                )
            )
        return ev

    # ------------------------------------------------------------------ the protocol
    def to_move(self, state: State) -> tuple[int, ...]:
        """The active seat, or every addressee of the open offer not yet answered."""
        return lg.awaited(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal text of ``seat``, plain-string sorted; [] if not awaited."""
        return lg.legal(state, seat)

    def parse(self, text: str) -> Action:
        """The canonical text of ``text``; raises :class:`BadNotation`."""
        return parse(text)

    def _reason(self, state: State, seat: int, m: Move) -> RuleError | None:
        if state.step == OVER:
            return GameOver()
        awaited = lg.awaited(state)
        if seat not in awaited:
            return NotYourTurn(not_your_turn_reason(awaited))
        why = lg.check(state, seat, m)
        return IllegalAction(why) if why is not None else None

    def is_legal(self, state: State, seat: int, text: str) -> str | None:
        """None if ``text`` is legal for ``seat`` now, else the reason (no enumeration)."""
        try:
            m = parse_move(text)
        except RuleError as bad:
            return bad.reason
        err = self._reason(state, seat, m)
        return err.reason if err is not None else None

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Apply ``action`` and the automatic steps after it (turn end, next draw). Raises
        :class:`BadNotation`, :class:`GameOver`, :class:`NotYourTurn` or :class:`IllegalAction`."""
        m = parse_move(action)
        err = self._reason(state, seat, m)
        if err is not None:
            raise err
        ev: list[Event] = []
        return _do(state, seat, m, ev), ev

    def step(self, state: State, seat: int, action: Action) -> State:
        """``apply`` for the search: the same new state, without checking the action (the search
        plays only legal candidates) and without returning the events."""
        return _do(state, seat, parse_move(action), [])

    def view(self, state: State, viewer: int | None) -> View:
        """What ``viewer`` may see (schema ``view.KathaiView``)."""
        return dict(kview.build(state, viewer))

    def outcome(self, state: State) -> Outcome | None:
        """None while running; else ranks on (score, profit cards)."""
        return scoring.outcome(state)

    # ------------------------------------------------------------------ host helpers
    def complete(self, state: State, seat: int, prefix: str, limit: int = 25) -> list[tuple[str, str]]:
        """The distinct next tokens of legal texts after ``prefix`` (≤ ``limit``)."""
        return cmp.complete(state, seat, prefix, limit)

    def timeout_action(self, state: State, seat: int) -> Action:
        """``decline`` for an addressee, ``pass`` for the active seat (never a trade)."""
        if seat not in lg.awaited(state):
            return "pass"
        return "decline" if state.offer is not None else "pass"

    def prompt(self, state: State, seat: int) -> Prompt:
        """The seat's controls (see ``prompts.py``)."""
        from engines.kathai.prompts import build_prompt

        return build_prompt(state, seat)

    def public_actions(self, state: State, seat: int) -> bool:
        """False: every step's list names the seat's own cards (swap, sell, accept)."""
        return False

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state consistent with a seat's own view (``determinize.py``)."""
        from engines.kathai.determinize import determinize

        return determinize(view, rng)

    def search_actions(self, state: State, seat: int) -> Sequence[Action]:
        """A handful of sensible legal moves (``playout.py``), not the thousands of offers."""
        from engines.kathai.playout import search_actions

        return search_actions(state, seat)

    def playout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The playout policy: the heuristic on the full state, a little randomised."""
        from engines.kathai.playout import playout_action

        return playout_action(state, seat, rng)

    def evaluate(self, state: State) -> Sequence[float]:
        """Each seat's expected reward from its estimated final score (``playout.py``)."""
        from engines.kathai.playout import evaluate

        return evaluate(state)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The heuristic AI's pick (``ai.py``), from the seat's own view."""
        from engines.kathai.ai import choose

        return choose(view, legal)

    def irreversible(self, state: State, seat: int, action: Action) -> str | None:
        """A bribe: the two goods swap places and stay locked, and its payment is gone. The
        first offer of a turn (without ``free_asking``): it commits the turn to trading."""
        if action.startswith("bribe "):
            return (
                "A bribe cannot be undone: the two goods swap places and stay locked, and the "
                "card you pay with is gone."
            )
        if action.startswith("offer ") and state.step == MAIN and not state.opts.free_asking:
            return _commit_warning(state, seat)
        return None

    def auto_answer(self, state: State, seat: int) -> tuple[Action, str] | None:
        """``decline`` when it is the seat's only answer to an offer (no k cards showing the
        goods asked)."""
        o = state.offer
        if o is None or seat not in lg.awaited(state) or lg.reply_actions(state, seat):
            return None
        want = "any goods" if o.want == ANY_WANT else WANTS[o.want]
        few = "no card" if o.k == 1 else f"fewer than {o.k} cards"
        return "decline", f"{{s{seat}}} holds {few} showing {want}: nothing to accept with."

    def read_names(self, state: State, seat: int, text: str, names: Sequence[str]) -> str:
        """An offer's target may be a player's name (``offer bilal t5 for salt 1``)."""
        from engines.kathai.menu import read_names

        return read_names(state, seat, text, names)

    def menu(self, state: State, seat: int) -> Menu | None:
        """Sales with their points, pass, swaps, buy (or a reply's answers), then a line of
        syntax each for offers and bribes (``menu.py``)."""
        from engines.kathai import menu

        if seat not in lg.awaited(state):
            return None
        return Menu(
            tuple(menu.moves(state, seat)), tuple(menu.notes(state, seat)), len(lg.legal(state, seat))
        )

    def action_label(self, state: State, seat: int, action: Action) -> str:
        """A short label: the action text with card contents for single cards."""
        m = parse_move(action)
        if m.verb == "accept" and m.ids:
            from engines.kathai.data import describe

            return (f"{action} — give " + ", ".join(f"{CARD_TEXT[c]} ({describe(c)})" for c in m.ids))[:80]
        if m.verb in ("swap",) or (m.verb == "bribe" and m.pay != PROFIT):
            from engines.kathai.data import describe

            card = m.ids[0] if m.verb == "swap" else m.pay
            return f"{action} ({describe(card)})"[:80]
        return action[:80]

    def action_bound(self, n_players: int) -> int:
        """(max offers × n + 1) actions a turn times the turn limit, at the options' caps."""
        return (MAX_OFFERS_CAP * n_players + 1) * TURN_LIMIT_CAP

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[Action]:
        """``k`` random well-formed canonical texts over every verb (legal or not)."""
        out = []
        for _ in range(k):
            verb = rng.choice(("accept", "bribe", "buy", "decline", "offer", "pass", "sell", "swap"))
            ids = tuple(sorted(rng.sample(range(1, NCARDS + 1), rng.randint(1, 4))))
            if verb == "sell":
                m = Move("sell", ids=ids, goods=rng.randrange(NGOODS))
            elif verb == "bribe":
                a, b = sorted(rng.sample(range(NGOODS), 2))
                m = Move("bribe", pair=(a, b), pay=rng.choice((PROFIT, ids[0])))
            elif verb == "swap":
                m = Move("swap", ids=ids[:1])
            elif verb == "accept":
                m = Move("accept", ids=ids[: rng.randint(0, 3)])
            elif verb == "offer":
                kk = rng.randint(0, HAND_LIMIT)
                want = len(WANTS) - 1 if kk == 0 else rng.randrange(len(WANTS))
                give = ids[: rng.randint(0 if kk else 1, len(ids))]
                m = Move("offer", ids=give, target=rng.choice((ALL, *range(n_players))), want=want, k=kk)
            else:
                m = Move(verb)
            out.append(format_move(m))
        return out

    def secrets(self, state: State, viewer: int | None) -> Iterable[str]:
        """Quoted ids (``"t5"``, as they appear in JSON) the viewer may not see: other hands,
        the pile, face-down cards — all but its hand, sold cards, its own lock card and the
        cards of an open offer it is a party to."""
        s = state
        seen: set[int] = {c for x in s.sales for c in x.cards}
        if viewer is not None:
            seen.update(s.hands[viewer])
            o = s.offer
            if o is not None and (viewer == o.by or viewer in o.addressees):
                seen.update(o.give)
            if s.lock is not None and s.lock.by == viewer:
                seen.add(s.lock.card)
        return [f'"{CARD_TEXT[c]}"' for c in range(1, NCARDS + 1) if c not in seen]

    def invariants(self, state: State) -> None:
        """Spec §11: conservation, market, lock, hand sizes, pile vs final, sale scores, profit
        counts. Raises AssertionError."""
        s = state
        places = list(s.pile) + list(s.discard_up) + list(s.discard_down)
        for h in s.hands:
            places += h
        for p in s.profit:
            places += p
        if s.lock is not None:
            places.append(s.lock.card)
        assert sorted(places) == list(range(1, NCARDS + 1)), "cards not conserved"
        assert sum(TOTAL_ITEMS[c] for c in places) == 125
        assert sorted(s.market) == list(range(NGOODS)), "market is not a permutation"
        if s.lock is not None:
            pa, pb = (s.market.index(g) for g in s.lock.pair)
            assert abs(pa - pb) == 1, "lock pair not adjacent"
            if s.sales:
                assert s.lock.turn > s.sales[-1].turn, "a sale did not clear the lock"
        assert all(0 <= len(h) <= HAND_LIMIT for h in s.hands), "hand size out of range"
        assert all(list(h) == sorted(h) for h in s.hands)
        assert (len(s.pile) == 0) == (s.final is not None), "pile 0 iff final set"
        for x in s.sales:
            need = PRICES[x.pos][1]
            assert x.pos < SELLABLE and -(-need // 3) + x.bonus <= x.points <= 7 + x.bonus
        for q in range(s.n):
            made = sum(1 for x in s.sales if x.seat == q)
            assert s.scores[q] == sum(x.points for x in s.sales if x.seat == q)
            assert len(s.profit[q]) == made - s.spent[q], "profit count"
        if s.offer is not None:
            assert set(s.offer.give) <= set(s.hands[s.offer.by])
        assert s.offers_used <= s.opts.max_offers


def _commit_warning(state: State, seat: int) -> str:
    """What a first offer gives up (ruling 5): selling, bribing and buying for the rest of the
    turn, whatever the answer; names the best sale it rules out, if any."""
    text = (
        "An offer commits your turn to trading: even if nobody accepts, you can no longer "
        "sell, bribe or buy this turn (only offer again, swap or pass)."
    )
    from engines.kathai.menu import sales

    best = sales(state, seat)
    if best:
        action, _, points = best[0]
        text += f" You could `{action}` now for {points} point{'s' if points != 1 else ''}."
    return text


def _do(state: State, seat: int, m: Move, ev: list[Event]) -> State:
    """Carry out the legal move ``m`` of ``seat``, appending its events to ``ev``."""
    v = m.verb
    if v == "sell":
        return flow.do_sell(state, m, ev)
    if v == "bribe":
        return flow.do_bribe(state, m, ev)
    if v == "buy":
        return flow.do_buy(state, ev)
    if v == "swap":
        return flow.do_swap(state, m, ev)
    if v == "pass":
        return flow.do_pass(state, ev)
    if v == "offer":
        return flow.do_offer(state, m, ev)
    if v == "accept":
        return flow.do_accept(state, seat, m, ev)
    return flow.do_decline(state, seat, ev)
