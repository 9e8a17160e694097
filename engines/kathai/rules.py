"""The Kathai engine: each method names the module of ``engines/kathai`` that does the job.

``state`` (the value, set-up, invariants), ``legal`` (whose turn, what is legal), ``apply`` (what
an action does), ``notation`` (the grammar), ``view`` (what a viewer sees), ``scoring``,
``prompts`` (what the host asks), ``describe`` (texts) and ``ai`` (the easy seat, the search's
parts).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engines.contract import Action
from engines.engine import GameEngine
from engines.events import Event
from engines.kathai import apply as ap
from engines.kathai import describe, icons, notation, scoring, undo
from engines.kathai import legal as lg
from engines.kathai import state as st
from engines.kathai import view as kv
from engines.kathai.ai import determinize as dt
from engines.kathai.ai import heuristic, playout
from engines.kathai.prompts import complete, controls, host, menu
from engines.kathai.state import State
from engines.kathai.view import KathaiView
from engines.outcome import Menu, Outcome
from engines.prompt import with_icons

if TYPE_CHECKING:
    from engines.prompt import Prompt


class KathaiEngine(GameEngine[State, KathaiView]):
    """Kathai (Cathay) for 3–5 players."""

    name = "kathai"
    title = "Kathai"
    min_players = 3
    max_players = 5
    options = st.OPTIONS
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
    # (20 beat 40 against easy). Normal plays 40 iterations, hard 320: normal beats easy and
    # hard beats normal in ``bazaar arena``, each move within the time caps.
    search_iterations = {"normal": 40, "hard": 320}
    playout_depth = 20
    # 3-5 players: 4, the middle of the box's range, is assumed the commonest table (no table
    # statistics exist yet); the arena then plays 3 (the minimum) and 4.
    common_players = 4
    summary = describe.SUMMARY

    # ------------------------------------------------------------------ rules
    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game (``state.deal``, then the first turn's draw). Raises :class:`BadOption`."""
        self.check_players(n_players)
        opts = st.Opts.of(self.resolve_options(options))
        return ap.first_turn(st.deal(seed, n_players, opts))

    def events_on_setup(self, state: State) -> list[Event]:
        return ap.setup_events(state)

    def to_move(self, state: State) -> tuple[int, ...]:
        return lg.awaited(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return lg.legal(state, seat)

    def parse(self, text: str) -> Action:
        return notation.parse(text)

    def is_legal(self, state: State, seat: int, text: str) -> str | None:
        return lg.is_legal(state, seat, text)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Apply ``action`` and the automatic steps after it (turn end, next draw). Raises
        :class:`BadNotation`, :class:`GameOver`, :class:`NotYourTurn` or :class:`IllegalAction`."""
        m = notation.parse_move(action)
        err = lg.why_not(state, seat, m)
        if err is not None:
            raise err
        ev: list[Event] = []
        return ap.play(state, seat, m, ev), ev

    def step(self, state: State, seat: int, action: Action) -> State:
        """``apply`` for the search: the same new state, without checking the action (the search
        plays only legal candidates) and without returning the events."""
        return ap.play(state, seat, notation.parse_move(action), [])

    def view(self, state: State, viewer: int | None) -> KathaiView:
        return kv.build(state, viewer)

    def secrets(self, state: State, viewer: int | None) -> Iterable[str]:
        return kv.secrets(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def invariants(self, state: State) -> None:
        st.invariants(state)

    def action_bound(self, n_players: int) -> int:
        return notation.action_bound(n_players)

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[Action]:
        return notation.sample_actions(n_players, rng, k)

    # ------------------------------------------------------------------ host
    def complete(self, state: State, seat: int, prefix: str, limit: int = 25) -> list[tuple[str, str]]:
        return complete.complete(state, seat, prefix, limit)

    def timeout_action(self, state: State, seat: int) -> Action:
        return host.timeout_action(state, seat)

    def prompt(self, state: State, seat: int) -> Prompt:
        return with_icons(controls.build_prompt(state, seat), icons.icon)

    def public_actions(self, state: State, seat: int) -> bool:
        """False: every step's list names the seat's own cards (swap, sell, accept)."""
        return False

    def irreversible(self, state: State, seat: int, action: Action) -> str | None:
        return host.irreversible(state, seat, action)

    def reveals(self, state: State, seat: int, action: Action) -> str | None:
        """See ``engines/kathai/undo.py``: what the move showed, judged from its result."""
        after, events = self.apply(state, seat, action)
        return undo.reveals(state, seat, action, after, events)

    def private_action(self, state: State, seat: int, action: Action) -> bool:
        return host.private_action(action)

    def auto_answer(self, state: State, seat: int) -> tuple[Action, str] | None:
        return host.auto_answer(state, seat)

    def read_names(self, state: State, seat: int, text: str, names: Sequence[str]) -> str:
        return menu.read_names(state, seat, text, names)

    def menu(self, state: State, seat: int) -> Menu | None:
        return host.menu(state, seat)

    def action_label(self, state: State, seat: int, action: Action) -> str:
        return host.action_label(action)

    # ------------------------------------------------------------------ AI and search
    def choose(self, view: KathaiView, legal: Sequence[Action]) -> Action:
        return heuristic.choose(view, legal)

    def determinize(self, view: KathaiView, rng: random.Random) -> State:
        return dt.determinize(view, rng)

    def search_actions(self, state: State, seat: int) -> Sequence[Action]:
        return playout.search_actions(state, seat)

    def playout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        return playout.playout_action(state, seat, rng)

    def evaluate(self, state: State) -> Sequence[float]:
        return heuristic.evaluate(state)
