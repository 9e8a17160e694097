"""The Pralaya engine: the protocol methods of :class:`engines.base.Engine` over
:mod:`engines.pralaya.state` (the state value and turn machine), :mod:`engines.pralaya.notation`
(action text), :mod:`engines.pralaya.view` and :mod:`engines.pralaya.scoring`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.base import (
    Action,
    BadNotation,
    BadOption,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Option,
    Outcome,
    View,
)
from engines.pralaya import data, prompts
from engines.pralaya.notation import (
    BUY_DHONI,
    BUY_VEDA,
    DISCARD_V,
    DONE,
    PASS,
    SPACE,
    TAKE,
    action_space,
    label,
    parse,
    why_illegal,
)
from engines.pralaya.playout import playout_action, search_actions, search_rewards
from engines.pralaya.scoring import score_table
from engines.pralaya.state import (
    AFF_SHIFT,
    BUY,
    CELL_BITS,
    COLLECT,
    COST_E,
    DHONI_INDEX,
    DHONI_PRICE,
    DHONI_X,
    DISCARD,
    EMPTY,
    IS_OCEAN,
    N_CARDS,
    OVER,
    RELIC_SHIFT,
    TAKE_LISTS,
    State,
    buy_actions,
    do_buy,
    do_discard,
    do_done,
    do_pass,
    do_take,
    hand_counts,
    island_avail,
    legal,
    new_game,
    relics_on_island,
    round1_or_base_vitality,
    turn_event,
)
from engines.pralaya.view import PralayaView, make_view, secrets
from engines.prompt import Prompt

MAX_TURNS = 65  # after round 1 every turn removes one of the 63 relics; 2 round-1 turns may not
ACTION_BOUND = data.N_NON_OCEAN + 2 * MAX_TURNS  # takes/discards + done + buy/pass = 193
_SEATS = tuple((seat,) for seat in range(5))  # to_move's answers, built once


class PralayaEngine(Engine):
    """Pralaya (Yukinori Ohashi, revised edition 2018) for 2–5 players; see shared/specs/pralaya.md."""

    name = "pralaya"
    title = "Pralaya"
    min_players = 2
    max_players = 5
    has_escapes = True
    hidden_hands = True
    options = (
        Option("open_hands", bool, False, "Relic hands are visible to everyone."),
        Option(
            "veda_price",
            int,
            data.VEDA_PRICE,
            "Price of a Veda (a stand-in: the printed price is unknown).",
            min=1,
            max=10,
        ),
        Option(
            "first_seat",
            int,
            -1,
            "Seat that plays first (-1: chosen at random from the seed).",
            min=-1,
            max=4,
        ),
        Option(
            "fossil_all_players",
            bool,
            False,
            "Fossils of players who did not escape also count for the majority (they still score nothing).",
        ),
    )
    summary = (
        "Pralaya (2–5 players): collect relics from a face-up island, then escape on a Dhoni "
        "before it sinks.\n"
        "Each turn spend Vitality (3, or 4 with a Veda; 1 and 2 for the first two players of round 1) "
        "taking at least one relic, one at a time (`take b4` … `done`); Oceans cannot be taken.\n"
        "Then you may buy one card with coins (gold 6, silver 3, copper 1; no change given): a Veda "
        "(more Vitality) or the top Dhoni (you escape; Dhoni X costs all your coins).\n"
        "Escaped players instead discard one relic from the island each turn.\n"
        "The game ends after a turn that started with only one relic on the island, when all have escaped, "
        "or when only Oceans are left after the refill. Only escaped players score, with what they hold:\n"
        "• Gold, Silver and Copper Coin: 6, 3 and 1, what is left after paying\n"
        "• Demon Statue: 2 each, times −3 for each Demonic Pact you hold (a Pact alone scores nothing)\n"
        "• Ancient Manuscript: 5 per pair · Shattered Urn: 20 per set of 3 · Great Statues: their "
        "number squared\n"
        "• Pundit: each scores 1 per kind of card you hold (relic kinds, Veda, Dhoni)\n"
        "• Brahmin: your Demon Statues score 0; 15 more if you hold a Veda\n"
        "• Fossil: 15 to the one escaped player with the most (a tie scores nothing)\n"
        "Ties go to the player furthest from the first player."
    )
    search_iterations = {"normal": 50, "hard": 300}
    """Full playouts of about 45 actions, about 1 ms of CPU each early in a 3-player game. The
    decisions that matter (escape or wait, Veda, ``done``, discards) have two to four options, so
    50 iterations already tell a big difference (passing on Dhoni X in round 1) and normal is kept
    cheap; hard has six times as many to tell the smaller ones. Measured on a machine loaded 8-10
    on 2 cores (40-game arenas, wall time): normal p99 310 ms a move at 2 players; hard p99 1431 ms
    at 2 players; at 500 iterations hard's p99 was 3771 ms at 3 players, over its 3 s cap."""
    common_players = 3
    """Pralaya plays 2–5; 3 is taken as the usual table (no play statistics to go by): the first
    count whose Dhoni pile (X, 4, 7) has the contested middle price, and a light filler's typical
    group. The arena also plays 2."""
    property_options = (
        {},
        {"open_hands": True, "veda_price": 9, "first_seat": 1, "fossil_all_players": True},
    )

    # ---------------------------------------------------------------- protocol

    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game: seeded shuffle and island, first START run. Raises :class:`BadOption`."""
        self.check_players(n_players)
        opts = self.resolve_options(options)
        if opts["first_seat"] >= n_players:
            raise BadOption(
                f"Option `first_seat` must be between -1 and {n_players - 1} with {n_players} players."
            )
        state, _ = new_game(seed, n_players, opts)
        return state

    def to_move(self, state: State) -> tuple[int, ...]:
        """The active seat, or () once the game is over."""
        return () if state.step == OVER else _SEATS[state.active]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        """The seat's legal actions in the current step, ASCII-sorted; [] for any other seat."""
        if seat != state.active:
            return []
        if state.step == COLLECT:  # legal(state) for the commonest step, inline
            aff = state.avail >> AFF_SHIFT[state.v_left] & CELL_BITS
            lo, lo_done, hi = TAKE_LISTS[state.n]
            return (lo_done if state.taken else lo)[aff & 511] + hi[aff >> 9]
        return legal(state)

    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        """Apply one canonical action of the active seat and run the automatic steps after it.

        Returns ``(new state, events)``. Raises :class:`GameOver`, :class:`NotYourTurn`, or
        :class:`IllegalAction` with a reason (the state is never changed).
        """
        if state.step == OVER:
            raise GameOver()
        if seat != state.active:
            raise NotYourTurn("It is not your turn: waiting for {s%d}." % state.active)
        dec = SPACE[state.n].get(action)
        ev: list[Event] = []
        if dec is not None:
            verb, arg = dec
            step = state.step
            if step == COLLECT:
                if verb == TAKE:
                    if state.avail >> AFF_SHIFT[state.v_left] + arg & 1:
                        new = do_take(state, arg, ev)
                        return new, ev
                elif verb == DONE and state.taken:
                    new = do_done(state, ev)
                    return new, ev
            elif step == BUY:
                if verb == PASS:
                    new = do_pass(state, ev)
                    return new, ev
                if verb in (BUY_VEDA, BUY_DHONI) and action in buy_actions(state):
                    new = do_buy(state, "veda" if verb == BUY_VEDA else "dhoni", arg, ev)
                    return new, ev
            elif step == DISCARD and verb == DISCARD_V and state.avail >> RELIC_SHIFT + arg & 1:
                new = do_discard(state, arg, ev)
                return new, ev
        raise IllegalAction(why_illegal(state, action))

    def view(self, state: State, viewer: int | None) -> PralayaView:
        """What ``viewer`` (a seat, or None for spectators) may see. The schema::

            {"game": "pralaya", "viewer": seat|None, "n_players": n,
             "to_move": [seat] ([] when over), "over": bool,
             "headline": "Round 3 · {s1} collecting · 2 Vitality left",
             "options": {"open_hands", "veda_price", "first_seat", "fossil_all_players"},
             "round": int, "first": seat, "active": seat,
             "step": "collect" | "discard" | "buy" | "over",
             "vitality": V at the start of this turn (0 for an escaped seat), "v_left": int,
             "rows": 3, "cols": 5 | 6,
             "island": [{"cell": "b4", "card": "gol3"|None, "code": "gol"|"oce"|None,
                         "name": "Gold Coin"|"Ocean"|None, "cost": 3|None, "currency": 6|0,
                         "taken": emptied this turn, "new": refilled at the end of the last turn}]
                       (row-major a1, a2, … c6),
             "deck": cards left, "unrevealed": non-Ocean relics never seen (63 - seen),
             "discard": ["sil1", …] (face up, in order),
             "veda": {"left": int, "price": int, "stand_in": True},
             "dhoni": [{"id": "dhx", "price": "X"}, {"id": "dh7", "price": 7}] (pile, top first),
             "players": [{"seat", "hand_size", "hand": {code: count}|None, "hand_ids": [...]|None,
                          "veda": bool, "dhoni": "dh7"|None, "dhoni_price": "X"|7|None, "escaped": bool}],
             "me": None | {"seat", "hand": {code: count}, "hand_ids": [...], "currency": int,
                           "provisional": {"categories": [...], "breakdown": {category: points},
                                           "total": int, "fossil_known": bool},
                           "legal": [action texts]},
             "outcome": None | Outcome.as_dict()}

        Hands (``hand``/``hand_ids``) are null for other seats unless ``open_hands`` or game over.
        """
        return make_view(state, viewer, self.outcome(state))

    def outcome(self, state: State) -> Outcome | None:
        """None while the game runs; else the §7 result (only escaped seats score)."""
        if state.step != OVER:
            return None
        escaped = [d >= 0 for d in state.dhoni]
        ranks, scores, breakdown = score_table(
            [hand_counts(h) for h in state.hands],
            [bool(v) for v in state.veda],
            escaped,
            state.first,
            state.fossil_all,
        )
        notes = tuple(
            f"escaped via {data.DHONI[d].name}" if d >= 0 else "did not escape" for d in state.dhoni
        )
        return Outcome(
            ranks=ranks,
            scores=scores,
            categories=data.CATEGORIES,
            breakdown=breakdown,
            winners=tuple(s for s in range(state.n) if ranks[s] == 1),
            notes=notes,
        )

    def parse(self, text: str) -> str:
        """The canonical action for ``text`` (case and spaces normalised); raises :class:`BadNotation`."""
        return parse(text)

    # ---------------------------------------------------------------- helpers of the protocol

    def choose(self, view: View, legal_list: Sequence[str]) -> str:
        """The spec §12 heuristic AI (reads only ``view``)."""
        from engines.pralaya.ai import choose

        return choose(view, legal_list)

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state consistent with a seat's own ``view`` (see ``determinize.py``)."""
        from engines.pralaya.determinize import determinize

        return determinize(view, rng)

    def search_actions(self, state: State, seat: int) -> Sequence[str]:
        """The moves the search weighs: one take or discard per kind of relic (the policy's best
        takes); at a BUY step the Dhoni alone when the game may end before the seat's next turn
        or when a priced Dhoni is on top and the easy rule escapes, else the Dhoni, the Veda and
        ``pass`` (see ``playout.py``)."""
        return search_actions(state, seat)

    def search_rewards(self, outcome: Outcome) -> list[float]:
        """The search's reward for a finished game: escaping pays a share of its own (see
        ``playout.py``)."""
        return search_rewards(outcome)

    def playout_action(self, state: State, seat: int, rng: random.Random) -> str:
        """The search's playout policy (see ``playout.py``)."""
        return playout_action(state, seat, rng)

    def action_bound(self, n_players: int) -> int:
        """193: at most 63 takes/discards, 65 `done` and 65 buys/passes (spec §11.7)."""
        return ACTION_BOUND

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[Action]:
        """``k`` well-formed texts drawn from :meth:`action_space` (small enough to list)."""
        spaces: dict[int, tuple[str, ...]] = self.__dict__.setdefault("_spaces", {})
        if n_players not in spaces:
            spaces[n_players] = tuple(self.action_space(n_players))
        space = spaces[n_players]
        return rng.choices(space, k=k)

    def action_space(self, n_players: int) -> Iterable[str]:
        """Every well-formed action for ``n_players`` (takes/discards of its cells, all payments)."""
        return action_space(n_players)

    def secrets(self, state: State, viewer: int | None) -> Iterable[str]:
        """Quoted ids of the deck's cards and, unless hands are public, of other seats' hands."""
        return secrets(state, viewer)

    def prompt(self, state: State, seat: int) -> Prompt:
        """``seat``'s controls now (see ``prompts.py``)."""
        return prompts.prompt(self, state, seat)

    def public_actions(self, state: State, seat: int) -> bool:
        """Collecting and discarding offer cells of the face-up island within the public Vitality
        left, so anyone may see those lists; buying lists the payments a hidden hand allows."""
        return state.step != BUY or super().public_actions(state, seat)

    def events_on_setup(self, state: State) -> list[Event]:
        """The ``turn`` event of the first seat."""
        seat = state.active
        can_take = state.step != BUY or bool(state.taken)
        return [turn_event(seat, state.round, state.v_start, state.dhoni[seat] >= 0, can_take, state.last)]

    def is_legal(self, state: State, seat: int, text: str) -> str | None:
        """As :meth:`Engine.is_legal`; text that is no Pralaya action at all is refused naming the
        island's own size ("a column 1–5" on a 3 × 5 island)."""
        reason = super().is_legal(state, seat, text)
        if reason is not None and state.step != OVER and text.strip():
            try:
                parse(text)
            except BadNotation:
                return why_illegal(state, text)
        return reason

    def action_label(self, state: State, seat: int, action: str) -> str:
        """A short button label, e.g. "Take b4 · Demon Statue (1 V)" or "Buy Veda: 1 silver + 1 copper"."""
        return label(state, action)

    def irreversible(self, state: State, seat: int, action: str) -> str | None:
        """Buying a Dhoni is the escape: from then on the seat only discards from the island."""
        if action.startswith("buy dhoni"):
            return (
                "Buying the Dhoni is your escape: you collect no more relics, and each later turn "
                "you only discard one from the island."
            )
        return None

    def invariants(self, state: State) -> None:
        """Check spec §11 on one state; raises AssertionError."""
        check_invariants(self, state)


def check_invariants(engine: PralayaEngine, s: State) -> None:
    """Spec §11 (1–5, 7, 10) on one state; raises AssertionError naming what broke."""
    n = s.n
    rows, cols = data.GRID[n]
    assert len(s.island) == rows * cols, "island size"
    assert s.avail == island_avail(s.island), "avail matches the island"
    assert len(s.hands) == len(s.veda) == len(s.dhoni) == n
    # 1. conservation
    cards = (
        list(s.deck) + [c for c in s.island if c != EMPTY] + [c for h in s.hands for c in h] + list(s.discard)
    )
    assert sorted(cards) == list(range(N_CARDS)), "every relic id is in exactly one place"
    owned_veda = [v for v in s.veda if v]
    assert len(set(owned_veda)) == len(owned_veda) and all(1 <= v <= n for v in owned_veda), "Veda ids"
    owned_dhoni = [d for d in s.dhoni if d >= 0]
    assert sorted(owned_dhoni + list(s.dhoni_pile)) == sorted(DHONI_INDEX[d] for d in data.DHONI_PILES[n]), (
        "Dhoni pile + owned = the Dhoni of this player count"
    )
    # 2. Oceans stay on the island or in the deck
    assert not any(IS_OCEAN[c] for h in s.hands for c in h), "an Ocean in a hand"
    assert not any(IS_OCEAN[c] for c in s.discard), "an Ocean in the discard"
    assert all(list(h) == sorted(h) for h in s.hands)
    # 3. the Dhoni pile: X (if left) on top, then ascending
    pile = s.dhoni_pile
    if DHONI_X in pile:
        assert pile[0] == DHONI_X, "Dhoni X must be on top"
    prices = [p for p in (DHONI_PRICE[d] for d in pile) if p is not None]  # all but Dhoni X
    assert prices == sorted(prices), "Dhoni below X ascend"
    # 4. Vitality
    assert 0 <= s.v_left <= data.VEDA_VITALITY, "V_left out of range"
    if s.end_reason != "island_empty":  # (that end comes after the refill has cleared ``taken``)
        assert bin(s.taken).count("1") == len(s.turn_cards), "one emptied cell per card taken this turn"
        assert all(s.island[i] == EMPTY for i in range(len(s.island)) if s.taken >> i & 1)
    escaped_active = s.dhoni[s.active] >= 0
    if s.v_start > 0:  # a collecting turn (an escaped seat's turn starts with 0)
        assert s.v_left + sum(COST_E[c] for c in s.turn_cards) == s.v_start, "V_left + cost taken = V"
    else:
        assert s.v_left == 0
    assert s.turns <= MAX_TURNS, "too many turns"
    if s.step != OVER:
        # 5. a turn starts with a relic on the island; only the active seat acts
        assert relics_on_island(s.island) + len(s.turn_cards) >= 1
        assert s.last == (relics_on_island(s.island) + len(s.turn_cards) == 1), "last flag"
        assert (s.step == DISCARD) == escaped_active, "escaped seats discard, others collect"
        if s.step == DISCARD:
            assert s.v_start == 0 and not s.turn_cards
        else:
            assert s.v_start == round1_or_base_vitality(s, s.active), "start Vitality"
        assert legal(s), "the active seat has no legal action"
        assert s.end_reason == ""
        return
    # 10. scoring
    assert s.end_reason in ("last_card", "all_escaped", "island_empty")
    out = engine.outcome(s)
    assert out is not None
    for seat in range(n):
        b, total = out.breakdown[seat], out.scores[seat]
        if s.dhoni[seat] >= 0:
            assert b is not None and total == sum(b[c] for c in data.CATEGORIES), "total = sum of categories"
        else:
            assert b is None and total is None, "only escaped seats score"
    escaped_ranks = [out.ranks[t] for t in range(n) if s.dhoni[t] >= 0]
    assert len(set(escaped_ranks)) == len(escaped_ranks), "escaped seats never tie"
    assert all(out.ranks[t] == len(escaped_ranks) + 1 for t in range(n) if s.dhoni[t] < 0)
